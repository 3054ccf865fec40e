"""Excel's financial functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

VDB (Microsoft, "VDB function"): the depreciation of an asset between two points of its life, by
declining balance at ``factor`` / ``life`` per period (DDB's rule: never below ``salvage``), switching
to straight line over the remaining life once that depreciates more, unless ``no_switch``; fractions
of a period depreciate pro rata. Where the periods fall matters: when ``start_period`` is
fractional, Excel's periods start at its fraction (0, 0.5, 1.5, 2.5 ... for a start of 3.5), so
VDB(1, 0, 14, 3.5, 4.5, 1.25) is the straight line of the book value at 3.5 over the 10.5 periods
left (0.0687263), not the mean of the 4th and 5th whole periods (0.0686679). These are the values
Excel saved in xlcalculator's VDB test workbook.

``formulas`` 1.3 failed there: #VALUE! for the last periods (VDB(575000, 5000, 10, 9, 10, 1.5)), the
whole-period schedule for fractional starts, and no #NUM! for an end period after the life.

ACCRINT (Microsoft, "ACCRINT function"): par x rate / frequency x the sum, over the quasi-coupon
periods, of the days accrued in a period over its normal length. Excel lays the quasi-coupon dates
at first_interest plus or minus whole periods (see :func:`_accrint` for the rules), and its
calc_method FALSE is not the documented "from first_interest to settlement": it drops the whole
quasi-periods between issue and the quasi-coupon date before first_interest from the TRUE sum, so
a settlement before that date accrues a negative amount (ACCRINT(DATE(2017,1,1), DATE(2017,12,1),
DATE(2017,4,1), 0.33, 3000, 4, 4, FALSE) is -247.5). These rules reproduce, bit for bit, the 576
values Excel saved in IronCalc's four ACCRINT test workbooks (every basis, calc_method both ways,
settlement before, on and after first_interest, month ends and 29 February), and their #NUM!s.

``formulas`` 1.3 missed 226 of them: calc_method FALSE, actual/actual periods, a settlement on a
coupon date after first_interest, the 30/360 month ends.

MIRR (Microsoft, "MIRR function"): ``(-FV(positive values, reinvest_rate) / PV(negative values,
finance_rate)) ^ (1 / (n - 1)) - 1`` over the n numbers of ``values``, the first at time 0: a
negative value at time 0 is not discounted, so finance_rate -1 still gives a result; without a
positive value MIRR is -1; without a negative one #DIV/0!; a negative ratio (a reinvest rate below
-1) #NUM!. These are the values Excel saved in IronCalc's MIRR workbook; ``formulas`` (through
numpy-financial) gave #DIV/0! for the first two and a number for the last.

PV, FV, PMT, NPER and RATE (Microsoft, "PV function" and the others) solve one equation, ``pv *
(1 + rate)^nper + pmt * (1 + rate * type) * ((1 + rate)^nper - 1) / rate + fv = 0`` (``pv + pmt *
nper + fv = 0`` at rate 0), for the argument each leaves out. Any type other than 0 is 1 (5, -1 and
1.234 are payments at the start of the period, as Excel saved them in IronCalc's PMT workbook); a
text that is no number is #VALUE! (FV(1,2,3,4,"false")). Where the equation has no value Excel
answers as its arithmetic would: a negative 1 + rate to a fractional power #NUM! (FV(-3,0.5,1)),
a division by (1 + rate)^nper = 0 #DIV/0! (PV(-1,20,300), FV(-1,-1,1)). PMT is #NUM! for a rate of
-1 or below and for 0 periods (whatever the rate); NPER for a rate of -1 or below, and where the
logarithm it takes is of a number not above 0 (no number of periods settles the loan), and at rate
0 is ``-(pv + fv) / pmt`` (``formulas`` 1.3 answered 1.5 for NPER(0,-133.33,100,300,1), Excel 3).
RATE is Newton's method from ``guess`` (0.1 when omitted), #NUM! when it has not settled to 1e-7
within 100 iterations or settles at a rate of -1 or below (RATE(10,-1200,2000) runs down to -1.868,
which Excel answers with #NUM!); once settled, it is refined to the root itself, which is within
1e-11 of the values Excel saved. Microsoft writes of 20 iterations, but Excel solves
RATE(300,-200,8000,0,1), 27 Newton steps from 0.1, and not RATE(3300,-200,8000,0,1), 239 steps:
100 lies between (``formulas``' numpy-financial stopped at 1e-6 and iterated 1000 times, so the
latter was a number).

XIRR (Microsoft, "XIRR function") finds the rate at which the cash flows, discounted by (1 + rate)
to the power of (date - first date) / 365, sum to 0: Newton's method from ``guess`` (0.1 when
omitted), a step that would leave the rates above -1 halved until it does not, settled when a step
is below 1e-12 of the rate and the sum is then within 1e-9 of the flows' total size; #NUM! when it
does not settle within 100 steps. As Excel saved them in IronCalc's XIRR workbook and ``formulas``'
test workbook: an empty cell among the values is 0 (-20, 5, 5, blank, blank, 5 is -20, 5, 5, 0, 0,
5), and a pair of empty value and empty date is left out; a text that is no number or a TRUE/FALSE
among values or dates is #VALUE!; dates are truncated to days, and a date before the first one or
before 0, values and dates of different counts, or no positive or no negative value are #NUM!; a
guess below 0 is #NUM!, TRUE or a text that is no number #VALUE!, an empty cell 0; the first error is
the guess's, then the dates', then the values'. Excel stops earlier than the root (its
values lie within 1e-8 of it: "accurate within 0.000001 percent"); ``formulas`` 1.3 stopped at 1e-7
and, where a step left the rates above -1, answered -0.9999999 (-0.4868, -0.5608 and -0.9122 in
IronCalc's XIRR workbook).

DB and DDB (Microsoft, "DB function", "DDB function") depreciate nothing from an asset that costs
nothing: DB and DDB of a cost of 0 are 0, and so is DDB of a salvage above the cost (the values Excel
saved in IronCalc's DB_DDB workbook; ``formulas`` 1.3 answered #NUM!). A negative cost or salvage, a
life not above 0, a period outside the life and a factor not above 0 stay #NUM!.

IRR (Microsoft, "IRR function") reads the numbers of its values: empty cells, text and TRUE/FALSE in
a reference are left out, not read as 0 (IRR of -20, 5, 5, blank, blank, 7 is IRR(-20,5,5,7),
-0.073, as Excel saved it; ``formulas`` counted the blanks as 0s: -0.052). Of the rates that give a
net present value of 0 it answers the one nearest ``guess`` (0.1 when omitted), #NUM! when there is
none above -1; a guess of -1 or below, or a text, is #VALUE! (Excel's values in IronCalc's IRR
workbook); of a range of guesses, the first counts; an error among the values is #VALUE!.
"""

