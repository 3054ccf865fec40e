"""The Dip Pouch leaderboard on columns: every player's k-th event rated in one vector step."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from xlrating.core import checks
from xlrating.core.columns import (
    encode,
    first_disagreement,
    first_repeat,
    group_positions,
    scored_places,
    years,
)
from xlrating.core.dippouch.rules import (
    CUTOFF_YEAR,
    STARTING_RATING,
    VALUE_CAP,
    WORLD_CHAMPIONSHIP_VALUE,
    Rating,
    Result,
)
from xlrating.core.errors import TableError
from xlrating.core.placement import TiePolicy, tie_policy


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
