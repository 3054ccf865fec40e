"""What the DCI pages publish, computed from the store's current DCI events by the code of
``xlrating rank dci``: the leaderboard of each category (:func:`xlrating.leaderboards.dci_leaderboard`
over the matches :meth:`~xlrating.systems.dci.Dci.stored_records` gives the command, so a page's
ranking is the command's), and every match with the ratings it was rated from and the change ``K * (W - p)``.
What is computed is kept per store and method until the store's DCI events change (:func:`snapshot`),
with the players' countries (each player's of their latest event that gives one).

The match history is :func:`xlrating.core.dci.history.history` (each match tagged with the number
of its event's page): the rating after a player's last match is the leaderboard's rating, the same
double (a test holds them equal). The events, their matches and the players' countries are read
from the store here (:func:`current_events`, :func:`event_matches`, :func:`countries`), as the pages
show them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import dci
from xlrating.core.dci.history import RatedMatch, history
from xlrating.leaderboards import dci_leaderboard
from xlrating.store import SQLiteStore, StoredEntry, StoredEvent
from xlrating.systems import get
from xlrating.web.published import kept

SYSTEM = "dci"
EVENT_COLUMNS = ("id", "name", "start_date", "end_date", "players", "rounds", "version", "current", "stored_at",
                 "replaced_at", "file_name")
MATCH_COLUMNS = ("row", "date", "round", "player", "opponent", "result", "k", "tier", "category", "player_country",
                 "opponent_country")


def leaderboard(matches: Sequence[dci.Match], category: str | None, method: str) -> dict[str, Any]:
    """``rank dci [--category C] --method M`` of ``matches`` (the store's, as
    :meth:`~xlrating.store.events.EventStore.dci_matches` gives them): its ranked lines
    (``ranking``, as the command's JSON file holds them) and why it is empty (``empty_reason``)."""
    board = dci_leaderboard(matches, method=method, category=category)
    return {"ranking": board.ranked(), "empty_reason": board.empty_reason}


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
    _by_event: dict[int, list[RatedMatch]] | None = None
    _by_player: dict[str, list[RatedMatch]] | None = None

    def of_event(self, number: int) -> list[RatedMatch]:
        """The event's matches in the history (in rating order)."""
        with _LOCK:
            if self._by_event is None:
                found: dict[int, list[RatedMatch]] = {}
                for item in self.history:
                    found.setdefault(int(item.tag), []).append(item)  # type: ignore[call-overload]
                self._by_event = found
        return self._by_event.get(number, [])

    def of_player(self, player: str) -> list[RatedMatch]:
        """The player's matches in the history (in rating order)."""
        with _LOCK:
            if self._by_player is None:
                found: dict[str, list[RatedMatch]] = {}
                for item in self.history:
                    for name in {item.match.player, item.match.opponent}:
                        if name is not None:
                            found.setdefault(name, []).append(item)
                self._by_player = found
        return self._by_player.get(player, [])

    def leaderboard(self, category: str | None) -> dict[str, Any]:
        with _LOCK:
            if category not in self.boards:
                self.boards[category] = leaderboard(self.matches, category, self.method)
            return self.boards[category]


_LOCK = threading.Lock()
_KEPT: dict[tuple[str, str], tuple[tuple[int, ...], Snapshot]] = {}


def snapshot(store: SQLiteStore, method: str) -> Snapshot:
    """The :class:`Snapshot` of the store's DCI events now, computed again only when they changed
    since the last one (:meth:`~xlrating.store.ledger.Ledger.revision`): every page view of an
    unchanged store reads the matches once, not once per view."""
    now = store.revision(SYSTEM)
    with _LOCK:
        kept = _KEPT.get((store.path, method))
        if kept is not None and kept[0] == now:
            return kept[1]
    stored = get(SYSTEM).stored_matches(store)  # type: ignore[attr-defined]
    matches = [match for match, _ in stored]
    event_ids = [event.number for _, event in stored]
    by_event = countries(store)
    made = Snapshot(matches, event_ids, method, history(matches, event_ids, method),
                    event_countries=by_event, countries=latest_countries(store, by_event))
    with _LOCK:
        _KEPT[(store.path, method)] = (now, made)
    return made


# --- the events as the pages list them ------------------------------------------------------------

def _event(event: StoredEvent) -> dict[str, Any]:
    return {"id": event.number, "name": event.name, "start_date": event.start_date.isoformat(),
            "end_date": event.end_date.isoformat(), "players": event.players, "rounds": event.facts.get("rounds"),
            "version": event.version, "current": event.current, "stored_at": event.stored_at,
            "replaced_at": event.replaced_at, "file_name": event.file_name}


def with_details(store: SQLiteStore, events: list[StoredEvent]) -> list[dict[str, Any]]:
    """Each event as the pages list it, with its matches' count (a match listed from both sides
    once) and its byes', and, as text (``, ``-separated, sorted), its categories, K-values and tiers
    as the table names them; ``k`` is the K when all its matches share one (else None)."""
    entries = store.entries(events)
    rows = []
    for event in events:
        matches: set[tuple[Any, ...]] = set()
        byes = 0
        categories, ks, tiers = set(), set(), set()
        for e in entries[event.id]:
            if e.opponent is None:
                byes += 1
            else:  # a match listed from both sides is one match
                matches.add((e.date, e.round, e.facts["category"], min(e.player or "", e.opponent),
                             max(e.player or "", e.opponent)))
            categories.add(e.facts["category"])
            ks.add(e.facts["k"])
            if e.facts.get("tier"):
                tiers.add(e.facts["tier"])
        kvalues = sorted(ks)
        rows.append(_event(event) | {"matches": len(matches), "byes": byes, "categories": ", ".join(sorted(categories)),
                                     "k": kvalues[0] if len(kvalues) == 1 else None,
                                     "k_values": ", ".join(f"{k:g}" for k in kvalues),
                                     "tiers": ", ".join(sorted(tiers)) or None})
    return rows


def current_events(store: SQLiteStore, *, details: bool = True) -> list[dict[str, Any]]:
    """The current version of every stored DCI event, newest first, with its details (unless not
    ``details``); computed once per revision of the stored events."""
    def made() -> list[dict[str, Any]]:
        events = sorted(store.events(SYSTEM), key=lambda e: (e.start_date, e.number), reverse=True)
        return with_details(store, events) if details else [_event(e) for e in events]
    return kept(store, SYSTEM, ("events", details), made)


def event(store: SQLiteStore, number: int) -> tuple[StoredEvent, dict[str, Any]] | None:
    """One stored version of a DCI event (current or replaced), with its details, or None."""
    found = store.event(SYSTEM, number)
    return None if found is None else (found, with_details(store, [found])[0])


def event_versions(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """Every version of the event ``found`` is a version of, oldest first."""
    return [_event(e) for e in store.versions(found)]


def event_matches(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """The matches of one event version as stored, in the file's row order."""
    return [_match(e) for e in store.entries([found])[found.id]]


def _match(e: StoredEntry) -> dict[str, Any]:
    return {"row": e.row, "date": e.date.isoformat() if e.date else None, "round": e.round, "player": e.player,
            "opponent": e.opponent, "result": e.result, "k": e.facts.get("k"), "tier": e.facts.get("tier"),
            "category": e.facts.get("category"), "player_country": e.facts.get("player_country"),
            "opponent_country": e.facts.get("opponent_country")}


def countries(store: SQLiteStore, events: list[StoredEvent] | None = None) -> dict[int, dict[str, str]]:
    """Each event version's players (by the event's number) -> their country in it, as its matches
    give it (a stored table gives one per player and event), for ``events`` (default: the current
    ones); a player whose rows give none is left out."""
    chosen = store.events(SYSTEM) if events is None else events
    entries = store.entries(chosen)
    system = get(SYSTEM)
    found = {e.number: system.entry_countries(entries[e.id]) for e in chosen}
    return {number: given for number, given in found.items() if given}


def latest_countries(store: SQLiteStore, by_event: dict[int, dict[str, str]]) -> dict[str, str]:
    """Every player of the current DCI events -> the country given at the latest event (by its
    first day, then the order stored) whose rows give the player one; players never given one are
    left out."""
    found: dict[str, str] = {}
    for e in sorted(store.events(SYSTEM), key=lambda e: (e.start_date, e.number)):
        found.update(by_event.get(e.number, {}))
    return found


OUTCOMES = {1.0: "win", 0.5: "draw", 0.0: "loss"}


def from_side(item: RatedMatch, player: str) -> dict[str, Any]:
    """One match as ``player`` played it: the opponent, the result and the ratings from their side."""
    m = item.match
    mine = m.player == player
    result = float(m.result) if mine else 1.0 - float(m.result)
    before, after = ((item.player_before, item.player_after) if mine else (item.opponent_before, item.opponent_after))
    opponent_before = item.opponent_before if mine else item.player_before
    expected = item.expected if mine else item.opponent_expected
    return {"event_id": item.tag, "event": m.event, "date": m.date.isoformat(), "round": m.round,
            "category": m.category, "opponent": (m.opponent if mine else m.player), "result": result,
            "outcome": OUTCOMES[result] if m.opponent is not None else "bye", "k": float(m.k), "expected": expected,
            "opponent_rating": opponent_before, "rating_before": before, "rating_after": after,
            "change": None if item.change is None else item.change if mine else -item.change}

