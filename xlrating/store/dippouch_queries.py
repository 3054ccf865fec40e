"""Read-only queries for the Dip Pouch public pages: the stored events (current versions and their
history), an event's standings, the players with their nationality, and a search by name.

As :mod:`xlrating.store.queries` does for the EMA tournaments: a few ``SELECT`` statements over an
opened store, rows as plain JSON-ready dicts (dates and timestamps as the ISO text the store keeps).
The ratings themselves are not here: the pages compute them from
:meth:`~xlrating.store.events.EventStore.dippouch_results`, as ``xlrating rank dippouch`` does.
"""

from __future__ import annotations

from typing import Any

from xlrating.core.names import fold
from xlrating.store.queries import _connection
from xlrating.store.sqlite import SQLiteStore

EVENT_COLUMNS = ("id", "name", "date", "location", "players", "rounds", "world_championship", "version", "current",
                 "stored_at", "replaced_at", "file_name")
_EVENT_SELECT = (
    "SELECT e.id, e.name, e.end_date, e.location, e.players, e.rounds, e.world_championship, e.version, "
    "e.replaced_at IS NULL, e.stored_at, e.replaced_at, s.file_name "
    "FROM events e JOIN submissions s ON s.id = e.submission_id WHERE e.system = 'dippouch'")
STANDING_COLUMNS = ("place", "player", "country", "score")


def _event(row: tuple[Any, ...]) -> dict[str, Any]:
    item = dict(zip(EVENT_COLUMNS, row))
    item["world_championship"] = bool(item["world_championship"])
    item["current"] = bool(item["current"])
    return item


def events(store: SQLiteStore) -> list[dict[str, Any]]:
    """The current version of every stored Dip Pouch event, newest first (same day: by name)."""
    rows = _connection(store).execute(
        f"{_EVENT_SELECT} AND e.replaced_at IS NULL ORDER BY e.end_date DESC, e.name, e.id").fetchall()
    return [_event(row) for row in rows]


def event(store: SQLiteStore, event_id: int) -> dict[str, Any] | None:
    """One stored version of a Dip Pouch event (current or replaced), or None."""
    row = _connection(store).execute(f"{_EVENT_SELECT} AND e.id = ?", (event_id,)).fetchone()
    return None if row is None else _event(row)


def event_versions(store: SQLiteStore, event_id: int) -> list[dict[str, Any]]:
    """Every version of the event that ``event_id`` is a version of, oldest first."""
    rows = _connection(store).execute(
        f"{_EVENT_SELECT} AND e.event_key = (SELECT event_key FROM events WHERE id = ? AND system = 'dippouch') "
        "ORDER BY e.version", (event_id,)).fetchall()
    return [_event(row) for row in rows]


def standings(store: SQLiteStore, event_id: int) -> list[dict[str, Any]]:
    """One event version's standings as submitted, by place (then the file's row order)."""
    rows = _connection(store).execute(
        "SELECT place, player, country, score FROM standings WHERE event_id = ? ORDER BY place, sheet_row, id",
        (event_id,)).fetchall()
    return [dict(zip(STANDING_COLUMNS, row)) for row in rows]


def players(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    """Every player of the current events -> ``{player, country, events}``: the nationality given
    at their latest event that gives one (None if none does), and how many events they played."""
    rows = _connection(store).execute(
        "SELECT s.player, s.country FROM standings s JOIN events e ON e.id = s.event_id "
        "WHERE e.system = 'dippouch' AND e.replaced_at IS NULL ORDER BY e.end_date, e.name, e.id").fetchall()
    found: dict[str, dict[str, Any]] = {}
    for player, country in rows:
        item = found.setdefault(player, {"player": player, "country": None, "events": 0})
        item["events"] += 1
        if country:
            item["country"] = country
    return found


def event_ids(store: SQLiteStore) -> dict[tuple[str, str], int]:
    """``(event name, date)`` of each current event -> its id (how the ratings name an event ->
    the address of its page)."""
    rows = _connection(store).execute(
        "SELECT name, end_date, id FROM events WHERE system = 'dippouch' AND replaced_at IS NULL").fetchall()
    return {(name, day): event_id for name, day, event_id in rows}


def search(store: SQLiteStore, text: str, *, limit: int = 100) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Players and current events whose name (events: or location) contains every word of
    ``text``, accent- and case-insensitively; at most ``limit`` of each, players by name, events
    newest first."""
    words = fold(text).split()
    if not words:
        return [], []

    def matches(*names: str | None) -> bool:
        folded = fold(" ".join(n for n in names if n))
        return all(word in folded for word in words)

    found = sorted((p for p in players(store).values() if matches(p["player"])),
                   key=lambda p: (fold(p["player"]), p["player"]))
    return found[:limit], [e for e in events(store) if matches(e["name"], e["location"])][:limit]
