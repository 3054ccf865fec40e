"""``xlrating whatif``: a MERS player's total and place with one more result (``whatif mers``), and
the ranking under each rule era side by side (``whatif eras``), from a MERS results table or the
results store, computed by
:mod:`xlrating.core.mers.whatif` with the ranking's own code (the totals are ``rank mers``')."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import click

from xlrating.cli.common import date_option, db_option, fail, resolve_db, table_console
from xlrating.core.errors import InvalidArgument, RatingError

RULESETS = ("MCR", "Riichi")
RULES = ("2005", "2010", "2018")
SHOWN = 10  # players passed, on the terminal
OPTION_OF = {"place": "--place", "players": "--players", "weight": "--weight", "date": "--date",
             "as_of": "--as-of", "player": "PLAYER"}


@click.group("whatif")
def whatif() -> None:
    """What if: a MERS player's total and place with one more result; the ranking under each era."""


def _ordinal(n: int | None) -> str:
    if n is None:
        return "not ranked"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _records(db: str | None, ruleset: str | None, file: str | None = None,
             sheet: str | None = None) -> tuple[list[Any], dict[str, str], str]:
    """The MERS results (of ``ruleset`` when given), the players' names and where they come from:
    the results table ``file`` as ``rank mers FILE`` reads it (a table names nobody: its players are
    their EMA IDs), or without it the store."""
    if file is not None:
        return _table_records(file, sheet, ruleset, db)
    from xlrating.store import StoreError, open_store
    from xlrating.systems import get
    from xlrating.systems.mers import player_names

    location = resolve_db(db)
    try:
        with open_store(location, read_only=True) as store:
            records = get("mers").stored_records(store, **({"ruleset": ruleset} if ruleset else {}))
            names = player_names(store)
    except StoreError as exc:
        fail(str(exc))
    if not records:
        fail(f"{location}: the store holds no MERS results{f' of {ruleset}' if ruleset else ''}; ingest EMA "
             f"results sheets first")
    return records, names, location


def _table_records(file: str, sheet: str | None, ruleset: str | None,
                   db: str | None) -> tuple[list[Any], dict[str, str], str]:
    from xlrating.cli.rank import _another_file, unreadable
    from xlrating.core.errors import TableError
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.table_files import read_table_file
    from xlrating.systems import get

    system = get("mers")
    try:
        table = read_table_file(file, sheet=sheet)
    except UnreadableWorkbook as exc:
        fail(unreadable(system, exc, file))
    try:
        records = system.records_from_table(table.rows, table.header_row)
    except TableError as exc:
        fail(_another_file(system, table, file, db) or str(exc.with_source(table.name)))
    except RatingError as exc:
        fail(f"{table.name}: {exc}")
    if ruleset is not None:
        records = [r for r in records if r.ruleset == ruleset]
    if not records:
        fail(f"{table.name}: the table holds no MERS results{f' of {ruleset}' if ruleset else ''}")
    return records, {}, table.name


def _who(player: str, names: dict[str, str]) -> str:
    return f"{player} ({names[player]})" if names.get(player) else player


@whatif.command("mers")
@click.argument("player")
@click.argument("file", required=False)
@click.option("--place", type=int, required=True, metavar="K", help="The place the player finishes (1 = first).")
@click.option("--players", type=int, required=True, metavar="N", help="The players of the tournament.")
@click.option("--weight", type=float, required=True, metavar="W", help="The tournament's MERS weight.")
@click.option("--date", "date", required=True, callback=date_option, metavar="YYYY-MM-DD",
              help="The tournament's (last) day.")
@click.option("--ruleset", type=click.Choice(RULESETS, case_sensitive=False), default=None,
              help="MCR or Riichi (default: the one the player has results in; required when both).")
@click.option("--rules", type=click.Choice(RULES), default=None,
              help="Rule era (default: the era in force on the ranking date).")
@click.option("--as-of", "as_of", callback=date_option, metavar="YYYY-MM-DD",
              help="The ranking date (default: the tournament's date).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write FILE.json instead of the terminal.")
