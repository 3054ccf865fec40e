"""A number-format section with date or time codes applied to a serial date of the workbook's date
system (1900, or 1904: :mod:`..read.date_system`). See :mod:`.number_format`."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from ..read.date_system import offset
from .format_tokens import BadFormat
from .number_text import half_up

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
# the Hijri months as an en-US Excel names them ([$-060409]mmmm, numfmt's Excel-checked cases)
_HIJRI_MONTHS = ("Muharram", "Safar", "Rabi\u02bb I", "Rabi\u02bb II", "Jumada I", "Jumada II", "Rajab",
                 "Sha\u02bbban", "Ramadan", "Shawwal", "Dhu\u02bbl-Qi\u02bbdah", "Dhu\u02bbl-Hijjah")
_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


_HIJRI_EPOCH = 1948439  # the Julian day number of 1 Muharram 1 AH (16 July 622, Julian calendar)


def _hijri_start(year: int, month: int) -> int:
    """The Julian day number of the first day of ``month`` of the Hijri ``year`` (the tabular
    calendar: months of 30 and 29 days by turns, the twelfth 30 days in the 11 leap years of each
    30 (2, 5, 7, 10, 13, 16, 18, 21, 24, 26, 29))."""
    return _HIJRI_EPOCH + (year - 1) * 354 + (3 + 11 * year) // 30 + (59 * (month - 1) + 1) // 2


def hijri(serial: int) -> tuple[int, int, int]:
    """(year, month, day) of the 1900-system serial date ``serial`` (not 0 nor 60) in the Hijri
    calendar of format code B2, the tabular one (Excel-checked: serial 59 is 1317-10-28, 61
    1317-10-29, 1000 1320-06-23, 10000 1345-11-17, numfmt's cases)."""
    moment = datetime.date(1899, 12, 31 if serial < 60 else 30) + datetime.timedelta(days=serial)
    jdn = moment.toordinal() + 1721425
    year = (30 * (jdn - _HIJRI_EPOCH) + 10646) // 10631
    month = 12
    while month > 1 and _hijri_start(year, month) > jdn:
        month -= 1
    return year, month, jdn - _hijri_start(year, month) + 1


def date_section(section: list[tuple[str, Any]], serial: float, negative: bool = False) -> str:
    """``serial`` written by a section with date or time codes (``negative``: it is minus ``serial``,
    which only elapsed codes can show)."""
    tokens: list[tuple[str, Any]] = []
    k = 0
    while k < len(section):  # fractional seconds: a point, then 0s, with or without a seconds code
        # before it ("hh.000" writes 0.70707 as 16.848; rounded once to the most 0s of the section,
        # "hh .00 .000" writes 16 .84 .848: numfmt's Excel-checked cases)
        kind, value = section[k]
        if kind == "point" and k + 1 < len(section) and section[k + 1] == ("digit", "0"):
            j = k + 1
            while j < len(section) and section[j] == ("digit", "0"):
                j += 1
            tokens.append(("fraction", min(j - k - 1, 3)))
            k = j
            continue
        if kind in ("digit", "exp", "general", "percent", "at"):
            raise BadFormat("a date beside a number")
        tokens.append((kind, value))
        k += 1
    ordinary = any(kind in ("date", "ampm", "ap", "fraction") for kind, _ in tokens)
    shift = offset()  # the days from the workbook's serial 0 to the same day in the 1900 system
    if ordinary and (negative or not 0 <= serial < 2958466 - shift):
        raise BadFormat("not a date")
    places = max([v for kind, v in tokens if kind == "fraction"] or [0])
    unit = 86400 * 10 ** places
    total = int(half_up(Decimal(serial) * unit, 0))
    days, ticks = divmod(total, unit)
    seconds, fraction_ticks = divmod(ticks, 10 ** places)
    if ordinary and days > 2958465 - shift:
        raise BadFormat("not a date")
    day_serial = days + shift if ordinary else days  # elapsed [h] [m] [s] count the number itself
    if not ordinary or day_serial == 0:
        year, month, day = 1900, 1, 0
    elif day_serial == 60:
        year, month, day = 1900, 2, 29
    else:
        moment = datetime.date(1899, 12, 31 if day_serial < 60 else 30) + datetime.timedelta(days=day_serial)
        year, month, day = moment.year, moment.month, moment.day
    weekday = (day_serial + 6) % 7
    buddhist = year + 543  # the Thai Buddhist era's year (b, bb: two digits; bbb, bbbb: four)
    months = _MONTHS
    if ("calendar", "2") in tokens and ordinary:
        months = _HIJRI_MONTHS
        if day_serial == 60:
            raise BadFormat("1900-02-29 has no Hijri date")
        year, month, day = hijri(max(day_serial, 1))  # serial 0, "1900-01-00", is written as serial 1
    hour, minute, second = seconds // 3600, seconds // 60 % 60, seconds % 60
    twelve = any(kind in ("ampm", "ap") for kind, _ in tokens)
    codes = [k for k, (kind, _) in enumerate(tokens) if kind in ("date", "elapsed")]
    out = []
    for k, (kind, value) in enumerate(tokens):
        if kind == "date":
            letter, width = value[0], len(value)
            if letter == "m":
                position = codes.index(k)
                before = tokens[codes[position - 1]][1][0] if position else ""
                after = tokens[codes[position + 1]][1][0] if position + 1 < len(codes) else ""
                if width <= 2 and (before == "h" or after == "s"):  # mmm and longer are always months
                    letter = "minute"
            if letter == "y":
                out.append(str(year)[-2:] if width <= 2 else str(year))
            elif letter == "b":
                out.append(str(buddhist)[-2:] if width <= 2 else str(buddhist))
            elif letter == "g":
                pass  # the era (Japanese, Taiwanese): nothing outside those locales
            elif letter == "m":
                out.append(str(month).zfill(width) if width <= 2 else months[month - 1][:3] if width == 3
                           else months[month - 1][0] if width == 5 else months[month - 1])  # mmmm, 6+: name
            elif letter == "d":
                out.append(str(day).zfill(width) if width <= 2 else _DAYS[weekday][:3] if width == 3
                           else _DAYS[weekday])
            elif letter == "h":
                shown = (hour % 12 or 12) if twelve else hour
                out.append(str(shown).zfill(min(width, 2)))
            elif letter == "minute":
                out.append(str(minute).zfill(min(width, 2)))
            else:
                out.append(str(second).zfill(min(width, 2)))
        elif kind == "elapsed":
            amount = {"h": total // (unit // 24), "m": total // (unit // 1440), "s": total // (unit // 86400)}[value[0]]
            out.append(str(amount).zfill(len(value)))
        elif kind == "fraction":
            out.append("." + str(fraction_ticks).zfill(places)[:value])
        elif kind == "ampm":
            out.append("AM" if hour < 12 else "PM")
        elif kind == "ap":
            out.append(value[0] if hour < 12 else value[1])
        elif kind in ("lit", "point", "comma", "slash"):
            out.append(str(value))
    return "".join(out)


