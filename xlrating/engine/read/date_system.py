"""Which date system a workbook's serial numbers count in: 1900 (Excel's default) or 1904.

Microsoft's "Date systems in Excel": in the 1900 date system serial 1 is 1 January 1900 and Excel
counts a 29 February 1900 that never was (serial 60); in the 1904 date system, which older Excel for
the Mac used and any workbook may still choose (File > Options > Advanced, "Use 1904 date system"),
serial 0 is 1 January 1904, there is no phantom day, and the last date, 31 December 9999, is serial
2957003. The same day is 1462 more in the 1900 system than in the 1904 one (from 1 March 1900 on).
The workbook says which with ``<workbookPr date1904="1"/>`` in its workbook part
(ECMA-376 Part 1, 18.2.28; "true" is the same, the attribute missing means 1900).

The model sets ``DATE_SYSTEM`` (:mod:`xlrating.core.dates`'s, so that xlrating's own functions
read and write their dates, MERS' result dates and ``as_of``, in the workbook's system too) for the
workbook it computes, and resets it when done, so one workbook's system never reaches the next one
a batch converts (:func:`using`); the date functions read :func:`offset`: they compute in the 1900
system, the days moved by it (:mod:`xlrating.engine.evaluate.date_system`, TEXT's date codes in
:mod:`xlrating.engine.functions.format_dates`). A module of its own, importing nothing heavy.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

from xlrating.core.dates import DATE_SYSTEM, OFFSET_1904

SYSTEM_1900, SYSTEM_1904 = 1900, 1904
LAST_SERIAL = {SYSTEM_1900: 2958465, SYSTEM_1904: 2958465 - OFFSET_1904}  # 31 December 9999


def of_workbook(workbook: Any) -> int:
    """The date system a parsed workbook part (its root element) declares in ``<workbookPr>``."""
    for element in workbook:
        if isinstance(element.tag, str) and element.tag.rpartition("}")[2] == "workbookPr":
            flag = (element.get("date1904") or "").strip().lower()
            return SYSTEM_1904 if flag in ("1", "true") else SYSTEM_1900
    return SYSTEM_1900


def offset(system: int | None = None) -> int:
    """Days to add to a serial of ``system`` (default: the workbook being computed) to have the
    1900 system's serial of the same day: 0 or 1462."""
    return OFFSET_1904 if (DATE_SYSTEM.get() if system is None else system) == SYSTEM_1904 else 0


@contextlib.contextmanager
def using(system: int) -> Iterator[None]:
    """The date functions compute in ``system`` inside the block, and in what they did before after."""
    token = DATE_SYSTEM.set(system)
    try:
        yield
    finally:
        DATE_SYSTEM.reset(token)


# ECMA-376 Part 1, 18.17.4: a date, a time, or both, in the ISO 8601 form a cell of type "d" holds
_ISO = re.compile(r"(?:(\d{4})-(\d{2})-(\d{2}))?(?:(?<=\d)T|^T?)?(?:(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?Z?")
_MARCH_1900 = dt.date(1900, 3, 1)


def iso_serial(text: str, system: int) -> float:
    """The serial number, in the date ``system``, of an ISO 8601 date and time (``2011-07-05``,
    ``2011-07-05T13:45:30``, ``13:45:30``); ValueError for any other text or a date the system
    cannot hold (before its first day, after 31 December 9999)."""
    written = text.strip()
    match = _ISO.fullmatch(written)
    if not written or match is None or not any(match.groups()):
        raise ValueError(f"{text!r} is not an ISO 8601 date")
    year, month, day, hour, minute, second = match.groups()
    serial = 0.0
    if year is not None:
        day_of = dt.date(int(year), int(month), int(day))
        # the 1900 system counts a 29 February 1900: from 1 March 1900 on, days since 30 December 1899
        serial = float((day_of - dt.date(1899, 12, 30 if day_of >= _MARCH_1900 else 31)).days - offset(system))
    if hour is not None:
        seconds = int(hour) * 3600 + int(minute) * 60 + float(second or 0)
        if not 0 <= seconds <= 86400:
            raise ValueError(f"{text!r} is not a time of day")
        serial += seconds / 86400
    if not 0 <= serial < LAST_SERIAL[system] + 1:
        raise ValueError(f"{text!r} is outside the dates of the {system} date system")
    return serial
