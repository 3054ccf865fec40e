"""The ``xlrating`` command line: a thin layer over the package.

Each command lives in its own module under ``xlrating.cli`` and is imported only when run, so
``xlrating --help`` stays fast. Exit status: 0 success, 1 invalid input found (validate, ingest,
convert with failures), 2 unreadable input or bad usage.
"""

from __future__ import annotations

import gc
import importlib
from typing import Any

import click

# command name -> (module under xlrating.cli, attribute, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "functions": ("functions", "functions", "List the Excel functions with their arguments."),
    "rank": ("rank", "rank", "Compute a leaderboard from result files or the store."),
    "explain": ("explain", "explain", "How one player's rating comes about: every result, and a workbook that recomputes it."),
    "quotas": ("quotas", "quotas", "Championship quotas: each EMA country's seats from the MERS ranking, step by step."),
    "whatif": ("whatif", "whatif", "What if a MERS player finishes K-th of N: the new total and place; the ranking under each era."),
    "validate": ("validate", "validate", "Check submitted results (EMA sheets, Dip Pouch and DCI tables); every problem at its cell."),
    "ingest": ("ingest", "ingest", "Validate, then store submitted results (EMA sheets, Dip Pouch and DCI tables)."),
    "import": ("import_file", "import_file", "Turn a file that tournament software or a federation writes into an xlrating table; every problem at its place."),
    "export": ("export_file", "export_file", "Write a stored event as the file a federation takes."),
    "convert": ("convert", "convert", "Recalculate workbooks headlessly, xlrating functions included."),
    "templates": ("templates", "templates", "(Re)build the templates, the VBA modules and the add-in sources."),
    "demo": ("demo", "demo", "Run the validate -> ingest -> rank pipeline on the bundled examples."),
    "libreoffice": ("libreoffice", "libreoffice", "Build, install or uninstall the LibreOffice Calc add-in; templates for Calc."),
    "lite": ("lite", "lite", "Write main.py and requirements.txt for xlwings Lite (Excel on Mac and the web)."),
    "serve": ("serve", "serve", "The web intake: organisers check and submit sheets, the officer accepts them, rankings."),
    "players": ("players", "players", "The register of players: merge, split, country, homonyms; logged and undoable."),
}


class LazyGroup(click.Group):
    """A click group that imports a command's module only when that command runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module_name, attribute, _ = COMMANDS[name]
        module = importlib.import_module(f"xlrating.cli.{module_name}")
        command: click.Command = getattr(module, attribute)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xlrating")
def main() -> None:
    """xlrating: tournament ratings (Dip Pouch, DCI, MERS) for spreadsheets.

    Every command, option, Excel function and table: docs/interfaces.md; the rating rules and their
    sources: docs/rating-rules.md (in the source repository).
    """


def entry() -> None:
    """The ``xlrating`` console script: :func:`main` in a process that ends with the command.

    When it ends, the objects still alive (the modules of numpy and formulas, a workbook's model:
    tens of thousands) are frozen out of the cyclic collector, so that the interpreter's final
    collections do not walk them one last time on the way out (30-100 ms of every conversion).
    Exit handlers still run and files are still closed; embedders and tests call :func:`main`.
    """
    try:
        main(prog_name="xlrating")
    finally:
        gc.freeze()


def run(*args: Any) -> None:  # pragma: no cover - convenience for python -m
    main(*args)
