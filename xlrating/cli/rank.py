"""``xlrating rank SYSTEM [FILE]``: a leaderboard from a result table or the store.

One subcommand per registered rating system (:mod:`xlrating.systems`), each with the options its
declaration lists (:attr:`~xlrating.systems.base.RatingSystem.rank_options`) beside the ones every
system shares (the output, the sheet, the decimals, the lines shown, the store).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from xlrating.cli.common import date_option, db_option, fail, resolve_db
from xlrating.core.errors import RatingError, TableError
from xlrating.exports import format_for, print_leaderboard, write_leaderboard
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.systems import all_systems, get
from xlrating.systems.base import RankOption, RatingSystem, article

if TYPE_CHECKING:
    from xlrating.sheets.read.table_files import TableSource


class SystemGroup(click.Group):
    """``rank``: a subcommand per registered system, made when asked for (a system registered after
    the command line was imported has one too)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [system.key for system in all_systems()]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        try:
            return self.command_for(get(name))
        except KeyError:
            return None

    def command_for(self, system: RatingSystem) -> click.Command:
        """The subcommand of ``system`` (another command with a subcommand per system says its own)."""
        return _command(system)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(system.key, f"{system.title} ({system.game})") for system in all_systems()]
        with formatter.section("Systems"):
            formatter.write_dl(rows)


@click.group("rank", cls=SystemGroup)
def rank() -> None:
    """Compute a rating system's leaderboard from FILE (.csv or .xlsx; its columns: docs/interfaces.md).

    Without FILE the leaderboard comes from the results store (--db).
    """


def _option(option: RankOption) -> Any:
    callback = date_option if option.kind == "date" else None
    kind = click.Choice(list(option.choices), case_sensitive=option.case_sensitive) if option.kind == "choice" else None
    return click.option(option.flag, option.name, type=kind, default=option.default, callback=callback,
                        metavar=option.metavar, show_default=option.default is not None, help=option.help)


def _command(system: RatingSystem) -> click.Command:
    def run(file: str | None, output: str | None, sheet: str | None, decimals: int | None, limit: int,
            db: str | None, **options: Any) -> None:
        rank_system(system, file, output, sheet, decimals, limit, db, options)

    command = run
    for option in reversed(system.rank_options):
        command = _option(option)(command)
    command = db_option(command)
    for decorator in reversed((
        click.argument("file", required=False),
        click.option("-o", "--output", type=click.Path(dir_okay=False),
                     help="Write the leaderboard to FILE.json, .csv or .xlsx (default: a table on the terminal)."),
        click.option("--sheet", help="Worksheet holding the table (default: the first)."),
        click.option("--decimals", type=click.IntRange(0, 10), help="Round ratings in the output file."),
        click.option("--limit", type=click.IntRange(1), default=50, show_default=True,
                     help="Lines shown on the terminal."),
    )):
        command = decorator(command)
    return click.command(system.key, help=f"The {system.title} leaderboard ({system.game}) from FILE (a {system.ranked_table} "
                                          f"table) or, without FILE, from the results store.")(command)


def rank_system(system: RatingSystem, file: str | None, output: str | None, sheet: str | None, decimals: int | None,
                limit: int, db: str | None, options: dict[str, Any]) -> None:
    if output is not None:
        try:
            format_for(output)
        except ValueError as exc:
            fail(str(exc))
    chosen = dict(options)
    try:
        if file is None:
            board = _from_store(system, resolve_db(db), chosen)
        else:
            from xlrating.sheets.read.table_files import read_table_file

            table = read_table_file(file, sheet=sheet)
            try:
                records = system.records_from_table(table.rows, table.header_row)
            except TableError as exc:
                fail(_another_file(system, table, file, db) or str(exc.with_source(table.name)))
            except RatingError as exc:
                fail(f"{table.name}: {exc}")
            board = _guarded(table.name, lambda: system.leaderboard(records, source=table.name, **chosen))
    except UnreadableWorkbook as exc:
        fail(unreadable(system, exc, file) if file is not None else str(exc))
    if output is None:
        print_leaderboard(board, limit=limit)
        return
    try:
        write_leaderboard(board, output, decimals=decimals)
    except OSError as exc:
        fail(f"{output}: cannot write ({exc.strerror or exc})")
    if board.lines:
        click.echo(f"wrote {board.counted()} to {output}", err=True)
    else:  # still a file, with the header only: a script reading it finds the columns it expects
        click.echo(f"wrote no players to {output} (the header only). {board.empty_reason}", err=True)


