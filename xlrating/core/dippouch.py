"""Dip Pouch Tournament Rating (Diplomacy), as shown on the World Diplomacy Database.

- Percentile of a placement: ``(N + 0.5 - place) / N * 100``.
- Tournament value (a percentage): World Championship 20; otherwise ``N / 7 + 2`` for a one-round
  event and ``N / 3.5 + 2`` for more rounds, capped at 15; 0 for events before the cut-off year
  (2001) that are not World Championships.
- After each event, in date order: ``new = old + value / 100 * (percentile - old)``, from 40.

Worked example given with the system: rated 55, 8th of 65 in a multi-round event: percentile
88.46, value 20.57 capped to 15, new rating 60.019.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xlrating.core import checks
from xlrating.core.errors import TableError
from xlrating.core.placement import TiePolicy, scored_places, tie_policy
from xlrating.core.tables import Column, read_table

STARTING_RATING = 40.0
WORLD_CHAMPIONSHIP_VALUE = 20.0
VALUE_CAP = 15.0
CUTOFF_YEAR = 2001


def percentile(players: int, place: float) -> float:
    """``(N + 0.5 - place) / N * 100``: the share of the field a placement beat, in percent."""
    n = checks.whole("players", players, minimum=1)
    p = checks.place("place", place, n)
    return _percentile(n, float(p))


def _percentile(players: float, place: float) -> float:
    return (players + 0.5 - place) / players * 100.0


def tournament_value(
    players: int,
    rounds: int,
    world_championship: bool = False,
    year: int | None = None,
    *,
    cutoff_year: int = CUTOFF_YEAR,
) -> float:
    """The event's value in percent: how far one result moves a rating toward its percentile.

    World Championship: 20. Otherwise ``N / 7 + 2`` (one round) or ``N / 3.5 + 2`` (more than one
    round), capped at 15, and 0 when ``year`` is before ``cutoff_year``.
    """
    n = checks.whole("players", players, minimum=1)
    r = checks.whole("rounds", rounds, minimum=1)
    if checks.flag("world_championship", world_championship):
        return WORLD_CHAMPIONSHIP_VALUE
    if year is not None and checks.whole("year", year) < checks.whole("cutoff_year", cutoff_year):
        return 0.0
    raw = n / 7 + 2 if r == 1 else n / 3.5 + 2
    return min(raw, VALUE_CAP)


def new_rating(rating: float, percentile: float, value: float) -> float:
    """``rating + value / 100 * (percentile - rating)``: the rating after one event."""
    old = checks.number("rating", rating, minimum=0, maximum=100)
    pct = checks.number("percentile", percentile, minimum=0, maximum=100)
    val = checks.number("value", value, minimum=0, maximum=100)
    return old + val / 100.0 * (pct - old)


# --- history --------------------------------------------------------------------------------------

RESULT_COLUMNS = (
    Column("event", "text"),
    Column("date", "date"),
    Column("players", "whole"),
    Column("rounds", "whole"),
    Column("player", "text"),
    Column("place", "whole"),
    Column("world_championship", "flag", required=False),
)


@dataclass(frozen=True)
class Result:
    """One player's placement at one event."""

    event: str
    date: dt.date
    players: int
    rounds: int
    player: str
    place: int
    world_championship: bool = False
    row: int | None = field(default=None, compare=False)  # source row, for error messages


@dataclass(frozen=True)
class Rating:
    """A leaderboard line: the player's rating after all their events and how many were counted."""

    player: str
    rating: float
    events: int


def results_from_table(rows: Iterable[Sequence[Any]], *, header_row: int = 1) -> list[Result]:
    """Read a Dip Pouch results table (INTERFACES.md columns) into :class:`Result` records."""
    results = []
    for rec in read_table(rows, RESULT_COLUMNS, header_row=header_row):
        if rec["place"] > rec["players"]:
            raise TableError(rec["_row"], "place", f"a place from 1 to players ({rec['players']})", rec["place"])
        results.append(
            Result(
                rec["event"], rec["date"], rec["players"], rec["rounds"], rec["player"], rec["place"],
                bool(rec["world_championship"]), rec["_row"],
            )
        )
    return results


def ratings(
    results: Iterable[Result],
    *,
    ties: TiePolicy = "best",
    cutoff_year: int = CUTOFF_YEAR,
) -> list[Rating]:
    """The leaderboard after replaying every event in date order (events on the same day by name).

    Each event's declared player count is used, never the number of rows it has: a missing row
    renumbers nobody. Events are rated as one vector step each: a player appears once per event.
    """
    policy = tie_policy(ties)
    events: dict[tuple[dt.date, str], list[Result]] = {}
    for result in results:
        events.setdefault((result.date, result.event), []).append(result)

    index: dict[str, int] = {}
    for key in sorted(events):
        for result in events[key]:
            index.setdefault(result.player, len(index))
    rating = np.full(len(index), STARTING_RATING)
    counted = np.zeros(len(index), dtype=np.int64)

    for (date, name), rows in sorted(events.items()):
        _check_event(name, rows)
        first = rows[0]
        value = tournament_value(first.players, first.rounds, first.world_championship, date.year,
                                 cutoff_year=cutoff_year)
        who = np.fromiter((index[r.player] for r in rows), dtype=np.int64, count=len(rows))
        places = np.asarray(scored_places([r.place for r in rows], policy))
        pct = (first.players + 0.5 - places) / first.players * 100.0
        rating[who] += value / 100.0 * (pct - rating[who])
        counted[who] += 1

    board = [Rating(p, float(rating[i]), int(counted[i])) for p, i in index.items()]
    board.sort(key=lambda r: (-r.rating, r.player))
    return board


def _check_event(name: str, rows: Sequence[Result]) -> None:
    first = rows[0]
    seen: set[str] = set()
    for r in rows:
        if (r.players, r.rounds, r.world_championship) != (first.players, first.rounds, first.world_championship):
            raise TableError(r.row, "players", f"the same players, rounds and world_championship on every row of event {name!r}")
        if not 1 <= r.place <= r.players:
            raise TableError(r.row, "place", f"a place from 1 to {r.players} at event {name!r}", r.place)
        if r.player in seen:
            raise TableError(r.row, "player", f"each player once per event ({name!r})", r.player)
        seen.add(r.player)

