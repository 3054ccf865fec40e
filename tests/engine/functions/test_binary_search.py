"""MATCH (1), VLOOKUP/HLOOKUP (TRUE) and LOOKUP search by halving, as Excel does: on sorted data
the largest value not above the lookup value (the last of equal ones), on unsorted data where the
halving lands; values of another type than the lookup value, errors and empty cells are never the
answer. MATCH(..., -1) walks from the first value. XMATCH and XLOOKUP with search_mode 2 or -2 halve as
well, to the first of equal values (the last with -2). The cases marked "Excel" are values Excel saved
in public workbooks (formulas' test.xlsx, pycel's lookup.xlsx, IronCalc's MATCH book)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from function_books import assert_excel_value, recalculated

ROWS: list[list[Any]] = [
    [1, "a", 10, 9], [9, "b", 90, 7], [3, "d", 30, 5], [5, None, 50, 3], [2, "=1/0", 20, 1],
    [None, "f", None, None], [7, 4, 70, None],
]


@pytest.mark.parametrize(("formula", "expected"), [
    ("=MATCH(2,{1,2,2,2,3},1)", 4.0),  # sorted: the last of equal values
    ("=MATCH(2.5,{1,2,3,4},1)", 2.0), ("=MATCH(0,{1,2,3},1)", "#N/A"), ("=MATCH(9,{1,2,3})", 3.0),
    # unsorted: where the halving lands (middle 3 < 5 go right; 5 = 5 right; 2 < 5 right), the value
    # equal to the lookup value kept over the smaller one after it, as in Excel's LOOKUP(4.1, ...) below
    ("=MATCH(5,{1,9,3,5,2},1)", 4.0),
    ("=MATCH(6,{1,9,3,5,2},1)", 5.0),
    ("=MATCH(4,{1,9,3,5,2,8,7},1)", 1.0),  # middle 5 > 4 left; 9 > 4 left; 1 <= 4: the 1st
    ("=MATCH(6,A1:A5,1)", 5.0), ("=MATCH(8,A1:A7,1)", 7.0),  # the empty A6 skipped
    ("=MATCH(4,{9,7,5,3,1},-1)", 3.0), ("=MATCH(10,{9,7,5},-1)", "#N/A"),
    ("=MATCH(5,{1,\"a\",3,\"b\",7},1)", 3.0),  # texts skipped when looking up a number
    ("=MATCH(\"c\",B1:B7,1)", 2.0),  # texts only: a, b, d, f; the error, the number and the empty cell skipped
    ("=MATCH(\"C\",{\"a\",\"b\",\"d\"},1)", 2.0),  # texts compared whatever their case
    ("=MATCH(5,{1,9,3,5,2},0)", 4.0),  # an exact match is not searched by halving
    ("=VLOOKUP(6,A1:C5,3,TRUE)", 20.0), ("=VLOOKUP(6,A1:C5,3)", 20.0), ("=VLOOKUP(6,A1:C5,3,FALSE)", "#N/A"),
    ("=HLOOKUP(6,{1,9,3,5,2;10,90,30,50,20},2,TRUE)", 20.0),
    ("=LOOKUP(6,A1:A5,C1:C5)", 20.0),
    ("=LOOKUP(2,1/(D1:D7<>\"\"),D1:D7)", 1.0),  # the last non-empty cell: the errors skipped
    ("=MATCH(4,D1:D5,-1)", 3.0),
    # Excel: a middle value of another type; an equal value kept over a smaller one met after it
    ("=LOOKUP(4.1,{\"b\",4.1,\"a\",1.1})", 4.1), ("=LOOKUP(20,{\"b\",4.1,\"a\",1.1})", 1.1),
    ("=LOOKUP(4,{\"b\",4.1,\"a\",1.1})", "#N/A"), ("=MATCH(4.1,{TRUE,4.1,FALSE,1.1})", 2.0),
    ("=MATCH(-2,{\"\",4.1,\"a\",1.1})", "#N/A"), ("=LOOKUP(4.1,{\"a\",2.1,\"b\",4.1})", 4.1),
    ("=MATCH(\"delta\",{\"Alpha\",\"Beta\",\"Delta\",\"Delta\",\"Gamma\",\"Omega\"})", 4.0),
    # Excel: -1 over ascending values stops at the first value below the lookup value
    ("=MATCH(1.1,{-1.1,2.1,3.1,4.1},-1)", "#N/A"), ("=MATCH(-2,{-1.1,2.1,3.1,4.1},-1)", 4.0),
    ("=MATCH(0,{0,1,2,3,4},-1)", 1.0), ("=MATCH(-1,{0,1,2,3,4},-1)", 5.0), ("=MATCH(2,{0,1,2,3,4},-1)", "#N/A"),
])
def test_halving(tmp_path: Path, formula: str, expected: Any) -> None:
    sheet = recalculated(tmp_path, ROWS, {"H1": formula})
    assert_excel_value(sheet.get(1, 8), expected)


@pytest.mark.parametrize(("formula", "expected"), [
    # Excel: the halving goes on from a middle of another type to the next value of the type
    ("=LOOKUP(20,{FALSE,2.1,TRUE,4.1},{\"L\",\"ML\",\"MR\",\"R\"})", "R"),
    ("=LOOKUP(20,{\"b\",4.1,\"a\",1.1},{\"L\",\"ML\",\"MR\",\"R\"})", "R"),
    ("=LOOKUP(\"b\",{TRUE,4.1,FALSE,\"b\"})", "b"), ("=LOOKUP(\"b\",{TRUE,FALSE,\"a\",\"b\"})", "b"),
])
def test_halving_to_a_text(tmp_path: Path, formula: str, expected: str) -> None:
    sheet = recalculated(tmp_path, ROWS, {"H1": formula})
    assert sheet.get(1, 8) == expected


# IronCalc's XLOOKUP book, saved by Excel: 1,2,3,4,5,5,5,6,7,7,7,8,9 beside the letters aa, a, b ... l,
# searched with search_mode 2 (whole columns), and the same values descending with -2
ASCENDING = [1, 2, 3, 4, 5, 5, 5, 6, 7, 7, 7, 8, 9]
LETTERS = ["aa", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]


@pytest.mark.parametrize(("value", "smaller", "larger"), [
    (2, "a", "a"), (1.8, "aa", "a"), (5, "d", "d"), (7, "h", "h"),  # the first of equal values
    (7.1, "j", "k"), (6.8, "g", "h"), (4.8, "c", "d"), (8, "k", "k"),
])
def test_xlookup_binary_search_ascending(tmp_path: Path, value: float, smaller: str, larger: str) -> None:
    rows = [[v, letter] for v, letter in zip(ASCENDING, LETTERS)]
    sheet = recalculated(tmp_path, rows, {"D1": value, "E1": "=_xlfn.XLOOKUP(D1,A:A,B:B,,-1,2)",
                                          "F1": "=_xlfn.XLOOKUP(D1,A:A,B:B,,1,2)",
                                          "G1": "=_xlfn.XMATCH(D1,A1:A13,1,2)"})
    assert (sheet.get(1, 5), sheet.get(1, 6)) == (smaller, larger)
    assert sheet.get(1, 7) == LETTERS.index(larger) + 1


@pytest.mark.parametrize(("value", "smaller", "larger"), [
    (2, "k", "k"), (1.8, "l", "k"), (5, "h", "h"), (7, "d", "d"),  # the last of equal values
    (7.1, "b", "a"), (6.8, "e", "d"), (4.8, "i", "h"), (8, "a", "a"),
])
def test_xlookup_binary_search_descending(tmp_path: Path, value: float, smaller: str, larger: str) -> None:
    rows = [[v, letter] for v, letter in zip(reversed(ASCENDING), LETTERS)]
    sheet = recalculated(tmp_path, rows, {"D1": value, "E1": "=_xlfn.XLOOKUP(D1,$A$1:$A$13,$B$1:$B$13,,-1,-2)",
                                          "F1": "=_xlfn.XLOOKUP(D1,$A$1:$A$13,$B$1:$B$13,,1,-2)",
                                          "G1": "=_xlfn.XMATCH(D1,A1:A13,-1,-2)"})
    assert (sheet.get(1, 5), sheet.get(1, 6)) == (smaller, larger)
    assert sheet.get(1, 7) == LETTERS.index(smaller) + 1


@pytest.mark.parametrize(("formula", "expected"), [
    # Microsoft's XMATCH page and IronCalc's XMATCH_arrays book
    ("=_xlfn.XMATCH(25,{10,20,30,40,50},1,2)", 3.0), ("=_xlfn.XMATCH(25,{50,40,30,20,10},-1,-2)", 4.0),
    # formulas' test.xlsx, saved by Excel: unsorted arrays of several types, where the halving lands
    ("=_xlfn.XMATCH(4.1,{\"c bau c\",4.1,\"a\",1.1},0,2)", 2.0),
    ("=_xlfn.XLOOKUP(2,{4.1,2.1,3.1,1.1},{\"L\",\"ML\",\"MR\",\"R\"},2,2)", 2.0),
    ("=_xlfn.XLOOKUP(4.1,{TRUE,4.1,FALSE,1.1},{\"L\",\"ML\",\"MR\",\"R\"},1,1,2)", "ML"),
    # an empty lookup value left out finds the first empty cell (IronCalc's XLOOKUP book, Errors!N1)
    ("=_xlfn.XLOOKUP(,B1:B7,C1:C7,,1,2)", 50.0),
])
def test_xmatch_and_xlookup_binary_search(tmp_path: Path, formula: str, expected: Any) -> None:
    sheet = recalculated(tmp_path, ROWS, {"H1": formula})
    assert sheet.get(1, 8) == expected
