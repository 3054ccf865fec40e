"""A process killed (SIGKILL) in the middle of ``xlrating ingest`` leaves the store as it was.

Real processes, a real SQLite file. The kill lands at chosen statements inside the ingest
transaction (through ingest_harness.py, which pauses the real code there), with and without a
tiny page cache that forces SQLite to write changed pages into the file before COMMIT, and at
random moments of an unpaused run. After each kill the store is opened once (as the next command
would, which rolls back a hot journal) and must be byte-for-byte the store from before, or --
when the kill came after COMMIT -- the store with the whole submission in it; never anything
between. PRAGMA integrity_check must say ok, and the same ingest run again must land.
"""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import pytest
from store_processes import (
    ingest,
    integrity,
    kill,
    make_sheet,
    recover,
    snapshot,
    start_ingest,
    wait_for,
)

BIG = 2000  # players in the submission killed mid-ingest: a transaction of ~4,000 statements


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A store holding one tournament, and a large second submission to ingest into it."""
    folder = tmp_path_factory.mktemp("crash")
    spring = make_sheet(folder / "spring.xlsx", "Spring Open", 40)
    summer = make_sheet(folder / "summer.xlsx", "Summer Open", BIG, salt="")
    before = folder / "before.db"
    assert ingest(before, spring).returncode == 0
    after = folder / "after.db"
    shutil.copy(before, after)
    done = ingest(after, summer)
    assert done.returncode == 0, done.stderr
    return {"before": before, "after": after, "summer": summer}


def _fresh_copy(world: dict[str, Path], tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    shutil.copy(world["before"], db)
    return db


def _count(db: Path, table: str) -> int:
    return len(snapshot(db)[table])


KILL_POINTS = [
    "after:BEGIN IMMEDIATE#1",
    "after:INSERT INTO submissions#1",
    "after:INSERT INTO events#1",
    "after:INSERT INTO entries#1",
    "before:COMMIT#1",
]


@pytest.mark.parametrize("spill", [False, True], ids=["cached", "pages-spilled-to-file"])
@pytest.mark.parametrize("point", KILL_POINTS)
def test_a_kill_inside_the_transaction_leaves_the_store_byte_for_byte_as_before(
        world: dict[str, Path], tmp_path: Path, point: str, spill: bool) -> None:
    db = _fresh_copy(world, tmp_path)
    marker = tmp_path / "paused"
    env = {"XLRATING_TEST_PAUSE": point, "XLRATING_TEST_MARKER": str(marker)}
    if spill:
        env["XLRATING_TEST_CACHE_PAGES"] = "5"
    child = start_ingest(db, world["summer"], **env)
    wait_for(marker, child)
    assert kill(child)
    journal = db.with_name(db.name + "-journal")
    if spill and point != "after:BEGIN IMMEDIATE#1":
        # The kill really caught the file half-written: recovery has work to do.
        assert journal.exists() and journal.stat().st_size > 0
        assert db.read_bytes() != world["before"].read_bytes()
    recover(db)  # a journal that is not hot (nothing reached the file) may stay; SQLite ignores it
    assert db.read_bytes() == world["before"].read_bytes()
    assert integrity(db) == "ok"
    again = ingest(db, world["summer"])
    assert again.returncode == 0, again.stderr
    assert snapshot_without_times(db) == snapshot_without_times(world["after"])


def test_a_kill_just_after_commit_keeps_the_whole_submission(world: dict[str, Path], tmp_path: Path) -> None:
    db = _fresh_copy(world, tmp_path)
    marker = tmp_path / "paused"
    child = start_ingest(db, world["summer"], XLRATING_TEST_PAUSE="after:COMMIT#1",
                         XLRATING_TEST_MARKER=str(marker))
    wait_for(marker, child)
    assert kill(child)
    recover(db)
    assert integrity(db) == "ok"
    assert snapshot_without_times(db) == snapshot_without_times(world["after"])
    again = ingest(db, world["summer"])  # the same file again: nothing duplicated
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert _count(db, "entries") == _count(world["after"], "entries")


def test_a_kill_during_the_first_ingest_into_a_new_store_leaves_it_usable(
        world: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    marker = tmp_path / "paused"
    child = start_ingest(db, world["summer"], XLRATING_TEST_PAUSE="after:INSERT INTO entries#1",
                         XLRATING_TEST_MARKER=str(marker), XLRATING_TEST_CACHE_PAGES="5")
    wait_for(marker, child)
    assert kill(child)
    recover(db)
    assert integrity(db) == "ok"
    assert snapshot(db).get("events", []) == []
    done = ingest(db, world["summer"])
    assert done.returncode == 0, done.stderr
    assert _count(db, "events") == 1 and _count(db, "entries") == BIG


RANDOM_KILLS = 8


def test_kills_at_random_moments_leave_the_store_before_or_after_never_between(
        world: dict[str, Path], tmp_path: Path) -> None:
    timing = tmp_path / "timing.db"
    shutil.copy(world["before"], timing)
    started = time.monotonic()
    assert ingest(timing, world["summer"]).returncode == 0
    duration = time.monotonic() - started
    before, after = snapshot_without_times(world["before"]), snapshot_without_times(world["after"])
    rng = random.Random(20240601)
    outcomes = []
    for i in range(RANDOM_KILLS):
        folder = tmp_path / f"run{i}"
        folder.mkdir()
        db = _fresh_copy(world, folder)
        child = start_ingest(db, world["summer"], XLRATING_TEST_CACHE_PAGES="5")
        time.sleep(rng.uniform(0.3, 1.1) * duration)  # imports and validation take the first ~half
        kill(child)  # it may have finished on its own just before: then "after" is the right state
        recover(db)
        assert integrity(db) == "ok"
        state = snapshot_without_times(db)
        assert state in (before, after), f"kill {i}: the store is neither before nor after"
        outcomes.append("after" if state == after else "before")
    print(f"random kills: {outcomes.count('before')} left the store as before, "
          f"{outcomes.count('after')} came after COMMIT")


def snapshot_without_times(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """A snapshot with the wall-clock columns blanked, so two runs of the same ingest compare equal."""
    import sqlite3

    with sqlite3.connect(db) as connection:
        tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        out = {}
        for table in tables:
            columns = [r[1] for r in connection.execute(f"PRAGMA table_info({table})")]
            keep = ", ".join("NULL" if c in ("received_at", "stored_at", "replaced_at") else c for c in columns)
            out[table] = sorted(connection.execute(f"SELECT {keep} FROM {table}").fetchall(), key=repr)
    return out
