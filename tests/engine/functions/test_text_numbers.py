"""Numbers turned into text as Excel does: the rule itself (number_text), the text functions given
numbers, and the complex numbers of COMPLEX and the IM functions (Microsoft's examples, and the
values Excel saved in formulas' test workbook), directly and in a workbook."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from formulas.tokens.operand import Error, XlError

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.engineering import FUNCTIONS as ENGINEERING
from xlrating.engine.functions.text import FUNCTIONS as TEXT
from xlrating.engine.functions.text import number_text
from xlrating.functions import ExcelError

NUM, VALUE, DIV0 = ExcelError("#NUM!"), ExcelError("#VALUE!"), ExcelError("#DIV/0!")


def _value(result: Any) -> Any:
    value = np.asarray(result, dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def _text(name: str, *args: Any) -> Any:
    return _value(TEXT[name](*args))


def _im(name: str, *args: Any) -> Any:
    return _value(ENGINEERING[name](*args))


def _sheet_values(path: Path, formulas: list[str], row: list[Any] | None = None) -> list[Any]:
    """``formulas`` in row 2 of a new workbook (``row`` in row 1), as the engine computes them."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(row or [])
    for column, formula in enumerate(formulas, start=1):
        ws.cell(2, column, formula)
    wb.save(path)
    sheet = evaluate_workbook(str(path)).grid.sheet("Sheet")
    return [sheet.get(2, column) for column in range(1, len(formulas) + 1)]


# --- the rule ------------------------------------------------------------------------------------

# The texts Excel produced for these doubles, as Apache POI's NumberToTextConverter documents them.
EXCEL_TEXTS = [
    (0.0, "0"), (1.0, "1"), (1.0001, "1.0001"), (756.0, "756"), (7.56, "7.56"),
    (123.45678901234568, "123.456789012346"), (1234567.8901234567, "1234567.89012346"),
    (1.2345678901234568e-5, "1.23456789012346E-05"), (1.2345678901234567e-4, "0.000123456789012346"),
    (0.0012345678901234567, "0.00123456789012346"), (1.23456789e-5, "0.0000123456789"),
    (5.6789012345e-8, "0.000000056789012345"), (5.67890123456e-8, "5.67890123456E-08"),
    (9.999999999999123e-98, "9.99999999999912E-98"), (1.0000000000001235e-99, "1.0000000000001E-99"),
    (2.0e-50, "2E-50"), (1.2345678901234567e14, "123456789012346"),
    (1.2345678901234568e15, "1234567890123460"), (1.2345678901234567e19, "12345678901234600000"),
    (1.2345678901234568e20, "1.23456789012346E+20"), (-1.2345678901234567e19, "-12345678901234600000"),
    (1.2345678901234577e99, "1.2345678901235E+99"), (1.2345678901234576e100, "1.2345678901235E+100"),
    (2.0e50, "2E+50"), (1.7976931348623157e308, "1.7976931348623E+308"),
    (2.2250738585072014e-308, "2.2250738585072E-308"), (2.225073858507201e-308, "0"),
    (1.234999999999999e20, "1.235E+20"), (123499.9999999999, "123500"),
    (1.234999999999999e-8, "0.00000001235"), (9.999999999999999e20, "1E+21"),
    (999999.9999999999, "1000000"), (9.999999999999999e-19, "0.000000000000000001"),
    (9.999999999999999e-20, "1E-19"), (-9.999999999999999e-9, "-0.00000001"),
]


@pytest.mark.parametrize(("number", "text"), EXCEL_TEXTS)
def test_numbers_are_written_as_excel_writes_them(number: float, text: str) -> None:
    assert number_text(number) == text


def test_the_examples_of_the_rule() -> None:
    assert number_text(0.1 + 0.2) == "0.3"
    assert number_text(1 / 3) == "0.333333333333333"
    assert number_text(1e20) == "1E+20"
    assert number_text(123456789012345678.0) == "123456789012346000"
    assert number_text(1e-5) == "0.00001"
    assert number_text(1e-10) == "0.0000000001"
    assert number_text(-0.0) == "0"
    with pytest.raises(ValueError):
        number_text(math.inf)


