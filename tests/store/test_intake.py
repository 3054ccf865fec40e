"""The web intake's queue in the store: the upgrade that adds it, expiry of unsubmitted uploads,
and acceptance as one transaction with the ingest."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.stored import ingest
from xlrating.sheets.validate.ema.sheet import validate_file
from xlrating.store import IntakeError, open_store
from xlrating.store.schema import MIGRATIONS

LYON = Path(__file__).parents[2] / "examples" / "01_lyon_mcr_open_2024.xlsx"


def _pending(store, token: str = "t1"):  # type: ignore[no-untyped-def]
    store.add_check(token, LYON.name, "xlsx", LYON.read_bytes(), [], True, "Lyon MCR Open 2024", "mers")
    return store.submit_check(token, "org@example.org")


def test_a_store_of_the_first_schema_is_upgraded_with_its_data_kept(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    connection = sqlite3.connect(db)
    connection.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    connection.close()
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(db), str(LYON)], check=True,
                   capture_output=True)  # opening for writing upgrades it
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert check.execute("SELECT count(*) FROM entries").fetchone()[0] == 24
        assert check.execute("SELECT count(*) FROM intake").fetchone()[0] == 0


def test_uploads_never_submitted_are_dropped_after_a_day(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "s.db")) as store:
        store.add_check("old", "a.xlsx", "xlsx", b"a", [], True, None, "mers")
        _pending(store, "kept")
        day_ago = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=25)).isoformat(timespec="seconds")
        store._db.execute("UPDATE intake SET uploaded_at = ?", (day_ago,))
        store.add_check("new", "b.xlsx", "xlsx", b"b", [], True, None, "mers")
        assert store.intake_by_token("old") is None
        assert store.intake_by_token("kept").status == "pending"  # submitted: kept for the officer
        assert store.intake_by_token("new") is not None


def test_a_check_keeps_the_bytes_received_and_their_digest(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "s.db")) as store:
        item = _pending(store)
        assert store.intake_content(item.id) == LYON.read_bytes()
        assert item.sha256 == hashlib.sha256(LYON.read_bytes()).hexdigest() and item.size == LYON.stat().st_size


def test_acceptance_and_ingest_are_one_transaction(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    submission = validate_file(LYON).submission
    with open_store(str(db)) as store:
        item = _pending(store)
        store.reject_intake(item.id, "wrong file")
        before = shutil.copyfile(db, tmp_path / "before.db")
        # accepting what was already decided stores nothing at all
        with pytest.raises(IntakeError, match="not waiting for a decision"):
            ingest(store, LYON.name, LYON.read_bytes(), submission, intake_id=item.id)
    assert db.read_bytes() == Path(before).read_bytes()
    with open_store(str(db)) as store:
        second = _pending(store, "t2")
        outcome = ingest(store, LYON.name, LYON.read_bytes(), submission, intake_id=second.id)
        assert outcome.status == "stored"
        accepted = store.intake_by_id(second.id)
        assert accepted.status == "accepted" and accepted.decision_note == "stored as version 1"
        # the same bytes accepted again from another upload: recorded, nothing else stored
        third = _pending(store, "t3")
        again = ingest(store, LYON.name, LYON.read_bytes(), submission, intake_id=third.id)
        assert again.status == "unchanged" and store.intake_by_id(third.id).status == "accepted"
        assert len(store.events("mers", history=True)) == 1
