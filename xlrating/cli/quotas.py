"""``xlrating quotas``: the seats of each EMA member country at a championship of ``--seats`` seats,
from the MERS ranking on ``--as-of`` (:mod:`xlrating.core.mers.quotas`), with every step.

The ranking comes from the results store as the web's ranking pages compute it (the players'
countries as last submitted), or from a MERS results table FILE (which has no countries: a player
counts for the member country of their EMA ID's first two digits).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import click

from xlrating.cli.common import date_option, db_option, fail, resolve_db, table_console
from xlrating.core.errors import InvalidArgument, RatingError, TableError
from xlrating.core.mers.quotas import COUNTRY_COLUMNS, STEP_COLUMNS, NoQuotaCountries, Quotas, RankedPlayer

RULESETS = ("MCR", "Riichi")
RULES = ("2005", "2010", "2018")
OPTION_OF = {"seats": "--seats", "personal": "--personal"}


@click.command("quotas")
@click.argument("file", required=False)
@click.option("--ruleset", type=click.Choice(RULESETS, case_sensitive=False), required=True,
              help="The championship's ruleset: MCR or Riichi.")
@click.option("--seats", type=click.IntRange(1), required=True, metavar="T",
              help="The seats of the EMA member countries' quotas (personal seats come on top).")
@click.option("--as-of", "as_of", callback=date_option, metavar="YYYY-MM-DD",
              help="The date of the ranking the quotas come from (default: today, as rank mers ranks).")
@click.option("--rules", type=click.Choice(RULES), default=None,
              help="Rule era of the ranking (default: the era in force on the ranking date).")
@click.option("--personal", multiple=True, metavar="EMA_ID",
              help="A player with a personal seat (the best EMA player of the last European or World championship); "
                   "repeat for each.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write FILE.json, .csv (the countries) or .xlsx (Countries and Steps sheets) instead of tables "
                   "on the terminal.")
@db_option
def quotas(file: str | None, ruleset: str, seats: int, as_of: dt.date | None, rules: str | None, personal: tuple[str, ...],
           output: str | None, db: str | None) -> None:
    """Championship quotas: the seats of each EMA member country at a championship of T seats.

    From the MERS ranking of --ruleset on --as-of (of the results store, or of FILE, a MERS results
    table), by the EMA's method: Part A's fixed seats, Part B's shares seat by seat, each country
    capped at its players above the average, the seats over a cap given again down the country
    ranking. The method: docs/rating-rules.md.
    """
    from xlrating.core.mers import rules_in_force
    from xlrating.core.mers.quotas import quotas as compute

    ruleset = next(r for r in RULESETS if r.casefold() == ruleset.casefold())
    as_of = as_of or dt.date.today()
    rules = rules or rules_in_force(as_of)
    suffix = Path(output).suffix.lower() if output else None
    if output is not None and suffix not in (".json", ".csv", ".xlsx"):
        fail(f"{output}: expected an output file ending in .json, .csv or .xlsx, got {suffix or 'none'!r}")
    lines, empty_reason = _from_file(file, ruleset, rules, as_of) if file else _from_store(db, ruleset, rules, as_of)
    where = f"the {ruleset} ranking as of {as_of.isoformat()} ({rules} rules)"
    if not lines:
        fail(f"{where} has no ranked player, so no quotas: {empty_reason}")
    try:
        result = compute(lines, seats, personal)
    except NoQuotaCountries as exc:
        fail(f"{where}: {exc}")
    except InvalidArgument as exc:
        fail(f"{OPTION_OF.get(exc.argument, exc.argument)}{str(exc)[len(exc.argument):]}")
    about = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat()}
    if output is None:
        _print(result, about)
        return
    try:
        if suffix == ".json":
            Path(output).write_text(json.dumps(about | result.data(), indent=2) + "\n", encoding="utf-8")
        elif suffix == ".csv":
            _write_csv(result, Path(output))
        else:
            _write_xlsx(result, about, Path(output))
    except OSError as exc:
        fail(f"{output}: cannot write ({exc.strerror or exc})")
    left = f"; {result.left_over} left over: every country is at its cap" if result.left_over else ""
    click.echo(f"wrote the quotas of {len(result.countries)} countries ({result.seats - result.left_over} seats of "
               f"{seats}{left}) and {len(result.steps)} steps to {output}", err=True)


def _from_store(db: str | None, ruleset: str, rules: str, as_of: dt.date) -> tuple[list[RankedPlayer], str]:
    """The ranking's lines as the web's ranking page computes them from the store (read-only)."""
    from xlrating.core.mers.quotas import ranked_players
    from xlrating.store import StoreError, open_store
    from xlrating.web import mers_published

    location = resolve_db(db)
    try:
        with open_store(location, read_only=True) as store:
            board = mers_published.ranking(store, ruleset, rules, as_of)
    except StoreError as exc:
        fail(str(exc))
    except RatingError as exc:
        fail(f"{location}: {exc}")
    return ranked_players(board["ranking"]), board["empty_reason"]


def _from_file(file: str, ruleset: str, rules: str, as_of: dt.date) -> tuple[list[RankedPlayer], str]:
    """The ranking of a MERS results table: a player counts for the member country of their EMA
    ID's first two digits (the table has no country)."""
    from xlrating.cli.rank import _another_file, unreadable
    from xlrating.core.countries import members_by_prefix
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.table_files import read_table_file
    from xlrating.systems import get

    system = get("mers")
    try:
        table = read_table_file(file)
    except UnreadableWorkbook as exc:
        fail(unreadable(system, exc, file))
    try:
        records = system.records_from_table(table.rows, table.header_row)
        board = system.leaderboard(records, source=table.name, as_of=as_of, rules=rules, ruleset=ruleset)
    except TableError as exc:
        fail(_another_file(system, table, file, None) or str(exc.with_source(file)))
    except RatingError as exc:
        fail(f"{file}: {exc}")
    prefixes = members_by_prefix()
    lines = []
    for line in board.ranked():
        player = line["player"]
        member = prefixes.get(player[:2]) if len(player) == 8 and player.isdigit() else None
        lines.append(RankedPlayer(player, member[1] if member else None, line["total"]))
    return lines, board.empty_reason


