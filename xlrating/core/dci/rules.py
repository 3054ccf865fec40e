"""DCI rules for one match: win probability (formula or table), the match score, K by event tier,
the rating change; the matches table's records. The formulas are in the package docstring
(:mod:`xlrating.core.dci`)."""

from __future__ import annotations

import bisect
import datetime as dt
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import checks
from xlrating.core.errors import InvalidArgument
from xlrating.core.powers import power
from xlrating.core.reference_data import load
from xlrating.core.table_columns import DCI_MATCH_COLUMNS
from xlrating.core.tables import read_table

STARTING_RATING = 1600.0
DEFAULT_K = 16.0
METHODS = ("formula", "table")
BYE_NAMES = frozenset({"", "bye", "-", "(bye)"})
DEFAULT_CATEGORY = "Composite"

_TABLE = load("fide_table_8_1b.csv")
TABLE_BOUNDS = [float(row["max_difference"]) for row in _TABLE]
TABLE_HIGH = [float(row["H"]) for row in _TABLE]
TABLE_LOW = [float(row["L"]) for row in _TABLE]
_TIERS = load("dci_k_tiers.csv")


def _tier_key(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


K_BY_TIER: dict[str, float] = {
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
    row = bisect.bisect_left(TABLE_BOUNDS, math.floor(distance) if math.isfinite(distance) else distance)
    return TABLE_HIGH[row] if gap >= 0 else TABLE_LOW[row]


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
    if isinstance(event_tier, str) and _tier_key(event_tier) in K_BY_TIER:
        return K_BY_TIER[_tier_key(event_tier)]
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
