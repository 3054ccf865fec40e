"""GROUPBY, PIVOTBY and PERCENTOF laid out and computed as Excel spilled them in formulas' test.xlsx
(its LOOKUP and EXTRA sheets): headers, totals and subtotals, sort orders, filters, PERCENTOF's
relative_to; and the forms the engine leaves as named warnings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import NotComputed, Sheet

# test.xlsx's LOOKUP!C25:K31 (headers and six rows): three row fields, three column fields, two values, a filter
DATA = [
    ["row-2", "row-1", "row-3", "col-1", "col-2", "val1", "val2", "filter"],
    ["r2", "r2-1", "r2-1-1", "b", "d", 1, 5, 1],
    ["r2", "r2-2", "r2-2-2", "b", "f", 6, 9, 0],
    ["r3", "r1-1", "r1-1-2", "b", "d", -9, 8, 1],
    ["r2", "r2-2", "r2-2-1", "b", "d", -1, 7, 1],
    ["r3", "r1-2", "r1-2-2", "a", "d", 6, 3, 1],
    ["r2", "r2-1", "r2-1-2", "a", "e", 3, -7, 1],
    ["r2", "r2-1", "r2-1-1", "a", "d", 4, 2, 1],
]


def _spilled(tmp_path: Path, formula: str, rows: list[list[Any]] = DATA) -> tuple[Sheet, Any]:
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    wb.active["K1"] = "=" + formula
    wb.save(tmp_path / "pivot.xlsx")
    result = evaluate_workbook(str(tmp_path / "pivot.xlsx"))
    sheet = result.grid.sheet("Sheet")
    assert sheet is not None
    return sheet, result


def _block(sheet: Sheet, height: int, width: int) -> list[list[Any]]:
    """The spill from K1, blanks as ""."""
    return [[sheet.get(r, c) for c in range(11, 11 + width)] for r in range(1, 1 + height)]


def test_groupby_with_headers_shown_and_subtotals(tmp_path: Path) -> None:
    # M25's form: headers shown (3), totals of depth 3; subtotal rows after each group, "Grand Total" last
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(A1:C8,F1:G8,_xleta.SUM,3,3)")
    assert _block(sheet, 13, 5) == [
        ["row-2", "row-1", "row-3", "val1", "val2"],
        ["r2", "r2-1", "r2-1-1", 5.0, 7.0],
        ["r2", "r2-1", "r2-1-2", 3.0, -7.0],
        ["r2", "r2-1", "", 8.0, 0.0],
        ["r2", "r2-2", "r2-2-1", -1.0, 7.0],
        ["r2", "r2-2", "r2-2-2", 6.0, 9.0],
        ["r2", "r2-2", "", 5.0, 16.0],
        ["r2", "", "", 13.0, 16.0],
        ["r3", "r1-1", "r1-1-2", -9.0, 8.0],
        ["r3", "r1-1", "", -9.0, 8.0],
        ["r3", "r1-2", "r1-2-2", 6.0, 3.0],
        ["r3", "r1-2", "", 6.0, 3.0],
        ["r3", "", "", -3.0, 11.0],
    ]
    assert [sheet.get(14, c) for c in range(11, 16)] == ["Grand Total", "", "", 10.0, 27.0]


def test_groupby_detects_headers_and_averages_the_total_over_all_rows(tmp_path: Path) -> None:
    # Y25's form: headers left out, detected (text above a number) and not shown; the total is the
    # AVERAGE of every value, not of the groups' averages
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(A1:A8,F1:F8,_xleta.AVERAGE)")
    assert _block(sheet, 3, 2) == [["r2", 13 / 5], ["r3", -1.5], ["Total", 10 / 7]]


def test_groupby_filter_sort_descending_and_totals_at_the_top(tmp_path: Path) -> None:
    # the filter's first row is the header row; -1: descending by the first field; -1: the total first
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(D1:D8,F1:F8,_xleta.SUM,1,-1,-1,H1:H8)")
    assert _block(sheet, 3, 2) == [["Total", 4.0], ["b", -9.0], ["a", 13.0]]


def test_groupby_sorted_by_its_values_and_percentof(tmp_path: Path) -> None:
    # sort order 2 (past the one field): by the value column; PERCENTOF: the share of all the values
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(D1:D8,F1:F8,_xleta.SUM,1,0,2)")
    assert _block(sheet, 2, 2) == [["b", -3.0], ["a", 13.0]]  # the sums ascending, not the keys
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(D1:D8,F1:F8,_xleta.PERCENTOF,1)")
    assert _block(sheet, 3, 2) == [["a", 13 / 10], ["b", -3 / 10], ["Total", 1.0]]


def test_pivotby_layout_with_totals_left_and_top_and_value_sorts(tmp_path: Path) -> None:
    # AJ92's form: totals at the top (-1) and at the left (-1), rows and columns sorted by their totals
    sheet, _ = _spilled(tmp_path, "_xlfn.PIVOTBY(A1:A8,D1:D8,F1:F8,_xleta.SUM,1,-1,2,-1,2)")
    assert _block(sheet, 4, 4) == [
        ["", "Total", "b", "a"],
        ["Total", 10.0, -3.0, 13.0],
        ["r3", -3.0, -9.0, 6.0],
        ["r2", 13.0, 6.0, 7.0],
    ]


def test_pivotby_two_column_fields_descending_inner_level(tmp_path: Path) -> None:
    # AJ101's form: col_sort_order {1,-2}; the "Total" column labelled on the first header row only
    sheet, _ = _spilled(tmp_path, "_xlfn.PIVOTBY(A1:A8,D1:E8,F1:F8,_xleta.SUM,1,1,1,1,{1,-2})")
    assert _block(sheet, 5, 6) == [
        ["", "a", "a", "b", "b", "Total"],
        ["", "e", "d", "f", "d", ""],
        ["r2", 3.0, 4.0, 6.0, 0.0, 13.0],
        ["r3", "", 6.0, "", -9.0, -3.0],
        ["Total", 3.0, 10.0, 6.0, -9.0, 10.0],
    ]


@pytest.mark.parametrize(("relative_to", "r2_row"), [
    (0, [7 / 13, 6 / -3, 13 / 10]),  # the column's total
    (1, [7 / 13, 6 / 13, 1.0]),  # the row's total
    (2, [7 / 10, 6 / 10, 13 / 10]),  # the grand total
])
def test_pivotby_percentof_relative_to(tmp_path: Path, relative_to: int, r2_row: list[float]) -> None:
    sheet, _ = _spilled(tmp_path, f"_xlfn.PIVOTBY(A1:A8,D1:D8,F1:F8,_xleta.PERCENTOF,1,1,1,1,1,,{relative_to})")
    assert [sheet.get(1, c) for c in range(11, 15)] == ["", "a", "b", "Total"]
    assert sheet.get(2, 11) == "r2"
    assert [sheet.get(2, c) for c in range(12, 15)] == pytest.approx(r2_row, rel=1e-15)


def test_pivotby_headers_shown_with_two_values(tmp_path: Path) -> None:
    # BD95's form: the column fields' names joined above, then the keys, then the row fields' and
    # the values' names
    rows = [["r1", "c1", "v1", "v2"], [2, 1, 1, 3], [2, 2, 2, 5], [3, 2, 3, 2]]
    sheet, _ = _spilled(tmp_path, "_xlfn.PIVOTBY(A1:A4,B1:B4,C1:D4,_xleta.SUM,3,1,1,0)", rows)
    assert _block(sheet, 5, 5) == [
        ["", "c1", "", "", ""],
        ["", 1.0, 1.0, 2.0, 2.0],
        ["r1", "v1", "v2", "v1", "v2"],
        [2.0, 1.0, 3.0, 2.0, 5.0],
        [3.0, "", "", 3.0, 2.0],
    ]
    assert [sheet.get(6, c) for c in range(11, 16)] == ["Total", 1.0, 3.0, 5.0, 7.0]


def test_a_lambda_aggregates_each_group(tmp_path: Path) -> None:
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(A2:A8,F2:F8,_xlfn.LAMBDA(_xlpm.x,MAX(_xlpm.x)-MIN(_xlpm.x)),0,0)")
    assert _block(sheet, 2, 2) == [["r2", 7.0], ["r3", 15.0]]


def test_percentof_alone(tmp_path: Path) -> None:
    # formulas' test.xlsx, MATH & TRIG row 49, as Excel saved it: text and TRUE left out, an error #NUM!
    rows = [[0, 2, 2.3, -0.2, -2, None, "ciao", True, "=1/0"]]
    sheet, _ = _spilled(tmp_path, "_xlfn.PERCENTOF(A1:C1,B1:E1)", rows)
    assert sheet.get(1, 11) == pytest.approx(4.3 / 2.1, rel=1e-15)
    sheet, _ = _spilled(tmp_path, "_xlfn.PERCENTOF(D1:F1,E1:H1)", rows)
    assert sheet.get(1, 11) == pytest.approx(1.1, rel=1e-15)
    sheet, _ = _spilled(tmp_path, "_xlfn.PERCENTOF(A1:C1,G1:I1)", rows)
    assert getattr(sheet.get(1, 11), "code", None) == "#NUM!"


@pytest.mark.parametrize("formula", [
    "_xlfn.GROUPBY(A1:A8,F1:F8,_xleta.SUM,2)",  # generated headers
    "_xlfn.GROUPBY(A1:A8,F1:F8,_xleta.SUM,1,1,1,G1:H8)",  # a filter of two columns
    "_xlfn.GROUPBY(A1:B8,F1:F8,_xleta.SUM,1,2,1,,1)",  # subtotals of a table
    "_xlfn.PIVOTBY(A1:A8,D1:E8,F1:F8,_xleta.SUM,1,1,1,2)",  # column subtotals
])
def test_forms_not_computed_are_named_warnings(tmp_path: Path, formula: str) -> None:
    sheet, result = _spilled(tmp_path, formula)
    assert isinstance(sheet.get(1, 11), NotComputed)
    assert any(w.startswith(("Sheet!K1: GROUPBY", "Sheet!K1: PIVOTBY")) for w in result.warnings)


def test_nothing_left_after_the_filter_is_calc(tmp_path: Path) -> None:
    sheet, _ = _spilled(tmp_path, "_xlfn.GROUPBY(A2:A8,F2:F8,_xleta.SUM,0,1,1,F2:F8>100)")
    got = sheet.get(1, 11)
    assert getattr(got, "code", got) == "#CALC!"
