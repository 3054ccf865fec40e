"""Rules for the tournament block: ruleset, dates, days, players, countries, MERS weight,
qualification (docs/rating-rules.md section 3, "What an EMA results reporting sheet carries")."""

from __future__ import annotations

import datetime as dt
from typing import Any

from xlrating.core import mers
from xlrating.core.names import fold
from xlrating.sheets.read import cells as cv
from xlrating.sheets.validate.ema.layout import BLOCK_FIELDS, BlockCell
from xlrating.sheets.validate.ema.submission import Tournament
from xlrating.sheets.validate.findings import UNREAD, Collector

# Ruleset names submitters use, folded -> the MERS ranking they belong to.
RULESET_NAMES = {
    "mcr": "MCR", "mahjong competition rules": "MCR", "chinese official": "MCR",
    "chinese official rules": "MCR", "mcr chinese official": "MCR",
    "riichi": "Riichi", "riichi competition rules": "Riichi", "rcr": "Riichi", "riichi mahjong": "Riichi",
    "japanese": "Riichi", "ema riichi": "Riichi",
}
MERS_2018 = dt.date(2018, 1, 1)


class _BlockReader:
    def __init__(self, block: dict[str, BlockCell], out: Collector, anchor: tuple[str, int, int]):
        self.block, self.out, self.anchor = block, out, anchor

    def raw(self, name: str, *, required: bool, expected: str = "a value") -> Any:
        """The value of a field; None when absent or empty (reported when ``required``)."""
        cell = self.block.get(name)
        if cell is None:
            if required:
                label = BLOCK_FIELDS[name][0]
                self.out.add("TOURNAMENT_FIELD_MISSING", *self.anchor, field=label.lower(), labels=repr(label))
            return None
        value = self.out.read(cell.grid, cell.row, cell.column)
        if value is UNREAD:
            return None
        if cv.is_empty(value):
            if required:
                self.out.add("TOURNAMENT_VALUE_EMPTY", cell.grid.name, cell.row, cell.column,
                             field=cell.label.strip().rstrip(":"), expected=expected)
            return None
        return value

    def at(self, name: str) -> tuple[str, int, int]:
        cell = self.block[name]
        return cell.grid.name, cell.row, cell.column

    def whole(self, name: str, minimum: int, *, required: bool) -> int | None:
        value = self.raw(name, required=required, expected=f"a whole number >= {minimum}")
        if value is None:
            return None
        parsed = cv.whole(value)
        if parsed is cv.INVALID or parsed is None or parsed < minimum:
            self.out.add("WHOLE_NUMBER_INVALID", *self.at(name), field=BLOCK_FIELDS[name][0].lower(),
                         value=value, minimum=minimum)
            return None
        return parsed

    def date(self, name: str) -> dt.date | None:
        value = self.raw(name, required=False)
        if value is None:
            return None
        parsed = cv.date(value)
        if parsed is cv.INVALID or parsed is None:
            self.out.add("DATE_INVALID", *self.at(name), field=BLOCK_FIELDS[name][0].lower(), value=value)
            return None
        return parsed


def check_tournament(block: dict[str, BlockCell], out: Collector, anchor: tuple[str, int, int]) -> Tournament:
    """Read and check the tournament block; ``anchor`` is where a missing field is reported."""
    read = _BlockReader(block, out, anchor)
    _conflicts(block, out)
    t = Tournament()
    t.name = cv.text(read.raw("name", required=True, expected="the tournament's name"))
    t.ruleset = _ruleset(read)
    t.city = cv.text(read.raw("city", required=False))
    t.country = cv.text(read.raw("country", required=False))
    _dates(read, t)
    t.days = read.whole("days", 1, required=False)
    t.players = read.whole("players", 2, required=True)
    t.countries = read.whole("countries", 1, required=False)
    t.effective_date = read.date("effective_date")
    _qualification(read, t)
    _weight(read, t, anchor)
    if t.days is not None and t.start_date is not None and t.end_date is not None and t.end_date >= t.start_date:
        span = (t.end_date - t.start_date).days + 1
        if span != t.days:
            out.add("DAYS_MISMATCH", *read.at("days"), days=t.days, start=t.start_date, end=t.end_date,
                    span=f"{span} day{'s' if span != 1 else ''}")
    return t


