"""VDB against Microsoft's examples and limits and the values Excel saved in xlcalculator's VDB test
workbook (the switch to straight line, fractional periods), directly and in a workbook; ACCRINT
against the values Excel saved in IronCalc's ACCRINT test workbooks (matched bit for bit)."""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError
from function_books import assert_excel_value

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.financial import FUNCTIONS
from xlrating.functions import ExcelError

NUM, VALUE = ExcelError("#NUM!"), ExcelError("#VALUE!")


def _vdb(*args: Any) -> Any:
    """VDB's value for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS["VDB"](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_vdb_microsoft_examples_and_limits() -> None:
    assert _vdb(2400.0, 300.0, 3650.0, 0.0, 1.0) == pytest.approx(1.315068493150685, rel=1e-12)  # $1.32
    assert _vdb(2400.0, 300.0, 120.0, 0.0, 1.0) == pytest.approx(40.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 1.0) == pytest.approx(480.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 120.0, 6.0, 18.0) == pytest.approx(396.306053264751, rel=1e-12)  # $396.31
    assert _vdb(2400.0, 300.0, 120.0, 6.0, 18.0, 1.5) == pytest.approx(311.808936658234, rel=1e-12)  # $311.81
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 0.875, 1.5) == pytest.approx(315.0, rel=1e-12)
    # #NUM! for an end after the life and a negative factor: formulas gave #VALUE!, 1236 and 18
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 11.0) == NUM
    assert _vdb(2400.0, 300.0, 10.0, 2.0, 11.0, 2.0, True) == NUM
    assert _vdb(100.0, 10.0, 5.0, 0.0, 1.0, -1.0) == NUM
    assert _vdb(100.0, 10.0, 5.0, 2.0, 1.0) == NUM
    assert _vdb(-1.0, 0.0, 10.0, 0.0, 1.0) == NUM
    assert _vdb(100.0, 10.0, 0.0, 0.0, 0.0) == NUM
    assert _vdb("cost", 10.0, 5.0, 0.0, 1.0) == VALUE


# Cost 575000, salvage 5000, life 10, factor 1.5, each year: Excel switches to straight line in year 5.
EXCEL_YEARS = [86250, 73312.5, 62315.625, 52968.28125] + [49192.265625] * 6


@pytest.mark.parametrize("no_switch", [None, False])
def test_vdb_switches_to_straight_line_to_the_last_year(no_switch: bool | None) -> None:
    extra = () if no_switch is None else (no_switch,)
    got = [_vdb(575000.0, 5000.0, 10.0, year - 1.0, float(year), 1.5, *extra) for year in range(1, 11)]
    assert got == pytest.approx(EXCEL_YEARS, rel=1e-12)  # formulas: #VALUE! for year 10


def test_vdb_over_the_whole_life_depreciates_down_to_the_salvage() -> None:
    assert _vdb(2400.0, 0.0, 10.0, 0.0, 10.0, 2.0, True) == pytest.approx(2400 * (1 - 0.8 ** 10), rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 10.0, 2.0, True) == pytest.approx(2100.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 10.0, 2.0, False) == pytest.approx(2100.0, rel=1e-12)
    assert _vdb(575000.0, 5000.0, 10.0, 9.0, 10.0, 1.5, True) == pytest.approx(575000 * 0.15 * 0.85 ** 9, rel=1e-12)


# Cost 1, salvage 0, life 14, factor 1.25, from each start to one period later: what Excel saved.
EXCEL_FRACTIONAL = {
    (0.0, 0.5): 0.044642857142857144, (0.5, 1.5): 0.08529974489795919, (1.5, 2.5): 0.07768369624635568,
    (2.5, 3.5): 0.07074765193864536, (3.5, 4.5): 0.06872629045468406, (11.5, 12.5): 0.06872629045468406,
    (12.5, 13.5): 0.06872629045468406, (13.5, 14.0): 0.03436314522734203, (11.0, 12.0): 0.06866789938377948,
    (13.0, 14.0): 0.06866789938377948,
}


def test_vdb_periods_start_at_the_fraction_of_a_fractional_start() -> None:
    got = {period: _vdb(1.0, 0.0, 14.0, *period, 1.25, False) for period in EXCEL_FRACTIONAL}
    # formulas: the whole-period schedule pro rata (0.0686679 from 3.5 on), #VALUE! for (13.5, 14)
    assert got == pytest.approx(EXCEL_FRACTIONAL, rel=1e-12)


def test_vdb_over_a_long_life_is_computed_at_once() -> None:
    started = time.perf_counter()
    assert _vdb(1e6, 0.0, 1e6, 0.0, 1e6) == pytest.approx(1e6, rel=1e-12)  # formulas: #VALUE! (recursion)
    assert _vdb(1e6, 0.0, 1e9, 0.0, 1e9) == pytest.approx(1e6, rel=1e-12)
    assert _vdb(1e6, 0.0, 1e9, 0.0, 1.0) == pytest.approx(2e-3, rel=1e-12)
    assert time.perf_counter() - started < 5


def test_vdb_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([575000, 5000, 10, 1, 14, 1.25])
    for year in range(1, 11):
        ws.cell(2, year, f"=VDB($A$1,$B$1,$C$1,{year}-1,{year},1.5)")
    ws["A3"], ws["B3"] = 3.5, "=A3+1"
    ws["C3"] = "=VDB($D$1,0,$E$1,A3,B3,$F$1,FALSE)"
    ws["D3"] = "=VDB($D$1,0,$E$1,13.5,14,$F$1,FALSE)"
    ws["E3"] = "=VDB(2400,300,10,0,11)"
    wb.save(tmp_path / "vdb.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "vdb.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(2, year) for year in range(1, 11)] == pytest.approx(EXCEL_YEARS, rel=1e-12)
    assert sheet.get(3, 3) == pytest.approx(0.06872629045468406, rel=1e-12)
    assert sheet.get(3, 4) == pytest.approx(0.03436314522734203, rel=1e-12)
    assert sheet.get(3, 5) == NUM


# --- ACCRINT: the values Excel saved in IronCalc's ACCRINT test workbooks ------------------------

def _date(year: int, month: int, day: int) -> float:
    return float((datetime.date(year, month, day) - datetime.date(1899, 12, 30)).days)


def _accrint(*args: Any) -> Any:
    """ACCRINT's value for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS["ACCRINT"](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def _by_basis(issue: float, first: float, settlement: float, rate: float, par: float, frequency: float,
              calc_method: bool) -> list[Any]:
    return [_accrint(issue, first, settlement, rate, par, frequency, float(basis), calc_method) for basis in range(5)]


