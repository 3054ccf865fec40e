"""Converting a batch on a Dask cluster (``xlrating convert --scheduler ADDRESS``).

This computer, the client, reads each workbook and sends its bytes to the cluster; the worker they
land on converts it there, in a temporary folder of its own, and sends back the bytes of what it
wrote; the client writes them where ``-o`` says, each file under a temporary name in its folder
renamed when whole, so that an output is complete or absent. The workers need neither the client's
files nor a shared file system: only xlrating (the client's version) and ``distributed``.

The outputs are the bytes a local run writes: a worker reads the workbook under the client's full
path (what ``CELL("filename")`` shows, and the name in a JSON output), with the client's limits
(``XLRATING_MAX_*``, the time per workbook among them) and the client's ``--now``; without
``--now``, TODAY() and NOW() read the worker's clock. A workbook that fails is named with its reason
as locally, and the others go on; a worker that dies is one failure per workbook it held, after
Dask has tried it on other workers.

Each worker process converts one workbook at a time, whatever its threads: the engine is Python
under one interpreter lock, and parts of its set-up are the process's. Start workers with
``--nthreads 1`` and as many processes as cores (``dask worker ADDRESS --nworkers N --nthreads 1``).
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlrating.gate.limits import Limits

from .batch import Job, Outcome, convert_one

if TYPE_CHECKING:
    from distributed import Client

# How long the client waits for a first worker to join the scheduler before it gives up.
WAIT_FOR_WORKERS_SECONDS = 60.0


class ClusterError(Exception):
    """The cluster cannot take the batch: it cannot be reached, has no worker, or its workers cannot
    run this xlrating (exit 2)."""


def installed_version() -> str:
    """xlrating's version as installed here ("" when it is run from a source tree, not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("xlrating")
    except PackageNotFoundError:
        return ""


def connect(address: str) -> Client:
    """A client of the Dask scheduler at ``address`` (``tcp://host:8786``); the time it tries to
    connect (``distributed.comm.timeouts.connect``, 30 s), TLS and the like from Dask's own
    configuration. Raises :class:`ClusterError` when the scheduler cannot be reached."""
    from distributed import Client

    try:
        return Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({type(exc).__name__}: {exc})") from None


def check_workers(client: Client, timeout: float = WAIT_FOR_WORKERS_SECONDS) -> None:
    """Wait for a first worker; then every worker must run this xlrating. :class:`ClusterError` if not."""
    address = getattr(client.scheduler, "address", "")
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise ClusterError(f"no worker joined the Dask scheduler at {address} within {timeout:g} s") from None
    mine = installed_version()
    answers: dict[str, Any] = client.run(installed_version, on_error="return")
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise ClusterError(f"the Dask worker {worker} cannot run xlrating ({type(answer).__name__}: {answer}); "
                               f"install xlrating {mine or '(this version)'} there")
        if answer != mine:
            raise ClusterError(f"the Dask worker {worker} has xlrating {answer or '(not installed)'} and this "
                               f"computer {mine or '(not installed)'}: install the same version on both, "
                               f"or the outputs could differ from a local conversion")


@dataclass(frozen=True)
class Converted:
    """What a worker sends back for one workbook: the outcome (``written`` empty: nothing is written
    on the worker) and each output file's name and bytes."""

    outcome: Outcome
    files: tuple[tuple[str, bytes], ...]


_one_at_a_time = threading.Lock()  # one conversion per worker process (see the module's docstring)


def convert_sent(job: Job, read_as: str, data: bytes, limits: Limits | None) -> Converted:
    """On a worker: convert ``data``, the bytes of ``job.source`` (whose full path on the client is
    ``read_as``), as :func:`.batch.convert_one` does, into a temporary folder; what it wrote, read back."""
    with _one_at_a_time, tempfile.TemporaryDirectory(prefix="xlrating-convert-") as folder:
        here = Path(folder) / job.target.name
        outcome = convert_one(dataclasses.replace(job, target=here), limits, data=data, read_as=read_as)
        files = tuple((path.name, path.read_bytes()) for path in outcome.written)
    message = outcome.message.replace(str(here), str(job.target))  # a write that failed names the output
    return Converted(dataclasses.replace(outcome, job=job, message=message, written=()), files)


