"""DCI rating (Magic: The Gathering), the Elo system the DCI used until 2011.

- New players start at 1600; matches are rated in date order, then event, then round.
- Win probability of a player rated ``R`` against ``O``: ``p = 1 / (1 + 10 ** ((O - R) / 400))``,
  or read from the FIDE Table 8.1(b)-style lookup by rating gap (columns "H" and "L").
- Change: ``delta = K * (W - p)``, W = 1 win, 0.5 draw, 0 loss; the opponent changes by
  ``-delta`` (zero-sum). K by event tier: 8, 16 (default), 24, 32, 40, 48.
- Byes are not rated. A rating history is per (player, category).

``10 ** x`` is :func:`xlrating.core.powers.power` on every path (the column engine's arrays, one
value at a time, and the record-by-record replay), so a leaderboard is the same double, the same
order and the same ties with or without numpy on one machine; across machines a rating may differ
in the last place where the C library's ``pow`` differs, which is far below the 1e-6 it is shown to.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import checks
from xlrating.core.errors import InvalidArgument, TableError
from xlrating.core.powers import power, powers
from xlrating.core.reference_data import load
from xlrating.core.table_columns import DCI_MATCH_COLUMNS
from xlrating.core.tables import read_table

try:  # the leaderboard's column engine; without numpy (LibreOffice's own Python) see core.without_numpy
    import numpy as np

    from xlrating.core.columns import first_repeat, mixed_radix
except ImportError:
    np = None  # type: ignore[assignment]

STARTING_RATING = 1600.0
DEFAULT_K = 16.0
METHODS = ("formula", "table")
BYE_NAMES = frozenset({"", "bye", "-", "(bye)"})
DEFAULT_CATEGORY = "Composite"

_TABLE = load("fide_table_8_1b.csv")
_TABLE_BOUNDS = [float(row["max_difference"]) for row in _TABLE]
_TABLE_HIGH = [float(row["H"]) for row in _TABLE]
_TABLE_LOW = [float(row["L"]) for row in _TABLE]
_TIERS = load("dci_k_tiers.csv")


def _tier_key(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


_K_BY_TIER: dict[str, float] = {
    _tier_key(name): float(tier["k"]) for tier in _TIERS for name in (tier["tier"], *tier["aliases"].split("|"))
}
TIERS: tuple[tuple[str, float], ...] = tuple((r["tier"], float(r["k"])) for r in _TIERS)


def win_probability(rating: float, opponent: float, method: str = "formula") -> float:
    """The player's expected score against the opponent.

    ``formula``: ``1 / (1 + 10 ** ((opponent - rating) / 400))``. ``table``: FIDE Table 8.1(b) by
    the rating gap rounded to the nearest whole point ("H" for the higher-rated player, "L" for the
    lower; equal ratings 0.50).
    """
    r = checks.number("rating", rating)
    o = checks.number("opponent", opponent)
    how = checks.choice("method", method, METHODS)
    return expected_score(r, o, how)


def expected_score(rating: float, opponent: float, method: str) -> float:
    """:func:`win_probability` of checked arguments: the same operations, in the same order, as
    :func:`expected_scores` does on arrays, and the same :func:`~xlrating.core.powers.power` for
    ``10 ** x``, so both give the same double on any machine. (A gap over ~123,000 points makes
    ``10 ** x`` infinite and the probability 0.)"""
    if method == "formula":
        return 1.0 / (1.0 + power(10.0, (opponent - rating) / 400.0))
    gap = rating - opponent
    distance = abs(gap) + 0.5
    row = bisect.bisect_left(_TABLE_BOUNDS, math.floor(distance) if math.isfinite(distance) else distance)
    return _TABLE_HIGH[row] if gap >= 0 else _TABLE_LOW[row]


_RESULT_WORDS = {"W": 1.0, "WIN": 1.0, "D": 0.5, "DRAW": 0.5, "L": 0.0, "LOSS": 0.0}


def score(result: Any) -> float:
    """W, the match score from the player's side: 1/0.5/0 or "W"/"D"/"L"."""
    if isinstance(result, str):
        word = result.strip().upper()
        if word in _RESULT_WORDS:
            return _RESULT_WORDS[word]
        try:
            result = float(word)
        except ValueError:
            raise InvalidArgument("result", '1, 0.5 or 0, or "W", "D" or "L"', result) from None
    if not isinstance(result, bool) and isinstance(result, (int, float)) and float(result) in (0.0, 0.5, 1.0):
        return float(result)
    raise InvalidArgument("result", '1, 0.5 or 0, or "W", "D" or "L"', result)


