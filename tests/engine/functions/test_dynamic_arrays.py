"""Excel's dynamic-array functions: Microsoft's examples and rules, directly and spilled in a workbook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import schedula as sh
from formulas.tokens.operand import Error, XlError
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

from xlrating.engine import evaluate_workbook
from xlrating.engine.formula.values import OMITTED
from xlrating.engine.functions.dynamic_arrays import FUNCTIONS
from xlrating.engine.read.grid import Sheet
from xlrating.functions import ExcelError

NA, CALC, VALUE, NUM = ExcelError("#N/A"), ExcelError("#CALC!"), ExcelError("#VALUE!"), ExcelError("#NUM!")
NINE = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]  # Microsoft's TAKE/DROP data


def _array(rows: list[list[Any]]) -> np.ndarray:
    """Rows of values as a reference reaches a function (a blank as ``sh.EMPTY``)."""
    return np.array([[sh.EMPTY if v is None else v for v in row] for row in rows], dtype=object)


def _host(value: Any) -> Any:
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def _call(name: str, *args: Any) -> Any:
    """What ``name`` returns: a single value, or a list of rows for an array."""
    implementation = FUNCTIONS[name]
    result = implementation["function"](False, *args) if isinstance(implementation, dict) else implementation(*args)
    array = np.atleast_2d(np.asarray(result, dtype=object))
    if array.size == 1:
        return _host(array.ravel()[0])
    return [[_host(v) for v in row] for row in array.tolist()]


def _sheet(tmp_path: Path, cells: dict[str, Any]) -> Sheet:
    """A one-sheet workbook of ``cells`` (formulas as Excel stores them), recalculated by the engine."""
    wb = openpyxl.Workbook()
    for ref, value in cells.items():
        wb.active[ref] = value
    wb.save(tmp_path / "book.xlsx")
    return evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")


def _area(sheet: Sheet, top_left: str, rows: int, columns: int) -> list[list[Any]]:
    letters, row = coordinate_from_string(top_left)
    col = column_index_from_string(letters)
    return [[sheet.get(row + i, col + j) for j in range(columns)] for i in range(rows)]


def _column(ref: str, values: list[Any]) -> dict[str, Any]:
    letters, row = coordinate_from_string(ref)
    return {f"{letters}{row + i}": v for i, v in enumerate(values)}


def _grid_cells(rows: list[list[Any]], top: int = 1) -> dict[str, Any]:
    return {f"{'ABCDEFG'[j]}{top + i}": v for i, row in enumerate(rows) for j, v in enumerate(row)}


# --- SEQUENCE, RANDARRAY ------------------------------------------------------------------------

def test_sequence_counts_along_rows_then_down() -> None:
    assert _call("SEQUENCE", 4, 5) == [[float(5 * r + c + 1) for c in range(5)] for r in range(4)]  # Microsoft's
    assert _call("SEQUENCE", 3, OMITTED, 10, -2) == [[10.0], [8.0], [6.0]]  # =SEQUENCE(3,,10,-2)
    assert _call("SEQUENCE", 2, 2, 0, 0.5) == [[0.0, 0.5], [1.0, 1.5]]
    # Excel saved SEQUENCE(0,0), SEQUENCE(0.3) and SEQUENCE(-1) as #VALUE! (IronCalc's SEQUENCE book)
    assert [_call("SEQUENCE", 0, 0), _call("SEQUENCE", 0.3), _call("SEQUENCE", -1)] == [VALUE, VALUE, VALUE]
    assert _call("RANDARRAY", 0) == CALC  # an empty array


def test_sequence_spills_in_a_workbook(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, {"A1": "=_xlfn.SEQUENCE(4,5)", "H1": "=_xlfn.SEQUENCE(3,,10,-2)"})
    assert _area(sheet, "A1", 5, 6) == [[float(5 * r + c + 1) for c in range(5)] + [None] for r in range(4)] + \
        [[None] * 6]
    assert _area(sheet, "H1", 4, 1) == [[10.0], [8.0], [6.0], [None]]


def test_a_formula_reading_a_spilled_sequence_sees_its_values(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, {"A1": "=B3*10", "B1": "=_xlfn.SEQUENCE(3)"})
    assert sheet.get(1, 1) == 30.0


def test_randarray_shape_and_bounds() -> None:
    numbers = np.array(_call("RANDARRAY", 5, 3), dtype=float)
    assert numbers.shape == (5, 3) and ((numbers >= 0) & (numbers < 1)).all()
    whole = np.array(_call("RANDARRAY", 40, 5, 1, 6, True), dtype=float)
    assert whole.shape == (40, 5) and set(whole.ravel()) <= {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    assert (whole == np.round(whole)).all()
    assert isinstance(_call("RANDARRAY"), float)  # one number by default
    assert _call("RANDARRAY", 2, 2, 5, 1) == VALUE  # min above max


def test_randarray_in_a_workbook_draws_fresh_numbers_in_each_cell(tmp_path: Path) -> None:
    formula = "=_xlfn.RANDARRAY(5,3,1,100,TRUE)"
    sheet = _sheet(tmp_path, {"A1": formula, "E1": formula})
    first, second = _area(sheet, "A1", 5, 3), _area(sheet, "E1", 5, 3)
    for block in (first, second):
        assert all(isinstance(v, float) and v == int(v) and 1 <= v <= 100 for row in block for v in row)
    assert first != second
    assert sheet.get(6, 1) is None and sheet.get(1, 4) is None


# --- SORT, SORTBY, UNIQUE, FILTER ---------------------------------------------------------------

def test_sort_compares_text_case_insensitively_and_keeps_ties_in_order() -> None:
    words = _array([["b"], ["A"], ["a"], ["C"]])
    assert _call("SORT", words) == [["A"], ["a"], ["b"], ["C"]]
    assert _call("SORT", words, OMITTED, -1) == [["C"], ["b"], ["A"], ["a"]]  # =SORT(words,,-1)
    table = _array([["pear", 2.0], ["Apple", 3.0], ["apple", 1.0]])
    assert _call("SORT", table, _array([[1, 2]]), _array([[1, -1]])) == [["Apple", 3.0], ["apple", 1.0], ["pear", 2.0]]
    assert _call("SORT", _array([[3.0, 1.0, 2.0]]), 1, 1, True) == [[1.0, 2.0, 3.0]]
    assert _call("SORT", table, 3) == VALUE


def test_sort_in_a_workbook(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, {**_column("A1", ["b", "A", "a", "C"]), "C1": "=_xlfn._xlws.SORT(A1:A4)"})
    assert _area(sheet, "C1", 5, 1) == [["A"], ["a"], ["b"], ["C"], [None]]


def test_sortby_orders_by_other_columns_case_insensitively() -> None:
    # Microsoft's example shape: names sorted by region, then by age descending
    names = _array([["Tom"], ["Fred"], ["Amy"], ["Sal"], ["Fritz"]])
    regions = _array([["West"], ["east"], ["West"], ["East"], ["north"]])
    ages = _array([[52.0], [65.0], [22.0], [73.0], [19.0]])
    assert _call("SORTBY", names, regions, 1, ages, -1) == [["Sal"], ["Fred"], ["Fritz"], ["Tom"], ["Amy"]]
    assert _call("SORTBY", _array([[1.0], [2.0], [3.0]]), _array([["b"], ["A"], ["C"]])) == [[2.0], [1.0], [3.0]]
    assert _call("SORTBY", _array([["a", "b", "c"]]), _array([[3.0, 1.0, 2.0]]), -1) == [["a", "c", "b"]]
    assert _call("SORTBY", names, _array([[1.0], [2.0]])) == VALUE  # not as tall as the array


def test_sortby_in_a_workbook(tmp_path: Path) -> None:
    cells = {**_column("A1", ["x", "y", "z"]), **_column("B1", ["b", "A", "C"]), "D1": "=_xlfn.SORTBY(A1:A3,B1:B3)"}
    assert _area(_sheet(tmp_path, cells), "D1", 3, 1) == [["y"], ["x"], ["z"]]


def test_unique_is_case_insensitive_and_calc_when_nothing_is_left() -> None:
    names = _array([["Fritz"], ["fritz"], ["Amy"], ["Sal"], ["amy"], ["Xu"]])
    assert _call("UNIQUE", names) == [["Fritz"], ["Amy"], ["Sal"], ["Xu"]]
    assert _call("UNIQUE", names, False, True) == [["Sal"], ["Xu"]]  # =UNIQUE(names,FALSE,TRUE): exactly once
    assert _call("UNIQUE", _array([[1.0], [1.0]]), 0, True) == CALC
    row = _array([[1.0, 1.0, 2.0, 3.0, 3.0]])
    assert _call("UNIQUE", row, True) == [[1.0, 2.0, 3.0]]  # by column
    assert _call("UNIQUE", row, True, True) == 2.0
    assert _call("UNIQUE", row) == [[1.0, 1.0, 2.0, 3.0, 3.0]]  # one row is one distinct row


def test_unique_in_a_workbook(tmp_path: Path) -> None:
    cells = {**_column("A1", ["a", "B", "b", "A", "c"]), "C1": "=_xlfn.UNIQUE(A1:A5)", "D1": "=_xlfn.UNIQUE(A1:A5,,TRUE)",
             "E1": "=_xlfn.UNIQUE(A1:A4,,TRUE)"}
    sheet = _sheet(tmp_path, cells)
    assert _area(sheet, "C1", 4, 3) == [["a", "c", CALC], ["B", None, None], ["c", None, None], [None, None, None]]


def test_filter_without_a_match_is_calc_unless_if_empty_is_given() -> None:
    values = _array([[1.0], [2.0], [3.0]])
    nothing = _array([[False], [False], [False]])
    assert _call("FILTER", values, nothing) == CALC
    assert _call("FILTER", values, nothing, "none") == "none"
    assert _call("FILTER", values, nothing, "") == ""
    table = _array([["Apple", 1.0], ["Pear", 2.0], ["Apple", 3.0]])
    assert _call("FILTER", table, _array([[True], [False], [True]])) == [["Apple", 1.0], ["Apple", 3.0]]
    assert _call("FILTER", table, _array([[False, True]])) == [[1.0], [2.0], [3.0]]
    assert _call("FILTER", table, _array([[True], [False]])) == VALUE  # not as tall


def test_filter_in_a_workbook(tmp_path: Path) -> None:
    cells = {**_grid_cells([["Apple", 1], ["Pear", 2], ["Apple", 3]]), "D1": '=_xlfn._xlws.FILTER(A1:B3,A1:A3="Apple")',
             "G1": '=_xlfn._xlws.FILTER(A1:B3,A1:A3="Plum")', "G2": '=_xlfn._xlws.FILTER(A1:B3,A1:A3="Plum","")'}
    sheet = _sheet(tmp_path, cells)
    assert _area(sheet, "D1", 3, 2) == [["Apple", 1.0], ["Apple", 3.0], [None, None]]
    assert sheet.get(1, 7) == CALC and sheet.get(2, 7) == ""


# --- TAKE, DROP, EXPAND, WRAPROWS, WRAPCOLS, TOCOL, TOROW ----------------------------------------

def test_take_follows_microsoft_examples() -> None:
    nine = _array(NINE)
    assert _call("TAKE", nine, 2) == NINE[:2]
    assert _call("TAKE", nine, OMITTED, 2) == [r[:2] for r in NINE]  # =TAKE(A2:C4,,2): rows omitted
    assert _call("TAKE", nine, -2) == NINE[1:]
    assert _call("TAKE", nine, 2, 2) == [[1.0, 2.0], [4.0, 5.0]]
    assert _call("TAKE", nine, 5) == NINE  # more than there is
    assert _call("TAKE", nine, np.array([[0.0]], dtype=object)) == CALC  # a zero from a cell: empty


def test_drop_follows_microsoft_examples() -> None:
    nine = _array(NINE)
    assert _call("DROP", nine, 2) == [[7.0, 8.0, 9.0]]
    assert _call("DROP", nine, OMITTED, 2) == [[3.0], [6.0], [9.0]]
    assert _call("DROP", nine, -2) == [[1.0, 2.0, 3.0]]
    assert _call("DROP", nine, 2, 2) == 9.0
    assert _call("DROP", nine, 3) == CALC  # nothing left


def test_take_and_drop_in_a_workbook(tmp_path: Path) -> None:
    cells = {**_grid_cells(NINE), "E1": "=_xlfn.TAKE(A1:C3,,2)", "H1": "=_xlfn.DROP(A1:C3,3)"}
    sheet = _sheet(tmp_path, cells)
    assert _area(sheet, "E1", 4, 3) == [[1.0, 2.0, None], [4.0, 5.0, None], [7.0, 8.0, None], [None, None, None]]
    assert sheet.get(1, 8) == CALC


def test_expand_follows_microsoft_examples_and_keeps_an_omitted_dimension() -> None:
    four = _array([[1.0, 2.0], [3.0, 4.0]])
    assert _call("EXPAND", four, 3, 3) == [[1.0, 2.0, NA], [3.0, 4.0, NA], [NA, NA, NA]]
    assert _call("EXPAND", four, 3, 3, "-") == [[1.0, 2.0, "-"], [3.0, 4.0, "-"], ["-", "-", "-"]]
    assert _call("EXPAND", four, 3, OMITTED, 0) == [[1.0, 2.0], [3.0, 4.0], [0, 0]]  # =EXPAND(A2:B3,3,,0)
    assert _call("EXPAND", four, OMITTED, 3, 0) == [[1.0, 2.0, 0], [3.0, 4.0, 0]]  # =EXPAND(A2:B3,,3,0)
    assert _call("EXPAND", four, 1) == VALUE  # smaller than the array


def test_expand_in_a_workbook(tmp_path: Path) -> None:
    cells = {**_grid_cells([[1, 2], [3, 4]]), "D1": "=_xlfn.EXPAND(A1:B2,,3,0)"}
    assert _area(_sheet(tmp_path, cells), "D1", 3, 4) == [[1.0, 2.0, 0.0, None], [3.0, 4.0, 0.0, None],
                                                         [None, None, None, None]]


def test_wraprows_and_wrapcols_pad_with_the_na_error_and_take_only_a_row_or_column() -> None:
    letters = _array([["A", "B", "C", "D", "E", "F", "G"]])  # Microsoft's example
    assert _call("WRAPROWS", letters, 3) == [["A", "B", "C"], ["D", "E", "F"], ["G", NA, NA]]
    assert _call("WRAPROWS", letters, 3, "x") == [["A", "B", "C"], ["D", "E", "F"], ["G", "x", "x"]]
    assert _call("WRAPCOLS", letters, 3) == [["A", "D", "G"], ["B", "E", NA], ["C", "F", NA]]
    assert _call("WRAPROWS", _array([[1.0, 2.0], [3.0, 4.0]]), 2) == VALUE
    assert _call("WRAPCOLS", letters, 0.5) == NUM


def test_wraprows_in_a_workbook_pads_with_the_error(tmp_path: Path) -> None:
    cells = {**_grid_cells([["A", "B", "C", "D", "E", "F", "G"]]), "A3": "=_xlfn.WRAPROWS(A1:G1,3)"}
    sheet = _sheet(tmp_path, cells)
    assert _area(sheet, "A3", 3, 3) == [["A", "B", "C"], ["D", "E", "F"], ["G", NA, NA]]


def test_tocol_and_torow_with_nothing_left_are_calc() -> None:
    blanks = _array([[None, None], [None, None]])
    assert _call("TOCOL", blanks, 1) == CALC
    assert _call("TOROW", blanks, 3) == CALC
    mixed = _array([[1.0, None], [Error.errors["#DIV/0!"], 4.0]])
    assert _call("TOCOL", mixed, 3) == [[1.0], [4.0]]
    assert _call("TOROW", mixed, 1, True) == [[1.0, ExcelError("#DIV/0!"), 4.0]]


def test_tocol_of_blank_cells_in_a_workbook(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path, {"A1": 1, "C1": "=_xlfn.TOCOL(A2:B3,1)", "D1": "=_xlfn.TOCOL(A1:B2,1)"})
    assert sheet.get(1, 3) == CALC
    assert _area(sheet, "D1", 2, 1) == [[1.0], [None]]
