"""The results ledger: every rating system's events (each version) with their entries, the players a
system keeps, every file received as received, and the web's intake queue; one model for every
system (:mod:`.records`), written in one transaction at a time (:mod:`.transaction`).

``open_store(location)`` takes a SQLite file path or a ``sqlite:///path`` URL (``sqlite://`` or
``:memory:`` for a throwaway in-memory store). Other URL schemes are refused with a message.
"""

from __future__ import annotations

import re
from pathlib import Path

from xlrating.store.intake import IntakeError, IntakeItem
from xlrating.store.records import (
    EntryRecord,
    EventChange,
    EventRecord,
    IngestOutcome,
    PlayerRecord,
    StoredEntry,
    StoredEvent,
    StoredPlayer,
    Submission,
)
from xlrating.store.sqlite import SQLiteStore, StoreError

__all__ = ["EntryRecord", "EventChange", "EventRecord", "IngestOutcome", "IntakeError", "IntakeItem", "PlayerRecord",
           "SQLiteStore", "StoreError", "StoredEntry", "StoredEvent", "StoredPlayer", "Submission", "open_store",
           "sqlite_path"]


def sqlite_path(location: str) -> str:
    """The SQLite file a location names: ``sqlite:///rel.db`` -> ``rel.db``,
    ``sqlite:////abs.db`` -> ``/abs.db``, a plain path as it is."""
    if location in ("sqlite://", "sqlite:///:memory:", ":memory:"):
        return ":memory:"
    if location.startswith("sqlite:///"):
        return location[len("sqlite:///"):]
    match = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", location)
    if match:
        raise StoreError(f"{location}: unsupported store URL scheme {match.group(1)!r}; "
                         "expected a SQLite file path or a sqlite:///path URL")
    return location


def open_store(location: str, *, read_only: bool = False) -> SQLiteStore:
    """Open the store at ``location``, creating it when needed unless ``read_only`` (then it must
    exist, and nothing is ever written to it); raises :class:`StoreError`."""
    path = sqlite_path(location)
    if path != ":memory:":
        parent = Path(path).parent
        if not parent.is_dir():
            raise StoreError(f"{location}: folder {parent} does not exist")
        if read_only and not Path(path).is_file():
            raise StoreError(f"{location}: no results store here; ingest result sheets first "
                             f"(xlrating ingest FILE) or choose one with --db")
    return SQLiteStore(path, read_only=read_only)
