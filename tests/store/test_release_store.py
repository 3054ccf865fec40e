"""A store written by the last release (xlrating 0.1.0, tests/data/stores/release-0.1.0.db: all three
systems, versions accepted through the officer's queue and from the command line, replaced versions,
a rejected submission, one waiting and one upload never submitted) opens with this release: it is
migrated in place and every public page, the queue with each decision, and every file kept are what
that release showed (tests/data/stores/release-0.1.0.json, written by it). A migration that fails
half-way, or a process killed in the middle of one, leaves the old store exactly as it was."""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
import math
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.test_behaviour_snapshot import _first_difference, page_data
from xlrating.store import open_store
from xlrating.store.schema import SCHEMA_VERSION
from xlrating.web.app import Settings, create_app

STORES = Path(__file__).parents[1] / "data" / "stores"
RELEASE = STORES / "release-0.1.0.db"
RECORD = json.loads((STORES / "release-0.1.0.json").read_text(encoding="utf-8"))
INTAKE_COLUMNS = ("i.id", "i.token", "i.file_name", "i.kind", "i.sha256", "i.size", "i.findings", "i.valid",
                  "i.tournament", "i.uploaded_at", "i.status", "i.contact", "i.submitted_at", "i.decided_at",
                  "i.decision_note", "i.system", "s.sha256")


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    shutil.copyfile(RELEASE, db)
    return db


def _version(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])


def _dump(db: Path) -> str:
    """Every table's rows, for telling whether a file changed in anything but its pages' layout."""
    with sqlite3.connect(db) as connection:
        return "\n".join(connection.iterdump())


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = _copy(tmp_path_factory.mktemp("release"))
    open_store(str(db)).close()  # opening for writing migrates
    return db


def test_the_release_store_is_migrated_to_this_schema(migrated: Path) -> None:
    assert _version(RELEASE) == 5
    assert _version(migrated) == SCHEMA_VERSION


def _whole(value: float) -> float:
    return float(math.floor(value + 0.5))


def since_the_release(pages: dict[str, Any]) -> dict[str, Any]:
    """The release's pages with the changes made since on purpose (each named in the release notes
    of issue 38): a MERS tournament's or player's page shows each base rank as its rules count it,
    so under the 2018 rules rounded half up to a whole number, as the counted results always were."""
    changed = copy.deepcopy(pages)
    for address, page in changed.items():
        if not address.startswith(("/players/", "/tournaments/")):
            continue
        data = page.get("json") or {}
        rules = data.get("rules") or (data.get("tournament") or {}).get("rules")
        if rules == "2018":
            for row in data["results"] if address.startswith("/players/") else data["standings"]:
                row["base_rank"] = _whole(row["base_rank"])
        if "csv" in page and rules is None:  # a CSV carries no rules: its JSON's page says them
            twin = changed.get(address.removesuffix(" (csv)"), {}).get("json") or {}
            if (twin.get("rules") or (twin.get("tournament") or {}).get("rules")) == "2018":
                header, *rows = page["csv"]
                at = header.split(",").index("base_rank")
                page["csv"] = [header, *(",".join(_csv_whole(cells, at)) for cells in (r.split(",") for r in rows))]
    return changed


def _csv_whole(cells: list[str], at: int) -> list[str]:
    return [*cells[:at], repr(_whole(float(cells[at]))), *cells[at + 1:]]


def _columns_of(lines: list[str], columns: list[str]) -> list[str]:
    """CSV ``lines`` with only ``columns``, when they are its first columns (else as they are)."""
    rows = list(csv.reader(lines))
    if not rows or rows[0][:len(columns)] != columns:
        return lines
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(row[:len(columns)] for row in rows)
    return out.getvalue().splitlines()


def test_every_public_page_shows_what_the_release_showed(migrated: Path) -> None:
    with TestClient(create_app(Settings(str(migrated), check_processes=1))) as client:
        pages = page_data(client, migrated.parent)
    # what it showed (with the changes made on purpose since), and maybe more: keys in the JSON,
    # columns after the release's in the CSV
    recorded = since_the_release(RECORD["pages"])
    for address, page in pages.items():
        if "csv" in page and address in recorded:
            page["csv"] = _columns_of(page["csv"], recorded[address]["csv"][0].split(","))
        if address.startswith("/search") and "json" in page:  # since: players without an EMA ID are found too
            found = page["json"]
            found["players"] = [p for p in found["players"] if p["ema_id"] is not None]
            found["found"]["players"] = len(found["players"])
        if address.startswith("/search") and "csv" in page:
            page["csv"] = [line for line in page["csv"] if not line.startswith(",")]
    assert _first_difference(recorded, pages, new_keys=True) is None


def test_every_upload_and_decision_of_the_queue_is_kept(migrated: Path) -> None:
    with sqlite3.connect(migrated) as connection:
        queue = [dict(zip(INTAKE_COLUMNS, row)) for row in connection.execute(
            f"SELECT {', '.join(INTAKE_COLUMNS)} FROM intake i LEFT JOIN submissions s ON s.id = i.submission_id "
            "ORDER BY i.id")]
    assert queue == RECORD["intake"]
    with open_store(str(migrated)) as store:
        assert [item.status for item in store.intake_queue()] == ["pending", "rejected", "accepted", "accepted",
                                                                   "accepted"]


def test_every_file_received_is_kept_byte_for_byte(migrated: Path) -> None:
    with sqlite3.connect(migrated) as connection:
        rows = connection.execute("SELECT file_name, sha256, size, content FROM submissions ORDER BY id").fetchall()
    assert [{"file_name": n, "sha256": s, "size": z} for n, s, z, _ in rows] == RECORD["files"]
    assert all(hashlib.sha256(content).hexdigest() == sha for _, sha, _, content in rows)


def test_a_store_of_this_release_opens_without_being_written(migrated: Path) -> None:
    before = migrated.read_bytes()
    open_store(str(migrated)).close()
    open_store(str(migrated), read_only=True).close()
    assert migrated.read_bytes() == before


KILLED = """
import os, signal, sys
from xlrating.store import schema, sqlite
steps = list(schema.MIGRATIONS)
def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
steps.append(killed)  # a last step that never returns: the process dies inside the migration
schema.MIGRATIONS = sqlite.MIGRATIONS = tuple(steps)
schema.SCHEMA_VERSION = sqlite.SCHEMA_VERSION = len(steps)
sqlite.SQLiteStore(sys.argv[1]).close()
"""


def test_a_migration_killed_half_way_leaves_the_old_store_as_it_was(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    before = _dump(db)
    completed = subprocess.run([sys.executable, "-c", KILLED, str(db)], capture_output=True, check=False)
    assert completed.returncode == -9, completed.stderr.decode()
    assert _version(db) == 5 and _dump(db) == before  # SQLite's journal undoes the unfinished transaction
    open_store(str(db)).close()
    assert _version(db) == SCHEMA_VERSION


def test_a_migration_that_fails_half_way_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlrating.store import schema, sqlite

    def broken(connection: Any) -> None:
        raise sqlite3.IntegrityError("a row the migration cannot carry")

    steps = (*schema.MIGRATIONS, broken)
    monkeypatch.setattr(sqlite, "MIGRATIONS", steps)
    monkeypatch.setattr(sqlite, "SCHEMA_VERSION", len(steps))
    db = _copy(tmp_path)
    before = _dump(db)
    with pytest.raises(Exception, match="cannot carry"):
        open_store(str(db))
    assert _version(db) == 5 and _dump(db) == before
