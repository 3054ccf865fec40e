"""``xlrating templates``: (re)build the generated artefacts users start from.

Writes the workbooks of :mod:`xlrating.sheets.templates` to ``workbook_templates/``, the VBA
wrappers of :mod:`xlrating.hosts.vba` to ``macros/xlrating_udfs.bas`` and the sources of the
LibreOffice add-in (:mod:`xlrating.hosts.libreoffice`) to ``libreoffice/``. In a source checkout those
are the repository's folders (wherever the command runs from); in an installed copy they are made
in the current folder. ``--out DIR`` (``-o``) puts every file in DIR instead. ``--check`` writes nothing and
exits 1 when a file is missing or differs from what the generators make (for CI).

The hand-written buttons module ships with the package (:func:`xlrating.sheets.templates.buttons_module`)
and is written beside the generated one (``macros/xlrating_buttons.bas``), so ``pip install xlrating``
then ``xlrating templates -o DIR`` gives a spreadsheet user every file the steps of docs/functions.md import.
"""

from __future__ import annotations

from pathlib import Path

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, fail


def default_folders() -> tuple[Path, Path]:
    """(templates folder, macros folder): the checkout's when xlrating runs from one, else ./"""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "workbook_templates").is_dir():
        return checkout / "workbook_templates", checkout / "macros"
    return Path("workbook_templates"), Path("macros")


def artefacts(templates_dir: Path, macros_dir: Path) -> dict[Path, bytes]:
    """Every generated file: its path and its exact bytes."""
    from xlrating.hosts.vba import BAS_NAME, render_udf_module
    from xlrating.sheets.templates import BUTTONS_BAS, TEMPLATES, build, buttons_module

    files = {templates_dir / name: build(name) for name in TEMPLATES}
    files[macros_dir / BAS_NAME] = render_udf_module().encode("ascii")
    files[macros_dir / BUTTONS_BAS] = buttons_module()
    files.update(addin_sources(macros_dir.parent / "libreoffice" if macros_dir != templates_dir
                               else macros_dir / "libreoffice"))
    return files


def addin_sources(folder: Path) -> dict[Path, bytes]:
    """The LibreOffice add-in's generated text files, in ``folder``."""
    from xlrating.hosts.libreoffice import sources

    return {folder / name: data for name, data in sources().items()}


@click.command("templates")
@click.option("-o", "--out", "out", metavar="DIR", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write every file into DIR (default: workbook_templates/ and macros/ of the checkout, "
                   "or of the current folder).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a file is missing or out of date.")
def templates(out: Path | None, check: bool) -> None:
    """(Re)build the workbook templates, the VBA modules and the LibreOffice add-in's sources."""
    templates_dir, macros_dir = (out, out) if out is not None else default_folders()
    files = artefacts(templates_dir, macros_dir)
    if check:
        stale = [path for path, data in files.items() if not path.is_file() or path.read_bytes() != data]
        for path in stale:
            click.echo(f"out of date: {path}")
        if not stale:
            click.echo(f"{len(files)} generated files are up to date")
        raise SystemExit(EXIT_INVALID if stale else EXIT_OK)
    for path, data in files.items():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_file() and path.read_bytes() == data:
                click.echo(f"unchanged {path}")
                continue
            path.write_bytes(data)
        except OSError as exc:
            fail(f"{path}: cannot write ({exc.strerror or exc})")
        click.echo(f"wrote {path}")
