"""``xlrating export wdd EVENT -o FILE.csv``: a stored event in the file a federation takes.

The event is read from the results store as every page reads it (its current version, each player
as the register names them) and written whole or not at all.

Exit status: 0 written (warnings on stderr), 2 no such event, an unusable store or bad usage.
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
              help="The event's date, when several stored events bear the name EVENT.")
@db_option
def wdd(event: str, output: str, date: dt.date | None, db: str | None) -> None:
    """The World Diplomacy Database's classification upload (CSV) of the stored Dip Pouch event
    EVENT: its number (as in /dippouch/events/NUMBER) or its name."""
    from xlrating.sheets.formats.wdd import Standing, write_classification

    if Path(output).suffix.lower() != ".csv":
        fail(f"-o {output}: expected a .csv file name (the WDD takes its classification as CSV)")
    stored, entries = _stored_event("dippouch", "Dip Pouch event", event, date, db)
    standings = [Standing(e.player or "", e.place or 0, e.facts.get("country"), e.facts.get("score")) for e in entries]
    content, warnings = write_classification(standings)
    for warning in warnings:
        click.echo(f"xlrating: warning: {warning}", err=True)
    _write(output, content)
    click.echo(f"{output}: the WDD's classification of {stored.name} ({stored.end_date.isoformat()}), "
               f"{len(standings)} players")
    raise SystemExit(EXIT_OK)


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
