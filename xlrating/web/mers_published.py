"""What the MERS pages publish, computed from the store by the leaderboard code of
``xlrating rank mers`` (:meth:`xlrating.systems.mers.Mers.leaderboard`): a ruleset's ranking with
each player's country; and the stored tournaments, their standings and
the players as the pages list them. A player's total over time is
:func:`xlrating.core.mers.history.total_history`.

Countries are the players' as last submitted (the results sheets' 3-letter codes, e.g. FRA).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from xlrating.core.names import fold, folded, has_folded
from xlrating.store import SQLiteStore, StoredEvent
from xlrating.systems import get
from xlrating.web.published import kept

SYSTEM = "mers"


def ranking(store: SQLiteStore, ruleset: str, rules: str, as_of: dt.date) -> dict[str, Any]:
    """The leaderboard of ``ruleset`` on ``as_of``: ``ranking`` lines (rank, player, name, country,
    total, count), ``breakdown`` (each counted result) and ``empty_reason``; computed once per
    revision of the stored tournaments (:mod:`xlrating.web.published`)."""
    return kept(store, SYSTEM, ("ranking", ruleset, rules, as_of), lambda: _ranking(store, ruleset, rules, as_of))


def records(store: SQLiteStore, ruleset: str) -> list[Any]:
    """What ``rank mers --ruleset RULESET`` reads from the store."""
    return kept(store, SYSTEM, ("records", ruleset), lambda: get(SYSTEM).stored_records(store, ruleset=ruleset))


def _ranking(store: SQLiteStore, ruleset: str, rules: str, as_of: dt.date) -> dict[str, Any]:
    system = get(SYSTEM)
    results = records(store, ruleset)
    players = player_register(store)
    moved = store.registered_countries(SYSTEM)
    board = system.leaderboard(results, source=store.path, stored=store, as_of=as_of, rules=rules, ruleset=ruleset)
    lines = []
    for line in board.ranked():
        country = country_on(moved.get(line["player"], ()), as_of) or players.get(line["player"], {}).get("country")
        lines.append({"rank": line["rank"], "player": line["player"], "name": line["name"], "country": country,
                      "total": line["total"], "count": line["count"]})
    breakdown = [row | {"date": row["date"].isoformat() if row["date"] else None} for row in board.breakdown]
    counted: dict[str, list[dict[str, Any]]] = {}
    for row in breakdown:
        counted.setdefault(row["player"], []).append(row)
    results_of: dict[str | None, list[Any]] = {}
    for result in results:
        results_of.setdefault(result.player, []).append(result)
    return {"ranking": lines, "breakdown": breakdown, "empty_reason": board.empty_reason, "results": results,
            "lines_of": {line["player"]: line for line in lines}, "counted_of": counted, "results_of": results_of}


def previous_ranking_date(store: SQLiteStore, ruleset: str, as_of: dt.date) -> tuple[dt.date, list[str]] | None:
    """The ranking before the latest one on ``as_of``: the day before the ruleset's last tournaments
    (ended on or before ``as_of``) came in, and their names; None when no tournament had ended. A
    ranking is published as each tournament is added, so this is what the last one changed."""
    ended = [t for t in current_tournaments(store) if t["ruleset"] == ruleset and t["end_date"] <= as_of.isoformat()]
    if not ended:
        return None
    last = max(t["end_date"] for t in ended)
    return dt.date.fromisoformat(last) - dt.timedelta(days=1), sorted(t["name"] for t in ended if t["end_date"] == last)


def movement(lines: list[dict[str, Any]], before: dict[str, Any]) -> list[dict[str, Any]]:
    """``lines`` each with its ``previous_rank`` in ``before`` (a :func:`ranking`) and its
    ``movement``: places gained (positive), lost (negative), 0, or None when it is new."""
    previous = {line["player"]: line["rank"] for line in before["ranking"]}
    moved = []
    for line in lines:
        was = previous.get(line["player"])
        moved.append(line | {"previous_rank": was, "movement": None if was is None else was - line["rank"]})
    return moved


def country_on(periods: Iterable[tuple[dt.date, str]], day: dt.date) -> str | None:
    """The country the register gives a player on ``day`` (the latest from that day or before),
    or None (the one last submitted then counts)."""
    return next((country for since, country in sorted(periods, reverse=True) if since <= day), None)


def standing(board: dict[str, Any], player: str) -> dict[str, Any]:
    """The player's line of a :func:`ranking` (rank, total) and counted results."""
    line = board["lines_of"].get(player)
    return {"rank": line["rank"] if line else None, "total": line["total"] if line else None,
            "ranked_players": len(board["ranking"]), "counted": list(board["counted_of"].get(player, ()))}


def label_ids(store: SQLiteStore, ruleset: str) -> dict[str, int]:
    """:func:`tournament_label_ids` of the ruleset's current tournaments."""
    return kept(store, SYSTEM, ("label ids", ruleset), lambda: tournament_label_ids(
        t for t in current_tournaments(store) if t["ruleset"] == ruleset))


