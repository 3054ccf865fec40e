"""The DCI leaderboard on columns: each round of every independent event rated as one vector step."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from xlrating.core import checks
from xlrating.core.columns import first_repeat, mixed_radix
from xlrating.core.dci.rules import (
    METHODS,
    STARTING_RATING,
    TABLE_BOUNDS,
    TABLE_HIGH,
    TABLE_LOW,
    Match,
    Rating,
)
from xlrating.core.errors import TableError
from xlrating.core.powers import powers


@dataclass
class MatchColumns:
    """Matches as parallel arrays (one entry per row), the form the leaderboard is computed from.

    ``player``/``opponent`` index ``players`` (opponent -1: a bye); ``event`` and ``category``
    index ``events`` and ``categories``, which are sorted so that codes order like names.
    """

    date: np.ndarray  # proleptic Gregorian ordinal, int64
    event: np.ndarray
    round: np.ndarray
    category: np.ndarray
    player: np.ndarray
    opponent: np.ndarray
    result: np.ndarray
    k: np.ndarray
    row: np.ndarray
    players: list[str]
    events: list[str]
    categories: list[str]

    @classmethod
    def from_matches(cls, matches: Iterable[Match]) -> MatchColumns:
        items = list(matches)
        names = sorted({m.player for m in items} | {m.opponent for m in items if m.opponent is not None})
        events = sorted({m.event for m in items})
        categories = sorted({m.category for m in items})
        pi = {n: i for i, n in enumerate(names)}
        ei = {n: i for i, n in enumerate(events)}
        ci = {n: i for i, n in enumerate(categories)}
        n = len(items)

        def column(values: Iterable[Any], dtype: Any) -> np.ndarray:
            return np.fromiter(values, dtype=dtype, count=n)

        return cls(
            date=column((m.date.toordinal() for m in items), np.int64),
            event=column((ei[m.event] for m in items), np.int64),
            round=column((m.round for m in items), np.int64),
            category=column((ci[m.category] for m in items), np.int64),
            player=column((pi[m.player] for m in items), np.int64),
            opponent=column((-1 if m.opponent is None else pi[m.opponent] for m in items), np.int64),
            result=column((m.result for m in items), np.float64),
            k=column((m.k for m in items), np.float64),
            row=column((-1 if m.row is None else m.row for m in items), np.int64),
            players=names, events=events, categories=categories,
        )

    def select(self, mask: np.ndarray) -> MatchColumns:
        """The rows where ``mask`` is true (the name lists are shared)."""
        fields = ("date", "event", "round", "category", "player", "opponent", "result", "k", "row")
        return MatchColumns(**{f: getattr(self, f)[mask] for f in fields}, players=self.players,
                            events=self.events, categories=self.categories)


def ratings_from_columns(columns: MatchColumns, *, method: str = "formula") -> list[Rating]:
    """The leaderboard from :class:`MatchColumns`, each round rated as one vector step.

    Players meet at most once per round, so every match of a round starts from the ratings before
    it and the round's changes can be applied together. On a day when every player plays in one
    event only, the events of that day are independent too, so their same-numbered rounds are
    rated together.
    """
    how = checks.choice("method", method, METHODS)
    m = _rated_matches(columns)
    n_players = max(len(m.players), 1)
    a = m.category * n_players + m.player
    b = m.category * n_players + m.opponent
    rating = np.full(len(m.categories) * n_players, STARTING_RATING)

    day = m.date - (m.date.min() if len(m.date) else 0)
    shared = np.isin(m.date, _days_with_players_in_two_events(m, day))
    batch, _ = mixed_radix((day, day.max(initial=0) + 1), (np.where(shared, m.event + 1, 0), len(m.events) + 1),
                           (m.round, m.round.max(initial=0) + 1))
    order = np.argsort(batch)  # order within a batch does not matter
    batch = batch[order]
    bounds = np.r_[0, np.flatnonzero(batch[1:] != batch[:-1]) + 1, len(order)]
    a, b, w, k = a[order], b[order], m.result[order], m.k[order]
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        ia, ib = a[s:e], b[s:e]
        ra, rb = rating[ia], rating[ib]
        change = k[s:e] * (w[s:e] - expected_scores(ra, rb, how))
        rating[ia] = ra + change
        rating[ib] = rb - change

    counts = np.bincount(np.r_[a, b], minlength=len(rating))
    board = [
        Rating(m.players[slot % n_players], float(rating[slot]), int(counts[slot]), m.categories[slot // n_players])
        for slot in np.flatnonzero(counts).tolist()
    ]
    board.sort(key=lambda r: (r.category, -r.rating, r.player))
    return board


def expected_scores(rating: np.ndarray, opponent: np.ndarray, method: str = "formula") -> np.ndarray:
    """Vectorised :func:`win_probability`: the gap and ``1 / (1 + p)`` on arrays (IEEE-exact, the
    same double as one at a time), ``10 ** x`` by :func:`~xlrating.core.powers.powers`, one value at
    a time with the scalar path's power (numpy's own ``**`` differs from it in the last place on
    some processors)."""
    if method == "formula":
        p: np.ndarray = 1.0 / (1.0 + powers(10.0, (opponent - rating) / 400.0))
        return p
    gap = rating - opponent
    high, low = _table_columns()
    rows = np.searchsorted(TABLE_BOUNDS, np.floor(np.abs(gap) + 0.5), side="left")
    table: np.ndarray = np.where(gap >= 0, high[rows], low[rows])
    return table


@functools.cache
def _table_columns() -> tuple[np.ndarray, np.ndarray]:
    return np.array(TABLE_HIGH), np.array(TABLE_LOW)


def _round_key(c: MatchColumns) -> tuple[np.ndarray, int]:
    """One integer per (category, date, event, round), ordered like the tuple, and its range."""
    day = c.date - (c.date.min() if len(c.date) else 0)
    key, _ = mixed_radix((c.category, len(c.categories)), (day, day.max(initial=0) + 1),
                         (c.event, len(c.events)), (c.round, c.round.max(initial=0) + 1))
    return key, int(key.max(initial=0)) + 1


def _rated_matches(c: MatchColumns) -> MatchColumns:
    """Byes dropped, matches listed from both sides merged, and the rules of a round checked."""
    c = c.select(c.opponent >= 0)
    self_play = np.flatnonzero(c.player == c.opponent)
    if len(self_play):
        i = int(self_play[0])
        raise TableError(_row(c, i), "opponent", "an opponent other than the player", c.players[c.player[i]])
    n_players = max(len(c.players), 1)
    lo, hi = np.minimum(c.player, c.opponent), np.maximum(c.player, c.opponent)
    round_key, rounds = _round_key(c)
    pair, _ = mixed_radix((round_key, rounds), (lo, n_players), (hi, n_players))
    order = np.argsort(pair, kind="stable")  # keeps a pair's rows in file order
    repeat = np.flatnonzero(pair[order][1:] == pair[order][:-1])
    if len(repeat):
        first, second = order[repeat], order[repeat + 1]
        w_lo = np.where(c.player == lo, c.result, 1.0 - c.result)
        agree = (c.player[first] != c.player[second]) & (w_lo[first] == w_lo[second]) & (c.k[first] == c.k[second])
        agree &= ~np.isin(repeat, repeat + 1)  # a pair listed three times
        if not agree.all():
            j = int(np.flatnonzero(~agree)[0])
            x, y = int(first[j]), int(second[j])
            raise TableError(_row(c, y), "result", f"the same match as row {_row(c, x)} seen from the other "
                             f"side ({c.players[c.player[y]]} vs {c.players[c.opponent[y]]}, round {c.round[y]})",
                             float(c.result[y]))
        keep = np.ones(len(c.player), dtype=bool)
        keep[second] = False
        c = c.select(keep)
        round_key, rounds = _round_key(c)
    _check_once_per_round(c, round_key, rounds)
    return c


def _check_once_per_round(c: MatchColumns, round_key: np.ndarray, rounds: int) -> None:
    n = len(c.player)
    seat, _ = mixed_radix((np.r_[round_key, round_key], rounds), (np.r_[c.player, c.opponent], len(c.players)))
    pair = first_repeat(seat)
    if pair is None:
        return
    x, y = (i % n for i in pair) if n else (0, 0)
    x, y = min(x, y), max(x, y)
    name = c.players[int(np.r_[c.player, c.opponent][pair[0]])]
    raise TableError(_row(c, y), "player", f"each player in one match per round; {name!r} also plays in "
                     f"row {_row(c, x)} ({c.events[c.event[y]] or 'event'} round {c.round[y]}, "
                     f"{dt.date.fromordinal(int(c.date[y]))})")


def _days_with_players_in_two_events(c: MatchColumns, day: np.ndarray) -> np.ndarray:
    """Dates on which some (category, player) plays in more than one event."""
    both = np.r_[c.date, c.date]
    person_day, _ = mixed_radix((np.r_[c.category, c.category], len(c.categories)),
                                (np.r_[day, day], day.max(initial=0) + 1), (np.r_[c.player, c.opponent], len(c.players)))
    event = np.r_[c.event, c.event]
    key, exact = mixed_radix((person_day, int(person_day.max(initial=0)) + 1), (event, len(c.events)))
    if exact:  # one plain sort; the parts decode from the key
        key = np.sort(key)
        person_day, event = key // max(len(c.events), 1), key % max(len(c.events), 1)
        dates = None
    else:
        order = np.lexsort((event, person_day))
        person_day, event, dates = person_day[order], event[order], both[order]
    shared = np.flatnonzero((person_day[1:] == person_day[:-1]) & (event[1:] != event[:-1])) + 1
    if not len(shared):
        return np.zeros(0, dtype=np.int64)
    if dates is None:
        days = (person_day[shared] // max(len(c.players), 1)) % (day.max(initial=0) + 1)
        return np.unique(days + (c.date.min() if len(c.date) else 0))
    return np.unique(dates[shared])


def _row(c: MatchColumns, i: int) -> int | None:
    row = int(c.row[i])
    return None if row < 0 else row
