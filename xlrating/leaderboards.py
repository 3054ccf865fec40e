"""Leaderboards of each system as exportable :class:`~xlrating.exports.Leaderboard` objects.

The glue between the core's history functions and the exports: which columns a leaderboard has
and, for MERS, the per-player breakdown of counted results, weights and age factors.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from xlrating.core import dci, dippouch, mers
from xlrating.core.placement import TiePolicy
from xlrating.exports import Leaderboard


def dippouch_leaderboard(results: Iterable[dippouch.Result], *, ties: TiePolicy = "best") -> Leaderboard:
    board = dippouch.ratings(results, ties=ties)
    lines = [{"player": r.player, "rating": r.rating, "count": r.events} for r in board]
    return Leaderboard("Dip Pouch", "rating", lines, about={"ties": ties})


def dci_leaderboard(matches: Iterable[dci.Match], *, method: str = "formula",
                    category: str | None = None) -> Leaderboard:
    board = [r for r in dci.ratings(matches, method=method) if category is None or r.category == category]
    several = len({r.category for r in board}) > 1
    lines = []
    for r in board:
        line = {"player": r.player, "rating": r.rating, "count": r.matches}
        if several:
            line["category"] = r.category
        lines.append(line)
    about = {"method": method} | ({"category": category} if category else {})
    return Leaderboard("DCI", "rating", lines, about=about, group="category" if several else None)


def mers_leaderboard(results: Iterable[mers.Result], as_of: dt.date, *, rules: str = "2005",
                     ruleset: str | None = None, ties: TiePolicy = "best",
                     names: Mapping[str, str] | None = None) -> Leaderboard:
    """The MERS leaderboard with its breakdown; ``names`` (EMA ID -> name, e.g. from the store)
    adds a name column after the player's ID."""
    board = mers.rankings(results, as_of, rules, ruleset_name=ruleset, ties=ties, with_breakdown=True)
    lines: list[dict[str, object]] = []
    for r in board:
        line: dict[str, object] = {"player": r.player}
        if names is not None:
            line["name"] = names.get(r.player, "")
        lines.append(line | {"total": r.total, "count": r.count})
    breakdown = []
    for r in board:
        for item in r.breakdown.results if r.breakdown else ():
            breakdown.append({
                "player": r.player,
                "tournament": "(padding to 5 results)" if item.padding else item.tournament,
                "date": item.date,
                "base_rank": item.base_rank,
                "weight": item.weight,
                "age_factor": item.age_factor,
            })
    about = {"as of": as_of.isoformat(), "rules": rules} | ({"ruleset": ruleset} if ruleset else {})
    return Leaderboard("MERS", "total", lines, breakdown, about)
