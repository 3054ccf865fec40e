"""Runs ``xlrating ingest`` with a test-only pause inside its SQLite transaction.

The store has no test hooks, and a small ingest commits in milliseconds, so a kill "at a random
moment" would almost never land inside the transaction. This wrapper (used only by the tests in
this folder) swaps ``sqlite3.connect`` for one whose connections can stop at a chosen statement,
write a marker file, and then wait: forever (the test kills it) or until a release file appears
(the concurrency tests). Nothing in the store is changed; it is the real code on a real file.

Environment:

- ``XLRATING_TEST_PAUSE``: ``before:<sql prefix>#<n>`` or ``after:<sql prefix>#<n>`` -- stop just
  before / just after the n-th statement that starts with the prefix (e.g. ``before:COMMIT#1``,
  ``after:INSERT INTO entries#1``; an ``executemany`` is one statement).
- ``XLRATING_TEST_MARKER``: file written when the pause begins.
- ``XLRATING_TEST_RELEASE``: when set, the pause ends once this file exists.
- ``XLRATING_TEST_BEGIN_MARKER``: file written just before each ``BEGIN IMMEDIATE``, i.e. when
  the process asks for the write lock (so a test knows the second writer is at the lock, however
  slow the machine, instead of sleeping and hoping).
- ``XLRATING_TEST_BUSY_TIMEOUT``: replaces the store's busy timeout (seconds).
- ``XLRATING_TEST_CACHE_PAGES``: a small page cache (``PRAGMA cache_size``) so that SQLite spills
  changed pages into the database file before COMMIT; a kill then leaves a half-written file and
  a hot journal, which is the case recovery has to get right.

Usage: ``python ingest_harness.py ingest --db store.db sheet.xlsx``.
"""

from __future__ import annotations

import os
import runpy
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

_connect = sqlite3.connect


def _parse(spec: str) -> tuple[str, str, int] | None:
    if not spec:
        return None
    when, _, rest = spec.partition(":")
    prefix, _, count = rest.rpartition("#")
    return when, prefix.upper(), int(count)


PAUSE = _parse(os.environ.get("XLRATING_TEST_PAUSE", ""))
SEEN: dict[str, int] = {}
BEGIN_MARKER = os.environ.get("XLRATING_TEST_BEGIN_MARKER", "")


def _pause() -> None:
    marker, release = os.environ.get("XLRATING_TEST_MARKER"), os.environ.get("XLRATING_TEST_RELEASE")
    if marker:
        Path(marker).write_text(str(os.getpid()))
    while not (release and Path(release).exists()):
        time.sleep(0.01)


class PausingConnection(sqlite3.Connection):
    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        return self.execute(sql, *args, many=True)

    def execute(self, sql: str, *args: Any, many: bool = False) -> sqlite3.Cursor:  # type: ignore[override]
        hit = False
        if BEGIN_MARKER and sql.lstrip().upper().startswith("BEGIN IMMEDIATE"):
            Path(BEGIN_MARKER).write_text(str(os.getpid()))
        if PAUSE is not None and sql.lstrip().upper().startswith(PAUSE[1]):
            SEEN[PAUSE[1]] = SEEN.get(PAUSE[1], 0) + 1
            hit = SEEN[PAUSE[1]] == PAUSE[2]
        if hit and PAUSE is not None and PAUSE[0] == "before":
            _pause()
        cursor = super().executemany(sql, *args) if many else super().execute(sql, *args)
        if hit and PAUSE is not None and PAUSE[0] == "after":
            _pause()
        return cursor


def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    kwargs["factory"] = PausingConnection
    if "XLRATING_TEST_BUSY_TIMEOUT" in os.environ:
        kwargs["timeout"] = float(os.environ["XLRATING_TEST_BUSY_TIMEOUT"])
    connection = _connect(*args, **kwargs)
    if "XLRATING_TEST_CACHE_PAGES" in os.environ:
        connection.execute(f"PRAGMA cache_size = {int(os.environ['XLRATING_TEST_CACHE_PAGES'])}")
    return connection


if __name__ == "__main__":
    sqlite3.connect = connect  # type: ignore[assignment]
    sys.argv = ["xlrating", *sys.argv[1:]]
    runpy.run_module("xlrating", run_name="__main__", alter_sys=False)
