"""Small workbooks for the function tests: rows of values and formulas, recalculated by the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import Sheet


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


def assert_excel_value(got: Any, expected: Any, rel: float = 1e-12) -> None:
    """``got`` is the error ``expected`` names ("#NUM!"), or the number ``expected`` within ``rel``."""
    from xlrating.functions import ExcelError

    if isinstance(expected, str):
        assert isinstance(got, ExcelError) and got.code == expected, got
    else:
        assert got == pytest.approx(expected, rel=rel, abs=1e-300)
