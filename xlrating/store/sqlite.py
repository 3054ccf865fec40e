"""The SQLite results store: every rating system's events (each version), their entries, the
players a system keeps, each file received as received (bytes + SHA-256), and the web's intake.

Opening a store for writing brings its schema up to date in one transaction
(:mod:`xlrating.store.schema`); a reader never writes. One ingest is one transaction
(:mod:`xlrating.store.transaction`): either the whole file is stored or nothing is, and a refused
ingest does not touch the file (:mod:`xlrating.store.ledger`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Self

from xlrating.store.errors import StoreError
from xlrating.store.intake import IntakeQueue, OfficerSessions
from xlrating.store.ledger import Ledger
from xlrating.store.register import Register
from xlrating.store.schema import MIGRATIONS, SCHEMA, SCHEMA_BASE, SCHEMA_VERSION
from xlrating.store.transaction import transaction

__all__ = ["SQLiteStore", "StoreError"]


class SQLiteStore(IntakeQueue, OfficerSessions, Register, Ledger):
    """A results store in one SQLite file (``:memory:`` for a throwaway one)."""

    def __init__(self, path: str, *, read_only: bool = False):
        self.path = path
        try:
            if read_only:  # readers (rank) never create, migrate or otherwise write a store
                self._db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                           isolation_level=None, timeout=30)
                version = self._schema_version()
                if version == 0:
                    holds = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                    raise StoreError(f"{path}: a SQLite database that is not an xlrating store (it holds other "
                                     f"tables); choose another file with --db" if holds else
                                     f"{path}: an empty database, not a results store; ingest result sheets "
                                     f"into it first")
                if version != SCHEMA_VERSION:
                    raise StoreError(f"{path}: store schema version {version}, this xlrating reads "
                                     f"{SCHEMA_VERSION}; ingest a sheet into it once to upgrade it")
            else:
                self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
                self._db.execute("PRAGMA foreign_keys = ON")
                self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a usable xlrating store ({exc})") from None

    # --- lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        if self._schema_version() == SCHEMA_VERSION:
            return  # nothing to write: opening an up-to-date store leaves the file untouched
        with transaction(self._db, self.path, "bring the store up to date") as block:
            # Read again under the write lock: another process may have migrated meanwhile.
            version = self._schema_version()
            if version == 0 and block.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"{self.path}: a SQLite database that is not an xlrating store (it holds "
                                 f"other tables); choose another file with --db")
            if version == 0:  # a new store: the schema of the one model at once, then what came after
                _run(block.db, SCHEMA)
                version = SCHEMA_BASE
            for number in range(version, SCHEMA_VERSION):
                step = MIGRATIONS[number]
                if callable(step):  # a migration that moves rows in Python, inside the same transaction
                    step(block.db)
                    continue
                _run(block.db, step)
            block.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _schema_version(self) -> int:
        version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: store schema version {version} is newer than this xlrating "
                             f"understands ({SCHEMA_VERSION}); upgrade xlrating")
        return version


def _run(db: sqlite3.Connection, script: str) -> None:
    """Each statement of ``script`` (``executescript`` would commit the transaction first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)
