"""The World Diplomacy Database's classification upload: one tournament's final standings as CSV.

What the WDD takes to publish a tournament (with a second file of boards, not read here): a header
row, then one row per player, in any order. The columns, as the Diplomacy Tournament Visualiser
(UEWBot/dipvis, ``tournament/wdd_views.py``) writes them for the WDD:

- mandatory: ``FIRST NAME``, ``NAME`` (the last name), ``HOMONYME`` (1, or 2, 3... to tell apart
  players of the same name), ``RANK`` (1 is the winner; ``999`` a player not ranked), ``EXAEQUO``
  (how many players share that rank);
- optional: ``LOCATION`` and ``NATIONALITY`` (the WDD's country codes), ``SCORE``, a score per round
  ``R1``, ``R2``..., and the best-country, award and top-board columns (``RK_...``, ``PT_...``), not
  read here.

Read into a Dip Pouch results table (:func:`read_classification`): one row per ranked player; the
player is ``FIRST NAME NAME``, with `` (2)`` after it for homonym 2 (two people of one name stay two
players); ``RANK`` is the place, ``SCORE`` the score, ``NATIONALITY`` the country in the tables'
codes (:data:`xlrating.core.data` ``wdd_countries.csv``: ``ALL`` is ``GER``, ``ANG`` is ``GBR``). The
event's name and date are options (the file has neither); its rounds are the last ``R`` column holding
a score unless given, its players the ranked rows unless given. Written back
(:func:`write_classification`) the other way round: the name split at its first space.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.core.countries import country_code
from xlrating.core.reference_data import load
from xlrating.gate.limits import Limits
from xlrating.sheets.formats.findings import Findings, Location
from xlrating.sheets.formats.options import ImportOptions
from xlrating.sheets.formats.produced import Produced
from xlrating.sheets.read import cells as cv
from xlrating.sheets.read.xlsx import SheetGrid

UNRANKED = 999  # the rank the WDD's upload gives a player who is not ranked
NO_COUNTRY = ("YYY", "ZZZ")  # the WDD's blank flag and "not known"
HEADER_ROWS = 10  # the header is looked for among the first rows
MANDATORY = ("FIRST NAME", "NAME", "HOMONYME", "RANK", "EXAEQUO")
OPTIONAL = ("NATIONALITY", "SCORE")
HEADERS = (*MANDATORY, "NATIONALITY", "SCORE")  # what write_classification writes
_ROUND = re.compile(r"R([1-9][0-9]?)")
# Other spellings of the columns seen in hand-made uploads.
_ALIASES = {"FIRSTNAME": "FIRST NAME", "HOMONYM": "HOMONYME", "EX AEQUO": "EXAEQUO"}
TABLE_COLUMNS = ("event", "date", "players", "rounds", "player", "place", "world_championship", "country", "score",
                 "location")
FORMAT = "WDD classification file"


@functools.cache
def to_table_code() -> dict[str, str]:
    """The WDD's country code -> the tables' (``ALL`` -> ``GER``)."""
    return {row["wdd"]: row["code"] for row in load("wdd_countries.csv")}


@functools.cache
def to_wdd_code() -> dict[str, str]:
    """The tables' country code -> the WDD's (``GER`` -> ``ALL``)."""
    return {row["code"]: row["wdd"] for row in load("wdd_countries.csv")}


def _header(value: Any) -> str:
    text = " ".join(str(value).replace("_", " ").replace("-", " ").upper().split()) if value is not None else ""
    return _ALIASES.get(text, text)


@dataclass
class _Row:
    row: int
    player: str
    rank: int | None
    exaequo: int | None
    country: str | None
    score: float | None


def read_classification(grid: SheetGrid, options: ImportOptions, out: Findings) -> list[Produced]:
    """The Dip Pouch results table of the classification in ``grid``; findings to ``out`` (the table
    only when none is an error)."""
    sheet = grid.name
    header_row, columns = _find_header(grid)
    at_header = Location(sheet, header_row, 1)
    missing = [name for name in MANDATORY if name not in columns]
    for name in missing:
        out.add("IMPORT_COLUMN_MISSING", at_header, format=FORMAT, column=name, columns=", ".join(MANDATORY))
    if missing:
        return []
    rows = _read_rows(grid, header_row, columns, out)
    _check_exaequo(rows, sheet, columns, out)
    if not rows:
        out.add("IMPORT_NO_ROWS", Location(sheet, header_row + 1, 1), format=FORMAT, rows="player rows")
    rounds = options.rounds if options.rounds is not None else _rounds(grid, header_row, columns)
    needed = (("event's name", "--event NAME", options.event), ("event's date", "--date YYYY-MM-DD", options.date),
              ("number of rounds", "--rounds N", rounds))
    for what, option, value in needed:
        if value is None:
            why = " (no column R1, R2... holds a score)" if option.startswith("--rounds") else ""
            out.add("IMPORT_OPTION_NEEDED", at_header, what=what, why=why, option=option)
    if out.errors:
        return []
    ranked = [r for r in rows if r.rank is not None]
    players = options.players if options.players is not None else len(ranked)
    date: dt.date = options.date  # type: ignore[assignment]  # checked above
    produced = Produced("Dip Pouch results", "dippouch", f"{options.event} ({date.isoformat()})", at_header,
                        table="Dip Pouch results")
    produced.add_row(TABLE_COLUMNS)
    name_at, rank_at = columns["NAME"], columns["RANK"]
    for r in ranked:
        origins = {5: Location(sheet, r.row, name_at), 6: Location(sheet, r.row, rank_at)}
        for column, source in ((8, "NATIONALITY"), (9, "SCORE")):
            if source in columns:
                origins[column] = Location(sheet, r.row, columns[source])
        produced.add_row((options.event, date, players, rounds, r.player, r.rank, bool(options.world_championship),
                          r.country, r.score, options.location), origins, Location(sheet, r.row, 1))
    return [produced]


def _find_header(grid: SheetGrid) -> tuple[int, dict[str, int]]:
    """The header row (the first of the top rows naming NAME and RANK) and each column's number."""
    for r in range(1, min(grid.max_row, HEADER_ROWS) + 1):
        named = {_header(v): c for c, v in reversed(list(enumerate(grid.rows[r - 1], start=1))) if v is not None}
        if "NAME" in named and "RANK" in named:
            return r, named
    first = next((r for r in range(1, grid.max_row + 1) if any(v is not None for v in grid.rows[r - 1])), 1)
    return first, {_header(v): c for c, v in reversed(list(enumerate(grid.value(first, c) for c in range(1, 200))))
                   if v is not None}


