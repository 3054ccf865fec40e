"""The SQLite store against real files: one transaction per ingest, re-ingest and replace rules,
history kept, and a failed or refused ingest leaves the file byte for byte as it was."""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3

import pytest

from tests.stored import ingest, records
from xlrating.core import mers
from xlrating.sheets.examples.builders import build_workbook
from xlrating.sheets.validate.ema.sheet import validate_file
from xlrating.store import StoreError, open_store, sqlite_path
from xlrating.store.schema import SCHEMA_VERSION

HEADER = ["Position", "EMA ID", "Last name", "First name", "Country"]


def _block(name="Store Open", ruleset="MCR", start=dt.date(2024, 6, 1), players=3, weight=None):
    block = [("Tournament name", name), ("Ruleset", ruleset), ("Start date", start), ("End date", start),
             ("Days", 1), ("Players", players), ("Countries", 2)]
    return block + ([("MERS weight", weight)] if weight is not None else [])


ROWS = [[1, "04000001", "Abel", "Ann", "FRA"], [2, "-", "Zed", "Zoe", "USA"], [3, "05000002", "Berg", "Bo", "GER"]]


def _sheet(tmp_path, name, block=None, rows=ROWS):
    path = tmp_path / name
    build_workbook(block or _block(), HEADER, rows).save(path)
    validation = validate_file(path)
    assert validation.valid, validation.findings
    return path, validation.submission


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "store.db"


def test_a_new_store_gets_the_current_schema_version(db):
    open_store(str(db)).close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_reopening_an_up_to_date_store_does_not_write_to_it(db):
    open_store(str(db)).close()
    before = _digest(db)
    open_store(str(db)).close()
    assert _digest(db) == before


