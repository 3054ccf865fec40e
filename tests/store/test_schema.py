"""A new store is created with the current schema at once; a store of any earlier schema is brought
to the very same schema by the migrations (the same tables, columns, constraints and indexes)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from xlrating.store import open_store
from xlrating.store.schema import MIGRATIONS, SCHEMA_VERSION


def _schema(db: Path) -> set[tuple[str, str, str]]:
    with sqlite3.connect(db) as connection:
        return {(kind, name, " ".join(sql.split())) for kind, name, sql in connection.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL")}


def test_a_new_store_and_a_migrated_one_have_the_same_schema(tmp_path: Path) -> None:
    new = tmp_path / "new.db"
    open_store(str(new)).close()
    for first in range(1, SCHEMA_VERSION):
        old = tmp_path / f"from-{first}.db"
        with sqlite3.connect(old) as connection:
            for step in MIGRATIONS[:first]:
                if callable(step):
                    step(connection)
                else:
                    connection.executescript(step)
            connection.execute(f"PRAGMA user_version = {first}")
        open_store(str(old)).close()
        assert _schema(old) == _schema(new), f"a store of schema {first}"


def test_a_new_store_has_no_pages_left_over_from_tables_it_never_had(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    open_store(str(db)).close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA freelist_count").fetchone()[0] == 0
