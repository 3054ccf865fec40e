"""DCI rating (Magic: The Gathering), the Elo system the DCI used until 2011.

- New players start at 1600; matches are rated in date order, then event, then round.
- Win probability of a player rated ``R`` against ``O``: ``p = 1 / (1 + 10 ** ((O - R) / 400))``,
  or read from the FIDE Table 8.1(b)-style lookup by rating gap (columns "H" and "L").
- Change: ``delta = K * (W - p)``, W = 1 win, 0.5 draw, 0 loss; the opponent changes by
  ``-delta`` (zero-sum). K by event tier: 8, 16 (default), 24, 32, 40, 48.
- Byes are not rated. A rating history is per (player, category).

``10 ** x`` is :func:`xlrating.core.powers.power` on every path (the column engine's arrays, one
value at a time, and the record-by-record replay), so a leaderboard is the same double, the same
order and the same ties with or without numpy on one machine; across machines a rating may differ
in the last place where the C library's ``pow`` differs, which is far below the 1e-6 it is shown to.
"""

from __future__ import annotations

from collections.abc import Iterable

from xlrating.core.dci.rules import (
    BYE_NAMES,
    DEFAULT_CATEGORY,
    DEFAULT_K,
    K_BY_TIER,
    MATCH_COLUMNS,
    METHODS,
    STARTING_RATING,
    TIERS,
    Match,
    Rating,
    delta,
    expected_score,
    k_value,
    matches_from_table,
    score,
    win_probability,
)

try:  # the leaderboard's column engine; a Python without numpy (LibreOffice's own) replays instead
    import numpy as np

    from xlrating.core.dci.columns import MatchColumns, expected_scores, ratings_from_columns
except ImportError:
    np = None  # type: ignore[assignment]

__all__ = ["BYE_NAMES", "DEFAULT_CATEGORY", "DEFAULT_K", "K_BY_TIER", "MATCH_COLUMNS", "METHODS", "STARTING_RATING", "TIERS",
           "Match", "MatchColumns", "Rating", "delta", "expected_score", "expected_scores", "k_value",
           "matches_from_table", "ratings", "ratings_from_columns", "score", "win_probability"]


def ratings(matches: Iterable[Match], *, method: str = "formula") -> list[Rating]:
    """Every (player, category)'s rating after replaying the matches in order.

    Order: date, event, round. A match listed from both sides counts once (the two rows must agree).
    Byes are not rated. See :func:`~xlrating.core.dci.columns.ratings_from_columns` for how rounds
    are rated as vectors; a Python without numpy replays the matches one by one
    (:mod:`xlrating.core.dci.replay`), with the same result.
    """
    if np is None:
        from xlrating.core.dci import replay

        return replay.ratings(matches, method=method)
    return ratings_from_columns(MatchColumns.from_matches(matches), method=method)
