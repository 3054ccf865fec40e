"""AGGREGATE: its 19 functions under its 8 options, over a column with a hidden row, an error value,
a nested SUBTOTAL, text, a logical value and an empty cell; rows a filter hides; the array form
over computed arrays; its argument errors; and the same cells as LibreOffice computes them.

The expected values follow Microsoft's AGGREGATE page (options 0-7: nested SUBTOTAL/AGGREGATE,
hidden rows, error values) and the definitions of the functions it applies; statistics' own
mean, stdev, variance and median serve as a second computation of the numbers."""

from __future__ import annotations

import math
import shutil
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from function_books import assert_excel_value

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import Sheet

# A1:A10; row 4 is hidden by hand; A5 is a nested SUBTOTAL (34); A2 is #DIV/0!
COLUMN: list[Any] = [10, "=1/0", 30, 4, "=SUBTOTAL(9,A3:A4)", 5, "x", True, None, 5]
K = {14: 2, 15: 3, 16: 0.7, 17: 3, 18: 0.7, 19: 3}

# The numbers each option keeps: 2 leaves out errors and the nested SUBTOTAL, 3 also the hidden
# row, 6 only errors, 7 errors and the hidden row; 0, 1, 4 and 5 keep the error.
KEPT = {2: [10, 30, 4, 5, 5], 3: [10, 30, 5, 5], 6: [10, 30, 4, 34, 5, 5], 7: [10, 30, 34, 5, 5]}
COUNTS = {2: [5, 4, 5, 4, 6, 5, 6, 5], 3: [8, 7, 7, 6, 9, 8, 8, 7]}  # COUNT, COUNTA under options 0-7
# 12-19 over KEPT[2], KEPT[3], KEPT[6], KEPT[7], worked by hand (k as in K)
BY_HAND = {
    12: [5, 7.5, 7.5, 10], 13: [5, 5, 5, 5], 14: [10, 10, 30, 30], 15: [5, 10, 5, 10],
    16: [9, 12, 20, 26], 17: [10, 15, 25, 30], 18: [14, 20, 28, 30.8], 19: [20, 25, 31, 32],
}
STATISTICS: dict[int, Callable[[list[int]], float]] = {
    1: statistics.fmean, 4: max, 5: min, 6: math.prod, 7: statistics.stdev, 8: statistics.pstdev, 9: math.fsum,
    10: statistics.variance, 11: statistics.pvariance,
}


def _expected(function_num: int, option: int) -> Any:
    if function_num in (2, 3):
        return float(COUNTS[function_num][option])
    if option not in KEPT:
        return "#DIV/0!"
    if function_num in STATISTICS:
        return float(STATISTICS[function_num](KEPT[option]))
    return float(BY_HAND[function_num][sorted(KEPT).index(option)])


def _formula(function_num: int, option: int) -> str:
    k = f",{K[function_num]}" if function_num in K else ""
    return f"=_xlfn.AGGREGATE({function_num},{option},A1:A10{k})"


def _book(path: Path, column: list[Any]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Data"
    for row, value in enumerate(column, start=1):
        sheet.cell(row, 1, value)
    sheet.row_dimensions[4].hidden = True
    for function_num in range(1, 20):
        for option in range(8):
            sheet.cell((function_num - 1) * 8 + option + 1, 3, _formula(function_num, option))
    more = {
        "E1": "=_xlfn.AGGREGATE(15,6,ROW(A1:A10)/(A1:A10=5),2)",  # the rows holding 5: 6 and 10
        "E2": "=INDEX(_xlfn.AGGREGATE(14,6,A1:A10,{1,2,3}),3)",  # an array of k, an array of results
        "E3": "=SUM(_xlfn.AGGREGATE(15,6,A1:A10,{1;2}))",
        "E4": "=_xlfn.AGGREGATE(9,6,A1:A10*2)",  # the reference form takes references only
        "E5": "=_xlfn.AGGREGATE(14,6,A1:A10)",  # the array form needs k
        "E6": "=_xlfn.AGGREGATE(20,0,A1:A10)",
        "E7": "=_xlfn.AGGREGATE(9,8,A1:A10)",
        "E8": "=_xlfn.AGGREGATE(A2,0,A1)",
        "E9": "=_xlfn.AGGREGATE(9,4,A1,A3:A4,A6)",  # several references
        "E10": "=_xlfn.AGGREGATE(9,,A1,A3)",  # options left out: 0
        "E11": "=_xlfn.AGGREGATE(14,3,(A1:A3,A6:A10),1)",  # a union of areas in the array form
    }
    for ref, formula in more.items():
        sheet[ref] = formula
    filtered = book.create_sheet("Filtered")  # rows 3 and 5 filtered out by the sheet's AutoFilter
    filtered["A1"] = "n"
    for row, value in enumerate([1, 2, 4, 8, 16], start=2):
        filtered.cell(row, 1, value)
    filtered.auto_filter.ref = "A1:A6"
    filtered.auto_filter.add_filter_column(0, ["1", "4", "16"])
    for row in (3, 5):
        filtered.row_dimensions[row].hidden = True
    filtered["B1"] = "=_xlfn.AGGREGATE(9,0,A2:A6)"  # a filtered row is a row, kept by option 0
    filtered["B2"] = "=_xlfn.AGGREGATE(9,5,A2:A6)"  # and left out as a hidden row
    filtered["B3"] = "=_xlfn.AGGREGATE(14,1,A2:A6,2)"
    book.save(path)
    return path


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sheet]:
    path = _book(tmp_path_factory.mktemp("aggregate") / "aggregate.xlsx", COLUMN)
    return {sheet.name: sheet for sheet in evaluate_workbook(str(path)).grid.order}


