"""What the public pages compute from the store, kept until the store changes.

A ranking is computed from every stored result: at a federation's size, a second or more. The pages
compute each one once per revision of a system's stored events (:meth:`~xlrating.store.ledger.Ledger.revision`
changes whenever a version is stored or replaced) and keep it, so a visitor reads what was computed
for the visitor before. Each revision keeps at most :data:`KEPT_PER_REVISION` values (rankings on
as many dates, say), its oldest dropped first; a new revision drops the old one's. Two visitors
asking at once for what is not computed yet wait for one computation, not two.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from xlrating.kept import Kept
from xlrating.store import SQLiteStore

T = TypeVar("T")
KEPT_PER_REVISION = 256


class Revision:
    """The values computed from one revision of one system's stored events."""

    def __init__(self, revision: tuple[int, ...]):
        self.revision = revision
        self.values: Kept[Hashable, Any] = Kept(KEPT_PER_REVISION)
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def value(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, once for this revision (while it is kept)."""
        if key in self.values:
            return self.values[key]  # type: ignore[no-any-return]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.values:
                self.values[key] = compute()
            return self.values[key]  # type: ignore[no-any-return]


_REVISIONS: dict[tuple[str, str], Revision] = {}
_LOCK = threading.Lock()


def revision(store: SQLiteStore, system: str) -> Revision:
    """What is kept for the current revision of ``system``'s events in ``store``."""
    now = store.revision(system)
    key = (store.path, system)
    with _LOCK:
        kept = _REVISIONS.get(key)
        if kept is None or kept.revision != now:
            kept = _REVISIONS[key] = Revision(now)
        return kept


def kept(store: SQLiteStore, system: str, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()`` once per revision of ``system``'s stored events (see the module docstring)."""
    return revision(store, system).value(key, compute)
