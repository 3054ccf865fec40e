"""``xlrating convert FILE... -o OUT``: recalculate workbooks headlessly, xlrating functions included.

Exit status: 0 every workbook converted (warnings allowed), 1 some failed (each named with the
sheet, cell and why; the others are still written) or, with ``--strict``, some cell was not
computed, 2 bad usage.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, fail

if TYPE_CHECKING:
    from xlrating.engine.batch import Job, Outcome
    from xlrating.gate.limits import Limits


@click.command("convert")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("-o", "--output", "out", required=True, metavar="OUT",
              help="A folder (created if needed) where each output keeps its input's name; with one input, "
                   "a file name whose extension (.xlsx, .xlsm, .csv, .json) names the format.")
@click.option("--format", "fmt", type=click.Choice(["xlsx", "csv", "json"]), default=None,
              help="xlsx (default): the workbook with formulas kept and fresh values (an .xlsm keeps its macros); "
                   "csv: one file per sheet (BOOK.SHEET.csv when there are several); json: one document with "
                   "every sheet.")
@click.option("--values-only", is_flag=True, help="Write an .xlsx with the values in place of the formulas.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Workbooks converted in parallel (worker processes).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Convert on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786): this computer "
                   "reads the workbooks and sends them to the workers, and writes what they send back under "
                   "-o. Needs the cluster extra (pip install 'xlrating[cluster]') here and on the workers.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar; only failures, warnings and the summary.")
@click.option("--strict", is_flag=True,
              help="Exit 1 when any cell was not computed as Excel would (the warnings, a whole workbook's too), "
                   "not only on failures.")
@click.option("--now", "now_text", default=None, metavar="DATE[THH:MM[:SS]]|saved",
              help="The moment TODAY() and NOW() see (default: the computer's clock): a date and time "
                   "(2026-07-23, 2026-07-23T14:30), or saved: each workbook's own save time (docProps/core.xml "
                   "dcterms:modified, UTC), to compute them as Excel did when it saved the workbook.")
def convert(files: tuple[str, ...], out: str, fmt: str | None, values_only: bool, jobs: int,
            scheduler: str | None, quiet: bool, strict: bool, now_text: str | None) -> None:
    """Recalculate workbooks without Excel: FILE is a workbook, a folder of workbooks or a glob.

    Formulas may use xlrating's functions under any name Excel stores them as (DIPPOUCH_VALUE,
    _xldudf_DIPPOUCH_VALUE, _xll.DIPPOUCH_VALUE, xlrating.DIPPOUCH_VALUE). Array results spill
    down and right from their cell and are written as array formulas. A cell the engine cannot
    compute as Excel would is named in a warning and left without a value (Excel and LibreOffice
    compute it on open); the rest of the workbook is converted. XLRATING_MAX_SECONDS (default
    600) limits the time per workbook. With --now saved, a workbook that records no save time uses
    the computer's clock, with a warning naming it.
    """
    # numpy's OpenBLAS starts a pool of threads when numpy is imported, which then spin waiting for
    # matrix work the engine (column arithmetic, comparisons) does not give them: ~80 ms of CPU in
    # every conversion on two cores, and more threads than cores with --jobs. A value set by the
    # user is kept. Set before the engine imports numpy.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from xlrating.engine.batch import UsageError, convert_limits, expand_inputs, plan, run
    from xlrating.engine.read.clock import parse_now

    if values_only and fmt in ("csv", "json"):
        fail("--values-only applies to .xlsx output; csv and json hold values only anyway")
    try:
        now = None if now_text is None else parse_now(now_text)
    except ValueError as exc:
        fail(f"--now: {exc}")
    try:
        limits = convert_limits()
        work = plan(expand_inputs(files), out, fmt, values_only, now)
    except (UsageError, ValueError) as exc:
        fail(str(exc))

    if scheduler is not None:
        run = _on_cluster(scheduler, jobs)

    start = time.perf_counter()
    outcomes = _run_with_progress(work, jobs, limits, quiet, run)
    failed = [o for o in outcomes if not o.ok]
    for outcome in failed:
        click.echo(f"failed: {outcome.message}", err=True)
    noted = [o for o in outcomes if o.notes]
    for outcome in noted:
        for line in outcome.notes:
            click.echo(f"warning: {outcome.job.source}: {line}", err=True)
    warned = [o for o in outcomes if o.warnings]
    for outcome in warned:
        for line in outcome.warnings[:MAX_WARNINGS_SHOWN]:
            click.echo(f"warning: {outcome.job.source}: {line}", err=True)
        if len(outcome.warnings) > MAX_WARNINGS_SHOWN:
            click.echo(f"warning: {outcome.job.source}: ... and {len(outcome.warnings) - MAX_WARNINGS_SHOWN} more",
                       err=True)
    elapsed = time.perf_counter() - start
    done = len(outcomes) - len(failed)
    summary = f"converted {done} of {len(outcomes)} workbook{'s' if len(outcomes) != 1 else ''} in {elapsed:.2f} s"
    if failed:
        summary += f"; {len(failed)} failed"
    if warned:
        cells = sum(len(o.warnings) for o in warned)
        summary += (f"; {cells} warning{'s' if cells != 1 else ''} in {len(warned)} workbook"
                    f"{'s' if len(warned) != 1 else ''} (cells left for Excel to compute on open)")
    if noted:
        summary += f"; {len(noted)} workbook{'s' if len(noted) != 1 else ''} with a warning about the whole workbook"
    click.echo(summary, err=True)
    sys.exit(EXIT_INVALID if failed or (strict and (warned or noted)) else EXIT_OK)


MAX_WARNINGS_SHOWN = 20


def _on_cluster(address: str, jobs: int) -> Callable[..., list[Outcome]]:
    """``run`` on the Dask cluster at ``address`` (:mod:`xlrating.engine.cluster`), connected for
    the batch and closed after it; exit 2 when the cluster cannot be used."""
    if jobs != 1:
        fail("--jobs counts this computer's processes; with --scheduler the cluster's workers convert "
             "the workbooks (start them with --nthreads 1, one process per core)")
    try:
        import distributed  # noqa: F401 - an optional dependency, asked for only here
    except ImportError:
        fail("--scheduler needs Dask's distributed package, which is not installed: "
             "pip install 'xlrating[cluster]' (on this computer and on the workers)")
    from xlrating.engine.cluster import ClusterError, connect, run_on_cluster

    def run(work: list[Job], _jobs: int, limits: Limits,
            progress: Callable[[Outcome], None] | None = None) -> list[Outcome]:
        try:
            client = connect(address)
        except ClusterError as exc:
            fail(f"--scheduler: {exc}")
        try:
            return run_on_cluster(client, work, limits, progress)
        except ClusterError as exc:
            fail(f"--scheduler: {exc}")
        finally:
            client.close()

    return run


def _run_with_progress(work: list[Job], jobs: int, limits: Limits, quiet: bool,
                       run: Callable[..., list[Outcome]]) -> list[Outcome]:
    if quiet or len(work) < 2 or not sys.stderr.isatty():  # a bar is for a person at a terminal, not a log
        return run(work, jobs, limits)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("converting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[last]}"))
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("convert", total=len(work), last="")
        return run(work, jobs, limits, lambda outcome: bar.update(task, advance=1, last=outcome.job.source.name))