from __future__ import annotations

import calendar
import datetime
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import FoundError
from formulas.functions import Array, convert2float, raise_errors, wrap_func, wrap_ufunc
from formulas.functions.date import _int2date
from formulas.functions.financial import _npf, mirr_args_parser, xdb, xddb, xxnpv
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted
from .arguments import elementwise, number, scalar
from .date_time import european_30_360, us_30_360

_NUM: XlError = Error.errors["#NUM!"]
_VALUE: XlError = Error.errors["#VALUE!"]
_DIV0: XlError = Error.errors["#DIV/0!"]


# --- arguments ----------------------------------------------------------------------------------

# --- VDB ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _State:
    """Where a depreciation schedule stands: the book value at time ``at``, and the straight-line
    amount per period once the schedule has switched to it."""
    book: float
    at: float
    straight: float | None = None


@dataclass(frozen=True)
class _Asset:
    cost: float
    salvage: float
    life: float
    rate: float  # declining balance per period: factor / life
    switch: bool  # to straight line when it depreciates more (no_switch FALSE)

    def period(self, book: float, start: float) -> tuple[float, bool]:
        """The depreciation of a whole period from time ``start`` at book value ``book``, and whether
        it is the straight line (which then holds to the end of the life)."""
        declining = max(min(self.rate * book, book - self.salvage), 0.0)
        if self.switch and self.life > start:
            straight = (book - self.salvage) / (self.life - start)
            if straight > declining:
                return straight, True
        return declining, False

    def declining_run(self, book: float, start: float, end: float) -> int:
        """How many whole periods from ``start`` (before ``end``, all inside the life) depreciate by the
        plain declining balance: neither capped at the salvage nor overtaken by the straight line.
        Each condition, once met, stays met, so the count is found by bisection (a life of 10^9
        periods takes no 10^9 steps)."""
        if self.rate >= 1:  # the first period takes all down to the salvage
            return 0

        def plain(k: int) -> bool:
            at, value = start + k, book * (1.0 - self.rate) ** k
            return (at + 1 <= end and self.life - at >= 1 and self.rate * value <= value - self.salvage
                    and not (self.switch and value - self.salvage > self.rate * value * (self.life - at)))
        low, high = 0, max(int(end - start), 0)  # plain(high) is false: its period passes the end
        while low < high:
            middle = (low + high) // 2
            if plain(middle):
                low = middle + 1
            else:
                high = middle
        return low

    def declined(self, book: float, periods: int) -> float:
        """The depreciation of ``periods`` plain declining-balance periods from book value ``book``:
        book * (1 - (1 - rate)^periods), computed without cancellation."""
        if periods == 0:
            return 0.0
        return -book * math.expm1(periods * math.log1p(-self.rate))

    def first_fraction(self, offset: float) -> _State:
        """The state at ``offset``, after the fraction of the first period that puts the periods'
        starts at ``offset``, ``offset`` + 1, ..."""
        amount, switched = self.period(self.cost, 0.0)
        return _State(self.cost - amount * offset, offset, amount if switched else None)

    def advance(self, state: _State, end: float) -> tuple[_State, float]:
        """The state at ``end`` and the depreciation from ``state`` to it; a fraction of a period
        depreciates pro rata."""
        book, at, straight, spent = state.book, state.at, state.straight, 0.0
        while at < end and book > self.salvage:
            if straight is not None:
                amount = straight * (end - at)
                return _State(book - amount, end, straight), spent + amount
            run = self.declining_run(book, at, end)
            amount = self.declined(book, run)
            book, at, spent = book - amount, at + run, spent + amount
            if at >= end:
                break
            amount, switched = self.period(book, at)
            portion = min(1.0, end - at)
            book, at, spent = book - amount * portion, at + portion, spent + amount * portion
            straight = amount if switched else None
        return _State(book, max(at, end), straight), spent

    def depreciation(self, start: float, end: float) -> float:
        """The depreciation from ``start`` to ``end``: periods start at the fraction of ``start``."""
        offset = start - math.floor(start)
        state = self.first_fraction(offset) if offset > 0 else _State(self.cost, 0.0)
        state, _ = self.advance(state, start)
        return self.advance(state, end)[1]


