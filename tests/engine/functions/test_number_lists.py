"""Which numbers the statistical and aggregating functions count (functions.number_lists): typed
values are read as numbers, references and arrays give only their numbers. Expected values are
those Excel saved in public workbooks where one shows the case (named), else Microsoft's rule
worked by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from function_books import assert_excel_value, recalculated

# IronCalc's MEADIAN_KURT_SKEW_HARMEAN.xlsx, column A, saved by Excel: text that reads as a date or
# a number, TRUE, FALSE and a word, none of which a reference counts.
IRONCALC_COLUMN = [[1], [2], [3], ["6/6/2018"], ["13"], [True], [False], ["hello"], [None], [0.12]]


def test_a_reference_gives_only_its_numbers_to_median_harmean_kurt_skew(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, IRONCALC_COLUMN, {
        "B1": "=MEDIAN(A1:A10, {1,2,3},A3)", "B2": "=HARMEAN(A1:A10, {1,2,3},A3)",
        "B3": "=KURT(A1:A10, {1,2,3},A3)", "B4": "=SKEW(A1:A10, {1,2,3},A3)",
        "B5": "=_xlfn.SKEW.P(A1:A10, {1,2,3},A3)"})
    for row, excel in enumerate((2.0, 0.6486486486486486, -1.2129835263391704, -0.41015281605980153,
                                 -0.32885385298206216), start=1):
        assert_excel_value(sheet.get(row, 2), excel, rel=1e-12)


def _assert_table(tmp_path: Path, rows: list[list[object]], table: list[tuple[str, object]]) -> None:
    """Each formula of ``table`` in column C of one workbook holding ``rows``, equal to its Excel value."""
    sheet = recalculated(tmp_path, rows, {f"C{row}": "=" + formula for row, (formula, _) in enumerate(table, 1)})
    wrong = []
    for row, (formula, expected) in enumerate(table, start=1):
        try:
            assert_excel_value(sheet.get(row, 3), expected)
        except AssertionError:
            wrong.append((formula, expected, sheet.get(row, 3)))
    assert not wrong


# 1, "2" (text), TRUE, an empty cell, 4, 3, 4: the functions count 1, 4, 3, 4
MIXED = [[1], ["2"], [True], [None], [4], [3], [4]]


STATISTICS = [
    ("STDEV(A1:A7)", math.sqrt(2)), ("STDEV.S(A1:A7)", math.sqrt(2)), ("VAR(A1:A7)", 2.0),
    ("VAR.P(A1:A7)", 1.5), ("VARP(A1:A7)", 1.5), ("STDEVP(A1:A7)", math.sqrt(1.5)),
    ("MEDIAN(A1:A7)", 3.5), ("AVEDEV(A1:A7)", 1.0), ("DEVSQ(A1:A7)", 6.0), ("GEOMEAN(A1:A7)", 48 ** 0.25),
    ("MODE(A1:A7)", 4.0), ("VAR(A1:A3,A5:A7)", 2.0), ("MEDIAN(IF(A1:A7>2,A1:A7))", 4.0),
    # typed directly, logical values and text that reads as a number count (Microsoft's VAR page)
    ('VAR(1,"2",TRUE,4)', 2.0), ('STDEV(A5,"3",FALSE)', math.sqrt(4.0 + 1 / 3)),
    ('VAR(1,"")', "#VALUE!"), ("VAR(A1:A7,1/0)", "#DIV/0!"),
]


def test_statistics_count_typed_values_and_the_numbers_of_references(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, STATISTICS)


PRODUCTS_AND_SQUARES = [
    # IronCalc's PRODUCT_SUM and PRODUCT books (Excel): a cell holding ="7", "seven", TRUE or nothing
    # gives PRODUCT nothing to multiply, and PRODUCT of no numbers is 0
    ("PRODUCT(A2)", 0.0), ("PRODUCT(A2:A4)", 0.0), ("PRODUCT(A1:A7)", 48.0), ('PRODUCT("7",TRUE,A5)', 28.0),
    # IronCalc's SUMSQ book: SUMSQ of a cell holding ="8" is 0; typed "3" and TRUE count (9 + 1)
    ("SUMSQ(A2)", 0.0), ('SUMSQ("3",TRUE,A1:A7)', 10.0 + 42.0), ("SUMSQ(2E+154)", "#NUM!"),
    ('SUMSQ("x")', "#VALUE!"),
]


def test_product_and_sumsq_count_as_excel_counts(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, PRODUCTS_AND_SQUARES)


MODES = [
    # formulas' test.xlsx (Excel): typed text that is no number is left out, an argument left out
    # is #VALUE!
    ('MODE.SNGL(1,2,2,"")', 2.0), ("_xlfn.MODE.MULT(1,1,)", "#VALUE!"),
    # a text "2" in a cell is no number to MODE.SNGL: the only repeated value is gone (formulas'
    # test.xlsx: MODE.SNGL(I71,G71) over a text is #N/A)
    ("_xlfn.MODE.SNGL(A2,A2,1)", "#N/A"), ("_xlfn.MODE.SNGL(A5,A7,A2)", 4.0),
    # the legacy MODE (POI's FormulaEvalTestData, saved by Excel 2013): a value typed or a one-cell
    # reference must be a number; typed "1", a one-cell reference to text or to an empty cell are
    # #VALUE!, the first error in argument order wins; a range leaves text and empty cells out
    ("MODE(A2,A2,1)", "#VALUE!"), ("MODE(A5,A7,A2)", "#VALUE!"), ('MODE(A1,"1",2,3)', "#VALUE!"),
    ("MODE(A6,3,A4)", "#VALUE!"), ('MODE("1",1,1/0,2,3)', "#VALUE!"), ('MODE(1/0,"1",1)', "#DIV/0!"),
    ("MODE(A2:A4,-1.1)", "#N/A"), ("MODE(A1:A7,-1.1)", 4.0), ("MODE(1,1,2,3)", 1.0), ("MODE(A5,A7,3)", 4.0),
]


def test_mode_reads_its_arguments_as_excel_does(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, MODES)


RANKED = [
    # IronCalc's SMALL_LARGE book (Excel)
    ("SMALL(TRUE, 1)", 1.0), ('SMALL("3.4", 1)', 3.4), ('SMALL("Hello", 1)', "#VALUE!"),
    ("SMALL({1,2,3,-8},1)", -8.0), ("LARGE(TRUE,1)", 1.0), ("LARGE(A1:A7,2)", 4.0), ("SMALL(A1:A7,2)", 3.0),
    # formulas' test.xlsx: an error k comes before an error in the array
    ("LARGE(A1:B1,NA())", "#N/A"),
]


def test_large_and_small_read_a_typed_value_as_a_number(tmp_path: Path) -> None:
    _assert_table(tmp_path, [[1, "=1/0"], ["2"], [True], [None], [4], [3], [4]], RANKED)


def test_atan2_lifts_arrays_of_different_sizes_as_excel_does(tmp_path: Path) -> None:
    """A function of single values over two arrays: the larger size, #N/A past the shorter one."""
    sheet = recalculated(tmp_path, [[1, 1], [2, 0]], {
        "C1": "=COLUMNS(ATAN2({1,2,3},{1,2}))", "C2": "=INDEX(ATAN2({1,2,3},{1,2}),1,3)",
        "C3": "=INDEX(ATAN2({1,2,3},{1,2}),1,2)", "C4": "=SUM(ATAN2(A1:A2,B1:B2))", "C5": "=ATAN2(0,0)",
        "C6": "=INDEX(ATAN2({1;-1},{1,2}),2,2)"})
    assert sheet.get(1, 3) == 3
    assert_excel_value(sheet.get(2, 3), "#N/A")
    assert sheet.get(3, 3) == pytest.approx(math.atan2(2, 2))
    assert sheet.get(4, 3) == pytest.approx(math.atan2(1, 1) + 0.0)
    assert_excel_value(sheet.get(5, 3), "#DIV/0!")
    assert sheet.get(6, 3) == pytest.approx(math.atan2(2, -1))


