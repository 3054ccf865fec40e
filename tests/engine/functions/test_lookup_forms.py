"""LOOKUP's array and vector forms and INDEX's wrong-index errors, as Excel (Microsoft Support, "LOOKUP
function" and "INDEX function"), directly and through workbooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import schedula as sh
from formulas.tokens.operand import XlError
from function_books import recalculated

from xlrating.engine.functions.lookup import FUNCTIONS
from xlrating.functions import ExcelError

NA, VALUE, REF, DIV0 = ExcelError("#N/A"), ExcelError("#VALUE!"), ExcelError("#REF!"), ExcelError("#DIV/0!")
# Microsoft's vector-form example: frequency (A2:A6) and colour (B2:B6)
COLOURS = [["Frequency", "Color"], [4.14, "red"], [4.19, "orange"], [5.17, "yellow"], [5.77, "green"],
           [6.39, "blue"]]


def _array(rows: list[list[Any]]) -> np.ndarray:
    return np.array([[sh.EMPTY if v is None else float(v) if isinstance(v, int) and not isinstance(v, bool)
                      else v for v in row] for row in rows], dtype=object)


def _host(value: Any) -> Any:
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def _lookup(*args: Any) -> Any:
    """LOOKUP's result: a single value, or a list of rows for an array (errors as ExcelError)."""
    array = np.atleast_2d(np.asarray(FUNCTIONS["LOOKUP"](*args), dtype=object))
    rows = [[_host(v) for v in row] for row in array.tolist()]
    return rows[0][0] if array.size == 1 else rows


def _index(*args: Any) -> Any:
    result = FUNCTIONS["INDEX"]["function"](False, *args)
    return _host(np.ravel(np.asarray(result, dtype=object))[0])


# --- vector form ---------------------------------------------------------------------------------

def test_microsoft_vector_form_examples() -> None:
    frequency, colour = _array([[r[0]] for r in COLOURS[1:]]), _array([[r[1]] for r in COLOURS[1:]])
    assert _lookup(4.19, frequency, colour) == "orange"  # exact
    assert _lookup(5.75, frequency, colour) == "yellow"  # the largest value <= 5.75 is 5.17
    assert _lookup(7.66, frequency, colour) == "blue"  # beyond the last: the last
    assert _lookup(0.0, frequency, colour) == NA  # smaller than the smallest


def test_vector_form_result_vector_of_another_orientation_or_size() -> None:
    column, row = _array([[1], [2], [3]]), _array([["one", "two", "three"]])
    assert _lookup(2.5, column, row) == "two"  # a column looks up into a row
    assert _lookup(3.0, column, _array([["x", "y"]])) == NA  # past the end of the result vector
    assert _lookup(1.0, column, _array([["x", "y", "z", "w"]])) == "x"  # a longer one is fine
    assert _lookup(2.0, column, _array([[1, 2], [3, 4], [5, 6]])) == NA  # a 2-D result vector (Excel: #N/A)


def test_vector_form_searches_only_the_first_column_of_a_2d_lookup_vector() -> None:
    table = _array([[0, "a"], [1, "e"], [2, "i"]])
    result = _array([["x"], ["y"], ["z"]])
    assert _lookup(1.5, table, result) == "y"
    assert _lookup("plugh", table, result) == NA  # the text in the second column is not searched


# --- array form ----------------------------------------------------------------------------------

def test_microsoft_array_form_examples() -> None:
    # =LOOKUP("C",{"a","b","c","d";1,2,3,4}): wider than tall, searched in the first row, last row returned
    assert _lookup("C", _array([["a", "b", "c", "d"], [1, 2, 3, 4]])) == 3.0
    # =LOOKUP("bump",{"a",1;"b",2;"c",3}): taller, first column searched, "b" is the largest <= "bump"
    assert _lookup("bump", _array([["a", 1], ["b", 2], ["c", 3]])) == 2.0


def test_array_form_returns_from_the_last_row_or_column_not_the_second() -> None:
    wide = _array([[0, 1, 2, 3], ["a", "e", "i", "o"], [None, "plugh", True, "last"]])
    assert _lookup(2.5, wide) is True  # the third (last) row
    assert _lookup(0.5, wide) == 0.0  # an empty cell found is 0
    tall = _array([[0, "a", 10], [1, "e", 11], [2, "i", 12], [3, "o", 13]])
    assert _lookup(1.0, tall) == 11.0  # the last column
    square = _array([[1, 5], [2, 6]])
    assert _lookup(1.5, square) == 5.0  # square: searched in the first column


def test_array_form_of_a_single_row_or_column_returns_the_value_found() -> None:
    assert _lookup(2.5, _array([[1, 2, 3]])) == 2.0
    assert _lookup(2.5, _array([[1], [2], [3]])) == 2.0


def test_values_of_another_type_are_skipped() -> None:
    mixed = _array([[1, "b", 3, True, 5], ["one", "bee", "three", "true", "five"]])
    assert _lookup(4.0, mixed) == "three"  # "b" and TRUE are not numbers
    assert _lookup("c", mixed) == "bee"  # only text is compared with text, case-insensitively
    assert _lookup("A", mixed) == NA  # no text <= "A"
    assert _lookup(True, mixed) == "true"
    assert _lookup(-1.0, mixed) == NA


def test_an_error_found_or_looked_up_is_returned() -> None:
    from formulas.tokens.operand import Error

    table = _array([[0, 1, 2], [Error.errors["#DIV/0!"], "x", Error.errors["#NUM!"]]])
    assert _lookup(0.0, table) == DIV0
    assert _lookup(5.0, table) == ExcelError("#NUM!")
    assert _lookup(Error.errors["#REF!"], table) == REF