def _vdb(cost: float, salvage: float, life: float, start_period: float, end_period: float,
         factor: float = 2.0, no_switch: float = 0.0) -> Any:
    """VDB: the depreciation from ``start_period`` to ``end_period`` (Microsoft, "VDB function").
    #NUM! for a negative cost, salvage, start or factor, a life not above 0, a start after the end
    or an end after the life."""
    if (min(cost, salvage, start_period, factor) < 0 or life <= 0 or start_period > end_period
            or end_period > life):
        return _NUM
    asset = _Asset(cost, salvage, life, factor / life, switch=not no_switch)
    return asset.depreciation(start_period, end_period)


# --- ACCRINT --------------------------------------------------------------------------------------

_LAST_SERIAL = 2958465  # 31 December 9999, the last date Excel holds
_Date = tuple[int, int, int]
_DAY_ZERO = datetime.date(1899, 12, 31).toordinal()  # serial 0, "0 January 1900"


def _days_in_month(year: int, month: int) -> int:
    """Days in a month of Excel's calendar, in which 29 February 1900 exists (serial 60)."""
    if month == 2 and year == 1900:
        return 29
    return calendar.monthrange(year, month)[1]


def _serial(date: _Date) -> int:
    """A date's serial number in Excel's calendar (its 29 February 1900 included); a day 0 or a year
    before 1900 (a quasi-coupon date before the first dates) counted on from the same calendar."""
    year, month, day = date
    serial = datetime.date(year, month, 1).toordinal() + day - 1 - _DAY_ZERO
    return serial + 1 if date >= (1900, 3, 1) else serial


