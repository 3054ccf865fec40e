"""XLOOKUP returning whole rows or columns, the shapes XLOOKUP/XMATCH refuse, ROWS/COLUMNS of arrays: as Excel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import schedula as sh
from formulas.functions import Array
from formulas.ranges import Ranges
from formulas.tokens.operand import XlError
from function_books import assert_excel_value, recalculated

from xlrating.engine.functions.lookup import FUNCTIONS
from xlrating.functions import ExcelError

NA, VALUE = ExcelError("#N/A"), ExcelError("#VALUE!")
# Employee ID, name, department (the shape of Microsoft's "return multiple values" example)
STAFF = [[4390, "Ned Lanning", "Marketing"], [8604, "Margo Hendrix", "Sales"], [8389, "Dianne Pugh", "Finance"],
         [4937, "Earlene McCarty", "Accounting"]]
# Sales per person (rows) and quarter (columns), for the two-way lookup
QUARTERS = [["Name", "Q1", "Q2", "Q3", "Q4"], ["Ann", 10, 11, 12, 13], ["Bob", 20, 21, 22, 23], ["Cyd", 30, 31, 32, 33]]


def _array(rows: list[list[Any]]) -> np.ndarray:
    return np.array([[sh.EMPTY if v is None else float(v) if isinstance(v, int) else v for v in row] for row in rows],
                    dtype=object)


def _call(name: str, *args: Any) -> Any:
    """What ``name`` returns: a single value, or a list of rows for an array (errors as ExcelError)."""
    array = np.atleast_2d(np.asarray(FUNCTIONS[name](*args), dtype=object))
    host = [[ExcelError(str(v)) if isinstance(v, XlError) else v for v in row] for row in array.tolist()]
    return host[0][0] if array.size == 1 else host


def test_xlookup_returns_the_whole_row_of_a_wide_return_array() -> None:
    ids, rest = _array([[r[0]] for r in STAFF]), _array([r[1:] for r in STAFF])
    assert _call("XLOOKUP", 8389.0, ids, rest) == [["Dianne Pugh", "Finance"]]
    assert _call("XLOOKUP", 1111.0, ids, rest) == NA
    assert _call("XLOOKUP", 1111.0, ids, rest, "missing") == "missing"
    assert _call("XLOOKUP", _array([[8604], [4390]]), ids, _array([[r[1]] for r in STAFF])) == \
        [["Margo Hendrix"], ["Ned Lanning"]]  # several lookup values: one result each


def test_xlookup_along_a_row_returns_the_whole_column() -> None:
    people = _array([row[1:] for row in QUARTERS[1:]])
    assert _call("XLOOKUP", "q3", _array([QUARTERS[0][1:]]), people) == [[12.0], [22.0], [32.0]]


def test_xlookup_and_xmatch_refuse_shapes_excel_refuses() -> None:
    ids = _array([[r[0]] for r in STAFF])
    assert _call("XLOOKUP", 8389.0, ids, _array([[1], [2]])) == VALUE  # return_array of another length
    square = _array([[1, 2], [3, 4]])
    assert _call("XLOOKUP", 2.0, square, square) == VALUE  # lookup_array neither a row nor a column
    assert _call("XMATCH", 2.0, square) == VALUE


def test_xlookup_spills_a_row_in_a_workbook(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, [["ID", "Name", "Department"], *STAFF], {"F1": "=_xlfn.XLOOKUP(8389,A2:A5,B2:C5)"})
    assert [sheet.get(1, 6), sheet.get(1, 7), sheet.get(1, 8), sheet.get(2, 6)] == ["Dianne Pugh", "Finance", None, None]


def test_two_way_lookup_with_nested_xlookup_in_a_workbook(tmp_path: Path) -> None:
    # Microsoft's two-way lookup: the inner XLOOKUP returns the Q3 column, the outer finds Bob in it
    sheet = recalculated(tmp_path, QUARTERS, {"G1": '=_xlfn.XLOOKUP("Bob",A2:A4,_xlfn.XLOOKUP("Q3",B1:E1,B2:E4))',
                                        "G2": '=_xlfn.XMATCH(22,B2:E4)'})
    assert sheet.get(1, 7) == 22.0
    assert sheet.get(2, 7) == VALUE


def test_rows_and_columns_count_arrays_as_well_as_references() -> None:
    assert _call("ROWS", _array([[1], [2], [3]]).view(Array)) == 3.0
    assert _call("COLUMNS", _array([[1, 2, 3, 4]]).view(Array)) == 4.0
    assert _call("ROWS", Ranges().push("B2:C11")) == 10.0
    assert _call("COLUMNS", Ranges().push("B2:C11")) == 2.0


def test_counting_distinct_values_with_rows_of_unique_in_a_workbook(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, [["Ann"], ["bob"], ["Bob"], ["Cyd"], ["ann"]],
                   {"C1": "=ROWS(_xlfn.UNIQUE(A1:A5))", "C2": "=COLUMNS(_xlfn.SEQUENCE(2,4))", "C3": "=ROWS(A1:A5)"})
    assert [sheet.get(1, 3), sheet.get(2, 3), sheet.get(3, 3)] == [3.0, 4.0, 5.0]


def test_xlookup_without_if_not_found_is_na_even_with_a_match_mode() -> None:
    from xlrating.engine import REGISTRY
    from xlrating.engine.evaluate.compiler import parser_for

    function = parser_for(REGISTRY)().ast('=_xlfn.XLOOKUP(99,{1;2;3},{"a";"b";"c"},,1)')[1].compile()
    assert str(np.asarray(function(), dtype=object).ravel()[0]) == "#N/A"


def test_a_formula_reading_the_spilled_part_of_an_xlookup_sees_it(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, [["ID", "Name", "Department"], *STAFF],
                   {"F1": "=H1", "G1": "=_xlfn.XLOOKUP(8389,A2:A5,B2:C5)"})
    assert sheet.get(1, 6) == "Finance"


def test_xlookup_of_an_empty_cell_finds_the_first_empty_cell(tmp_path: Path) -> None:
    # as a workbook Excel saved has it (IronCalc's LOOKUP_AND_REFERENCE_XLOOKUP.xlsx, ExactMatch U12:V20):
    # the lookup value T1 is empty; searching from the end finds the last empty cell instead
    rows = [["a", 1, None], [None, 2], ["b", 3], [None, 4], ["c", 5]]
    sheet = recalculated(tmp_path, rows, {"F1": '=_xlfn.XLOOKUP(T1,A1:A5,B1:B5,"none")',
                                          "F2": '=_xlfn.XLOOKUP(T1,A1:A5,B1:B5,"none",0,-1)',
                                          "F3": '=_xlfn.XLOOKUP(T1,A1:A5,C1:C5,"none")',
                                          "F4": '=_xlfn.XLOOKUP(T1,A1:A1,B1:B1,"none")'})
    assert [sheet.get(row, 6) for row in (1, 2, 3, 4)] == [2.0, 4.0, 0.0, "none"]


def test_rows_and_columns_of_whole_columns_and_rows_count_the_whole_sheet(tmp_path: Path) -> None:
    # as a workbook Excel saved has them (IronCalc's LOOKUP_AND_REFERENCE_ROW_COLUM.xlsx, ROWS_COLUMNS):
    # the engine reads a whole column only as far as the sheet is used, but counts all of it
    sheet = recalculated(tmp_path, [[1, 2], [3, 4]], {"D1": "=ROWS(C:C)", "D2": "=COLUMNS(14:14)",
                                                      "D3": "=ROWS($AB:$AAA)", "D4": '=ROWS(INDIRECT("A:B"))',
                                                      "D5": "=COLUMNS(A:B)", "D6": "=ROWS(A1:B2)"})
    assert [sheet.get(row, 4) for row in range(1, 7)] == [1048576.0, 16384.0, 1048576.0, 1048576.0, 2.0, 2.0]


def test_row_and_column_of_an_area_in_an_ordinary_cell_are_its_first_and_errors_pass(tmp_path: Path) -> None:
    # as a workbook Excel saved has them (IronCalc's LOOKUP_AND_REFERENCE_ROW_COLUM.xlsx, ROW_COLUMN):
    # the topmost row (leftmost column) whatever the formula's row; a bad INDIRECT's #REF! passes on
    sheet = recalculated(tmp_path, [[None, "h", "D:D", "$FF:FG", "D5:E7"]],
                         {"A9": "=ROW(D:D)", "A10": '=ROW(INDIRECT(C1))', "A11": '=COLUMN(INDIRECT(D1))',
                          "A12": "=ROW(INDIRECT(E1))", "A13": "=COLUMN(INDIRECT(E1))", "A14": "=ROW(INDIRECT(B1))",
                          "A15": "=COLUMN(INDIRECT(A1))", "A16": "=SUM(ROW(D5:E7))", "A17": "=ROW()"})
    assert [sheet.get(row, 1) for row in range(9, 18)] == [1.0, 1.0, 162.0, 5.0, 4.0, ExcelError("#REF!"),
                                                          ExcelError("#REF!"), 18.0, 17.0]


def test_hyperlink_shows_its_friendly_name_or_its_link(tmp_path: Path) -> None:
    """IronCalc's link_test.xlsx (saved by Excel) shows the friendly names, and 0 for a friendly name
    that is an empty cell; without one the cell shows the link text (Microsoft's HYPERLINK page)."""
    sheet = recalculated(tmp_path, [[None, 7, "=1/0"]], {
        "D1": '=HYPERLINK("#Target!A1","Go to Target!A1")', "D2": '=HYPERLINK("https://"&A1,A1)',
        "D3": '=HYPERLINK("https://example.com")', "D4": '=HYPERLINK("mailto:a@b.c",B1)',
        "D5": '=HYPERLINK("https://example.com",C1)', "D6": '=LEN(HYPERLINK("C:\\Temp\\x.xlsx"))'})
    assert [sheet.get(row, 4) for row in range(1, 5)] == ["Go to Target!A1", 0.0, "https://example.com", 7.0]
    assert_excel_value(sheet.get(5, 4), "#DIV/0!")
    assert sheet.get(6, 4) == 14.0


def test_a_hyperlink_cell_keeps_its_formula_when_written(tmp_path: Path) -> None:
    from xlrating.engine import convert_file

    book = openpyxl.Workbook()
    book.active["A1"] = '=HYPERLINK("https://example.com","Example")'
    book.save(tmp_path / "in.xlsx")
    convert_file(str(tmp_path / "in.xlsx"), str(tmp_path / "out.xlsx"))
    written = openpyxl.load_workbook(tmp_path / "out.xlsx")
    assert written.active["A1"].value == '=HYPERLINK("https://example.com","Example")'
    assert openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active["A1"].value == "Example"


def test_offset_reads_a_range_given_for_a_number_as_a_legacy_formula(tmp_path: Path) -> None:
    """A range for rows, cols, height or width is the cell in the formula's row (or column), #VALUE!
    where there is none; a fraction of a cell as height or width is one cell (IronCalc's
    ROW_COLUM book, saved by Excel: SUM(OFFSET(W39,2,2,3,0.9)) is the one column's sum)."""
    sheet = recalculated(tmp_path, [[10, 1], [20, 2], [30, 1], [40, 2]], {
        "D2": "=OFFSET(A1,B1:B4,0)", "D3": "=OFFSET(A1,B1:B4,0)", "D9": "=OFFSET(A1,B1:B4,0)",
        "E1": "=SUM(OFFSET(A1,0,0,3,0.9))", "E2": "=SUM(OFFSET(A1,0,0,3.99,1))", "E3": "=SUM(OFFSET(A1,0,0,3,0))",
        "E4": "=SUM(OFFSET(A1,0,0,B1:B4,1))", "E5": "=ROWS(OFFSET(A1,0,0,0.5,1))"})
    assert [sheet.get(2, 4), sheet.get(3, 4)] == [30.0, 20.0]
    assert_excel_value(sheet.get(9, 4), "#VALUE!")
    assert [sheet.get(1, 5), sheet.get(2, 5)] == [60.0, 60.0]
    assert_excel_value(sheet.get(3, 5), "#REF!")
    assert sheet.get(4, 5) == 30.0  # height B4 = 2: A1:A2
    assert sheet.get(5, 5) == 1.0


def test_vlookup_and_hlookup_refuse_an_index_below_one(tmp_path: Path) -> None:
    # EPPlus' FormulaTest workbook, saved by Excel: VLOOKUP(8,B3:B7,FALSE) is #VALUE! (FALSE is 0),
    # VLOOKUP(8,I10:I28,0,FALSE) over no 8 #N/A (nothing found comes first); Microsoft's VLOOKUP page:
    # col_index_num below 1 is #VALUE!, past the table #REF!
    rows = [[1, "a"], [3, "b"], [5, "c"], [7, "d"], [9, "e"]]
    table = [("VLOOKUP(8,A1:A5,FALSE)", "#VALUE!"), ("VLOOKUP(8,A1:B5,0.5)", "#VALUE!"),
             ("VLOOKUP(8,A1:B5,-1)", "#VALUE!"), ("VLOOKUP(8,A1:B5,3)", "#REF!"), ('VLOOKUP(8,A1:B5,"x")', "#VALUE!"),
             ("VLOOKUP(8,A1:B5,1/0)", "#DIV/0!"), ("HLOOKUP(1,A1:B5,0)", "#VALUE!"), ("HLOOKUP(1,A1:B5,FALSE)", "#VALUE!"),
             ("VLOOKUP(8,A1:B5,0,FALSE)", "#N/A"), ("VLOOKUP(7,A1:B5,0,FALSE)", "#VALUE!"),
             ("HLOOKUP(2,A1:B5,0,FALSE)", "#N/A")]
    sheet = recalculated(tmp_path, rows, {f"D{row}": "=" + formula for row, (formula, _) in enumerate(table, 1)})
    for row, (_, expected) in enumerate(table, start=1):
        assert_excel_value(sheet.get(row, 4), expected)
    found = recalculated(tmp_path, rows, {"D1": "=VLOOKUP(8,A1:B5,2)", "D2": '=VLOOKUP(8,A1:B5,"2")',
                                          "D3": "=VLOOKUP(8,A1:B5,2.9)", "D4": "=HLOOKUP(1,A1:B5,TRUE)"})
    assert [found.get(row, 4) for row in range(1, 5)] == ["d", "d", "d", 1.0]
