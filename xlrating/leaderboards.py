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
    return Leaderboard("Dip Pouch", "rating", lines, about={"ties": ties},
                       empty_reason="No player has a Dip Pouch rating: the table holds no result.")


def dci_leaderboard(matches: Iterable[dci.Match], *, method: str = "formula",
                    category: str | None = None) -> Leaderboard:
    everyone = dci.ratings(matches, method=method)
    board = [r for r in everyone if category is None or r.category == category]
    categories = sorted({r.category for r in board})
    several = len(categories) > 1
    lines = []
    for r in board:
        line = {"player": r.player, "rating": r.rating, "count": r.matches}
        if several:
            line["category"] = r.category
        lines.append(line)
    shown = category or (categories[0] if len(categories) == 1 else None)
    about = {"method": method} | ({"category": shown} if shown else {})
    return Leaderboard("DCI", "rating", lines, about=about, group="category" if several else None,
                       empty_reason=_dci_empty_reason(category, sorted({r.category for r in everyone})))


def _dci_empty_reason(category: str | None, present: list[str]) -> str:
    if category is not None and present:
        return (f"No player has a DCI rating in category {category!r}: the matches are in "
                f"{', '.join(map(repr, present))}.")
    return "No player has a DCI rating: the table holds no rated match (a bye is not rated)."


def mers_leaderboard(results: Iterable[mers.Result], as_of: dt.date, *, rules: str | None = None,
                     ruleset: str | None = None, ties: TiePolicy = "best",
                     names: Mapping[str, str] | None = None) -> Leaderboard:
    """The MERS leaderboard with its breakdown; ``rules`` None: the era in force on ``as_of`` (the
    leaderboard's ``about`` names the era used); ``names`` (EMA ID -> name, e.g. from the store)
    adds a name column after the player's ID."""
    rules = mers.era_of(rules, as_of).name
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
    return Leaderboard("MERS", "total", lines, breakdown, about,
                       empty_reason=mers_empty_reason(as_of, rules=rules, ruleset=ruleset))


def mers_empty_reason(as_of: dt.date, *, rules: str | None = None, ruleset: str | None = None) -> str:
    """Why a MERS leaderboard has nobody, from the rules themselves (the terminal, files and the
    web ranking page say it in these words)."""
    era = mers.era_of(rules, as_of)
    years = next(years for years, factor in era.age_steps if factor == 0)
    of = f" of {ruleset}" if ruleset else ""
    return (f"No player has enough results for a MERS ranking{of} as of {as_of.isoformat()}: a player is "
            f"ranked with at least {mers.MINIMUM_RESULTS} results that count on that day, and under the "
            f"{era.name} rules a result counts from the day it is played until it is {years} years old.")
