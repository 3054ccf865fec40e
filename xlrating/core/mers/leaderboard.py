"""The MERS leaderboard: result tables in, every ranked player's total out, per ruleset.

Computed on columns (:class:`ResultColumns`): base ranks, age factors and every player's weighted
averages as grouped sums, so 100k results rank in a fraction of a second.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import checks
from xlrating.core.dates import as_date
from xlrating.core.ema_ids import player_id
from xlrating.core.errors import InvalidArgument, TableError
from xlrating.core.mers.rules import (
    ERAS,
    MINIMUM_RESULTS,
    PADDED_RESULTS,
    RULES,
    RULESETS,
    Breakdown,
    CountedResult,
    aged_factor,
)
from xlrating.core.placement import TiePolicy, tie_policy
from xlrating.core.tables import Column, read_table

try:  # the leaderboard's column engine; without numpy (LibreOffice's own Python) see core.without_numpy
    import numpy as np

    from xlrating.core.columns import encode, first_disagreement, first_repeat, group_positions, scored_places
except ImportError:
    np = None  # type: ignore[assignment]

RESULT_COLUMNS = (
    Column("tournament", "text"),
    Column("date", "date"),
    Column("players", "whole"),
    Column("weight", "number"),
    Column("player", "player", required=False),
    Column("place", "whole", required=False),
    Column("ruleset", "text", required=False),
    Column("effective_date", "date", required=False),
    Column("base_rank", "number", required=False),
)



@dataclass(frozen=True)
class Result:
    """One player's result at one tournament. ``player`` None: a player from outside the EMA
    (counts in N, is not ranked). ``place`` None when the base rank was given instead."""

    tournament: str
    date: dt.date
    players: int
    weight: float
    player: str | None
    place: int | None = None
    ruleset: str = "MCR"
    effective_date: dt.date | None = None
    base_rank: float | None = None
    row: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Ranking:
    """A leaderboard line: ``total`` over ``count`` counted results, with the working."""

    player: str
    total: float
    count: int
    breakdown: Breakdown | None = field(default=None, repr=False, compare=False)


def ruleset(value: Any) -> str:
    """``MCR`` or ``Riichi`` (any case)."""
    return checks.choice("ruleset", value, RULESETS)


def results_from_table(rows: Iterable[Sequence[Any]], *, header_row: int = 1) -> list[Result]:
    """Read a MERS results table (docs/interfaces.md columns) into :class:`Result` records."""
    results = []
    for rec in read_table(rows, RESULT_COLUMNS, header_row=header_row, parsers={"player": player_id}):
        row = rec["_row"]
        if rec["place"] is None and rec["base_rank"] is None:
            raise TableError(row, "place", "a place (or a base_rank column)")
        if rec["players"] < 2:
            raise TableError(row, "players", "at least 2 players", rec["players"])
        if rec["place"] is not None and rec["place"] > rec["players"]:
            raise TableError(row, "place", f"a place from 1 to players ({rec['players']})", rec["place"])
        if rec["base_rank"] is not None and not 0 <= rec["base_rank"] <= 1000:
            raise TableError(row, "base_rank", "a base rank from 0 to 1000", rec["base_rank"])
        if rec["weight"] <= 0:
            raise TableError(row, "weight", "a weight > 0", rec["weight"])
        try:
            rules = ruleset(rec["ruleset"]) if rec["ruleset"] is not None else "MCR"
        except InvalidArgument:
            raise TableError(row, "ruleset", "MCR or Riichi", rec["ruleset"]) from None
        results.append(Result(rec["tournament"], rec["date"], rec["players"], rec["weight"], rec["player"],
                              rec["place"], rules, rec["effective_date"], rec["base_rank"], row))
    return results


def rankings(
    results: Iterable[Result],
    as_of: Any,
    rules: str = "2005",
    *,
    ruleset_name: str | None = None,
    ties: TiePolicy = "best",
    with_breakdown: bool = False,
) -> list[Ranking]:
    """The leaderboard of one ruleset on ``as_of``: ranked players, best total first.

    ``ruleset_name`` None means every result is used (a single-ruleset table). Base ranks are
    computed from places with the event's declared player count and the tie policy.
    ``with_breakdown`` attaches each player's counted results (best first, then padding).
    Computed on columns (:func:`rankings_from_columns`), or without numpy player by player
    (:mod:`xlrating.core.without_numpy.mers`), with the same result.
    """
    if np is None:
        from xlrating.core.without_numpy import mers as replay

        return replay.rankings(results, as_of, rules, ruleset_name=ruleset_name, ties=ties,
                               with_breakdown=with_breakdown)
    return rankings_from_columns(ResultColumns.from_results(results), as_of, rules, ruleset_name=ruleset_name,
                                 ties=ties, with_breakdown=with_breakdown)


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


def rankings_from_columns(c: ResultColumns, as_of: Any, rules: str = "2005", *, ruleset_name: str | None = None,
                          ties: TiePolicy = "best", with_breakdown: bool = False) -> list[Ranking]:
    """The leaderboard from :class:`ResultColumns`: every player's weighted averages at once,
    as grouped sums over the counted results sorted by player and base rank."""
    era = ERAS[checks.choice("rules", rules, RULES)]
    day = as_date("as_of", as_of)
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
