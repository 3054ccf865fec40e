"""Excel's date and time functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

A date typed as text (``YEAR("7/5/2008")``) is read as Excel reads it: only dates Excel can hold,
1 January 1900 to 31 December 9999, are dates; any other text is #VALUE! (Microsoft's DATEVALUE
page; the workbooks Excel saved show YEAR("7/5/1800") and YEAR("7/5/10000") as #VALUE!).
``formulas`` read any year.

TODAY() and NOW() read the clock of the conversion (:mod:`..read.clock`: the computer's, a moment
given with ``xlrating convert --now``, or the workbook's save time), computed when the formula runs,
never while it compiles (a compiled formula is remembered across workbooks). They return serials
of the 1900 date system, which :mod:`..evaluate.date_system` moves into a 1904 workbook's system as
it does every date result. DATEDIF reads its unit in any case ("d" as "D"), as Excel does.
"""

from __future__ import annotations

import calendar
import collections
import datetime
import functools
import math
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import COMPILING, wrap_func, wrap_impure_func, wrap_ufunc
from formulas.functions.date import _int2date, _text2datetime, xdate, xdatedif, xdatevalue, xday, xtimevalue
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted
from ..maths import plain_numbers
from ..read import clock
from ..read.date_system import offset
from .arguments import scalar, text_number

FIRST_YEAR, LAST_YEAR = 1900, 9999


def _readable_date(text: str) -> bool:
    try:
        year = _text2datetime(text)[0]
    except Exception:  # noqa: BLE001 - formulas' date parser raises several types for non-dates
        return False
    return FIRST_YEAR <= int(year) <= LAST_YEAR


def day_part(serial_number: Any, part: int) -> Any:
    """DAY, MONTH, YEAR (part 2, 1, 0) of a serial number, of text that reads as one ("600"), or of
    a date typed as text."""
    if isinstance(serial_number, str) and not _numeric_text(serial_number) and not _readable_date(serial_number):
        return Error.errors["#VALUE!"]
    return xday(serial_number, part)


def datevalue(date_text: Any) -> Any:
    """DATEVALUE(date_text): the serial number of a date written as text, 1900 to 9999."""
    if not isinstance(date_text, str) or not _readable_date(date_text):
        return Error.errors["#VALUE!"]
    return xdatevalue(date_text)


def _numeric_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def timevalue(time_text: Any) -> Any:
    """TIMEVALUE(time_text): the fraction of a day of a time written as text ("6:45 PM", "18:45").

    Only text is read (a number, even a time-formatted cell, or an empty cell is #VALUE!, as Excel
    saved them); text that is a number ("1.25") is no time, a date in it is ignored and must be one
    Excel can hold.
    """
    if (not isinstance(time_text, str) or isinstance(time_text, XlError) or time_text is sh.EMPTY
            or _numeric_text(time_text) or not _readable_date(time_text)):
        return Error.errors["#VALUE!"]
    return xtimevalue(time_text)


LAST_SERIAL = 2958465  # 31 December 9999


class _Invalid(Exception):
    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = Error.errors[error]


def _number(value: Any) -> float:
    """A numeric argument: a number, a number typed as text; an error stays itself, anything else #VALUE!."""
    if isinstance(value, XlError):
        raise _Invalid(str(value))
    if value is sh.EMPTY or value is None:
        return 0.0
    if isinstance(value, bool):
        raise _Invalid("#VALUE!")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise _Invalid("#VALUE!") from None


def _serial(value: Any) -> int:
    """A date argument as a whole serial number: a number (its time dropped) or a date typed as text."""
    if isinstance(value, str) and not isinstance(value, XlError):
        if _readable_date(value):
            return int(xdatevalue(value))
        try:
            number = float(value)
        except ValueError:
            raise _Invalid("#VALUE!") from None
    else:
        number = _number(value)
    serial = math.floor(number)
    if not 0 <= serial <= LAST_SERIAL:
        raise _Invalid("#NUM!")
    return serial


def _leap(year: int) -> bool:
    """Leap years of Excel's calendar, in which 29 February 1900 exists (serial 60)."""
    return year == 1900 or calendar.isleap(year)


