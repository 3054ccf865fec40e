"""DCI ratings match by match: every match in the order the leaderboard rates it (date, event,
round; a match listed from both sides once; byes at their place, not rated) with the ratings it was
rated from and the change ``K * (W - p)``. The rating after a player's last match is the
leaderboard's, the same double (the same expected-score function, the same operations)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.core.dci.rules import STARTING_RATING, Match, expected_score


@dataclass(frozen=True)
class RatedMatch:
    """One match of the history, from the side of the row kept for it; ``tag`` is what the caller
    gave with the match (the event it belongs to, say)."""

    match: Match
    tag: Hashable
    expected: float | None  # p of the player; None for a bye
    opponent_expected: float | None  # p of the opponent, from their side
    player_before: float | None
    player_after: float | None
    opponent_before: float | None
    opponent_after: float | None
    change: float | None  # K * (W - p) of the player; the opponent's is its negative


def history(matches: Sequence[Match], tags: Sequence[Hashable], method: str,
            start: dict[tuple[str, str], float] | None = None) -> list[RatedMatch]:
    """Every match in rating order with the ratings before and after it (see the module docstring);
    ``tags[i]`` goes with ``matches[i]``. The matches are a valid table's: a match listed from both
    sides agrees, so the first listing is kept, as the leaderboard keeps it. ``start``: the
    (category, player) ratings before the first match (:func:`final_ratings` of the matches rated
    before these), else everyone starts at the starting rating."""
    listed: set[tuple[Any, ...]] = set()
    kept: list[tuple[Match, Hashable]] = []
    for m, tag in zip(matches, tags):
        if m.opponent is not None:
            pair = (m.category, m.date, m.event, m.round, *sorted((m.player, m.opponent)))
            if pair in listed:
                continue
            listed.add(pair)
        kept.append((m, tag))
    kept.sort(key=lambda item: rating_order(item[0]))  # stable: file order within a round
    rating: dict[tuple[str, str], float] = dict(start or {})
    out = []
    for m, tag in kept:
        if m.opponent is None:
            out.append(RatedMatch(m, tag, None, None, None, None, None, None, None))
            continue
        a, b = (m.category, m.player), (m.category, m.opponent)
        ra, rb = rating.get(a, STARTING_RATING), rating.get(b, STARTING_RATING)
        p = expected_score(ra, rb, method)
        change = float(m.k) * (float(m.result) - p)  # the leaderboard's operations, in its order
        rating[a], rating[b] = ra + change, rb - change
        out.append(RatedMatch(m, tag, p, expected_score(rb, ra, method), ra, rating[a], rb, rating[b], change))
    return out


def final_ratings(rated: Sequence[RatedMatch]) -> dict[tuple[str, str], float]:
    """The (category, player) ratings after every match of a :func:`history`."""
    out: dict[tuple[str, str], float] = {}
    for item in rated:
        m = item.match
        if m.opponent is not None and item.player_after is not None and item.opponent_after is not None:
            out[(m.category, m.player)] = item.player_after
            out[(m.category, m.opponent)] = item.opponent_after
    return out


def rating_order(match: Match) -> tuple[Any, ...]:
    """Where a match comes in a :func:`history` (date, event, round)."""
    return (match.date, match.event, match.round)