def _month_end(date: _Date) -> bool:
    return date[2] == _days_in_month(date[0], date[1])


def _quasi_coupon(first: _Date, months: int, month_end: bool) -> _Date:
    """The quasi-coupon date ``months`` months from first_interest: its day of the month, or the last
    day of a shorter month; the last day of every month when first_interest is a month's last day.
    Each date is counted from first_interest, not from its neighbour, so a 30th does not wear down
    to the 28th after a February. The workbooks do not tell the two apart (no first_interest on a
    29th or 30th); counting from the anchor is how LibreOffice and Gnumeric, written to match
    Excel, lay out coupon dates from a maturity."""
    year, month = divmod(first[0] * 12 + first[1] - 1 + months, 12)
    last = _days_in_month(year, month + 1)
    return year, month + 1, last if month_end else min(first[2], last)


def _accrued_days(basis: int, start: _Date, end: _Date) -> int:
    """The days accrued from ``start`` to ``end`` (negative when ``end`` comes first): 30/360 for
    bases 0 (US, as YEARFRAC counts it) and 4 (European), the actual days for 1, 2 and 3. The
    workbooks pin basis 0's February start: DAYS360's rule, without it, misses 8 of Excel's values,
    the European count 8, adjusting the end whatever the start 6; no case has a February end after a
    February start."""
    if basis == 0:
        return us_30_360(start, end)
    if basis == 4:
        return european_30_360(start, end)
    return _serial(end) - _serial(start)


def _accrint(issue: float, first_interest: float, settlement: float, rate: float, par: float,
             frequency: float, basis: float = 0.0, calc_method: float = 1.0) -> Any:
    """ACCRINT (Microsoft, "ACCRINT function"), as the values Excel saved show it computes:

    * The dates, frequency and basis are truncated to integers (Microsoft; a frequency of 4.3 and
      a basis of 2.7 are 4 and 2 in the workbooks). #NUM! for a rate or par not above 0, a
      frequency other than 1, 2 or 4, a basis outside 0-4, an issue not before settlement
      (Microsoft; each one in the workbooks), and a date outside 0 to 31 December 9999 (as
      YEARFRAC's dates). first_interest may be before settlement, or even before issue.
    * The quasi-coupon dates are first_interest plus or minus whole periods (:func:`_quasi_coupon`).
      P is the last of them before settlement when settlement is after first_interest and
      calc_method is TRUE; otherwise the one a period before first_interest, whatever settlement
      is (so FALSE with settlement after first_interest accrues from the period before it: 1.5
      periods for issue 1 June 2021, first_interest 1 December 2021, settlement 1 March 2022).
    * The sum starts with the days from the later of issue and P to settlement (negative when
      settlement is before P) over the normal length of a period: 360 / frequency for the 30/360
      bases and actual/360, 365 / frequency for actual/365 (the lengths COUPDAYS gives: Microsoft's
      "normal length" of a quasi-coupon period), and for actual/actual the actual days of the
      quasi-period that ends at first_interest, even when settlement lies in a later one (issue
      1 June 2021, settlement 1 March 2022: 90/183 of a period past 1 December, not 90/182; the
      365-day year instead misses 35 of Excel's values).
    * Then each quasi-period from P back to issue adds 1 with calc_method TRUE and 0 with FALSE,
      but the period holding issue adds its days from issue to its end over its normal length
      (for actual/actual, its own actual days; actual/360 counting the period's actual days
      instead misses 26 of Excel's values). Where a 30/360 period is not 30 days a month (a 28
      February cut from a 30th), no workbook tells 360 / frequency from the period's own count.
    """
    dates = [math.trunc(issue), math.trunc(first_interest), math.trunc(settlement)]
    frequency, basis = math.trunc(frequency), math.trunc(basis)
    if (rate <= 0 or par <= 0 or frequency not in (1, 2, 4) or basis not in (0, 1, 2, 3, 4)
            or not all(0 <= date <= _LAST_SERIAL for date in dates) or dates[0] >= dates[2]):
        return _NUM
    issue_date, first, settle = (_int2date(date) for date in dates)
    months = 12 // frequency
    month_end = _month_end(first)
    index = -1  # P is the quasi-coupon date index x months from first_interest
    if calc_method and settle > first:
        index = ((settle[0] - first[0]) * 12 + settle[1] - first[1]) // months + 1
        while _quasi_coupon(first, index * months, month_end) >= settle:
            index -= 1
    start = _quasi_coupon(first, index * months, month_end)

    def length(period_start: _Date, period_end: _Date) -> float:
        if basis == 1:
            return float(_serial(period_end) - _serial(period_start))
        return (365 if basis == 3 else 360) / frequency

    # the multiplications and the order of the sum as Excel's: its values are matched bit for bit
    periods = _accrued_days(basis, max(issue_date, start), settle) / length(
        _quasi_coupon(first, -months, month_end), first)
    while start > issue_date:
        end = start
        index -= 1
        start = _quasi_coupon(first, index * months, month_end)
        if start >= issue_date:
            periods += 1 if calc_method else 0
        else:
            periods += _accrued_days(basis, issue_date, end) / length(start, end)
    return par * rate / frequency * periods


