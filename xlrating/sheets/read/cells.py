"""Reading typed values out of submitted cells, the lenient way submitters type them.

Each reader returns the value in its Python type or :data:`INVALID` when the cell cannot be read
as that type (the caller turns that into a finding); an empty cell is ``None``.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
import re
from typing import Any, Final

from openpyxl.utils import get_column_letter

from xlrating.core import checks
from xlrating.core.dates import from_excel_serial
from xlrating.core.errors import InvalidArgument
from xlrating.core.tables import is_blank


class _Invalid(enum.Enum):
    """The one value of a cell that could not be read as asked (an enum, so ``is INVALID`` narrows)."""

    INVALID = "INVALID"

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Final = _Invalid.INVALID


def a1(row: int, column: int) -> str:
    """``(3, 2)`` -> ``"B3"``."""
    return f"{get_column_letter(column)}{row}"


# An empty cell: None or blank text (or NaN, which some readers give for an empty cell).
is_empty = is_blank


def position(cell: str) -> tuple[int, int]:
    """``"C12"`` -> (12, 3): the row and column of an A1 reference (0, 0 when it is none)."""
    letters = cell.rstrip("0123456789")
    if not letters.isalpha() or not cell[len(letters):].isdigit():
        return 0, 0
    column = 0
    for letter in letters.upper():
        column = column * 26 + ord(letter) - 64
    return int(cell[len(letters):]), column


def text(value: Any) -> str | None:
    """A cell as stripped text (numbers as their shortest form); None when empty."""
    if is_empty(value):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def whole(value: Any) -> int | None | _Invalid:
    """A whole number: ``3``, ``3.0`` or the text ``"3"``; never ``3.5``, ``True`` or ``"3="``."""
    if is_empty(value):
        return None
    if isinstance(value, bool):
        return INVALID
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else INVALID
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        return int(value)
    return INVALID


def number(value: Any) -> float | None | _Invalid:
    """A number, or a text number with a decimal point or comma (``"12,5"``)."""
    if is_empty(value):
        return None
    if isinstance(value, bool):
        return INVALID
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else INVALID
    if isinstance(value, str):
        candidate = value.strip().replace(",", ".")
        if re.fullmatch(r"[-+]?\d+(\.\d*)?", candidate):
            return float(candidate)
    return INVALID


_DMY = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4})")


def date(value: Any) -> dt.date | None | _Invalid:
    """A date cell, an ISO ``YYYY-MM-DD`` text, a European ``DD.MM.YYYY`` / ``DD/MM/YYYY`` text
    or an Excel serial number; ``"2024-02-30"`` is INVALID (not a real date)."""
    if is_empty(value):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # A plausible serial (1954..2119); anything else is a mistyped number.
        if math.isfinite(value) and 20000 <= value <= 80000:
            return from_excel_serial(value)
        return INVALID
    if isinstance(value, str):
        candidate = value.strip()
        try:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", candidate):
                return dt.date.fromisoformat(candidate)
            match = _DMY.fullmatch(candidate)
            if match:
                day, month, year = (int(g) for g in match.groups())
                return dt.date(year, month, day)
        except ValueError:
            return INVALID
    return INVALID


def flag(value: Any) -> bool | None | _Invalid:
    """Yes/no as :func:`xlrating.core.checks.flag` reads it (TRUE/FALSE, 1/0, Yes/No, X ...)."""
    if is_empty(value):
        return None
    try:
        return checks.flag("flag", value)
    except InvalidArgument:
        return INVALID


