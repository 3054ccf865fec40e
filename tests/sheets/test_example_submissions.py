"""The bundled examples: committed files hold exactly what the generator writes, the good ones are
clean, and the one with mistakes shows each typical mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from xlrating.sheets.examples.submissions import BAD_FILE, EVENTS, write_examples
from xlrating.sheets.read.xlsx import read_workbook
from xlrating.sheets.validate.ema.sheet import validate_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return write_examples(tmp_path_factory.mktemp("examples"))


def _content(path):
    return [(g.name, [list(r) for r in g.rows], g.formulas, g.merged) for g in read_workbook(path)]


def test_committed_examples_equal_the_generator_output(generated):
    committed = sorted(p.name for p in EXAMPLES.glob("*.xlsx"))
    assert committed == sorted(p.name for p in generated)
    for path in generated:
        assert _content(EXAMPLES / path.name) == _content(path), f"{path.name}: run examples/make_examples.py"


def test_every_good_example_validates_without_findings(generated):
    for path in generated:
        if path.name != BAD_FILE:
            assert validate_file(path).findings == [], path.name


def test_the_examples_span_both_rulesets_layouts_and_years():
    assert {e.ruleset for e in EVENTS} == {"MCR", "Riichi"}
    assert {e.layout for e in EVENTS} == {"template", "beside", "own_sheet"}
    assert len({e.end.year for e in EVENTS}) >= 2


def test_the_bad_example_shows_the_typical_mistakes(generated):
    result = validate_file(next(p for p in generated if p.name == BAD_FILE))
    assert not result.valid
    assert {"EMA_ID_LOST_LEADING_ZERO", "EMA_ID_DUPLICATE", "PLACE_GAP", "END_BEFORE_START",
            "ROW_COUNT_MISMATCH", "EMA_ID_MISSING"} <= {f.code for f in result.findings}
