"""A fourth rating system, written as a newcomer would add one: a plain Elo with a fixed K of 32
over a games table as a chess club keeps it (``event``, ``date``, ``round``, ``white``, ``black``,
``result`` 1-0, 1/2-1/2 or 0-1 from white's side), every player from 1500, games rated in date,
event and round order.

This module is all there is of it: its declaration and its maths. Importing it registers it (name it
in ``$XLRATING_SYSTEMS`` and every process loads it); then ``xlrating validate``, ``ingest`` and
``rank elo`` take its files, the officer's queue accepts them, and the server publishes its ranking,
events and players (the generic pages, with their JSON, CSV and Excel downloads) and finds them in
the search.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from xlrating.core.errors import TableError
from xlrating.core.names import fold
from xlrating.core.tables import Column, read_table
from xlrating.exports import Leaderboard
from xlrating.sheets.validate.events import EventTable
from xlrating.sheets.validate.findings import Collector, has_errors
from xlrating.sheets.validate.tables import TableLayout, read_rows
from xlrating.store import EntryRecord, EventRecord, SQLiteStore
from xlrating.systems import register
from xlrating.systems.base import RankOption
from xlrating.systems.tables import TableSystem

START = 1500.0
K = 32.0
SCORES = {"1-0": 1.0, "1/2-1/2": 0.5, "½-½": 0.5, "0-1": 0.0}


def _score(name: str, value: Any) -> float:
    text = str(value).strip().upper()
    if text not in SCORES:
        raise ValueError(text)
    return SCORES[text]


def _result(name: str, value: Any) -> float:
    from xlrating.core.errors import InvalidArgument

    try:
        return _score(name, value)
    except ValueError:
        raise InvalidArgument(name, "1-0, 1/2-1/2 or 0-1", value) from None


COLUMNS = (Column("event", "text"), Column("date", "date"), Column("round", "whole"), Column("white", "text"),
           Column("black", "text"), Column("result", "result"))
PARSERS = {"result": _result}


@dataclass(frozen=True)
class Match:
    event: str
    date: dt.date
    round: int
    player: str
    opponent: str
    result: float
    row: int


@dataclass(frozen=True)
class Event:
    name: str
    date: dt.date
    matches: tuple[Match, ...]

    def label(self) -> str:
        return f"{self.name} ({self.date.isoformat()})"


def ratings(matches: Sequence[Match]) -> tuple[dict[str, float], dict[str, int], list[dict[str, Any]]]:
    """Every player's rating and matches rated, and each match's change, in rating order."""
    rating: dict[str, float] = {}
    played: dict[str, int] = {}
    steps = []
    for m in sorted(matches, key=lambda m: (m.date, m.event, m.round, m.row)):
        if m.player == m.opponent:
            raise TableError(m.row, "black", "an opponent other than the player", m.opponent)
        a, b = rating.get(m.player, START), rating.get(m.opponent, START)
        expected = 1.0 / (1.0 + 10.0 ** ((b - a) / 400.0))
        change = K * (m.result - expected)
        rating[m.player], rating[m.opponent] = a + change, b - change
        for name in (m.player, m.opponent):
            played[name] = played.get(name, 0) + 1
        steps.append({"date": m.date.isoformat(), "event": m.event, "round": m.round, "player": m.player,
                      "opponent": m.opponent, "result": m.result, "expected": expected, "player_before": a,
                      "change": change, "opponent_before": b})
    return rating, played, steps


class Elo(TableSystem):
    key = "elo"
    title = "Elo"
    game = "any two-player game"
    table_title = "Elo games"
    columns = COLUMNS
    rank_options: ClassVar[tuple[RankOption, ...]] = ()

    def read_events(self, layout: TableLayout, out: Collector) -> EventTable:
        table = EventTable(self.key, self.table_title, layout.grid.name)
        records = read_rows(layout, COLUMNS, out, PARSERS)
        if not records:
            out.add("TABLE_EMPTY", layout.grid.name, layout.header_row, 1, table=self.table_title, row_is="match")
        if has_errors(out.findings):
            return table
        events: dict[tuple[str, dt.date], list[Match]] = {}
        for r in records:
            match = Match(r["event"], r["date"], r["round"], r["white"], r["black"], r["result"], r["_row"])
            events.setdefault((fold(match.event), match.date), []).append(match)
        table.events = [Event(matches[0].event, matches[0].date, tuple(matches)) for matches in events.values()]
        return table

    def check_rankable(self, table: EventTable) -> None:
        ratings([m for e in table.events for m in e.matches])

    def event_record(self, event: Event, sheet: str | None) -> EventRecord:
        entries = tuple(EntryRecord(m.row, m.player, opponent=m.opponent, result=m.result, round=m.round, date=m.date)
                        for m in event.matches)
        content = sorted([m.round, m.player, m.opponent, m.result] for m in event.matches)
        fingerprint = hashlib.sha256(json.dumps([event.name, event.date.isoformat(), content]).encode()).hexdigest()
        players = len({m.player for m in event.matches} | {m.opponent for m in event.matches})
        return EventRecord(f"{fold(event.name)}|{event.date.isoformat()}", event.name, event.date, event.date, players,
                           fingerprint, event.label(), entries, {}, sheet)

    def records_from_table(self, rows: Sequence[Sequence[Any]], header_row: int) -> list[Match]:
        return [Match(r["event"], r["date"], r["round"], r["white"], r["black"], r["result"], r["_row"])
                for r in read_table(rows, COLUMNS, header_row=header_row, parsers=PARSERS)]

    def stored_records(self, store: SQLiteStore, **options: Any) -> list[Match]:
        return [Match(event.name, entry.date or event.start_date, entry.round or 1, entry.player or "",
                      entry.opponent or "", float(entry.result or 0.0), entry.row)
                for event, entry in store.current_entries(self.key)]

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard:
        rating, played, _ = ratings(records)
        lines = sorted(({"player": p, "rating": r, "count": played[p]} for p, r in rating.items()),
                       key=lambda line: (-line["rating"], line["player"]))
        return Leaderboard("Elo", "rating", lines, about={"K": K},
                           empty_reason="No player has an Elo rating: no match is stored.")

    def history(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        _, _, steps = ratings(records)
        mine = []
        for step in steps:
            if player in (step["player"], step["opponent"]):
                ours = step["player"] == player
                before = step["player_before"] if ours else step["opponent_before"]
                change = step["change"] if ours else -step["change"]
                mine.append({"date": step["date"], "event": step["event"], "round": step["round"],
                             "opponent": step["opponent"] if ours else step["player"],
                             "result": step["result"] if ours else 1.0 - step["result"],
                             "rating_before": before, "change": change, "rating_after": before + change})
        return mine


SYSTEM = register(Elo())