@click.option("--sheet", help="Worksheet of FILE holding the table (default: the first).")
@db_option
def whatif_mers(player: str, file: str | None, place: int, players: int, weight: float, date: dt.date,
               ruleset: str | None, rules: str | None, as_of: dt.date | None, output: str | None, sheet: str | None,
               db: str | None) -> None:
    """If PLAYER finishes K-th of N at a tournament of weight W on a date: the total and place.

    The ranking (as rank mers computes it) of FILE, a MERS results table, or without FILE of the
    results store, without and with that one result: the total, the place, the players passed.
    PLAYER is an EMA ID or, from the store, a name as the ranking shows it. Nobody else's total
    changes (no other ranked player is at that tournament).
    """
    from xlrating.core.mers.whatif import find_player, what_if

    if output is not None and Path(output).suffix.lower() != ".json":
        fail(f"{output}: expected an output file ending in .json, got {Path(output).suffix or 'none'!r}")
    chosen = next((r for r in RULESETS if ruleset and r.casefold() == ruleset.casefold()), None)
    records, names, location = _records(db, None, file, sheet)
    try:
        ema_id = find_player(records, player, names, location)
    except InvalidArgument as exc:
        fail(f"PLAYER{str(exc)[len(exc.argument):]}")
    except RatingError as exc:
        named = " (a results table has no names: give the player's EMA ID)" if file and not player.strip().isdigit() \
            else ""
        fail(f"PLAYER: {exc}{named}")
    played = sorted({r.ruleset for r in records if r.player == ema_id})
    if chosen is None:
        if len(played) > 1:
            fail(f"--ruleset: {_who(ema_id, names)} has results in {' and '.join(played)}; choose one with --ruleset")
        chosen = played[0]
    try:
        found = what_if(records, ema_id, place=place, players=players, weight=weight, date=date, ruleset=chosen,
                        as_of=as_of, rules=rules)
    except InvalidArgument as exc:
        fail(f"{OPTION_OF.get(exc.argument, exc.argument)}{str(exc)[len(exc.argument):]}")
    except RatingError as exc:
        fail(f"{location}: {exc}")
    data = found.data(names)
    if output is not None:
        try:
            Path(output).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"{output}: cannot write ({exc.strerror or exc})")
        click.echo(f"wrote what if {ema_id} finishes {_ordinal(place)} of {players} to {output}", err=True)
        return
    before, after = found.before, found.after
    click.echo(f"What if {_who(ema_id, names)} finishes {_ordinal(place)} of {players} at a tournament of weight "
               f"{weight:g} on {date.isoformat()}: {found.ruleset} ranking as of {found.as_of.isoformat()}, "
               f"{found.rules} rules")
    click.echo(f"the new result: base rank {found.base_rank:g}, age factor {found.age_factor:g}")
    for label, s in (("before", before), ("after", after)):
        line = (f"{_ordinal(s.rank)} of {s.of}, total {s.total:.2f}" if s.total is not None
                else f"not ranked (of {s.of} ranked players)")
        click.echo(f"{label}: {line} ({s.count} result{'' if s.count == 1 else 's'} that count)")
    if data["change"] is not None:
        click.echo(f"change: {data['change']:+.2f}, {_moves(before.rank, after.rank)}")
    for label, who in (("passes", found.passed), ("is passed by", found.passed_by)):
        if who:
            more = f"; and {len(who) - SHOWN} more (all with -o FILE.json)" if len(who) > SHOWN else ""
            click.echo(f"{label} {len(who)}: " + "; ".join(
                f"{_who(o.player, names)} {o.total:.2f} ({_ordinal(o.rank_before)} -> {_ordinal(o.rank_after)})"
                for o in who[:SHOWN]) + more)


def _moves(before: int | None, after: int | None) -> str:
    if before is None or after is None or before == after:
        return "the same place"
    gained = before - after
    return f"{abs(gained)} place{'' if abs(gained) == 1 else 's'} {'up' if gained > 0 else 'down'}"


@whatif.command("eras")
@click.argument("file", required=False)
@click.option("--ruleset", type=click.Choice(RULESETS, case_sensitive=False), required=True, help="MCR or Riichi.")
@click.option("--as-of", "as_of", callback=date_option, metavar="YYYY-MM-DD",
              help="The ranking date (default: today).")
