"""Two ``xlrating ingest`` processes at once on one SQLite file: both land, or one is refused
cleanly; nothing is duplicated, nothing is lost.

To make "at once" certain rather than likely, the first process is paused inside its write
transaction (ingest_harness.py) while the second starts; the second must wait for the lock, and
the first is then released. A plain race of several unpaused processes is checked too.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from store_processes import integrity, make_sheet, snapshot, start_ingest, wait_for

from xlrating.store import open_store

N = 300


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sheets")
    return {
        "autumn": make_sheet(folder / "autumn.xlsx", "Autumn Open", N),
        "winter": make_sheet(folder / "winter.xlsx", "Winter Open", N),
        "autumn-fixed": make_sheet(folder / "autumn-fixed.xlsx", "Autumn Open", N, salt="x"),
        **{f"race{i}": make_sheet(folder / f"race{i}.xlsx", f"Race Open {i}", 50) for i in range(4)},
    }


def _tournaments(db: Path) -> list[str]:
    with sqlite3.connect(db) as connection:
        return sorted(r[0] for r in connection.execute("SELECT name FROM events"))


def _counts(db: Path) -> dict[str, int]:
    return {table: len(rows) for table, rows in snapshot(db).items()}


def _overlapped(db: Path, first: Path, second: Path, tmp_path: Path, **second_env: str) -> tuple[
        tuple[int, str, str], tuple[int, str, str]]:
    """Run ``first`` until it holds the write lock mid-transaction, start ``second``, check that it
    waits, then release ``first``; return (status, stdout, stderr) of both."""
    marker, release = tmp_path / "paused", tmp_path / "release"
    a = start_ingest(db, first, XLRATING_TEST_PAUSE="after:INSERT INTO entries#1",
                     XLRATING_TEST_MARKER=str(marker), XLRATING_TEST_RELEASE=str(release))
    wait_for(marker, a)
    at_lock = tmp_path / "second-at-lock"
    b = start_ingest(db, second, XLRATING_TEST_BEGIN_MARKER=str(at_lock), **second_env)
    wait_for(at_lock, b)  # b has validated its sheet and asks for the write lock, however slow the machine
    if "XLRATING_TEST_BUSY_TIMEOUT" in second_env:
        b_out = b.communicate(timeout=120)  # a holds the lock until b has given up
    time.sleep(0.2)
    b_waited = b.poll() is None
    release.touch()
    a_out = a.communicate(timeout=120)
    if "XLRATING_TEST_BUSY_TIMEOUT" not in second_env:
        b_out = b.communicate(timeout=120)
    if not second_env:
        assert b_waited, "the second ingest did not wait for the first one's transaction"
    return (a.returncode, *a_out), (b.returncode, *b_out)


def test_two_ingests_of_different_tournaments_at_once_both_land(sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    a, b = _overlapped(db, sheets["autumn"], sheets["winter"], tmp_path)
    assert a[0] == 0 and b[0] == 0, (a, b)
    assert integrity(db) == "ok"
    assert _tournaments(db) == ["Autumn Open", "Winter Open"]
    assert _counts(db)["entries"] == 2 * N and _counts(db)["submissions"] == 2


def test_two_different_files_for_one_tournament_at_once_one_lands_the_other_is_refused(
        sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    a, b = _overlapped(db, sheets["autumn"], sheets["autumn-fixed"], tmp_path)
    assert a[0] == 0, a
    assert b[0] == 1 and "already stored" in b[1] and "--replace" in b[1], b
    assert "Traceback" not in b[2]
    assert integrity(db) == "ok"
    assert _counts(db)["events"] == 1 and _counts(db)["entries"] == N and _counts(db)["submissions"] == 1


def test_the_same_file_twice_at_once_is_stored_once(sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    a, b = _overlapped(db, sheets["autumn"], sheets["autumn"], tmp_path)
    assert a[0] == 0 and b[0] == 0, (a, b)
    assert "nothing changed" in b[1]
    assert _counts(db)["events"] == 1 and _counts(db)["entries"] == N and _counts(db)["submissions"] == 1


def test_a_store_locked_past_the_busy_timeout_refuses_cleanly_and_stores_nothing(
        sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    a, b = _overlapped(db, sheets["autumn"], sheets["winter"], tmp_path, XLRATING_TEST_BUSY_TIMEOUT="0.2")
    assert a[0] == 0, a
    assert b[0] == 2, b
    assert "Traceback" not in b[2] and "xlrating: error:" in b[2] and "locked" in b[2], b[2]
    assert _tournaments(db) == ["Autumn Open"]
    assert _counts(db)["entries"] == N


def test_a_race_of_four_ingests_into_an_existing_store_lands_all_four(sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    open_store(str(db)).close()  # created and migrated; the race below is between ingests only
    children = [start_ingest(db, sheets[f"race{i}"]) for i in range(4)]
    outcomes = [(c.communicate(timeout=120), c.returncode) for c in children]
    assert all(code == 0 for _, code in outcomes), outcomes
    assert integrity(db) == "ok"
    assert _tournaments(db) == [f"Race Open {i}" for i in range(4)]
    assert _counts(db)["entries"] == 4 * 50


def test_two_first_ingests_into_a_new_store_both_land(sheets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    marker, release = tmp_path / "paused", tmp_path / "release"
    a = start_ingest(db, sheets["autumn"], XLRATING_TEST_PAUSE="after:CREATE TABLE#1",
                     XLRATING_TEST_MARKER=str(marker), XLRATING_TEST_RELEASE=str(release))
    wait_for(marker, a)  # a is creating the tables, inside its migration transaction
    b = start_ingest(db, sheets["winter"])
    time.sleep(1.5)
    release.touch()
    a_out, b_out = a.communicate(timeout=120), b.communicate(timeout=120)
    assert a.returncode == 0, a_out
    assert b.returncode == 0, b_out
    assert _tournaments(db) == ["Autumn Open", "Winter Open"]