@pytest.mark.parametrize("function_num", range(1, 20))
def test_each_function_under_each_option(sheets: dict[str, Sheet], function_num: int) -> None:
    got = [sheets["Data"].get((function_num - 1) * 8 + option + 1, 3) for option in range(8)]
    for option, value in enumerate(got):
        assert_excel_value(value, _expected(function_num, option), rel=1e-12)


@pytest.mark.parametrize(("cell", "expected"), [
    ("E1", 10.0), ("E2", 10.0), ("E3", 9.0), ("E4", "#VALUE!"), ("E5", "#VALUE!"), ("E6", "#VALUE!"),
    ("E7", "#VALUE!"), ("E8", "#DIV/0!"), ("E9", 49.0), ("E10", 40.0), ("E11", 30.0),
])
def test_array_form_and_argument_errors(sheets: dict[str, Sheet], cell: str, expected: Any) -> None:
    row, col = openpyxl.utils.cell.coordinate_to_tuple(cell)
    assert_excel_value(sheets["Data"].get(row, col), expected)


def test_rows_a_filter_hides_are_hidden_rows(sheets: dict[str, Sheet]) -> None:
    assert [sheets["Filtered"].get(row, 2) for row in (1, 2, 3)] == [31.0, 21.0, 4.0]


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_the_same_152_cells_as_libreoffice(tmp_path: Path) -> None:
    """LibreOffice reads a logical value in a cell as a number, Excel does not: the column given to
    both holds a text there instead."""
    from xlrating.engine.libreoffice import convert, make_profile

    column = [value if value is not True else "y" for value in COLUMN]
    path = _book(tmp_path / "aggregate.xlsx", column)
    ours = evaluate_workbook(str(path)).grid.sheet("Data")
    assert ours is not None
    theirs = openpyxl.load_workbook(convert(path, tmp_path / "lo", make_profile(tmp_path / "profile")),
                                    data_only=True)["Data"]
    for row in range(1, 153):
        expected = theirs.cell(row, 3).value
        assert_excel_value(ours.get(row, 3), expected if isinstance(expected, str) else float(expected),
                           rel=1e-12)


def test_sumproduct_of_single_cells_refuses_text(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: SUMPRODUCT(G1330:G1330,I1330:I1330) over the text "4"
    # and 2 is #VALUE!; SUMPRODUCT(3,B10,C9) multiplies single numbers; in longer arrays text counts 0
    from function_books import recalculated

    rows: list[list[Any]] = [["4", 2, 5], ["x", 3, 1], [1, 4, 2]]
    formulas = {f"E{row}": f"=SUMPRODUCT(A{row}:A{row},B{row}:B{row})" for row in range(1, 4)}  # filled down
    formulas.update({"F1": "=SUMPRODUCT(A1:A3,B1:B3)", "F2": "=SUMPRODUCT(3,B2,C1)", "F3": "=SUMPRODUCT(A1,B1)"})
    sheet = recalculated(tmp_path, rows, formulas)
    for cell, expected in (((1, 5), "#VALUE!"), ((2, 5), "#VALUE!"), ((3, 5), 4.0), ((1, 6), 4.0), ((2, 6), 45.0),
                           ((3, 6), "#VALUE!")):
        assert_excel_value(sheet.get(*cell), expected)