def _last_of_february(year: int, month: int, day: int) -> bool:
    return month == 2 and day == (29 if _leap(year) else 28)


def us_30_360(start: tuple[int, int, int], end: tuple[int, int, int]) -> int:
    """Days between two dates by the US (NASD) 30/360 convention as YEARFRAC's basis 0 counts them
    (the last day of February as a start is the 30th; as an end too when the start is one; the 31st
    as an end is the 30th when the start is the 30th or 31st). ACCRINT's basis 0 counts the same."""
    (y1, m1, d1), (y2, m2, d2) = start, end
    if _last_of_february(y1, m1, d1):
        if _last_of_february(y2, m2, d2):
            d2 = 30
        d1 = 30
    elif d1 == 31:
        d1 = 30
    if d2 == 31 and d1 == 30:
        d2 = 30
    return 360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1)


def european_30_360(start: tuple[int, int, int], end: tuple[int, int, int]) -> int:
    """Days between two dates by the European 30/360 convention: a 31st is the 30th."""
    (y1, m1, d1), (y2, m2, d2) = start, end
    return 360 * (y2 - y1) + 30 * (m2 - m1) + (min(d2, 30) - min(d1, 30))


def _actual_actual(first: int, last: int) -> float:
    """Basis 1: the days between the dates over the length of the year(s) they span."""
    if first == last:
        return 0.0
    (y1, m1, d1), (y2, m2, d2) = _int2date(first), _int2date(last)
    if y1 == y2 or (y2 == y1 + 1 and (m1, d1) >= (m2, d2)):  # at most one year apart
        if y1 == y2:
            year_length = 366 if _leap(y1) else 365
        else:  # 366 when a 29 February lies between them, the dates included
            year_length = 366 if any(
                _leap(year) and first <= xdate(year, 2, 29) <= last for year in (y1, y2)
            ) else 365
        return (last - first) / year_length
    # several years: the average length of the years spanned, first and last included, in the real
    # calendar (1900 has 365 days here: Excel saved YEARFRAC(345, 1987, 1) as 1642 / 365.1667)
    spanned = (datetime.date(y2 + 1, 1, 1) - datetime.date(y1, 1, 1)).days
    return (last - first) / (spanned / (y2 - y1 + 1))


def yearfrac(start_date: Any, end_date: Any, basis: Any = 0) -> Any:
    """YEARFRAC(start_date, end_date, [basis]): the fraction of a year between two dates.

    The basis is read first: text or a logical value is #VALUE!, a number outside 0-4 #NUM!
    (the workbooks Excel saved give these even when a date is an error); then the dates, whose
    errors propagate and which must lie in Excel's range (0 to 31 December 9999) or #NUM!.
    """
    try:
        if isinstance(basis, str) and not isinstance(basis, XlError):
            try:
                basis = float(basis)
            except ValueError:
                return Error.errors["#VALUE!"]
        basis_number = math.floor(_number(basis))
        if basis_number not in (0, 1, 2, 3, 4):
            return Error.errors["#NUM!"]
        first, last = sorted((_serial(start_date), _serial(end_date)))
    except _Invalid as invalid:
        return invalid.error
    if basis_number == 1:
        return _actual_actual(first, last)
    if basis_number == 2:
        return (last - first) / 360
    if basis_number == 3:
        return (last - first) / 365
    start, end = _int2date(first), _int2date(last)
    if basis_number == 0:
        return us_30_360(start, end) / 360
    return european_30_360(start, end) / 360


def _date(year: int, month: int, day: int) -> Any:
    found = plain_numbers.date(year, month, day)
    return Error.errors[found] if isinstance(found, str) else found


def today() -> int:
    """TODAY(): the serial number of the clock's day."""
    return math.floor(clock.serial(clock.current()))


def now() -> float:
    """NOW(): the serial number of the clock's day and time (the time of day its fraction)."""
    return clock.serial(clock.current())


def _volatile(function: Any) -> dict[str, Any]:
    """A function of the clock, registered as ``formulas`` registers its impure functions: computed
    when the formula runs, never folded into the formula while it compiles."""
    return {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
            "function": wrap_impure_func(wrap_func(function))}


