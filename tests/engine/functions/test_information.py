"""CELL's info types as Microsoft's CELL page defines them, read from the workbook's styles and
column widths; the type of an error cell is "v" (IronCalc's
INFORMATION_CELL.xlsx, saved by Excel)."""

from __future__ import annotations

import os
from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Alignment, Protection

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.cell_info import format_code
from xlrating.engine.read.cell_formats import shown_width
from xlrating.engine.read.grid import Sheet

# Microsoft's CELL page: the code CELL("format") returns for each number format
FORMAT_CODES = [
    ("General", "G"), ("0", "F0"), ("#,##0", ",0"), ("0.00", "F2"), ("#,##0.00", ",2"),
    ('"$"#,##0_);("$"#,##0)', "C0"), ('"$"#,##0_);[Red]("$"#,##0)', "C0-"), ('"$"#,##0.00_);("$"#,##0.00)', "C2"),
    ('"$"#,##0.00_);[Red]("$"#,##0.00)', "C2-"), ("0%", "P0"), ("0.00%", "P2"), ("0.00E+00", "S2"),
    ("# ?/?", "G"), ("# ??/??", "G"), ("m/d/yy", "D4"), ("m/d/yy h:mm", "D4"), ("mm/dd/yy", "D4"),
    ("d-mmm-yy", "D1"), ("dd-mmm-yy", "D1"), ("d-mmm", "D2"), ("dd-mmm", "D2"), ("mmm-yy", "D3"), ("mm/dd", "D5"),
    ("h:mm AM/PM", "D7"), ("h:mm:ss AM/PM", "D6"), ("h:mm", "D9"), ("h:mm:ss", "D8"),
    # parentheses for positive values append "()", colour for negative ones "-"
    ("(#,##0)", ",0()"), ("0.000;[Blue]-0.000", "F3-"), ("[Red]0.0", "F1-"), ("[Red]0.0;0.0", "F1"), ("@", "G"), ("[$€-407] #,##0.00", "C2"),
]


@pytest.mark.parametrize(("code", "expected"), FORMAT_CODES)
def test_cell_format_codes_are_microsofts(code: str, expected: str) -> None:
    assert format_code(code) == expected


def test_a_shown_column_width_is_whole_pixels_less_the_padding() -> None:
    assert shown_width(9.140625) == 8.43  # Excel's default column, as it stores it
    assert shown_width(16.59765625) == 15.86


def _book(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, code in enumerate(["0.00", '"$"#,##0_);[Red]("$"#,##0)', "(#,##0)", "d-mmm-yy"], start=1):
        ws.cell(row, 1, 5).number_format = code
        ws.cell(row, 2, f'=CELL("format",A{row})')
        ws.cell(row, 3, f'=CELL("color",A{row})')
        ws.cell(row, 4, f'=CELL("parentheses",A{row})')
    ws["E1"], ws["E2"], ws["E3"], ws["E4"], ws["E5"] = "left", "right", "centre", 3, "open"
    ws["F6"], ws["F7"] = '=CELL("prefix",E6)', '=CELL("prefix",H5)'  # an empty cell, an error
    ws["E2"].alignment = Alignment(horizontal="right")
    ws["E3"].alignment = Alignment(horizontal="center")
    ws["E5"].protection = Protection(locked=False)
    for row in range(1, 6):
        ws.cell(row, 6, f'=CELL("prefix",E{row})')
        ws.cell(row, 7, f'=CELL("protect",E{row})')
    ws.column_dimensions["J"].width = 20.7109375  # shown as 20 characters
    ws["H1"], ws["H2"], ws["H3"] = '=CELL("width",J1)', '=CELL("width",K1)', '=INDEX(CELL("width",J1),1,2)'
    ws["H4"], ws["H5"] = '=CELL("type",H6)', "=1/0"
    ws["H6"] = "=NA()"
    ws["H7"] = '=CELL("filename",A1)'
    wb.save(tmp_path / "Results.xlsx")
    return tmp_path / "Results.xlsx"


def test_cell_reads_number_formats_alignment_protection_and_widths(tmp_path: Path) -> None:
    sheet = evaluate_workbook(str(_book(tmp_path))).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(row, 2) for row in range(1, 5)] == ["F2", "C0-", ",0()", "D1"]
    assert [sheet.get(row, 3) for row in range(1, 5)] == [0.0, 1.0, 0.0, 0.0]
    assert [sheet.get(row, 4) for row in range(1, 5)] == [0.0, 0.0, 1.0, 0.0]
    assert [sheet.get(row, 6) for row in range(1, 8)] == ["'", '"', "^", "", "'", "", ""]
    assert [sheet.get(row, 7) for row in range(1, 6)] == [1.0, 1.0, 1.0, 1.0, 0.0]
    # a set width, the default width (8.43 shown: 8), and the second item: not the default
    assert [sheet.get(row, 8) for row in range(1, 4)] == [20.0, 8.0, False]


