"""What the Dip Pouch pages publish, computed from the store by the code of ``xlrating rank
dippouch``: the ranking (permanent, or as it stood at the end of a year), and each player's
rating event by event.

The ranking is :func:`xlrating.leaderboards.dippouch_leaderboard` over the current events' results
(:meth:`~xlrating.store.events.EventStore.dippouch_results`), exactly what ``rank dippouch`` with no
file prints; the year's ranking is the same over the events dated up to 31 December of that year
(as the World Diplomacy Database lists a ranking per year beside the permanent one).

A player's history is :func:`xlrating.core.dippouch.history.histories`: their events in the order
the leaderboard rates them, each with the percentile of the place, the event's value, and the rating
before and after; the last rating after is the leaderboard's. The events, their standings and the
players' nationalities are read from the store here, as the pages show them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from xlrating.core import dippouch
from xlrating.core.dippouch import history
from xlrating.core.names import fold, folded, has_folded
from xlrating.leaderboards import dippouch_leaderboard
from xlrating.store import SQLiteStore, StoredEvent
from xlrating.systems import get
from xlrating.web.published import kept

SYSTEM = "dippouch"
STANDING_COLUMNS = ("place", "player", "country", "score")


def up_to(results: Iterable[dippouch.Result], year: int | None) -> list[dippouch.Result]:
    """The results of the events dated up to the end of ``year`` (all of them without one)."""
    return [r for r in results if year is None or r.date.year <= year]


def ranking(results: list[dippouch.Result], year: int | None = None) -> dict[str, Any]:
    """``ranking``: the leaderboard's lines as ``rank dippouch`` writes them (rank, player, rating,
    count), best first; ``empty_reason`` when nobody is rated."""
    counted = up_to(results, year)
    board = dippouch_leaderboard(counted)
    if counted:
        empty = ""
    elif year is None:
        empty = "No Dip Pouch event is stored yet, so nobody has a rating."
    else:
        empty = f"No stored Dip Pouch event is dated {year} or earlier, so nobody had a rating at the end of {year}."
    lines = board.ranked()
    return {"ranking": lines, "empty_reason": empty, "lines_of": {line["player"]: line for line in lines}}


def years(results: Iterable[dippouch.Result]) -> list[int]:
    """The years in which a stored event was played, newest first (the year rankings there are)."""
    return sorted({r.date.year for r in results}, reverse=True)


def value(result: dippouch.Result) -> float:
    """The event's value in percent, as the leaderboard weighs it."""
    return history.value(result)


def histories(results: Iterable[dippouch.Result]) -> dict[str, list[dict[str, Any]]]:
    """Each player -> their events in rating order (:func:`xlrating.core.dippouch.history.histories`),
    each ``{event, date, players, rounds, world_championship, place, percentile, value, rating_before,
    rating_after, change}``."""
    return {player: [{"event": step.result.event, "date": step.result.date.isoformat(),
                      "players": step.result.players, "rounds": step.result.rounds,
                      "world_championship": step.result.world_championship, "place": step.result.place,
                      "percentile": step.percentile, "value": step.value, "rating_before": step.rating_before,
                      "rating_after": step.rating_after, "change": step.change} for step in steps]
            for player, steps in history.histories(results).items()}


# --- the events as the pages list them ------------------------------------------------------------

def event_row(event: StoredEvent) -> dict[str, Any]:
    return {"id": event.number, "name": event.name, "date": event.end_date.isoformat(),
            "location": event.facts.get("location"), "players": event.players, "rounds": event.facts["rounds"],
            "world_championship": bool(event.facts.get("world_championship")), "version": event.version,
            "current": event.current, "stored_at": event.stored_at, "replaced_at": event.replaced_at,
            "file_name": event.file_name}


def events(store: SQLiteStore) -> list[dict[str, Any]]:
    """The current version of every stored Dip Pouch event, newest first (same day: by name)."""
    return [event_row(e) for e in sorted(store.events(SYSTEM), key=lambda e: (-e.end_date.toordinal(), e.name, e.number))]


def event(store: SQLiteStore, number: int) -> tuple[StoredEvent, dict[str, Any]] | None:
    """One stored version of a Dip Pouch event (current or replaced), or None."""
    found = store.event(SYSTEM, number)
    return None if found is None else (found, event_row(found))


def event_versions(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """Every version of the event ``found`` is a version of, oldest first."""
    return [event_row(e) for e in store.versions(found)]


def standings(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """One event version's standings as submitted, by place (then the file's row order)."""
    entries = sorted(store.entries([found])[found.id], key=lambda e: (e.place or 0, e.row))
    return [{"place": e.place, "player": e.player, "country": e.facts.get("country"), "score": e.facts.get("score")}
            for e in entries]


def players(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    """Every player of the current events -> ``{player, country, events}``: the nationality given
    at their latest event that gives one (None if none does), and how many events they played."""
    stored = store.current_entries(SYSTEM)
    stored.sort(key=lambda pair: (pair[0].end_date, pair[0].name, pair[0].number))
    found: dict[str, dict[str, Any]] = {}
    for _, entry in stored:
        name = entry.player or ""
        item = found.setdefault(name, {"player": name, "country": None, "events": 0})
        item["events"] += 1
        if entry.facts.get("country"):
            item["country"] = entry.facts["country"]
    return found


def event_ids(store: SQLiteStore) -> dict[tuple[str, str], int]:
    """``(event name, date)`` of each current event -> its number (how the ratings name an event ->
    the address of its page)."""
    return {(e.name, e.end_date.isoformat()): e.number for e in store.events(SYSTEM)}


def search(store: SQLiteStore, text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Players and current events whose name (events: or location) contains every word of ``text``,
    accent- and case-insensitively: players by name, events newest first."""
    words = fold(text).split()
    if not words:
        return [], []
    players, events = kept(store, SYSTEM, "search", lambda: _search_index(store))
    return [p for key, p in players if has_folded(words, key)], [e for key, e in events if has_folded(words, key)]


def _search_index(store: SQLiteStore) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    players = sorted(players_of(store).values(), key=lambda p: (fold(p["player"]), p["player"]))
    return ([(folded(p["player"]), p) for p in players], [(folded(e["name"], e["location"]), e) for e in events_of(store)])


# --- what the pages read, computed once per revision of the stored events ---------------------------

def records(store: SQLiteStore) -> list[dippouch.Result]:
    """What ``rank dippouch`` reads from the store."""
    return kept(store, SYSTEM, "records", lambda: get(SYSTEM).stored_records(store))


def ranking_of(store: SQLiteStore, year: int | None = None) -> dict[str, Any]:
    """:func:`ranking` of the stored results."""
    return kept(store, SYSTEM, ("ranking", year), lambda: ranking(records(store), year))


def years_of(store: SQLiteStore) -> list[int]:
    return kept(store, SYSTEM, "years", lambda: years(records(store)))


def histories_of(store: SQLiteStore) -> dict[str, list[dict[str, Any]]]:
    """Every player's :func:`histories`."""
    return kept(store, SYSTEM, "histories", lambda: histories(records(store)))


def players_of(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    return kept(store, SYSTEM, "players", lambda: players(store))


def events_of(store: SQLiteStore) -> list[dict[str, Any]]:
    return kept(store, SYSTEM, "events", lambda: events(store))


def event_ids_of(store: SQLiteStore) -> dict[tuple[str, str], int]:
    return kept(store, SYSTEM, "event_ids", lambda: event_ids(store))