# --- the text functions ----------------------------------------------------------------------------

def test_text_functions_read_numbers_as_excel_writes_them() -> None:
    third, tenths = 1 / 3, 0.1 + 0.2
    assert _text("LEN", tenths) == 3  # formulas: 19, the length of "0.30000000000000004"
    assert _text("LEN", 1e20) == 5
    assert _text("LEN", True) == 4
    assert _text("LEFT", third, 4.0) == "0.33"
    assert _text("RIGHT", third, 3.0) == "333"
    assert _text("MID", tenths, 2.0, 5.0) == ".3"
    assert _text("REPT", tenths, 2.0) == "0.30.3"
    assert _text("FIND", "3", tenths) == 3
    assert _text("SEARCH", ".", 10.0) == VALUE  # formulas searched "10.0"
    assert _text("EXACT", tenths, "0.3") is True
    assert _text("SUBSTITUTE", tenths, "3", "4") == "0.4"
    assert _text("UPPER", 1e20) == "1E+20"
    assert _text("CONCATENATE", "x=", tenths, True) == "x=0.3TRUE"


def test_concat_and_textjoin_write_every_number_of_a_range() -> None:
    cells = np.array([[0.1, 0.2 + 0.1, True, 1e-10]], dtype=object)
    assert _text("CONCAT", cells, "!") == "0.10.3TRUE0.0000000001!"
    assert _text("TEXTJOIN", ",", True, cells) == "0.1,0.3,TRUE,0.0000000001"
    assert _text("TEXTJOIN", 0.5, True, "a", "b") == "a0.5b"  # a number as the delimiter
    assert _text("TEXTJOIN", ",", Error.errors["#N/A"], "a") == ExcelError("#N/A")


def test_text_functions_in_a_workbook(tmp_path: Path) -> None:
    formulas = ["=LEN(A1+B1)", "=LEFT(1/3,4)", "=RIGHT(1/3,3)", "=MID(1/3,2,3)", "=REPT(A1+B1,2)",
                '=CONCATENATE("x",A1+B1)', "=_xlfn.CONCAT(A1:C1)", '=_xlfn.TEXTJOIN("-",TRUE,A1:D1)',
                '=FIND("3",A1+B1)', '=SEARCH(".",10)', "=LEN(1E+20)", '=EXACT(A1+B1,"0.3")']
    assert _sheet_values(tmp_path / "text.xlsx", formulas, [0.1, 0.2, True, 1e-5]) == [
        3.0, "0.33", "333", ".33", "0.30.3", "x0.3", "0.10.2TRUE", "0.1-0.2-TRUE-0.00001", 3.0, VALUE,
        5.0, True]


# --- complex numbers -----------------------------------------------------------------------------

