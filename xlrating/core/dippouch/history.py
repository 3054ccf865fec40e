"""A Dip Pouch rating event by event: each player's events in the order the leaderboard rates them
(date, then event name), with the percentile of the place, the event's value, and the rating before
and after. The last rating after is the leaderboard's, the same double (the same operations in the
same order as :func:`xlrating.core.dippouch.columns.ratings_from_columns`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xlrating.core.dippouch.rules import CUTOFF_YEAR, STARTING_RATING, Result, _percentile, tournament_value


@dataclass(frozen=True)
class Step:
    """One event of a player's history: ``change`` is ``rating_after - rating_before``."""

    result: Result
    percentile: float
    value: float
    rating_before: float
    rating_after: float

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


def value(result: Result, cutoff_year: int = CUTOFF_YEAR) -> float:
    """The event's value in percent, as the leaderboard weighs it."""
    return tournament_value(result.players, result.rounds, result.world_championship, result.date.year,
                            cutoff_year=cutoff_year)


def histories(results: Iterable[Result], *, cutoff_year: int = CUTOFF_YEAR) -> dict[str, list[Step]]:
    """Each player -> their events in rating order, each a :class:`Step` (ties: each at its own place)."""
    by_player: dict[str, list[Result]] = {}
    for r in results:
        by_player.setdefault(r.player, []).append(r)
    out: dict[str, list[Step]] = {}
    for player, played in by_player.items():
        rating = STARTING_RATING
        steps = []
        for r in sorted(played, key=lambda r: (r.date, r.event)):
            percentile = _percentile(float(r.players), float(r.place))
            worth = value(r, cutoff_year)
            before = rating
            rating += worth / 100.0 * (percentile - rating)  # the leaderboard's own step, operation by operation
            steps.append(Step(r, percentile, worth, before, rating))
        out[player] = steps
    return out
