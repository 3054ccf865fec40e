"""Converting many workbooks: inputs (files, folders, globs), output names, isolated workers.

Each workbook is converted by :func:`convert_one`, which never raises: a broken or unsupported
workbook becomes a :class:`Outcome` with a message naming the file (and, from the engine, the
sheet, the cell and why), and the others go on. With several jobs the workbooks are spread over
worker processes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import glob
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xlrating.gate.limits import Limits, describe, env_name

from .evaluate.guard import STOP
from .evaluate.stack import with_deep_stack

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
OUTPUT_SUFFIXES = {".xlsx": "xlsx", ".xlsm": "xlsx", ".csv": "csv", ".json": "json"}

# convert recalculates the user's own workbooks, whose cells may lie anywhere on Excel's sheet: it
# raises the highest row and column to Excel's own, and the cells to what the package limits let a
# workbook hold, the cells its arrays spill into included. The package limits (file, parts, unpacked
# sizes, ratio) are every command's: one set, in the README. An XLRATING_MAX_* variable still wins.
CONVERT_LIMITS = {"max_rows": 1_048_576, "max_columns": 16_384, "max_cells": 2_000_000}


class UsageError(Exception):
    """Inputs or output that cannot work together (exit 2)."""


def convert_limits(environ: dict[str, str] | None = None) -> Limits:
    env = dict(os.environ if environ is None else environ)
    configured = Limits.from_env(env)
    changes = {name: value for name, value in CONVERT_LIMITS.items() if env_name(name) not in env}
    return dataclasses.replace(configured, **changes)


def expand_inputs(patterns: tuple[str, ...] | list[str]) -> list[Path]:
    """Files as given; folders: their .xlsx/.xlsm (recursively); globs: their matches. In order, once each.

    A path that names nothing is kept, so that it fails with "no such file" like any other bad input.
    """
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix.lower() in WORKBOOK_SUFFIXES
                            and p.is_file() and not p.name.startswith("~$"))
        elif not path.exists() and glob.has_magic(pattern):
            found += sorted(Path(p) for p in glob.glob(pattern, recursive=True)
                            if Path(p).is_file() and not Path(p).name.startswith("~$"))
        else:
            found.append(path)
    unique: dict[str, Path] = {}
    for path in found:
        unique.setdefault(os.path.abspath(path), path)
    return list(unique.values())


@dataclass(frozen=True)
class Job:
    """One workbook to convert: where from, where to, in which format, and the moment its TODAY()
    and NOW() see (``now``: None the computer's clock, a wall-clock time, or ``"saved"``, the
    workbook's save time: :mod:`.read.clock`)."""

    source: Path
    target: Path
    fmt: str
    values_only: bool
    now: dt.datetime | str | None = None


def plan(sources: list[Path], out: str, fmt: str | None, values_only: bool,
         now: dt.datetime | str | None = None) -> list[Job]:
    """Where each input goes (see ``xlrating convert --help``), every job with the clock ``now``;
    raises :class:`UsageError`."""
    from . import output_suffix

    if not sources:
        raise UsageError("no workbook matched the inputs")
    out_path = Path(out)
    suffix = out_path.suffix.lower()
    as_file = len(sources) == 1 and suffix in OUTPUT_SUFFIXES and not out_path.is_dir()
    if as_file:
        named = OUTPUT_SUFFIXES[suffix]
        if fmt is not None and fmt != named:
            raise UsageError(f"--format {fmt} does not match the output file name {out_path.name}")
        if suffix == ".xlsm" and values_only:
            raise UsageError("--values-only writes an .xlsx (no macros); name the output .xlsx")
        return [Job(sources[0], out_path, named, values_only, now)]
    if out_path.exists() and not out_path.is_dir():
        raise UsageError(f"{out} is a file; with several inputs -o names a folder")
    chosen = fmt or "xlsx"
    jobs = [Job(s, out_path / (s.stem + output_suffix(s, chosen, values_only)), chosen, values_only, now)
            for s in sources]
    seen: dict[Path, Path] = {}
    for job in jobs:
        if job.target in seen:
            raise UsageError(f"{seen[job.target]} and {job.source} would both be written to {job.target}")
        seen[job.target] = job.source
    return jobs


@dataclass(frozen=True)
class Outcome:
    """How one job went: written files, or the message of its failure; its cell warnings."""

    job: Job
    ok: bool
    message: str
    seconds: float
    written: tuple[Path, ...] = ()
    warnings: tuple[str, ...] = ()  # "Sheet!A1: why" for each cell not computed as Excel would
    notes: tuple[str, ...] = ()  # warnings about the workbook as a whole (no save time for --now saved)


def convert_one(job: Job, limits: Limits | None = None, *, data: bytes | None = None,
                read_as: str | None = None) -> Outcome:
    """Convert one workbook; never raises (the failure is the outcome's message).

    ``data``: the workbook's bytes, read on another computer (:mod:`.cluster`), and ``read_as`` its
    full path there, what ``CELL("filename")`` shows; messages still name ``job.source``."""
    from xlrating.gate.safe_open import UnreadableWorkbook

    from . import ConversionError, convert_file

    start = time.perf_counter()
    warnings: list[str] = []
    notes: list[str] = []
    try:
        if not os.path.isdir(job.target.parent):  # one stat, not a refused mkdir, for a folder made before
            job.target.parent.mkdir(parents=True, exist_ok=True)
        written = convert_file(job.source if read_as is None else read_as, job.target, fmt=job.fmt,
                               values_only=job.values_only, limits=limits, warnings=warnings, now=job.now,
                               notes=notes, data=data)
        return Outcome(job, True, "", time.perf_counter() - start, tuple(written), tuple(warnings), tuple(notes))
    except UnreadableWorkbook as exc:
        message = f"{job.source}: {exc.reason}"
    except ConversionError as exc:
        message = f"{job.source}: {exc}"
    except OSError as exc:
        message = f"{job.source}: cannot write {job.target} ({exc.strerror or exc})"
    except RecursionError:
        message = f"{job.source}: a formula is nested too deeply to evaluate"
    except MemoryError:
        message = (f"{job.source}: ran out of memory converting it to {job.target} (the workbook is within "
                   f"{describe('max_cells', (limits or Limits()).max_cells)} cells; this computer gave less "
                   "memory than they take)")
    except Exception as exc:  # noqa: BLE001 - one workbook's bug must not stop the batch
        message = f"{job.source}: internal error while converting ({type(exc).__name__}: {exc})"
    return Outcome(job, False, message, time.perf_counter() - start)


def run(jobs: list[Job], workers: int, limits: Limits | None = None,
        progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Convert every job, ``workers`` at a time; outcomes in the order of ``jobs``.

    In one process the whole batch runs on one deep-stack thread (:mod:`.evaluate.stack`), not one
    hand-over to it per workbook; interrupted (Ctrl-C), it ends the workbook it is on and stops."""
    outcomes: dict[int, Outcome] = {}

    def take(index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        if progress is not None:
            progress(outcome)

    if workers <= 1 or len(jobs) <= 1:
        _in_turn(jobs, limits, take)
    else:
        _spread(jobs, workers, limits, take)
    return [outcomes[i] for i in range(len(jobs))]


def _in_turn(jobs: list[Job], limits: Limits | None, take: Callable[[int, Outcome], None]) -> None:
    """The jobs one after the other on the deep-stack thread; interrupted, after the one it is on."""
    stop = threading.Event()

    def each() -> None:
        STOP.set(stop)  # Ctrl-C stops the workbook being computed too (:mod:`.evaluate.guard`)
        for index, job in enumerate(jobs):
            if stop.is_set():
                return
            take(index, convert_one(job, limits))

    with_deep_stack(each, stop=stop)


def _convert_many(jobs: list[Job], limits: Limits | None) -> list[Outcome]:
    """A worker's share: its jobs in turn (:func:`_in_turn`)."""
    done: list[Outcome] = []
    _in_turn(jobs, limits, lambda _, outcome: done.append(outcome))
    return done


# A worker's share of a batch: consecutive workbooks of at most this many bytes together, and at
# most CHUNK_JOBS of them (fewer when the batch is short, so that every worker gets several shares
# and none waits long for the last); a larger workbook goes alone. A share costs a hand-over to
# the worker and back, a fraction of a millisecond, which a small workbook would otherwise pay each.
CHUNK_BYTES = 1 << 20
CHUNK_JOBS = 16


def shares(jobs: list[Job], workers: int) -> list[list[int]]:
    """The indices of ``jobs`` in the shares handed to ``workers`` worker processes."""
    most = max(1, min(CHUNK_JOBS, -(-len(jobs) // (workers * 8))))
    groups: list[list[int]] = []
    size = 0
    for index, job in enumerate(jobs):
        try:
            bytes_ = job.source.stat().st_size
        except OSError:
            bytes_ = 0  # its failure is its own outcome
        if not groups or len(groups[-1]) >= most or size + bytes_ > CHUNK_BYTES:
            groups.append([])
            size = 0
        groups[-1].append(index)
        size += bytes_
    return groups


def _spread(jobs: list[Job], workers: int, limits: Limits | None, take: Callable[[int, Outcome], None]) -> None:
    from concurrent.futures import ProcessPoolExecutor, as_completed  # only with several workers

    groups = shares(jobs, workers)
    with ProcessPoolExecutor(max_workers=min(workers, len(groups))) as pool:
        futures = {pool.submit(_convert_many, [jobs[i] for i in group], limits): group for group in groups}
        for future in as_completed(futures):
            group = futures[future]
            try:
                done = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker that died (out of memory, killed)
                done = [Outcome(jobs[index], False, f"{jobs[index].source}: the worker process failed "
                                                    f"({type(exc).__name__}: {exc})", 0.0) for index in group]
            for index, outcome in zip(group, done, strict=True):
                take(index, outcome)
