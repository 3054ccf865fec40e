"""The bundled examples moved in time: a copy of a submitted file with every date moved by a number
of days, so that a demo's results are recent on whatever day it runs (MERS counts the results of
the last two years: examples kept at the dates they were written with would age out of its ranking).

What moves: every date cell of a workbook, and every cell of a CSV written as a date (YYYY-MM-DD or
DD.MM.YYYY, as the readers take them). A year written in a text (a tournament's name, a title) and
in the file's name becomes the year the file's dates of that year moved to, where they all moved to
the same year (so ``Lyon MCR Open 2024`` held in March 2024 and moved to March 2026 is called ``Lyon
MCR Open 2026``); numbers and formulas are left as they are.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_WORD = re.compile(r"[^\W\d_]")  # a letter: a text, not a number written as text


def weeks_back(latest: dt.date, day: dt.date) -> int:
    """The days, a whole number of weeks, that move ``latest`` to the last day on or before
    ``day`` that is the same day of the week (a weekend tournament stays on a weekend)."""
    return (day - latest).days // 7 * 7


def dates_in(path: Path) -> list[dt.date]:
    """Every date ``path`` holds (an .xlsx workbook or a CSV), in reading order."""
    if path.suffix.lower() == ".csv":
        rows, _ = _read_csv(path)
        return [found for row in rows for cell in row if (found := _csv_date(cell)) is not None]
    import openpyxl

    workbook = openpyxl.load_workbook(path)
    return [_day(cell.value) for cell in _cells(workbook) if isinstance(cell.value, dt.date)]


def moved_copy(source: Path, folder: Path, days: int) -> Path:
    """A copy of ``source`` in ``folder`` (created if needed) with every date moved by ``days``
    and the years of its texts and its name following them (see the module's docstring)."""
    folder.mkdir(parents=True, exist_ok=True)
    shift = dt.timedelta(days=days)
    years = _years((d, d + shift) for d in dates_in(source))
    target = folder / f"{_with_years(source.stem, years)}{source.suffix}"
    if source.suffix.lower() == ".csv":
        _move_csv(source, target, shift, years)
    else:
        _move_workbook(source, target, shift, years)
    return target


def _years(moves: Iterable[tuple[dt.date, dt.date]]) -> dict[int, int]:
    """Old year -> new year, for each year whose dates all moved to one year."""
    seen: dict[int, set[int]] = {}
    for old, new in moves:
        seen.setdefault(old.year, set()).add(new.year)
    return {old: min(new) for old, new in seen.items() if len(new) == 1}


def _with_years(text: str, years: dict[int, int]) -> str:
    """``text`` with each year of ``years`` written in it replaced, in one pass (no year moved twice)."""
    if not years or not _WORD.search(text):
        return text
    return _YEAR.sub(lambda m: str(years.get(int(m.group()), m.group())), text)


def _day(value: dt.date) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def _cells(workbook: Any) -> Iterator[Any]:
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            yield from row


def _move_workbook(source: Path, target: Path, shift: dt.timedelta, years: dict[int, int]) -> None:
    import openpyxl

    workbook = openpyxl.load_workbook(source)
    for cell in _cells(workbook):
        if isinstance(cell.value, dt.date):
            cell.value = cell.value + shift
        elif isinstance(cell.value, str) and not cell.value.startswith("="):
            cell.value = _with_years(cell.value, years)
    workbook.save(target)


def _read_csv(path: Path) -> tuple[list[list[str]], dict[str, Any]]:
    """The rows of a CSV and how to write them back alike (byte-order mark, delimiter, line ends)."""
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    style = {"bom": bom, "delimiter": delimiter, "lineterminator": "\r\n" if "\r\n" in text else "\n"}
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)), style


def _csv_date(cell: str) -> dt.date | None:
    text = cell.strip()
    try:
        if _ISO.fullmatch(text):
            return dt.date.fromisoformat(text)
        dotted = _DOTTED.fullmatch(text)
        if dotted:
            day, month, year = (int(part) for part in dotted.groups())
            return dt.date(year, month, day)
    except ValueError:
        return None
    return None


def _move_csv(source: Path, target: Path, shift: dt.timedelta, years: dict[int, int]) -> None:
    rows, style = _read_csv(source)
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=style["delimiter"], lineterminator=style["lineterminator"])
    for row in rows:
        moved = []
        for cell in row:
            found = _csv_date(cell)
            if found is None:
                moved.append(_with_years(cell, years))
            elif _ISO.fullmatch(cell.strip()):
                moved.append((found + shift).isoformat())
            else:
                moved.append((found + shift).strftime("%d.%m.%Y"))
        writer.writerow(moved)
    target.write_bytes((b"\xef\xbb\xbf" if style["bom"] else b"") + out.getvalue().encode("utf-8"))
