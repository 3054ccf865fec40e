"""The MERS leaderboard on columns: base ranks, age factors and every player's weighted averages as
grouped sums, so 100k results rank in a fraction of a second."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from xlrating.core.columns import encode, first_disagreement, first_repeat, group_positions, scored_places
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


@dataclass
class ResultColumns:
    """MERS results as parallel arrays. ``player`` -1: no EMA ID; ``place`` 0 and ``base_rank``
    NaN mark whichever of the two was not given; ``effective`` -1: no effective date."""

    tournament: np.ndarray
    date: np.ndarray  # proleptic Gregorian ordinal
    effective: np.ndarray
    players: np.ndarray
    weight: np.ndarray
    place: np.ndarray
    base_rank: np.ndarray
    player: np.ndarray
    ruleset: np.ndarray  # index into RULESETS
    row: np.ndarray
    tournaments: list[tuple[dt.date, str]]
    names: list[str]

    @classmethod
    def from_results(cls, results: Iterable[Result]) -> ResultColumns:
        items = list(results)
        n = len(items)
        # A tournament is its (date, name): a yearly event keeps its name from one edition to the next.
        tournament, tournaments = encode((r.date, r.tournament) for r in items)
        named = sorted({r.player for r in items if r.player is not None})
        index = {name: i for i, name in enumerate(named)}

        def column(values: Iterable[Any], dtype: Any) -> np.ndarray:
            return np.fromiter(values, dtype=dtype, count=n)

        return cls(
            tournament, column((r.date.toordinal() for r in items), np.int64),
            column((r.effective_date.toordinal() if r.effective_date else -1 for r in items), np.int64),
            column((r.players for r in items), np.int64), column((r.weight for r in items), np.float64),
            column((r.place or 0 for r in items), np.int64),
            column((np.nan if r.base_rank is None else r.base_rank for r in items), np.float64),
            column((-1 if r.player is None else index[r.player] for r in items), np.int64),
            column((RULESETS.index(r.ruleset) for r in items), np.int64),
            column((-1 if r.row is None else r.row for r in items), np.int64), tournaments, named)

    def select(self, mask: np.ndarray) -> ResultColumns:
        fields = ("tournament", "date", "effective", "players", "weight", "place", "base_rank", "player",
                  "ruleset", "row")
        return ResultColumns(**{f: getattr(self, f)[mask] for f in fields}, tournaments=self.tournaments,
                             names=self.names)


def rankings_from_columns(c: ResultColumns, as_of: Any, rules: str | None = None, *, ruleset_name: str | None = None,
                          ties: TiePolicy = "best", with_breakdown: bool = False) -> list[Ranking]:
    """The leaderboard from :class:`ResultColumns`: every player's weighted averages at once,
    as grouped sums over the counted results sorted by player and base rank."""
    day = as_date("as_of", as_of)
    era = era_of(rules, day)
    policy = tie_policy(ties)
    if ruleset_name is not None:
        c = c.select(c.ruleset == RULESETS.index(ruleset(ruleset_name)))
    _check_tournaments(c)
    place = scored_places(c.tournament, c.place, policy)
    b = np.where(np.isnan(c.base_rank), (c.players - place) * 1000.0 / np.maximum(c.players - 1, 1), c.base_rank)
    if era.integer_base_ranks:
        b = np.floor(b + 0.5)
    aged = np.where(c.effective >= 0, c.effective, c.date)
    distinct, inverse = np.unique(aged, return_inverse=True)
    factors = np.array([aged_factor(dt.date.fromordinal(int(d)), day, era) for d in distinct.tolist()])
    # Played after the ranking date: not counted, whatever the effective date says.
    a = np.where(c.date > day.toordinal(), 0.0, factors[inverse]) if len(distinct) else np.zeros(0)

    source = np.flatnonzero((c.player >= 0) & (a > 0))
    n_names = len(c.names)
    counted = np.bincount(c.player[source], minlength=n_names)
    source = source[counted[c.player[source]] >= MINIMUM_RESULTS]
    pads = np.where(counted >= MINIMUM_RESULTS, np.maximum(PADDED_RESULTS - counted, 0), 0)
    who = np.r_[c.player[source], np.repeat(np.arange(n_names), pads)]
    base = np.r_[b[source], np.zeros(int(pads.sum()))]
    weight = np.r_[c.weight[source], np.ones(int(pads.sum()))]
    factor = np.r_[a[source], np.ones(int(pads.sum()))]
    origin = np.r_[source, np.full(int(pads.sum()), -1)]
    order = np.lexsort((-(weight * factor), -base, who))  # best first within each player
    who, base, weight, factor, origin = who[order], base[order], weight[order], factor[order], origin[order]
    position = group_positions(who)
    wa = weight * factor

    def average(mask: np.ndarray | None = None) -> np.ndarray:
        m = slice(None) if mask is None else mask
        num = np.bincount(who[m], weights=(wa * base)[m], minlength=n_names)
        den = np.bincount(who[m], weights=wa[m], minlength=n_names)
        return np.divide(num, den, out=np.zeros(n_names), where=den > 0)

    parts: dict[str, np.ndarray]
    if era.name == "2005":
        parts = {"all": average()}
        total = parts["all"]
    elif era.name == "2010":
        parts = {"all": average(), "best_3": average(position < 3)}
        total = 0.5 * parts["all"] + 0.5 * parts["best_3"]
    else:
        size_a = PADDED_RESULTS + (4 * np.maximum(counted - PADDED_RESULTS, 0) + 4) // 5
        parts = {"part_a": average(position < size_a[who]), "part_b": average(position < 4)}
        total = 0.5 * parts["part_a"] + 0.5 * parts["part_b"]

    ranked = np.flatnonzero(counted >= MINIMUM_RESULTS)
    details: dict[int, list[CountedResult]] = {}
    if with_breakdown:
        for i, p in enumerate(who.tolist()):
            o = int(origin[i])
            details.setdefault(p, []).append(CountedResult(
                float(base[i]), float(weight[i]), float(factor[i]),
                dt.date.fromordinal(int(c.date[o])) if o >= 0 else None, padding=o < 0,
                tournament=c.tournaments[int(c.tournament[o])][1] if o >= 0 else None))
    board = []
    for p in ranked.tolist():
        working = Breakdown(float(total[p]), int(counted[p]), tuple(details.get(p, ())),
                            {k: float(v[p]) for k, v in parts.items()}) if with_breakdown else None
        board.append(Ranking(c.names[p], float(total[p]), int(counted[p]), working))
    board.sort(key=lambda r: (-r.total, r.player))
    return board


def _check_tournaments(c: ResultColumns) -> None:
    def row(i: int) -> int | None:
        return int(c.row[i]) if c.row[i] >= 0 else None

    def name(i: int) -> str:
        date, title = c.tournaments[int(c.tournament[i])]
        return f"{title!r} ({date.isoformat()})"

    i = first_disagreement(c.tournament, [c.players, c.weight])
    if i is not None:
        raise TableError(row(i), "players", f"the same players and weight on every row of {name(i)}")
    named = np.flatnonzero(c.player >= 0)
    pair = first_repeat(c.tournament[named] * max(len(c.names), 1) + c.player[named])
    if pair is not None:
        i = int(named[pair[1]])
        raise TableError(row(i), "player", f"each player once per tournament ({name(i)})", c.names[int(c.player[i])])
