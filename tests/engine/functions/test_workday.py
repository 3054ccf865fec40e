"""WORKDAY and WORKDAY.INTL as Excel computes them: a start on a weekend or a holiday counts from
there, 0 days is the start itself, a weekend left out is Saturday-Sunday, the weekend codes and
strings of Microsoft's WORKDAY.INTL page; and, over random starts, day counts, weekends and
holidays, the same dates as numpy's business-day calendar counting the same way."""

from __future__ import annotations

import datetime
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from function_books import assert_excel_value, recalculated

SATURDAY, SUNDAY, MONDAY = 45297, 45298, 45299  # 6, 7 and 8 January 2024
EPOCH = datetime.date(1899, 12, 30)  # serial 0 of Excel's dates from 1 March 1900 on


@pytest.mark.parametrize(("formula", "expected"), [
    ("=WORKDAY(A1,1)", MONDAY), ("=WORKDAY(A1,-1)", SATURDAY - 1), ("=WORKDAY(A1,0)", SATURDAY),
    ("=WORKDAY(A2,1)", MONDAY), ("=WORKDAY(A2,5)", MONDAY + 4), ("=WORKDAY(A2,-5)", MONDAY - 7),
    ("=WORKDAY(A1,1.9)", MONDAY),  # days truncated
    ("=WORKDAY(A1,1,A3)", MONDAY + 1),  # Monday a holiday
    ("=WORKDAY(A3,1)", MONDAY + 1),  # a start on a holiday counts from there
    ("=_xlfn.WORKDAY.INTL(A1,1)", MONDAY), ("=_xlfn.WORKDAY.INTL(A1,1,)", MONDAY),
    ("=_xlfn.WORKDAY.INTL(A1,1,,A3)", MONDAY + 1),  # weekend left out between commas
    ("=_xlfn.WORKDAY.INTL(A1,1,11)", MONDAY),  # Sunday only: Monday
    ("=_xlfn.WORKDAY.INTL(A1,-1,11)", SATURDAY - 1),
    ("=_xlfn.WORKDAY.INTL(A2,1,17)", MONDAY),  # Saturday only
    ("=_xlfn.WORKDAY.INTL(A1,1,7)", SUNDAY),  # Friday-Saturday
    ("=_xlfn.WORKDAY.INTL(A1,1,\"0000011\")", MONDAY),
    ("=_xlfn.WORKDAY.INTL(A1,2,\"1000001\")", MONDAY + 2),  # Monday and Sunday off
    ("=_xlfn.WORKDAY.INTL(A1,1,\"1111111\")", "#VALUE!"), ("=_xlfn.WORKDAY.INTL(A1,1,\"000011\")", "#VALUE!"),
    ("=_xlfn.WORKDAY.INTL(A1,1,8)", "#NUM!"), ("=_xlfn.WORKDAY.INTL(A1,1,0)", "#NUM!"),
    ("=WORKDAY(-1,1)", "#NUM!"), ("=WORKDAY(2958465,1)", "#NUM!"), ("=WORKDAY(A1,\"x\")", "#VALUE!"),
    ("=WORKDAY(A1,1,A4)", "#DIV/0!"),  # an error among the holidays
])
def test_workday(tmp_path: Path, formula: str, expected: Any) -> None:
    rows: list[list[Any]] = [[SATURDAY], [SUNDAY], [MONDAY], ["=1/0"]]
    sheet = recalculated(tmp_path, rows, {"B1": formula})
    assert_excel_value(sheet.get(1, 2), float(expected) if isinstance(expected, int) else expected)


def _numpy_workday(start: int, days: int, weekend: str, holidays: list[int]) -> float:
    """The same count on numpy's calendar: roll a start off a weekend or holiday against the
    direction counted, then count business days."""
    mask = "".join("0" if mark == "1" else "1" for mark in weekend)
    dates = [np.datetime64(EPOCH + datetime.timedelta(days=h)) for h in holidays]
    begin = np.datetime64(EPOCH + datetime.timedelta(days=start))
    if days == 0:
        return float(start)
    end = np.busday_offset(begin, days, roll="backward" if days > 0 else "forward", weekmask=mask, holidays=dates)
    return float((end - np.datetime64(EPOCH)).astype(int))


def test_random_counts_equal_a_business_day_calendar(tmp_path: Path) -> None:
    generator = random.Random(40)
    cases = []
    for _ in range(60):
        weekend = "".join(generator.choice("0001") for _ in range(7))
        if weekend == "1111111":
            weekend = "0000011"
        start = generator.randint(40000, 50000)
        cases.append((start, generator.randint(-400, 400), weekend,
                      sorted(generator.sample(range(start - 500, start + 500), 8))))
    rows = [[start, days, weekend, *holidays] for start, days, weekend, holidays in cases]
    formulas = {f"M{i}": f"=_xlfn.WORKDAY.INTL(A{i},B{i},C{i},D{i}:K{i})" for i in range(1, len(cases) + 1)}
    sheet = recalculated(tmp_path, rows, formulas)
    for i, (start, days, weekend, holidays) in enumerate(cases, start=1):
        assert sheet.get(i, 13) == _numpy_workday(start, days, weekend, holidays), (start, days, weekend)
