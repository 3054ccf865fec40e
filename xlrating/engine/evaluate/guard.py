"""The time limit and Ctrl-C, held inside a formula's evaluation, not only between cells.

A single formula can run for hours (``=SUM(MAKEARRAY(4000,4000,LAMBDA(r,c,r)))`` calls its LAMBDA
16 million times; an operator over two large arrays runs a Python function per element inside
``formulas``), so a check between cells comes too late. While a workbook is computed, a watchdog
thread keeps its deadline and the batch's stop event (set on Ctrl-C, :mod:`..batch`); when either
comes, it raises :class:`Stopped` in the evaluating thread at its next Python instruction,
wherever that is: in our functions, in ``formulas``, in a LAMBDA's loop. :class:`Stopped` is a
``BaseException``, so no ``except Exception`` of a cell takes it for that cell's error; were some
code to swallow it all the same, it is raised again every :data:`AGAIN` seconds until the
evaluation ends. Loops of our own also call :func:`check` every so many elements, which costs a
clock reading.

What the watchdog cannot interrupt is one call of native code (a numpy operation): the array caps
(:mod:`..functions.dynamic_arrays`) keep each of those small enough to end in a fraction of a second.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from contextvars import ContextVar
from types import TracebackType

from .stack import STEERING

# The stop event of the batch the current workbook belongs to (None: nothing but the time limit)
STOP: ContextVar[threading.Event | None] = ContextVar("xlrating_stop", default=None)
# The cell whose formula is being read (compiling one may compute it), for the messages
WHERE: ContextVar[str] = ContextVar("xlrating_where", default="")

AGAIN = 1.0  # seconds between one raise of Stopped and the next, while the evaluation goes on
_POLL = 0.05  # seconds between two looks at the stop events (only while a workbook is watched)


class Stopped(BaseException):
    """Raised in the evaluating thread when its time is up (``why`` "time") or the batch was
    interrupted (``why`` "interrupted")."""

    def __init__(self, why: str = "time"):
        super().__init__(why)
        self.why = why


class _Interrupted(Stopped):
    def __init__(self) -> None:
        super().__init__("interrupted")


class _Watch:
    __slots__ = ("deadline", "fired", "stop", "thread")

    def __init__(self, deadline: float, stop: threading.Event | None):
        self.thread = threading.get_ident()
        self.deadline = deadline
        self.stop = stop
        self.fired = 0.0  # when Stopped was last raised in the thread (0: never)

    def due(self, now: float) -> type[Stopped] | None:
        if self.stop is not None and self.stop.is_set():
            return _Interrupted
        return Stopped if now >= self.deadline else None


_lock = threading.Condition()
_watches: set[_Watch] = set()
_server: threading.Thread | None = None
_server_pid = 0


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` at its next instruction (None: forget one not raised yet)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread),
                                               ctypes.py_object(exception) if exception is not None else None)


def _serve() -> None:
    if hasattr(signal, "pthread_sigmask"):  # Ctrl-C goes to the main thread, which waits for it (see .stack)
        signal.pthread_sigmask(signal.SIG_BLOCK, STEERING)
    while True:
        with _lock:
            while not _watches:
                _lock.wait()
            now = time.monotonic()
            for watch in _watches:
                exception = watch.due(now)
                if exception is not None and now - watch.fired >= AGAIN:
                    watch.fired = now
                    _raise_in(watch.thread, exception)
            soonest = min(watch.deadline for watch in _watches) - now
            _lock.wait(max(0.001, min(_POLL, soonest)))


class watched:
    """``with watched(deadline):`` the block runs under the watchdog: past ``deadline``
    (``time.monotonic()``), or once the batch's :data:`STOP` is set, :class:`Stopped` is raised in
    it. Leaving the block ends the watch, and an exception raised but not yet delivered is forgotten."""

    def __init__(self, deadline: float):
        self._watch = _Watch(deadline, STOP.get())

    def __enter__(self) -> watched:
        global _server, _server_pid
        with _lock:
            if _server is None or _server_pid != os.getpid() or not _server.is_alive():
                _server, _server_pid = threading.Thread(target=_serve, name="xlrating-watchdog", daemon=True), \
                    os.getpid()
                _server.start()
            _watches.add(self._watch)
            _lock.notify()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        while True:
            try:
                with _lock:
                    _watches.discard(self._watch)
                    if self._watch.fired:
                        _raise_in(self._watch.thread, None)
                return
            except Stopped:  # delivered while ending the watch: it is ending anyway
                continue


def check(deadline: float) -> None:
    """Raise :class:`Stopped` if ``deadline`` has passed or the batch is stopping: for loops of our
    own, every so many elements, so that they end at once even without the watchdog's help."""
    if time.monotonic() >= deadline:
        raise Stopped("time")
    stop = STOP.get()
    if stop is not None and stop.is_set():
        raise _Interrupted()


__all__ = ["STOP", "WHERE", "Stopped", "check", "watched"]
