"""TEXT(value, format_text): Excel's number-format language, from Microsoft's "TEXT function" and
"Number format codes" pages, directly and recalculated in a workbook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from formulas.tokens.operand import XlError

from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.evaluate.compiler import compile_formula
from xlrating.engine.functions.text import FUNCTIONS
from xlrating.functions import ExcelError

VALUE = ExcelError("#VALUE!")


def _text(value: Any, code: Any) -> Any:
    result = np.asarray(FUNCTIONS["TEXT"](value, code), dtype=object).ravel()[0]
    return ExcelError(str(result)) if isinstance(result, XlError) else result


# (value, format, Microsoft's result)
DOCUMENTED = [
    (1234.567, "$#,##0.00", "$1,234.57"),
    (0.285, "0.0%", "28.5%"),
    (4.34, "# ?/?", "4 1/3"),
    (12200000, "0.00E+00", "1.22E+07"),
    (1234.567, "0.00E+00", "1.23E+03"),
    (1234567898, "[<=9999999]###-####;(###) ###-####", "(123) 456-7898"),
    (1234, "0000000", "0001234"),
    (123456, "##0° 00' 00''", "12° 34' 56''"),
    (8.9, "#.000", "8.900"),
    (0.631, "0.#", "0.6"),
    (12, "#.0#", "12.0"),
    (1234.568, "#.0#", "1234.57"),
    (44.398, "???.???", " 44.398"),
    (12000, "#,###", "12,000"),
    (12000, "#,", "12"),
    (12200000, "0.0,,", "12.2"),
    (1.5, "?/8", "12/8"),
    (0.5, "# ??/??", "  1/2 "),
    (-1, "0;(0)", "(1)"),
    (0, '0;-0;"zero"', "zero"),
    (-1234.5, "#,##0.00", "-1,234.50"),
    (-1234.5, "#,##0.00;[Red]#,##0.00", "1,234.50"),
    (150, '[>100]"big";"small"', "big"),
    (2.5, "0", "3"),  # half away from zero
    (-2.5, "0", "-3"),
    (1.005, "0.00", "1.01"),  # from the 15 significant digits, not the binary value
    (0.5, "General", "0.5"),
    (5, "@", "5"),
    ("abc", '0;-0;0;"text: "@', "text: abc"),
    ("abc", "0.00", "abc"),
    ("12", "0.00", "12.00"),  # a number typed as text
    (True, "0", "TRUE"),
    (1, 'w\\x"y"_)*-z', "wxy z"),
]

DATE = 40982  # DATE(2012,3,14)
DATES = [
    (DATE, "dddd, mmmm d, yyyy", "Wednesday, March 14, 2012"),
    (DATE, "mm/dd/yy", "03/14/12"),
    (DATE, "m/d/yyyy", "3/14/2012"),
    (DATE, "ddd mmm d", "Wed Mar 14"),
    (DATE, "mmmmm", "M"),
    (DATE + 0.75, "h:mm AM/PM", "6:00 PM"),
    (DATE + 0.25, "hh:mm:ss A/P", "06:00:00 A"),
    (DATE + 0.5 + 1 / 86400 * 1.25, "h:mm:ss.00", "12:00:01.25"),
    (1.5, "[h]:mm", "36:00"),
    (1.5, "[mm]:ss", "2160:00"),
    (0.5, "[s]", "43200"),
    (60, "yyyy-mm-dd", "1900-02-29"),
    (0, "yyyy-mm-dd", "1900-01-00"),
    (61, "yyyy-mm-dd dddd", "1900-03-01 Thursday"),
    ("2012-03-14", "d mmm yyyy", "14 Mar 2012"),  # a date typed as text
    ("6:30", "h:mm", "6:30"),
]

INVALID = [
    (1, "0.0y"),  # a date code beside a digit placeholder
    (1, "0@"),  # the text beside a number
    ("x", '@;0'),  # a text section before another section
    (1, "0;0;0;@;0"),  # five sections
    (-1, "h:mm"),  # no date before 1900
    (2958466, "yyyy"),  # nor after 9999
]


@pytest.mark.parametrize(("value", "code", "expected"), DOCUMENTED + DATES)
def test_documented_formats(value: Any, code: str, expected: str) -> None:
    assert _text(value, code) == expected


@pytest.mark.parametrize(("value", "code"), INVALID)
def test_invalid_format_is_value_error(value: Any, code: str) -> None:
    assert _text(value, code) == VALUE


def test_sections_and_signs() -> None:
    assert _text(-1, "") == "-"  # one section: a negative number gets a minus sign
    assert _text(0, "") == ""
    assert _text("Plugh", "") == "Plugh"
    assert _text(-5, '0;"minus "0') == "minus 5"
    assert _text(0, "0.0;(0.0)") == "0.0"  # two sections: zero uses the first
    assert _text(-1, "[h]") == "-24"  # elapsed time may be negative
    assert _text(sh.EMPTY, "0.0") == "0.0"
    assert _text(3, sh.EMPTY) == ""


def test_errors_pass_through() -> None:
    from formulas.tokens.operand import Error
    assert _text(Error.errors["#N/A"], "0") == ExcelError("#N/A")


def test_text_in_a_workbook(tmp_path: Path) -> None:
    path = tmp_path / "text.xlsx"
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Sheet"
    rows = [(1234.567, "$#,##0.00"), (0.285, "0.0%"), (4.34, "# ?/?"), (-1, "0;(0)"), (DATE, "dddd, mmmm d, yyyy"),
            (1, "0.0y")]
    for row, (value, code) in enumerate(rows, start=1):
        sheet.cell(row, 1, value)
        sheet.cell(row, 2, code)
        sheet.cell(row, 3, f"=TEXT(A{row},B{row})")
    sheet.cell(7, 3, '=TEXT(DATE(2012,3,14),"yyyy-mm-dd")&"!"')
    sheet.cell(8, 3, '=TEXT(0,"0;-0;""zero""")')
    workbook.save(path)
    grid = evaluate_workbook(path).grid.sheet("Sheet")
    assert [grid.get(row, 3) for row in range(1, 9)] == [
        "$1,234.57", "28.5%", "4 1/3", "(1)", "Wednesday, March 14, 2012", VALUE, "2012-03-14!", "zero"]