def test_accrint_microsoft_example() -> None:
    # Microsoft's example (and the workbooks): 1 March 2008, 31 August 2008, 1 May 2008, 10%, 1000, semiannual
    assert _accrint(39508.0, 39691.0, 39569.0, 0.1, 1000.0, 2.0, 0.0) == 16.666666666666664
    assert _accrint(39508.0, 39691.0, 39569.0, 0.1, 1000.0, 2.0) == 16.666666666666664


def test_accrint_each_basis_both_calc_methods_settlement_before_first_interest() -> None:
    # Excel's FALSE drops the whole quasi-period 1 Dec 2020 - 1 Jun 2021 from TRUE's sum and counts
    # from 1 June 2021, the quasi-coupon date before first_interest: a negative amount
    args = (_date(2020, 12, 1), _date(2021, 12, 1), _date(2021, 3, 1), 0.075, 100.0, 2.0)
    assert _by_basis(*args, True) == [1.875, 1.8647540983606556, 1.8333333333333335, 1.8595890410958902, 1.875]
    assert _by_basis(*args, False) == [-1.875, -1.8852459016393444, -1.9166666666666665, -1.8904109589041098,
                                       -1.875]
    # quarterly, issue mid-period: 2017-01-01, 2017-12-01, 2017-04-01 (IronCalc's ACCRINT_ACCRINTM book)
    args = (_date(2017, 1, 1), _date(2017, 12, 1), _date(2017, 4, 1), 0.33, 3000.0, 4.0)
    assert _by_basis(*args, True)[1:] == [241.12362637362637, 236.5, 240.04109589041096, 247.49999999999997]
    assert _by_basis(*args, False)[1:] == [-253.8763736263736, -258.49999999999994, -254.95890410958904, -247.5]


