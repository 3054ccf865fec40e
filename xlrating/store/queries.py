"""Read-only queries for the public pages: tournaments with their standings and versions, players
with their countries and results, and a search by name.

Nothing here writes: every function is one or a few ``SELECT`` statements over a store opened
by :func:`xlrating.store.open_store`. Rows come back as plain dicts (JSON-ready: dates and
timestamps as the ISO text the store keeps), so the web pages can show, serialise and download
them alike.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from xlrating.core.names import fold
from xlrating.store.sqlite import SQLiteStore

TOURNAMENT_COLUMNS = ("id", "name", "ruleset", "city", "country", "start_date", "end_date", "days", "players",
                      "countries", "weight", "version", "current", "stored_at", "replaced_at", "file_name", "sha256")
_TOURNAMENT_SELECT = (
    "SELECT t.id, t.name, t.ruleset, t.city, t.country, t.start_date, t.end_date, t.days, t.players, t.countries, "
    "t.weight, t.version, t.replaced_at IS NULL, t.stored_at, t.replaced_at, s.file_name, s.sha256 "
    "FROM tournaments t JOIN submissions s ON s.id = t.submission_id")
STANDING_COLUMNS = ("place", "ema_id", "last_name", "first_name", "country", "table_points", "score")


def _connection(store: SQLiteStore) -> sqlite3.Connection:
    # The store's own connection: these queries read in the same snapshot as its methods.
    return store._db


def _tournament(row: tuple[Any, ...]) -> dict[str, Any]:
    item = dict(zip(TOURNAMENT_COLUMNS, row))
    item["current"] = bool(item["current"])
    return item


def current_tournaments(store: SQLiteStore) -> list[dict[str, Any]]:
    """The current version of every stored tournament, newest first."""
    rows = _connection(store).execute(
        f"{_TOURNAMENT_SELECT} WHERE t.replaced_at IS NULL ORDER BY t.end_date DESC, t.id DESC").fetchall()
    return [_tournament(row) for row in rows]


def tournament(store: SQLiteStore, tournament_id: int) -> dict[str, Any] | None:
    """One stored version of a tournament (current or replaced), or None."""
    row = _connection(store).execute(f"{_TOURNAMENT_SELECT} WHERE t.id = ?", (tournament_id,)).fetchone()
    return None if row is None else _tournament(row)


def tournament_versions(store: SQLiteStore, tournament_id: int) -> list[dict[str, Any]]:
    """Every version of the tournament that ``tournament_id`` is a version of, oldest first."""
    rows = _connection(store).execute(
        f"{_TOURNAMENT_SELECT} WHERE t.tournament_key = (SELECT tournament_key FROM tournaments WHERE id = ?) "
        "ORDER BY t.version", (tournament_id,)).fetchall()
    return [_tournament(row) for row in rows]


def current_version(store: SQLiteStore, tournament_key: str) -> dict[str, Any] | None:
    """The current version stored under ``tournament_key`` (see :func:`xlrating.store.sqlite.tournament_key`)."""
    row = _connection(store).execute(f"{_TOURNAMENT_SELECT} WHERE t.tournament_key = ? AND t.replaced_at IS NULL",
                                     (tournament_key,)).fetchone()
    return None if row is None else _tournament(row)


def standings(store: SQLiteStore, tournament_id: int) -> list[dict[str, Any]]:
    """The results of one tournament version as submitted, by place (then sheet row)."""
    rows = _connection(store).execute(
        "SELECT place, ema_id, last_name, first_name, country, table_points, score FROM results "
        "WHERE tournament_id = ? ORDER BY place, sheet_row", (tournament_id,)).fetchall()
    return [dict(zip(STANDING_COLUMNS, row)) for row in rows]


def players(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    """EMA ID -> ``{ema_id, first_name, last_name, name, country}`` as last submitted."""
    rows = _connection(store).execute("SELECT ema_id, first_name, last_name, country FROM players").fetchall()
    return {ema_id: {"ema_id": ema_id, "first_name": first, "last_name": last,
                     "name": " ".join(p for p in (first, last) if p), "country": country}
            for ema_id, first, last, country in rows}


def player_results(store: SQLiteStore, ema_id: str) -> list[dict[str, Any]]:
    """Every result of a player in the current tournament versions, newest first, with the
    tournament's id (its page's address)."""
    rows = _connection(store).execute(
        "SELECT t.id, t.name, t.ruleset, t.city, t.country, t.start_date, t.end_date, t.players, t.weight, r.place "
        "FROM results r JOIN tournaments t ON t.id = r.tournament_id "
        "WHERE r.ema_id = ? AND t.replaced_at IS NULL ORDER BY t.end_date DESC, t.id DESC", (ema_id,)).fetchall()
    keys = ("tournament_id", "tournament", "ruleset", "city", "country", "start_date", "end_date", "players",
            "weight", "place")
    return [dict(zip(keys, row)) for row in rows]


def search(store: SQLiteStore, text: str, *, limit: int = 100) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Players and current tournaments whose name contains every word of ``text``, accent- and
    case-insensitively (``"ines aubert"`` finds Inès Aubert; an EMA ID finds its player).
    At most ``limit`` of each, players by last then first name, tournaments newest first."""
    words = fold(text).split()
    if not words:
        return [], []

    def matches(*names: str | None) -> bool:
        folded = fold(" ".join(n for n in names if n))
        return all(word in folded for word in words)

    found_players = sorted((p for p in players(store).values()
                            if matches(p["first_name"], p["last_name"], p["ema_id"])),
                           key=lambda p: (fold(p["last_name"] or ""), fold(p["first_name"] or ""), p["ema_id"]))
    found_tournaments = [t for t in current_tournaments(store) if matches(t["name"], t["city"])]
    return found_players[:limit], found_tournaments[:limit]