def _read_rows(grid: SheetGrid, header_row: int, columns: dict[str, int], out: Findings) -> list[_Row]:
    sheet, rows = grid.name, []
    for r in range(header_row + 1, grid.max_row + 1):
        if all(cv.is_empty(v) for v in grid.rows[r - 1]):
            continue

        def at(name: str, r: int = r) -> Location:
            return Location(sheet, r, columns[name])

        def value(name: str, r: int = r) -> Any:
            return grid.value(r, columns[name]) if name in columns else None

        name, first = cv.text(value("NAME")), cv.text(value("FIRST NAME"))
        if name is None:
            out.add("IMPORT_VALUE_MISSING", at("NAME"), field="NAME", expected="the player's last name")
        homonym = _whole(value("HOMONYME"), at("HOMONYME"), "HOMONYME",
                         "a whole number from 1 (2, 3... for a second, third player of the same name)", out)
        exaequo = _whole(value("EXAEQUO"), at("EXAEQUO"), "EXAEQUO",
                         "a whole number from 1: how many players share the rank", out)
        player = " ".join(part for part in (first, name) if part)
        if homonym is not None and homonym > 1:
            player = f"{player} ({homonym})"
        rank = _rank(value("RANK"), at("RANK"), player, out)
        score = None
        if "SCORE" in columns and not cv.is_empty(value("SCORE")):
            parsed = cv.number(value("SCORE"))
            if parsed is cv.INVALID or parsed is None:
                out.add("IMPORT_VALUE_INVALID", at("SCORE"), field="SCORE", value=value("SCORE"),
                        expected="a number (the player's tournament score), or an empty cell")
            else:
                score = parsed
        country = _country(value("NATIONALITY"), at("NATIONALITY") if "NATIONALITY" in columns else None, out)
        if rank is _NOT_RANKED:
            continue
        rows.append(_Row(r, player, rank, exaequo, country, score))
    return rows


_NOT_RANKED = object()


def _whole(value: Any, at: Location, field: str, expected: str, out: Findings) -> int | None:
    if cv.is_empty(value):
        out.add("IMPORT_VALUE_MISSING", at, field=field, expected=expected)
        return None
    parsed = cv.whole(value)
    if parsed is cv.INVALID or parsed is None or parsed < 1:
        out.add("IMPORT_VALUE_INVALID", at, field=field, value=value, expected=expected)
        return None
    return parsed


