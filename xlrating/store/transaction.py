"""The store's one way of writing: a ``BEGIN IMMEDIATE`` transaction, all of it or nothing.

``BEGIN IMMEDIATE`` takes the write lock at once (two writers never interleave; the second waits up
to the connection's busy timeout). Whatever escapes the block (an error, Ctrl-C) rolls it back; a
database error becomes a :class:`~xlrating.store.errors.StoreError` naming the store and saying
that nothing changed. A block that decides to keep nothing calls :meth:`Transaction.discard`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from xlrating.store.errors import StoreError


@dataclass
class Transaction:
    db: sqlite3.Connection
    keep: bool = True

    def discard(self) -> None:
        """End the block without writing anything it did."""
        self.keep = False


@contextmanager
def transaction(db: sqlite3.Connection, path: str, what: str = "write to the store") -> Iterator[Transaction]:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise StoreError(f"{path}: cannot start writing ({exc})") from None
    block = Transaction(db)
    try:
        yield block
    except sqlite3.Error as exc:
        db.execute("ROLLBACK")
        raise StoreError(f"{path}: could not {what}, nothing was changed ({exc})") from None
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT" if block.keep else "ROLLBACK")