# --- output ---------------------------------------------------------------------------------------

def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _print(result: Quotas, about: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = table_console()
    out.print(Text(f"Championship quotas: {result.seats} seats, {about['ruleset']}", style="bold"))
    out.print(Text(f"ranking as of {about['as_of']}, rules {about['rules']}: {result.ranked_players} ranked players, "
                   f"{result.member_players} of them in the {len(result.countries)} member countries that have ranked players, "
                   f"{result.players_above_700} above 700; average total {result.average:.2f} (the cap: players "
                   f"above it)"))
    out.print(Text(f"Part A {result.part_a} seats, Part B {result.part_b}; {result.over_cap} over a cap taken back, "
                   f"{result.redistributed} given again down the country ranking"
                   + (f", {result.left_over} left over (every country at its cap)" if result.left_over else "")
                   + (f"; {len(result.personal)} personal on top" if result.personal else "")))
    columns = (("country", "Country"), ("country_rank", "Rank"), ("ranked_players", "Players"),
               ("above_700", ">700"), ("share", "Share"), ("above_average", ">avg"), ("cap", "Cap"),
               ("part_a", "A"), ("part_b", "B"), ("over_cap", "Over cap"), ("redistributed", "Given again"),
               ("seats", "Seats"), ("personal", "Personal"))
    table = Table(title="Countries", title_justify="left")
    for key, label in columns:
        table.add_column(label, justify="left" if key == "country" else "right", no_wrap=True)
    for row in result.country_rows():
        table.add_row(*(_shown(row[key]) for key, _ in columns))
    out.print(table)
    steps = Table(title="Steps", title_justify="left")
    for label in ("Step", "Part", "Country", "Seats", "Why"):
        steps.add_column(label, justify="right" if label in ("Step", "Seats") else "left",
                         no_wrap=label != "Why", overflow="fold")
    for step in result.steps:
        steps.add_row(str(step.step), step.part, step.country or "", _shown(step.seats), step.reason)
    out.print(steps)


def _cell(value: Any) -> Any:
    """A CSV field as the web's CSV writes one: full precision, TRUE/FALSE, empty for none."""
    from xlrating.gate.csv_safety import neutralise_cell

    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    return neutralise_cell(value)


def _write_csv(result: Quotas, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COUNTRY_COLUMNS)
        for row in result.country_rows():
            writer.writerow([_cell(row[column]) for column in COUNTRY_COLUMNS])


def _write_xlsx(result: Quotas, about: dict[str, Any], path: Path) -> None:
    """Countries and Steps sheets (a header row, then a row each), and About: the settings."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    for title, columns, rows in (("Countries", COUNTRY_COLUMNS, result.country_rows()),
                                 ("Steps", STEP_COLUMNS, result.step_rows())):
        sheet = book.create_sheet(title)
        for j, column in enumerate(columns, start=1):
            sheet.cell(1, j, column).font = Font(bold=True)
            longest = max([len(column), *(len(_shown(row[column])) for row in rows)])
            sheet.column_dimensions[get_column_letter(j)].width = min(longest + 3, 80)
        for i, row in enumerate(rows, start=2):
            for j, column in enumerate(columns, start=1):
                cell = sheet.cell(i, j, row[column])
                if isinstance(row[column], str):
                    cell.data_type = "s"  # text stays text, never a formula
                elif isinstance(row[column], float):
                    cell.number_format = "0.0000"
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(rows) + 1}"
    settings = book.create_sheet("About")
    for key, value in (about | result.summary()).items():
        settings.append([key, value])
    settings.column_dimensions["A"].width = 18
    book.save(path)