def test_several_lookup_values_give_one_result_each() -> None:
    assert _lookup(_array([[0.5, 2.5, -1]]), _array([[0, 1, 2], ["a", "b", "c"]])) == [["a", "c", NA]]


# --- INDEX ---------------------------------------------------------------------------------------

def test_index_negative_or_text_index_is_value_beyond_the_array_is_ref() -> None:
    table = _array([[1, 2], [3, 4]])
    assert _index(table, 2, 2) == 4.0
    assert _index(table, -1, 0) == VALUE  # negative next to a whole column: #VALUE!, not #REF!
    assert _index(table, 0, -1) == VALUE
    assert _index(table, 3, -1) == VALUE  # negative wins over beyond the array
    assert _index(table, -1, 3) == VALUE
    assert _index(table, "x", 1) == VALUE
    assert _index(table, 1, "x") == VALUE
    assert _index(table, "2", 1) == 3.0  # numeric text is a number
    assert _index(table, 3, 1) == REF
    assert _index(table, 0, 3) == REF
    assert _index(table, 1.9, 1) == 1.0  # truncated


# --- end to end ----------------------------------------------------------------------------------

def test_lookup_forms_in_a_workbook(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, COLOURS, {
        "D1": "=LOOKUP(4.19,A2:A6,B2:B6)", "D2": "=LOOKUP(5.75,A2:A6,B2:B6)",
        "D3": "=LOOKUP(7.66,A2:A6,B2:B6)", "D4": "=LOOKUP(0,A2:A6,B2:B6)",
        "D5": '=LOOKUP("C",{"a","b","c","d";1,2,3,4})', "D6": '=LOOKUP("bump",{"a",1;"b",2;"c",3})',
        "D7": "=LOOKUP(5.2,A2:B6)",  # taller than wide: column A searched, column B returned
        "D8": "=LOOKUP(5.2,A2:A6,F1:J1)",  # result in a row
        "F1": "v", "G1": "w", "H1": "x", "I1": "y", "J1": "z",
        "D9": "=LOOKUP(5.2,A2:B6,A2:A6)",
    })
    got = [sheet.get(r, 4) for r in range(1, 10)]
    assert got == ["orange", "yellow", "blue", NA, 3, 2, "yellow", "x", 5.17]


def test_wide_range_and_last_match_idiom_in_a_workbook(tmp_path: Path) -> None:
    rows = [[0, 1, 2, 3], ["a", "e", "i", "o"], [None, "plugh", True, "end"],
            ["k", "x", "k", "y"], [10, 20, 30, 40]]
    sheet = recalculated(tmp_path, rows, {
        "F1": "=LOOKUP(1.5,A1:D3)",  # wider than tall: last row
        "F2": "=LOOKUP(0.5,A1:D3)",  # empty found: 0
        "F3": '=LOOKUP(2,1/(A4:D4="k"),A5:D5)',  # the last "k": errors are skipped
        "F4": "=LOOKUP(-1,A1:D3)",
        "F5": "=INDEX(A1:D3,-1,0)", "F6": "=INDEX(A1:D3,9,-1)", "F7": "=INDEX(A1:D3,9,1)",
    })
    assert [sheet.get(r, 6) for r in range(1, 8)] == ["plugh", 0, 30, NA, VALUE, VALUE, REF]


def test_index_of_a_single_row_takes_the_lone_number_as_the_column(tmp_path: Path) -> None:
    # Microsoft: the row_num of a single row is optional; Excel saved INDEX({1,2,3},2) as 2 and
    # INDEX(D52:F52,2) as the second cell (IronCalc's LOOKUP_AND_REFERENCE_INDEX, formulas' test.xlsx)
    sheet = recalculated(tmp_path, [[10, 20, 30], [40, 50, 60]], {
        "E1": "=INDEX({1,2,3},2)", "E2": "=INDEX(A1:C1,3)", "E3": "=INDEX(A1:C1,4)", "E4": "=INDEX(A1:A2,2)",
        "E5": "=INDEX({1,2,3},1,0,2)",  # an array is one area: area 2 is #REF!
        "E6": "=SUM(INDEX(A2:C2,2))",  # the reference B2
    })
    assert [sheet.get(r, 5) for r in range(1, 7)] == [2.0, 30.0, REF, 40.0, REF, 50.0]


def test_the_range_operator_spans_every_cell_between_computed_references(tmp_path: Path) -> None:
    # A1:B2 as OFFSET(A1,0,0):OFFSET(A1,1,1) is all four cells (formulas left A2 and B1 out: 60)
    sheet = recalculated(tmp_path, [[10, 20, 30], [40, 50, 60]], {
        "E1": "=SUM(OFFSET(A1,0,0):OFFSET(A1,1,1))", "E2": "=SUM(INDEX(A1:C2,1,1):INDEX(A1:C2,2,2))",
        "E3": "=SUM(A1:INDEX(A1:C2,2,2))", "E4": "=COUNT(OFFSET(A1,1,2):OFFSET(A1,0,0))",
        "E5": '=SUM(INDIRECT("A1"):B2)', "E6": "=SUM(A1:B2)", "E7": "=SUM(OFFSET(A1,0,0):NA())",
        # a call before the colon and a cell after it (formulas' tokenizer read ":A1" as a reference)
        "E8": "=SUM(INDEX(A1:C2,2,2):A1)", "E9": "=ROWS(OFFSET(A2,0,1):C2)*10+COLUMNS(OFFSET(A2,0,1):C2)",
    })
    assert [sheet.get(r, 5) for r in range(1, 10)] == [120.0, 120.0, 120.0, 6.0, 120.0, 120.0, NA, 120.0, 12.0]
