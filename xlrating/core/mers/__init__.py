"""MERS, the Mahjong European Ranking System of the European Mahjong Association (EMA).

- Base rank of a placement: ``(N - place) / (N - 1) * 1000`` (winner 1000, last 0; N >= 2).
- Tournament weight: pre-2018 its MERS value (1 local, 2 national, 5 European/World); from 2018
  the sum of days (1, 2, 3 for 3+), players (+0.5 for 41-80, +1 above 80), countries (+0.5 for
  6-9, +1 for 10+) and qualification (+1).
- A player's total, by rule era (``2005``, ``2010``, ``2018``; by default the era in force on the
  ranking date): a weighted average
  ``sum(w * a * b) / sum(w * a)`` of counted results (age factor ``a`` > 0), padded with results
  of base rank 0 and weight 1 up to 5; at least 2 counted results to be ranked.

See ``docs/rating-rules.md`` section 3 for the full rules. :mod:`.rules` holds one player's rules
(:data:`ERAS` has each era's parameters), :mod:`.results` the results table's records, and the
ranking of whole result tables is computed on columns (:mod:`.columns`) or, without numpy, result by
result (:mod:`.replay`), with the same doubles.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from xlrating.core.ema_ids import NO_ID
from xlrating.core.mers.results import RESULT_COLUMNS, Ranking, Result, results_from_table, ruleset
from xlrating.core.mers.rules import (
    ERAS,
    MINIMUM_RESULTS,
    PADDED_RESULTS,
    ROUNDINGS,
    RULES,
    RULESETS,
    Breakdown,
    CountedResult,
    Era,
    Rounding,
    age_factor,
    aged_factor,
    base_rank,
    breakdown,
    era_of,
    part_a_size,
    ranking,
    round_base_rank,
    rules_in_force,
    tournament_weight,
    weighted_average,
)
from xlrating.core.placement import TiePolicy

try:  # the leaderboard's column engine; a Python without numpy (LibreOffice's own) replays instead
    import numpy as np

    from xlrating.core.mers.columns import ResultColumns, rankings_from_columns
except ImportError:
    np = None  # type: ignore[assignment]

__all__ = [
    "ERAS", "MINIMUM_RESULTS", "NO_ID", "PADDED_RESULTS", "RESULT_COLUMNS", "ROUNDINGS", "RULES", "RULESETS",
    "Breakdown", "CountedResult", "Era", "Ranking", "Result", "ResultColumns", "Rounding", "age_factor", "aged_factor",
    "base_rank", "breakdown", "era_of", "part_a_size", "ranking", "rankings", "rankings_from_columns",
    "results_from_table", "round_base_rank", "rules_in_force", "ruleset", "tournament_weight", "weighted_average",
]


def rankings(results: Iterable[Result], as_of: Any, rules: str | None = None, *, ruleset_name: str | None = None,
             ties: TiePolicy = "best", with_breakdown: bool = False) -> list[Ranking]:
    """The leaderboard of one ruleset on ``as_of``: ranked players, best total first.

    ``ruleset_name`` None means every result is used (a single-ruleset table). Base ranks are
    computed from places with the event's declared player count and the tie policy.
    ``with_breakdown`` attaches each player's counted results (best first, then padding). ``rules``
    None: the era in force on ``as_of``.
    Computed on columns (:func:`~xlrating.core.mers.columns.rankings_from_columns`), or without numpy
    player by player (:mod:`xlrating.core.mers.replay`), with the same result.
    """
    if np is None:
        from xlrating.core.mers import replay

        return replay.rankings(results, as_of, rules, ruleset_name=ruleset_name, ties=ties,
                               with_breakdown=with_breakdown)
    return rankings_from_columns(ResultColumns.from_results(results), as_of, rules, ruleset_name=ruleset_name,
                                 ties=ties, with_breakdown=with_breakdown)