# --- IPMT ---------------------------------------------------------------------------------------------

def _ipmt(rate: float, per: float, nper: float, pv: float, fv: float = 0.0, type_: float = 0.0) -> Any:
    """IPMT: #NUM! for a period before the first or past the last (per < 1 or per >= nper + 1: 3.9
    of 3 periods is allowed, 4 is not), as PPMT and the values Excel saved in IronCalc's IPMT_PPMT
    workbook; otherwise ``formulas``' IPMT (numpy-financial's)."""
    if per < 1 or per >= nper + 1:
        return _NUM
    return _npf("ipmt", rate, per, nper, pv, fv, type_, freturn=lambda x: _NUM if x > 0 else x)



# --- PV, FV, PMT, NPER, RATE -------------------------------------------------------------------

def _growth(rate: float, nper: float) -> Any:
    """(1 + rate)^nper, or the error Excel's arithmetic gives for it: #DIV/0! for 0 to a negative
    power, #NUM! for a negative number to a fractional power or a result beyond a double."""
    base = 1.0 + rate
    if base == 0:
        return _DIV0 if nper < 0 else (1.0 if nper == 0 else 0.0)
    if base < 0 and nper != math.floor(nper):
        return _NUM
    try:
        result = math.pow(base, nper)
    except (OverflowError, ValueError):
        return _NUM
    return result if math.isfinite(result) else _NUM


def _annuity(rate: float, nper: float, type_: float) -> Any:
    """The factor of pmt in the equation: (1 + rate * type) * ((1 + rate)^nper - 1) / rate, and
    (1 + rate)^nper; rate is not 0."""
    grown = _growth(rate, nper)
    if isinstance(grown, XlError):
        return grown, grown
    return (1.0 + rate * (1.0 if type_ else 0.0)) * (grown - 1.0) / rate, grown


def _checked(value: float) -> Any:
    return value if math.isfinite(value) else _NUM


def _fv(rate: float, nper: float, pmt: float, pv: float = 0.0, type_: float = 0.0) -> Any:
    if rate == 0:
        return _checked(-(pv + pmt * nper))
    factor, grown = _annuity(rate, nper, type_)
    if isinstance(factor, XlError):
        return factor
    return _checked(-(pv * grown + pmt * factor))


def _pv(rate: float, nper: float, pmt: float, fv: float = 0.0, type_: float = 0.0) -> Any:
    if rate == 0:
        return _checked(-(fv + pmt * nper))
    factor, grown = _annuity(rate, nper, type_)
    if isinstance(factor, XlError):
        return factor
    if grown == 0:
        return _DIV0
    return _checked(-(fv + pmt * factor) / grown)


