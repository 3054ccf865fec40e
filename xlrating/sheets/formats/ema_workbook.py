"""The EMA's results workbook: one sheet per tournament, as the EMA's ranking office keeps them.

The layout, as the public tools that read the workbook take it (Jesterboxboy/ema_scraper,
``calculators/get_results.py``), columns by letter:

- row 1: headers;
- row 3, the tournament: ``A`` its title, ``B`` the number of players, ``L`` the host country's
  code, ``M`` the city, ``N`` the MERS weight, ``P`` the ruleset (``MCR`` or ``Riichi``), ``Q`` its
  dates as the EMA writes them (``14-15 Jan. 2023``, ``6 May 2023``, ``30 Sep. - 1 Oct. 2023``, or a
  date cell) and ``R`` the number of days;
- from row 2, one row per player: ``C`` position, ``D`` first name, ``E`` last name, ``F`` EMA ID
  (a number: an ID with a leading zero, such as 04060059, is stored as 4060059), ``G`` table points,
  ``H`` score, ``I`` EMA member (Yes with an EMA ID, No without) and ``J`` the player's country.

Read into one EMA results sheet per tournament (:func:`read_workbook`), in the layout the template
writes (the tournament block, then the results table), which ``validate`` and ``ingest`` read as any
submitted sheet: every cell of it remembers the cell of the workbook it came from, so the EMA
validator's findings are reported there. Written back (:func:`write_workbook`) the other way round.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.gate.limits import Limits
from xlrating.sheets.formats.findings import Findings, Location
from xlrating.sheets.formats.options import ImportOptions
from xlrating.sheets.formats.produced import Produced
from xlrating.sheets.read import cells as cv
from xlrating.sheets.read.xlsx import SheetGrid

FORMAT = "an EMA results workbook"
TOURNAMENT_ROW = 3
FIRST_ROW = 2
# tournament field -> column of row 3
TITLE, PLAYERS, COUNTRY, CITY, WEIGHT, RULESET, DATES, DAYS = 1, 2, 12, 13, 14, 16, 17, 18
# player field -> column of each result row
POSITION, FIRST_NAME, LAST_NAME, EMA_ID, TABLE_POINTS, SCORE, MEMBER, PLAYER_COUNTRY = 3, 4, 5, 6, 7, 8, 9, 10
HEADERS = {TITLE: "Tournament", PLAYERS: "Players", POSITION: "Position", FIRST_NAME: "First name",
           LAST_NAME: "Last name", EMA_ID: "EMA ID", TABLE_POINTS: "Table points", SCORE: "Score",
           MEMBER: "EMA member", PLAYER_COUNTRY: "Country", COUNTRY: "Host country", CITY: "City",
           WEIGHT: "MERS weight", RULESET: "Ruleset", DATES: "Dates", DAYS: "Days"}
# our EMA results sheet: the block's labels (column A, values in B), then the table
BLOCK = (("Tournament name", TITLE), ("Ruleset", RULESET), ("City", CITY), ("Country", COUNTRY),
         ("Start date", DATES), ("End date", DATES), ("Days", DAYS), ("Players", PLAYERS), ("MERS weight", WEIGHT))
TABLE = (("Position", POSITION), ("EMA ID", EMA_ID), ("Last name", LAST_NAME), ("First name", FIRST_NAME),
         ("Country", PLAYER_COUNTRY), ("Table points", TABLE_POINTS), ("Score", SCORE))
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                        "dec"), start=1)}
_SAME_MONTH = re.compile(r"(\d{1,2})(?:\s*-\s*(\d{1,2}))?\s+([A-Za-z]+)\.?,?\s+(\d{4})")
_TWO_MONTHS = re.compile(r"(\d{1,2})\s+([A-Za-z]+)\.?\s*-\s*(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})")
DATES_EXPECTED = "the tournament's dates: '14-15 Jan. 2023', '6 May 2023', '30 Sep. - 1 Oct. 2023' or a date cell"


def read(path: str, data: bytes, options: ImportOptions, out: Findings, limits: Limits) -> list[Produced]:
    """An EMA results sheet per tournament sheet of the workbook ``path`` (``--sheet``: only that one)."""
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.submitted import open_submission, read_grids

    grids = read_grids(open_submission(path, limits, data))
    if options.sheet is not None:
        chosen = [g for g in grids if g.name == options.sheet]
        if not chosen:
            raise UnreadableWorkbook(path, f"no sheet {options.sheet!r}; the sheets are "
                                           f"{', '.join(repr(g.name) for g in grids)}")
        grids = chosen
    made = [sheet for grid in grids if any(not cv.is_empty(v) for row in grid.rows for v in row)
            for sheet in read_workbook(grid, out)]
    if not made and not out.errors:
        out.add("IMPORT_NO_ROWS", Location(grids[0].name if grids else "", 1, 1), format=FORMAT,
                rows="tournament sheets")
    return made


def read_workbook(grid: SheetGrid, out: Findings) -> list[Produced]:
    """The EMA results sheet of one tournament sheet ``grid``; findings to ``out``."""
    sheet = grid.name
    errors = out.errors

    def at(row: int, column: int) -> Location:
        return Location(sheet, row, column)

    def cell(row: int, column: int) -> Any:
        return grid.value(row, column)

    title = cv.text(cell(TOURNAMENT_ROW, TITLE))
    if title is None:
        out.add("IMPORT_VALUE_MISSING", at(TOURNAMENT_ROW, TITLE), field="the tournament's title (A3)",
                expected="the tournament's name, in A3 of each tournament sheet")
    start, end = _dates(cell(TOURNAMENT_ROW, DATES), at(TOURNAMENT_ROW, DATES), out)
    players: list[tuple[int, list[Any]]] = []
    numeric_id_at: Location | None = None
    for r in range(FIRST_ROW, grid.max_row + 1):
        if all(cv.is_empty(cell(r, c)) for c in range(POSITION, PLAYER_COUNTRY + 1)):
            continue
        ema_id, numeric = _ema_id(cell(r, EMA_ID))
        if numeric and numeric_id_at is None:
            numeric_id_at = at(r, EMA_ID)
        member = cell(r, MEMBER)
        flag = cv.flag(member)
        if flag is cv.INVALID:
            out.add("IMPORT_VALUE_INVALID", at(r, MEMBER), field="EMA member", value=member,
                    expected="Yes or No (1 or 0)")
        elif flag is not None and flag != (ema_id is not None):
            out.add("IMPORT_MEMBER_FLAG_DISAGREES", at(r, MEMBER), value=member, ema_id=cell(r, EMA_ID))
        players.append((r, [cell(r, POSITION), ema_id if ema_id is not None else cell(r, EMA_ID),
                            cell(r, LAST_NAME), cell(r, FIRST_NAME), cell(r, PLAYER_COUNTRY), cell(r, TABLE_POINTS),
                            cell(r, SCORE)]))
    if not players:
        out.add("IMPORT_NO_ROWS", at(FIRST_ROW, POSITION), format=f"sheet {sheet!r}", rows="player rows (from C2)")
    if numeric_id_at is not None:
        out.add("IMPORT_ID_AS_NUMBER", numeric_id_at)
    if out.errors > errors:
        return []
    label = f"{title} ({cv.text(cell(TOURNAMENT_ROW, RULESET)) or '?'}, {start.isoformat() if start else '?'})"
    produced = Produced(sheet, "mers", label, at(TOURNAMENT_ROW, TITLE), text_columns=frozenset({2}),
                        table="an EMA results sheet", header_rows=len(BLOCK) + 2)
    for name, column in BLOCK:
        value = start if name == "Start date" else end if name == "End date" else cell(TOURNAMENT_ROW, column)
        produced.add_row((name, value), {2: at(TOURNAMENT_ROW, column)}, at(TOURNAMENT_ROW, column))
    produced.add_row(())
    produced.add_row([name for name, _ in TABLE], {c: at(1, column) for c, (_, column) in enumerate(TABLE, start=1)},
                     at(1, POSITION))
    for r, values in players:
        produced.add_row(values, {c: at(r, column) for c, (_, column) in enumerate(TABLE, start=1)}, at(r, POSITION))
    return [produced]


def _ema_id(value: Any) -> tuple[str | None, bool]:
    """The EMA ID as 8-digit text (None: the player has none) and whether it was a number. A number
    of 7 digits is an ID whose leading zero the workbook's number format dropped; any other value is
    passed on as written, for the EMA validator to judge."""
    if cv.is_empty(value) or value in ("-", 0):
        return None, False
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer() \
            and 1_000_000 <= value < 100_000_000:
        return f"{int(value):08d}", True
    return (value if isinstance(value, str) else None), False


def _month(name: str) -> int | None:
    return _MONTHS.get(name[:3].lower())


def _dates(value: Any, at: Location, out: Findings) -> tuple[dt.date | None, dt.date | None]:
    """The first and last day the EMA's dates cell gives; a finding when it gives neither."""
    if isinstance(value, (dt.date, dt.datetime)):
        day = value.date() if isinstance(value, dt.datetime) else value
        return day, day
    text = " ".join(str(value).replace("–", "-").split()) if not cv.is_empty(value) else ""
    try:
        match = _SAME_MONTH.fullmatch(text)
        if match and _month(match.group(3)):
            first, last, month, year = match.group(1), match.group(2) or match.group(1), _month(match.group(3)), \
                int(match.group(4))
            start, end = dt.date(year, month, int(first)), dt.date(year, month, int(last))  # type: ignore[arg-type]
            if end >= start:
                return start, end
        match = _TWO_MONTHS.fullmatch(text)
        if match and _month(match.group(2)) and _month(match.group(4)):
            year = int(match.group(5))
            first_month, last_month = _month(match.group(2)), _month(match.group(4))
            start = dt.date(year - (1 if first_month > last_month else 0), first_month, int(match.group(1)))  # type: ignore[arg-type, operator]
            end = dt.date(year, last_month, int(match.group(3)))  # type: ignore[arg-type]
            if end >= start:
                return start, end
    except ValueError:
        pass
    if text:
        out.add("IMPORT_VALUE_INVALID", at, field="the dates (Q3)", value=value, expected=DATES_EXPECTED)
    else:
        out.add("IMPORT_VALUE_MISSING", at, field="the dates (Q3)", expected=DATES_EXPECTED)
    return None, None


