"""``xlrating explain SYSTEM PLAYER [FILE]``: how one player's rating comes about.

One subcommand per registered rating system, with the options ``rank`` gives it (its declaration's
:attr:`~xlrating.systems.base.RatingSystem.rank_options`); the records come from FILE or, without
it, from the results store, as ``rank`` reads them. The explanation is the system's
(:meth:`~xlrating.systems.base.RatingSystem.explain`); ``-o FILE.xlsx`` writes it as a workbook whose
formulas recompute the rating (:meth:`~xlrating.systems.base.RatingSystem.explain_workbook`).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from xlrating.cli.common import db_option, fail, resolve_db, table_console
from xlrating.cli.rank import SystemGroup, _another_file, _option, unreadable
from xlrating.core.errors import RatingError, TableError
from xlrating.exports import format_for
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.systems.base import RatingSystem

if TYPE_CHECKING:
    from xlrating.core.explanation import Explanation


class ExplainGroup(SystemGroup):
    """``explain``: a subcommand per registered system, made when asked for, as ``rank``'s."""

    def command_for(self, system: RatingSystem) -> click.Command:
        return _command(system)


@click.group("explain", cls=ExplainGroup)
def explain() -> None:
    """Explain one player's rating: every result, event or match that makes it, and how.

    PLAYER as rank names them (MERS: the EMA ID; the others: the name). The records come from FILE
    (.csv or .xlsx, the table rank reads) or, without FILE, from the results store (--db).
    """


def _command(system: RatingSystem) -> click.Command:
    def run(player: str, file: str | None, output: str | None, sheet: str | None, db: str | None,
            **options: Any) -> None:
        explain_player(system, player, file, output, sheet, db, options)

    command = run
    for option in reversed(system.rank_options):
        command = _option(option)(command)
    command = db_option(command)
    for decorator in reversed((
        click.argument("player"),
        click.argument("file", required=False),
        click.option("-o", "--output", type=click.Path(dir_okay=False),
                     help="Write the explanation to FILE.xlsx (formulas that recompute the rating), .json or .csv "
                          "(default: shown on the terminal)."),
        click.option("--sheet", help="Worksheet holding the table (default: the first)."),
    )):
        command = decorator(command)
    return click.command(system.key, help=f"How PLAYER's {system.title} rating ({system.game}) comes about, from FILE "
                                          f"(a {system.ranked_table} table) or, without FILE, from the results store. "
                                          f"PLAYER is {system.player_is}, as rank {system.key} lists them.")(command)


def explain_player(system: RatingSystem, player: str, file: str | None, output: str | None, sheet: str | None,
                   db: str | None, options: dict[str, Any]) -> None:
    if output is not None:
        try:
            format_for(output)
        except ValueError as exc:
            fail(str(exc))
    try:
        if file is None:
            explanation = _from_store(system, player, resolve_db(db), options)
        else:
            from xlrating.sheets.read.table_files import read_table_file

            table = read_table_file(file, sheet=sheet)
            try:
                records = system.records_from_table(table.rows, table.header_row)
            except TableError as exc:
                fail(_another_file(system, table, file, db) or str(exc.with_source(table.name)))
            except RatingError as exc:
                fail(f"{table.name}: {exc}")
            explanation = _explained(system, records, player, table.name, None, options)
    except UnreadableWorkbook as exc:
        fail(unreadable(system, exc, file) if file is not None else str(exc))
    if output is None:
        show(explanation)
        return
    try:
        write(system, explanation, output)
    except OSError as exc:
        fail(f"{output}: cannot write ({exc.strerror or exc})")
    rating = "not ranked" if explanation.rating is None else f"{explanation.value_name} {explanation.rating:.2f}"
    click.echo(f"wrote the explanation of {explanation.player} ({rating}, {len(explanation.rows)} rows) to {output}",
               err=True)


def _from_store(system: RatingSystem, player: str, location: str, options: dict[str, Any]) -> Explanation:
    from xlrating.store import StoreError, open_store

    try:
        with open_store(location, read_only=True) as store:
            records = system.stored_records(store, **options)
            if not records:
                message = system.empty_store_message(location)
                fail(message or f"{location}: the store holds no {system.title} results")
            return _explained(system, records, player, location, store, options)
    except StoreError as exc:
        fail(str(exc))


def _explained(system: RatingSystem, records: list[Any], player: str, source: str, stored: Any,
               options: dict[str, Any]) -> Explanation:
    """The system's explanation; a bad table or a player not found is one line naming the source."""
    try:
        return system.explain(records, player, source=source, stored=stored, **options)
    except TableError as exc:
        fail(str(exc.with_source(source)))
    except RatingError as exc:
        fail(str(exc) if source in str(exc) else f"{source}: {exc}")


def write(system: RatingSystem, explanation: Explanation, output: str) -> None:
    """``output`` in the format its extension names: the live workbook, JSON, or the rows as CSV."""
    kind = format_for(output)
    path = Path(output)
    if kind == "xlsx":
        path.write_bytes(system.explain_workbook(explanation))
    elif kind == "json":
        path.write_text(json.dumps(explanation.as_dict(), indent=2) + "\n", encoding="utf-8")
    else:
        from xlrating.gate.csv_safety import neutralise_cell

        data = explanation.as_dict()
        with path.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            keys = [column.key for column in explanation.columns]
            out.writerow(keys)
            for row in data["rows"]:
                out.writerow(["" if row.get(key) is None else neutralise_cell(row.get(key)) for key in keys])


def show(explanation: Explanation, console: Any = None) -> None:
    """The explanation on the terminal: who and under which settings, the rows (the brief columns),
    the parts and the rating, then the rule in words."""
    from rich.table import Table
    from rich.text import Text

    out = console or table_console()
    who = explanation.player + (f" ({explanation.name})" if explanation.name else "")
    out.print(Text(f"{explanation.title} {explanation.value_name} of {who}", style="bold"))
    shown = [f"{label.lower()} {_text(value)}" for _, label, value in explanation.settings if value is not None]
    if shown:
        out.print(Text(", ".join(shown)))
    columns = [column for column in explanation.columns if column.brief]
    table = Table()
    for column in columns:
        table.add_column(column.title, justify="left" if column.kind in ("text", "date") else "right",
                         overflow="fold")
    for row in explanation.rows:
        table.add_row(*(_cell(row.get(column.key), column.kind, column.decimals) for column in columns))
    out.print(table)
    for _, label, value in explanation.parts:
        if value is not None:
            out.print(Text(f"{label}: {value:.2f}"))
    if explanation.rating is None:
        out.print(Text(f"{explanation.value_name.capitalize()}: {explanation.not_ranked}", style="bold"))
    else:
        out.print(Text(f"{explanation.value_name.capitalize()}: {explanation.rating:.2f} "
                       f"({explanation.count} counted; full precision {explanation.rating!r})", style="bold"))
    out.print(Text(explanation.rule))


def _cell(value: Any, kind: str, decimals: int) -> str:
    if value is None:
        return ""
    if kind == "flag" or isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    return _text(value)


def _text(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)