def _pmt(rate: float, nper: float, pv: float, fv: float = 0.0, type_: float = 0.0) -> Any:
    if nper == 0 or rate <= -1:
        return _NUM
    if rate == 0:
        return _checked(-(pv + fv) / nper)
    factor, grown = _annuity(rate, nper, type_)
    if isinstance(factor, XlError):
        return factor
    if factor == 0:
        return _NUM
    return _checked(-(fv + pv * grown) / factor)


def _nper(rate: float, pmt: float, pv: float, fv: float = 0.0, type_: float = 0.0) -> Any:
    if rate <= -1:
        return _NUM
    if rate == 0:
        return _NUM if pmt == 0 else _checked(-(pv + fv) / pmt)
    paid = pmt * (1.0 + rate * (1.0 if type_ else 0.0))
    owed = paid + pv * rate
    if owed == 0:
        return _DIV0
    ratio = (paid - fv * rate) / owed
    if not ratio > 0 or not math.isfinite(ratio):
        return _NUM
    return _checked(math.log(ratio) / math.log1p(rate))


def _equation(rate: float, nper: float, pmt: float, pv: float, fv: float, type_: float) -> tuple[float, float]:
    """The equation's left side at ``rate`` and its derivative in ``rate``."""
    start = 1.0 if type_ else 0.0
    if rate == 0:
        return pv + pmt * nper + fv, pv * nper + pmt * (nper * (nper - 1) / 2 + start * nper)
    grown = math.pow(1.0 + rate, nper)
    d_grown = nper * grown / (1.0 + rate)
    value = pv * grown + pmt * (1.0 + rate * start) * (grown - 1.0) / rate + fv
    slope = pv * d_grown + pmt * (start * (grown - 1.0) / rate
                                  + (1.0 + rate * start) * (d_grown * rate - (grown - 1.0)) / rate ** 2)
    return value, slope


def _newton(function: Callable[[float], tuple[float, float]], start: float, iterations: int = 20,
            tolerance: float = 1e-7) -> float | None:
    """Newton's method from ``start``: the root once a step is below ``tolerance`` within
    ``iterations`` steps, then refined to the root itself (a few more steps, until they no longer
    shrink); None when it does not settle or leaves the doubles."""
    x = start
    try:
        for _ in range(iterations):
            value, slope = function(x)
            if slope == 0 or not math.isfinite(value) or not math.isfinite(slope):
                return None
            step = value / slope
            x -= step
            if not math.isfinite(x) or x <= -1:
                return None
            if abs(step) < tolerance:
                break
        else:
            return None
        for _ in range(8):
            value, slope = function(x)
            if slope == 0 or not math.isfinite(value) or not math.isfinite(slope):
                break
            step = value / slope
            if not abs(step) > 1e-16 * max(abs(x), 1e-300) or x - step <= -1:
                break
            x -= step
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    return x


def _rate(nper: Any, pmt: Any, pv: Any, fv: Any = 0.0, type_: Any = 0.0, guess: Any = None) -> Any:
    values = [number(v) for v in (nper, pmt, pv, fv, type_)]
    start = 0.1 if guess is None or is_omitted(guess) else number(guess)
    if start is None or any(v is None for v in values):
        return _VALUE
    n, payment, present, future, when = values
    if not all(math.isfinite(v) for v in (n, payment, present, future, when, start)):
        return _NUM
    root = _newton(lambda r: _equation(r, n, payment, present, future, when), start, iterations=100)
    return _NUM if root is None or root <= -1 else root


# --- DB, DDB -----------------------------------------------------------------------------------

def _found(function: Callable[..., Any], *args: float) -> Any:
    try:
        return function(*args)
    except FoundError as error:
        return error.err


def _db(cost: float, salvage: float, life: float, period: float, month: float = 12.0) -> Any:
    if cost == 0 and salvage >= 0 and life > 0 and period > 0 and 0 < month < 13:
        return 0.0
    return _found(xdb, cost, salvage, life, period, month)


def _ddb(cost: float, salvage: float, life: float, period: float, factor: float = 2.0) -> Any:
    if min(cost, salvage) < 0 or life <= 0 or not 1 <= period <= life or factor <= 0:
        return _NUM
    if salvage >= cost:
        return 0.0
    return _found(xddb, cost, salvage, life, period, factor)


