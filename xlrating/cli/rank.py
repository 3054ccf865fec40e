"""``xlrating rank dippouch|dci|mers [FILE]``: a leaderboard from a result table or the store."""

from __future__ import annotations

import datetime as dt
from typing import Any

import click

from xlrating.cli.common import date_option, db_option, fail, resolve_db
from xlrating.core import dci, dippouch, mers
from xlrating.core.errors import RatingError, TableError
from xlrating.exports import Leaderboard, format_for, print_leaderboard, write_leaderboard
from xlrating.gate.safe_open import UnreadableWorkbook

SYSTEMS = ("dippouch", "dci", "mers")


@click.command()
@click.argument("system", type=click.Choice(SYSTEMS, case_sensitive=False))
@click.argument("file", required=False)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the leaderboard to FILE.json, .csv or .xlsx (default: a table on the terminal).")
@click.option("--sheet", help="Worksheet holding the table (default: the first).")
@click.option("--ties", type=click.Choice(["best", "average"]), default="best", show_default=True,
              help="Tie policy: shared best place, or the average of the places a tie covers.")
@click.option("--as-of", "as_of", callback=date_option, metavar="YYYY-MM-DD",
              help="MERS: ranking date (default: today).")
@click.option("--rules", type=click.Choice(list(mers.RULES)), default="2005", show_default=True,
              help="MERS: rule era.")
@click.option("--ruleset", type=click.Choice(list(mers.RULESETS), case_sensitive=False),
              help="MERS: MCR or Riichi (required when the results hold both).")
@click.option("--method", type=click.Choice(list(dci.METHODS)), default="formula", show_default=True,
              help="DCI: win probability by the formula or by the FIDE-style table.")
@click.option("--category", help="DCI: rank only this category.")
@click.option("--decimals", type=click.IntRange(0, 10), help="Round ratings in the output file.")
@click.option("--limit", type=click.IntRange(1), default=50, show_default=True,
              help="Lines shown on the terminal.")
@db_option
def rank(system: str, file: str | None, output: str | None, sheet: str | None, ties: str,
         as_of: dt.date | None, rules: str, ruleset: str | None, method: str, category: str | None,
         decimals: int | None, limit: int, db: str | None) -> None:
    """Compute the SYSTEM leaderboard from FILE (.csv or .xlsx; its columns: docs/interfaces.md).

    Without FILE the leaderboard comes from the results store (--db).
    """
    from xlrating.leaderboards import dci_leaderboard, dippouch_leaderboard, mers_leaderboard

    if output is not None:
        try:
            format_for(output)
        except ValueError as exc:
            fail(str(exc))
    system = system.lower()
    policy = "average" if ties == "average" else "best"
    try:
        board: Leaderboard
        if system == "dippouch":
            source, results = _records("dippouch", file, sheet, db, dippouch.results_from_table)
            board = _guarded(source, lambda: dippouch_leaderboard(results, ties=policy))
        elif system == "dci":
            source, matches = _records("dci", file, sheet, db, dci.matches_from_table)
            board = _guarded(source, lambda: dci_leaderboard(matches, method=method, category=category))
        else:
            names = None
            if file is None:
                source = resolve_db(db)
                results, names = _store_results(source, ruleset)
            else:
                rows, header_row, source = _table(file, sheet)
                results = _guarded(source, lambda: mers.results_from_table(rows, header_row=header_row))
            present = sorted({r.ruleset for r in results})
            if ruleset is None and len(present) > 1:
                fail(f"{source}: the results hold {' and '.join(present)} tournaments; choose one with --ruleset")
            day = as_of or dt.date.today()
            canonical = mers.ruleset(ruleset) if ruleset else None
            board = _guarded(source, lambda: mers_leaderboard(results, day, rules=rules, ruleset=canonical,
                                                              ties=policy, names=names))
    except UnreadableWorkbook as exc:
        fail(str(exc))
    if output is None:
        print_leaderboard(board, limit=limit)
    else:
        try:
            write_leaderboard(board, output, decimals=decimals)
        except OSError as exc:
            fail(f"{output}: cannot write ({exc.strerror or exc})")
        if board.lines:
            click.echo(f"wrote {board.counted()} to {output}", err=True)
        else:  # still a file, with the header only: a script reading it finds the columns it expects
            click.echo(f"wrote no players to {output} (the header only). {board.empty_reason}", err=True)


def _records(system: str, file: str | None, sheet: str | None, db: str | None,
             from_table: Any) -> tuple[str, list[Any]]:
    """Where the records come from and the records: FILE's table read by ``from_table``, or
    without FILE what the store holds for ``system``."""
    if file is None:
        source = resolve_db(db)
        return source, _stored(source, system)
    rows, header_row, source = _table(file, sheet)
    return source, _guarded(source, lambda: from_table(rows, header_row=header_row))


def _table(file: str | None, sheet: str | None) -> tuple[list[list[object]], int, str]:
    from xlrating.sheets.read.table_files import read_table_file

    assert file is not None
    source = read_table_file(file, sheet=sheet)
    return source.rows, source.header_row, source.name


def _guarded(source: str, compute):  # type: ignore[no-untyped-def]
    """Run ``compute``; a bad table becomes a one-line error naming the file, row and column."""
    try:
        return compute()
    except TableError as exc:
        fail(str(exc.with_source(source)))
    except RatingError as exc:
        fail(f"{source}: {exc}")


def _stored(location: str, system: str) -> list:  # type: ignore[type-arg]
    """The Dip Pouch results or DCI matches the store holds (read-only)."""
    from xlrating.cli.ingest_tables import stored_records
    from xlrating.store import StoreError

    try:
        return stored_records(location, system)
    except StoreError as exc:
        fail(str(exc))


def _store_results(location: str, ruleset: str | None) -> tuple[list[mers.Result], dict[str, str]]:
    """The current results of the store (read-only) and the players' names."""
    from xlrating.store import StoreError, open_store

    try:
        with open_store(location, read_only=True) as store:
            return list(store.mers_results(mers.ruleset(ruleset) if ruleset else None)), store.player_names()
    except StoreError as exc:
        fail(str(exc))
