"""Checking uploaded sheets away from the server's own process.

Every upload is read by the same hostile-input-safe reader as ``xlrating validate``
(:func:`~xlrating.sheets.read.submitted.open_submission`: size, ratio, cell and time limits, the
format judged from the bytes), from the bytes received; the file name only says which format the
organiser meant and labels the findings. Nothing is written to disk.

Each check runs in a process of its own (:class:`SheetChecker`), forked from a server that has the
checking code loaded: a file that takes long or too much memory costs its own process, never the
server or another check; a check that passes ``timeout`` seconds from its start is stopped and
answers with a message. At most ``queue`` checks wait for a place; more are told the server is busy
and when to try again.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import math
import multiprocessing
import os
import threading
import time
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
    system: str = ""  # the key of the rating system the file is for, judged by its columns
    errors: int = 0  # every error and warning found (the findings kept are the first of each code)
    warnings: int = 0
    more_findings: dict[str, int] = field(default_factory=dict)  # code -> findings beyond those kept
    records: str | None = None  # a valid file's events as the store's records (JSON), kept until accepted


def check_sheet(file_name: str, data: bytes) -> SheetCheck:
    """Validate the bytes of an upload (runs in a worker process) as the file of the rating system
    its sheets are (:func:`xlrating.systems.detect`)."""
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.findings import grouped
    from xlrating.store.records import records_json
    from xlrating.systems import SystemUnclear, get, validate_submission

    try:
        submission = open_submission(file_name, data=data)
        validation = validate_submission(file_name, submission)
    except (UnreadableWorkbook, SystemUnclear) as exc:
        return SheetCheck(None, unreadable=str(exc))
    system = get(validation.system)
    content = validation.submission
    kept, more = grouped(validation.findings)
    errors = sum(f.severity == "error" for f in validation.findings)
    records = None
    if validation.valid:
        made = system.submission(content, hashlib.sha256(data).hexdigest())
        records = records_json(made.events, made.players)
    return SheetCheck(submission.kind, [f.as_dict() for f in kept], validation.valid, system.label(content),
                      system=validation.system, errors=errors, warnings=len(validation.findings) - errors,
                      more_findings=more, records=records)


def annotated_sheet(file_name: str, data: bytes) -> bytes:
    """The annotated .xlsx copy of an upload (runs in a worker process)."""
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.annotate import annotated_copy
    from xlrating.systems import validate_submission

    submission = open_submission(file_name, data=data)
    return annotated_copy(submission, validate_submission(file_name, submission).findings)


class CheckUnavailable(Exception):
    """The check could not run (too slow, its process died, the server is busy); the message says so."""


class CheckBusy(CheckUnavailable):
    """Every checking process is busy and the queue is full; ``retry_after``: seconds to wait."""

    def __init__(self, retry_after: int):
        super().__init__(f"the server is checking many sheets right now; try again in {retry_after} seconds")
        self.retry_after = retry_after


# The modules every check needs, imported once by the fork server that each check's process is forked
# from (a check then starts in milliseconds, not the half second of a fresh interpreter).
PRELOAD = ["xlrating.web.checking", "xlrating.systems", "xlrating.sheets.read.submitted", "xlrating.sheets.read.xlsx",
           "xlrating.sheets.validate.ema.sheet", "xlrating.sheets.validate.annotate", "xlrating.core.mers",
           "xlrating.core.dippouch", "xlrating.core.dci", "openpyxl"]


PASSED_ON = ("XLRATING_SYSTEMS",)  # the server's variables a check needs as they are now


def _work(connection: Any, function: Any, args: tuple[Any, ...], environment: dict[str, str]) -> None:
    """A check's process: run it, send back what it gave or raised. ``environment``: the server's
    variables a check reads (the registered systems' modules): the process is forked from the fork
    server, which started before they may have been set."""
    os.environ.update(environment)
    try:
        connection.send(("ok", function(*args)))
    except MemoryError:
        connection.send(("memory", None))
    except BaseException as exc:  # noqa: BLE001 - whatever it raised goes back to the server, which raises it
        try:
            connection.send(("raised", exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled: its words
            connection.send(("raised", RuntimeError(repr(exc))))
    finally:
        connection.close()


class SheetChecker:
    """Runs :func:`check_sheet` and :func:`annotated_sheet`, each check in a process of its own.

    At most ``processes`` checks run at once and at most ``queue`` wait for one to end; more are
    told the server is busy and for how long (:class:`CheckBusy`). A check's ``timeout`` counts from
    the moment its process starts, never from when it was queued; a check that runs out, or whose
    process dies, ends that process alone: no other check is cancelled or slowed."""

    def __init__(self, processes: int = 2, *, timeout: float = 60.0, queue: int = 50):
        self.processes = processes
        self.timeout = timeout
        self.queue = queue
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self._durations: collections.deque[float] = collections.deque([1.0], maxlen=50)
        self._running: set[Any] = set()
        self._lock = threading.Lock()
        methods = multiprocessing.get_all_start_methods()
        self._context: Any = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            self._context.set_forkserver_preload(PRELOAD)

    def _retry_after(self) -> int:
        """Seconds until a place in the queue is likely free: the checks ahead, at the recent pace."""
        typical = sorted(self._durations)[len(self._durations) // 2]
        return max(5, math.ceil(typical * (self._waiting + self.processes) / max(self.processes, 1)))

    async def run(self, function: Any, *args: Any) -> Any:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.processes)
        if self._slots.locked() and self._waiting >= self.queue:
            raise CheckBusy(self._retry_after())
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            return await asyncio.to_thread(self._run, function, args)
        finally:
            self._slots.release()

    def _run(self, function: Any, args: tuple[Any, ...]) -> Any:
        receiver, sender = self._context.Pipe(duplex=False)
        environment = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
        process = self._context.Process(target=_work, args=(sender, function, args, environment), daemon=True)
        started = time.monotonic()
        process.start()
        sender.close()
        with self._lock:
            self._running.add(process)
        try:
            if not receiver.poll(self.timeout):
                raise CheckUnavailable(f"checking the sheet took longer than {self.timeout:g} seconds and was "
                                       f"stopped; a results sheet is checked in a second or two, so this file is "
                                       f"far larger or more complex than one")
            try:
                kind, value = receiver.recv()
            except EOFError:
                raise CheckUnavailable("the checking process stopped while reading this file (it may need more "
                                       "memory than a results sheet does); nothing was stored") from None
        finally:
            if process.is_alive():
                process.kill()
            process.join()
            receiver.close()
            with self._lock:
                self._running.discard(process)
        self._durations.append(time.monotonic() - started)
        if kind == "memory":
            raise CheckUnavailable("reading this file needs more memory than a results sheet does; nothing was "
                                   "stored")
        if kind == "raised":
            raise value
        return value

    def close(self) -> None:
        """Stop every check still running (the server is stopping)."""
        with self._lock:
            running = list(self._running)
        for process in running:
            if process.is_alive():
                process.kill()
