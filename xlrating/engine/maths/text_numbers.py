"""Text read as a number, the one way Excel (en-US) reads it wherever a number is needed: VALUE,
the arithmetic operators (``="$1,000"*1``, ``="12:00"+0``) and a function's number arguments
(``ABS("-$2")``, ``DATE("2024",1,1)``). Free of ``formulas`` and of workbooks.

Microsoft documents it twice: VALUE reads "any of the constant number, date, or time formats
recognized by Microsoft Excel", and a formula converts a text operand "if it is in a format that
would be accepted for a value" ("Calculation operators and precedence": ``="1"+"2"`` is 3,
``="$4.00"*"3"`` 12, ``="6/1/2001"-"5/1/2001"`` 31, ``="A"&TRUE`` aside). What Excel accepts typed in
a cell, en-US, and so reads here:

- a number: digits with an optional decimal point and fraction, commas between groups of three
  ("1,000,000.5"), an exponent ("1.5E3"), a sign, a currency sign, $ or the euro's, before or after
  the sign or after the number ("-$5", "$-5", "5$", "€100", "100€": IronCalc's Excel-saved
  EXP_SIGN and VALUE workbooks have SIGN("€100") 1 and VALUE("23€") 23), a percent sign after it
  ("10%" is 0.1), parentheses for a negative number ("(100)", "($100)");
- a fraction after a whole number and a space: "1 1/2" is 1.5, "-0 3/4" -0.75 (a lone "1/2" is the
  date 2 January, as Excel reads it);
- a time, the fraction of a day: "12:00" 0.5, "6:30 PM" 0.7708..., "6 PM", "12:00:30.5", "30:15.5"
  (minutes and seconds, as the decimal fraction says), hours past 24 ("25:00" 1.0416...) without
  AM/PM, 1 to 12 with it (12 AM is midnight);
- a date, its serial number in the workbook's date system (:data:`xlrating.core.dates.DATE_SYSTEM`:
  1900 or 1904): "2024-01-15", "2024/1/15", "1/15/2024", "1-15-24" (month first; a year of two
  digits is 2000-2029 for 00-29, 1930-1999 for 30-99), "15-Jan-2024", "15 January 2024",
  "Jan 15, 2024", "January 15 2024", "Jan-2024" (its first day); a date without a year ("1/15",
  "15-Jan", "Jan 15") is in the current year, which the caller gives (``this_year``: the conversion's
  clock, never read unless such a date is); a date Excel cannot hold (before 1 January 1900, or 1904
  in that system, after 31 December 9999, 30 February) is no date; 29 February 1900 is the serial 60
  Excel counts in the 1900 system;
- a date whose first number cannot be a month but can be a day, the day first ("26/08/1987",
  "29/02/1900"): the workbooks Excel saved in a day-first locale hold such texts, computed as dates
  (``formulas``' test workbook: XIRR's guess "26/08/1987", FORECAST.ETS("29/02/1900", ...)); the
  locale is not recorded in the file, and a text that reads either way ("01/02/2024") is read month
  first, as en-US Excel reads it;
- a date and a time after it, separated by a space: "1/15/2024 6:30 PM";
- spaces before and after a number or a fraction (" 7 ", " €100 "), but not around a date or a time:
  IronCalc's Excel-saved EXP_SIGN and trigonometry workbooks have SIGN(" 2024-01-10 ") #VALUE!
  where SIGN("2024-01-10") is 1 and SIGN(" €100 ") 1 (a time is read as a date is: the same part of
  Excel reads both).

Anything else is no number (the caller's #VALUE!): an empty text, words, Python's own spellings
that Excel's are not ("1_000", "inf", "nan", "0x10", "1j"), commas in other places ("1,00"), two signs,
a sign inside parentheses.

:func:`read_number` is the reading; the parse of a text is remembered (:func:`_parsed`), so a column of
the same texts reads each once.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable

from xlrating.core.dates import DATE_SYSTEM, OFFSET_1904

from .plain_numbers import date as serial_of

_NUMBER = re.compile(r"(?P<sign>[-+]?)(?P<dollar>[$\u20ac]?)(?P<sign2>[-+]?)"
                     r"(?P<digits>(?:\d{1,3}(?:,\d{3})+|\d*)(?:\.\d*)?)(?P<exponent>[eE][-+]?\d+)?"
                     r"(?P<dollar2>[$\u20ac]?)(?P<percent>%?)")
_FRACTION = re.compile(r"(?P<sign>[-+]?)(?P<whole>\d+) +(?P<numerator>\d+)/(?P<denominator>\d+)")
_MERIDIEM = r"(?: *(?P<meridiem>[aApP][mM]?))"
_TIME = re.compile(r"(?P<hours>\d{1,4}):(?P<minutes>\d{1,2})(?::(?P<seconds>\d{1,2}(?:\.\d*)?))?" + _MERIDIEM + "?"
                   r"|(?P<hour>\d{1,2})" + _MERIDIEM.replace("meridiem", "meridiem2")
                   + r"|(?P<m>\d{1,4}):(?P<s>\d{1,2}\.\d*)")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH = r"(?P<month_name>[a-zA-Z]{3,9})"
_DATES = (
    re.compile(r"(?P<year>\d{4})(?P<sep>[-/])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})"),  # 2024-01-15
    re.compile(r"(?P<month>\d{1,2})(?P<sep>[-/])(?P<day>\d{1,2})(?:(?P=sep)(?P<year>\d{4}|\d{1,2}))?"),  # 1/15/2024
    re.compile(r"(?P<day>\d{1,2})[- /]" + _MONTH + r"(?:[- /](?P<year>\d{4}|\d{2}))?"),  # 15-Jan-2024
    re.compile(_MONTH + r"[- ](?P<day>\d{1,2})(?:,? +(?P<year>\d{4}|\d{2})|-(?P<year2>\d{4}|\d{2}))?"),  # Jan 15, 2024
    re.compile(_MONTH + r"[- /](?P<month_year>\d{4})"),  # Jan-2024
    re.compile(r"(?P<month>\d{1,2})/(?P<month_year>\d{4})"),  # 1/2024
)
_DATE_AND_TIME = re.compile(r"(?P<date>.*?\d.*?) +(?P<time>\d[\d:. ]*(?:[aApP][mM]?)?)")

# A parse: the number of a number or a time, (year or None, month, day, fraction of a day) of a
# date (the year None when the text has none), None for no number.
Parse = float | tuple[int | None, int, int, float] | None


def read_number(text: str, this_year: Callable[[], int] | None = None) -> float | None:
    """The number ``text`` reads as in Excel (see the module's docstring), a date as its serial in
    the workbook's date system; None when Excel reads no number in it. ``this_year`` gives the year
    of a date written without one; without it such a text is no number."""
    parsed = _parsed(text)
    if parsed is None or isinstance(parsed, float):
        return parsed
    year, month, day, fraction = parsed
    if year is None:
        if this_year is None:
            return None
        year = this_year()
    serial = _date_serial(year, month, day)
    if serial is None:
        return None
    if DATE_SYSTEM.get() == 1904:
        serial -= OFFSET_1904
        if serial < 0:
            return None
    return serial + fraction


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Parse:
    written = text.strip(" ")
    if not written:
        return None
    number = _number(written)
    if number is None:
        number = _fraction(written)
    if number is not None:
        return number
    if written != text:  # a date or a time with spaces around it is text to Excel
        return None
    number = _time(written, 10000)
    if number is not None:
        return number
    date = _date(written)
    if date is not None:
        return date[0], date[1], date[2], 0.0
    both = _DATE_AND_TIME.fullmatch(written)
    if both is not None:
        date, time = _date(both["date"]), _time(both["time"], 24)
        if date is not None and time is not None and time < 1:
            return date[0], date[1], date[2], time
    return None


def _finite(number: float) -> float | None:
    return number if math.isfinite(number) else None


def _number(written: str) -> float | None:
    negative = written.startswith("(") and written.endswith(")")
    if negative:
        written = written[1:-1]
    match = _NUMBER.fullmatch(written)
    if match is None or not any(c.isdigit() for c in match["digits"]):
        return None
    signs = [s for s in (match["sign"], match["sign2"]) if s]
    if len(signs) > 1 or (negative and signs) or (match["dollar"] and match["dollar2"]):
        return None
    if match["percent"] and (match["dollar"] or match["dollar2"]):
        return None
    number = float(match["digits"].replace(",", "") + (match["exponent"] or ""))
    if match["percent"]:
        number /= 100
    return _finite(-number if negative or signs == ["-"] else number)


def _fraction(written: str) -> float | None:
    match = _FRACTION.fullmatch(written)
    if match is None or int(match["denominator"]) == 0:
        return None
    number = int(match["whole"]) + int(match["numerator"]) / int(match["denominator"])
    return -number if match["sign"] == "-" else number


def _time(written: str, hours_below: int) -> float | None:
    """A time of day as the fraction of a day; hours from ``hours_below`` on (or past 12 with AM/PM) are none."""
    match = _TIME.fullmatch(written)
    if match is None:
        return None
    if match["m"] is not None:  # minutes and seconds with a decimal fraction: "30:15.5"
        hours, minutes, seconds, meridiem = 0, int(match["m"]), float(match["s"]), None
        if minutes >= 60:
            return None
    elif match["hour"] is not None:  # "6 PM"
        hours, minutes, seconds, meridiem = int(match["hour"]), 0, 0.0, match["meridiem2"]
    else:
        hours, minutes = int(match["hours"]), int(match["minutes"])
        seconds, meridiem = float(match["seconds"] or 0), match["meridiem"]
    if minutes >= 60 or seconds >= 60:
        return None
    if meridiem is not None:
        if hours > 12:
            return None
        hours = hours % 12 + (12 if meridiem[0] in "pP" else 0)
    if hours >= hours_below:
        return None
    return (hours * 3600 + minutes * 60 + seconds) / 86400


def _full_year(written: str) -> int:
    year = int(written)
    if len(written) <= 2:
        return year + (2000 if year < 30 else 1900)
    return year


def _month_number(name: str) -> int | None:
    lower = name.lower()
    for number, month in enumerate(_MONTHS, start=1):
        if lower == month or lower == month[:3] or (lower == "sept" and number == 9):
            return number
    return None


def _date(written: str) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of a date written in one of Excel's forms; None for any other text."""
    for pattern in _DATES:
        match = pattern.fullmatch(written)
        if match is None:
            continue
        fields = match.groupdict()
        if pattern is _DATES[1] and int(fields["month"]) > 12 >= int(fields["day"]):  # "26/08/1987"
            fields["month"], fields["day"] = fields["day"], fields["month"]
        month = _month_number(fields["month_name"]) if fields.get("month_name") else int(fields["month"])
        if month is None or not 1 <= month <= 12:
            return None
        if fields.get("month_year"):
            return int(fields["month_year"]), month, 1
        year_text = fields.get("year") or fields.get("year2")
        day = int(fields["day"])
        if year_text is None and pattern is _DATES[3] and not 1 <= day <= _days_in(2000, month):
            return _full_year(fields["day"]), month, 1  # "Jan-32": no day of January, so January 1932
        return (_full_year(year_text) if year_text else None), month, day
    return None


def _days_in(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap or year == 1900 else 28  # Excel's 29 February 1900
    return 30 if month in (4, 6, 9, 11) else 31


def _date_serial(year: int, month: int, day: int) -> float | None:
    """The 1900 system's serial of a date Excel holds; None for a day the month has not or a year
    outside 1900-9999."""
    if not 1900 <= year <= 9999 or not 1 <= day <= _days_in(year, month):
        return None
    serial = serial_of(year, month, day)
    return serial if isinstance(serial, float) else None


__all__ = ["read_number"]
