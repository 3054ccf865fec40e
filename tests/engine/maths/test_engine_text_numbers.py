"""Text read as a number the one way Excel (en-US) reads it for VALUE, the operators and a
function's number arguments (xlrating/engine/maths/text_numbers.py): a table of texts and the
number Excel reads in each, or None where Excel reads none (#VALUE!)."""

from __future__ import annotations

import pytest

from xlrating.core.dates import DATE_SYSTEM
from xlrating.engine.maths.text_numbers import read_number


def _year() -> int:
    return 2026


READS = [
    # numbers
    ("1", 1.0), (" 2.5  ", 2.5), ("+3", 3.0), ("-3", -3.0), (".5", 0.5), ("5.", 5.0), ("007", 7.0),
    ("1,000", 1000.0), ("1,234,567.25", 1234567.25), ("$1,000", 1000.0), ("$1.00", 1.0),
    ("-$5", -5.0), ("$-5", -5.0), ("5$", 5.0), ("10%", 0.1), ("-50%", -0.5), ("(100)", -100.0),
    ("($100)", -100.0), ("(5%)", -0.05), ("1.5E3", 1500.0), ("€100", 100.0), ("100€", 100.0), (" €100 ", 100.0), ("-€5", -5.0), ("1e-2", 0.01), ("2E+2", 200.0),
    # fractions after a whole number
    ("1 1/2", 1.5), ("0 3/4", 0.75), ("-1 1/4", -1.25), ("2  1/2", 2.5),
    # times: a fraction of a day, never today's date plus it
    ("12:00", 0.5), ("0:00", 0.0), ("6:30 PM", 18.5 / 24), ("6:30PM", 18.5 / 24), ("6:30 am", 6.5 / 24),
    ("6 PM", 0.75), ("12 AM", 0.0), ("12:00 AM", 0.0), ("12:30 PM", 12.5 / 24), ("6:30 p", 18.5 / 24),
    ("12:00:30.5", (43200 + 30.5) / 86400), ("18:45:15", (18 * 3600 + 45 * 60 + 15) / 86400),
    ("30:15.5", (30 * 60 + 15.5) / 86400), ("25:00", 25 / 24),
    # dates (1900 system): serials Excel shows
    ("2024-01-15", 45306.0), ("2024/1/15", 45306.0), ("1/15/2024", 45306.0), ("1-15-2024", 45306.0),
    ("1/15/24", 45306.0), ("1/15/30", 10973.0), ("15-Jan-2024", 45306.0), ("15 Jan 2024", 45306.0),
    ("15-jan-24", 45306.0), ("15-January-2024", 45306.0), ("January 15, 2024", 45306.0),
    ("Jan 15, 2024", 45306.0), ("Jan 15 2024", 45306.0), ("Sept 1, 2024", 45536.0),
    ("Jan-2024", 45292.0), ("1/2024", 45292.0), ("Jan-32", 11689.0),
    ("1/1/1900", 1.0), ("2/28/1900", 59.0), ("2/29/1900", 60.0), ("3/1/1900", 61.0), ("12/31/9999", 2958465.0),
    # a date that can only be day first, as a day-first locale's Excel saved it; else month first
    ("26/08/1987", 32015.0), ("29/02/1900", 60.0), ("01/02/2024", 45293.0),
    # a date and a time
    ("1/15/2024 6:30 PM", 45306 + 18.5 / 24), ("2024-01-15 12:00", 45306.5), ("15-Jan-2024 0:00:30", 45306 + 30 / 86400),
    # a date without its year: the year the caller gives (the conversion's clock)
    ("1/15", 46037.0), ("15-Jan", 46037.0), ("Jan 15", 46037.0), ("Jan-24", 46046.0),
]

REFUSED = [
    "", "   ", "abc", "TRUE", "1_000", "inf", "-inf", "nan", "Infinity", "0x10", "0b1", "1j", "1e400",
    "1,00", "12,34", "1,000,00", ",100", "--1", "+-1", "(-1)", "(1", "1)", "$$1", "$1$", "$1€", "€€1", "$10%", "1%%",
    ".", "e5", "1e", "- 5", "5-", "1/0", "1 1/0", "13:00 PM", "10:60", "1:00:60", "1/1/1899", "2/30/2024",
    "13/13/2024", " 2024-01-10 ", "1/15/2024 ", " 12:00", "1/1/10000", "Jab 15, 2024", "32-Jan-2024", "1/15/2024 25:00", "1.2.2024", "1 1",
]


@pytest.mark.parametrize(("text", "expected"), READS)
def test_text_excel_reads_as_a_number(text: str, expected: float) -> None:
    assert read_number(text, _year) == pytest.approx(expected, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize("text", REFUSED)
def test_text_excel_reads_as_no_number(text: str) -> None:
    assert read_number(text, _year) is None


def test_a_date_without_its_year_is_no_number_when_no_year_is_given() -> None:
    assert read_number("1/15") is None
    assert read_number("1/15/2024") == 45306.0  # the clock is asked only for a date without a year


def test_a_date_in_the_1904_date_system_counts_from_1_january_1904() -> None:
    token = DATE_SYSTEM.set(1904)
    try:
        assert read_number("2024-01-15") == 45306.0 - 1462
        assert read_number("1/1/1904 12:00") == 0.5
        assert read_number("12/31/1903") is None  # before the system's first day
        assert read_number("12:00") == 0.5  # a time alone is the same in both systems
        assert read_number("$1,000") == 1000.0
    finally:
        DATE_SYSTEM.reset(token)
