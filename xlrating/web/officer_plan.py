"""What accepting a submission would do, event by event, told before anything is written: for the
ranking officer's page of a submission, so they learn that accepting would replace a stored event
(which version, from which file, when) and what would change in it, what each event's standings
produce (base ranks and weight, value and percentiles, rating changes), and which stored events have
the same standings under another name or date.

:meth:`~xlrating.store.ledger.Ledger.planned_changes` says what ingesting would do to each event;
this adds, for an event that would replace a stored version, the stored version itself and the
differences: the facts that change (days, players, and what its system keeps beside) and the
entries (standings or matches, each in its system's words) added and removed. Read-only.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from xlrating.store import EventRecord, SQLiteStore, StoredEntry, StoredEvent, Submission
from xlrating.systems.base import RatingSystem
from xlrating.systems.preview import described, same_standings

SHOWN_ROWS = 20  # the rows added or removed listed per event (the counts are always whole)
WORDS = {"stored": "new", "unchanged": "unchanged", "replaced": "replaces", "refused": "refused"}


def planned_replacements(store: SQLiteStore, system: RatingSystem, submission: Submission) -> list[dict[str, Any]]:
    """One dict per event of ``submission``: ``label``, ``status`` (``new``, ``unchanged``,
    ``replaces`` or ``refused``), ``version`` (the version it would be stored as), ``reason``
    (refused), and for ``replaces``: ``stored`` (the current version: id, address, version,
    file_name, stored_at), ``facts`` (``[what, stored, new]`` that differ), ``added`` and
    ``removed`` (entries as text, at most :data:`SHOWN_ROWS` each) with ``added_count``,
    ``removed_count`` and ``same_count``; for every event, ``preview`` (its standings with what
    they produce, :meth:`~xlrating.systems.base.RatingSystem.preview`) and ``same_as`` (stored
    events with the same standings under another name or date)."""
    changes = store.planned_changes(submission, replace=True)
    stored = {event.key: event for event in store.events(system.key)}
    plan = []
    for event, change in zip(submission.events, changes):
        item: dict[str, Any] = {"label": change.label, "status": WORDS[change.status], "version": change.version,
                                "reason": change.reason}
        current = stored.get(event.key)
        if change.status == "replaced" and current is not None:
            entries = store.entries([current])[current.id]
            item["stored"] = {"id": current.number, "address": system.event_address(current.number),
                              "version": current.version, "file_name": current.file_name,
                              "stored_at": current.stored_at}
            item["facts"] = _facts(system, current, event) + _country_facts(system, entries, event)
            before = Counter(system.entry_text(e) for e in entries)
            after = Counter(system.entry_text(e) for e in event.entries)
            added, removed = after - before, before - after
            item |= {"added": sorted(added.elements())[:SHOWN_ROWS], "added_count": sum(added.values()),
                     "removed": sorted(removed.elements())[:SHOWN_ROWS], "removed_count": sum(removed.values()),
                     "same_count": sum((after & before).values())}
        item["preview"] = system.preview(store, event)
        item["same_as"] = described(same_standings(store, system, event), system)
        plan.append(item)
    return plan


def _facts(system: RatingSystem, current: StoredEvent, event: EventRecord) -> list[list[Any]]:
    pairs = [("first day", current.start_date.isoformat(), event.start_date.isoformat()),
             ("last day", current.end_date.isoformat(), event.end_date.isoformat()),
             ("players", current.players, event.players), *system.fact_changes(current, event)]
    return [[what, old, new] for what, old, new in pairs if old != new]


def _country_facts(system: RatingSystem, stored: list[StoredEntry], event: EventRecord) -> list[list[Any]]:
    """``["country of NAME", stored, new]`` for each player whose country in the event changes
    (``-`` where none is given)."""
    before, after = system.entry_countries(stored), system.entry_countries(event.entries)
    return [[f"country of {name}", before.get(name, "-"), after.get(name, "-")]
            for name in sorted(before.keys() | after.keys()) if before.get(name) != after.get(name)]


def published_already(store: SQLiteStore, system: RatingSystem, submission: Submission) -> list[str]:
    """What the organiser is told before sending a valid sheet: each of its events already
    published (as it is, or as an earlier version the officer may replace), and stored events with
    the same standings under another name or date."""
    stored = {event.key: event for event in store.events(system.key)}
    notes = []
    for event, change in zip(submission.events, store.planned_changes(submission, replace=True)):
        current = stored.get(event.key)
        if change.status == "unchanged" and current is not None:
            notes.append(f"{event.label} is published already exactly as this file has it (version "
                         f"{current.version}); sending it changes nothing.")
        elif change.status == "replaced" and current is not None:
            notes.append(f"{event.label} is published already, as version {current.version} from "
                         f"{current.file_name}: if you send this sheet, the ranking officer can publish it as version "
                         f"{change.version} in its place (say why in your message).")
        same = same_standings(store, system, event)
        if same:
            names = ", ".join(f"{e.name} ({system.event_detail(e)})" for e in same)
            notes.append(f"The standings of {event.label} are exactly those of {names}, published already: check "
                         f"that these are not the same results under another name or date.")
    return notes
