"""Read-only queries for the DCI public pages: the stored DCI events (current versions and their
history), an event's matches, every current match with the event it belongs to, and the players'
countries.

As :mod:`xlrating.store.queries` does for the EMA tournaments: a few ``SELECT`` statements over an
opened store, rows as plain JSON-ready dicts (dates and timestamps as the ISO text the store keeps).
The ratings are not here: the pages compute them from these matches by the code of
``xlrating rank dci`` (:mod:`xlrating.web.dci_published`).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from xlrating.store.queries import _connection
from xlrating.store.sqlite import SQLiteStore

if TYPE_CHECKING:  # the rating engine (numpy) is loaded only by what rates the matches
    from xlrating.core import dci

EVENT_COLUMNS = ("id", "name", "start_date", "end_date", "players", "rounds", "version", "current", "stored_at",
                 "replaced_at", "file_name")
_EVENT_SELECT = (
    "SELECT e.id, e.name, e.start_date, e.end_date, e.players, e.rounds, e.version, e.replaced_at IS NULL, "
    "e.stored_at, e.replaced_at, s.file_name FROM events e JOIN submissions s ON s.id = e.submission_id "
    "WHERE e.system = 'dci'")
MATCH_COLUMNS = ("row", "date", "round", "player", "opponent", "result", "k", "tier", "category", "player_country",
                 "opponent_country")


def _event(row: tuple[Any, ...]) -> dict[str, Any]:
    item = dict(zip(EVENT_COLUMNS, row))
    item["current"] = bool(item["current"])
    return item


def with_details(store: SQLiteStore, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each event with its matches' count (a match listed from both sides once) and its byes', and, as text (``, ``-separated, sorted), its
    categories, K-values and tiers as the table names them; ``k`` is the K when all its matches
    share one (else None)."""
    if not events:
        return events
    ids = [e["id"] for e in events]
    marks = ",".join("?" * len(ids))
    rows = _connection(store).execute(
        f"SELECT event_id, category, k, tier, match_date, round, player, opponent FROM matches "
        f"WHERE event_id IN ({marks})", ids).fetchall()
    details: dict[int, dict[str, Any]] = {i: {"matches": set(), "byes": 0, "categories": set(), "k": set(),
                                              "tiers": set()} for i in ids}
    for event_id, category, k, tier, day, rnd, player, opponent in rows:
        found = details[event_id]
        if opponent is None:
            found["byes"] += 1
        else:  # a match listed from both sides is one match
            found["matches"].add((day, rnd, category, min(player, opponent), max(player, opponent)))
        found["categories"].add(category)
        found["k"].add(k)
        if tier:
            found["tiers"].add(tier)
    for event in events:
        found = details[event["id"]]
        ks = sorted(found["k"])
        event |= {"matches": len(found["matches"]), "byes": found["byes"],
                  "categories": ", ".join(sorted(found["categories"])), "k": ks[0] if len(ks) == 1 else None,
                  "k_values": ", ".join(f"{k:g}" for k in ks), "tiers": ", ".join(sorted(found["tiers"])) or None}
    return events


def current_events(store: SQLiteStore, *, details: bool = True) -> list[dict[str, Any]]:
    """The current version of every stored DCI event, newest first, with its details (unless not
    ``details``: then add them with :func:`with_details` to the few that need them)."""
    rows = _connection(store).execute(
        f"{_EVENT_SELECT} AND e.replaced_at IS NULL ORDER BY e.start_date DESC, e.id DESC").fetchall()
    events = [_event(row) for row in rows]
    return with_details(store, events) if details else events


def event(store: SQLiteStore, event_id: int) -> dict[str, Any] | None:
    """One stored version of a DCI event (current or replaced), with its details, or None."""
    row = _connection(store).execute(f"{_EVENT_SELECT} AND e.id = ?", (event_id,)).fetchone()
    return None if row is None else with_details(store, [_event(row)])[0]