# --- XIRR ---------------------------------------------------------------------------------------

def _xirr(values: Any, dates: Any, guess: Any = None) -> Any:
    flows_in = [scalar(v) for v in np.asarray(values, dtype=object).ravel().tolist()]
    dates_in = [scalar(v) for v in np.asarray(dates, dtype=object).ravel().tolist()]
    if isinstance(guess, np.ndarray) and guess.size > 1:
        return _VALUE
    guess = scalar(guess)
    for value in [guess, *dates_in, *flows_in]:  # the guess's error first, then the dates', then the values'
        if isinstance(value, XlError):
            return value
    if len(flows_in) != len(dates_in):
        return _NUM
    flows: list[float] = []
    days: list[float] = []
    for flow, date in zip(flows_in, dates_in):
        if _blank(flow) and _blank(date):
            continue
        flow, day = (None if isinstance(v, (bool, np.bool_)) else number(v) for v in (flow, date))
        if flow is None or day is None:
            return _VALUE
        flows.append(flow)
        days.append(math.floor(day))
    start = 0.1 if guess is None or is_omitted(guess) else (
        None if isinstance(guess, (bool, np.bool_)) else number(guess))
    if start is None:
        return _VALUE
    if (not flows or min(days) < 0 or min(days) < days[0] or start < 0
            or not any(f > 0 for f in flows) or not any(f < 0 for f in flows)):
        return _NUM
    years = [(day - days[0]) / 365.0 for day in days]
    scale = math.fsum(abs(f) for f in flows)

    def npv(rate: float) -> tuple[float, float]:
        log = math.log1p(rate)
        value = math.fsum(f * math.exp(-t * log) for f, t in zip(flows, years))
        slope = math.fsum(-t * f * math.exp(-(t + 1) * log) for f, t in zip(flows, years))
        return value, slope

    rate = start
    try:
        for _ in range(100):
            value, slope = npv(rate)
            if slope == 0 or not math.isfinite(value) or not math.isfinite(slope):
                return _NUM
            step = value / slope
            while rate - step <= -1:
                step /= 2
            rate -= step
            if abs(step) <= 1e-12 * max(1.0, abs(rate)):
                return rate if abs(npv(rate)[0]) <= 1e-9 * scale else _NUM
    except (OverflowError, ValueError, ZeroDivisionError):
        return _NUM
    return _NUM


def _blank(value: Any) -> bool:
    return value is sh.EMPTY or value is None


def _xirr_function(values: Any, dates: Any, guess: Any = None) -> Any:
    return np.asarray([[_xirr(values, dates, guess)]], dtype=object).view(Array)


# --- IRR ----------------------------------------------------------------------------------------

def _irr_flows(values: Any) -> Any:
    """The numbers of IRR's values in order (empty cells, text and TRUE/FALSE left out); an error
    among them is #VALUE!, whichever it is (``formulas``' test workbook: IRR of a range or an array
    holding #N/A, #DIV/0!, #REF! ...)."""
    flows: list[float] = []
    for value in np.asarray(values, dtype=object).ravel().tolist():
        value = scalar(value)
        if isinstance(value, XlError):
            return _VALUE
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
            flows.append(float(value))
    return flows


def _irr(values: Any, guess: Any = None) -> Any:
    flows = _irr_flows(values)
    if isinstance(flows, XlError):
        return flows
    if isinstance(guess, np.ndarray) and guess.size > 1:  # a range: its first cell, as Excel's array result
        guess = guess.ravel()[0]
    guess = scalar(guess)
    if isinstance(guess, XlError):
        return guess
    start = 0.1 if guess is None or is_omitted(guess) else number(guess)
    if start is None or start <= -1:
        return _VALUE
    if not math.isfinite(start):
        return _NUM
    if len(flows) < 2 or all(f >= 0 for f in flows) or all(f <= 0 for f in flows):
        return _NUM
    # the net present value is a polynomial in x = 1 / (1 + rate): its positive real roots
    with np.errstate(all="ignore"):
        roots = np.roots(np.asarray(flows[::-1], dtype=float))
    rates = [1.0 / x.real - 1.0 for x in roots if x.imag == 0 and x.real > 0]
    if not rates:
        return _NUM
    chosen = min(rates, key=lambda r: abs(r - start))

    def npv(rate: float) -> tuple[float, float]:
        value = math.fsum(f / (1.0 + rate) ** i for i, f in enumerate(flows))
        slope = math.fsum(-i * f / (1.0 + rate) ** (i + 1) for i, f in enumerate(flows))
        return value, slope
    refined = _newton(npv, chosen, iterations=1, tolerance=math.inf)
    result = refined if refined is not None and abs(refined - chosen) < 1e-6 * max(1.0, abs(chosen)) else chosen
    return result if math.isfinite(result) and result > -1 else _NUM


