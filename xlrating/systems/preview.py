"""What accepting a submitted event would produce, shown to the ranking officer before deciding
(:meth:`~xlrating.systems.base.RatingSystem.preview`): the event's facts as its system computes them
(a MERS weight, a Dip Pouch value) and its standings or matches with what each one produces (a base
rank, a percentile and the rating it moves to, a rating change); and the stored events whose
standings are the same as its own (:func:`same_standings`): the same results sent again under another
name or date. Read-only: nothing is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from xlrating.store.records import EventRecord, StoredEntry, StoredEvent
    from xlrating.store.sqlite import SQLiteStore


class RatingSystem(Protocol):
    """What of a :class:`~xlrating.systems.base.RatingSystem` a preview reads (the declaration
    itself imports this module)."""

    @property
    def key(self) -> str: ...

    def entry_text(self, entry: Any) -> str: ...

    def event_detail(self, event: StoredEvent) -> str: ...

    def event_address(self, number: int) -> str: ...


@dataclass(frozen=True)
class Column:
    """A column of a preview's table: the row key, its header, and ``decimals`` for a number shown
    rounded (None: shown as it is)."""

    key: str
    header: str
    decimals: int | None = None


@dataclass(frozen=True)
class Preview:
    """One event as accepting it would store and rate it: ``facts`` (label, value) computed by the
    system, and ``rows`` (one per standing or match) under ``columns``; ``note`` says how the numbers
    were computed (against which stored events)."""

    label: str
    facts: tuple[tuple[str, Any], ...]
    columns: tuple[Column, ...]
    rows: tuple[dict[str, Any], ...]
    note: str = ""

    def public(self) -> dict[str, Any]:
        """As JSON: the facts as a mapping, the rows with their columns' keys."""
        return {"label": self.label, "facts": dict(self.facts), "columns": [c.key for c in self.columns],
                "rows": [dict(row) for row in self.rows], "note": self.note}


def standings(system: RatingSystem, event: EventRecord) -> Preview:
    """The event's entries as they would be stored, for a system that computes nothing more."""
    rows = tuple({"entry": system.entry_text(entry)} for entry in event.entries)
    return Preview(event.label, (("players", event.players),), (Column("entry", "Entry"),), rows)


def other_events(store: SQLiteStore, system: RatingSystem, event: EventRecord) -> list[tuple[StoredEvent, StoredEntry]]:
    """The store's current entries of the system, but those of the stored version ``event`` would
    replace: what the ratings would be computed from beside ``event`` once it is accepted."""
    return [(stored, entry) for stored, entry in store.current_entries(system.key) if stored.key != event.key]


def same_standings(store: SQLiteStore, system: RatingSystem, event: EventRecord) -> list[StoredEvent]:
    """The stored events (current versions, other than the one ``event`` would replace) whose
    entries are exactly ``event``'s, in the system's words: the same results sent again under
    another name or another date."""
    mine = Counter(system.entry_text(entry) for entry in event.entries)
    candidates = [stored for stored in store.events(system.key)
                  if stored.key != event.key and stored.players == event.players]
    if not candidates:
        return []
    entries = store.entries(candidates)
    return [stored for stored in candidates
            if Counter(system.entry_text(entry) for entry in entries[stored.id]) == mine]


def described(stored: Sequence[StoredEvent], system: RatingSystem) -> tuple[dict[str, Any], ...]:
    """Stored events as the officer's page names them."""
    return tuple({"name": e.name, "dates": system.event_detail(e), "version": e.version,
                  "address": system.event_address(e.number), "file_name": e.file_name} for e in stored)