def test_accrint_settlement_after_first_interest() -> None:
    # FALSE accrues from the quasi-coupon date before first_interest (1 June 2021): 273 actual days
    # over 180 for actual/360 (94.79), not from first_interest; actual/actual's period length is the
    # quasi-period ending at first_interest (183 days), TRUE's too (90/183 past 1 December 2021)
    args = (_date(2021, 6, 1), _date(2021, 12, 1), _date(2022, 3, 1), 0.025, 5000.0, 2.0)
    assert _by_basis(*args, True) == [93.75, 93.23770491803279, 93.75, 93.32191780821918, 93.75]
    assert _by_basis(*args, False) == [93.75, 93.23770491803279, 94.79166666666666, 93.4931506849315, 93.75]
    # settlement on a quasi-coupon date: TRUE's period is the one before it (1 July 2020 - 1 January 2021)
    args = (_date(2020, 1, 1), _date(2020, 7, 1), _date(2021, 1, 1), 0.025, 5000.0, 2.0)
    assert _by_basis(*args, True) == [125.0, 125.68681318681318, 126.38888888888889, 125.513698630137, 125.0]
    assert _by_basis(*args, False) == [125.0, 125.68681318681318, 127.08333333333333, 125.34246575342468, 125.0]


def test_accrint_month_ends_and_february() -> None:
    # first_interest a month end: every quasi-coupon date is a month end (28/29 February, 31 August)
    args = (_date(2022, 8, 31), _date(2024, 2, 29), _date(2023, 5, 1), 0.075, 100.0, 2.0)
    assert _by_basis(*args, True) == [5.020833333333334, 4.986263736263737, 4.958333333333333, 4.993150684931507,
                                      5.020833333333334]
    assert _by_basis(*args, False) == [-2.4791666666666665, -2.5137362637362637, -2.541666666666667,
                                       -2.5068493150684934, -2.4791666666666665]
    # US 30/360 counts 29 February as the 30th when it starts a period, European 30/360 does not
    args = (_date(2020, 2, 29), _date(2020, 8, 31), _date(2020, 5, 1), 0.05, 1000.0, 2.0)
    assert _by_basis(*args, True) == [8.472222222222223, 8.423913043478262, 8.61111111111111, 8.493150684931507,
                                      8.61111111111111]
    args = (_date(2020, 10, 31), _date(2021, 7, 31), _date(2021, 2, 15), 0.025, 5000.0, 4.0)
    assert _by_basis(*args, True) == [36.45833333333333, 37.36413043478261, 36.80555555555556, 37.157534246575345,
                                      36.45833333333333]
    assert _by_basis(*args, False) == [-26.041666666666668, -25.13586956521739, -25.694444444444443,
                                       -25.34246575342466, -26.041666666666668]


def test_accrint_over_years_and_truncated_arguments() -> None:
    issue, first, settlement = _date(2020, 2, 3), _date(2023, 12, 1), _date(2023, 4, 12)
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 1.0, 1.0, True) == 3154.912643161913
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 1.0, 1.0, False) == 1174.9126431619134
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 2.0, 0.0, False) == 189.75
    # a frequency of 4.3 is 4, a basis of 2.7 is 2
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 4.3, 1.0, True) == 3152.225274725275
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 4.3, 1.0, False) == -312.77472527472526
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 4.0, 2.7, True) == 3148.7500000000005
    assert _accrint(issue, first, settlement, 0.33, 3000.0, 4.0, 2.7, False) == -316.25
    # a date's time of day is dropped
    assert _accrint(39508.75, 39691.5, 39569.25, 0.1, 1000.0, 2.0, 0.0) == 16.666666666666664


def test_accrint_errors() -> None:
    issue, first, settlement = _date(2008, 3, 1), _date(2008, 9, 1), _date(2008, 5, 1)
    for rate, par, frequency, basis in [(0.0, 1000.0, 2.0, 0.0), (-0.05, 1000.0, 2.0, 0.0), (0.1, 0.0, 2.0, 0.0),
                                        (0.1, -100.0, 2.0, 0.0), (0.1, 1000.0, 3.0, 0.0), (0.1, 1000.0, 5.0, 0.0),
                                        (0.1, 1000.0, 0.0, 0.0), (0.1, 1000.0, 2.0, -1.0), (0.1, 1000.0, 2.0, 5.0)]:
        assert _accrint(issue, first, settlement, rate, par, frequency, basis) == NUM
    # issue on or after settlement
    assert _accrint(_date(2008, 9, 1), _date(2009, 3, 1), settlement, 0.1, 1000.0, 2.0, 0.0) == NUM
    assert _accrint(settlement, first, settlement, 0.1, 1000.0, 2.0, 0.0) == NUM
    assert _accrint(issue, first, 2958466.0, 0.1, 1000.0, 2.0, 0.0) == NUM  # after 31 December 9999
    assert _accrint("issue", first, settlement, 0.1, 1000.0, 2.0, 0.0) == VALUE


