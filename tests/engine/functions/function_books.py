"""Small workbooks for the function tests: rows of values and formulas, recalculated by the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from xlrating.engine import evaluate_workbook
from xlrating.engine.grid import Sheet


def recalculated(tmp_path: Path, rows: list[list[Any]], formulas: dict[str, str]) -> Sheet:
    """The sheet of a workbook holding ``rows`` from A1 and ``formulas`` at their cells, recalculated."""
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    for ref, formula in formulas.items():
        wb.active[ref] = formula
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    return sheet
