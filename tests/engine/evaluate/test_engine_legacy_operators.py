"""Implicit intersection at an operator of a legacy formula: an ordinary (not array) formula of a
workbook computes each operand given as a range of several cells as the cell of the range in the
formula's own row (a column of cells) or column (a row of cells), #VALUE! where there is none, as
Excel computes a formula saved before dynamic arrays (Microsoft's "Implicit intersection operator:
@" page: ``=SUM(@B1:B3*@C1:C3)``) and LibreOffice computes any formula not entered as an array.
A function whose parameters take arrays (SUMPRODUCT) multiplies the ranges entry by entry; an array
formula does too. Each workbook is built here, marked saved by Excel, and recalculated as ``xlrating
convert`` does; the same workbook recalculated by LibreOffice gives the same values."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from tests.engine.engine_books import saved_by_excel as saved_by_excel_
from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.engine.libreoffice import convert as lo_convert
from xlrating.engine.libreoffice import make_profile
from xlrating.functions import ExcelError

VALUE = ExcelError("#VALUE!")

# formula cell -> its value; A1:A10 = -1 .. -10, B = 1 .. 10, C = 10 .. 100
CASES: dict[str, tuple[str, object]] = {
    "E2": ("=SUM(B1:B3*C1:C3)", 40.0),  # B2*C2, not the sum of the three products (140)
    "E3": ("=SUM(B1:B3*C1:C3)", 90.0),
    "E4": ("=SUM(B1:B3*C1:C3)", VALUE),  # row 4 meets neither range
    "E5": ("=MAX(B1:B10*2)", 10.0),  # twice B5, not the largest of all (20)
    "E6": ("=SUM(IF(B1:B10>5,1,0))", 1.0),  # B6 > 5: one, not the count of such rows (5)
    "E7": ("=SUM(--(B1:B10>3))", 1.0),
    "E8": ('=COUNT(B1:B10&"")', 1.0),  # "8": text of a number as an argument's value, which COUNT counts
    "E9": ("=SUM(A1:A10-B1:B10)", -18.0),
    "E11": ("=SUM(B1:B10*2)", VALUE),  # row 11 is past the ranges
    "E12": ("=SUMPRODUCT(B1:B3*C1:C3)", 140.0),  # SUMPRODUCT's arguments are arrays: every product
    "E13": ("=SUM(B1:B3)*2", 12.0),  # a range SUM takes itself is whole
    "E14": ("=MAX(B:B*2)", 0.0),  # B14 is empty: 0
    "E15": ("=SUM(-B1:B20)", -0.0),  # B15 empty
    "E16": ("=SUM(A1:D1*2)", VALUE),  # a row of cells not reaching column E
    "D12": ("=SUM(A1:F1*2)", 6.0),  # D1 * 2: the cell of the row in the formula's own column
}


def _book(path: Path, saved_by_excel: bool = True) -> Path:
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Calc"
    for row in range(1, 11):
        sheet.cell(row, 1, -row)
        sheet.cell(row, 2, row)
        sheet.cell(row, 3, 10 * row)
    sheet["D1"], sheet["F1"] = 3, 4
    for cell, (formula, _) in CASES.items():
        sheet[cell] = formula
    sheet["G2"] = ArrayFormula("G2", "=SUM(B1:B3*C1:C3)")  # entered with Ctrl+Shift+Enter: every product
    wb.save(path)
    if saved_by_excel:
        saved_by_excel_(path)
    return path


def _ours(path: Path) -> dict[str, object]:
    evaluated = evaluate_workbook(str(path), limits=convert_limits())
    assert evaluated.warnings == []
    grid = evaluated.grid.sheet("Calc")
    assert grid is not None
    cells = [*CASES, "G2"]
    return {cell: grid.get(int(cell[1:]), openpyxl.utils.cell.column_index_from_string(cell[0])) for cell in cells}


def test_an_operator_of_a_legacy_formula_takes_the_cell_of_a_range_in_its_row(tmp_path: Path) -> None:
    values = _ours(_book(tmp_path / "legacy.xlsx"))
    assert {cell: values[cell] for cell in CASES} == {cell: expected for cell, (_, expected) in CASES.items()}
    assert values["G2"] == 140.0


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_intersects_the_same_operands(tmp_path: Path) -> None:
    book = _book(tmp_path / "legacy.xlsx")
    recalculated = lo_convert(book, tmp_path / "lo", make_profile(tmp_path / "profile"))
    sheet = openpyxl.load_workbook(recalculated, data_only=True)["Calc"]
    theirs: dict[str, object] = {}
    for cell in [*CASES, "G2"]:
        value = sheet[cell].value
        theirs[cell] = ExcelError(value) if isinstance(value, str) and value.startswith("#") else float(value)
    assert theirs == _ours(book)
