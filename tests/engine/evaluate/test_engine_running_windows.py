"""A range with a fixed top and a bottom moving with the row (``SUM($B$2:B2)`` filled down, a
running total) is computed over the whole column at once, and every row gets the value the
cell-by-cell path gives: sums added in the cell path's order, counts, averages, minimum and maximum
of each row's window, the first error of the window, text and empty cells skipped."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.vector import Unsupported
from xlrating.engine.formula.reader import parse
from xlrating.engine.formula.tree import Ref


def _book(path: Path, rows: int = 60) -> Path:
    rng = random.Random(5)
    book = openpyxl.Workbook()
    sheet = book.active
    for r in range(2, rows + 2):
        sheet.cell(r, 1, rng.choice([rng.uniform(-1e3, 1e3), 0.1, 1e16, -1e16, rng.randint(-5, 5)]))
        sheet.cell(r, 2, rng.choice([rng.uniform(0, 1), 0.3, None, "text", 7.0]))
        for j, formula in enumerate([f"=SUM($A$2:A{r})", f"=SUM($A$2:B{r})", f"=AVERAGE($B$2:B{r})",
                                     f"=MIN($A$2:A{r})", f"=MAX($A$2:B{r})", f"=COUNT($A$2:B{r})",
                                     f"=SUM(A{r},$A$2:A{r})", f"=SUM($D$3:D{r + 1})*2", f"=SUM(A$2:A{r})"]):
            sheet.cell(r, 3 + j, formula)
    sheet.cell(30, 1, "=1/0")  # an error in the window from row 30 down (the formula cells stay on)
    book.save(path)
    return path


def _values(path: Path) -> tuple[dict[tuple[int, int], str], dict[str, int]]:
    evaluated = evaluate_workbook(str(path))
    sheet = evaluated.grid.order[0]
    return {(r, c): repr(sheet.get(r, c)) for r in range(1, 64) for c in range(1, 13)}, evaluated.stats


def test_running_windows_are_the_cell_by_cell_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _book(tmp_path / "running.xlsx")
    vectorised, stats = _values(path)

    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    cell_by_cell, cell_stats = _values(path)
    assert cell_stats["vector"] == 0
    assert {k: (v, cell_by_cell[k]) for k, v in vectorised.items() if v != cell_by_cell[k]} == {}
    assert stats["cell"] < 20  # the windows themselves went whole-column (only D reads itself: row by row)
    assert vectorised[(29, 3)] != "#DIV/0!" and "DIV/0" in vectorised[(31, 3)]


def test_a_window_written_bottom_first_keeps_each_ends_anchor() -> None:
    """``A$5:A3`` is the range A3:A$5: its top moves with the row and its bottom stays."""
    assert parse("=SUM(A$5:A3)").args[0] == Ref(None, 3, 1, 5, 1, rel_r1=True, rel_r2=False)
    assert not parse("=SUM($A$2:A2)").args[0].is_cell  # one cell only in its own row