def test_accrint_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([datetime.datetime(2020, 2, 3), datetime.datetime(2023, 12, 1), datetime.datetime(2023, 4, 12), 0.33,
               3000, 4, 1, False])
    ws["A2"] = "=ACCRINT(A1,B1,C1,D1,E1,F1,G1,H1)"
    ws["B2"] = "=ACCRINT(A1,B1,C1,D1,E1,F1,G1)"
    ws["C2"] = "=ACCRINT(DATE(2017,1,1),DATE(2017,12,1),DATE(2017,4,1),0.33,3000,4,4,FALSE)"
    ws["D2"] = "=ACCRINT(39508,39691,39569,0.1,1000,2)"
    ws["E2"] = "=ACCRINT(DATE(2008,5,1),DATE(2008,9,1),DATE(2008,5,1),0.1,1000,2,0)"
    wb.save(tmp_path / "accrint.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "accrint.xlsx")).grid.sheet("Sheet")
    assert sheet.get(2, 1) == -312.77472527472526  # Excel's values (IronCalc's ACCRINT_extended book)
    assert sheet.get(2, 2) == 3152.225274725275
    assert sheet.get(2, 3) == -247.5
    assert sheet.get(2, 4) == 16.666666666666664
    assert sheet.get(2, 5) == NUM


# --- MIRR: the values Excel saved in IronCalc's FINANCIAL_MIRR workbook --------------------------

@pytest.mark.parametrize(("values", "finance_rate", "reinvest_rate", "expected"), [
    ([-120000, 39000, 30000, 21000, 37000, 46000], 0.1, 0.12, 0.1260941303659051),  # Microsoft's example
    ([-5, 2, 4], 0.2, 0.2, 0.13137084989847603),
    ([-5, 4], -1, 0.2, -0.19999999999999996),  # a finance rate of -1: the value at time 0 is not discounted
    ([-50, 25, 30], 12, -0.4, -0.05131670194948612),
    ([-30, -20, -10, 5, 5, 5], -0.999999, 2, -0.994211280608657),
    ([-6, -1, -2], 0.1, 0.2, -1.0),  # nothing positive
    ([5, 6, 6], 0.1, 0.2, "#DIV/0!"),  # nothing negative
    ([-50, 25, 30], 0.5, -12, "#NUM!"),  # the reinvested values' total is negative
    ([-25, 30, 20, 30, 20, 30], "=NA()", 2, "#N/A"),
    ([-20, "text", True, 5, 5, 5], 0.1, 0.2, -0.030947891656649906),  # text, TRUE left out (Microsoft's MIRR page)
])
def test_mirr_as_excel_saved_it(tmp_path: Path, values: list[Any], finance_rate: Any, reinvest_rate: Any,
                                expected: Any) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([*values, finance_rate, reinvest_rate])
    n = len(values)
    last = openpyxl.utils.get_column_letter(n)
    rates = openpyxl.utils.get_column_letter(n + 1), openpyxl.utils.get_column_letter(n + 2)
    ws["A2"] = f"=MIRR(A1:{last}1,{rates[0]}1,{rates[1]}1)"
    wb.save(tmp_path / "mirr.xlsx")
    got = evaluate_workbook(str(tmp_path / "mirr.xlsx")).grid.sheet("Sheet").get(2, 1)
    assert_excel_value(got, expected, rel=1e-12)


# --- IPMT: the values Excel saved in IronCalc's FINANCIAL_IPMT_PPMT workbook --------------------

@pytest.mark.parametrize(("formula", "expected"), [
    ("IPMT(0.1,3.9,3,8000,10,1)", -26.866364667656377),  # a fraction of a period past the last is allowed
    ("IPMT(0.01,1.0001,36,8000,0,1)", -79.2077378295619),
    ("IPMT(0.1,3,3,8000)", -292.44712990936563),
    ("IPMT(0.1,4,3,8000,10,1)", "#NUM!"),  # per >= nper + 1
    ("IPMT(0.1,3,2,8000)", "#NUM!"),
    ("IPMT(0.01,0.99999,36,8000)", "#NUM!"),  # per < 1
    ("IPMT(0.1,0,36,8000,0,1)", "#NUM!"),
    ("IPMT(0.1,-3,36,8000)", "#NUM!"),
])
def test_ipmt_periods_as_excel_saved_them(tmp_path: Path, formula: str, expected: Any) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=" + formula
    wb.save(tmp_path / "ipmt.xlsx")
    got = evaluate_workbook(str(tmp_path / "ipmt.xlsx")).grid.sheet("Sheet").get(1, 1)
    assert_excel_value(got, expected, rel=1e-12)


# --- XNPV: the values Excel saved in IronCalc's FINANCIAL_XNPV workbook -------------------------

@pytest.mark.parametrize(("values", "expected"), [
    ([-20, 5, 5, 5, 5, 5], 4.310013415970),  # row 2 at 10%
    ([20, 5, 5, None, 5, 5], "#NUM!"),  # an empty cell among the cash flows
    ([-70, 12, 15, "hello", 5, 5], "#NUM!"),
    ([-20, 8, 5, True, 6, 5], "#NUM!"),
    ([-20, 1, 1, "=1/0", 1, 1], "#DIV/0!"),
    ([-20, 5, 5, 5, 5], "#NUM!"),  # five cash flows, six dates
])
def test_xnpv_wants_a_number_for_every_date(tmp_path: Path, values: list[Any], expected: Any) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for col, value in enumerate(values, start=1):
        ws.cell(1, col, value)
    for col, serial in enumerate((44958, 44986, 45017, 45078, 45108, 45139), start=1):  # 2023-02-01 ... 08-01
        ws.cell(2, col, serial)
    ws["A3"] = "=XNPV(0.1,A1:F1,A2:F2)"
    wb.save(tmp_path / "xnpv.xlsx")
    got = evaluate_workbook(str(tmp_path / "xnpv.xlsx")).grid.sheet("Sheet").get(3, 1)
    assert_excel_value(got, expected, rel=1e-9)


# --- PV, FV, PMT, NPER, RATE, IRR: the values Excel saved in IronCalc's workbooks ----------------

def _one_cell(tmp_path: Path, formula: str, rows: list[list[Any]] | None = None) -> Any:
    wb = openpyxl.Workbook()
    for row in rows or []:
        wb.active.append(row)
    wb.active["Z1"] = "=" + formula
    wb.save(tmp_path / "tvm.xlsx")
    return evaluate_workbook(str(tmp_path / "tvm.xlsx")).grid.sheet("Sheet").get(1, 26)


@pytest.mark.parametrize(("formula", "expected"), [
    # any type other than 0 is a payment at the start of the period (FINANCIAL_PMT rows 32, 33, 35)
    ("PMT(0.2,3,-200,10,5)", 76.83150183150182),
    ("PMT(0.2,4,-200,10,-1)", 62.82911077993046),
    ("PMT(0.2,5,-200,10,1.234)", 54.6101196875224),
    ("PV(0.2,5,54.6101196875224,10,1.234)", -200.0),
    ("FV(0.2,5,54.6101196875224,-200,7)", 10.0),
    ("NPER(0.2,54.6101196875224,-200,10,-2)", 5.0),
    ('FV(1,2,3,4,"false")', "#VALUE!"),  # docs_FV: the type must be a number
    # PMT: #NUM! for a rate of -1 or below and for no periods
    ("PMT(-3,5,100,300,1)", "#NUM!"),
    ("PMT(-1,1,-100)", "#NUM!"),
    ("PMT(0.02,0,100,300,1)", "#NUM!"),
    ("PMT(0,0,-150,10,1)", "#NUM!"),
    ("PMT(-0.9,3,120,300,1)", -2703.783783783783),
    # PV and FV: Excel's arithmetic errors (docs_PV, docs_FV)
    ("PV(-1,20,300)", "#DIV/0!"),
    ("FV(-1,-1,1)", "#DIV/0!"),
    ("FV(-3,0.5,1)", "#NUM!"),
    ("PV(-3,0.5,1)", "#NUM!"),
    # NPER at rate 0 is -(pv + fv) / pmt; no number of periods: #NUM!
    ("NPER(0,3,100,23,1)", -41.0),
    ("NPER(0,-133.33333333333334,100,300,1)", 3.0),
    ("NPER(1,3,100,12,0)", "#NUM!"),
    ("NPER(-0.9,3,120,12,1)", "#NUM!"),
    ("NPER(0.02,0,100,5,1)", "#NUM!"),
    ("NPER(-3,5,100,10,1)", "#NUM!"),
    # RATE: Newton's method settled, to the root; #NUM! when it does not settle, or below -1
    ("RATE(48,-200,8000,1000,1)", 0.0035499220754319927),
    ("RATE(2,-200,8000,0,1)", -0.9743589743570107),
    ("RATE(300,-200,8000,0,1)", 0.025627751816686105),
    ("RATE(3300,-200,8000,0,1)", "#NUM!"),
    ("RATE(10,-1200,2000,0,1)", "#NUM!"),
    ("RATE(10,-1200,2000)", "#NUM!"),
])
def test_time_value_of_money_as_excel_saved_it(tmp_path: Path, formula: str, expected: Any) -> None:
    assert_excel_value(_one_cell(tmp_path, formula), expected, rel=1e-9)


@pytest.mark.parametrize(("row", "guess", "expected"), [
    ([-20, 5, 5, None, None, 7], None, -0.0730084383401457),  # blanks are left out, not 0s
    ([-20, 5, 5, None, -10, 5], None, -0.44892834955312866),
    ([-20, 5, "Hello", True, False, 5], None, -0.3596117967977913),
    ([-1000, 230, 200, 125, 200, 10], -10, "#VALUE!"),  # a guess of -1 or below
    ([-20, 5, 5, None, -10, 5], -1, "#VALUE!"),
    ([20, -5, -20, -5, -10, 5], "Hello", "#VALUE!"),
    ([-55, 10, 5, 5, 5, 5], -0.9, -0.18845644425120334),
    ([-70, 12, 15, None, None, None], True, -0.4435069413349362),
    ([20, 5, 5, 5, 5, 5], None, "#NUM!"),
    ([True, -1, None, None, None, None], None, "#NUM!"),  # one number left
    ([1, 2, None, None, None, None], None, "#NUM!"),  # the rate would be -3
])
def test_irr_reads_the_numbers_and_its_guess_as_excel_does(tmp_path: Path, row: list[Any], guess: Any,
                                                           expected: Any) -> None:
    formula = "IRR(A1:F1)" if guess is None else "IRR(A1:F1,G1)"
    assert_excel_value(_one_cell(tmp_path, formula, [[*row, guess]]), expected, rel=1e-9)


@pytest.mark.parametrize(("formula", "expected"), [
    # IronCalc's FINANCIAL_DB_DDB workbook: nothing to depreciate is 0, not #NUM!
    ("DB(0,10,4,1,2)", 0.0),
    ("DB(FALSE,10,4,1,2)", 0.0),
    ("DDB(0,10,4,1,2)", 0.0),
    ("DDB(23.89,34.78,4,3,2)", 0.0),  # a salvage above the cost
    ("DDB(TRUE,10,4,1,2)", 0.0),
    ("DB(TRUE,10,4,1,2)", -0.12966666666666665),  # DB goes on below the salvage
    ("DDB(100,10,4,3,2)", 12.5),
    ("DDB(-120,10,4,1,2)", "#NUM!"),
    ("DB(-3,10,4,2,2)", "#NUM!"),
    ("DDB(12,10,4,4.5,2)", "#NUM!"),  # a period past the life
    ("DDB(100,10,4,3,0)", "#NUM!"),
])
def test_db_and_ddb_as_excel_saved_them(tmp_path: Path, formula: str, expected: Any) -> None:
    assert_excel_value(_one_cell(tmp_path, formula), expected, rel=1e-12)


# XIRR: IronCalc's XIRR workbook (dates 1 Jan 2024, 1 Feb, 2 Mar, 4 Apr, 5 May 2025, 6 Jun 2026) and
# formulas' test workbook (dates 1, 99, 55, 4, 9). Excel stops within 1e-8 of the root: rel=1e-7.
XIRR_DATES = [45292, 45323, 45353, 45386, 45782, 46179]


@pytest.mark.parametrize(("flows", "dates", "guess", "expected"), [
    ([-20, 5, 5, 7, -10, 5], XIRR_DATES, None, -0.48679569587111476),  # formulas: -0.9999999
    ([-900, 10, 12, 13, 40, 100], XIRR_DATES, None, -0.5608382768929006),
    ([-400, 1, 1, 1, 1, 1], XIRR_DATES, None, -0.9121843662112951),
    ([-20, 5, 5, None, None, 5], XIRR_DATES, None, -0.2371315099298954),  # empty values are 0
    ([-20, 5, 5, 0, 0, 5], XIRR_DATES, None, -0.2371315099298954),
    ([-70, 12, 15, "hello", 5, 5], XIRR_DATES, None, "#VALUE!"),
    ([-20, 8, 5, True, 6, 5], XIRR_DATES, None, "#VALUE!"),
    ([-20, 8, 8, 8, 8, 8], [-100, 1, 2, 3, 4, 5], None, "#NUM!"),
    ([-10, 1, 5, 0.0001, 4.5, None], [1, 99, 55, 4, 9, None], None, 0.5993197500705721),  # an empty pair
    ([-10, 1, 5, 0.0001, 4.5], [1, 99, 55, 4, 9], 0, 0.599319755859375),
    ([-10, 1, 5, 0.0001, 4.5], [1, 99, 55, 4, 9], -0.1, "#NUM!"),  # a guess below 0
    ([-10, 1, 5, 0.0001, 4.5], [1, 99, 55, 4, 9], True, "#VALUE!"),
    ([-10, 1, 5, 0.0001, 4.5], [1, 99, 55, 4, 9], "ciao", "#VALUE!"),
    ([-10, 1, 5, 0.0001, 4.5], [1, 99, 55, 4, 9], "26/08/1987", 0.5993197540431083),
])
def test_xirr_as_excel_saved_it(tmp_path: Path, flows: list[Any], dates: list[Any], guess: Any,
                                expected: Any) -> None:
    n = len(flows)
    last = openpyxl.utils.get_column_letter(n)
    formula = f"XIRR(A1:{last}1,A2:{last}2" + (")" if guess is None else ",A3)")
    assert_excel_value(_one_cell(tmp_path, formula, [flows, dates, [guess]]), expected, rel=1e-7)


def test_xirr_errors_come_guess_first_then_dates_then_values(tmp_path: Path) -> None:
    assert_excel_value(_one_cell(tmp_path, "XIRR({-10,#N/A,1,2,7},{3,#REF!,7,4,9})"), "#REF!")
    assert_excel_value(_one_cell(tmp_path, "XIRR({-10,#N/A,1,2,7},{3,#VALUE!,7,4,9},#REF!)"), "#REF!")


@pytest.mark.parametrize(("formula", "expected"), [
    ("IRR({-7,2,-1,4,-3;7,2,-1,4,#N/A})", "#VALUE!"),  # an error among the values, whichever
    ("IRR(A1:I1)", "#VALUE!"),
    ("IRR({-7,2,-1,4,-3;7,2,-1,4,4},A1:C1)", 0.19086464188385688),  # a range of guesses: its first, -0.1
    ("IRR(A1:C1,C1)", 19.0),
])
def test_irr_errors_and_ranges_of_guesses_as_excel_saved_them(tmp_path: Path, formula: str, expected: Any) -> None:
    rows = [[-0.1, 2, 0, 4, 5, "ciao", True, None, "=NA()"]]
    assert_excel_value(_one_cell(tmp_path, formula, rows), expected, rel=1e-9)


def test_a_text_argument_stops_a_numeric_function_before_a_later_error(tmp_path: Path) -> None:
    # formulas' test workbook: FV("ciao", -TRUE, #N/A) is #VALUE!, FV(TRUE, -#N/A, #VALUE!) #N/A
    assert_excel_value(_one_cell(tmp_path, 'FV("ciao",-1,NA())'), "#VALUE!")
    assert_excel_value(_one_cell(tmp_path, 'FV(TRUE,-NA(),"ciao")'), "#N/A")