@click.option("--limit", type=click.IntRange(1), default=50, show_default=True,
              help="Players shown on the terminal.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write FILE.json, .csv or .xlsx (every player) instead of the terminal.")
@click.option("--sheet", help="Worksheet of FILE holding the table (default: the first).")
@db_option
def whatif_eras(file: str | None, ruleset: str, as_of: dt.date | None, limit: int, output: str | None,
                sheet: str | None, db: str | None) -> None:
    """The ranking under the 2005, 2010 and 2018 rules side by side, and who moves most.

    The ranking of FILE, a MERS results table, or without FILE of the results store. Each player's
    place and total under each era (the ranking of rank mers --rules ERA), and the spread: the
    places between their best and worst era.
    """
    from xlrating.core.mers.whatif import ERA_COLUMNS, era_line, eras, moved_most

    suffix = Path(output).suffix.lower() if output else None
    if output is not None and suffix not in (".json", ".csv", ".xlsx"):
        fail(f"{output}: expected an output file ending in .json, .csv or .xlsx, got {suffix or 'none'!r}")
    ruleset = next(r for r in RULESETS if r.casefold() == ruleset.casefold())
    day = as_of or dt.date.today()
    records, names, location = _records(db, ruleset, file, sheet)
    try:
        rows = eras(records, day, ruleset=ruleset)
    except RatingError as exc:
        fail(f"{location}: {exc}")
    if not rows:
        fail(f"{location}: nobody is ranked in {ruleset} as of {day.isoformat()} under any era")
    lines = [era_line(row, names) for row in rows]
    movers = [era_line(row, names) for row in moved_most(rows)]
    if output is None:
        _show_eras(lines, movers, ruleset, day, limit)
        return
    try:
        if suffix == ".json":
            Path(output).write_text(json.dumps({"ruleset": ruleset, "as_of": day.isoformat(), "players": lines,
                                                "moved_most": movers}, indent=2) + "\n", encoding="utf-8")
        elif suffix == ".csv":
            with Path(output).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=list(ERA_COLUMNS))
                writer.writeheader()
                for line in lines:
                    writer.writerow({key: "" if line[key] is None else line[key] for key in ERA_COLUMNS})
        else:
            _eras_xlsx(lines, movers, ruleset, day, Path(output))
    except OSError as exc:
        fail(f"{output}: cannot write ({exc.strerror or exc})")
    click.echo(f"wrote {len(lines)} players ranked under the eras to {output}", err=True)


def _show_eras(lines: list[dict[str, Any]], movers: list[dict[str, Any]], ruleset: str, day: dt.date,
               limit: int) -> None:
    from rich.table import Table

    out = table_console()
    for title, shown in ((f"{ruleset} ranking as of {day.isoformat()} under each era ({len(lines)} players)",
                          lines[:limit]), ("Who moves most between eras", movers)):
        table = Table(title=title, title_justify="left")
        for label in ("EMA ID", "Name", *RULES, *(f"total {r}" for r in RULES), "Spread"):
            table.add_column(label, justify="left" if label in ("EMA ID", "Name") else "right", no_wrap=True)
        for line in shown:
            table.add_row(line["player"], line["name"], *(str(line[f"rank_{r}"] or "-") for r in RULES),
                          *(f"{t:.2f}" if (t := line[f"total_{r}"]) is not None else "-" for r in RULES),
                          str(line["spread"]) if line["spread"] is not None else "")
        out.print(table)


def _eras_xlsx(lines: list[dict[str, Any]], movers: list[dict[str, Any]], ruleset: str, day: dt.date,
               path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    from xlrating.core.mers.whatif import ERA_COLUMNS

    book = Workbook()
    book.remove(book.active)
    for title, rows in (("Eras", lines), ("Moved most", movers)):
        sheet = book.create_sheet(title)
        sheet.append(list(ERA_COLUMNS))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for line in rows:
            sheet.append([line[key] for key in ERA_COLUMNS])
            sheet.cell(sheet.max_row, 2).data_type = "s"
        sheet.freeze_panes = "A2"
    about = book.create_sheet("About")
    about.append(["ruleset", ruleset])
    about.append(["as_of", day.isoformat()])
    book.save(path)
