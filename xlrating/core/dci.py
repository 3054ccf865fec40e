"""DCI rating (Magic: The Gathering), the Elo system the DCI used until 2011.

- New players start at 1600; matches are rated in date order, then event, then round.
- Win probability of a player rated ``R`` against ``O``: ``p = 1 / (1 + 10 ** ((O - R) / 400))``,
  or read from the FIDE Table 8.1(b)-style lookup by rating gap (columns "H" and "L").
- Change: ``delta = K * (W - p)``, W = 1 win, 0.5 draw, 0 loss; the opponent changes by
  ``-delta`` (zero-sum). K by event tier: 8, 16 (default), 24, 32, 40, 48.
- Byes are not rated. A rating history is per (player, category).
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xlrating.core import checks
from xlrating.core.errors import InvalidArgument, TableError
from xlrating.core.reference_data import load
from xlrating.core.tables import Column, read_table

STARTING_RATING = 1600.0
DEFAULT_K = 16.0
METHODS = ("formula", "table")
BYE_NAMES = frozenset({"", "bye", "-", "(bye)"})
DEFAULT_CATEGORY = "Composite"

_TABLE = load("fide_table_8_1b.csv")
_TABLE_BOUNDS = [float(row["max_difference"]) for row in _TABLE]
_TIERS = load("dci_k_tiers.csv")


def _tier_key(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


_K_BY_TIER: dict[str, float] = {}
for _row in _TIERS:
    for _name in (_row["tier"], *_row["aliases"].split("|")):
        _K_BY_TIER[_tier_key(_name)] = float(_row["k"])
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
    if how == "formula":
        return 1.0 / (1.0 + 10.0 ** ((o - r) / 400.0))
    return _table_probability(r - o)


def _table_probability(gap: float) -> float:
    row = _TABLE[bisect.bisect_left(_TABLE_BOUNDS, math.floor(abs(gap) + 0.5))]
    return float(row["H"] if gap >= 0 else row["L"])


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

MATCH_COLUMNS = (
    Column("date", "date"),
    Column("round", "whole"),
    Column("player", "text"),
    Column("opponent", "text", required=False),
    Column("result", "result"),
    Column("event", "text", required=False),
    Column("k", "number", required=False),
    Column("tier", "k", required=False),
    Column("category", "text", required=False),
)


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
    """Read a DCI match table (INTERFACES.md columns) into :class:`Match` records.

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
    Byes are not rated. A round is rated as one vector step: players meet at most once per round,
    so each match in it starts from the ratings before the round.
    """
    how = checks.choice("method", method, METHODS)
    rounds = _rounds(matches)
    index: dict[tuple[str, str], int] = {}
    for key in sorted(rounds):
        for m in rounds[key]:
            index.setdefault((m.category, m.player), len(index))
            index.setdefault((m.category, m.opponent or ""), len(index))
    rating = np.full(len(index), STARTING_RATING)
    rated = np.zeros(len(index), dtype=np.int64)

    for key in sorted(rounds):
        batch = rounds[key]
        a = np.fromiter((index[(m.category, m.player)] for m in batch), np.int64, len(batch))
        b = np.fromiter((index[(m.category, m.opponent or "")] for m in batch), np.int64, len(batch))
        w = np.fromiter((m.result for m in batch), np.float64, len(batch))
        k = np.fromiter((m.k for m in batch), np.float64, len(batch))
        change = k * (w - expected_scores(rating[a], rating[b], how))
        rating[a] += change
        rating[b] -= change
        rated[a] += 1
        rated[b] += 1

    board = [Rating(p, float(rating[i]), int(rated[i]), c) for (c, p), i in index.items() if rated[i]]
    board.sort(key=lambda r: (r.category, -r.rating, r.player))
    return board


def expected_scores(rating: np.ndarray, opponent: np.ndarray, method: str = "formula") -> np.ndarray:
    """Vectorised :func:`win_probability`."""
    if method == "formula":
        return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))
    gap = rating - opponent
    rows = np.searchsorted(_TABLE_BOUNDS, np.floor(np.abs(gap) + 0.5), side="left")
    high = np.array([float(r["H"]) for r in _TABLE])[rows]
    low = np.array([float(r["L"]) for r in _TABLE])[rows]
    return np.where(gap >= 0, high, low)


RoundKey = tuple[dt.date, str, int]


def _rounds(matches: Iterable[Match]) -> dict[RoundKey, list[Match]]:
    """Rated matches grouped by (date, event, round), both-sided listings merged, byes dropped."""
    rounds: dict[RoundKey, dict[tuple[str, str, str], Match]] = {}
    for m in matches:
        if m.opponent is None:
            continue
        if m.opponent == m.player:
            raise TableError(m.row, "opponent", "an opponent other than the player", m.opponent)
        pair = (m.category, *sorted((m.player, m.opponent)))
        seen = rounds.setdefault((m.date, m.event, m.round), {})
        earlier = seen.get(pair)  # type: ignore[arg-type]
        if earlier is None:
            seen[pair] = m  # type: ignore[index]
            continue
        mirrored = earlier.player == m.opponent and earlier.result == 1.0 - m.result and earlier.k == m.k
        if not mirrored:
            raise TableError(m.row, "result", f"the same match as row {earlier.row} seen from the other side "
                             f"({m.player} vs {m.opponent}, round {m.round})", m.result)
    grouped: dict[RoundKey, list[Match]] = {}
    for key, pairs in rounds.items():
        batch = list(pairs.values())
        _check_once_per_round(key, batch)
        grouped[key] = batch
    return grouped


def _check_once_per_round(key: RoundKey, batch: Sequence[Match]) -> None:
    seen: dict[tuple[str, str], Match] = {}
    for m in batch:
        for who in (m.player, m.opponent or ""):
            other = seen.get((m.category, who))
            if other is not None and other is not m:
                raise TableError(m.row, "player", f"each player in one match per round; {who!r} also plays "
                                 f"in row {other.row} ({key[1] or 'event'} round {key[2]}, {key[0]})")
            seen[(m.category, who)] = m