def _conflicts(block: dict[str, BlockCell], out: Collector) -> None:
    """A field given twice with different values: the sheet is ambiguous, so it is an error."""
    for name, cell in block.items():
        other = cell.conflict
        if other is not None:
            out.add("TOURNAMENT_FIELD_CONFLICT", cell.grid.name, cell.row, cell.column,
                    field=BLOCK_FIELDS[name][0], value=_shown(cell.value), at=_where(cell), other=_shown(other.value),
                    other_at=_where(other))


def _shown(value: Any) -> str | None:
    """A value as a message quotes it: dates as YYYY-MM-DD, numbers in their shortest form."""
    if isinstance(value, dt.datetime):
        value = value.date()
    return value.isoformat() if isinstance(value, dt.date) else cv.text(value)


def _where(cell: BlockCell) -> str:
    sheet = cell.grid.name
    quoted = sheet if sheet.replace("_", "").isalnum() else "'" + sheet.replace("'", "''") + "'"
    return f"{quoted}!{cv.a1(cell.row, cell.column)}"


def _ruleset(read: _BlockReader) -> str | None:
    value = read.raw("ruleset", required=True, expected="MCR or Riichi")
    if value is None:
        return None
    ruleset = RULESET_NAMES.get(fold(str(value)))
    if ruleset is None:
        read.out.add("RULESET_INVALID", *read.at("ruleset"), value=value)
    return ruleset


def _dates(read: _BlockReader, t: Tournament) -> None:
    start, end = read.date("start_date"), read.date("end_date")
    if "start_date" not in read.block and "end_date" not in read.block:
        read.out.add("TOURNAMENT_FIELD_MISSING", *read.anchor, field="start and end date",
                     labels=f"{BLOCK_FIELDS['start_date'][0]!r} and {BLOCK_FIELDS['end_date'][0]!r}")
        return
    if read.block.get("start_date") is None:
        start = end  # a one-day event labelled with a single "Date"
    if read.block.get("end_date") is None:
        end = start
    for name, value in (("start_date", start), ("end_date", end)):
        cell = read.block.get(name)
        if value is None and cell is not None and cv.is_empty(cell.value) and (cell.row, cell.column) not in cell.grid.formulas:
            read.out.add("TOURNAMENT_VALUE_EMPTY", *read.at(name), field=BLOCK_FIELDS[name][0],
                         expected="a date (YYYY-MM-DD)")
    if start is not None and end is not None and end < start:
        where = read.at("end_date") if "end_date" in read.block else read.at("start_date")
        read.out.add("END_BEFORE_START", *where, end=end, start=start)
        return
    t.start_date, t.end_date = start, end


def _qualification(read: _BlockReader, t: Tournament) -> None:
    value = read.raw("qualification", required=False)
    if value is None:
        return
    parsed = cv.flag(value)
    if parsed is cv.INVALID:
        read.out.add("QUALIFICATION_INVALID", *read.at("qualification"), value=value)
    elif isinstance(parsed, bool):
        t.qualification = parsed


def _weight(read: _BlockReader, t: Tournament, anchor: tuple[str, int, int]) -> None:
    value = read.raw("weight", required=False)
    if value is not None:
        parsed = cv.number(value)
        if parsed is cv.INVALID or parsed is None or parsed <= 0:
            read.out.add("WEIGHT_INVALID", *read.at("weight"), value=value)
            return
        t.weight = parsed
    components = (t.days, t.players, t.countries)
    if t.weight is None:
        if any(c is None for c in components):
            read.out.add("WEIGHT_MISSING", *(read.at("weight") if "weight" in read.block else anchor))
        return
    if all(c is not None for c in components) and t.end_date is not None and t.end_date >= MERS_2018:
        computed = mers.tournament_weight(t.days, t.players, t.countries, bool(t.qualification))  # type: ignore[arg-type]
        if abs(computed - t.weight) > 1e-9:
            read.out.add("WEIGHT_MISMATCH", *read.at("weight"), value=f"{t.weight:g}", computed=f"{computed:g}")
