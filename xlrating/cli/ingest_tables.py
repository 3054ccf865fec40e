"""``xlrating ingest`` for every system: which validator a file gets, and which store method keeps it.

An EMA results sheet is stored as a tournament (:meth:`SQLiteStore.ingest`); a Dip Pouch results
table or a DCI matches table as its events (:meth:`SQLiteStore.ingest_events`). Which one a file
is comes from its columns (:func:`xlrating.sheets.validate.detect.detect_system`) or from ``--system``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from xlrating.sheets.validate.events import EventTable


def validate_for_ingest(file: str, submission: Any, registry: Any, system: str | None) -> Any:
    """The validation of ``file`` as ``system``'s (or, when None, as its columns say); raises
    :class:`~xlrating.sheets.validate.detect.SystemUnclear` when they leave a doubt."""
    from xlrating.sheets.validate.detect import validate_submission

    return validate_submission(file, submission, registry, system=system)


def store_validated(store: Any, file_name: str, content: bytes, submission: Any, *, replace: bool) -> Any:
    """Store a valid submission; the outcome has ``status`` and ``message``."""
    if not isinstance(submission, EventTable):
        return store.ingest(file_name, content, submission, replace=replace)
    outcome = store.ingest_events(file_name, content, submission, replace=replace)
    if outcome.status == "refused" and any(c.status == "refused" and c.version > 0 for c in outcome.events):
        outcome = dataclasses.replace(outcome, message=f"{outcome.message}; use --replace to replace them")
    return outcome


def stored_records(location: str, system: str) -> list[Any]:
    """What ``rank dippouch`` / ``rank dci`` rank without a file: the current events' results or
    matches in the store at ``location`` (opened read-only); raises StoreError. An empty store
    of that system is an error naming what to ingest."""
    from xlrating.store import StoreError, open_store

    with open_store(location, read_only=True) as store:
        records = store.dippouch_results() if system == "dippouch" else store.dci_matches()
    if not records:
        what = "Dip Pouch results" if system == "dippouch" else "DCI matches"
        raise StoreError(f"{location}: the store holds no {what}; ingest a {what} table first "
                         f"(xlrating ingest FILE) or give the FILE to rank")
    return records