def _another_file(system: RatingSystem, table: TableSource, file: str, db: str | None) -> str | None:
    """What a file ``rank`` could not read is, when it is another file a system knows: the table
    another system ranks (rank it with that one), or a sheet submitted as it is, which is not what
    rank reads (ingest it, then rank the store); None when it is none of them, or the table
    ``system`` ranks (its own error says what is wrong)."""
    import shlex

    from xlrating.sheets.formats.recognise import for_rank, recognise_grids
    from xlrating.sheets.read.xlsx import SheetGrid

    grids = [SheetGrid(table.name, [list(row) for row in table.rows])]
    if system.ranks_table(grids):
        return None
    foreign = recognise_grids(grids)  # the WDD's upload, the EMA's workbook (its first sheet read)
    if foreign is not None:
        return f"{file}: {for_rank(foreign, file, f'{article(system.ranked_table)} {system.ranked_table} table')}"
    systems = all_systems()
    for other in systems:
        if other.ranks_table(grids):
            return (f"{table.name}: {article(other.ranked_table)} {other.ranked_table} table, not "
                    f"{article(system.ranked_table)} {system.ranked_table} table; rank it with: "
                    f"xlrating rank {other.key} {shlex.quote(file)}")
    for other in systems:
        if other.rank_table_title is not None and other.fit(grids) != "complete" and other.recognises(grids):
            store = f" --db {shlex.quote(db)}" if db else ""
            reads = (f", which is what `xlrating rank {system.key} FILE` reads (its columns: docs/interfaces.md)"
                     if other is system else "")
            return (f"{table.name}: {article(other.table_title)} {other.table_title} (one {other.title} "
                    f"{other.event_word} as submitted), not {article(system.ranked_table)} {system.ranked_table} "
                    f"table{reads}; store the sheet, then rank the store: "
                    f"xlrating ingest{store} {shlex.quote(file)} && xlrating rank {other.key}{store}")
    return None


def unreadable(system: RatingSystem, exc: UnreadableWorkbook, file: str) -> str:
    """Why ``file`` is not a table: another program's XML or JSON file (a WER event, a WDR
    classification) named for what it is with the import that makes a table of it; else ``exc``."""
    from pathlib import Path

    from xlrating.gate.limits import Limits
    from xlrating.gate.safe_open import read_bytes
    from xlrating.sheets.formats.recognise import for_rank, recognise_text

    if Path(file).suffix.lower() in (".csv", ".xlsx", ".xlsm", ".xls", ".ods"):
        return str(exc)
    try:
        limits = Limits.from_env()
        foreign = recognise_text(read_bytes(file, limits), limits)
    except (UnreadableWorkbook, ValueError):
        return str(exc)
    if foreign is None:
        return str(exc)
    return f"{file}: {for_rank(foreign, file, f'{article(system.ranked_table)} {system.ranked_table} table')}"


def _from_store(system: RatingSystem, location: str, options: dict[str, Any]) -> Any:
    """The leaderboard of what the store at ``location`` holds (opened read-only)."""
    from xlrating.store import StoreError, open_store

    try:
        with open_store(location, read_only=True) as store:
            records = system.stored_records(store, **options)
            if not records:
                message = system.empty_store_message(location)
                if message is not None:
                    fail(message)
            return _guarded(location, lambda: system.leaderboard(records, source=location, stored=store, **options))
    except StoreError as exc:
        fail(str(exc))


def _guarded(source: str, compute):  # type: ignore[no-untyped-def]
    """Run ``compute``; a bad table becomes a one-line error naming the file, row and column."""
    try:
        return compute()
    except TableError as exc:
        fail(str(exc.with_source(source)))
    except RatingError as exc:
        fail(f"{source}: {exc}")