def event_versions(store: SQLiteStore, event_id: int) -> list[dict[str, Any]]:
    """Every version of the DCI event that ``event_id`` is a version of, oldest first."""
    rows = _connection(store).execute(
        f"{_EVENT_SELECT} AND e.event_key = (SELECT event_key FROM events WHERE id = ?) ORDER BY e.version",
        (event_id,)).fetchall()
    return [_event(row) for row in rows]


def event_matches(store: SQLiteStore, event_id: int) -> list[dict[str, Any]]:
    """The matches of one event version as stored, in the file's row order."""
    rows = _connection(store).execute(
        "SELECT sheet_row, match_date, round, player, opponent, result, k, tier, category, player_country, "
        "opponent_country FROM matches WHERE event_id = ? ORDER BY id", (event_id,)).fetchall()
    return [dict(zip(MATCH_COLUMNS, row)) for row in rows]


def rated_matches(store: SQLiteStore) -> tuple[list[dci.Match], list[int]]:
    """Every match of the current DCI events, exactly as
    :meth:`~xlrating.store.events.EventStore.dci_matches` gives them to ``rank dci`` (the same
    records in the same order), and beside each the id of the event version it belongs to."""
    from xlrating.core import dci

    rows = _connection(store).execute(
        "SELECT m.match_date, m.round, m.player, m.opponent, m.result, e.name, m.k, m.category, m.sheet_row, e.id "
        "FROM events e JOIN matches m ON m.event_id = e.id WHERE e.system = 'dci' AND e.replaced_at IS NULL "
        "ORDER BY e.start_date, e.id, m.id").fetchall()
    matches = [dci.Match(dt.date.fromisoformat(day), rnd, player, opponent, result, name, k, category, row)
               for day, rnd, player, opponent, result, name, k, category, row, _ in rows]
    return matches, [row[-1] for row in rows]


def countries(store: SQLiteStore, event_ids: list[int] | None = None) -> dict[int, dict[str, str]]:
    """Each event version's players -> their country in it, as its matches give it (as the player
    or as the opponent; a stored table gives one per player and event), for the events
    ``event_ids`` (default: the current ones); a player whose rows give none is left out."""
    where = ("e.replaced_at IS NULL" if event_ids is None else
             f"e.id IN ({','.join('?' * len(event_ids))})")
    rows = _connection(store).execute(
        "SELECT e.id, m.player, m.player_country, m.opponent, m.opponent_country FROM events e "
        f"JOIN matches m ON m.event_id = e.id WHERE e.system = 'dci' AND {where} "
        "AND (m.player_country IS NOT NULL OR m.opponent_country IS NOT NULL) ORDER BY e.id, m.id",
        event_ids or ()).fetchall()
    found: dict[int, dict[str, str]] = {}
    for event_id, player, player_country, opponent, opponent_country in rows:
        event = found.setdefault(event_id, {})
        for name, country in ((player, player_country), (opponent, opponent_country)):
            if name is not None and country is not None:
                event.setdefault(name, country)
    return found


def latest_countries(store: SQLiteStore, by_event: dict[int, dict[str, str]] | None = None) -> dict[str, str]:
    """Every player of the current DCI events -> the country given at the latest event (by its
    first day, then the order stored) whose rows give the player one; players never given one are
    left out. ``by_event``: :func:`countries` of the current events, when already read."""
    by_event = countries(store) if by_event is None else by_event
    order = _connection(store).execute(
        "SELECT id FROM events WHERE system = 'dci' AND replaced_at IS NULL ORDER BY start_date, id").fetchall()
    found: dict[str, str] = {}
    for (event_id,) in order:
        found.update(by_event.get(event_id, {}))
    return found


def version(store: SQLiteStore) -> tuple[int, int, int]:
    """What changes whenever the stored DCI events do (an event stored, or a version replaced:
    events are only ever added or marked replaced), for keeping what is computed from them."""
    row = _connection(store).execute(
        "SELECT count(*), coalesce(max(id), 0), count(replaced_at) FROM events WHERE system = 'dci'").fetchone()
    return int(row[0]), int(row[1]), int(row[2])
