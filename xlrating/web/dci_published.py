"""What the DCI pages publish, computed from the store's current DCI events by the code of
``xlrating rank dci``: the leaderboard of each category (:func:`xlrating.leaderboards.dci_leaderboard`
over :meth:`~xlrating.store.events.EventStore.dci_matches`, so a page's ranking is the command's),
and every match with the ratings it was rated from and the change ``K * (W - p)`` it made.

The match history replays the matches one by one in the order the leaderboard rates them (date,
event, round; a match listed from both sides once; byes not rated), with the same expected-score
function, so the rating after a player's last match is the leaderboard's rating, the same double
(a test holds them equal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.core import dci
from xlrating.core.without_numpy.dci import _rated_matches
from xlrating.leaderboards import dci_leaderboard
from xlrating.store import SQLiteStore, dci_queries


def leaderboard(store: SQLiteStore, category: str | None, method: str) -> dict[str, Any]:
    """``rank dci [--category C] --method M`` of the store: its ranked lines (``ranking``, as the
    command's JSON file holds them) and why it is empty (``empty_reason``)."""
    board = dci_leaderboard(store.dci_matches(), method=method, category=category)
    return {"ranking": board.ranked(), "empty_reason": board.empty_reason}


@dataclass(frozen=True)
class RatedMatch:
    """One match of the history, from the side of the row that the store keeps for it."""

    match: dci.Match
    event_id: int
    expected: float | None  # p of the player; None for a bye
    opponent_expected: float | None  # p of the opponent, from their side
    player_before: float | None
    player_after: float | None
    opponent_before: float | None
    opponent_after: float | None
    change: float | None  # K * (W - p) of the player; the opponent's is its negative


def history(matches: Sequence[dci.Match], event_ids: Sequence[int], method: str) -> list[RatedMatch]:
    """Every match in rating order with the ratings before and after it; byes (not rated) at
    their place in that order, without ratings. ``event_ids[i]`` is the event of ``matches[i]``."""
    events = {id(m): event_id for m, event_id in zip(matches, event_ids)}
    players = sorted({m.player for m in matches} | {m.opponent for m in matches if m.opponent is not None})
    event_code = {name: i for i, name in enumerate(sorted({m.event for m in matches}))}
    category_code = {name: i for i, name in enumerate(sorted({m.category for m in matches}))}
    player_code = {name: i for i, name in enumerate(players)}

    def round_key(m: dci.Match) -> tuple[int, int, int, int]:
        return category_code[m.category], m.date.toordinal(), event_code[m.event], m.round

    rated = _rated_matches([m for m in matches if m.opponent is not None], player_code, round_key)
    byes = [m for m in matches if m.opponent is None]
    rating: dict[tuple[str, str], float] = {}
    out = []
    for m in sorted([*rated, *byes], key=lambda m: (m.date.toordinal(), event_code[m.event], m.round)):
        if m.opponent is None:
            out.append(RatedMatch(m, events[id(m)], None, None, None, None, None, None, None))
            continue
        a, b = (m.category, m.player), (m.category, m.opponent)
        ra, rb = rating.get(a, dci.STARTING_RATING), rating.get(b, dci.STARTING_RATING)
        p = dci.expected_score(ra, rb, method)
        change = float(m.k) * (float(m.result) - p)  # the leaderboard's operations, in its order
        rating[a], rating[b] = ra + change, rb - change
        out.append(RatedMatch(m, events[id(m)], p, dci.expected_score(rb, ra, method), ra, rating[a], rb, rating[b],
                              change))
    return out


def stored_history(store: SQLiteStore, method: str) -> list[RatedMatch]:
    """:func:`history` of the store's current DCI events."""
    matches, event_ids = dci_queries.rated_matches(store)
    return history(matches, event_ids, method)


OUTCOMES = {1.0: "win", 0.5: "draw", 0.0: "loss"}


def from_side(item: RatedMatch, player: str) -> dict[str, Any]:
    """One match as ``player`` played it: the opponent, the result and the ratings from their side."""
    m = item.match
    mine = m.player == player
    result = float(m.result) if mine else 1.0 - float(m.result)
    before, after = ((item.player_before, item.player_after) if mine else (item.opponent_before, item.opponent_after))
    opponent_before = item.opponent_before if mine else item.player_before
    expected = item.expected if mine else item.opponent_expected
    return {"event_id": item.event_id, "event": m.event, "date": m.date.isoformat(), "round": m.round,
            "category": m.category, "opponent": (m.opponent if mine else m.player), "result": result,
            "outcome": OUTCOMES[result] if m.opponent is not None else "bye", "k": float(m.k), "expected": expected,
            "opponent_rating": opponent_before, "rating_before": before, "rating_after": after,
            "change": None if item.change is None else item.change if mine else -item.change}