# --- writing ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Tournament:
    """One tournament as the EMA's workbook writes it (from the store)."""

    name: str
    ruleset: str
    city: str | None
    country: str | None
    start: dt.date
    end: dt.date
    days: int | None
    players: int
    weight: float
    results: Sequence[tuple[int, str | None, str | None, str | None, str | None, Any, Any]]
    # (position, EMA ID, last name, first name, country, table points, score)


def dates_text(start: dt.date, end: dt.date) -> str:
    """The dates as the EMA writes them: ``6 May 2023``, ``14-15 Jan. 2023``, ``30 Sep. - 1 Oct. 2023``."""
    def month(day: dt.date) -> str:
        name = day.strftime("%B")
        return name if len(name) <= 4 else f"{name[:3]}."

    if start == end:
        return f"{start.day} {month(start)} {start.year}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}-{end.day} {month(end)} {end.year}"
    return f"{start.day} {month(start)} - {end.day} {month(end)} {end.year}"


def write_workbook(tournaments: Sequence[Tournament]) -> bytes:
    """An EMA results workbook (.xlsx) with one sheet per tournament, in the layout read above; EMA
    IDs written as numbers, as the EMA's workbook holds them (the reader puts their zero back)."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    taken: set[str] = set()
    for t in tournaments:
        name = _sheet_name(t, taken)
        ws = book.create_sheet(name)
        for column, header in HEADERS.items():
            ws.cell(1, column, header).data_type = "s"
        for r, (position, ema_id, last, first, country, points, score) in enumerate(t.results, start=FIRST_ROW):
            values = {POSITION: position, FIRST_NAME: first, LAST_NAME: last,
                      EMA_ID: int(ema_id) if ema_id and ema_id.isdigit() else ema_id, TABLE_POINTS: points,
                      SCORE: score, MEMBER: "Yes" if ema_id else "No", PLAYER_COUNTRY: country}
            for column, value in values.items():
                if value is not None:
                    cell = ws.cell(r, column, value)
                    if isinstance(value, str):
                        cell.data_type = "s"
        for column, value in ((TITLE, t.name), (PLAYERS, t.players), (COUNTRY, t.country), (CITY, t.city),
                              (WEIGHT, t.weight), (RULESET, t.ruleset), (DATES, dates_text(t.start, t.end)),
                              (DAYS, t.days)):
            if value is not None:
                cell = ws.cell(TOURNAMENT_ROW, column, value)
                if isinstance(value, str):
                    cell.data_type = "s"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_name(t: Tournament, taken: set[str]) -> str:
    """A worksheet name for the tournament: its name cut to Excel's 31 characters without the
    characters a sheet name cannot hold, unique in the workbook."""
    base = re.sub(r"[\[\]:*?/\\']", " ", t.name).strip()[:28] or "Tournament"
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base[:28 - len(str(n))]} ({n})"
    taken.add(name.casefold())
    return name
