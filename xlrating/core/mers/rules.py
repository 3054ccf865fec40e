"""MERS rules for one player: base rank, tournament weight, age factors and the total by era.

The formulas are summarised in the package docstring (:mod:`xlrating.core.mers`); the rules and
their sources are in ``docs/rating-rules.md`` section 3. :data:`ERAS` holds each era's parameters.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from xlrating.core import checks
from xlrating.core.dates import as_date, is_older_than
from xlrating.core.errors import InvalidArgument, NotRanked

Rounding = Literal["none", "round", "truncate"]
ROUNDINGS: tuple[Rounding, ...] = ("none", "round", "truncate")
RULES = ("2005", "2010", "2018")
RULESETS = ("MCR", "Riichi")
MINIMUM_RESULTS = 2
PADDED_RESULTS = 5


@dataclass(frozen=True)
class Era:
    """The aggregation rules of one MERS era.

    ``age_steps``: (years, factor) pairs, oldest threshold last; a result over ``years`` old gets
    ``factor``. ``integer_base_ranks``: base ranks are rounded half up before aggregating (2018).
    How each era combines the weighted averages is in :func:`breakdown`.
    """

    name: str
    age_steps: tuple[tuple[int, float], ...]
    integer_base_ranks: bool


# The day each era took effect; before the first named day, the 2005 rules (as the EMA published them).
ERA_STARTS: tuple[tuple[str, dt.date], ...] = (("2010", dt.date(2010, 7, 12)), ("2018", dt.date(2018, 1, 1)))


def rules_in_force(as_of: dt.date) -> str:
    """The era whose rules applied on ``as_of``: 2005 before 12 July 2010, 2010 until 31 December
    2017, 2018 from 1 January 2018."""
    era = "2005"
    for name, start in ERA_STARTS:
        if as_of >= start:
            era = name
    return era


def era_of(rules: Any, as_of: dt.date) -> Era:
    """The era named by ``rules`` (checked), or when None the one in force on ``as_of``."""
    return ERAS[rules_in_force(as_of) if rules is None else checks.choice("rules", rules, RULES)]


ERAS: dict[str, Era] = {
    "2005": Era("2005", ((2, 0.5), (4, 0.0)), integer_base_ranks=False),
    "2010": Era("2010", ((1, 2 / 3), (2, 1 / 3), (3, 0.0)), integer_base_ranks=False),
    "2018": Era("2018", ((1, 0.5), (2, 0.0)), integer_base_ranks=True),
}


def base_rank(players: int, place: float, rounding: str = "none") -> float:
    """``(N - place) / (N - 1) * 1000``; ``rounding`` "none" (default), "round" (half up, as
    current EMA data: 252.53 -> 253) or "truncate" (older EMA text: 25th of 100 is 757)."""
    n = checks.whole("players", players, minimum=2)
    p = checks.place("place", place, n)
    how = checks.choice("rounding", rounding, ROUNDINGS)
    return round_base_rank(_base_rank(n, float(p)), how)


def _base_rank(players: float, place: float) -> float:
    # One division, last: (N - place) * 1000 is exact, so a base rank that is exactly a half
    # (198th of 401: 507.5) stays exactly a half and rounds up, as a spreadsheet's ROUND does.
    # (N - place) / (N - 1) * 1000 rounds twice and gives 507.49999999999994.
    return (players - place) * 1000.0 / (players - 1)


def round_base_rank(value: float, rounding: str) -> float:
    """Apply a base-rank rounding mode; base ranks are never negative, so half-up is floor(x+.5)."""
    if rounding == "round":
        return float(math.floor(value + 0.5))
    if rounding == "truncate":
        return float(math.floor(value))
    return value


def tournament_weight(days: int, players: int, countries: int, qualification: bool = False) -> float:
    """The 2018-rules weight: days (1, 2, 3 for 3+) + players (+0.5 for 41-80, +1 above 80)
    + countries (+0.5 for 6-9, +1 for 10+) + 1 when qualification was required."""
    d = checks.whole("days", days, minimum=1)
    n = checks.whole("players", players, minimum=2)
    c = checks.whole("countries", countries, minimum=1)
    weight = float(min(d, 3))
    weight += 1.0 if n > 80 else 0.5 if n >= 41 else 0.0
    weight += 1.0 if c >= 10 else 0.5 if c >= 6 else 0.0
    weight += 1.0 if checks.flag("qualification", qualification) else 0.0
    return weight


def age_factor(date: dt.date, as_of: dt.date, rules: str | None = None, *,
               effective_date: dt.date | None = None) -> float:
    """The weight multiplier of a result dated ``date`` on ranking date ``as_of`` (0: not counted),
    under ``rules`` (None: the era in force on ``as_of``).

    A result is "over k years old" when ``as_of > date + k years``. An ``effective_date`` (the
    EMA's pandemic freeze) replaces the date for ageing only: a result played after ``as_of`` is
    not counted, whatever its effective date.
    """
    era = era_of(rules, as_of)
    if date > as_of:
        return 0.0
    return aged_factor(effective_date or date, as_of, era)


def aged_factor(ageing_date: dt.date, as_of: dt.date, era: Era) -> float:
    """The era's age factor of a result that ages from ``ageing_date`` (1 until its first step)."""
    factor = 1.0
    for years, step in era.age_steps:
        if is_older_than(ageing_date, years, as_of):
            factor = step
    return factor


@dataclass(frozen=True)
class CountedResult:
    """A result as the ranking used it: base rank, weight, age factor and whether it is padding."""

    base_rank: float
    weight: float
    age_factor: float
    date: dt.date | None
    padding: bool = False
    tournament: str | None = None


@dataclass(frozen=True)
class Breakdown:
    """How a player's total came about. ``total`` is None when not ranked (too few results)."""

    total: float | None
    counted: int
    results: tuple[CountedResult, ...]
    parts: dict[str, float] = field(default_factory=dict)


def weighted_average(results: Sequence[CountedResult]) -> float:
    """``sum(w * a * b) / sum(w * a)``."""
    den = sum(r.weight * r.age_factor for r in results)
    return sum(r.weight * r.age_factor * r.base_rank for r in results) / den


def part_a_size(counted: int) -> int:
    """``ceil(5 + 0.8 * max(counted - 5, 0))``, in exact integer arithmetic."""
    extra = max(counted - PADDED_RESULTS, 0)
    return PADDED_RESULTS + -(-4 * extra // 5)


def _best(results: Sequence[CountedResult], n: int) -> list[CountedResult]:
    # Best by base rank; among equal base ranks the heavier (weight x age) result is taken first.
    return sorted(results, key=lambda r: (-r.base_rank, -r.weight * r.age_factor))[:n]


ResultItem = tuple[Any, Any, Any] | tuple[Any, Any, Any, Any]


def breakdown(results: Iterable[ResultItem | CountedResult], as_of: Any, rules: str | None = None,
              *, tournaments: Sequence[str] | None = None) -> Breakdown:
    """A player's total with its working. ``results``: ``(base_rank, weight, date)`` items, or
    ``(base_rank, weight, date, effective_date)`` where the effective date (when not None)
    replaces the date for ageing (the EMA froze ageing over 2020-2022 this way). ``rules`` None:
    the era in force on ``as_of``."""
    day = as_date("as_of", as_of)
    era = era_of(rules, day)
    counted: list[CountedResult] = []
    for i, item in enumerate(results):
        names = tournaments[i] if tournaments is not None else None
        b, w, d, eff = _unpack(i, item)
        if era.integer_base_ranks:
            b = round_base_rank(b, "round")
        a = age_factor(d, day, era.name, effective_date=eff)
        if a > 0:
            counted.append(CountedResult(b, w, a, d, tournament=names))
    n = len(counted)
    padded = counted + [CountedResult(0.0, 1.0, 1.0, None, padding=True)] * max(PADDED_RESULTS - n, 0)
    if n < MINIMUM_RESULTS:
        return Breakdown(None, n, tuple(padded))
    everything = weighted_average(padded)
    if era.name == "2005":
        return Breakdown(everything, n, tuple(padded), {"all": everything})
    if era.name == "2010":
        best3 = weighted_average(_best(padded, 3))
        return Breakdown(0.5 * everything + 0.5 * best3, n, tuple(padded), {"all": everything, "best_3": best3})
    part_a = weighted_average(_best(padded, part_a_size(n)))
    part_b = weighted_average(_best(padded, 4))
    return Breakdown(0.5 * part_a + 0.5 * part_b, n, tuple(padded), {"part_a": part_a, "part_b": part_b})


def _unpack(i: int, item: Any) -> tuple[float, float, dt.date, dt.date | None]:
    if isinstance(item, CountedResult):
        if item.date is None:
            raise InvalidArgument(f"results[{i}]", "a result with a date", item)
        return item.base_rank, item.weight, item.date, None
    if not isinstance(item, (tuple, list)) or len(item) not in (3, 4):
        raise InvalidArgument(f"results[{i}]", "a (base_rank, weight, date) item", item)
    b = checks.number(f"results[{i}].base_rank", item[0], minimum=0, maximum=1000)
    w = checks.number(f"results[{i}].weight", item[1], minimum=0)
    if w == 0:
        raise InvalidArgument(f"results[{i}].weight", "a weight > 0", item[1], excel_error="#NUM!")
    d = as_date(f"results[{i}].date", item[2])
    eff = as_date(f"results[{i}].effective_date", item[3]) if len(item) == 4 and item[3] is not None else None
    return b, w, d, eff


def ranking(results: Iterable[ResultItem], as_of: Any, rules: str | None = None) -> float:
    """One player's MERS total on ``as_of`` under ``rules`` (None: the era in force on ``as_of``).

    Raises :class:`NotRanked` when fewer than 2 results count (Excel shows ``#N/A``).
    """
    result = breakdown(results, as_of, rules)
    if result.total is None:
        raise NotRanked(result.counted, MINIMUM_RESULTS)
    return result.total