def tournament_label_ids(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How the ranking names a tournament (its name, or ``name (start date)`` when two stored
    tournaments share the name, as :meth:`SQLiteStore.mers_results` labels them) -> its id."""
    rows = list(rows)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["name"]] = counts.get(row["name"], 0) + 1
    return {(row["name"] if counts[row["name"]] == 1 else f"{row['name']} ({row['start_date']})"): row["id"]
            for row in rows}


# --- the tournaments and players as the pages list them -------------------------------------------

def tournament_row(event: StoredEvent) -> dict[str, Any]:
    facts = event.facts
    return {"id": event.number, "name": event.name, "ruleset": facts["ruleset"], "city": facts.get("city"),
            "country": facts.get("country"), "start_date": event.start_date.isoformat(),
            "end_date": event.end_date.isoformat(), "days": facts.get("days"), "players": event.players,
            "countries": facts.get("countries"), "weight": facts["weight"], "version": event.version,
            "current": event.current, "stored_at": event.stored_at, "replaced_at": event.replaced_at,
            "file_name": event.file_name, "sha256": event.sha256}


def current_tournaments(store: SQLiteStore) -> list[dict[str, Any]]:
    """The current version of every stored tournament, newest first."""
    return kept(store, SYSTEM, "tournaments", lambda: [
        tournament_row(e) for e in sorted(store.events(SYSTEM), key=lambda e: (e.end_date, e.number), reverse=True)])


def tournament(store: SQLiteStore, number: int) -> tuple[StoredEvent, dict[str, Any]] | None:
    """One stored version of a tournament (current or replaced), or None."""
    found = store.event(SYSTEM, number)
    return None if found is None else (found, tournament_row(found))


def tournament_versions(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """Every version of the tournament ``found`` is a version of, oldest first."""
    return [tournament_row(e) for e in store.versions(found)]


def standings(store: SQLiteStore, found: StoredEvent) -> list[dict[str, Any]]:
    """The results of one tournament version as submitted, by place (then sheet row)."""
    entries = sorted(store.entries([found])[found.id], key=lambda e: (e.place or 0, e.row))
    return [{"place": e.place, "ema_id": e.player, "last_name": e.facts.get("last_name"),
             "first_name": e.facts.get("first_name"), "country": e.facts.get("country"),
             "table_points": e.facts.get("table_points"), "score": e.facts.get("score")} for e in entries]


def player_register(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    """EMA ID -> ``{ema_id, first_name, last_name, name, country}`` as last submitted."""
    return kept(store, SYSTEM, "register", lambda: _register(store))


def _register(store: SQLiteStore) -> dict[str, dict[str, Any]]:
    found = {}
    for ema_id, player in store.players(SYSTEM).items():
        first, last = player.facts.get("first_name"), player.facts.get("last_name")
        found[ema_id] = {"ema_id": ema_id, "first_name": first, "last_name": last,
                         "name": " ".join(p for p in (first, last) if p), "country": player.facts.get("country")}
    return found


def player_results(store: SQLiteStore, ema_id: str) -> list[dict[str, Any]]:
    """Every result of a player in the current tournament versions, newest first, with the
    tournament's number (its page's address)."""
    mine = [(e, entry) for e, entry in store.player_entries(SYSTEM, ema_id)]
    mine.sort(key=lambda pair: (pair[0].end_date, pair[0].number), reverse=True)
    return [{"tournament_id": e.number, "tournament": e.name, "ruleset": e.facts["ruleset"], "city": e.facts.get("city"),
             "country": e.facts.get("country"), "start_date": e.start_date.isoformat(),
             "end_date": e.end_date.isoformat(), "players": e.players, "weight": e.facts["weight"],
             "place": entry.place} for e, entry in mine]


def search(store: SQLiteStore, text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Players and current tournaments whose name contains every word of ``text``, accent- and
    case-insensitively (``"ines aubert"`` finds Inès Aubert; an EMA ID finds its player): players
    by last then first name, tournaments newest first."""
    words = fold(text).split()
    if not words:
        return [], []
    players, tournaments = kept(store, SYSTEM, "search", lambda: _search_index(store))
    return ([p for key, p in players if has_folded(words, key)], [t for key, t in tournaments if has_folded(words, key)])


def _search_index(store: SQLiteStore) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    """Every player and current tournament with its names folded once, in the order search lists
    them: the players with an EMA ID, then each result of a player without one (found by name, with
    the tournament it is in: such a player has no page and no ranking of their own)."""
    players = sorted(player_register(store).values(),
                     key=lambda p: (fold(p["last_name"] or ""), fold(p["first_name"] or ""), p["ema_id"]))
    unregistered = sorted(({"ema_id": None, "first_name": entry.facts.get("first_name"),
                            "last_name": entry.facts.get("last_name"), "country": entry.facts.get("country"),
                            "tournament_id": event.number, "tournament": event.name, "place": entry.place,
                            "end_date": event.end_date.isoformat()}
                           for event, entry in store.current_entries(SYSTEM) if entry.player is None),
                          key=lambda p: (fold(p["last_name"] or ""), fold(p["first_name"] or ""), p["end_date"]))
    return ([(folded(p["first_name"], p["last_name"], p["ema_id"]), p) for p in [*players, *unregistered]],
            [(folded(t["name"], t["city"]), t) for t in current_tournaments(store)])
