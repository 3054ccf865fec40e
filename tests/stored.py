"""Helpers for tests that put validated files into a store as ``xlrating ingest`` does and read them
back as ``xlrating rank`` does, through the registry of systems."""

from __future__ import annotations

import hashlib
from typing import Any

from xlrating.store import IngestOutcome, SQLiteStore
from xlrating.systems import get


def ingest(store: SQLiteStore, file_name: str, content: bytes, validated: Any, system: str = "mers",
           **options: Any) -> IngestOutcome:
    """Store ``validated`` (what the system's validator read from ``content``) as ``ingest`` does."""
    submission = get(system).submission(validated, hashlib.sha256(content).hexdigest())
    return store.ingest(file_name, content, submission, **options)


def records(store: SQLiteStore, system: str = "mers", **options: Any) -> list[Any]:
    """What ``rank SYSTEM`` reads from the store."""
    return get(system).stored_records(store, **options)