def _irr_function(values: Any, guess: Any = None) -> Any:
    return np.asarray([[_irr(values, guess)]], dtype=object).view(Array)


# --- XNPV ---------------------------------------------------------------------------------------------

def _xnpv(rate: Any, values: Any, dates: Any) -> Any:
    """XNPV: the cash flows must all be numbers, one per date (Microsoft, "XNPV function"): the first
    error among the values is the result; an empty cell, text or TRUE/FALSE among them, or values and
    dates of different counts, #NUM!, as Excel saved them in IronCalc's XNPV and XIRR books
    (``formulas`` skipped them, or answered #VALUE!). Then ``formulas``' XNPV."""
    flows = np.asarray(values, dtype=object).ravel().tolist()
    for flow in flows:
        if isinstance(flow, XlError):
            return flow
    if len(flows) != np.asarray(dates, dtype=object).size:
        return _NUM
    if any(isinstance(flow, bool) or not isinstance(flow, (int, float)) for flow in flows):
        return _NUM
    return xxnpv(rate, values, dates)


# --- MIRR ---------------------------------------------------------------------------------------------

def _mirr(values: tuple[Any, ...], finance_rate: float, reinvest_rate: float) -> Any:
    raise_errors(finance_rate, reinvest_rate, values)
    numbers = [float(v) for v in values]
    last = len(numbers) - 1
    try:
        gained = math.fsum(v * (1 + reinvest_rate) ** (last - i) for i, v in enumerate(numbers) if v > 0)
        paid = math.fsum(v / (1 + finance_rate) ** i for i, v in enumerate(numbers) if v < 0)
        if paid == 0 or last < 1:
            return _DIV0
        ratio = -gained / paid
        return ratio ** (1 / last) - 1 if ratio >= 0 else _NUM
    except ZeroDivisionError:
        return _DIV0
    except OverflowError:
        return _NUM


FUNCTIONS: dict[str, Any] = {
    "PV": elementwise(_pv),
    "FV": elementwise(_fv),
    "PMT": elementwise(_pmt),
    "NPER": elementwise(_nper),
    "RATE": elementwise(_rate, numbers=False),
    "IRR": wrap_func(_irr_function),
    "XIRR": wrap_func(_xirr_function),
    "DB": elementwise(_db),
    "DDB": elementwise(_ddb),
    "XNPV": wrap_func(_xnpv),
    "IPMT": wrap_ufunc(_ipmt, input_parser=convert2float),
    # values read as formulas reads them (the numbers of the range, errors raised; text and TRUE/FALSE left out)
    "MIRR": wrap_ufunc(_mirr, args_parser=mirr_args_parser, check_error=lambda *a: None, excluded={0},
                       input_parser=lambda values, *rates: (values, *convert2float(*rates))),
    "VDB": elementwise(_vdb),
    "ACCRINT": elementwise(_accrint),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "ACCRINT": {"toolpak": "all"},
    "DB": {"scalars": "all"},
    "DDB": {"scalars": "all"},
    "FV": {"scalars": "all"},
    "IPMT": {"scalars": "all"},
    "IRR": {"one_value": True, "arrays": True},
    "MIRR": {"arrays": True},
    "NPER": {"scalars": "all"},
    "PMT": {"scalars": "all"},
    "PV": {"scalars": "all"},
    "RATE": {"scalars": "all"},
    "VDB": {"scalars": "all"},
    "XIRR": {"arrays": True},
    "XNPV": {"arrays": True},
}
