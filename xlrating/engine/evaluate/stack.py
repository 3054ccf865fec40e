"""Room for deep formulas: the evaluation runs on a thread of its own with a large stack.

Formulas within Excel's own limits can still be deep for Python: ``=1+1+...+1`` of 8,192 characters
is a tree 4,096 operators deep, ``((((1))))`` nests 4,000 parentheses, and a recursive LAMBDA
(:mod:`.lambdas`) goes through several Python calls per call of the LAMBDA. Python's default
recursion limit (1,000 frames) stops those with a ``RecursionError``, and the main thread's stack
(8 MiB on Linux) is too small to raise it far: deep enough, the process would crash. So
:func:`with_deep_stack` runs the evaluation on a thread whose stack is :data:`STACK_BYTES`
(address space, taken as it is used) with the recursion limit raised to :data:`RECURSION_LIMIT`
for as long as it runs. A formula deeper still ends in a ``RecursionError`` for its own cell, never
in a crash. The thread runs in a copy of the caller's context (the date system, the character set
and the like are :mod:`contextvars`).
"""

from __future__ import annotations

import contextvars
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 100_000

_lock = threading.Lock()
_running = 0  # evaluations on deep stacks now (the recursion limit is the process's, shared)
_saved_limit = 0


def _enter() -> None:
    global _running, _saved_limit
    with _lock:
        if _running == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _running += 1


def _leave() -> None:
    global _running
    with _lock:
        _running -= 1
        if _running == 0:
            sys.setrecursionlimit(_saved_limit)


def with_deep_stack(function: Callable[..., T], *args: Any, stop: threading.Event | None = None) -> T:
    """``function(*args)`` computed on a thread with a :data:`STACK_BYTES` stack and the recursion
    limit raised to :data:`RECURSION_LIMIT`; what it returns, or the exception it raised. Called
    on such a thread already (a batch that runs whole on one), it is ``function(*args)``.

    The thread is kept for the next evaluation (a batch of small workbooks would otherwise start
    one per workbook, a fifth of a millisecond each); while it is busy (evaluations from several
    threads at once), another starts for the call and ends with it.

    ``stop``: for a long ``function`` that looks at it between its steps. Interrupted while it
    waits (Ctrl-C), the caller sets ``stop``, waits for ``function`` to end its step, and raises
    the interruption: nothing is left half-done behind it."""
    if getattr(_here, "deep", False):
        return function(*args)
    context = contextvars.copy_context()
    outcome: dict[str, Any] = {}

    def body() -> None:
        _here.deep = True
        try:
            outcome["value"] = context.run(function, *args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as it is
            outcome["error"] = exc
        finally:
            _here.deep = False

    _enter()
    try:
        if _kept.idle.acquire(blocking=False):
            try:
                _kept.run(body, stop)
            finally:
                _kept.idle.release()
        else:
            _wait(_start(body).join, stop)
    finally:
        _leave()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


def _wait(wait: Callable[[], Any], stop: threading.Event | None) -> None:
    """``wait()`` for a body; interrupted, with ``stop`` given: set it, wait again, then raise."""
    try:
        wait()
    except BaseException:
        if stop is None:
            raise
        stop.set()
        wait()
        raise


# Signals a user or a service sends to stop or steer the process. The deep-stack thread (and the
# threads it starts) block them, so the kernel hands them to the waiting main thread, whose wait
# they interrupt: delivered to this thread instead, Python would act on them only once the body
# ended (Ctrl-C honoured after the whole batch).
STEERING = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGALRM", "SIGUSR1",
                                                "SIGUSR2") if hasattr(signal, name)}


def _start(target: Callable[[], None]) -> threading.Thread:
    def steered_elsewhere() -> None:
        if hasattr(signal, "pthread_sigmask"):  # POSIX
            signal.pthread_sigmask(signal.SIG_BLOCK, STEERING)
        target()

    with _lock:  # threading.stack_size is the process's: set only while this thread starts
        previous = threading.stack_size(STACK_BYTES)
        try:
            thread = threading.Thread(target=steered_elsewhere, name="xlrating-evaluate", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


class _KeptThread:
    """One deep-stack thread that runs one body at a time, started when first needed (again in a
    process forked from one that had it: the fork has no such thread)."""

    def __init__(self) -> None:
        self.idle = threading.Lock()  # held by the caller whose body runs
        self._tasks: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._finished = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def run(self, body: Callable[[], None], stop: threading.Event | None = None) -> None:
        if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
            self._tasks, self._finished = queue.SimpleQueue(), threading.Event()
            self._thread, self._pid = _start(self._serve), os.getpid()
        self._finished.clear()
        self._tasks.put(body)
        try:
            _wait(self._finished.wait, stop)
        except BaseException:
            if not self._finished.is_set():  # the body goes on: the next call gets a thread of its own
                self._thread = None
            raise

    def _serve(self) -> None:
        tasks, finished = self._tasks, self._finished
        while True:
            tasks.get()()
            finished.set()


_kept = _KeptThread()
_here = threading.local()  # .deep: this thread runs a body on a deep stack


__all__ = ["RECURSION_LIMIT", "STACK_BYTES", "STEERING", "with_deep_stack"]
