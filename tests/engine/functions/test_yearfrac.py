"""YEARFRAC and TIMEVALUE as Microsoft documents them and as the workbooks Excel saved show them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError

from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.evaluate.compiler import compile_formula
from xlrating.functions import ExcelError


def _value(formula: str) -> object:
    value = np.asarray(compile_formula(REGISTRY, formula)(), dtype=object).ravel()[0]
    return f"error {value}" if isinstance(value, XlError) else value


# Microsoft's YEARFRAC example: 1 January 2012 to 30 July 2012
@pytest.mark.parametrize(("basis", "expected"), [
    ("", 209 / 360),  # US 30/360, the default: 0.58055556
    (",0", 209 / 360),
    (",1", 211 / 366),  # actual/actual in a leap year: 0.57650273
    (",2", 211 / 360),
    (",3", 211 / 365),  # 0.57808219
    (",4", 209 / 360),
])
def test_microsofts_example(basis: str, expected: float) -> None:
    assert _value(f"=YEARFRAC(DATE(2012,1,1),DATE(2012,7,30){basis})") == pytest.approx(expected, abs=1e-15)
    assert _value(f'=YEARFRAC("1/1/2012","7/30/2012"{basis})') == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(("start", "end", "basis", "expected"), [
    # US 30/360: a 31st becomes the 30th; the end's 31st only once the start is a 30th
    ("2001,1,31", "2001,3,31", 0, 60 / 360),
    ("2001,1,30", "2001,3,31", 0, 60 / 360),
    ("2001,1,29", "2001,3,31", 0, 62 / 360),
    # its end-of-February rules: the last day of February counts as the 30th when the start is one
    ("2004,2,29", "2005,2,28", 0, 1.0),
    ("2001,2,28", "2004,2,29", 0, 3.0),
    ("2001,2,28", "2001,3,31", 0, 30 / 360),
    ("2001,2,27", "2001,3,31", 0, 34 / 360),
    # European 30/360: both 31sts are 30ths, February is as it is
    ("2001,1,29", "2001,3,31", 4, 61 / 360),
    ("2001,2,28", "2001,3,31", 4, 32 / 360),
    ("2004,2,29", "2005,2,28", 4, 359 / 360),
    # actual/actual, at most a year apart: 366 days a year when a 29 February lies between them
    ("2004,2,29", "2005,2,28", 1, 365 / 366),
    ("2003,3,1", "2004,2,29", 1, 365 / 366),
    ("2003,3,1", "2004,2,28", 1, 364 / 365),
    ("2005,1,1", "2005,12,31", 1, 364 / 365),
    # several years: the average length of the years spanned
    ("2001,1,1", "2003,1,1", 1, 730 / (1095 / 3)),
    ("2003,6,1", "2005,6,1", 1, 731 / (1096 / 3)),
    ("2001,2,28", "2004,2,29", 1, 1096 / (1461 / 4)),
    ("2012,1,1", "2012,1,1", 1, 0.0),
    ("2012,1,1", "2013,1,1", 1, 366 / 366),
])
def test_bases(start: str, end: str, basis: int, expected: float) -> None:
    assert _value(f"=YEARFRAC(DATE({start}),DATE({end}),{basis})") == pytest.approx(expected, abs=1e-15)
    # start and end in either order
    assert _value(f"=YEARFRAC(DATE({end}),DATE({start}),{basis})") == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize(("formula", "expected"), [
    ("=YEARFRAC(1,200,5)", "error #NUM!"),
    ("=YEARFRAC(1,200,-1)", "error #NUM!"),
    ('=YEARFRAC(1,200,"plugh")', "error #VALUE!"),
    ("=YEARFRAC(1,200,TRUE)", "error #VALUE!"),
    ('=YEARFRAC(1,200,"1")', pytest.approx(199 / 366)),
    ("=YEARFRAC(1,200,1.9)", pytest.approx(199 / 366)),  # the basis is truncated
    ("=YEARFRAC(-1,200,0)", "error #NUM!"),
    ("=YEARFRAC(1,2958466,0)", "error #NUM!"),
    ("=YEARFRAC(1,2958465,2)", pytest.approx(2958464 / 360)),
    ("=YEARFRAC(1/0,200,0)", "error #DIV/0!"),
    ('=YEARFRAC(1/0,200,"plugh")', "error #VALUE!"),  # the basis is read before the dates
    ("=YEARFRAC(1,1/0,7)", "error #NUM!"),
    ('=YEARFRAC("not a date",200)', "error #VALUE!"),
    ("=YEARFRAC(1,200)", pytest.approx(197 / 360)),
    ("=YEARFRAC(1.9,200.5,3)", pytest.approx(199 / 365)),  # times are dropped
])
def test_arguments(formula: str, expected: object) -> None:
    assert _value(formula) == expected


@pytest.mark.parametrize(("formula", "expected"), [
    ('=TIMEVALUE("1:23")', pytest.approx(83 / 1440)),
    ('=TIMEVALUE("6:45 PM")', pytest.approx(0.78125)),
    ('=TIMEVALUE("22-Aug-2011 6:35 AM")', pytest.approx(395 / 1440)),  # the date is ignored
    ('=TIMEVALUE("1.25")', "error #VALUE!"),  # a number typed as text is no time
    ('=TIMEVALUE("12")', "error #VALUE!"),
    ("=TIMEVALUE(1.25)", "error #VALUE!"),  # only text
    ('=TIMEVALUE("no time")', "error #VALUE!"),
])
def test_timevalue(formula: str, expected: object) -> None:
    assert _value(formula) == expected


def test_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"] = "=DATE(2012,1,1)", "=DATE(2012,7,30)"
    ws["B1"], ws["B2"], ws["B3"], ws["B4"] = "=YEARFRAC(A1,A2)", "=YEARFRAC(A2,A1,1)", "=YEARFRAC(A1,A2,C1)", "=YEARFRAC(A1,A2,C2)"
    ws["C2"] = "plugh"
    ws["D1"], ws["D2"] = "1.25", "=TIMEVALUE(D1)"
    ws["D3"] = "=TIMEVALUE(\"18:45\")"
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet.get(1, 2) == pytest.approx(0.580555556)
    assert sheet.get(2, 2) == pytest.approx(0.576502732)
    assert sheet.get(3, 2) == pytest.approx(0.580555556)  # an empty basis is 0
    assert sheet.get(4, 2) == ExcelError("#VALUE!")
    assert sheet.get(2, 4) == ExcelError("#VALUE!")
    assert sheet.get(3, 4) == pytest.approx(0.78125)


def test_actual_actual_over_several_years_averages_real_calendar_years() -> None:
    # Excel saved YEARFRAC(1987, 345, 1) as 1642 days over (5 x 365 + 366) / 6: 1900 has 365 days here
    value = np.asarray(compile_formula(REGISTRY, "=YEARFRAC(1987,345,1)")(), dtype=object).ravel()[0]
    assert value == pytest.approx(4.496576905522592, rel=1e-12)
