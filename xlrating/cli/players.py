"""``xlrating players ...``: the register of players, kept by the ranking officer.

Each change (merge, split, country, homonym, undo) is logged with who made it (``--by``, default
``$XLRATING_OFFICER_USER`` or the account's name), when and why (``--why``, required), and every
ranking and page is computed again from the register (:mod:`xlrating.store.register`). A player is
named as the results name them: an EMA ID for MERS, a name for Dip Pouch and DCI.
"""

from __future__ import annotations

import datetime as dt
import getpass
import json
import os
from typing import Any

import click

from xlrating.cli.common import EXIT_INVALID, SystemChoice, date_option, db_option, fail, resolve_db


def current_user() -> str:
    """Who makes a change when --by does not say: $XLRATING_OFFICER_USER, else the account's name."""
    try:
        return os.environ.get("XLRATING_OFFICER_USER") or getpass.getuser()
    except (KeyError, OSError):
        return "officer"


def _store(db: str | None, *, write: bool) -> Any:
    from xlrating.store import StoreError, open_store

    try:
        return open_store(resolve_db(db), read_only=not write)
    except StoreError as exc:
        fail(str(exc))


def _change(run: Any) -> None:
    from xlrating.store.register import RegisterError

    try:
        change = run()
    except RegisterError as exc:
        fail(str(exc), EXIT_INVALID)
    click.echo(f"change {change.id}: {change.describe()} (by {change.by}: {change.why})")


def by_option(function: Any) -> Any:
    return click.option("--by", "by", default=None, metavar="NAME",
                        help="Who makes the change (default: $XLRATING_OFFICER_USER or the account's name).")(function)


def why_option(function: Any) -> Any:
    return click.option("--why", "why", required=True, metavar="TEXT", help="Why: kept in the log.")(function)


@click.group("players")
def players() -> None:
    """The register of players: merge two names of one person, split one name's results between
    two people, a country from a date, names borne by several people; every change logged and
    undoable, every ranking computed again from it."""


@players.command("list")
@click.argument("system", type=SystemChoice())
@db_option
@click.option("--find", "find", default=None, metavar="TEXT", help="Only the players whose name holds these words.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def list_players(system: str, db: str | None, find: str | None, fmt: str) -> None:
    """The players the store knows (as the register says who they are), with the names merged into each."""
    from xlrating.core.names import fold, has_words

    with _store(db, write=False) as store:
        known = sorted(store.known_players(system), key=lambda p: (fold(p), p))
        identities = store.identities(system)
    words = fold(find).split() if find else []
    rows = [{"player": p, "merged": sorted(a for a in identities.aliases if identities.resolve(a) == p)}
            for p in known if not words or has_words(words, p)]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    for row in rows:
        click.echo(row["player"] + (f" (also {', '.join(row['merged'])})" if row["merged"] else ""))
    click.echo(f"{len(rows)} player{'s' if len(rows) != 1 else ''}")


@players.command("log")
@click.argument("system", type=SystemChoice())
@db_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def log(system: str, db: str | None, fmt: str) -> None:
    """Every change of the system's register: when, by whom, what and why; undone ones marked."""
    with _store(db, write=False) as store:
        changes = store.register_log(system)
    if fmt == "json":
        click.echo(json.dumps([{"id": c.id, "at": c.at, "by": c.by, "action": c.action, "details": c.details,
                                "why": c.why, "undoes": c.undoes, "undone_by": c.undone_by} for c in changes],
                              ensure_ascii=False, indent=1))
        return
    for c in changes:
        undone = f" [undone by change {c.undone_by}]" if c.undone_by else ""
        click.echo(f"{c.id}  {c.at}  {c.by}: {c.describe()}{undone} -- {c.why}")
    if not changes:
        click.echo(f"the {system} register has no change yet")


@players.command("merge")
@click.argument("system", type=SystemChoice())
@click.argument("player")
@click.argument("into")
@db_option
@by_option
@why_option
def merge(system: str, player: str, into: str, db: str | None, by: str | None, why: str) -> None:
    """PLAYER is INTO: every result of PLAYER counts as INTO's (a second name or ID of one person)."""
    with _store(db, write=True) as store:
        _change(lambda: store.merge(system, player, into, by=by or current_user(), why=why))


@players.command("split")
@click.argument("system", type=SystemChoice())
@click.argument("player")
@click.argument("new_player")
@click.option("--event", "events", multiple=True, required=True, type=click.IntRange(1), metavar="NUMBER",
              help="An event (its number, as in its page's address) whose results of PLAYER are NEW_PLAYER's; "
                   "repeat for several.")
@db_option
@by_option
@why_option
def split(system: str, player: str, new_player: str, events: tuple[int, ...], db: str | None, by: str | None,
          why: str) -> None:
    """The results of PLAYER at the events given are NEW_PLAYER's (a substitute, or another person
    of the same name)."""
    from xlrating.systems import get

    chosen = get(system)
    with _store(db, write=True) as store:
        keys = []
        for number in events:
            event = store.event(system, number)
            if event is None or not event.current:
                fail(f"--event {number}: no current {chosen.title} event has that number "
                     f"(see {chosen.event_address(1).rsplit('/', 1)[0]} on the site)", EXIT_INVALID)
            keys.append((event.key, f"{event.name} ({chosen.event_detail(event)})"))
        _change(lambda: store.split(system, player, new_player, keys, by=by or current_user(), why=why))


@players.command("country")
@click.argument("system", type=SystemChoice())
@click.argument("player")
@click.argument("country")
@click.option("--since", "since", required=True, callback=date_option, metavar="YYYY-MM-DD",
              help="The first day the player plays for COUNTRY.")
@db_option
@by_option
@why_option
def country(system: str, player: str, country: str, since: dt.date, db: str | None, by: str | None,
            why: str) -> None:
    """PLAYER plays for COUNTRY (a 3-letter code, e.g. FRA) from --since; before it, as before."""
    from xlrating.core.countries import country_code, is_country

    code = country_code(country) if is_country(country) else ""
    if not (len(code) == 3 and code.isascii() and code.isalpha()):
        fail(f"COUNTRY {country!r}: expected a 3-letter country code as the sheets write it (e.g. FRA) or an "
             f"EMA member country's name", EXIT_INVALID)
    with _store(db, write=True) as store:
        _change(lambda: store.set_country(system, player, code, since, by=by or current_user(), why=why))


@players.command("homonym")
@click.argument("system", type=SystemChoice())
@click.argument("name")
@db_option
@by_option
@why_option
def homonym(system: str, name: str, db: str | None, by: str | None, why: str) -> None:
    """NAME is borne by several people: each ingest of results under it says so."""
    with _store(db, write=True) as store:
        _change(lambda: store.mark_homonym(system, name, by=by or current_user(), why=why))


@players.command("undo")
@click.argument("system", type=SystemChoice())
@click.argument("change", type=click.IntRange(1))
@db_option
@by_option
@why_option
def undo(system: str, change: int, db: str | None, by: str | None, why: str) -> None:
    """Undo the register's change CHANGE (its number in xlrating players log); both stay in the log."""
    with _store(db, write=True) as store:
        _change(lambda: store.undo(system, change, by=by or current_user(), why=why))
