"""What the DCI pages publish, computed from the store's current DCI events by the code of
``xlrating rank dci``: the leaderboard of each category (:func:`xlrating.leaderboards.dci_leaderboard`
over the matches :meth:`~xlrating.store.events.EventStore.dci_matches` gives the command, read
the same way by :func:`~xlrating.store.dci_queries.rated_matches`, so a page's ranking is the
command's), and every match with the ratings it was rated from and the change ``K * (W - p)``.
What is computed is kept per store and method until the store's DCI events change (:func:`snapshot`),
with the players' countries (each player's of their latest event that gives one).

The match history replays the matches one by one in the order the leaderboard rates them (date,
event, round; a match listed from both sides once; byes not rated), with the same expected-score
function, so the rating after a player's last match is the leaderboard's rating, the same double
(a test holds them equal).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import dci
from xlrating.leaderboards import dci_leaderboard
from xlrating.store import SQLiteStore, dci_queries


def leaderboard(matches: Sequence[dci.Match], category: str | None, method: str) -> dict[str, Any]:
    """``rank dci [--category C] --method M`` of ``matches`` (the store's, as
    :meth:`~xlrating.store.events.EventStore.dci_matches` gives them): its ranked lines
    (``ranking``, as the command's JSON file holds them) and why it is empty (``empty_reason``)."""
    board = dci_leaderboard(matches, method=method, category=category)
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
    their place in that order, without ratings. ``event_ids[i]`` is the event of ``matches[i]``.

    The matches are a stored (validated) table's: a match listed from both sides agrees, so the
    first listing is kept, as the leaderboard keeps it."""
    listed: set[tuple[Any, ...]] = set()
    kept: list[tuple[dci.Match, int]] = []
    for m, event_id in zip(matches, event_ids):
        if m.opponent is not None:
            pair = (m.category, m.date, m.event, m.round, *sorted((m.player, m.opponent)))
            if pair in listed:
                continue
            listed.add(pair)
        kept.append((m, event_id))
    kept.sort(key=lambda item: (item[0].date, item[0].event, item[0].round))  # stable: file order within a round
    rating: dict[tuple[str, str], float] = {}
    out = []
    start = dci.STARTING_RATING
    for m, event_id in kept:
        if m.opponent is None:
            out.append(RatedMatch(m, event_id, None, None, None, None, None, None, None))
            continue
        a, b = (m.category, m.player), (m.category, m.opponent)
        ra, rb = rating.get(a, start), rating.get(b, start)
        p = dci.expected_score(ra, rb, method)
        change = float(m.k) * (float(m.result) - p)  # the leaderboard's operations, in its order
        rating[a], rating[b] = ra + change, rb - change
        out.append(RatedMatch(m, event_id, p, dci.expected_score(rb, ra, method), ra, rating[a], rb, rating[b],
                              change))
    return out


@dataclass
class Snapshot:
    """The store's current DCI matches (as ``rank dci`` reads them, with each one's event) and what
    the pages compute from them for one method: the history, and each category's leaderboard."""

    matches: list[dci.Match]
    event_ids: list[int]
    method: str
    history: list[RatedMatch]
    boards: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    # each current event's players -> their country in it; each player -> their latest event's
    event_countries: dict[int, dict[str, str]] = field(default_factory=dict)
    countries: dict[str, str] = field(default_factory=dict)

    def leaderboard(self, category: str | None) -> dict[str, Any]:
        with _LOCK:
            if category not in self.boards:
                self.boards[category] = leaderboard(self.matches, category, self.method)
            return self.boards[category]


_LOCK = threading.Lock()
_KEPT: dict[tuple[str, str], tuple[tuple[int, int, int], Snapshot]] = {}


def snapshot(store: SQLiteStore, method: str) -> Snapshot:
    """The :class:`Snapshot` of the store's DCI events now, computed again only when they changed
    since the last one (:func:`~xlrating.store.dci_queries.version`): every page view of an
    unchanged store reads the matches once, not once per view."""
    now = dci_queries.version(store)
    with _LOCK:
        kept = _KEPT.get((store.path, method))
        if kept is not None and kept[0] == now:
            return kept[1]
    matches, event_ids = dci_queries.rated_matches(store)
    by_event = dci_queries.countries(store)
    made = Snapshot(matches, event_ids, method, history(matches, event_ids, method),
                    event_countries=by_event, countries=dci_queries.latest_countries(store, by_event))
    with _LOCK:
        _KEPT[(store.path, method)] = (now, made)
    return made


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

