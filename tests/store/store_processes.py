"""Helpers for the store tests that use real processes: sheets, ingests, and snapshots of a store."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from xlrating.sheets.examples.builders import build_workbook

HARNESS = Path(__file__).with_name("ingest_harness.py")
HEADER = ["Position", "EMA ID", "Last name", "First name", "Country"]


def make_sheet(path: Path, name: str, players: int, start: dt.date = dt.date(2024, 6, 1), salt: str = "") -> Path:
    """A valid EMA results sheet of ``players`` French players (EMA IDs 04xxxxxx)."""
    block = [("Tournament name", name), ("Ruleset", "MCR"), ("Start date", start), ("End date", start),
             ("Days", 1), ("Players", players), ("Countries", 1)]
    rows = [[i, f"04{i:06d}", f"Last{i}{salt}", f"First{i}", "FRA"] for i in range(1, players + 1)]
    build_workbook(block, HEADER, rows).save(path)
    return path


def start_ingest(db: Path, sheet: Path, **env: str) -> subprocess.Popen[str]:
    """``xlrating ingest --db DB SHEET`` in a child process through the pause harness."""
    return subprocess.Popen([sys.executable, str(HARNESS), "ingest", "--db", str(db), str(sheet)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def ingest(db: Path, sheet: Path, **env: str) -> subprocess.CompletedProcess[str]:
    child = start_ingest(db, sheet, **env)
    out, err = child.communicate(timeout=120)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def wait_for(path: Path, child: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if child.poll() is not None:
            raise AssertionError(f"child ended before pausing: {child.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"child did not reach the pause within {timeout} s")
        time.sleep(0.01)


def kill(child: subprocess.Popen[str]) -> bool:
    """SIGKILL ``child``; True if the signal ended it (False: it had already finished by itself)."""
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)
    return child.returncode == -signal.SIGKILL


def snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, sorted: two stores with equal snapshots hold the same data."""
    with sqlite3.connect(db) as connection:
        tables = [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(connection.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


def recover(db: Path) -> None:
    """Open and read the store once, as the next command would: SQLite rolls back a hot journal."""
    with sqlite3.connect(db) as connection:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    connection.close()
