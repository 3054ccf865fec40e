"""Dip Pouch Tournament Rating (Diplomacy), as shown on the World Diplomacy Database.

- Percentile of a placement: ``(N + 0.5 - place) / N * 100``.
- Tournament value (a percentage): World Championship 20; otherwise ``N / 7 + 2`` for a one-round
  event and ``N / 3.5 + 2`` for more rounds, capped at 15; 0 for events before the cut-off year
  (2001) that are not World Championships.
- After each event, in date order: ``new = old + value / 100 * (percentile - old)``, from 40.

Worked example given with the system: rated 55, 8th of 65 in a multi-round event: percentile
88.46, value 20.57 capped to 15, new rating 60.019.
"""

from __future__ import annotations

from collections.abc import Iterable

from xlrating.core.dippouch.rules import (
    CUTOFF_YEAR,
    RESULT_COLUMNS,
    STARTING_RATING,
    VALUE_CAP,
    WORLD_CHAMPIONSHIP_VALUE,
    Rating,
    Result,
    new_rating,
    percentile,
    results_from_table,
    tournament_value,
)
from xlrating.core.placement import TiePolicy

try:  # the leaderboard's column engine; a Python without numpy (LibreOffice's own) replays instead
    import numpy as np

    from xlrating.core.dippouch.columns import ResultColumns, ratings_from_columns
except ImportError:
    np = None  # type: ignore[assignment]

__all__ = ["CUTOFF_YEAR", "RESULT_COLUMNS", "STARTING_RATING", "VALUE_CAP", "WORLD_CHAMPIONSHIP_VALUE", "Rating",
           "Result", "ResultColumns", "new_rating", "percentile", "ratings", "ratings_from_columns",
           "results_from_table", "tournament_value"]


def ratings(results: Iterable[Result], *, ties: TiePolicy = "best", cutoff_year: int = CUTOFF_YEAR) -> list[Rating]:
    """The leaderboard after replaying every event in date order (events on the same day by name).

    Each event's declared player count is used, never the number of rows it has: a missing row
    renumbers nobody. Computed on columns (:func:`~xlrating.core.dippouch.columns.ratings_from_columns`),
    or without numpy player by player (:mod:`xlrating.core.dippouch.replay`), with the same result.
    """
    if np is None:
        from xlrating.core.dippouch import replay

        return replay.ratings(results, ties=ties, cutoff_year=cutoff_year)
    return ratings_from_columns(ResultColumns.from_results(results), ties=ties, cutoff_year=cutoff_year)