def datedif(start_date: Any, end_date: Any, unit: Any) -> Any:
    """DATEDIF(start_date, end_date, unit): whole days ("D"), months ("M"), years ("Y") or the
    remainders ("MD", "YM", "YD") between two dates; the unit in any case."""
    return xdatedif(start_date, end_date, unit.upper() if isinstance(unit, str) else unit)


# --- WORKDAY, WORKDAY.INTL -------------------------------------------------------------------------
# (Microsoft, "WORKDAY function", "WORKDAY.INTL function".) The date ``days`` working days after
# (before, when negative) start_date, start_date itself not counted: a start on a weekend or a
# holiday counts from there (WORKDAY of a Saturday and 1 is the Monday, and -1 the Friday); 0 days
# is start_date as it is. days is truncated. The weekend of WORKDAY.INTL is a number (1-7: two days,
# Saturday-Sunday to Friday-Saturday; 11-17: one day, Sunday to Saturday) or seven 0/1 characters
# from Monday (1: a weekend day); left out (``WORKDAY.INTL(A1,5,,H1:H9)``) it is Saturday-Sunday.
# Another number is #NUM!, other text (a week of weekend days among it) #VALUE!. Excel's days run
# on from serial 1, a Sunday, through its 29 February 1900: a serial's weekday is the serial
# modulo 7. ``formulas`` refused a start on a weekend (#VALUE!) and a weekend left out (#NUM!).

_WEEKENDS: dict[int, frozenset[int]] = {  # weekday 0 is Monday
    **{n: frozenset({(n + 4) % 7, (n + 5) % 7}) for n in range(1, 8)},
    **{n: frozenset({(n - 5) % 7}) for n in range(11, 18)},
}
_NO_DATE = 3_000_000  # more working days than the calendar of Excel holds


def _weekday(serial: int) -> int:
    """Monday 0 to Sunday 6 of an Excel serial (serial 1, 1 January 1900, is Excel's Sunday)."""
    return (serial + 5) % 7


def _weekend(weekend: Any) -> frozenset[int]:
    if is_omitted(weekend):
        return _WEEKENDS[1]
    weekend = scalar(weekend)
    if isinstance(weekend, XlError):
        raise _Invalid(str(weekend))
    if isinstance(weekend, str) and weekend is not sh.EMPTY:
        if len(weekend) != 7 or set(weekend) - {"0", "1"} or weekend == "1111111":
            raise _Invalid("#VALUE!")
        return frozenset(day for day, mark in enumerate(weekend) if mark == "1")
    found = _WEEKENDS.get(math.trunc(_number(weekend)))
    if found is None:
        raise _Invalid("#NUM!")
    return found


def _holidays(holidays: Any, error_as_num: bool) -> frozenset[int]:
    days = set()
    for value in np.asarray(holidays if holidays is not None else (), dtype=object).ravel().tolist():
        value = scalar(value)
        if value is sh.EMPTY or value is None or is_omitted(value):
            continue
        if isinstance(value, XlError):
            raise _Invalid("#NUM!" if error_as_num else str(value))
        if isinstance(value, (bool, np.bool_)):
            raise _Invalid("#VALUE!")
        days.add(_serial(value))
    return frozenset(days)


def workday(start_date: Any, days: Any, weekend: Any = None, holidays: Any = None, intl: bool = True) -> Any:
    """WORKDAY(start_date, days, [holidays]) and WORKDAY.INTL(start_date, days, [weekend], [holidays])."""
    try:
        start = _serial(scalar(start_date))
        count = math.trunc(_number(scalar(days)))
        off = _weekend(weekend) if intl else _WEEKENDS[1]
        closed = _holidays(holidays, error_as_num=intl)
    except _Invalid as invalid:
        return invalid.error
    if count == 0:
        return float(start)
    if abs(count) > _NO_DATE:
        return Error.errors["#NUM!"]
    step = 1 if count > 0 else -1
    per_week = 7 - len(off)
    current, remaining = start, abs(count)
    weeks = (remaining - 1) // per_week  # whole weeks first, then the holidays in them day by day
    if weeks:
        span = range(current + step, current + step * (7 * weeks + 1), step)
        current += step * 7 * weeks
        remaining -= weeks * per_week - sum(1 for day in closed if day in span and _weekday(day) not in off)
    while remaining > 0:
        current += step
        if _weekday(current) not in off and current not in closed:
            remaining -= 1
        if not 0 <= current <= LAST_SERIAL:
            return Error.errors["#NUM!"]
    return float(current) if 0 <= current <= LAST_SERIAL else Error.errors["#NUM!"]