# Microsoft's examples, one per function page.
MICROSOFT_EXAMPLES = [
    ("COMPLEX", (3.0, 4.0), "3+4i"), ("COMPLEX", (3.0, 4.0, "j"), "3+4j"), ("COMPLEX", (0.0, 1.0), "i"),
    ("COMPLEX", (1.0, 0.0), "1"),
    ("IMABS", ("5+12i",), 13.0), ("IMAGINARY", ("3+4i",), 4.0), ("IMAGINARY", ("0-j",), -1.0),
    ("IMAGINARY", (4.0,), 0.0), ("IMREAL", ("6-9i",), 6.0), ("IMCONJUGATE", ("3+4i",), "3-4i"),
    ("IMCOS", ("1+i",), "0.833730025131149-0.988897705762865i"),
    ("IMCOSH", ("4+3i",), "-27.0349456030742+3.85115333481178i"),
    ("IMCOT", ("4+3i",), "0.00490118239430447-0.999266927805902i"),
    ("IMCSC", ("4+3i",), "-0.0754898329158637+0.0648774713706355i"),
    ("IMCSCH", ("4+3i",), "-0.036275889628626-0.0051744731840194i"),
    ("IMDIV", ("-238+240i", "10+24i"), "5+12i"),
    ("IMEXP", ("1+i",), "1.46869393991589+2.28735528717884i"),
    ("IMLN", ("3+4i",), "1.6094379124341+0.927295218001612i"),
    ("IMLOG10", ("3+4i",), "0.698970004336019+0.402719196273373i"),
    ("IMLOG2", ("3+4i",), "2.32192809488736+1.33780421245098i"),
    ("IMPOWER", ("2+3i", 3.0), "-46+9.00000000000001i"),
    ("IMPRODUCT", ("3+4i", "5-3i"), "27+11i"), ("IMPRODUCT", ("1+2i", 30.0), "30+60i"),
    ("IMSEC", ("4+3i",), "-0.0652940278579471-0.0752249603027732i"),
    ("IMSECH", ("4+3i",), "-0.0362534969158689-0.00516434460775318i"),
    ("IMSIN", ("4+3i",), "-7.61923172032141-6.548120040911i"),
    ("IMSINH", ("4+3i",), "-27.0168132580039+3.85373803791938i"),
    ("IMSQRT", ("1+i",), "1.09868411346781+0.455089860562227i"),
    ("IMSUB", ("13+4i", "5+3i"), "8+i"), ("IMSUM", ("3+4i", "5-3i"), "8+i"),
    ("IMTAN", ("4+3i",), "0.00490825806749606+1.00070953606723i"),
]

# Values Excel saved in formulas' test workbook (test.xlsx, sheet ENGINEERING).
EXCEL_SAVED = [
    ("IMCOS", ("7+25j",), "27142327967.109-23653126953.379j"),
    ("IMTAN", ("13+5j",), "0.0000692361330972509+0.999941259144671j"),
    ("IMTAN", ("-3+2i",), "0.00988437503832249+0.965385879022133i"),
    ("IMCOT", ("7+25j",), "3.82126757337684E-22-j"),
    ("IMCOT", ("3.1+2j",), "-0.00315788915435829-1.03717839601561j"),
    ("IMCSC", ("3.1+2j",), "0.0118908807944521+0.275445903842597j"),
    ("IMCSCH", ("13+5j",), "1.28233995888454E-06+4.33496947416312E-06j"),
    ("IMSECH", ("-13+25j",), "4.48088972785335E-06-5.98317105613852E-07j"),
    ("IMPOWER", ("-13+25j", 2.3), "7.21342528017647-2161.67878229695j"),
    ("IMPRODUCT", ("3.1+2j", "13+5j"), "30.3+41.5j"),
    ("IMDIV", ("7+25j", "13+5j"), "1.11340206185567+1.49484536082474j"),
    ("COMPLEX", (sh.EMPTY, "3.6", "j"), "3.6j"),
]


def same_complex_text(got: Any, expected: Any) -> bool:
    """``got`` is Excel's text of the complex number ``expected`` names: the same text, or (where a
    part comes through exp, log, pow or a trigonometric function, which the C library computes to
    its own last bit) the same form with each part within one unit of its 15th significant digit."""
    if got == expected or not (isinstance(got, str) and isinstance(expected, str)):
        return bool(got == expected)
    if got[-1:] != expected[-1:] or ("E" in got) != ("E" in expected):
        return False

    def parts(text: str) -> complex:
        return complex(re.sub(r"(?<![0-9.])([ij])$", r"1\1", text).replace("i", "j"))

    try:
        a, b = parts(got), parts(expected)
    except ValueError:
        return False
    return all(math.isclose(x, y, rel_tol=1.5e-14, abs_tol=1e-300) for x, y in ((a.real, b.real), (a.imag, b.imag)))


