"""Excel functions of plain numbers, free of ``formulas``: DATE, the parts of a date, MOD and INT.

The cell-by-cell path wraps them for ``formulas`` (:mod:`xlrating.engine.functions.date_time`,
:mod:`xlrating.engine.functions.math_trig`); the vectorised path calls them directly
(:mod:`xlrating.engine.evaluate.vector_builtins`), so a workbook of dates and whole numbers computes
without loading ``formulas``. A result is a float, or an error
code (``"#NUM!"``, ``"#DIV/0!"``).
"""

from __future__ import annotations

import datetime
import math

LAST_SERIAL = 2958465  # 31 December 9999
WHOLE = 2.0 ** 52  # from here on every double is a whole number
SERIAL_ZERO = datetime.date(1899, 12, 31).toordinal()  # serial 0, shown as 0 January 1900
MARCH_1900 = datetime.date(1900, 3, 1).toordinal()  # serial 61: Excel counts a 29 February 1900 (60)
DAYS_BEFORE_MONTH = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)


def _first_of_month(year: int, month: int) -> int:
    """The proleptic Gregorian ordinal of the first day of a month (any year, not only 1..9999)."""
    before = year - 1
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return (365 * before + before // 4 - before // 100 + before // 400 + DAYS_BEFORE_MONTH[month - 1]
            + (leap and month > 2) + 1)


def date(year: float, month: float, day: float) -> float | str:
    """DATE (Microsoft, "DATE function"): each argument rounded down; a year from 0 to 1899 is 1900
    more, below 0 or from 10000 on #NUM!; months past December or before January carry into the
    year, days past the month's end or before its start into the months, counted in Excel's serial
    numbers (in which 29 February 1900 exists: DATE(1900,3,0) is 60); a date before 0 January 1900
    or after 31 December 9999 is #NUM!."""
    y, m, d = math.floor(year), math.floor(month), math.floor(day)
    if not 0 <= y < 10000:
        return "#NUM!"
    if y < 1900:
        y += 1900
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    if not 0 < y <= 10000:
        return "#NUM!"
    first = _first_of_month(y, m)
    serial = first - SERIAL_ZERO + (first >= MARCH_1900) + d - 1
    return float(serial) if 0 <= serial <= LAST_SERIAL else "#NUM!"


def date_parts(serial: float) -> tuple[int, int, int] | None:
    """(year, month, day) of a serial number, its time dropped: 0 is 0 January 1900 and 60 the 29
    February 1900 Excel counts; None (#NUM!) before 0 or after 31 December 9999."""
    whole = math.floor(serial)
    if not 0 <= whole <= LAST_SERIAL:
        return None
    if whole == 0:
        return 1900, 1, 0
    if whole == 60:
        return 1900, 2, 29
    found = datetime.date.fromordinal(SERIAL_ZERO + whole - (whole > 60))
    return found.year, found.month, found.day


def mod(number: float, divisor: float) -> float | str:
    """MOD: the remainder of ``number / divisor``, with the divisor's sign; #DIV/0! for 0."""
    if divisor == 0:
        return "#DIV/0!"
    remainder = number % divisor
    return remainder if math.isfinite(remainder) else "#NUM!"


def integer(number: float) -> float:
    """INT (Microsoft, "INT function"): ``number`` rounded down to the nearest integer."""
    return float(math.floor(number)) if abs(number) < WHOLE else number