def test_cell_type_of_an_error_is_a_value(tmp_path: Path) -> None:
    sheet = evaluate_workbook(str(_book(tmp_path))).grid.sheet("Sheet")
    assert sheet is not None
    assert sheet.get(4, 8) == "v"


def test_cell_filename_is_the_path_the_file_name_in_brackets_and_the_sheet(tmp_path: Path) -> None:
    path = _book(tmp_path)
    sheet = evaluate_workbook(str(path)).grid.sheet("Sheet")
    assert sheet is not None
    assert sheet.get(7, 8) == f"{path.parent.resolve()}{os.sep}[Results.xlsx]Sheet"


def _legacy_book(tmp_path: Path, formulas: dict[str, str]) -> Sheet:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, value in enumerate([5, "x", "=1/0", None, 7], start=1):  # C1:C5
        ws.cell(row, 3, value)
    for col, value in enumerate([1, "y", True], start=7):  # G7:I7
        ws.cell(7, col, value)
    for ref, formula in formulas.items():
        ws[ref] = formula
    wb.save(tmp_path / "legacy.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "legacy.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    return sheet


def test_an_is_function_of_a_range_in_an_ordinary_formula_tests_the_cell_in_its_row_or_column(
        tmp_path: Path) -> None:
    """Implicit intersection of the argument: the cell in the formula's row (column), and #VALUE!,
    which ISERROR calls an error, where the row (column) misses the range."""
    sheet = _legacy_book(tmp_path, {
        "E1": "=ISERROR(C1:C5)", "E3": "=ISERROR(C1:C5)", "E9": "=ISERROR(C1:C5)", "F2": "=ISTEXT(C1:C5)",
        "F4": "=ISBLANK(C1:C5)", "F9": "=ISNUMBER(C1:C5)", "H1": "=ISNUMBER(G7:I7)", "G2": "=ISNUMBER(G7:I7)",
        "I3": "=ISLOGICAL(G7:I7)", "E5": '=IF(ISNA(C1:C5),"n/a",C5*2)', "E4": "=ISTEXT(C1:C5)",
        "F5": "=ISNONTEXT(C1:C5)", "D4": "=ISTEXT(C4)", "D5": "=ISNONTEXT(C4)"})
    assert [sheet.get(1, 5), sheet.get(3, 5), sheet.get(9, 5)] == [False, True, True]
    assert [sheet.get(2, 6), sheet.get(4, 6), sheet.get(9, 6)] == [True, True, False]
    assert [sheet.get(1, 8), sheet.get(2, 7), sheet.get(3, 9)] == [False, True, True]
    assert sheet.get(5, 5) == 14.0
    # an empty cell is no text (C4), in a range or on its own; C5 is a number
    assert [sheet.get(4, 5), sheet.get(5, 6), sheet.get(4, 4), sheet.get(5, 4)] == [False, True, False, True]


def test_inside_a_function_taking_an_array_the_is_functions_test_every_cell(tmp_path: Path) -> None:
    sheet = _legacy_book(tmp_path, {"E9": "=SUMPRODUCT(--ISNUMBER(C1:C5))", "E10": "=SUMPRODUCT(--ISERROR(C1:C5))",
                                    "E11": "=INDEX(ISTEXT(C1:C5),2)"})
    assert [sheet.get(9, 5), sheet.get(10, 5), sheet.get(11, 5)] == [2.0, 1.0, True]