def _rank(value: Any, at: Location, player: str, out: Findings) -> Any:
    if cv.is_empty(value):
        out.add("IMPORT_VALUE_MISSING", at, field="RANK", expected=f"the player's rank (1 is first; {UNRANKED} "
                                                                    f"for a player not ranked)")
        return None
    parsed = cv.whole(value)
    if parsed is cv.INVALID or parsed is None or parsed < 1:
        out.add("IMPORT_RANK_INVALID", at, field="RANK", value=value, unranked=f" ({UNRANKED} for a player not ranked)")
        return None
    if parsed == UNRANKED:
        out.add("IMPORT_UNRANKED", at, field="RANK", value=value, player=repr(player))
        return _NOT_RANKED
    return parsed


def _country(value: Any, at: Location | None, out: Findings) -> str | None:
    code = cv.text(value)
    if code is None or at is None or code.upper() in NO_COUNTRY:
        return None
    known = to_table_code().get(code.upper())
    if known is None:
        out.add("IMPORT_COUNTRY_UNKNOWN", at, field="NATIONALITY", value=code)
        return code
    return known


def _check_exaequo(rows: list[_Row], sheet: str, columns: dict[str, int], out: Findings) -> None:
    """EXAEQUO is how many players have the row's rank: a count that disagrees is a typing mistake
    in one of them, and the places the table would give could not be trusted."""
    counts: dict[int, int] = {}
    for r in rows:
        if r.rank is not None:
            counts[r.rank] = counts.get(r.rank, 0) + 1
    for r in rows:
        if r.rank is not None and r.exaequo is not None and r.exaequo != counts[r.rank]:
            out.add("IMPORT_EXAEQUO_MISMATCH", Location(sheet, r.row, columns["EXAEQUO"]), field="EXAEQUO",
                    value=r.exaequo, rank=r.rank, count=counts[r.rank])


def _rounds(grid: SheetGrid, header_row: int, columns: dict[str, int]) -> int | None:
    """The last round whose column ``R<n>`` holds a score on some row (None: no such column)."""
    played = [int(m.group(1)) for name, c in columns.items() if (m := _ROUND.fullmatch(name))
              and any(not cv.is_empty(grid.value(r, c)) for r in range(header_row + 1, grid.max_row + 1))]
    return max(played) if played else None


# --- writing ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    """One player of an event as the WDD's classification writes it."""

    player: str
    place: int
    country: str | None = None
    score: float | None = None


_HOMONYM = re.compile(r"(.*) \(([2-9]|[1-9][0-9]+)\)")


def split_name(player: str) -> tuple[str, str, int]:
    """``"Ada Lovelace (2)"`` -> (``"Ada"``, ``"Lovelace"``, 2): the first name is the name up to its
    first space, the homonym the number in brackets at its end (1 without one)."""
    homonym = 1
    match = _HOMONYM.fullmatch(player)
    if match:
        player, homonym = match.group(1), int(match.group(2))
    first, _, last = player.partition(" ")
    return (first, last, homonym) if last else ("", first, homonym)


def write_classification(standings: Sequence[Standing]) -> tuple[bytes, list[str]]:
    """The classification CSV of one event's standings (best first), and a warning for each
    nationality without a WDD code (written as ``ZZZ``, not known)."""
    warnings: list[str] = []
    counts: dict[int, int] = {}
    for s in standings:
        counts[s.place] = counts.get(s.place, 0) + 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADERS)
    from xlrating.gate.csv_safety import neutralise_row

    for s in sorted(standings, key=lambda s: s.place):
        first, last, homonym = split_name(s.player)
        nationality = ""
        if s.country:
            nationality = to_wdd_code().get(country_code(s.country), "")
            if not nationality:
                warnings.append(f"{s.player}: country {s.country!r} has no WDD code; written as ZZZ (not known)")
                nationality = "ZZZ"
        score = "" if s.score is None else (int(s.score) if float(s.score).is_integer() else s.score)
        writer.writerow(neutralise_row([first, last, homonym, s.place, counts[s.place], nationality, score]))
    return out.getvalue().encode("utf-8"), warnings


def read(path: str, data: bytes, options: ImportOptions, out: Findings, limits: Limits) -> list[Produced]:
    """The Dip Pouch results table of the classification file ``path`` (its ``data`` read already):
    a CSV as the WDD takes it (or the first sheet of a workbook holding the same columns)."""
    from xlrating.sheets.read.submitted import open_submission, read_grids

    grids = read_grids(open_submission(path, limits, data))
    return read_classification(grids[0], options, out)
