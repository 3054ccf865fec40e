"""Checking uploaded sheets away from the server's own process.

Every upload is read by the same hostile-input-safe reader as ``xlrating validate``
(:func:`~xlrating.sheets.read.submitted.open_submission`: size, ratio, cell and time limits, the
format judged from the bytes), from the bytes received; the file name only says which format the
organiser meant and labels the findings. Nothing is written to disk.

The work runs in a small pool of worker processes (:class:`SheetChecker`): a file that takes long
or too much memory costs a worker, never the server; a check that passes ``timeout`` seconds ends
its worker and answers with a message. At most ``queue`` checks wait for a worker; more are told
the server is busy.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SheetCheck:
    """What the validator said about one upload; ``unreadable`` set when it could not be read."""

    kind: str | None
    findings: list[dict[str, Any]] = field(default_factory=list)
    valid: bool = False
    tournament: str | None = None
    unreadable: str | None = None
    # the content, for storing it (valid uploads): what its rating system's validator read
    submission: Any = None
    system: str = ""  # the key of the rating system the file is for, judged by its columns


def check_sheet(file_name: str, data: bytes) -> SheetCheck:
    """Validate the bytes of an upload (runs in a worker process) as the file of the rating system
    its sheets are (:func:`xlrating.systems.detect`)."""
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.systems import SystemUnclear, get, validate_submission

    try:
        submission = open_submission(file_name, data=data)
        validation = validate_submission(file_name, submission)
    except (UnreadableWorkbook, SystemUnclear) as exc:
        return SheetCheck(None, unreadable=str(exc))
    content = validation.submission
    return SheetCheck(submission.kind, [f.as_dict() for f in validation.findings], validation.valid,
                      get(validation.system).label(content), submission=content, system=validation.system)


def annotated_sheet(file_name: str, data: bytes) -> bytes:
    """The annotated .xlsx copy of an upload (runs in a worker process)."""
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.annotate import annotated_copy
    from xlrating.systems import validate_submission

    submission = open_submission(file_name, data=data)
    return annotated_copy(submission, validate_submission(file_name, submission).findings)


class CheckUnavailable(Exception):
    """The check could not run (too slow, a worker died, the server is busy); the message says so."""


class SheetChecker:
    """A pool of worker processes running :func:`check_sheet` and :func:`annotated_sheet`."""

    def __init__(self, processes: int = 2, *, timeout: float = 60.0, queue: int = 200):
        self.processes = processes
        self.timeout = timeout
        self._room = asyncio.Semaphore(processes + queue)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter per worker, not a fork of the server's threads
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def run(self, function: Any, *args: Any) -> Any:
        if self._room.locked():
            raise CheckUnavailable("the server is checking many sheets right now; try again in a minute")
        async with self._room:
            loop = asyncio.get_running_loop()
            pool = self._executor()
            try:
                return await asyncio.wait_for(loop.run_in_executor(pool, function, *args), self.timeout)
            except TimeoutError:
                self._restart(pool)
                raise CheckUnavailable(f"checking the sheet took longer than {self.timeout:g} seconds and was "
                                       f"stopped; a results sheet is checked in a second or two, so this file is "
                                       f"far larger or more complex than one") from None
            except concurrent.futures.process.BrokenProcessPool:
                self._restart(pool)
                raise CheckUnavailable("the checking process stopped while reading this file (it may need more "
                                       "memory than a results sheet does); nothing was stored") from None

    def _restart(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """End the pool (killing its workers: one is stuck on a file) so the next check gets a new one."""
        if self._pool is pool:
            self._pool = None
        for process in list(getattr(pool, "_processes", {}).values()):  # no public way to stop a busy worker
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
