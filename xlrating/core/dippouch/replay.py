"""The Dip Pouch leaderboard without numpy: :func:`xlrating.core.dippouch.columns.ratings_from_columns`
player by player (a rating only depends on the player's own events, rated in event order)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable

from xlrating.core import checks
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

Event = tuple[dt.date, str]


def ratings(results: Iterable[Result], *, ties: TiePolicy = "best", cutoff_year: int = CUTOFF_YEAR) -> list[Rating]:
    """The leaderboard after replaying every event in date order (see :func:`xlrating.core.dippouch.ratings`)."""
    items = list(results)
    policy = tie_policy(ties)
    cutoff = checks.whole("cutoff_year", cutoff_year)
    events = {event: i for i, event in enumerate(sorted({_event(r) for r in items}))}
    _check_events(items, events)
    shared_place = Counter((_event(r), r.place) for r in items)
    history: dict[str, list[tuple[int, float, float]]] = {}
    for r in items:
        if r.world_championship:
            value = WORLD_CHAMPIONSHIP_VALUE
        elif r.date.year < cutoff:
            value = 0.0
        else:
            value = min(VALUE_CAP, r.players / 7 + 2 if r.rounds == 1 else r.players / 3.5 + 2)
        place = float(r.place)
        if policy == "average":
            place = place + (shared_place[_event(r), r.place] - 1) / 2
        percentile = (r.players + 0.5 - place) / r.players * 100.0
        history.setdefault(r.player, []).append((events[_event(r)], value / 100.0, percentile))
    board = []
    for player, steps in history.items():
        rating = STARTING_RATING
        for _, step, target in sorted(steps, key=lambda s: s[0]):
            rating += step * (target - rating)
        board.append(Rating(player, rating, len(steps)))
    board.sort(key=lambda r: (-r.rating, r.player))
    return board


def _event(r: Result) -> Event:
    return r.date, r.event


def _check_events(items: list[Result], events: dict[Event, int]) -> None:
    """The column engine's checks, with its error for the same row."""
    for r in items:
        if r.place < 1 or r.place > r.players:
            raise TableError(r.row, "place", f"a place from 1 to {int(r.players)} at event {r.event!r}",
                             int(r.place))
    first: dict[Event, Result] = {}
    for r in items:
        f = first.setdefault(_event(r), r)
        if (r.players, r.rounds, bool(r.world_championship)) != (f.players, f.rounds, bool(f.world_championship)):
            raise TableError(r.row, "players", f"the same players, rounds and world_championship on every row of "
                             f"event {r.event!r}")
    seen: dict[tuple[int, str], list[Result]] = {}
    for r in items:
        seen.setdefault((events[_event(r)], r.player), []).append(r)
    repeated = [key for key, listed in seen.items() if len(listed) > 1]
    if repeated:
        r = seen[min(repeated)][1]
        raise TableError(r.row, "player", f"each player once per event ({r.event!r})", r.player)
