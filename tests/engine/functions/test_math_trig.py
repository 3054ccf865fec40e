"""The math functions the engine computes itself: Microsoft's examples and limits, and extreme arguments
that must give a number or Excel's error at once, never run away, never inf or nan."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.math_trig import FUNCTIONS
from xlrating.functions import ExcelError

NUM, VALUE = ExcelError("#NUM!"), ExcelError("#VALUE!")


def _call(name: str, *args: Any) -> Any:
    """What the implementation of ``name`` returns for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS[name](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_trunc_truncates_the_number_as_excel_shows_it_whatever_the_digits() -> None:
    assert _call("TRUNC", 8.9) == 8.0
    assert _call("TRUNC", -8.9) == -8.0
    assert _call("TRUNC", math.pi, 3.0) == 3.141
    assert _call("TRUNC", 1.23456789, 10.0) == 1.23456789  # formulas: 1.2345678899
    assert _call("TRUNC", 1.5, 400.0) == 1.5  # formulas: #VALUE!
    assert _call("TRUNC", 1e300, -300.0) == 1e300  # formulas: 9.999999999999999e+299
    assert _call("TRUNC", 1234.5, -1e100) == 0.0


def test_int_of_numbers_beyond_2_to_the_52() -> None:
    assert _call("INT", 8.9) == 8.0
    assert _call("INT", -8.9) == -9.0
    assert _call("INT", 1e300) == 1e300  # formulas: #VALUE!
    assert _call("INT", -1e300) == -1e300


def test_mround_rounds_half_away_from_zero() -> None:
    assert _call("MROUND", 10.0, 3.0) == 9.0
    assert _call("MROUND", -10.0, -3.0) == -9.0
    assert _call("MROUND", 1.3, 0.2) == 1.4  # formulas rounded half to even: 1.2
    assert _call("MROUND", 5.0, -2.0) == NUM
    # Microsoft's "known limitation": the halfway test is on the quotient as a double
    assert _call("MROUND", 6.05, 0.1) == 6.0
    assert _call("MROUND", 7.05, 0.1) == 7.1  # formulas: 7.0
    assert _call("MROUND", 1e100, 3.0) == 1e100
    assert _call("MROUND", 1e300, 1e-300) == NUM


def test_ceiling_and_floor_overflowing_the_quotient_are_num() -> None:
    assert _call("CEILING", 2.5, 1.0) == 3.0
    assert _call("CEILING", -2.5, 2.0) == -2.0
    assert _call("CEILING", 0.234, 0.01) == 0.24
    assert _call("CEILING", 2.0, -2.0) == NUM
    assert _call("FLOOR", -2.5, 2.0) == -4.0
    assert _call("FLOOR", 1.58, 0.1) == 1.5
    # formulas: #VALUE! (math.ceil of an infinite quotient)
    assert _call("CEILING", 1e300, 1e-300) == NUM
    assert _call("FLOOR", 1e300, 1e-300) == NUM
    assert _call("CEILING.MATH", 1e300, 1e-300) == NUM
    assert _call("FLOOR.PRECISE", -1e300, 1e-300) == NUM


def test_ceiling_and_floor_math_and_precise_keep_the_sign_of_a_negative_number() -> None:
    # Microsoft's examples; formulas dropped the sign when significance was omitted (5, 3, 6, 3)
    assert _call("CEILING.PRECISE", -4.3) == -4.0
    assert _call("ISO.CEILING", -4.3) == -4.0
    assert _call("FLOOR.PRECISE", -3.2) == -4.0
    assert _call("CEILING.MATH", -5.5) == -5.0
    assert _call("FLOOR.MATH", -3.2) == -4.0
    assert _call("CEILING.PRECISE", 4.3, -2.0) == 6.0
    assert _call("CEILING.PRECISE", -4.3, -2.0) == -4.0
    assert _call("FLOOR.PRECISE", 3.2, -1.0) == 3.0
    assert _call("CEILING.MATH", -8.1, 2.0) == -8.0
    assert _call("CEILING.MATH", -5.5, 2.0, -1.0) == -6.0
    assert _call("FLOOR.MATH", -8.1, 2.0) == -10.0
    assert _call("FLOOR.MATH", -5.5, 2.0, -1.0) == -4.0


# The values below are those Excel cached in IronCalc's calc_tests MATH_AND_TRIGONOMETRY_FLOOR_CEILING.xlsx.

def test_ceiling_and_floor_round_the_quotient_at_15_digits_and_keep_the_double_product() -> None:
    # 7.1 / 0.1 is the double 70.99999999999999: Excel takes it as 71 and answers 71 * 0.1, unrounded
    assert _call("FLOOR", 7.1, 0.1) == 7.1000000000000005  # was 7.0
    assert _call("FLOOR", -7.1, -0.1) == -7.1000000000000005
    assert _call("FLOOR.PRECISE", 7.1, 0.1) == 7.1000000000000005
    assert _call("FLOOR.MATH", 7.1, -0.1) == 7.1000000000000005
    assert _call("FLOOR", 7.9, 1e-12) == 7.8999999999999995
    # the quotient -7900000000000.001 is -7900000000000 at 15 digits: not one multiple further down
    assert _call("FLOOR", -7.9, 1e-12) == -7.8999999999999995  # not -7.900000000001
    assert _call("FLOOR", -7.9, 0.21) == -7.9799999999999995
    # a quotient beyond 2^52 is still multiplied back: 7.1E+307 * 1E-307
    assert _call("CEILING", 7.1, 1e-307) == 7.099999999999999
    assert _call("CEILING.MATH", -7.9, 1e-307) == -7.899999999999999
    assert _call("CEILING", 10.0, 0.21) == 10.08
    assert _call("FLOOR", 10.0, math.pi) == 9.42477796076938


def test_floor_of_zero_is_zero_even_with_a_zero_significance() -> None:
    assert _call("FLOOR", 0.0, 0.0) == 0.0  # was #DIV/0!
    assert _call("FLOOR", False, 0.0) == 0.0
    assert _call("FLOOR", "0", "0") == 0.0
    assert _call("FLOOR", 10.0, 0.0) == ExcelError("#DIV/0!")
    assert _call("CEILING", 10.0, 0.0) == 0.0


def test_ceiling_and_floor_read_text_as_excel_does() -> None:
    assert _call("FLOOR", 10.0, " 10 ") == 10.0
    assert _call("FLOOR", 10.0, "7.0e0") == 7.0
    assert _call("FLOOR", "8", 1.0) == 8.0
    assert _call("CEILING", 10.0, "2024-01-10") == 45301.0
    # formulas' date reader took these as dates (8 January of this year, 10 January 2024)
    assert _call("FLOOR", "--8", 1.0) == VALUE
    assert _call("FLOOR", 10.0, " 2024-01-10 ") == VALUE
    assert _call("CEILING.MATH", "@", 1.0) == VALUE
    assert _call("FLOOR.MATH", 10.0, 1.0, "one") == VALUE


def test_ceiling_and_floor_answer_the_first_bad_argument() -> None:
    # text that is no number in the first argument is #VALUE! before the second argument's error
    div0 = XlError("#DIV/0!")
    assert _call("FLOOR", "eight", div0) == VALUE  # was #DIV/0!
    assert _call("CEILING.PRECISE", "", XlError("#N/A")) == VALUE
    assert _call("FLOOR", div0, "eight") == ExcelError("#DIV/0!")
    assert _call("ISO.CEILING", 10.0, div0) == ExcelError("#DIV/0!")


def test_ceiling_and_floor_in_a_workbook_read_empty_cells_and_text_cells(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([None, '=""', "=1/0", "--8", 7.1, 0.1])
    ws.append(["=FLOOR(A1,0)", "=FLOOR(B1,C1)", "=CEILING(A1,C1)", "=FLOOR(D1,1)", "=FLOOR(E1,F1)",
               "=_xlfn.CEILING.MATH(A1)"])
    wb.save(tmp_path / "floor.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "floor.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(2, col) for col in range(1, 7)] == [
        0.0, VALUE, ExcelError("#DIV/0!"), VALUE, 7.1000000000000005, 0.0]


def test_even_and_odd_of_extreme_numbers() -> None:
    assert _call("EVEN", 1.5) == 2.0
    assert _call("EVEN", -1.0) == -2.0
    assert _call("ODD", 2.0) == 3.0
    assert _call("ODD", 0.0) == 1.0
    assert _call("EVEN", 1e308) == 1e308  # formulas: #VALUE!
    assert _call("ODD", -1e308) == -1e308


def test_factorials_beyond_the_doubles_are_num() -> None:
    assert _call("FACT", 5.0) == 120.0
    assert _call("FACT", 1.9) == 1.0
    assert _call("FACT", -1.0) == NUM
    assert _call("FACT", 170.0) == pytest.approx(7.257415615307999e306, rel=1e-15)  # formulas: #VALUE!
    assert _call("FACT", 171.0) == NUM
    assert _call("FACT", 1e100) == NUM
    assert _call("FACTDOUBLE", 6.0) == 48.0
    assert _call("FACTDOUBLE", 7.0) == 105.0
    assert _call("FACTDOUBLE", 40.0) == pytest.approx(2.5510826561258285e24, rel=1e-15)  # formulas: int64 wrapped
    assert _call("FACTDOUBLE", 300.0) == pytest.approx(8.154414069380594e307, rel=1e-15)
    assert _call("FACTDOUBLE", 400.0) == NUM  # formulas: 0
    assert _call("FACTDOUBLE", 1e9) == NUM


def test_base_writes_numbers_in_radix_2_to_36() -> None:
    assert _call("BASE", 7.0, 2.0) == "111"
    assert _call("BASE", 100.0, 16.0) == "64"
    assert _call("BASE", 15.0, 2.0, 10.0) == "0000001111"
    assert _call("BASE", 2.0 ** 53 - 1, 36.0) == "2GOSA7PA2GV"
    assert _call("BASE", 2.0 ** 53, 2.0) == NUM
    assert _call("BASE", -1.0, 2.0) == NUM
    assert _call("BASE", 7.0, 37.0) == NUM
    assert _call("BASE", 7.0, 2.0, 256.0) == NUM
    assert _call("BASE", "seven", 2.0) == VALUE


def test_decimal_reads_only_digits_of_the_radix() -> None:
    assert _call("DECIMAL", "FF", 16.0) == 255.0
    assert _call("DECIMAL", 111.0, 2.0) == 7.0  # a number from a cell; formulas read "111.0": #NUM!
    assert _call("DECIMAL", "zap", 36.0) == 45745.0
    # formulas read these with Python's int(): 31, 10, -3, 3
    assert _call("DECIMAL", "0x1F", 16.0) == NUM
    assert _call("DECIMAL", "10", 0.0) == NUM
    assert _call("DECIMAL", "-11", 2.0) == NUM
    assert _call("DECIMAL", " 11", 2.0) == NUM
    assert _call("DECIMAL", "Z" * 255, 36.0) == NUM  # beyond the doubles
    assert _call("DECIMAL", "1" * 256, 2.0) == NUM  # longer than 255 characters
    assert _call("DECIMAL", "11", "two") == VALUE


def test_randbetween_draws_whole_numbers() -> None:
    draws = {_call("RANDBETWEEN", 1.0, 6.0) for _ in range(300)}
    assert draws == {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}  # formulas drew fractions
    assert _call("RANDBETWEEN", 1.5, 2.5) == 2.0
    assert _call("RANDBETWEEN", 3.0, 2.0) == NUM


def test_products_beyond_the_doubles_are_num() -> None:
    assert _call("PRODUCT", 2.0, 3.0) == 6.0
    assert _call("PRODUCT", 1e200, 1e200) == NUM  # formulas: inf
    assert _call("SUMSQ", 1e200) == NUM


def _book(path: Path, formulas: list[str]) -> Path:
    wb = openpyxl.Workbook()
    wb.active.append([111, -4.3])
    for col, formula in enumerate(formulas, start=1):
        wb.active.cell(2, col, formula)
    wb.save(path)
    return path


def test_a_workbook_with_these_functions(tmp_path: Path) -> None:
    book = _book(tmp_path / "book.xlsx", [
        "=MROUND(1.3,0.2)", "=TRUNC(1.5,400)", "=INT(1E+300)", "=CEILING(1E+300,1E-300)", "=_xlfn.BASE(A1,2)",
        "=_xlfn.DECIMAL(A1,2)", "=_xlfn.CEILING.PRECISE(B1)", "=FACT(171)", "=PRODUCT(1E+200,1E+200)"])
    sheet = evaluate_workbook(str(book)).grid.sheet("Sheet")
    got = [sheet.get(2, col) for col in range(1, 10)]
    assert got == [1.4, 1.5, 1e300, NUM, "1101111", 7.0, -4.0, NUM, NUM]


_RECALCULATE = """
import json, sys
from xlrating.engine import evaluate_workbook
sheet = evaluate_workbook(sys.argv[1]).grid.sheet("Sheet")
print(json.dumps([str(sheet.get(2, col)) for col in range(1, 5)]))
"""


def test_huge_digit_counts_and_factorials_come_back_at_once(tmp_path: Path) -> None:
    """formulas computed 10 ** 1E+100 for TRUNC(1.5, 1E+100), math.factorial(10^8) for FACT(1E+8) and a
    10^9-element array for FACTDOUBLE(1E+9): the recalculation never came back (a child process, so a
    regression fails the test instead of hanging it)."""
    book = _book(tmp_path / "book.xlsx", ["=TRUNC(1.5,1E+100)", "=ROUND(1.5,-1E+100)", "=FACT(1E+8)",
                                          "=FACTDOUBLE(1E+9)"])
    done = subprocess.run([sys.executable, "-c", _RECALCULATE, str(book)], capture_output=True, text=True,
                          timeout=120, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["1.5", "0.0", str(NUM), str(NUM)]


def test_gcd_and_lcm_truncate_skip_empty_cells_and_refuse_negatives(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([7.5, 4.5, 7.7, "=LCM(A1,B1,C1)", "=GCD(A1,B1,C1)"])  # truncated: 7, 4, 7
    ws.append([10, 3, None, "=LCM(A2,B2,C2)", "=GCD(A2,B2,C2)"])  # C2 empty: skipped, not 0
    ws.append([-7.5, 5, None, "=LCM(A3,B3,C3)", "=GCD(A3,B3,C3)"])
    ws.append([0, 5, None, "=LCM(A4,B4,C4)", "=GCD(A4,B4,C4)"])
    wb.save(tmp_path / "gcd.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "gcd.xlsx")).grid.sheet("Sheet")
    assert [[sheet.get(row, col) for col in (4, 5)] for row in range(1, 5)] == [
        [28.0, 1.0], [30.0, 1.0], [ExcelError("#NUM!"), ExcelError("#NUM!")], [0.0, 5.0]]


def test_gcd_and_lcm_read_their_arguments_as_excel_saved_them(tmp_path: Path) -> None:
    # IronCalc's GCD_LCM book (rows 13, 24, 27, 32, 34, 35) and formulas' test.xlsx (row 34)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([None, None, None, "=LCM(A1,B1,C1)", "=GCD(A1,B1,C1)"])  # nothing but empty cells: #VALUE!
    ws.append(["8", 2, None, "=LCM(A2,B2,C2)", "=GCD(A2,B2,C2)"])  # text that is a number counts
    ws.append(["eight", 2, None, "=LCM(A3,B3,C3)", "=GCD(A3,B3,C3)"])
    ws.append([" 2024-01-10 ", 7, None, "=LCM(A4,B4,C4)", "=GCD(A4,B4,C4)"])  # a date with spaces is no number
    ws.append([None, 5, None, "=LCM(,B5,C5)", "=GCD(,B5,C5)"])  # an argument left out: #N/A
    ws.append([None, 5, None, "=LCM(A6:B6)", "=GCD(A6:B6)"])  # in a range, an empty cell is 0
    ws.append([-0.4, True, None, "=LCM(A7,B7)", "=GCD(A7,B7)"])  # TRUE's #VALUE! before the negative's #NUM!
    ws.append([4, 6, None, '=LCM({4,"8",12})', '=GCD({4,"eight",12})'])
    wb.save(tmp_path / "gcd.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "gcd.xlsx")).grid.sheet("Sheet")
    value, na = ExcelError("#VALUE!"), ExcelError("#N/A")
    assert [[sheet.get(row, col) for col in (4, 5)] for row in range(1, 9)] == [
        [value, value], [8.0, 2.0], [value, value], [value, value], [na, na], [0.0, 5.0], [value, value],
        [24.0, value]]


def test_combin_combina_and_quotient_give_excels_values(tmp_path: Path) -> None:
    # Excel's cached values (IronCalc's COMBIN_COMBINA and MOD_QUOTIENT books): arguments truncated,
    # TRUE as 1 in COMBIN/COMBINA but #VALUE! in QUOTIENT, text numbers read, results beyond the
    # doubles' range #NUM! at once
    assert [_call("COMBIN", n, k) for n, k in [(5, 2), (10, 10), (3, 10), (-10, 2), (10, -3), (0, 0), (3.576, 2),
                                                (10.9, 3.9), (5, 0.9), ("12", 2), (20, True)]] == [
        10, 1, NUM, NUM, NUM, 1, 3, 120, 1, 66, 20]
    assert _call("COMBIN", 1000, 200) == pytest.approx(6.617155560659313e+215, rel=1e-12)
    assert _call("COMBIN", 1e15, 5e14) == NUM
    assert [_call("COMBINA", n, k) for n, k in [(5, 2), (10, 10), (3, 10), (0, 5), (0, 0), (False, 3), (True, 3),
                                                 (-10, 2), ("12", 2)]] == [15, 92378, 66, NUM, 1, NUM, 1, NUM, 78]
    assert _call("COMBINA", 20, 19) == pytest.approx(35345263799.999985, rel=1e-12)
    assert [_call("QUOTIENT", n, d) for n, d in [(5, 2), (-5, 2), (-5, -2), (-34.1234, 12), (-7.8, -2.3),
                                                  (10.0000000001, 0.1), (5, 1e-10), ("16", "7"), (0, 3)]] == [
        2, -2, 2, -2, 3, 100, 50000000000, 2, 0]
    assert [_call("QUOTIENT", n, d) for n, d in [(3, 0), (True, True), (False, True), ("eight", 1)]] == [
        ExcelError("#DIV/0!"), VALUE, VALUE, VALUE]
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"] = 4, "=1/0"
    ws["C1"], ws["D1"], ws["E1"], ws["F1"] = "=COMBIN(A1,A2)", "=_xlfn.COMBINA(A1,2)", "=QUOTIENT(A1,A2)", "=QUOTIENT(B1,0)"
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(1, col) for col in range(3, 7)] == [1.0, 10.0, ExcelError("#DIV/0!"), ExcelError("#DIV/0!")]


def test_mround_int_and_trunc_read_arguments_as_excel_saved_them(tmp_path: Path) -> None:
    # IronCalc's MROUND_TRUNC_INT book: a date typed as text counts, with spaces around it not; an
    # empty cell is 0, an argument left out #N/A; TRUE and FALSE are #VALUE! for MROUND
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["2024-01-10", 7, "=MROUND(A1,B1)", "=INT(A1)", "=TRUNC(A1,B1)"])
    ws.append([" 2024-01-10 ", 7, "=MROUND(A2,B2)", "=INT(A2)", "=TRUNC(A2,B2)"])
    ws.append([None, 5, "=MROUND(A3,B3)", "=MROUND(,B3)", "=MROUND(B3, )"])
    ws.append([True, 2, "=MROUND(A4,B4)", "=MROUND(B4,A4)", "=INT(A4)"])
    ws.append([0, '=""', "=MROUND(A5,B5)", "=MROUND(7.5,2)", "=TRUNC(-7.9)"])
    wb.save(tmp_path / "mround.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "mround.xlsx")).grid.sheet("Sheet")
    value, na = ExcelError("#VALUE!"), ExcelError("#N/A")
    assert [[sheet.get(row, col) for col in (3, 4, 5)] for row in range(1, 6)] == [
        [45304.0, 45301.0, 45301.0], [value, value, value], [0.0, na, na], [value, value, 1.0],
        [value, 8.0, -7.0]]


def test_roman_writes_microsofts_forms() -> None:
    # Microsoft's ROMAN page: 499 in the forms 0 to 4, TRUE classic, FALSE simplified
    assert [_call("ROMAN", 499.0, form) for form in (0.0, 1.0, 2.0, 3.0, 4.0)] == [
        "CDXCIX", "LDVLIV", "XDIX", "VDIV", "ID"]
    assert _call("ROMAN", 499.0, True) == "CDXCIX"
    assert _call("ROMAN", 499.0, False) == "ID"  # formulas: CDXCIX
    assert _call("ROMAN", 499.0) == "CDXCIX"
    assert _call("ROMAN", 2013.0, 0.0) == "MMXIII"


def test_roman_as_excel_saved_it(tmp_path: Path) -> None:
    # IronCalc's ARABIC_ROMAN book, saved by Excel: the forms 1 to 4, FALSE and the text "2" as form,
    # a fraction truncated, 0 and an empty cell "", 4000, a negative number, form 5 and "hello" #VALUE!
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([None, 1, 2, 3, 4, False, "2", True, 5, "hello"])
    numbers = [99, 469, 499, 2596, 3999, 3999.9999999, 5.99999, 0.3, 0, None, 4000, -13]
    for row, value in enumerate(numbers, start=2):
        ws.cell(row, 1, value)
        for col in range(2, 11):
            ws.cell(row, col, f"=ROMAN($A{row},{ws.cell(1, col).coordinate.replace('1', '$1')})")
    wb.save(tmp_path / "roman.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "roman.xlsx")).grid.sheet("Sheet")
    got = [[sheet.get(row, col) for col in range(2, 11)] for row in range(2, 2 + len(numbers))]
    assert got == [
        ["VCIV", "IC", "IC", "IC", "IC", "IC", "XCIX", VALUE, VALUE],
        ["LDXIX", "LDXIX", "LDXIX", "LDXIX", "LDXIX", "LDXIX", "CDLXIX", VALUE, VALUE],
        ["LDVLIV", "XDIX", "VDIV", "ID", "ID", "XDIX", "CDXCIX", VALUE, VALUE],
        ["MMDVCI", "MMDVCI", "MMDVCI", "MMDVCI", "MMDVCI", "MMDVCI", "MMDXCVI", VALUE, VALUE],
        ["MMMLMVLIV", "MMMXMIX", "MMMVMIV", "MMMIM", "MMMIM", "MMMXMIX", "MMMCMXCIX", VALUE, VALUE],
        ["MMMLMVLIV", "MMMXMIX", "MMMVMIV", "MMMIM", "MMMIM", "MMMXMIX", "MMMCMXCIX", VALUE, VALUE],
        ["V", "V", "V", "V", "V", "V", "V", VALUE, VALUE],
        ["", "", "", "", "", "", "", VALUE, VALUE],
        ["", "", "", "", "", "", "", VALUE, VALUE],
        ["", "", "", "", "", "", "", VALUE, VALUE],
        [VALUE] * 9,
        [VALUE] * 9,
    ]
