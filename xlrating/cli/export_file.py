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
              help="The tournament's start or end date, when several tournaments bear the name.")
@click.option("--table", metavar="TABLE", default=None,
              help="Read the tournaments from this MERS results table (checked first; the players' names from the "
                   "store) instead of the store.")
@click.option("--sheet", default=None, help="The worksheet of TABLE holding the table (default: the first).")
@db_option
def ema_workbook(tournaments: tuple[str, ...], output: str, date: dt.date | None, table: str | None,
                 sheet: str | None, db: str | None) -> None:
    """An EMA results workbook (one sheet per tournament, the EMA's layout) of the MERS tournaments
    TOURNAMENT... (numbers, as in /tournaments/NUMBER, or names; default: every one) of the store,
    or (--table) of a MERS results table, each player named as the store names them."""
    from xlrating.sheets.formats.ema_workbook import Tournament, write_workbook

    if Path(output).suffix.lower() != ".xlsx":
        fail(f"-o {output}: expected a .xlsx file name (the EMA's results workbook)")
    if sheet is not None and table is None:
        fail("--sheet: names a worksheet of --table TABLE, and no --table is given")
    if table is not None:
        books = _table_tournaments(table, sheet, tournaments, date, db)
    else:
        chosen = [_stored_event("mers", "MERS tournament", t, date, db) for t in tournaments] if tournaments else \
            _every_event("mers", db)
        if not chosen:
            fail(f"{resolve_db(db)}: no MERS tournament is stored; ingest EMA results sheets first")
        books = []
        for stored, entries in chosen:
            f = stored.facts
            results = [(e.place, e.player, e.facts.get("last_name"), e.facts.get("first_name"),
                        e.facts.get("country"), e.facts.get("table_points"), e.facts.get("score")) for e in entries]
            books.append(Tournament(stored.name, f["ruleset"], f.get("city"), f.get("country"), stored.start_date,
                                    stored.end_date, f.get("days"), stored.players, f["weight"], results))
    content = write_workbook(books)
    if table is not None:
        _reads_back(output, content)
    _write(output, content)
    click.echo(f"{output}: the EMA's results workbook of {len(books)} tournament{'' if len(books) == 1 else 's'}")
    raise SystemExit(EXIT_OK)


def _table_tournaments(table: str, sheet: str | None, wanted: tuple[str, ...], date: dt.date | None,
                       db: str | None) -> list[Any]:
    """The tournaments of the MERS results table ``table`` as the EMA's workbook writes them, checked
    first: exit 1 with every finding (a cell the table cannot be read at, a tournament whose rows
    disagree, what the workbook cannot hold, a player the store does not name), nothing written;
    2 when the table or the store cannot be read or no tournament is named so."""
    from xlrating.cli.common import EXIT_INVALID
    from xlrating.cli.rank import _another_file
    from xlrating.core.errors import RatingError, TableError
    from xlrating.core.names import fold
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.formats.ema_workbook import Tournament
    from xlrating.sheets.read.table_files import read_table_file
    from xlrating.store import StoreError, open_store
    from xlrating.systems import get

    system = get("mers")
    try:
        source = read_table_file(table, sheet=sheet)
    except UnreadableWorkbook as exc:
        fail(str(exc))

    def refuse(findings: list[str]) -> None:
        for finding in findings:
            click.echo(f"{source.name}: error: {finding}")
        fail(f"{table} has {len(findings)} error{'' if len(findings) == 1 else 's'}; nothing written", EXIT_INVALID)

    try:
        records = system.records_from_table(source.rows, source.header_row)
    except TableError as exc:
        other = _another_file(system, source, table, db)
        if other is not None:
            fail(other)
        refuse([str(exc)])
    except RatingError as exc:
        refuse([str(exc)])
    groups: dict[tuple[str, dt.date], list[Any]] = {}
    for r in records:
        groups.setdefault((r.tournament, r.date), []).append(r)
    if wanted:
        chosen = {}
        for name in wanted:
            found = [k for k in groups if fold(k[0]) == fold(name) and (date is None or k[1] == date)]
            if len(found) != 1:
                listed = "; ".join(f"{n} ({d.isoformat()})" for n, d in list(groups)[:10])
                fail(f"{source.name}: {'no' if not found else len(found)} tournaments named {name!r}"
                     f"{f' on {date.isoformat()}' if date else ''}; "
                     + (f"give --date (the table holds {listed})" if found else f"the table holds {listed}"))
            chosen[found[0]] = groups[found[0]]
        groups = chosen
    findings: list[str] = []
    for (name, _), rows in groups.items():
        first = rows[0]
        for r in rows[1:]:
            for column in ("players", "weight", "ruleset"):
                if getattr(r, column) != getattr(first, column):
                    findings.append(str(TableError(r.row, column, f"the {column} of {name} as row {first.row} gives it "
                                                                 f"({getattr(first, column)!r})", getattr(r, column))))
        for r in rows:
            if r.base_rank is not None:
                findings.append(str(TableError(r.row, "base_rank", "a place: the EMA's workbook holds each player's "
                                               "position, not a base rank", r.base_rank)))
            if r.effective_date is not None:
                findings.append(str(TableError(r.row, "effective_date", "no effective date: the EMA's workbook has "
                                               "none, and the date would change the tournament's age factor",
                                               r.effective_date.isoformat())))
        if len(rows) != first.players:
            findings.append(str(TableError(first.row, "players", f"a row per player of {name} (the EMA's workbook has "
                                           f"one: {len(rows)} rows)", first.players)))
    location = resolve_db(db)
    try:
        with open_store(location, read_only=True) as store:
            known = store.players("mers")
    except StoreError as exc:
        fail(f"{exc} (the players' names come from the store: the EMA's workbook names every player)")
    for rows in groups.values():
        for r in rows:
            if r.player is None:
                findings.append(str(TableError(r.row, "player", "an EMA ID: the EMA's workbook names every player, and "
                                               "a results table names nobody (export the tournament from the store, "
                                               "whose sheet named them)")))
            elif r.player not in known or not known[r.player].facts.get("last_name"):
                findings.append(str(TableError(r.row, "player", f"a player {location} names (the EMA's workbook names "
                                               "every player; ingest a sheet of theirs first)", r.player)))
    if findings:
        refuse(findings)
    books = []
    for (name, day), rows in groups.items():
        first = rows[0]
        results = [(r.place, r.player, known[r.player].facts.get("last_name"),
                    known[r.player].facts.get("first_name"), known[r.player].facts.get("country"), None, None)
                   for r in sorted(rows, key=lambda r: (r.place, r.row or 0)) if r.player is not None]
        books.append(Tournament(name, first.ruleset, None, None, day, day, None, first.players, first.weight,
                                results))
    return books


def _reads_back(output: str, content: bytes) -> None:
    """The workbook made from a table, read as xlrating import ema-workbook reads it and checked by
    the EMA validator: exit 1 with its errors (at the workbook's cells), nothing written."""
    from xlrating.cli.common import EXIT_INVALID
    from xlrating.cli.import_file import _validated
    from xlrating.gate.limits import Limits
    from xlrating.sheets.formats.ema_workbook import read
    from xlrating.sheets.formats.findings import Findings, report
    from xlrating.sheets.formats.options import ImportOptions

    out = Findings()
    made = read(output, content, ImportOptions(), out, Limits.for_history())
    for sheet in made if not out.errors else []:
        out.extend(_validated(sheet))
    if out.errors:
        click.echo("\n".join(report(output, [f for f in out.sorted() if f.severity == "error"])))
        fail(f"{output}: the workbook made would not read back as EMA results sheets; nothing written", EXIT_INVALID)


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