def _workday_function(intl: bool) -> Any:
    def call(*args: Any) -> Any:
        if intl:
            return workday(*args)
        start_date, days, *rest = args
        return workday(start_date, days, None, rest[0] if rest else None, intl=False)

    holidays_at = 3 if intl else 2

    def arguments(*args: Any) -> tuple[Any, ...]:  # the holidays passed whole, the rest entry by entry
        return tuple(a if i == holidays_at else (a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object))
                     for i, a in enumerate(args))

    call.__name__ = "workday_intl" if intl else "workday"
    return wrap_ufunc(call, input_parser=lambda *a: a, check_error=lambda *a: None, args_parser=arguments,
                      excluded={holidays_at})


def _date_text(value: Any) -> Any:
    """A date argument typed as text as its serial in the 1900 date system the date functions compute
    in (:mod:`..evaluate.date_system` moves only numbers): a text Excel reads as a number (a date,
    "2024-01-15"), the days of a 1904 workbook added; ValueError (the function's #VALUE!) for a
    text Excel reads no number in ("1_000", which ``formulas`` would read as 1000); any other value
    as it is."""
    if isinstance(value, str) and not isinstance(value, sh.Token):
        number = text_number(value)
        if number is None:
            raise ValueError(f"{value!r} is no date")
        return number + offset()
    return value


def _date_number(value: Any) -> float:
    """An argument of DATE as a number: text as Excel reads it (:func:`.arguments.text_number`;
    ValueError, the function's #VALUE!, for text that is none: "1_000"), anything else as ``float``."""
    if isinstance(value, str):
        number = text_number(value)
        if number is None:
            raise ValueError(f"{value!r} is no number")
        return number
    return float(value)


FUNCTIONS: dict[str, Any] = {
    "TODAY": _volatile(today),
    "NOW": _volatile(now),
    # text dates read as Excel reads them, in the 1900 system the function computes in
    "DATEDIF": wrap_ufunc(datedif, input_parser=lambda *a: (_date_text(a[0]), _date_text(a[1]), a[2])),
    # arguments read as numbers (text as Excel reads it: "2024", "$2,024"; TRUE as 1), then Excel's rules
    "DATE": wrap_ufunc(_date, input_parser=lambda *a: (math.floor(_date_number(v)) for v in a)),
    "DAY": wrap_ufunc(functools.partial(day_part, part=2), input_parser=lambda *a: a),
    "MONTH": wrap_ufunc(functools.partial(day_part, part=1), input_parser=lambda *a: a),
    "YEAR": wrap_ufunc(functools.partial(day_part, part=0), input_parser=lambda *a: a),
    "DATEVALUE": wrap_ufunc(datevalue, input_parser=lambda *a: a),
    "TIMEVALUE": wrap_ufunc(timevalue, input_parser=lambda *a: a, args_parser=lambda *a: a),
    # empty cells read as 0 (wrap_ufunc's default args_parser); errors are ranked by yearfrac itself
    "YEARFRAC": wrap_ufunc(yearfrac, input_parser=lambda *a: a, check_error=lambda *a: None),
    "WORKDAY": _workday_function(intl=False),
    "WORKDAY.INTL": _workday_function(intl=True),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "DATE": {"elementwise": 3, "scalars": "all"},
    "DATEDIF": {"pure": True, "scalars": "all"},
    "DATEVALUE": {"pure": True, "scalars": "all"},
    "DAY": {"elementwise": 1, "scalars": "all"},
    "MONTH": {"elementwise": 1, "scalars": "all"},
    "NOW": {},
    "TIMEVALUE": {"pure": True, "scalars": "all"},
    "TODAY": {},
    "WORKDAY": {"toolpak": (0, 1)},
    "WORKDAY.INTL": {"scalars": (0, 1, 2)},
    "YEAR": {"elementwise": 1, "scalars": "all"},
    "YEARFRAC": {"toolpak": "all", "pure": True},
}