def test_ingest_stores_players_tournament_results_and_the_file_with_its_hash(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx")
    with open_store(str(db)) as store:
        outcome = ingest(store, path.name, path.read_bytes(), submission)
        assert (outcome.status, outcome.changes[0].version) == ("stored", 1)
        [version] = store.events("mers")
        assert version.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert store.submission_content(version.sha256) == path.read_bytes()
        assert len(store.players("mers")) == 2  # the player without an EMA ID is a result, not a player
        results = records(store)
    assert [(r.player, r.place, r.players) for r in results] == [("04000001", 1, 3), (None, 2, 3), ("05000002", 3, 3)]
    assert results[0].weight == mers.tournament_weight(1, 3, 2)  # no declared weight: 2018 components
    assert results[0].date == dt.date(2024, 6, 1)


def test_the_declared_weight_wins_over_the_components(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx", _block(start=dt.date(2015, 6, 1), weight=5))
    with open_store(str(db)) as store:
        ingest(store, path.name, path.read_bytes(), submission)
        assert {r.weight for r in records(store)} == {5.0}


def test_the_same_file_again_is_reported_and_changes_nothing(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx")
    with open_store(str(db)) as store:
        ingest(store, path.name, path.read_bytes(), submission)
    before = _digest(db)
    with open_store(str(db)) as store:
        outcome = ingest(store, "renamed.xlsx", path.read_bytes(), submission)
    assert outcome.status == "unchanged" and "already stored as version 1" in outcome.message
    assert _digest(db) == before


def test_a_different_file_for_the_same_tournament_is_refused_without_replace(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx")
    fixed, fixed_submission = _sheet(tmp_path, "b.xlsx", rows=[r[:3] + ["Anne", r[4]] for r in ROWS])
    with open_store(str(db)) as store:
        ingest(store, path.name, path.read_bytes(), submission)
    before = _digest(db)
    with open_store(str(db)) as store:
        outcome = ingest(store, fixed.name, fixed.read_bytes(), fixed_submission)
    assert outcome.status == "refused" and outcome.replaceable
    assert "is already stored as version 1 from a different file" in outcome.message
    assert _digest(db) == before


def test_replace_makes_a_new_version_and_keeps_the_old_in_history(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx")
    swapped = [[1, "05000002", "Berg", "Bo", "GER"], [2, "-", "Zed", "Zoe", "USA"], [3, "04000001", "Abel", "Ann", "FRA"]]
    fixed, fixed_submission = _sheet(tmp_path, "b.xlsx", rows=swapped)
    with open_store(str(db)) as store:
        ingest(store, path.name, path.read_bytes(), submission)
        outcome = ingest(store, fixed.name, fixed.read_bytes(), fixed_submission, replace=True)
        assert (outcome.status, outcome.changes[0].version) == ("replaced", 2)
        history = store.events("mers", history=True)
        assert [(v.version, v.current, v.file_name) for v in history] == [(1, False, "a.xlsx"), (2, True, "b.xlsx")]
        assert store.submission_content(history[0].sha256) == path.read_bytes()
        assert next((r.player, r.place) for r in records(store)) == ("05000002", 1)


def test_a_failed_ingest_rolls_back_and_leaves_the_file_as_it_was(tmp_path, db):
    path, submission = _sheet(tmp_path, "a.xlsx")
    other, other_submission = _sheet(tmp_path, "b.xlsx", _block(name="Other Cup"))
    with open_store(str(db)) as store:
        ingest(store, path.name, path.read_bytes(), submission)
    before = _digest(db)
    # A place of 0 breaks the store's CHECK (place >= 1) after several rows are written.
    other_submission.players[2].place = 0
    with open_store(str(db)) as store:
        with pytest.raises(StoreError, match="could not store b.xlsx, nothing was changed"):
            ingest(store, other.name, other.read_bytes(), other_submission)
        assert [v.name for v in store.events("mers")] == ["Store Open"]
    assert _digest(db) == before


def test_results_are_filtered_by_ruleset(tmp_path, db):
    a, sa = _sheet(tmp_path, "a.xlsx")
    b, sb = _sheet(tmp_path, "b.xlsx", _block(name="Riichi Day", ruleset="Riichi"))
    with open_store(str(db)) as store:
        ingest(store, a.name, a.read_bytes(), sa)
        ingest(store, b.name, b.read_bytes(), sb)
        assert {r.tournament for r in records(store, ruleset="Riichi")} == {"Riichi Day"}
        assert len(records(store)) == 6


def test_same_named_events_are_told_apart_by_date(tmp_path, db):
    a, sa = _sheet(tmp_path, "a.xlsx")
    b, sb = _sheet(tmp_path, "b.xlsx", _block(start=dt.date(2025, 6, 1)))
    with open_store(str(db)) as store:
        ingest(store, a.name, a.read_bytes(), sa)
        ingest(store, b.name, b.read_bytes(), sb)
        names = {r.tournament for r in records(store)}
    assert names == {"Store Open (2024-06-01)", "Store Open (2025-06-01)"}


def test_locations_are_paths_or_sqlite_urls():
    assert sqlite_path("sqlite:///rel/x.db") == "rel/x.db"
    assert sqlite_path("sqlite:////abs/x.db") == "/abs/x.db"
    assert sqlite_path("x.db") == "x.db"
    with pytest.raises(StoreError, match="unsupported store URL scheme 'postgresql'"):
        open_store("postgresql://host/db")


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"hello, not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable xlrating store"):
        open_store(str(junk))


def test_a_store_from_a_newer_xlrating_is_refused(db):
    connection = sqlite3.connect(db)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StoreError, match="newer than this xlrating"):
        open_store(str(db))


def test_a_sqlite_file_of_another_application_is_refused_and_left_as_it_was(tmp_path):
    import hashlib
    import sqlite3

    from xlrating.store import StoreError, open_store

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = hashlib.sha256(other.read_bytes()).hexdigest()
    with pytest.raises(StoreError, match="not an xlrating store"):
        open_store(str(other))
    assert hashlib.sha256(other.read_bytes()).hexdigest() == before
