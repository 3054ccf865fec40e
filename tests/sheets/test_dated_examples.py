"""The bundled examples moved in time (what the demo stores): every date moves alike, the years
written in names follow, nothing else changes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from xlrating.sheets.examples.dated import dates_in, moved_copy, weeks_back
from xlrating.sheets.examples.submissions import EVENTS, write_examples
from xlrating.sheets.read.xlsx import read_workbook
from xlrating.sheets.validate.ema.sheet import validate_file


@pytest.mark.parametrize("day", [dt.date(2026, 12, 6) + dt.timedelta(days=n) for n in range(8)])
def test_a_whole_number_of_weeks_brings_the_latest_date_into_the_week_up_to_the_day(day: dt.date) -> None:
    latest = dt.date(2025, 5, 11)
    days = weeks_back(latest, day)
    assert days % 7 == 0
    assert day - dt.timedelta(days=6) <= latest + dt.timedelta(days=days) <= day


def test_a_workbook_moves_every_date_and_its_name_follows_the_year(tmp_path: Path) -> None:
    [source] = [p for p in write_examples(tmp_path / "examples") if p.name == EVENTS[0].file]  # Lyon, March 2024
    moved = moved_copy(source, tmp_path / "moved", 7 * 100)
    assert moved.name == "01_lyon_mcr_open_2026.xlsx"
    assert dates_in(moved) == [d + dt.timedelta(days=700) for d in dates_in(source)]
    before, after = read_workbook(source), read_workbook(moved)
    changed = {(g.name, r, c): (old, new) for g, h in zip(before, after, strict=True)
               for r, (row, new_row) in enumerate(zip(g.rows, h.rows, strict=True))
               for c, (old, new) in enumerate(zip(row, new_row, strict=True)) if old != new}
    assert sorted(changed.values(), key=str) == sorted(
        [("Lyon MCR Open 2024", "Lyon MCR Open 2026"),
         *((dt.datetime.combine(d, dt.time()), dt.datetime.combine(d, dt.time()) + dt.timedelta(days=700))
           for d in dates_in(source))], key=str)
    assert validate_file(moved).findings == []


def test_a_table_moves_its_dates_in_the_form_written_and_keeps_its_delimiter(tmp_path: Path) -> None:
    source = tmp_path / "events.csv"
    source.write_bytes("\ufeffevent;date;players\r\nCup 2023;30.12.2023;2023\r\nCup 2023;2023-12-30;21\r\n"
                       .encode("utf-8"))
    moved = moved_copy(source, tmp_path / "moved", 7)
    assert moved.read_bytes() == ("\ufeffevent;date;players\r\nCup 2024;06.01.2024;2023\r\n"
                                  "Cup 2024;2024-01-06;21\r\n").encode("utf-8")  # a number is not a year


def test_a_year_whose_dates_move_to_two_years_stays_as_written(tmp_path: Path) -> None:
    source = tmp_path / "events.csv"
    source.write_text("event,date\nSpring 2023,2023-04-16\nWinter 2023,2023-12-30\n", encoding="utf-8")
    moved = moved_copy(source, tmp_path / "moved", 7)
    assert moved.read_text(encoding="utf-8") == "event,date\nSpring 2023,2023-04-23\nWinter 2023,2024-01-06\n"
