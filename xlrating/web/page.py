"""The one way a public page declares what it shows: a :class:`Page` (its data, which is its JSON,
and the tables in it that the downloads hold), or a :class:`PageError` saying why there is none.

A page function ``request -> Page`` knows nothing of formats: :mod:`xlrating.web.pages` serves it as
HTML and :mod:`xlrating.web.renderers` as every registered download format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class PageError(Exception):
    status = 400
    title = "Bad request"


class BadRequest(PageError):
    """A query parameter or path part that is not what the page takes; the message names it and
    what it takes."""


class NotFound(PageError):
    status = 404
    title = "Not found"


class FormRefused(BadRequest):
    """A form's values that are not what the page takes: the visitor gets ``form`` again (a 400),
    the values given kept and each message in ``errors`` (parameter -> message) next to its field;
    the JSON is the error with ``parameters``: ``errors``."""

    def __init__(self, errors: dict[str, str], form: Page):
        super().__init__(" ".join(errors.values()))
        self.errors = errors
        self.form = form


@dataclass(frozen=True)
class Table:
    """A list of rows in :attr:`Page.data` (``data[key]``), downloadable as CSV or a sheet."""

    key: str
    title: str
    columns: tuple[str, ...]


@dataclass
class Page:
    """What a public page shows: ``data`` is the JSON (and what the template reads), ``tables``
    the lists of rows in it that the CSV (the first) and the Excel workbook (all) hold;
    ``context`` adds what only the HTML needs; ``workbook``, when given, makes the page's .xlsx
    itself (a workbook of formulas, say) instead of the tables."""

    title: str
    template: str
    data: dict[str, Any]
    tables: tuple[Table, ...] = ()
    context: dict[str, Any] = field(default_factory=dict)
    workbook: Callable[[], bytes] | None = None

    def rows(self, table: Table) -> list[dict[str, Any]]:
        return list(self.data[table.key])
