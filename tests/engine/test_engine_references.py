"""References as Excel reads them: 3-D references across sheets, whole columns and rows up to the
sheet's last column, implicit intersection of rows and columns in ordinary formulas, the whole row an
array formula returns, and unions of areas as function arguments. Each workbook is built here and
recalculated as ``xlrating convert`` does."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.worksheet.formula import ArrayFormula

from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.functions import ExcelError


def _values(path: Path, sheet: str, cells: list[str]) -> list[object]:
    evaluated = evaluate_workbook(str(path), limits=convert_limits())
    grid = evaluated.grid.sheet(sheet)
    assert grid is not None
    result = []
    for cell in cells:
        column, row = openpyxl.utils.cell.coordinate_from_string(cell)
        result.append(grid.get(row, openpyxl.utils.cell.column_index_from_string(column)))
    return result


def test_an_array_formula_returning_a_whole_row_fills_its_range_with_the_rows_cells(tmp_path: Path) -> None:
    # xlcalculator's reader.xlsm, saved by Excel: {=First!1:1} over A1:XFD1 shows First's three
    # headers and 0 for every empty cell after them, up to XFD1
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = "First"
    first["A1"], first["B1"], first["C1"], first["E1"] = "Header 1", "Header 2", "Header 3", 5
    other = wb.create_sheet("Eleventh")
    other["A1"] = ArrayFormula("A1:XFD1", "=First!1:1")
    wb.save(tmp_path / "row.xlsx")
    assert _values(tmp_path / "row.xlsx", "Eleventh", ["A1", "C1", "D1", "E1", "AA1", "XFD1"]) == [
        "Header 1", "Header 3", 0.0, 5.0, 0.0, 0.0]