@pytest.mark.parametrize(("formula", "expected"), [
    ('=TEXT(12200000,"0.00E-##")', "1.22E7"),  # # in the exponent: a digit shown only when needed
    ('=TEXT(0.000122,"0.00E+##")', "1.22E-4"),
    ('=TEXT(12200000,"0.00E+00")', "1.22E+07"),
    ('=TEXT(130,"m mm mmm mmmm mmmmm mmmmmm")', "5 05 May May M May"),  # six m or more: the name
    ('=TEXT(130.33332,"hm hmm hmmm")', "759 759 7May"),  # mmm after h is still the month
])
def test_exponent_digits_and_month_codes_as_excel_saved_them(formula: str, expected: str) -> None:
    assert np.asarray(compile_formula(REGISTRY, formula)(), dtype=object).ravel()[0] == expected


# TEXT(value, "General") and signs, as a workbook Excel saved shows them (IronCalc's test workbook
# calc_tests/TEXT_TEXT.xlsx, sheet NUMBERS): General is the default-width cell, 11 characters
# sign aside, and a negative number the format shows as zero has no minus sign.
@pytest.mark.parametrize(("value", "code", "expected"), [
    (1 / 3, "General", "0.333333333"), (-1 / 3, "General", "-0.333333333"), (12345.6789, "General", "12345.6789"),
    (123456789012, "General", "1.23457E+11"), (25000000000, "General", "25000000000"),
    (250000000000, "General", "2.5E+11"), (1.23456e19, "General", "1.23456E+19"), (1e16, "General", "1E+16"),
    (1.2e-16, "General", "1.2E-16"), (-2.5e-9, "General", "-2.5E-09"), (-1e-8, "General", "-0.00000001"),
    (-1 / 3, "0", "0"), (-1 / 3, "0.00", "-0.33"), (-2.5e-10, "0.00", "0.00"), (-2.5e-10, "0.00%", "0.00%"),
    (-1 / 3, "00-00-00-00", "00-00-00-00"), (-12, "00-00-00-00", "-00-00-00-12"), (-1 / 3, "[Red]#.#", "-.3"),
    (-2.7e-18, "[Red]#.#", "."), (-2.7e-18, '#,#.00 "Millions!"', ".00 Millions!"),
])
def test_general_is_a_default_width_cell_and_a_zero_shown_has_no_sign(value: float, code: str, expected: str) -> None:
    assert _text(value, code) == expected


def test_decimal_placeholders_in_the_trailing_zeros_as_excel_saved_them() -> None:
    """Within the trailing zeros of the decimals a # shows nothing and a ? a space even before a 0
    placeholder (pycel's text.xlsx and formulas' test.xlsx, saved by Excel)."""
    assert _text(890123.456789, "#.#####00#0") == "890123.45678900"
    assert _text(1.000000001, "00###.##.0000.00") == "001..0000.00"
    assert _text(1.5, "0.#0") == "1.50"  # a significant digit is shown


def test_an_exponent_needs_its_digit_placeholders() -> None:
    """formulas' test.xlsx (Excel): a format whose E+ is followed by other characters is #VALUE!."""
    assert _text(1234578.555, "#,##00000,  ,00 , 0##e+8800######    .  # ,0.00.0,00") == VALUE
    assert _text(1234.5, "0.0E+0") == "1.2E+3"


def test_buddhist_year_era_and_hijri_calendar_codes() -> None:
    """The calendar codes of an en-US Excel: b and bb the Buddhist year (Gregorian + 543) in two
    digits, bbb and bbbb in four (Excel corrects b to bb, bbb to bbbb); g, gg, ggg the era, which
    writes nothing outside a Japanese or Taiwanese locale; B2 the Hijri calendar, in which Excel's
    1900-02-29 (serial 60) does not exist; a B ending the format is #VALUE!."""
    assert _text(45000, "bb/mm/dd") == "66/03/15"  # 2023-03-15
    assert _text(45000, "d mmmm bbbb") == "15 March 2566"
    assert _text(45000, "ggg e") == " 2023"
    assert _text(45000, "B2yyyy-mm-dd") == "1444-08-23"  # 23 Sha'ban 1444
    assert _text(45000, "B1yyyy-mm-dd") == "2023-03-15"  # B1, the Gregorian calendar
    assert _text(60, "B2yyyy-mm-dd") == VALUE
    assert _text(1, "0B") == VALUE
    assert _text(1, "0 kg") == VALUE  # g is a date code: beside a digit placeholder, as "0 y"
