"""Shared pieces of the command line: exit codes, error reporting and the store location."""

from __future__ import annotations

import datetime as dt
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:
    from xlrating.gate.limits import Limits

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 2

DEFAULT_DB = "xlrating.db"
DB_ENV = "XLRATING_DB"


def fail(message: str, code: int = EXIT_UNREADABLE) -> NoReturn:
    """Print ``xlrating: error: message`` to stderr and exit with ``code`` (never a traceback)."""
    click.echo(f"xlrating: error: {message}", err=True)
    sys.exit(code)


def db_option(function):  # type: ignore[no-untyped-def]
    """The ``--db PATH_OR_URL`` option shared by every command that uses the store."""
    return click.option(
        "--db", "db", metavar="PATH_OR_URL", default=None,
        help=f"Results store: a SQLite file path or sqlite:/// URL (default: ${DB_ENV} or ./{DEFAULT_DB}).",
    )(function)


def date_option(ctx: click.Context, param: click.Parameter, value: str | None) -> dt.date | None:
    """A click callback reading a ``YYYY-MM-DD`` option into a date (a usage error otherwise)."""
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"expected a date as YYYY-MM-DD, got {value!r}") from None


def officer_limits(file: str) -> Limits | None:
    """The limits ``file`` is read with on the command line: a CSV table may be a federation's whole
    history (:meth:`Limits.for_history`); None for any other file (a workbook keeps the limits of a
    web upload). Exit 2 naming an ``XLRATING_MAX_*`` variable that is not a number."""
    from xlrating.gate.limits import Limits

    if not file.lower().endswith(".csv"):
        return None
    try:
        return Limits.for_history()
    except ValueError as exc:
        fail(str(exc))


def resolve_db(db: str | None) -> str:
    """The store location: the ``--db`` option, else ``$XLRATING_DB``, else ``./xlrating.db``."""
    return db or os.environ.get(DB_ENV) or DEFAULT_DB


class SystemChoice(click.ParamType):
    """A registered rating system's key (any case), checked against the registry when the command
    runs, so a system registered after the command line was imported is a choice too."""

    name = "system"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        from xlrating.systems import keys

        return "[" + "|".join(keys()) + "]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from xlrating.systems import UnknownSystem, get

        try:
            return get(str(value)).key
        except UnknownSystem as exc:
            self.fail(str(exc), param, ctx)


def system_option(function):  # type: ignore[no-untyped-def]
    """The ``--system`` option of ``validate`` and ``ingest``."""
    return click.option("--system", type=SystemChoice(), default=None,
                        help="What the files are, by the key of their rating system (default: judged by each "
                             "file's columns).")(function)


def table_console() -> Any:
    """A rich console for a command's tables: the terminal's width at a terminal; piped or saved,
    no screen to fit, so wide enough (200 columns) that each row stays on one line, unabridged."""
    from rich.console import Console

    out = Console()
    return out if out.is_terminal else Console(width=max(out.width, 200))
