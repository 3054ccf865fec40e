"""References as Excel reads them: 3-D references across sheets, whole columns and rows up to the
sheet's last column, implicit intersection of rows and columns in ordinary formulas, the whole row an
array formula returns, and unions of areas as function arguments. Each workbook is built here and
recalculated as ``xlrating convert`` does."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.engine.formula.areas import spread_areas
from xlrating.engine.read.grid import NotComputed
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


def _months_book(path: Path, summary: dict[str, str]) -> Path:
    """Sheets Jan, Feb, Mar (B2 = 10, 20, 30; A1:B2 numbers, C1 text), then Apr outside the
    references (B2 = 1000), and a Summary sheet holding ``summary``."""
    wb = openpyxl.Workbook()
    for i, name in enumerate(["Jan", "Feb", "Mar", "Apr"]):
        ws = wb.active if i == 0 else wb.create_sheet(name)
        ws.title = name
        ws["A1"], ws["B1"], ws["A2"] = i + 1, 0.5, 100
        ws["B2"] = 1000 if name == "Apr" else (i + 1) * 10
        ws["C1"] = "text"
    ws = wb.create_sheet("Summary")
    for cell, formula in summary.items():
        ws[cell] = formula
    wb.save(path)
    return path


def test_a_3d_reference_spans_the_sheets_between_its_ends_in_workbook_order(tmp_path: Path) -> None:
    book = _months_book(tmp_path / "3d.xlsx", {
        "A1": "=SUM(Jan:Mar!B2)", "A2": "=MAX(Jan:Mar!B2)", "A3": "=SUM(Jan:Mar!A1:B2)", "A4": "=MIN(Mar:Jan!B2)",
        "A5": "=AVERAGE(Jan:Mar!B2)", "A6": "=COUNT(Jan:Mar!A1:C2)", "A7": "=COUNTA(Jan:Mar!A1:C2)",
        "A8": "=PRODUCT(Jan:Mar!A1)", "A9": "=_xlfn.STDEV.S(Jan:Mar!B2)", "A10": "=VARP(Jan:Mar!B2)",
        "A11": "=SUM(Feb:Feb!B2,Apr!B2)"})
    assert _values(book, "Summary", [f"A{row}" for row in range(1, 12)]) == [
        60.0, 30.0, 60.0 + 3 * 100.5 + 6, 10.0, 20.0, 12.0, 15.0, 6.0, 10.0, 200.0 / 3, 1020.0]


def test_a_3d_reference_between_quoted_sheet_names(tmp_path: Path) -> None:
    # as typed in the formula bar, and as Excel stores it in the file (one pair of quotes)
    wb = openpyxl.Workbook()
    wb.active.title = "My sheet"
    wb.active["A1"] = 5
    wb.create_sheet("Bob's")["A1"] = 6
    wb.create_sheet("Other sheet")["A1"] = 7
    ws = wb.create_sheet("Sum")
    ws["A1"] = "=SUM('My sheet':'Other sheet'!A1)"
    ws["A2"] = "=SUM('My sheet:Other sheet'!A1)"
    ws["A3"] = "=SUM('Bob''s:Other sheet'!A1)"
    wb.save(tmp_path / "quoted.xlsx")
    assert _values(tmp_path / "quoted.xlsx", "Sum", ["A1", "A2", "A3"]) == [18.0, 18.0, 13.0]


def test_a_3d_reference_where_excel_takes_none_is_its_error(tmp_path: Path) -> None:
    # Microsoft's "Create a 3-D reference" lists the functions that take one; a 3-D reference as a
    # cell's value, in arithmetic or in another function is #VALUE!; an end sheet the workbook does
    # not have is #REF!
    book = _months_book(tmp_path / "3d_errors.xlsx", {
        "A1": "=Jan:Mar!B2", "A2": "=SUM(Jan:Mar!B2*2)", "A3": "=1+COUNTIF(Jan:Mar!B2,\">0\")",
        "A4": "=IFERROR(Jan:Mar!B2,-1)", "A5": "=SUM(Jan:Nowhere!B2)", "A6": '="Jan:Mar!B2"'})
    assert _values(book, "Summary", ["A1", "A2", "A3", "A4", "A5", "A6"]) == [
        ExcelError("#VALUE!"), ExcelError("#VALUE!"), ExcelError("#VALUE!"), -1.0, ExcelError("#REF!"),
        "Jan:Mar!B2"]


def test_a_3d_reference_reads_formula_cells_of_every_sheet_computed_first(tmp_path: Path) -> None:
    # the cells on Feb and Mar are formulas reading Summary!B1, itself a formula: the schedule
    # computes them all before the total
    wb = openpyxl.Workbook()
    wb.active.title = "Jan"
    wb.active["A1"] = 1
    wb.create_sheet("Feb")["A1"] = "=Summary!B1*2"
    wb.create_sheet("Mar")["A1"] = "=Feb!A1+Summary!B1"
    ws = wb.create_sheet("Summary")
    ws["A1"] = "=SUM(Jan:Mar!A1)"
    ws["B1"] = "=3+4"
    wb.save(tmp_path / "order.xlsx")
    assert _values(tmp_path / "order.xlsx", "Summary", ["A1"]) == [1.0 + 14.0 + 21.0]


def test_whole_columns_and_rows_up_to_the_last_column(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    data["A1"], data["C3"], data["XFD2"], data["B1048576"] = 1, 2, 4, 8
    ws = wb.create_sheet("Out")
    formulas = {"A1": "=SUM(Data!A:XFD)", "A2": "=ROWS(Data!A:XFD)", "A3": "=COLUMNS(Data!A:XFD)",
                "A4": "=SUM(Data!1:3)", "A5": "=COLUMNS(Data!1:3)", "A6": "=ROWS(Data!1:3)",
                "A7": "=ROWS(Data!A1:A1048576)", "A8": "=SUM(Data!A1:XFD2)", "A9": "=Data!XFD2",
                "A10": "=SUM(Data!B:B)", "A11": "=COUNT(Data!A1:XFD1048576)"}
    for cell, formula in formulas.items():
        ws[cell] = formula
    wb.save(tmp_path / "whole.xlsx")
    assert _values(tmp_path / "whole.xlsx", "Out", list(formulas)) == [
        15.0, 1048576.0, 16384.0, 7.0, 16384.0, 3.0, 1048576.0, 5.0, 4.0, 8.0, 4.0]


def test_a_row_or_column_in_an_ordinary_formula_is_the_cell_in_the_formulas_column_or_row(tmp_path: Path) -> None:
    # implicit intersection: a legacy formula (a plain <f>) reads the one cell of the row (column)
    # it shares with the reference; nothing shared is #VALUE!; an empty cell shows 0
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = "First"
    first["AA1"], first["C1"], first["A5"] = 42, "three", 9
    ws = wb.create_sheet("Other")
    ws["AA1"] = "=First!1:1"
    ws["C7"] = "=First!1:1"
    ws["AB2"] = "=First!1:1"
    ws["B5"] = "=First!A:A"
    ws["B6"] = "=First!A:A"
    ws["D5"] = "=First!A1:A3"
    ws["E5"] = "=First!A:A*2"
    ws["AA3"] = "=First!A1:XFD1"  # to the last column and row by name
    ws["F5"] = "=First!A1:A1048576"
    wb.save(tmp_path / "intersect.xlsx")
    assert _values(tmp_path / "intersect.xlsx", "Other", ["AA1", "C7", "AB2", "B5", "B6", "D5", "E5", "AA3", "F5"]) \
        == [42.0, "three", 0.0, 9.0, 0.0, ExcelError("#VALUE!"), 18.0, 42.0, 9.0]


def test_unions_as_function_arguments(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, (a, b, c, d, e) in enumerate([(5, 1, 7, 3, 8), (2, 4, 6, 9, 10), (8, 3, 1, 11, 12)], start=1):
        ws.cell(row, 1, a), ws.cell(row, 2, b), ws.cell(row, 3, c), ws.cell(row, 4, d), ws.cell(row, 5, e)
    formulas = {"G1": "=RANK(B2,(B1,B2,B3),1)", "G2": "=RANK(A1,(B1,B2,B3,A1))",
                "G3": "=SUM((A1:A2,C1:C2))", "G4": "=COUNT((A1,B1:B3))", "G5": "=LARGE((A1:A3,C1:C3),2)",
                "G6": "=SMALL((A1:A3,C1:C3),1)", "G7": "=INDEX((A1:B2,D1:E2),1,1,2)",
                "G8": "=INDEX((A1:B2,D1:E2),2,2,2)", "G9": "=AREAS((A1,B1))", "G10": "=MAX((A1,C1:C3),D3)",
                "G11": "=AVERAGE((A1:A3,C3))", "G12": '=COUNTIF((A1,B1),">0")', "G13": "=SUM(OFFSET((A1,B1),0,0))",
                "G14": "=MEDIAN((A1:A3,B1))"}
    for cell, formula in formulas.items():
        ws[cell] = formula
    wb.save(tmp_path / "unions.xlsx")
    assert _values(tmp_path / "unions.xlsx", "Sheet", list(formulas)) == [
        3.0, 1.0, 20.0, 4.0, 7.0, 1.0, 3.0, 10.0, 2.0, 11.0, 4.0, ExcelError("#VALUE!"), ExcelError("#VALUE!"), 3.5]


def test_a_formula_reading_a_whole_used_sheet_cell_by_cell_is_a_named_warning(tmp_path: Path) -> None:
    # a sheet used from A1 to XFD1048576 holds 17 billion cells: ROWS and COLUMNS take the shape,
    # SUM the used cells, and a formula that would read every cell one by one is left to Excel
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    data["A1"], data["XFD2"], data["B1048576"] = 1, 4, 8
    ws = wb.create_sheet("Out")
    ws["A1"], ws["A2"], ws["A3"] = "=SUMPRODUCT(Data!A:XFD)", "=ROWS(Data!A:XFD)", "=SUM(Data!A:XFD)"
    wb.save(tmp_path / "used.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "used.xlsx"), limits=convert_limits())
    out = evaluated.grid.sheet("Out")
    assert out is not None
    assert isinstance(out.get(1, 1), NotComputed)
    assert [out.get(2, 1), out.get(3, 1)] == [1048576.0, 13.0]
    assert evaluated.warnings == [("Out!A1: reads Data!A1:XFD1048576, 17,179,869,184 cells of its used part: more "
                                   "than the 20,000,000 cells the engine reads for one formula cell")]


SHEETS = ("Été", "Jan", "Feb", "Mar", "My sheet")


@pytest.mark.parametrize(("formula", "read_as"), [
    ("=SUM(Jan:Mar!B2)", "=SUM('Jan'!B2,'Feb'!B2,'Mar'!B2)"),
    ("=SUM(Mar:Feb!$B$2:C3,1)", "=SUM('Feb'!$B$2:C3,'Mar'!$B$2:C3,1)"),
    ("=_xlfn.STDEV.S(Feb:'My sheet'!A:A)", "=_xlfn.STDEV.S('Feb'!A:A,'Mar'!A:A,'My sheet'!A:A)"),
    ("=SUM('Jan:Feb'!1:2)", "=SUM('Jan'!1:2,'Feb'!1:2)"),
    ("=SUM(Été:Jan!B2)", "=SUM('Été'!B2,'Jan'!B2)"),
    ("=Jan:Mar!B2*2", "=#VALUE!*2"),
    ("=1+VLOOKUP(1,Jan:Mar!A1:B2,2)", "=1+#VALUE!"),
    ("=IFERROR(Jan:Mar!B2,0)", "=IFERROR(#VALUE!,0)"),
    ("=SUM(Jan:Dec!B2)", "=SUM(#REF!)"),
    ("=SUM((A1:A2,C1:C2),(B1))", "=SUM(A1:A2,C1:C2,(B1))"),
    ("=MAX(1,(Jan!A1,Feb!A1))", "=MAX(1,Jan!A1,Feb!A1)"),
    ("=SUM((Jan:Feb!A1,C1))", "=SUM('Jan'!A1,'Feb'!A1,C1)"),
    # left as written: text, a range between a cell and another sheet's cell, unions LARGE reads
    ('=SUM(A1)&"Jan:Mar!B2"', '=SUM(A1)&"Jan:Mar!B2"'),
    ("=SUM(A1:Feb!B2)", "=SUM(A1:Feb!B2)"),
    ("=LARGE((A1:A3,C1:C3),2)", "=LARGE((A1:A3,C1:C3),2)"),
    ("=SUM({1,2},(A1+1)*2)", "=SUM({1,2},(A1+1)*2)"),
])
def test_unions_and_3d_references_are_read_as_their_areas(formula: str, read_as: str) -> None:
    assert spread_areas(formula, SHEETS) == read_as


def test_offset_takes_the_references_size_for_a_height_or_width_left_out(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: SUM(OFFSET(K7:L8,0,0,1,)) 2.001, (..,,1) 3,
    # (..,,) and (..,) 7.0009; an empty cell given as the height is 0, #REF!
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["K7"], ws["L7"], ws["K8"], ws["L8"] = 1, 1.001, 2, 2.9999
    formulas = ["=SUM(OFFSET(K7:L8, 0,0,1,))", "=SUM(OFFSET(K7:L8, 0,0,,1))", "=SUM(OFFSET(K7:L8, 0,0,,))",
                "=SUM(OFFSET(K7:L8, 0,0,))", "=SUM(OFFSET(K7:L8,0,0,Z1))", "=SUM(OFFSET(K7:L8,1,0,,1))"]
    for row, formula in enumerate(formulas, start=1):
        ws.cell(row, 1, formula)
    wb.save(tmp_path / "book.xlsx")
    values = _values(tmp_path / "book.xlsx", "Sheet", [f"A{row}" for row in range(1, len(formulas) + 1)])
    assert values[:4] == [pytest.approx(2.001), 3.0, pytest.approx(7.0009), pytest.approx(7.0009)]
    assert values[4:] == [ExcelError("#REF!"), 2.0]


def test_address_quotes_a_sheet_of_another_workbook_only_where_needed(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: ADDRESS(2,3,3,TRUE,"[Book1]Sheet1") is [Book1]Sheet1!$C2
    wb = openpyxl.Workbook()
    formulas = ['=ADDRESS(2,3,3,TRUE,"[Book1]Sheet1")', '=ADDRESS(2,3,1,TRUE,"[Book 1]Sheet1")',
                '=ADDRESS(2,3,1,TRUE,"[Book1.xlsx]My Sheet")', '=ADDRESS(2,3,1,TRUE,"My Sheet")',
                '=ADDRESS(2,3,1,TRUE,"Sheet1")']
    for row, formula in enumerate(formulas, start=1):
        wb.active.cell(row, 1, formula)
    wb.save(tmp_path / "book.xlsx")
    assert _values(tmp_path / "book.xlsx", "Sheet", [f"A{row}" for row in range(1, len(formulas) + 1)]) == [
        "[Book1]Sheet1!$C2", "'[Book 1]Sheet1'!$C$2", "'[Book1.xlsx]My Sheet'!$C$2", "'My Sheet'!$C$2",
        "Sheet1!$C$2"]
