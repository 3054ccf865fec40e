"""The engineering functions the engine computes itself, against Microsoft's documentation and the values
Excel saved in xlcalculator's BASES test workbook (the base conversions), directly and in a workbook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError
from function_books import assert_excel_value

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.engineering import FUNCTIONS
from xlrating.engine.read.grid import NotComputed
from xlrating.functions import ExcelError

NUM, VALUE, NA = ExcelError("#NUM!"), ExcelError("#VALUE!"), ExcelError("#N/A")


def _call(name: str, *args: Any) -> Any:
    """What the implementation of ``name`` returns for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS[name](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def _cell(value: float) -> np.ndarray:
    """A number as ``formulas`` passes a reference to a cell holding it."""
    return np.array([[value]], dtype=object)


def test_negative_numbers_are_ten_digit_twos_complement_and_ignore_places() -> None:
    assert _call("DEC2BIN", -512.0) == "1000000000"
    assert _call("DEC2BIN", -100.0) == "1110011100"
    assert _call("DEC2HEX", -54.0) == "FFFFFFFFCA"
    assert _call("DEC2OCT", -100.0) == "7777777634"
    # "If number is negative, places is ignored": formulas said #NUM! when places was given
    assert _call("DEC2BIN", -1.0, 3.0) == "1111111111"
    assert _call("DEC2HEX", -25.0, 4.0) == "FFFFFFFFE7"
    assert _call("BIN2OCT", "1111111111", 3.0) == "7777777777"
    assert _call("HEX2BIN", "FFFFFFFE00", 2.0) == "1000000000"
    assert _call("HEX2OCT", "FFE0000000") == "4000000000"  # -2^29, the least 10 octal digits hold
    assert _call("HEX2OCT", "20000000") == NUM  # 2^29: one more than the most
    # ... but it must still be 1 to 10
    assert _call("DEC2BIN", -1.0, 0.0) == NUM
    assert _call("DEC2BIN", -1.0, 11.0) == NUM


def test_places_are_truncated_and_must_be_one_to_ten() -> None:
    assert _call("DEC2BIN", 9.0, 4.0) == "1001"
    assert _call("DEC2BIN", 9.0, 4.9) == "1001"
    assert _call("DEC2BIN", 9.0, 2.0) == NUM  # fewer places than digits
    assert _call("DEC2BIN", 1.0, 11.0) == NUM  # formulas padded to "00000000001"
    assert _call("DEC2HEX", 10.0, 0.0) == NUM
    assert _call("DEC2HEX", 10.0, 10.0) == "000000000A"
    assert _call("BIN2HEX", 110.0, "5") == "00006"  # text places, as Excel saved it
    assert _call("DEC2BIN", 9.0, "four") == VALUE
    assert _call("DEC2BIN", "E", 0.0) == NUM  # places checked before the number (Excel's order)
    assert _call("DEC2BIN", "E", 1.0) == VALUE


def test_places_from_a_cell_are_read_like_typed_ones() -> None:
    # formulas gave #VALUE! for every places argument coming from a reference
    assert _call("DEC2BIN", _cell(10.0), _cell(4.0)) == "1010"
    assert _call("HEX2OCT", _cell(10.0), _cell(3.0)) == "020"
    assert _call("OCT2BIN", _cell(10.0), _cell(3.0)) == NUM


def test_only_digits_of_the_base_are_read() -> None:
    assert _call("HEX2DEC", "FFFFFFFFFF") == -1.0
    assert _call("HEX2DEC", "a5") == 165.0
    assert _call("BIN2DEC", 1111111111.0) == -1.0
    assert _call("OCT2DEC", "7777777533") == -165.0
    assert _call("HEX2DEC", "FFFFFFFFFFF") == NUM  # more than 10 characters
    assert _call("BIN2DEC", 2.0) == NUM
    assert _call("BIN2DEC", -1.0) == NUM
    # formulas read these with Python's int(): -10, 31, 31, 3
    assert _call("HEX2DEC", "-A") == NUM
    assert _call("HEX2DEC", "0x1F") == NUM
    assert _call("HEX2DEC", " 1F") == NUM
    assert _call("BIN2DEC", "1_1") == NUM


def test_empty_text_is_zero_for_the_digits_but_not_for_dec2() -> None:
    assert _call("BIN2DEC", "") == 0.0
    assert _call("HEX2BIN", "") == "0"
    assert _call("DEC2BIN", "") == VALUE  # formulas: "0"
    assert _call("DEC2BIN", "9") == "1001"
    assert _call("DEC2BIN", True) == VALUE


def test_bit_functions_take_numbers_up_to_2_to_the_48_minus_1() -> None:
    assert _call("BITAND", 13.0, 25.0) == 9.0
    assert _call("BITOR", 23.0, 10.0) == 31.0
    assert _call("BITXOR", 5.0, 3.0) == 6.0
    assert _call("BITAND", 2.0 ** 48 - 1, 1.0) == 1.0  # formulas: #NUM!
    assert _call("BITAND", 2.0 ** 48, 1.0) == NUM
    assert _call("BITAND", 1.5, 1.0) == NUM
    assert _call("BITRSHIFT", 13.0, 2.0) == 3.0
    assert _call("BITLSHIFT", 4.0, 2.0) == 16.0
    assert _call("BITLSHIFT", 1.0, 48.0) == 2.0 ** 48  # zeros added on the right; formulas cut it to 0
    assert _call("BITLSHIFT", 4.0, -2.0) == 1.0
    assert _call("BITLSHIFT", 1.0, 54.0) == NUM


def test_delta_needs_equal_numbers() -> None:
    assert _call("DELTA", 5.0, 4.0) == 0.0
    assert _call("DELTA", 5.0, 5.0) == 1.0
    assert _call("DELTA", 0.5) == 0.0
    assert _call("DELTA", 1.0, 1.000001) == 0.0  # formulas' numpy.isclose said 1
    assert _call("DELTA", 0.00000001) == 0.0
    assert _call("DELTA", "a") == VALUE


def test_convert_binary_prefixes_and_exact_factors() -> None:
    assert _call("CONVERT", 1.0, "Gibyte", "byte") == 2.0 ** 30  # formulas: 28 (2 XOR 30)
    assert _call("CONVERT", 1.0, "kibit", "bit") == 1024.0
    assert _call("CONVERT", 68.0, "F", "C") == 20.0  # Microsoft's example; formulas 20.000000000000057
    assert _call("CONVERT", 100.0, "C", "F") == 212.0
    assert _call("CONVERT", 6.0, "ft", "in") == 72.0
    assert _call("CONVERT", 0.0, "K", "F") == -459.67
    assert _call("CONVERT", 1.0, "lbm", "kg") == pytest.approx(0.45359237, abs=1e-15)
    assert _call("CONVERT", 2.5, "ft", "sec") == NA
    assert _call("CONVERT", 1.0, "M", "km") == NA  # unit names are case-sensitive
    assert _call("CONVERT", 1e308, "km", "m") == NUM


def test_a_workbook_with_numbers_and_places_in_cells(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([10, 4, -25, "FFFFFFFFFF", "-A", 110, "5"])
    cells = {"A2": "=DEC2BIN(A1,B1)", "B2": "=DEC2OCT(C1,B1)", "C2": "=HEX2DEC(D1)", "D2": "=HEX2DEC(E1)",
             "E2": "=BIN2HEX(F1,G1)", "F2": "=DEC2BIN(A1,11)", "G2": "=_xlfn.BITAND(2^48-1,1)",
             "H2": '=CONVERT(68,"F","C")', "I2": '=CONVERT(1,"Gibyte","byte")', "J2": "=DELTA(1,1.000001)"}
    for ref, formula in cells.items():
        ws[ref] = formula
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    got = [sheet.get(2, col) for col in range(1, 11)]
    assert got == ["1010", "7777777747", -1.0, NUM, "00006", NUM, 1.0, 20.0, 2.0 ** 30, 0.0]


def test_the_decimal_number_is_truncated_before_its_range_is_checked() -> None:
    # as in the workbooks Excel saved: 511.5 is 511 and -512.5 is -512, both in DEC2BIN's range
    assert _call("DEC2BIN", 511.5) == "111111111"
    assert _call("DEC2BIN", -512.5) == "1000000000"
    assert _call("DEC2OCT", 536870911.9) == "3777777777"
    assert _call("DEC2BIN", 512.0) == NUM


# BESSELI and BESSELK: the values Excel saved in IronCalc's ENGINEERING_BESSEL workbook and formulas'
# test.xlsx (Abramowitz and Stegun's approximations, not the exact functions: I0(1) is 1.26606587775)
@pytest.mark.parametrize(("formula", "expected"), [
    ("BESSELI(1,0)", 1.2660658480342601), ("BESSELI(0.2,0)", 1.0100250221205638),
    ("BESSELI(0.2,1)", 0.10050083385903322), ("BESSELI(0.2,7)", 1.9866085100212153e-11),
    ("BESSELI(2.9,0)", 4.502748672676067), ("BESSELI(2.9,10)", 1.3686046214390991e-05),
    ("BESSELI(-0.5,1)", -0.25789430328903556), ("BESSELI(-0.5,7)", -1.2205089484117688e-08),
    ("BESSELI(-32,0)", 5590908218797.506), ("BESSELI(-32,7)", -2576524402069.303),
    ("BESSELI(-32,10)", 1158284935385.1838), ("BESSELI(0,0)", 1.0), ("BESSELI(0,7)", 0.0),
    ("BESSELK(0.2,0)", 1.752703846153972), ("BESSELK(0.2,1)", 4.775972548422616),
    ("BESSELK(0.2,7)", 3594005998.103765), ("BESSELK(2.9,0)", 0.03900623482074935),
    ("BESSELK(2.9,1)", 0.04528642314892744), ("BESSELK(2.9,10)", 3507.65358228027),
    ("BESSELK(0.2,7.9)", 3594005998.103765),  # the order truncated
    ("BESSELI(0.2,-1)", "#NUM!"), ("BESSELK(0,0)", "#NUM!"), ("BESSELK(-0.5,1)", "#NUM!"),
    ("BESSELI(1000,0)", "#NUM!"), ("BESSELI(TRUE,0)", "#VALUE!"), ('BESSELK("a",0)', "#VALUE!"),
])
def test_besseli_and_besselk_as_excel_computes_them(tmp_path: Path, formula: str, expected: Any) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=" + formula
    wb.save(tmp_path / "bessel.xlsx")
    got = evaluate_workbook(str(tmp_path / "bessel.xlsx")).grid.sheet("Sheet").get(1, 1)
    assert_excel_value(got, expected, rel=1e-12)


# BESSELJ and BESSELY: the values Excel saved in IronCalc's ENGINEERING_BESSEL workbook and formulas'
# test.xlsx (Hart's rational approximations of J0, J1, Y0, Y1, not the exact functions: J0(1) is
# 0.7651976865579666, J2(2.3) 0.41391459173206196)
@pytest.mark.parametrize(("formula", "expected"), [
    ("BESSELJ(0,0)", 1.00000000283141), ("BESSELJ(-1,0)", 0.7651976837548592),
    ("BESSELJ(2.3,2)", 0.41391458970875217), ("BESSELJ(0.2,7)", 1.9816482028036027e-11),
    ("BESSELJ(0.2,10)", 2.7532277551302922e-17), ("BESSELJ(-0.5,7)", -1.2015867327763022e-08),
    ("BESSELJ(0.2,7.9)", 1.9816482028036027e-11), ("BESSELJ(0,7)", 0.0),
    ("BESSELY(2.3,2)", -0.4726168566767928), ("BESSELY(0.2,0)", -1.0811053301048033),
    ("BESSELY(0.2,10)", -1156367142008513.5), ("BESSELY(10,1)", 0.24901542405799407),
    ("BESSELY(10000000,2.3)", -0.00023689922733673244),
    ("BESSELJ(0.2,-1)", "#NUM!"), ("BESSELY(0,0)", "#NUM!"), ("BESSELY(-1,1)", "#NUM!"),
    ("BESSELJ(TRUE,0)", "#VALUE!"), ('BESSELY("a",0)', "#VALUE!"),
])
def test_besselj_and_bessely_as_excel_computes_them(tmp_path: Path, formula: str, expected: Any) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=" + formula
    wb.save(tmp_path / "bessel.xlsx")
    got = evaluate_workbook(str(tmp_path / "bessel.xlsx")).grid.sheet("Sheet").get(1, 1)
    assert_excel_value(got, expected, rel=1e-12)


def test_besselj_of_large_x_is_a_named_warning_not_a_value(tmp_path: Path) -> None:
    # Excel's BESSELJ(10, 1) is 0.04347224965225415 (IronCalc's ENGINEERING_BESSEL), J1(10) is
    # 0.04347274616886144: an approximation the engine does not know, so no value is made up
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=BESSELJ(10,1)"
    wb.active["A2"] = "=A1+1"
    wb.save(tmp_path / "bessel.xlsx")
    result = evaluate_workbook(str(tmp_path / "bessel.xlsx"))
    assert isinstance(result.grid.sheet("Sheet").get(1, 1), NotComputed)
    assert isinstance(result.grid.sheet("Sheet").get(2, 1), NotComputed)
    assert any(w.startswith("Sheet!A1: BESSELJ(10.0, 1)") for w in result.warnings), result.warnings
