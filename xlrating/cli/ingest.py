"""``xlrating ingest FILE...``: validate each sheet, then store the valid ones.

Each file is validated first; a file with any error stores nothing. A valid file is stored in one
transaction with its bytes and SHA-256. The same file again changes nothing; a different file for
an already stored tournament is refused unless ``--replace`` (the old version stays in history).
Several files end with one summary line (``6 files: 4 stored, 1 unchanged, 1 rejected``).
Exit status: 0 all stored (or already stored), 1 some file invalid or refused, 2 unreadable file,
unusable store or bad usage.

The files are the ranking officer's own: a CSV table is read with the limits of a federation's
whole history (:func:`~xlrating.cli.common.officer_limits`), not those of a file sent over the web.
A large file shows on stderr, at a terminal, what is being done and how far it has come.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from xlrating.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    db_option,
    fail,
    officer_limits,
    resolve_db,
    system_option,
)
from xlrating.cli.validate import load_registry_option

if TYPE_CHECKING:
    from xlrating.gate.limits import Limits


@click.command("ingest")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@db_option
@click.option("--replace", is_flag=True, help="Replace a tournament already stored from a different file.")
@click.option("--players", metavar="REGISTRY.csv", default=None,
              help="Player registry (ema_id, last_name, first_name or name) to check IDs and names against.")
@system_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (shown on a terminal for files of 1 MB or more).")
@click.option("--ask/--no-ask", "ask", default=None,
              help="Ask, for each new player whose name is close to a known one, whether they are the same "
                   "person, and merge them in the register if so (default: ask at a terminal).")
def ingest(files: tuple[str, ...], db: str | None, replace: bool, players: str | None, system: str | None,
           quiet: bool, ask: bool | None) -> None:
    """Validate EMA results sheets, Dip Pouch results and DCI matches tables and store the valid
    ones (invalid ones store nothing).

    A CSV table may be a federation's whole history: up to 2,000,000 rows and 256 MB
    (XLRATING_MAX_ROWS, XLRATING_MAX_FILE_BYTES and the other XLRATING_MAX_* variables change the
    limits).
    """
    registry = load_registry_option(players)
    outcomes: list[str] = []
    store = None
    try:
        for file in files:
            outcome, store, _ = ingest_one(file, store, resolve_db(db), registry, replace=replace, system=system,
                                           limits=officer_limits(file), steps=Steps.for_file(file, quiet),
                                           ask=sys.stdin.isatty() if ask is None else ask)
            outcomes.append(outcome)
    finally:
        if store is not None:
            store.close()
    if len(files) > 1:
        click.echo(f"{len(files)} files: {ingest_summary(outcomes)}")
    raise SystemExit(max(EXIT_STATUS[outcome] for outcome in outcomes))


# What became of a file, in the order the summary line counts them, with the exit status it gives.
EXIT_STATUS = {"stored": EXIT_OK, "replaced": EXIT_OK, "unchanged": EXIT_OK, "refused": EXIT_INVALID,
               "rejected": EXIT_INVALID, "unreadable": EXIT_UNREADABLE}


def ingest_summary(outcomes: list[str]) -> str:
    """``4 stored, 1 unchanged, 1 rejected``: how many files had each outcome (none left out but
    those no file had; "stored" always shown). "refused": a different file for a tournament
    already stored (needs --replace); "rejected": the sheet has errors."""
    counts = {kind: outcomes.count(kind) for kind in EXIT_STATUS}
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n or kind == "stored")


def ingest_one(file: str, store: Any, location: str, registry: Any, *, replace: bool,
               echo: Any = click.echo, system: str | None = None, limits: Limits | None = None,
               steps: Steps | None = None, ask: bool = False) -> tuple[str, Any, Any]:
    """Validate and store one file; returns what became of it (a key of :data:`EXIT_STATUS`), the
    store (opened on first need) and the validation (None when the file could not be read).
    ``system`` (a registered system's key) says what the file is; None judges it by its columns.
    ``limits``: the file's (default: :meth:`~xlrating.gate.limits.Limits.from_env`, a web upload's);
    ``steps``: where what is being done is shown (default: nowhere). Who the file's players are is
    said after it is stored (:func:`~xlrating.store.identify.identify`); with ``ask``, each new
    player close to a known one is asked about, and merged in the register when they are the same."""
    import hashlib

    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.report import text_report
    from xlrating.store import StoreError, open_store
    from xlrating.store.identify import identify
    from xlrating.systems import SystemUnclear, get, validate_submission

    steps = steps or Steps(file, shown=False)
    try:
        # Read and check the file once; the bytes validated are the bytes stored, unchanged, in
        # whichever format they came (.xlsx, .xlsm, .xls, .ods, .csv).
        with steps.step("reading and checking"):
            submitted = open_submission(file, limits)
            content = submitted.data
            validation = validate_submission(file, submitted, registry, system=system)
    except SystemUnclear as exc:
        click.echo(f"xlrating: error: {exc}, or {exc.choose}", err=True)
        return "unreadable", store, None
    except (UnreadableWorkbook, OSError) as exc:
        click.echo(f"xlrating: error: {exc if isinstance(exc, UnreadableWorkbook) else f'{file}: {exc}'}", err=True)
        return "unreadable", store, None
    if validation.findings:
        echo("\n".join(text_report(file, validation.findings)))
    if not validation.valid:
        errors = sum(f.severity == "error" for f in validation.findings)
        echo(f"{file}: not stored ({errors} error{'s' if errors != 1 else ''}; fix them and ingest again)")
        return "rejected", store, validation
    chosen = get(validation.system)
    try:
        with steps.step("storing") as advance:
            if store is None:
                store = open_store(location)
            submission = chosen.submission(validation.submission, hashlib.sha256(content).hexdigest())
            found = identify(store, submission)
            outcome = store.ingest(Path(file).name, content, submission, replace=replace, progress=advance)
    except StoreError as exc:
        fail(str(exc))
    message = outcome.message + (f"; {chosen.replace_hint}" if outcome.replaceable else "")
    if outcome.status in ("stored", "replaced"):  # who the players are: the count on the same line, then any doubt
        count, *doubts = found.lines(chosen.key)
        echo("\n".join(f"{file}: {line}" for line in (f"{message}; {count}", *doubts)))
    else:
        echo(f"{file}: {message}")
    if outcome.status in ("stored", "replaced") and ask:
        _ask_about(store, chosen.key, found, file, echo)
    return outcome.status, store, validation


def _ask_about(store: Any, system: str, found: Any, file: str, echo: Any) -> None:
    """Ask whether each new player close to a known one is that player; merge them if so."""
    from xlrating.cli.players import current_user
    from xlrating.store.register import RegisterError

    asked: set[str] = set()
    for close in found.close:
        if close.key in asked:
            continue
        if click.confirm(f"Is the new {close.named()} the known {close.known_named()}?", default=False, err=True):
            asked.add(close.key)
            try:
                change = store.merge(system, close.key, close.known, by=current_user(),
                                     why=f"the same person, confirmed at the ingest of {Path(file).name}")
            except RegisterError as exc:
                echo(f"{file}: not merged: {exc}")
                continue
            echo(f"{file}: change {change.id}: {change.describe()}")


LARGE_FILE_BYTES = 1_000_000  # a file that takes a second or more: its steps are shown


class Steps:
    """What the ingest of one file is doing, shown on stderr while it does it: the step, the time it
    has taken and, once the count is known, a bar of the events stored. Shown only to a person at a
    terminal (never in a log or a pipe), and only for a large file (a small one is done before a bar
    could be read); nothing is left on the screen when the step ends."""

    def __init__(self, file: str, *, shown: bool):
        self.name, self.shown = Path(file).name, shown

    @classmethod
    def for_file(cls, file: str, quiet: bool) -> Steps:
        try:
            large = Path(file).stat().st_size >= LARGE_FILE_BYTES
        except OSError:  # reading it will say what is wrong
            large = False
        return cls(file, shown=large and not quiet and sys.stderr.isatty())

    @contextmanager
    def step(self, what: str) -> Iterator[Callable[[int, int], None]]:
        """Show ``what`` until the block ends; the block may call what it is given with ``(done,
        total)`` as it goes (the bar then counts events)."""
        if not self.shown:
            yield _nothing
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        columns = (SpinnerColumn(), TextColumn(f"{self.name}: {what}"), BarColumn(), TextColumn("{task.fields[count]}"),
                   TimeElapsedColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(what, total=None, count="")

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total, count=f"{done:,} of {total:,} events")

            yield advance


def _nothing(done: int, total: int) -> None:
    pass
