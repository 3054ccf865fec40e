"""``xlrating lite [-o DIR]``: xlrating's functions for xlwings Lite (Excel on Windows, macOS, the web).

Writes ``main.py`` (the twelve functions, with the parts of xlrating they need carried inside) and
``requirements.txt`` into DIR, to paste into xlwings Lite's two tabs; see
:mod:`xlrating.hosts.xlwings_lite`. Exit status: 0 written; 2 DIR cannot be written.
"""

from __future__ import annotations

from pathlib import Path

import click

from xlrating.cli.common import fail


@click.command("lite")
@click.option("-o", "--output", "output", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              default=Path("xlrating-lite"), show_default=True, help="Folder to write main.py and requirements.txt to.")
def lite(output: Path) -> None:
    """Write main.py and requirements.txt for xlwings Lite."""
    from xlrating.hosts.xlwings_lite import write

    try:
        paths = write(output)
    except OSError as exc:
        fail(f"{exc.filename or output}: cannot write ({exc.strerror or exc})")
    for path in paths:
        click.echo(f"wrote {path}")
    click.echo("Paste main.py into xlwings Lite's main.py tab and requirements.txt into its requirements.txt tab.")
