"""The package's layers, as docs/layers.md writes them down: no module imports another that imports
it back, and each top-level part imports only the parts below it. Every import counts: at module
level, inside a function (a lazy import) and under ``TYPE_CHECKING`` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

import xlrating
from tests.import_graph import Edge, cycle_text, first_cycle, import_edges

PACKAGE = Path(xlrating.__file__).parent
DOCS = Path(__file__).parents[1] / "docs" / "layers.md"

# What each top-level part may import of the package besides itself, lowest first (docs/layers.md).
# "(package)" is xlrating/__init__.py, which loads the rating systems on first use.
LAYERS: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "excel_errors": frozenset(),
    "kept": frozenset(),
    "gate": frozenset({"kept"}),
    "functions": frozenset({"core", "excel_errors"}),
    "exports": frozenset({"core", "gate"}),
    "leaderboards": frozenset({"core", "exports"}),
    "sheets": frozenset({"core", "gate", "kept", "functions", "hosts"}),
    "store": frozenset({"core"}),
    "systems": frozenset({"core", "sheets", "store", "exports", "leaderboards"}),
    "engine": frozenset({"core", "gate", "kept", "functions", "excel_errors"}),
    "hosts": frozenset({"(package)", "core", "gate", "functions", "excel_errors", "engine", "sheets", "store",
                        "systems", "leaderboards"}),
    "web": frozenset({"core", "gate", "kept", "sheets", "store", "systems", "exports", "leaderboards"}),
    "cli": frozenset({"core", "gate", "functions", "sheets", "store", "systems", "exports", "leaderboards", "engine",
                      "hosts", "web"}),
    "(package)": frozenset({"core"}),
    "__main__": frozenset({"cli"}),
}
# The one part of sheets/ above hosts/: the templates are the hosts' workbooks (their formulas name
# the xlwings module); the rest of sheets/ reads and validates submissions and knows no host.
ABOVE_HOSTS = "xlrating.sheets.templates"


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "(package)"


def layer_violations(edges: list[Edge]) -> list[str]:
    wrong = []
    for importer, imported, line in edges:
        if not imported.startswith("xlrating"):
            continue
        mine, theirs = part_of(importer), part_of(imported)
        if mine == theirs:
            continue
        if theirs == "hosts" and mine == "sheets" and not importer.startswith(ABOVE_HOSTS):
            wrong.append(f"{importer} (line {line}) imports {imported}: only sheets/templates builds on hosts/")
        elif theirs not in LAYERS.get(mine, frozenset()):
            allowed = ", ".join(sorted(LAYERS.get(mine, ())))
            rule = f"may import only {allowed} of xlrating" if allowed else "may import nothing else of xlrating"
            wrong.append(f"{importer} (line {line}) imports {imported}: {mine} {rule}")
    return wrong


@pytest.fixture(scope="module")
def edges() -> list[Edge]:
    return import_edges(PACKAGE)


def test_no_module_imports_one_that_imports_it_back(edges: list[Edge]) -> None:
    cycle = first_cycle(edges, "xlrating")
    assert cycle is None, "a circle of imports: " + cycle_text(cycle or [])


def test_each_part_imports_only_the_parts_below_it(edges: list[Edge]) -> None:
    assert layer_violations(edges) == []


def test_every_top_level_part_has_its_place_in_the_layers() -> None:
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").exists()}
    assert parts | {"(package)"} == set(LAYERS)


def test_the_layers_are_written_down_for_the_next_engineer() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for part in LAYERS:
        if part != "(package)":
            assert f"`{part}" in text, part


def test_a_new_circle_is_found_and_named(tmp_path: Path) -> None:
    package = tmp_path / "xlrating"
    (package / "web").mkdir(parents=True)
    for folder in (package, package / "web"):
        (folder / "__init__.py").touch()
    (package / "web" / "app.py").write_text("from xlrating.web.officer import routes\n")
    (package / "web" / "officer.py").write_text("def routes():\n    from xlrating.web import app\n")
    cycle = first_cycle(import_edges(package), "xlrating")
    assert cycle is not None
    assert cycle_text(cycle) == ("xlrating.web.app imports xlrating.web.officer (line 1); "
                                 "xlrating.web.officer imports xlrating.web.app (line 2)")


def test_an_import_against_the_layers_is_named_with_its_line() -> None:
    edges: list[Edge] = [("xlrating.core.mers.rules", "xlrating.sheets.validate.findings", 7),
                         ("xlrating.sheets.validate.ema.sheet", "xlrating.hosts.vba", 3),
                         ("xlrating.sheets.templates.style", "xlrating.hosts.xlwings_udfs", 20)]
    assert layer_violations(edges) == [
        "xlrating.core.mers.rules (line 7) imports xlrating.sheets.validate.findings: core may import nothing else of xlrating",
        "xlrating.sheets.validate.ema.sheet (line 3) imports xlrating.hosts.vba: only sheets/templates builds on hosts/",
    ]
