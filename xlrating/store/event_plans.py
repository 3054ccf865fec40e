"""What storing a Dip Pouch results or DCI matches table would do, event by event, told before
anything is written: for the ranking officer's page of a submission, so they learn that accepting
would replace a stored event (which version, from which file, when) and what would change in it.

:meth:`~xlrating.store.events.EventStore.planned_changes` says what :meth:`ingest_events` would do
to each event; this module adds, for an event that would replace a stored version, the stored
version itself and the differences: the facts that change (dates, players, rounds, World
Championship) and the rows (standings or matches) added and removed. Read-only.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from xlrating.sheets.validate.events import DipPouchEvent, Event, EventTable
from xlrating.store.sqlite import SQLiteStore

SHOWN_ROWS = 20  # the rows added or removed listed per event (the counts are always whole)
RESULT_WORDS = {1.0: "won against", 0.5: "drew with", 0.0: "lost to"}


def planned_replacements(store: SQLiteStore, table: EventTable) -> list[dict[str, Any]]:
    """One dict per event of ``table``: ``label``, ``status`` (``new``, ``unchanged``, ``replaces``
    or ``refused``), ``version`` (the version it would be stored as), ``reason`` (refused), and for
    ``replaces``: ``stored`` (the current version: id, version, file_name, stored_at), ``facts``
    (``[what, stored, new]`` that differ), ``added`` and ``removed`` (rows as text, at most
    :data:`SHOWN_ROWS` each) with ``added_count``, ``removed_count`` and ``same_count``."""
    changes = store.planned_changes(table, replace=True)
    stored = {v.key: v for v in store.events(table.system)}
    words = {"stored": "new", "unchanged": "unchanged", "replaced": "replaces", "refused": "refused"}
    plan = []
    for event, change in zip(table.events, changes):
        item: dict[str, Any] = {"label": change.label, "status": words[change.status], "version": change.version,
                                "reason": change.reason}
        current = stored.get(event.key)
        if change.status == "replaced" and current is not None:
            item["stored"] = {"id": _event_id(store, table.system, event.key), "version": current.version,
                              "file_name": current.file_name, "stored_at": current.stored_at}
            stored_rows = store.event_rows(table.system, event.key)
            item["facts"] = _facts(current, event) + _country_facts(stored_rows, event)
            before = Counter(_row_text(table.system, row) for row in stored_rows)
            after = Counter(_new_rows(event))
            added, removed = after - before, before - after
            item |= {"added": sorted(added.elements())[:SHOWN_ROWS], "added_count": sum(added.values()),
                     "removed": sorted(removed.elements())[:SHOWN_ROWS], "removed_count": sum(removed.values()),
                     "same_count": sum((after & before).values())}
        plan.append(item)
    return plan


def _event_id(store: SQLiteStore, system: str, key: str) -> int:
    row = store._db.execute("SELECT id FROM events WHERE system = ? AND event_key = ? AND replaced_at IS NULL",
                            (system, key)).fetchone()
    return int(row[0])


def _facts(current: Any, event: Event) -> list[list[Any]]:
    pairs = [("first day", current.start_date.isoformat(), event.start_date.isoformat()),
             ("last day", current.end_date.isoformat(), event.end_date.isoformat()),
             ("players", current.players, event.players), ("rounds", current.rounds, event.rounds)]
    if isinstance(event, DipPouchEvent):
        pairs.append(("World Championship", "yes" if current.world_championship else "no",
                      "yes" if event.world_championship else "no"))
    return [[what, old, new] for what, old, new in pairs if old != new]


def _country_facts(stored_rows: list[dict[str, Any]], event: Event) -> list[list[Any]]:
    """``["country of NAME", stored, new]`` for each player whose country in the event changes
    (``-`` where none is given)."""
    before: dict[str, str] = {}
    if isinstance(event, DipPouchEvent):
        for row in stored_rows:
            if row["country"]:
                before.setdefault(row["player"], row["country"])
        after = {r.player: country for r, (country, _) in zip(event.results, event.details) if country}
    else:
        for row in stored_rows:
            for name, country in ((row["player"], row["player_country"]), (row["opponent"], row["opponent_country"])):
                if name is not None and country:
                    before.setdefault(name, country)
        after = event.player_countries()
    return [[f"country of {name}", before.get(name, "-"), after.get(name, "-")]
            for name in sorted(before.keys() | after.keys()) if before.get(name) != after.get(name)]


def _row_text(system: str, row: dict[str, Any]) -> str:
    if system == "dippouch":
        return f"place {row['place']}: {row['player']}"
    if row["opponent"] is None:
        return f"{row['date']} round {row['round']}: {row['player']} has a bye ({row['category']})"
    return (f"{row['date']} round {row['round']}: {row['player']} {RESULT_WORDS[float(row['result'])]} "
            f"{row['opponent']} (K {float(row['k']):g}, {row['category']})")


def _new_rows(event: Event) -> list[str]:
    if isinstance(event, DipPouchEvent):
        return [_row_text("dippouch", {"place": r.place, "player": r.player}) for r in event.results]
    return [_row_text("dci", {"date": m.date.isoformat(), "round": m.round, "player": m.player,
                              "opponent": m.opponent, "result": m.result, "k": m.k, "category": m.category})
            for m in event.matches]