@pytest.mark.parametrize(("name", "args", "expected"), MICROSOFT_EXAMPLES + EXCEL_SAVED)
def test_complex_functions_write_parts_as_excel(name: str, args: tuple[Any, ...], expected: Any) -> None:
    got = _im(name, *args)
    assert same_complex_text(got, expected), (got, expected)


def test_complex_texts_compare_by_their_parts_only_within_the_15th_digit() -> None:
    assert same_complex_text("1.46869393991589+2.28735528717884i", "1.46869393991589+2.28735528717885i")
    assert not same_complex_text("1.46869393991589+2.28735528717884i", "1.46869393991589+2.2873552871789i")
    assert not same_complex_text("1.46869393991589+2.28735528717884j", "1.46869393991589+2.28735528717884i")
    assert not same_complex_text("8+i", "8-i") and same_complex_text("8+j", "8+j")


def test_a_real_number_keeps_the_default_suffix_and_parts_have_15_digits() -> None:
    assert _im("IMSQRT", "-4") == "2i"  # formulas: "2j"
    assert _im("IMSQRT", -4.0) == "2i"
    assert _im("IMSUM", "3", "4i") == "3+4i"
    assert _im("COMPLEX", 0.1 + 0.2, 1 / 3) == "0.3+0.333333333333333i"
    assert _im("COMPLEX", 1e21, -1.0, "j") == "1E+21-j"
    assert _im("IMPRODUCT", 0.0, "-13+25j") == "0"  # no "-0"
    assert math.isclose(_im("IMARGUMENT", "3+4i"), 0.92729522, rel_tol=1e-8)
    assert math.isclose(_im("IMARGUMENT", "i"), math.pi / 2)


def test_complex_functions_errors() -> None:
    assert _im("IMABS", "yvj") == NUM
    assert _im("IMABS", "3+4I") == NUM  # "neither "I" nor "J""
    assert _im("IMABS", "3 + 4i") == NUM
    assert _im("IMABS", True) == VALUE
    assert _im("IMABS", Error.errors["#N/A"]) == ExcelError("#N/A")
    assert _im("IMABS", np.array([["1+i", "2"]], dtype=object)) == VALUE
    assert _im("COMPLEX", 1.0, 2.0, "k") == VALUE
    assert _im("COMPLEX", True, 2.0) == VALUE
    assert _im("IMSUM", "13+5j", "3.1+2j", "-3+2i") == VALUE  # suffixes differ
    assert _im("IMSUB", "3.1+2j", "-3+2i") == NUM
    assert _im("IMDIV", "3+4i", 0.0) == NUM
    assert _im("IMCOT", "0") == NUM
    assert _im("IMCSC", 0.0) == NUM
    assert _im("IMLN", 0.0) == NUM
    assert _im("IMARGUMENT", 0.0) == DIV0
    assert _im("IMCOSH", "1000") == NUM
    assert _im("IMPOWER", "2+3i", "x") == VALUE
    assert _im("IMPOWER", 0.0, -1.0) == NUM


def test_complex_functions_in_a_workbook(tmp_path: Path) -> None:
    formulas = ['=IMSQRT("-4")', '=IMEXP("1+i")', '=IMPOWER(A1,3)', "=IMSUM(A1:B1)", '=_xlfn.IMCOT("4+3i")',
                '=COMPLEX(0.1+0.2,1/3)', '=IMABS("5+12i")', '=IMSUB("13+4j","5+3j")', '=IMTAN("13+5j")']
    got = _sheet_values(tmp_path / "complex.xlsx", formulas, ["2+3i", "5-3i"])
    expected = ["2i", "1.46869393991589+2.28735528717884i", "-46+9.00000000000001i", "7",
                "0.00490118239430447-0.999266927805902i", "0.3+0.333333333333333i", 13.0, "8+j",
                "0.0000692361330972509+0.999941259144671j"]
    assert len(got) == len(expected) and all(map(same_complex_text, got, expected)), (got, expected)