def write_outputs(folder: Path, files: tuple[tuple[str, bytes], ...]) -> tuple[Path, ...]:
    """The files into ``folder``: each written under a temporary name there, then all renamed to
    their own; on an error none is renamed and the temporary ones are removed."""
    if not os.path.isdir(folder):
        folder.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, content in files:
            temporary = folder / f".{name}.{secrets.token_hex(6)}.part"
            staged.append((temporary, folder / name))
            # 0o666 less the umask, as a local conversion creates its outputs
            with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as stream:
                stream.write(content)
        for temporary, final in staged:
            os.replace(temporary, final)
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    return tuple(final for _, final in staged)


def run_on_cluster(client: Client, jobs: list[Job], limits: Limits | None = None,
                   progress: Callable[[Outcome], None] | None = None, *,
                   wait_for_workers: float = WAIT_FOR_WORKERS_SECONDS) -> list[Outcome]:
    """Convert every job on the cluster of ``client``; outcomes in the order of ``jobs``, as
    :func:`.batch.run` gives them (``progress`` called with each as it ends).

    A few workbooks per worker thread are in flight at a time, so the client holds only those in
    memory. Raises :class:`ClusterError` before converting anything when no worker joins within
    ``wait_for_workers`` seconds or a worker cannot run this xlrating, and when the connection to the
    scheduler is lost (what was done before is written). Interrupted, it cancels what the cluster
    still holds; what was written stays, whole."""
    from distributed import as_completed

    from xlrating.gate.safe_open import UnreadableWorkbook, read_bytes

    limits = limits or Limits()  # as a local conversion: the defaults, not the environment's
    try:
        check_workers(client, wait_for_workers)
    except OSError as exc:
        raise ClusterError(f"lost the Dask scheduler ({type(exc).__name__}: {exc})") from None
    outcomes: dict[int, Outcome] = {}

    def take(index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        if progress is not None:
            progress(outcome)

    waiting = iter(enumerate(jobs))
    held: dict[Any, tuple[int, Any]] = {}  # each task's future: its job's index and its sent bytes' future
    in_flight = max(2, 2 * sum(client.nthreads().values()))
    running = as_completed(loop=client.loop)

    def send_next() -> None:
        for index, job in waiting:
            try:
                data = read_bytes(job.source, limits)
            except UnreadableWorkbook as exc:  # as a local conversion says it
                take(index, Outcome(job, False, f"{job.source}: {exc.reason}", 0.0))
                continue
            [sent] = client.scatter([data], hash=False)
            future = client.submit(convert_sent, job, os.path.abspath(job.source), sent, limits, pure=False)
            held[future] = (index, sent)
            running.add(future)
            return

    try:
        for _ in range(in_flight):
            send_next()
        for future in running:
            index, _ = held.pop(future)  # the cluster forgets the task and its bytes once no future holds them
            take(index, _received(jobs[index], future))
            send_next()
    except OSError as exc:  # the connection to the scheduler (CommClosedError, a timeout) lost
        raise ClusterError(f"lost the Dask scheduler ({type(exc).__name__}: {exc}); {len(outcomes)} of "
                           f"{len(jobs)} workbooks were done, their outputs written") from None
    except BaseException:
        client.cancel(list(held))
        raise
    return [outcomes[i] for i in range(len(jobs))]


def _received(job: Job, future: Any) -> Outcome:
    """The outcome of a task: its outputs written, or why it failed."""
    try:
        converted: Converted = future.result()
    except Exception as exc:  # noqa: BLE001 - a worker that died (out of memory, killed) or lost
        return Outcome(job, False, f"{job.source}: the Dask worker failed ({type(exc).__name__}: {exc})", 0.0)
    outcome = converted.outcome
    if not outcome.ok:
        return outcome
    try:
        written = write_outputs(job.target.parent, converted.files)
    except OSError as exc:
        return dataclasses.replace(outcome, ok=False,
                                   message=f"{job.source}: cannot write {job.target} ({exc.strerror or exc})")
    return dataclasses.replace(outcome, written=written)


__all__ = ["ClusterError", "Converted", "check_workers", "connect", "convert_sent", "installed_version",
           "run_on_cluster", "write_outputs"]