PERCENTILES = [
    # the numbers of A1:A7 sorted: 1, 3, 4, 4
    ("PERCENTILE(A1:A7,0.3)", 2.8), ("PERCENTILE.INC(A1:A7,0.3)", 2.8), ("PERCENTILE.EXC(A1:A7,0.3)", 2.0),
    ("QUARTILE(A1:A7,1)", 2.5), ("QUARTILE.INC(A1:A7,1)", 2.5), ("QUARTILE.EXC(A1:A7,1)", 1.5),
    ("TRIMMEAN(A1:A7,0.5)", 3.5), ('QUARTILE("3",1)', 3.0), ("PERCENTILE(A1:A7,NA())", "#N/A"),
]


def test_percentiles_and_quartiles_take_only_the_numbers_of_a_reference(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, PERCENTILES)


ARRAY_ENTRIES = [
    # Microsoft's SUM, COUNT and AVERAGE pages: in an array, typed or computed, only numbers count
    ('SUM({1,TRUE,"2"})', 1.0), ('COUNT({TRUE,"2"})', 0.0), ("AVERAGE({TRUE,3})", 3.0),
    ("SUM(IF(TRUE,{1,TRUE}))", 1.0), ("SUMPRODUCT({TRUE,TRUE})", 0.0), ("SUMPRODUCT(A1:A7>2)", 0.0),
    # two negations make numbers of logical values and of text that reads as a number
    ("SUM(--{TRUE,FALSE,TRUE})", 2.0), ("SUMPRODUCT(--(A1:A7>2))", 5.0), ('SUM(--{"2","3"})', 5.0),
    ("SUM(-+-{TRUE,TRUE})", 2.0), ('SUM(--{"x"})', "#VALUE!"), ("SUM(-{TRUE})", -1.0),
    # typed directly, they count
    ('SUM({1,2},TRUE,"2")', 6.0),
]


def test_an_array_gives_only_its_numbers_and_two_negations_make_numbers(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, ARRAY_ENTRIES)


COUNTING_EVERY_VALUE = [
    # IronCalc's STATISTICAL_COUNT book (Excel): a typed value counts whatever it is
    ('COUNTA("Hola")', 1.0), ("COUNTA(NA())", 1.0), ("COUNTA(TRUE)", 1.0), ('COUNTA("23")', 1.0),
    ("COUNTA(A1:A7)", 6.0), ('COUNTA({1,"",TRUE})', 3.0), ("COUNTA(Z1:Z4)", 0.0),
    # AVERAGEA: in a reference TRUE is 1, text 0 (1, 0, 1, 4, 3, 4); typed, text must read as a number
    ("AVERAGEA(A1:A7)", 13 / 6), ('AVERAGEA("4"&"2")', 42.0), ('AVERAGEA(A1:A7,"abc")', "#VALUE!"),
    ("AVERAGEA(Z1:Z3)", "#DIV/0!"), ('AVERAGEA(TRUE,"3")', 2.0), ("AVERAGEA(A1:A7,1/0)", "#DIV/0!"),
]


def test_counta_and_averagea_count_as_excel_counts(tmp_path: Path) -> None:
    _assert_table(tmp_path, MIXED, COUNTING_EVERY_VALUE)
