"""LINEST, TREND, LOGEST, GROWTH as Microsoft's pages describe them, directly and in a workbook."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError

from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.evaluate.compiler import compile_formula
from xlrating.functions import ExcelError

# Microsoft's LINEST example 4: office buildings (floor space, offices, entrances, age) -> value
OFFICES = ("{142000;144000;151000;150000;139000;169000;126000;142900;163000;169000;149000}",
           ("{2310,2,2,20;2333,2,2,12;2356,3,1.5,33;2379,3,2,43;2402,2,3,53;2425,4,2,23;"
            "2448,2,1.5,99;2471,2,2,34;2494,3,3,23;2517,4,4,55;2540,2,3,22}"))


def _rows(formula: str) -> list[list[object]]:
    array = np.atleast_2d(np.asarray(compile_formula(REGISTRY, formula)(), dtype=object))
    return [[f"error {v}" if isinstance(v, XlError) else v for v in row] for row in array]


def test_microsofts_simple_example() -> None:
    assert _rows("=LINEST({1;9;5;7},{0;4;2;3})") == [[pytest.approx(2), pytest.approx(1)]]


def test_microsofts_multiple_regression_with_statistics() -> None:
    rows = _rows(f"=LINEST({OFFICES[0]},{OFFICES[1]},TRUE,TRUE)")
    assert rows[0] == pytest.approx([-234.2371645, 2553.21066, 12529.76817, 27.64138737, 52317.83051])
    assert rows[1] == pytest.approx([13.26801148, 530.6691519, 400.0668382, 5.429374042, 12237.3616])
    assert rows[2][:2] == pytest.approx([0.996747993, 970.5784629])
    assert rows[3][:2] == pytest.approx([459.7536742, 6])
    assert rows[4][:2] == pytest.approx([1732393319, 5652135.316])
    assert rows[2][2:] == ["error #N/A"] * 3
    # TREND at the first building's x values
    fitted = _rows(f"=TREND({OFFICES[0]},{OFFICES[1]},{{2310,2,2,20}})")[0][0]
    assert fitted == pytest.approx(2310 * 27.64138737 + 2 * 12529.76817 + 2 * 2553.21066 - 20 * 234.2371645
                                   + 52317.83051)


@pytest.mark.parametrize(("formula", "expected"), [
    # a constant x is collinear with the intercept: removed, slope 0, intercept the mean of y
    ("=LINEST({1,3,6,9,12},{1,1,1,1,1})", [[0.0, pytest.approx(6.2)]]),
    ("=TREND({1,3,6,9,12},{1,1,1,1,1},{2.5,3.5})", [[pytest.approx(6.2), pytest.approx(6.2)]]),
    # one row (or column) of known_x's per variable, by y's orientation
    ("=LINEST({1,2,4,4},{1,2,3,4;1,4,9,16})", [[pytest.approx(-0.25), pytest.approx(2.35), pytest.approx(-1.25)]]),
    # an omitted const is TRUE; FALSE forces b = 0
    ("=LINEST({1,2,4},{1,2,3},,FALSE)", [[pytest.approx(1.5), pytest.approx(-2 / 3)]]),
    ("=LINEST({1,2,4},{1,2,3},FALSE)", [[pytest.approx(17 / 14), 0.0]]),
    ("=LINEST({2,4,6})", [[pytest.approx(2), pytest.approx(0, abs=1e-12)]]),  # known_x's {1,2,3}
    ("=TREND({2,4,6},,{4;5})", [[pytest.approx(8)], [pytest.approx(10)]]),
    # shapes: #REF!; values that are not numbers: #VALUE!
    ("=TREND({1,2,3},{1,2,3;4,5,7},2.5)", [["error #REF!"]]),
    ("=LINEST({1,2;3,4},{1,2;3,4})", [["error #REF!"]]),
    ("=LINEST({1,2,3},{1,2})", [["error #REF!"]]),
    ('=LINEST({1,2,"a"},{1,2,3})', [["error #VALUE!"]]),
    ("=LINEST({1,2,3},{1,2,3},1/0)", [["error #VALUE!"]]),  # an error for const: #VALUE!, as Excel saved it
    ("=LOGEST({2,4,8},{1,2,3})", [[pytest.approx(2), pytest.approx(1)]]),
    ("=GROWTH({2,4,8},{1,2,3},4)", [[pytest.approx(16)]]),
    ("=LOGEST({2,0,8})", [["error #NUM!"]]),
])
def test_rules(formula: str, expected: list[list[object]]) -> None:
    assert _rows(formula) == expected


def test_statistics_without_constant() -> None:
    rows = _rows("=LINEST({1,2,4},{1,2,3},FALSE,TRUE)")
    assert rows[0] == [pytest.approx(17 / 14), 0.0]
    assert rows[1][1] == "error #N/A"
    assert rows[3][1] == 2  # df = n - k
    assert rows[4][0] + rows[4][1] == pytest.approx(21)  # ssreg + ssresid = sum of y squared


def test_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for col, (y, x) in enumerate(zip([1, 3, 6, 9, 12], [1, 2, 3, 4, 5]), start=1):
        ws.cell(1, col, y)
        ws.cell(2, col, x)
        ws.cell(3, col, 1)
    ws["A5"] = "=LINEST(A1:E1,A2:E2)"  # spills m, b
    ws["A6"] = "=INDEX(LINEST(A1:E1,A2:E2),1,2)"
    ws["A7"] = "=LINEST(A1:E1,A3:E3)"
    ws["A8"] = "=TREND(A1:E1,A2:E3,2.5)"
    ws["A9"] = "=INDEX(LINEST(A1:E1,A2:E2,,TRUE),3,1)"
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet.get(5, 1) == pytest.approx(2.8)
    assert sheet.get(5, 2) == pytest.approx(-2.2)
    assert sheet.get(6, 1) == pytest.approx(-2.2)
    assert sheet.get(7, 1) == 0  # x constant: removed
    assert sheet.get(7, 2) == pytest.approx(6.2)
    assert sheet.get(8, 1) == ExcelError("#REF!")
    assert sheet.get(9, 1) == pytest.approx(78.4 / 78.8)
