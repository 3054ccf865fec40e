"""``xlrating validate FILE...``: check submitted EMA result sheets (and Dip Pouch results and DCI
matches tables, judged by their columns), every problem at its cell.

Exit status: 0 every file valid (warnings allowed), 1 some file has errors, 2 a file could not be
read or the usage was wrong.
"""

from __future__ import annotations

from pathlib import Path

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, fail, officer_limits, system_option


def load_registry_option(players: str | None):  # type: ignore[no-untyped-def]
    """The ``--players`` registry, or exit 2 naming what is wrong with it."""
    if players is None:
        return None
    from xlrating.sheets.validate.registry import RegistryError, load_registry

    try:
        return load_registry(players)
    except RegistryError as exc:
        fail(str(exc))


@click.command("validate")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for machines: a list with one object per file (file, valid, "
                   "errors, warnings, findings).")
@click.option("--annotate", "annotate", metavar="OUT", default=None,
              help="Write a copy marking each finding at its cell (fill + comment) with a Findings sheet. "
                   "With several files OUT is a folder.")
@click.option("--players", metavar="REGISTRY.csv", default=None,
              help="Player registry (ema_id, last_name, first_name or name) to check IDs and names against.")
@system_option
def validate(files: tuple[str, ...], fmt: str, annotate: str | None, players: str | None,
             system: str | None) -> None:
    """Check EMA results reporting sheets, Dip Pouch results and DCI matches tables, and report
    every finding with its sheet and cell."""
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.sheets.validate.report import file_report, json_report, unreadable_report
    from xlrating.systems import SystemUnclear, validate_submission

    registry = load_registry_option(players)
    status = EXIT_OK
    reports = []
    copies = _annotated_names(files) if annotate is not None and len(files) > 1 else {}
    for file in files:
        try:
            validation = validate_submission(file, open_submission(file, officer_limits(file)), registry, system=system)
        except SystemUnclear as exc:
            click.echo(f"xlrating: error: {exc}, or {exc.choose}", err=True)
            reports.append(unreadable_report(file, f"{exc}; {exc.choose}"))
            status = EXIT_UNREADABLE
            continue
        except UnreadableWorkbook as exc:
            click.echo(f"xlrating: error: {exc}", err=True)
            reports.append(unreadable_report(file, exc.reason))
            status = EXIT_UNREADABLE
            continue
        reports.append(file_report(file, validation.findings))
        if not validation.valid:
            status = max(status, EXIT_INVALID)
        if fmt == "text":
            click.echo("\n".join(_text(file, validation.findings)))
        if annotate is not None:
            _annotate(file, validation.findings, Path(annotate), copies.get(file))
    if fmt == "json":
        click.echo(json_report(reports))
    raise SystemExit(status)


def _text(file: str, findings: list) -> list[str]:  # type: ignore[type-arg]
    from xlrating.sheets.validate.report import text_report

    return text_report(file, findings)


def _annotated_names(files: tuple[str, ...]) -> dict[str, str]:
    """The name of each file's annotated copy in the --annotate folder: ``<stem>.annotated.xlsx``,
    made unique in command-line order when stems clash (``a/results.xlsx`` and ``b/results.xlsx``
    give ``results.annotated.xlsx`` and ``results-2.annotated.xlsx``). Compared case-insensitively,
    as the folder may be on a file system that does."""
    taken: set[str] = set()
    names: dict[str, str] = {}
    for file in dict.fromkeys(files):  # the same path twice is one copy
        stem = Path(file).stem
        name, n = f"{stem}.annotated.xlsx", 1
        while name.casefold() in taken:
            n += 1
            name = f"{stem}-{n}.annotated.xlsx"
        taken.add(name.casefold())
        names[file] = name
    return names


def _annotate(file: str, findings: list, out: Path, name: str | None) -> None:  # type: ignore[type-arg]
    """Write the annotated copy to ``out``, or to ``out/name`` when several files share the folder
    ``out``; say where on stderr, so a renamed copy can be found (stdout stays the report)."""
    from xlrating.gate.safe_open import UnreadableWorkbook
    from xlrating.sheets.validate.annotate import annotate_workbook

    target = out
    if name is not None:
        target.mkdir(parents=True, exist_ok=True)
        target = target / name
    try:
        annotate_workbook(file, findings, target)
    except (OSError, UnreadableWorkbook) as exc:
        fail(f"cannot write the annotated copy {target}: {exc}")
    click.echo(f"xlrating: annotated copy of {file} written to {target}", err=True)