def k_value(event_tier: Any) -> float:
    """The K-value of a named event tier (casual 8, regular 16, competitive 24, professional 32,
    grand prix 40, pro tour 48; see ``TIERS`` for accepted names). A number is taken as K itself."""
    if isinstance(event_tier, (int, float)) and not isinstance(event_tier, bool):
        return checks.number("event_tier", event_tier, minimum=0)
    if isinstance(event_tier, str) and _tier_key(event_tier) in _K_BY_TIER:
        return _K_BY_TIER[_tier_key(event_tier)]
    names = ", ".join(f"{name!r} ({k:g})" for name, k in TIERS)
    raise InvalidArgument("event_tier", "a tier name: " + names, event_tier)


def delta(rating: float, opponent: float, result: Any, k: float = DEFAULT_K, method: str = "formula") -> float:
    """``K * (W - p)``: the player's rating change; the opponent's is the negative."""
    kk = checks.number("k", k, minimum=0)
    return kk * (score(result) - win_probability(rating, opponent, method))


# --- history --------------------------------------------------------------------------------------

MATCH_COLUMNS = DCI_MATCH_COLUMNS


@dataclass(frozen=True)
class Match:
    """One rated match from ``player``'s side; ``opponent`` None for a bye."""

    date: dt.date
    round: int
    player: str
    opponent: str | None
    result: float
    event: str = ""
    k: float = DEFAULT_K
    category: str = DEFAULT_CATEGORY
    row: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Rating:
    """A leaderboard line: rating in one category and the number of matches rated."""

    player: str
    rating: float
    matches: int
    category: str = DEFAULT_CATEGORY


def matches_from_table(rows: Iterable[Sequence[Any]], *, header_row: int = 1) -> list[Match]:
    """Read a DCI match table (docs/interfaces.md columns) into :class:`Match` records.

    Opponent "BYE", "-" or empty marks a bye. K comes from ``k``, else from ``tier``, else 16.
    """
    parsers = {"result": lambda name, v: score(v), "k": lambda name, v: k_value(v)}
    matches = []
    for rec in read_table(rows, MATCH_COLUMNS, header_row=header_row, parsers=parsers):
        opponent = rec["opponent"]
        if opponent is not None and opponent.strip().lower() in BYE_NAMES:
            opponent = None
        k = rec["k"] if rec["k"] is not None else rec["tier"] if rec["tier"] is not None else DEFAULT_K
        matches.append(Match(rec["date"], rec["round"], rec["player"], opponent, rec["result"],
                             rec["event"] or "", k, rec["category"] or DEFAULT_CATEGORY, rec["_row"]))
    return matches


def ratings(matches: Iterable[Match], *, method: str = "formula") -> list[Rating]:
    """Every (player, category)'s rating after replaying the matches in order.

    Order: date, event, round. A match listed from both sides counts once (the two rows must agree).
    Byes are not rated. See :func:`ratings_from_columns` for how rounds are rated as vectors; a
    Python without numpy replays the matches one by one (:mod:`xlrating.core.without_numpy.dci`),
    with the same result.
    """
    if np is None:
        from xlrating.core.without_numpy import dci as replay

        return replay.ratings(matches, method=method)
    return ratings_from_columns(MatchColumns.from_matches(matches), method=method)


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
    rows = np.searchsorted(_TABLE_BOUNDS, np.floor(np.abs(gap) + 0.5), side="left")
    table: np.ndarray = np.where(gap >= 0, high[rows], low[rows])
    return table


@functools.cache
def _table_columns() -> tuple[np.ndarray, np.ndarray]:
    return np.array(_TABLE_HIGH), np.array(_TABLE_LOW)


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
