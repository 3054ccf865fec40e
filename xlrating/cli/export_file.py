"""``xlrating export wdd EVENT -o FILE.csv`` and ``xlrating export ema-workbook [TOURNAMENT]... -o
FILE.xlsx``: stored events in the files a federation takes.

The event is read from the results store as every page reads it (its current version, each player
as the register names them) and written whole or not at all.

Exit status: 0 written (warnings on stderr), 1 a table (``--table``) with errors, 2 no such event, an
unreadable table, an unusable store or bad usage.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import click

from xlrating.cli.common import EXIT_OK, date_option, db_option, fail, resolve_db


@click.group("export")
def export_file() -> None:
    """Write a stored event as the file a federation takes."""


@export_file.command("wdd")
@click.argument("event", metavar="EVENT")
@click.option("-o", "--output", required=True, metavar="FILE.csv", help="The classification file to write.")
@click.option("--date", metavar="YYYY-MM-DD", default=None, callback=date_option,
              help="The event's date, when several events bear the name EVENT.")
@click.option("--table", metavar="TABLE", default=None,
              help="Read the event from this Dip Pouch results table (checked as validate checks it) instead of the store.")
@db_option
def wdd(event: str, output: str, date: dt.date | None, table: str | None, db: str | None) -> None:
    """The World Diplomacy Database's classification upload (CSV) of the Dip Pouch event EVENT: its
    number (as in /dippouch/events/NUMBER) or name in the store, or its name in --table."""
    from xlrating.sheets.formats.wdd import Standing, write_classification

    if Path(output).suffix.lower() != ".csv":
        fail(f"-o {output}: expected a .csv file name (the WDD takes its classification as CSV)")
    if table is not None:
        name, day, standings = _table_event(table, event, date)
    else:
        stored, entries = _stored_event("dippouch", "Dip Pouch event", event, date, db)
        name, day = stored.name, stored.end_date
        standings = [Standing(e.player or "", e.place or 0, e.facts.get("country"), e.facts.get("score"))
                     for e in entries]
    content, warnings = write_classification(standings)
    for warning in warnings:
        click.echo(f"xlrating: warning: {warning}", err=True)
    _write(output, content)
    click.echo(f"{output}: the WDD's classification of {name} ({day.isoformat()}), {len(standings)} players")
    raise SystemExit(EXIT_OK)


def _table_event(table: str, event: str, date: dt.date | None) -> tuple[str, dt.date, list[Any]]:
    """The event named ``event`` of the Dip Pouch results table ``table``, checked as validate checks
    it: exit 1 with its findings when it has errors, 2 when it cannot be read or has no such event."""
    from xlrating.cli.common import EXIT_INVALID, officer_limits
    from xlrating.core.names import fold
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.formats.wdd import Standing
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.report import text_report
    from xlrating.systems import validate_submission

    try:
        validation = validate_submission(table, open_submission(table, officer_limits(table)), system="dippouch")
    except UnreadableWorkbook as exc:
        fail(str(exc))
    if not validation.valid:
        click.echo("\n".join(text_report(table, validation.findings)))
        fail(f"{table} has errors; nothing written", EXIT_INVALID)
    events = validation.submission.events
    found = [e for e in events if fold(e.name) == fold(event) and (date is None or e.date == date)]
    if len(found) != 1:
        listed = "; ".join(f"{e.name} ({e.date.isoformat()})" for e in events[:10])
        fail(f"{table}: {'no' if not found else len(found)} events named {event!r}"
             f"{f' on {date.isoformat()}' if date else ''}; " +
             (f"give --date (the table holds {listed})" if found else f"the table holds {listed}"))
    chosen = found[0]
    details = chosen.details or ((None, None),) * len(chosen.results)
    return chosen.name, chosen.date, [Standing(r.player, r.place, country, score)
                                      for r, (country, score) in zip(chosen.results, details)]


@export_file.command("ema-workbook")
@click.argument("tournaments", nargs=-1, metavar="[TOURNAMENT]...")
@click.option("-o", "--output", required=True, metavar="FILE.xlsx", help="The workbook to write.")
@click.option("--date", metavar="YYYY-MM-DD", default=None, callback=date_option,
              help="The tournament's start or end date, when several stored tournaments bear the name.")
@db_option
def ema_workbook(tournaments: tuple[str, ...], output: str, date: dt.date | None, db: str | None) -> None:
    """An EMA results workbook (one sheet per tournament, the EMA's layout) of the stored MERS
    tournaments TOURNAMENT... (numbers, as in /tournaments/NUMBER, or names; default: every one)."""
    from xlrating.sheets.formats.ema_workbook import Tournament, write_workbook

    if Path(output).suffix.lower() != ".xlsx":
        fail(f"-o {output}: expected a .xlsx file name (the EMA's results workbook)")
    chosen = [_stored_event("mers", "MERS tournament", t, date, db) for t in tournaments] if tournaments else \
        _every_event("mers", db)
    if not chosen:
        fail(f"{resolve_db(db)}: no MERS tournament is stored; ingest EMA results sheets first")
    books = []
    for stored, entries in chosen:
        f = stored.facts
        results = [(e.place, e.player, e.facts.get("last_name"), e.facts.get("first_name"), e.facts.get("country"),
                    e.facts.get("table_points"), e.facts.get("score")) for e in entries]
        books.append(Tournament(stored.name, f["ruleset"], f.get("city"), f.get("country"), stored.start_date,
                                stored.end_date, f.get("days"), stored.players, f["weight"], results))
    _write(output, write_workbook(books))
    click.echo(f"{output}: the EMA's results workbook of {len(books)} tournament{'' if len(books) == 1 else 's'}")
    raise SystemExit(EXIT_OK)


def _every_event(system: str, db: str | None) -> list[tuple[Any, list[Any]]]:
    from xlrating.store import StoreError, open_store

    try:
        with open_store(resolve_db(db), read_only=True) as store:
            events = store.events(system)
            entries = store.entries(events)
            return [(e, entries[e.id]) for e in events]
    except StoreError as exc:
        fail(str(exc))


def _stored_event(system: str, what: str, event: str, date: dt.date | None, db: str | None) -> tuple[Any, list[Any]]:
    """The current version of the stored event named (or numbered) ``event``, and its entries."""
    from xlrating.core.names import fold
    from xlrating.store import StoreError, open_store

    location = resolve_db(db)
    try:
        with open_store(location, read_only=True) as store:
            events = store.events(system)
            if event.isdigit():
                found = [e for e in events if e.number == int(event)]
            else:
                found = [e for e in events if fold(e.name) == fold(event)]
            if date is not None:
                found = [e for e in found if date in (e.start_date, e.end_date)]
            if not found:
                known = "; ".join(f"{e.number}: {e.name} ({e.end_date.isoformat()})" for e in events[-10:])
                fail(f"{location}: no stored {what} {event!r}{f' on {date.isoformat()}' if date else ''}; "
                     f"expected the number or name of one of {len(events)} stored" + (f" ({known})" if known else ""))
            if len(found) > 1:
                dates = ", ".join(e.end_date.isoformat() for e in found)
                fail(f"{location}: {len(found)} stored {what}s are named {event!r} (on {dates}); give --date or "
                     f"the event's number")
            return found[0], store.entries(found)[found[0].id]
    except StoreError as exc:
        fail(str(exc))


def _write(output: str, content: bytes) -> None:
    from xlrating.sheets.formats.produced import write_atomically

    try:
        write_atomically({Path(output): content})
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
