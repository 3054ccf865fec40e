"""Implicit intersection at a function's parameter that takes one value, in a legacy formula: an
ordinary (not array) formula of a workbook Excel or LibreOffice saved computes a range of several
cells given where a function takes one value (``ABS(number)``, ``POWER(number, power)``,
``CONCATENATE(text1, ...)``) as the cell of the range in the formula's own row (a column of cells)
or column (a row of cells), #VALUE! where there is none, as Excel computes a formula saved before
dynamic arrays (Microsoft's "Implicit intersection operator: @" page: ``=SUM(ABS(@A1:A10))``; POI's
FormulaEvalTestData_Copy.xlsx, which Excel saved, has ``ATAN2(I167:I169,I11:K11)`` in J168 as
ATAN2(I168,J11)). A parameter that takes a range (SUM's numbers, ROWS) keeps it whole, and so does
every function inside one whose parameters take arrays (SUMPRODUCT); an array formula and a
workbook no spreadsheet saved compute each cell of the range, as before. Each workbook is built
here and recalculated as ``xlrating convert`` does; LibreOffice recalculates the same values."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string
from openpyxl.worksheet.formula import ArrayFormula

from tests.engine.engine_books import saved_by_excel as saved_by_excel_
from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.engine.libreoffice import convert as lo_convert
from xlrating.engine.libreoffice import make_profile
from xlrating.functions import ExcelError

VALUE = ExcelError("#VALUE!")

# formula cell -> (formula, its value in a legacy formula); A1:A20 = -1 .. -20, B = 1 .. 20,
# C = 10 .. 200; row 1 across: A1 -1, B1 1, C1 10, D1 3, E1 5, F1 4
CASES: dict[str, tuple[str, object]] = {
    "E2": ("=ABS(A1:A20)", 2.0),
    "E3": ("=SUM(ABS(A1:A20))", 3.0),  # ABS(A3) summed, not the sum of every ABS (210)
    "E4": ("=SUM(ABS(A1:A3))", VALUE),  # row 4 is not in 1:3
    "E5": ("=POWER(B1:B20,2)", 25.0),
    "E6": ("=POWER(A1:F1,B1:B20)", 15625.0),  # POWER(E1, B6): a row of cells meets the formula's column
    "E7": ('=CONCATENATE(B1:B20,"-",C1:C20)', "7-70"),
    "E8": ("=SUM(LEN(C1:C20))", 2.0),  # LEN(C8), "80"
    "E9": ("=SUMPRODUCT(ABS(A1:A20))", 210.0),  # SUMPRODUCT takes arrays: every ABS
    "E10": ("=SUM(MROUND(B1:B20,4))", 12.0),  # a ToolPak function (MROUND(B10,4)) too
    "E11": ("=SUM(FLOOR(C1:C20,25))", 100.0),
    "E12": ("=SUM(B1:B20)", 210.0),  # a range SUM takes itself is whole
    "E13": ("=ROWS(B1:B20)+ABS(A13:A14)", 33.0),  # ROWS counts the whole range; ABS(A13)
    "E16": ("=SUM(ABS(A1:A20),B1:B2)", 19.0),
    "E17": ('=IF(ABS(A1:A20)>10,"big","small")', "big"),
    "E25": ("=SUM(ABS(B:B))", 0.0),  # B25, past the cells used: empty
    "G2": ("=POWER(A1:F1,2)", VALUE),  # column G is not in A:F
    "D22": ("=SUM(ABS(A1:F1))", 3.0),  # ABS(D1): the cell of the row in the formula's own column
}
ARRAY = ("H2", "=SUM(ABS(A1:A20))", 210.0)  # entered with Ctrl+Shift+Enter: every ABS


def _book(path: Path, saved_by_excel: bool = True) -> Path:
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Calc"
    for row in range(1, 21):
        sheet.cell(row, 1, -row)
        sheet.cell(row, 2, row)
        sheet.cell(row, 3, 10 * row)
    sheet["D1"], sheet["E1"], sheet["F1"] = 3, 5, 4
    for cell, (formula, _) in CASES.items():
        sheet[cell] = formula
    sheet[ARRAY[0]] = ArrayFormula(ARRAY[0], ARRAY[1])
    wb.save(path)
    return saved_by_excel_(path) if saved_by_excel else path


def _cells() -> list[str]:
    return [*CASES, ARRAY[0]]


def _ours(path: Path) -> dict[str, object]:
    evaluated = evaluate_workbook(str(path), limits=convert_limits())
    assert evaluated.warnings == []
    grid = evaluated.grid.sheet("Calc")
    assert grid is not None
    values: dict[str, object] = {}
    for cell in _cells():
        column, row = coordinate_from_string(cell)
        values[cell] = grid.get(row, column_index_from_string(column))
    return values


def test_a_parameter_taking_one_value_takes_the_cell_of_a_range_in_the_formulas_row(tmp_path: Path) -> None:
    values = _ours(_book(tmp_path / "legacy.xlsx"))
    assert {cell: values[cell] for cell in CASES} == {cell: expected for cell, (_, expected) in CASES.items()}
    assert values[ARRAY[0]] == ARRAY[2]


def test_a_workbook_no_spreadsheet_saved_keeps_the_ranges_whole(tmp_path: Path) -> None:
    """openpyxl's workbook has no saved value to go by: its formulas compute as dynamic arrays do,
    a function of one value over each cell of the range (SUM(ABS(A1:A20)) adds every ABS)."""
    values = _ours(_book(tmp_path / "dynamic.xlsx", saved_by_excel=False))
    assert [values["E3"], values["E4"], values["E9"], values["E12"], values[ARRAY[0]]] == [210.0, 6.0, 210.0, 210.0, 210.0]


def test_the_intersection_follows_the_formulas_row_in_a_filled_down_column(tmp_path: Path) -> None:
    """The same text in each row of a column (a filled-down formula) takes each row's own cell."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Calc"
    for row in range(1, 9):
        sheet.cell(row, 1, row * row)
        sheet.cell(row, 2, "=SUM(SQRT($A$1:$A$6),LEN(CONCATENATE($A$1:$A$6)))")
    wb.save(tmp_path / "filled.xlsx")
    path = saved_by_excel_(tmp_path / "filled.xlsx")
    grid = evaluate_workbook(str(path), limits=convert_limits()).grid.sheet("Calc")
    assert grid is not None
    computed = [grid.get(row, 2) for row in range(1, 9)]
    assert computed[:6] == [row + len(str(row * row)) for row in range(1, 7)]
    assert computed[6:] == [VALUE, VALUE]


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_intersects_the_same_parameters(tmp_path: Path) -> None:
    book = _book(tmp_path / "legacy.xlsx")
    recalculated = lo_convert(book, tmp_path / "lo", make_profile(tmp_path / "profile"))
    sheet = openpyxl.load_workbook(recalculated, data_only=True)["Calc"]
    theirs: dict[str, object] = {}
    for cell in _cells():
        value = sheet[cell].value
        if isinstance(value, str) and value.startswith("#"):
            theirs[cell] = ExcelError(value)
        else:
            theirs[cell] = value if isinstance(value, str) else float(value)
    assert theirs == _ours(book)
