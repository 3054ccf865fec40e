"""The MERS leaderboard without numpy: :func:`xlrating.core.mers.columns.rankings_from_columns` player by
player, each weighted average summed in the column engine's order (best first), so every total is
the same double."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from xlrating.core.dates import as_date
from xlrating.core.errors import TableError
from xlrating.core.mers.results import Ranking, Result, ruleset
from xlrating.core.mers.rules import (
    MINIMUM_RESULTS,
    PADDED_RESULTS,
    RULESETS,
    Breakdown,
    CountedResult,
    aged_factor,
    era_of,
)
from xlrating.core.placement import TiePolicy, tie_policy

Tournament = tuple[dt.date, str]
# One counted result as the column engine holds it: base rank, weight, age factor, source (None: padding).
Counted = tuple[float, float, float, Result | None]


def rankings(results: Iterable[Result], as_of: Any, rules: str | None = None, *, ruleset_name: str | None = None,
             ties: TiePolicy = "best", with_breakdown: bool = False) -> list[Ranking]:
    """The leaderboard of one ruleset on ``as_of`` (see :func:`xlrating.core.mers.rankings`)."""
    items = list(results)
    codes = [RULESETS.index(r.ruleset) for r in items]  # as the columns hold them (an unknown one fails)
    day = as_date("as_of", as_of)
    era = era_of(rules, day)
    policy = tie_policy(ties)
    tournaments = {t: i for i, t in enumerate(sorted({_tournament(r) for r in items}))}
    if ruleset_name is not None:
        wanted = RULESETS.index(ruleset(ruleset_name))
        items = [r for r, code in zip(items, codes) if code == wanted]
    _check_tournaments(items, tournaments)
    shared_place = Counter((_tournament(r), r.place or 0) for r in items)
    factors: dict[int, float] = {}
    counted: dict[str, list[Counted]] = {}
    for r in items:
        ageing = (r.effective_date or r.date).toordinal()
        if ageing not in factors:
            factors[ageing] = aged_factor(dt.date.fromordinal(ageing), day, era)
        a = 0.0 if r.date.toordinal() > day.toordinal() else factors[ageing]
        if r.player is None or not a > 0:
            continue
        if r.base_rank is None:
            place = float(r.place or 0)
            if policy == "average":
                place = place + (shared_place[_tournament(r), r.place or 0] - 1) / 2
            b = (r.players - place) * 1000.0 / max(r.players - 1, 1)
        else:
            b = float(r.base_rank)
        if era.integer_base_ranks:
            b = float(math.floor(b + 0.5))
        counted.setdefault(r.player, []).append((b, float(r.weight), a, r))

    board = []
    for player, own in counted.items():
        n = len(own)
        if n < MINIMUM_RESULTS:
            continue
        listed = own + [(0.0, 1.0, 1.0, None)] * max(PADDED_RESULTS - n, 0)
        listed.sort(key=lambda c: (-c[0], -(c[1] * c[2])))  # best first, as the column engine sorts
        parts: dict[str, float]
        if era.name == "2005":
            parts = {"all": _average(listed)}
            total = parts["all"]
        elif era.name == "2010":
            parts = {"all": _average(listed), "best_3": _average(listed, 3)}
            total = 0.5 * parts["all"] + 0.5 * parts["best_3"]
        else:
            size_a = PADDED_RESULTS + (4 * max(n - PADDED_RESULTS, 0) + 4) // 5
            parts = {"part_a": _average(listed, size_a), "part_b": _average(listed, 4)}
            total = 0.5 * parts["part_a"] + 0.5 * parts["part_b"]
        working = Breakdown(total, n, tuple(_counted_result(c) for c in listed), parts) if with_breakdown else None
        board.append(Ranking(player, total, n, working))
    board.sort(key=lambda r: (-r.total, r.player))
    return board


def _average(listed: list[Counted], best: int | None = None) -> float:
    """``sum(w * a * b) / sum(w * a)`` over the first ``best`` results, summed in order."""
    num = den = 0.0
    for b, w, a, _ in listed[:best]:
        wa = w * a
        num += wa * b
        den += wa
    return num / den if den > 0 else 0.0


def _counted_result(c: Counted) -> CountedResult:
    b, w, a, source = c
    if source is None:
        return CountedResult(b, w, a, None, padding=True)
    return CountedResult(b, w, a, dt.date.fromordinal(source.date.toordinal()), tournament=source.tournament)


def _tournament(r: Result) -> Tournament:
    return r.date, r.tournament


def _check_tournaments(items: list[Result], tournaments: dict[Tournament, int]) -> None:
    """The column engine's checks, with its error for the same row."""
    def name(r: Result) -> str:
        return f"{r.tournament!r} ({r.date.isoformat()})"

    first: dict[Tournament, Result] = {}
    for r in items:
        f = first.setdefault(_tournament(r), r)
        if r.players != f.players or float(r.weight) != float(f.weight):
            raise TableError(r.row, "players", f"the same players and weight on every row of {name(r)}")
    seen: dict[tuple[int, str], list[Result]] = {}
    for r in items:
        if r.player is not None:
            seen.setdefault((tournaments[_tournament(r)], r.player), []).append(r)
    repeated = [key for key, listed in seen.items() if len(listed) > 1]
    if repeated:
        r = seen[min(repeated)][1]
        raise TableError(r.row, "player", f"each player once per tournament ({name(r)})", r.player)

