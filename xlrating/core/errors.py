"""Typed errors of the rating core.

Every error names the argument (or table cell) at fault, what was expected and what was received,
so a host can show it verbatim: a CLI prints it, an Excel host turns it into an error value.
"""

from __future__ import annotations

from typing import Any


class RatingError(Exception):
    """Base class of every error raised by xlrating's rating core."""


class InvalidArgument(RatingError, ValueError):
    """A function argument is outside what the rules allow.

    ``excel_error`` is the Excel error value a spreadsheet host should show: ``#VALUE!`` for the
    wrong kind of value, ``#NUM!`` for a number outside its range.
    """

    def __init__(self, argument: str, expected: str, received: Any, *, excel_error: str = "#VALUE!",
                 note: str | None = None):
        self.argument = argument
        self.expected = expected
        self.received = received
        self.excel_error = excel_error
        self.note = note  # why the value received is refused, when "expected" alone does not say
        super().__init__(f"{argument}: expected {expected}, got {received!r}" + (f", {note}" if note else ""))


class AmbiguousDate(InvalidArgument):
    """A date written with slashes (``01/02/2009``), which is refused because its day and month
    could be either way round; ``readings`` are the real dates it could be, day first."""

    def __init__(self, argument: str, expected: str, received: Any, *, why: str, readings: tuple[Any, ...]):
        super().__init__(argument, expected, received, note=f"which is ambiguous: {why}")
        self.why = why
        self.readings = readings


class TableError(RatingError, ValueError):
    """A cell of a result table is missing or malformed.

    ``row`` is the 1-based row number counting the header as row 1, the way a spreadsheet or a
    text editor shows the row; ``column`` is the header name.
    """

    def __init__(self, row: int | None, column: str | None, expected: str, received: Any = None, *,
                 note: str | None = None):
        self.row = row
        self.column = column
        self.expected = expected
        self.received = received
        self.note = note  # why the value received is refused, when "expected" alone does not say
        where = []
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        prefix = ", ".join(where)
        got = ("" if received is None else f", got {received!r}") + (f", {note}" if note else "")
        super().__init__(f"{prefix}: expected {expected}{got}" if prefix else f"expected {expected}{got}")

    def with_source(self, source: str) -> TableError:
        """Return the same error with the file (or sheet) it came from named first."""
        err = TableError(self.row, self.column, self.expected, self.received, note=self.note)
        err.args = (f"{source}: {self}",)
        return err


class NotRanked(RatingError):
    """A player has fewer counted results than the ranking requires (Excel shows ``#N/A``)."""

    def __init__(self, counted: int, required: int):
        self.counted = counted
        self.required = required
        super().__init__(f"not ranked: {counted} counted result(s), at least {required} required")
