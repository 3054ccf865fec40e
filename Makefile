# xlrating: `make demo` runs the pipeline on the bundled examples, `make test` runs the tests.
# Both create the virtualenv (.venv) on first use.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.xlrating-installed

.PHONY: demo test serve templates bench lint clean

# The package is byte-compiled once at install: where PYTHONDONTWRITEBYTECODE is set, every command
# would otherwise compile it again (a tenth of a second of each `xlrating convert`).
$(STAMP): pyproject.toml requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e ".[test,dev]"
	$(BIN)/python -m compileall -q xlrating
	touch $(STAMP)

# The demo stores the examples of all three systems in demo-out/xlrating.db, dated so that each
# system's latest event falls in the week up to today (copies in demo-out/submissions/), and never
# deletes that store: run again it finds them stored; once the store holds anything else (say a
# tournament accepted through `make serve`) it stops without writing and says how to start afresh.
demo: $(STAMP)
	$(BIN)/xlrating demo --out demo-out

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

# The web intake on the demo's store (make demo first for data; what the web stores there stays, the
# demo never removes it); the officer's password comes from $$XLRATING_OFFICER_PASSWORD (no default).
serve: $(STAMP)
	mkdir -p demo-out
	$(BIN)/xlrating serve --db demo-out/xlrating.db

templates: $(STAMP)
	$(BIN)/xlrating templates

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e ".[bench]"
	$(BIN)/python benchmarks/bench_leaderboards.py
	$(BIN)/python benchmarks/bench_validate.py
	$(BIN)/python benchmarks/bench_convert.py

lint: $(STAMP)
	$(BIN)/ruff check xlrating tests benchmarks
	$(BIN)/mypy

clean:
	rm -rf $(VENV) demo-out .pytest_cache .hypothesis
