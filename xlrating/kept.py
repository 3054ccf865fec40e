"""What a process keeps from one workbook for the next: a bounded memory, safe to share.

A batch of workbooks made from one template meets the same formula texts, sheet layouts and parts
in each. The engine keeps what it derived from them (trees, plans, compiled programs, parts the
package checks have passed) in a :class:`Kept`: a dictionary of at most ``size`` entries that
drops its oldest when full, so a process that runs for days holds a bounded amount. Entries are
put under a lock, so that threads converting at the same time (the web intake) never see it
half-changed; reads are a dictionary's.
"""

from __future__ import annotations

import threading
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Kept(dict[K, V]):
    """A dictionary of at most ``size`` entries, the oldest dropped first when one more is put."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            if key not in self and len(self) >= self.size:
                del self[next(iter(self))]
            super().__setitem__(key, value)


__all__ = ["Kept"]
