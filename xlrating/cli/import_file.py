"""``xlrating import FORMAT FILE -o TABLE``: another program's file made into our table.

The file is read as its format says (:mod:`xlrating.sheets.formats`), the table made from it is
checked by the rating system's own validator (the one ``validate`` and ``ingest`` run), and every
finding is reported at its place in the file read. Only a table without errors is written, whole.

Exit status: 0 written (warnings allowed), 1 the file has errors (nothing written), 2 the file
could not be read (nothing written) or the usage was wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, date_option, fail

FORMAT_KEYS = ("ema-workbook", "wdd", "wdr", "wer")  # kept in step with xlrating.sheets.formats.FORMATS (a test says so)


@click.command("import")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(FORMAT_KEYS))
@click.argument("file", metavar="FILE")
@click.option("-o", "--output", required=True, metavar="TABLE.csv|.xlsx",
              help="The table to write (with several sheets made, one file each: TABLE-<sheet>.csv).")
@click.option("--event", metavar="NAME", default=None, help="The event's name, when the file gives none.")
@click.option("--date", metavar="YYYY-MM-DD", default=None, callback=date_option,
              help="The event's (last) date when the file gives none; DCI: every match's date.")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Dip Pouch: the number of rounds (default: the last round column holding a score).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Dip Pouch: the declared number of players (default: the players ranked).")
@click.option("--world-championship", is_flag=True, default=False, help="Dip Pouch: the event is a World Championship.")
@click.option("--location", metavar="PLACE", default=None, help="Dip Pouch: where the event was played.")
@click.option("--sheet", metavar="NAME", default=None, help="EMA workbook: only this tournament sheet.")
@click.option("--k", type=click.FloatRange(min=0), default=None, help="DCI: the K-value of every match.")
@click.option("--tier", metavar="TIER", default=None, help="DCI: the event tier, for the K-value of its matches.")
@click.option("--category", metavar="NAME", default=None, help="DCI: the rating category (default Composite).")
@click.option("--player", type=click.Choice(["name", "id"]), default="name", show_default=True,
              help="DCI and WDR: name players by their names or by their numbers (DCI, WDR).")
def import_file(fmt: str, file: str, output: str, **given: Any) -> None:
    """Make our table from FILE, written by another program as FORMAT, after checking it as
    validate does; every problem is reported at its place in FILE."""
    from xlrating.gate.limits import Limits
    from xlrating.gate.safe_open import UnreadableWorkbook, read_bytes
    from xlrating.gate.structured_text import NotWellFormed
    from xlrating.sheets.formats import FORMATS
    from xlrating.sheets.formats.findings import Findings, Location, report
    from xlrating.sheets.formats.options import ImportOptions
    from xlrating.sheets.formats.produced import write_atomically

    target = Path(output)
    allowed = FORMATS[fmt].outputs
    if target.suffix.lower() not in allowed:
        fail(f"-o {output}: expected a {' or '.join(allowed)} file name for {FORMATS[fmt].makes}, got "
             f"{target.suffix or 'no extension'!r}")
    if target.is_dir():
        fail(f"-o {output}: is a folder; expected a .csv or .xlsx file name")
    options = ImportOptions(**given)
    out = Findings()
    try:
        # a CSV may be a federation's whole history; a workbook, XML or JSON file keeps a web upload's limits
        limits = Limits.for_history() if FORMATS[fmt].reads_csv else Limits.from_env()
        data = read_bytes(file, limits)
        made = FORMATS[fmt].reader()(file, data, options, out, limits)
    except ValueError as exc:  # an XLRATING_MAX_* that is not a number
        fail(str(exc))
    except UnreadableWorkbook as exc:
        fail(str(exc))
    except NotWellFormed as exc:
        out.add("IMPORT_NOT_WELL_FORMED", Location(None, exc.line, exc.column), reason=exc.reason,
                expected=FORMATS[fmt].title)
        click.echo("\n".join(report(file, out.sorted())))
        raise SystemExit(EXIT_UNREADABLE) from None
    for sheet in made if not out.errors else []:
        out.extend(_validated(sheet))
    findings = out.sorted()
    click.echo("\n".join(report(file, findings)))
    if out.errors or not made:
        click.echo(f"xlrating: nothing written to {output}", err=True)
        raise SystemExit(EXIT_INVALID)
    files = {_name(target, sheet.name, len(made)): sheet.content(target.suffix.lower()) for sheet in made}
    try:
        write_atomically(files)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    for (path, _), sheet in zip(files.items(), made):
        click.echo(f"{path}: {sheet.title_line()}")
    raise SystemExit(EXIT_OK)


def _validated(sheet: Any) -> list[Any]:
    """The system's own validator run over the sheet made, its findings placed in the file read."""
    from xlrating.systems import get

    validation = get(sheet.system).validate([sheet.grid()], None)
    placed: list[Any] = sheet.locate(validation.findings)
    return placed


def _name(target: Path, sheet: str, count: int) -> Path:
    if count == 1:
        return target
    safe = "".join(c if c.isalnum() or c in " -_." else "_" for c in sheet).strip() or "sheet"
    return target.with_name(f"{target.stem}-{safe}{target.suffix}")
