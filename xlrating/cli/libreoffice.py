"""``xlrating libreoffice build / install / uninstall / templates``: the LibreOffice Calc add-in.

``build`` writes the extension (``xlrating.oxt``) generated from the function table, for
Tools > Extension Manager > Add or for ``unopkg add``. ``install`` builds it and adds it to your
LibreOffice profile (``unopkg``; as root through a headless LibreOffice, since unopkg refuses root),
``uninstall`` removes it; both take effect the next time LibreOffice starts. ``--profile DIR`` uses
another user profile (a folder, e.g. a private one for tests) instead of yours. ``templates`` writes
the workbook templates with the functions named as Calc stores them (``xlrating.DCI_K``), which
LibreOffice 7.4 needs to compute them on opening (see :mod:`xlrating.hosts.libreoffice_templates`).
``prepare IN -o OUT`` does the same to any workbook (cells, defined names, conditional formats, data
validations), for LibreOffice 7.x (see :mod:`xlrating.hosts.libreoffice_prepare`).

Exit status: 0 done; 2 LibreOffice or its Python bridge is missing, or LibreOffice refused; for
``prepare``, the workbook cannot be read or the output cannot be written.
"""

from __future__ import annotations

from pathlib import Path

import click

from xlrating.cli.common import fail


def _profile_option(function):  # type: ignore[no-untyped-def]
    return click.option(
        "--profile", "profile", metavar="DIR", type=click.Path(file_okay=False, path_type=Path), default=None,
        help="LibreOffice user profile folder to use (-env:UserInstallation); default: your own.")(function)


def _soffice_option(function):  # type: ignore[no-untyped-def]
    return click.option("--soffice", "soffice", metavar="PATH", default=None,
                        help="The soffice program (default: on the PATH or where LibreOffice installs it).")(function)


def _office(soffice: str | None):  # type: ignore[no-untyped-def]
    from xlrating.hosts.libreoffice_install import OfficeMissing, find_office

    try:
        return find_office(soffice)
    except OfficeMissing as exc:
        fail(str(exc))


@click.group("libreoffice")
def libreoffice() -> None:
    """The LibreOffice Calc add-in with xlrating's functions."""


@libreoffice.command("build")
@click.option("-o", "--output", "output", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("xlrating.oxt"), show_default=True, help="Where to write the extension.")
def build(output: Path) -> None:
    """Write the add-in as a LibreOffice extension (.oxt)."""
    from xlrating.hosts.libreoffice import build_oxt

    try:
        path = build_oxt(output)
    except OSError as exc:
        fail(f"{output}: cannot write ({exc.strerror or exc})")
    click.echo(f"wrote {path}")


@libreoffice.command("install")
@_profile_option
@_soffice_option
def install(profile: Path | None, soffice: str | None) -> None:
    """Add the add-in to your LibreOffice profile (restart LibreOffice to use it)."""
    from xlrating.hosts import libreoffice_install as lo

    office = _office(soffice)
    warning = lo.import_warning(office)
    try:
        output = lo.install(office, profile)
    except (lo.OfficeMissing, lo.OfficeFailed) as exc:
        fail(f"LibreOffice did not add the extension: {exc}")
    if output:
        click.echo(output)
    if warning:
        click.echo(f"xlrating: warning: {warning}", err=True)
    click.echo(f"installed the xlrating add-in ({office.soffice}); restart LibreOffice to use its functions")


@libreoffice.command("uninstall")
@_profile_option
@_soffice_option
def uninstall(profile: Path | None, soffice: str | None) -> None:
    """Remove the add-in from your LibreOffice profile."""
    from xlrating.hosts import libreoffice_install as lo

    office = _office(soffice)
    try:
        output = lo.uninstall(office, profile)
    except (lo.OfficeMissing, lo.OfficeFailed) as exc:
        fail(f"LibreOffice did not remove the extension: {exc}")
    if output:
        click.echo(output)
    click.echo("removed the xlrating add-in")


@libreoffice.command("templates")
@click.option("-o", "--out", "out", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              default=Path("xlrating-libreoffice-templates"), show_default=True, help="Where to write them.")
def templates(out: Path) -> None:
    """Write the workbook templates for LibreOffice Calc with the add-in: the functions named as
    Calc stores them, so the templates compute as soon as they are opened."""
    from xlrating.hosts.libreoffice_templates import for_libreoffice
    from xlrating.sheets.templates import TEMPLATES, build

    for name in TEMPLATES:
        path = out / name
        try:
            out.mkdir(parents=True, exist_ok=True)
            path.write_bytes(for_libreoffice(build(name)))
        except OSError as exc:
            fail(f"{path}: cannot write ({exc.strerror or exc})")
        click.echo(f"wrote {path}")


@libreoffice.command("prepare")
@click.argument("workbook", metavar="IN", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", "output", metavar="OUT", required=True,
              type=click.Path(dir_okay=False, path_type=Path), help="Where to write the prepared copy (.xlsx/.xlsm).")
@click.option("--force", is_flag=True, help="Replace OUT if it exists.")
def prepare(workbook: Path, output: Path, force: bool) -> None:
    """Rename xlrating's functions in a workbook from Excel to the form LibreOffice 7.x reads.

    LibreOffice 7.x opens the names Excel stores (DCI_K(...), or [1]!DCI_K(...) when the function
    came from an add-in workbook) as #NAME? even with the add-in installed; it computes
    xlrating.DCI_K(...). The copy written to OUT has every call of one of xlrating's functions in
    cells, defined names, conditional formats, data validations and table columns renamed so (text
    in quotes and sheet names are left alone), a link to an add-in no formula needs any more
    removed, and every other part as it was. LibreOffice 25.2 (and Excel, through
    xlrating convert) read both forms. IN is not changed.
    """
    from xlrating.hosts.libreoffice_prepare import PrepareError
    from xlrating.hosts.libreoffice_prepare import prepare as prepare_workbook

    try:
        prepared = prepare_workbook(workbook, output, force=force)
    except PrepareError as exc:
        fail(str(exc))
    if prepared.total:
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(prepared.renamed.items()))
        click.echo(f"wrote {output}: renamed xlrating's functions in {kinds}")
    else:
        click.echo(f"wrote {output}: no function of xlrating to rename (an unchanged copy)")
    for target in prepared.links_removed:
        click.echo(f"removed the link to the add-in {target} (no formula uses it any more)")
    for target in prepared.links_kept:
        click.echo(f"kept the link to the add-in {target} (unused; other links or parts still number it)")
    for target in prepared.other_links:
        click.echo(f"xlrating: warning: formulas call xlrating's functions from the workbook {target}, which is "
                   "not an add-in: left as they are", err=True)
