"""Calendar arithmetic for ageing results.

A result dated ``D`` is "over k years old" on ranking date ``T`` when ``T > D + k years``. Adding
years to 29 February lands on 28 February of a common year, as Excel's ``EDATE`` does.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from contextvars import ContextVar
from typing import Any

from xlrating.core.errors import AmbiguousDate, InvalidArgument

# Excel's 1900 date system: serial 1 is 1900-01-01 and serial 60 is the phantom 1900-02-29, so
# serials from 61 on are days since 1899-12-30.
_EXCEL_EPOCH = dt.date(1899, 12, 30)
# Excel's 1904 date system (a workbook may choose it; older Excel for the Mac did by default):
# serial 0 is 1904-01-01, the 1900 system's 1462.
OFFSET_1904 = 1462
# The date system serial numbers count in: 1900, or 1904 while the engine computes a workbook of
# that system (it sets and resets this around the workbook: xlrating/engine/read/date_system.py).
DATE_SYSTEM: ContextVar[int] = ContextVar("xlrating_date_system", default=1900)


def _offset() -> int:
    return OFFSET_1904 if DATE_SYSTEM.get() == 1904 else 0


def add_years(day: dt.date, years: int) -> dt.date:
    """``day`` moved by whole calendar years; 29 February becomes 28 February in common years."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February in a common year
        return day.replace(year=day.year + years, day=28)


def is_older_than(day: dt.date, years: int, as_of: dt.date) -> bool:
    """True when a result dated ``day`` is over ``years`` years old on ``as_of``."""
    return as_of > add_years(day, years)


def from_excel_serial(serial: float) -> dt.date:
    """The date of an Excel serial number (of :data:`DATE_SYSTEM`); the time of day is dropped."""
    whole_days = math.floor(serial) + _offset()
    if whole_days < 61:
        raise ValueError("Excel serials before 1900-03-01 are ambiguous")
    return _EXCEL_EPOCH + dt.timedelta(days=whole_days)


def to_excel_serial(day: dt.date) -> int:
    """The Excel serial number (of :data:`DATE_SYSTEM`) of a date from 1900-03-01 on."""
    return (day - _EXCEL_EPOCH).days - _offset()


_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_SLASHED = re.compile(r"(\d{1,2})([/-])(\d{1,2})\2(\d{4})")  # 01/02/2009, 01-02-2009
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
DATE_FORMS = "YYYY-MM-DD or DD.MM.YYYY"


def as_date(name: str, value: Any) -> dt.date:
    """Coerce a date argument: a ``date``/``datetime``, an ISO ``YYYY-MM-DD`` text, a European
    ``DD.MM.YYYY`` text, or an Excel serial number (what a date cell holds). Slashed dates are
    refused as ambiguous (:class:`AmbiguousDate`): ``03/06/2009`` is 3 June in Europe and March 6
    in the US."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        text = value.strip()
        dotted = _DOTTED.fullmatch(text)
        try:
            if dotted:
                day, month, year = (int(g) for g in dotted.groups())
                return dt.date(year, month, day)
            return dt.date.fromisoformat(text[:10]) if len(text) >= 10 else dt.date.fromisoformat(text)
        except ValueError:
            _refuse_slashed(name, value, text)
            raise InvalidArgument(name, f"a date ({DATE_FORMS})", value) from None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        try:
            return from_excel_serial(float(value))
        except (ValueError, OverflowError):
            raise InvalidArgument(name, "a date serial from 61 (1900-03-01) on", value, excel_error="#NUM!") from None
    raise InvalidArgument(name, "a date", value)


def _refuse_slashed(name: str, value: Any, text: str) -> None:
    """Raise :class:`AmbiguousDate` for a day/month or month/day ``text`` that is a real date at
    least one way round (one that is none is not a date at all)."""
    slashed = _SLASHED.fullmatch(text)
    if slashed is None:
        return
    first, second = (int(g) for g in slashed.group(1, 3))
    year = int(slashed.group(4))
    readings: list[dt.date] = []
    for day, month in ((first, second), (second, first)):
        try:
            reading = dt.date(year, month, day)
        except ValueError:
            continue
        if reading not in readings:
            readings.append(reading)
    if not readings:
        return
    if len(readings) == 2:
        could = f"its day and month could be either way round ({' or '.join(map(_spelled, readings))})"
    else:
        here = "both give" if first == second else "only"
        could = (f"the day and month of such a date could be either way round (here {here} "
                 f"{_spelled(readings[0])}{'' if first == second else ' is a date'})")
    why = f"{could}; write it as YYYY-MM-DD ({' or '.join(r.isoformat() for r in readings)}) or DD.MM.YYYY"
    raise AmbiguousDate(name, f"a date ({DATE_FORMS})", value, why=why, readings=tuple(readings)) from None


def _spelled(day: dt.date) -> str:
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
