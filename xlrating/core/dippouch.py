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

from xlrating.core import checks
from xlrating.core.errors import TableError
from xlrating.core.placement import TiePolicy, tie_policy
from xlrating.core.table_columns import DIPPOUCH_RESULT_COLUMNS
from xlrating.core.tables import read_table

try:  # the leaderboard's column engine; without numpy (LibreOffice's own Python) see core.without_numpy
    import numpy as np

    from xlrating.core.columns import (
        encode,
        first_disagreement,
        first_repeat,
        group_positions,
        scored_places,
        years,
    )
except ImportError:
    np = None  # type: ignore[assignment]

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

RESULT_COLUMNS = DIPPOUCH_RESULT_COLUMNS


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
    """Read a Dip Pouch results table (docs/interfaces.md columns) into :class:`Result` records."""
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
    renumbers nobody. Computed on columns (:func:`ratings_from_columns`), or without numpy player by
    player (:mod:`xlrating.core.without_numpy.dippouch`), with the same result.
    """
    if np is None:
        from xlrating.core.without_numpy import dippouch as replay

        return replay.ratings(results, ties=ties, cutoff_year=cutoff_year)
    return ratings_from_columns(ResultColumns.from_results(results), ties=ties, cutoff_year=cutoff_year)


@dataclass
class ResultColumns:
    """Results as parallel arrays. An event is a (date, name) pair; ``event`` codes follow
    ``events``, sorted by date then name, so code order is the order events are rated in."""

    event: np.ndarray
    date: np.ndarray  # proleptic Gregorian ordinal
    players: np.ndarray
    rounds: np.ndarray
    world_championship: np.ndarray
    player: np.ndarray
    place: np.ndarray
    row: np.ndarray
    events: list[tuple[dt.date, str]]
    names: list[str]

    @classmethod
    def from_results(cls, results: Iterable[Result]) -> ResultColumns:
        items = list(results)
        n = len(items)
        event, events = encode((r.date, r.event) for r in items)
        player, names = encode(r.player for r in items)

        def column(values: Iterable[Any], dtype: Any) -> np.ndarray:
            return np.fromiter(values, dtype=dtype, count=n)

        return cls(event, column((r.date.toordinal() for r in items), np.int64),
                   column((r.players for r in items), np.int64), column((r.rounds for r in items), np.int64),
                   column((r.world_championship for r in items), bool), player,
                   column((r.place for r in items), np.int64),
                   column((-1 if r.row is None else r.row for r in items), np.int64), events, names)


def ratings_from_columns(c: ResultColumns, *, ties: TiePolicy = "best", cutoff_year: int = CUTOFF_YEAR) -> list[Rating]:
    """The leaderboard from :class:`ResultColumns`.

    A rating only depends on the player's own results, so the k-th event of every player is
    rated in one vector step ("wave" k), in as many steps as the busiest player has events.
    """
    policy = tie_policy(ties)
    cutoff = checks.whole("cutoff_year", cutoff_year)
    _check_events(c)
    value = np.where(
        c.world_championship, WORLD_CHAMPIONSHIP_VALUE,
        np.where(years(c.date) < cutoff, 0.0,
                 np.minimum(VALUE_CAP, np.where(c.rounds == 1, c.players / 7 + 2, c.players / 3.5 + 2))))
    place = scored_places(c.event, c.place, policy)
    pct = (c.players + 0.5 - place) / c.players * 100.0

    order = np.argsort(c.player * max(len(c.events), 1) + c.event, kind="stable")
    wave = group_positions(c.player[order])
    order = order[np.argsort(wave, kind="stable")]
    bounds = np.r_[0, np.flatnonzero(np.diff(np.sort(wave))) + 1, len(order)]
    rating = np.full(len(c.names), STARTING_RATING)
    who, step, target = c.player[order], value[order] / 100.0, pct[order]
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        i = who[s:e]
        rating[i] += step[s:e] * (target[s:e] - rating[i])
    counted = np.bincount(c.player, minlength=len(c.names))
    board = [Rating(name, float(rating[i]), int(counted[i])) for i, name in enumerate(c.names)]
    board.sort(key=lambda r: (-r.rating, r.player))
    return board


def _check_events(c: ResultColumns) -> None:
    def row(i: int) -> int | None:
        return int(c.row[i]) if c.row[i] >= 0 else None

    def name(i: int) -> str:
        return c.events[int(c.event[i])][1]

    bad = np.flatnonzero((c.place < 1) | (c.place > c.players))
    if len(bad):
        i = int(bad[0])
        raise TableError(row(i), "place", f"a place from 1 to {c.players[i]} at event {name(i)!r}", int(c.place[i]))
    differs = first_disagreement(c.event, [c.players, c.rounds, c.world_championship])
    if differs is not None:
        i = differs
        raise TableError(row(i), "players", f"the same players, rounds and world_championship on every row of "
                         f"event {name(i)!r}")
    pair = first_repeat(c.event * max(len(c.names), 1) + c.player)
    if pair is not None:
        i = pair[1]
        raise TableError(row(i), "player", f"each player once per event ({name(i)!r})", c.names[int(c.player[i])])
