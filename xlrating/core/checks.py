"""Argument checks shared by every rating system, written once.

Each check returns the value in its canonical Python type or raises
:class:`~xlrating.core.errors.InvalidArgument` naming the argument, the expectation and the value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from xlrating.core.errors import InvalidArgument


def number(name: str, value: Any, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A finite real number, optionally within ``[minimum, maximum]``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(name, "a number", value)
    result = float(value)
    if not math.isfinite(result):
        raise InvalidArgument(name, "a finite number", value, excel_error="#NUM!")
    if minimum is not None and result < minimum:
        raise InvalidArgument(name, f"a number >= {minimum:g}", value, excel_error="#NUM!")
    if maximum is not None and result > maximum:
        raise InvalidArgument(name, f"a number <= {maximum:g}", value, excel_error="#NUM!")
    return result


def whole(name: str, value: Any, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number (``3`` or ``3.0``, never ``3.5`` or ``True``), optionally within bounds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(name, "a whole number", value)
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise InvalidArgument(name, "a whole number", value, excel_error="#NUM!")
    result = int(value)
    if minimum is not None and result < minimum:
        raise InvalidArgument(name, f"a whole number >= {minimum}", value, excel_error="#NUM!")
    if maximum is not None and result > maximum:
        raise InvalidArgument(name, f"a whole number <= {maximum}", value, excel_error="#NUM!")
    return result


# Words result sheets use for yes/no, in the languages of EMA submitters ("X" is a ticked box).
YES_WORDS = frozenset({"TRUE", "YES", "Y", "1", "X", "JA", "OUI", "SI"})
NO_WORDS = frozenset({"FALSE", "NO", "N", "0", "", "NEIN", "NON"})


def flag(name: str, value: Any) -> bool:
    """A yes/no value: ``True``/``False``, 1/0 or a word of :data:`YES_WORDS`/:data:`NO_WORDS`."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().upper()
        if word in YES_WORDS:
            return True
        if word in NO_WORDS:
            return False
    raise InvalidArgument(name, "TRUE or FALSE", value)


def choice(name: str, value: Any, options: Iterable[str]) -> str:
    """One of ``options``, matched case-insensitively; returns the canonical spelling."""
    allowed = list(options)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # Excel users type 2018 for the rules era; accept the number for a textual option.
        value = str(int(value)) if float(value).is_integer() else str(value)
    if isinstance(value, str):
        wanted = value.strip().lower()
        for option in allowed:
            if option.lower() == wanted:
                return option
    raise InvalidArgument(name, "one of " + ", ".join(repr(o) for o in allowed), value)


def place(name: str, value: Any, players: int) -> int:
    """A placement: a whole number from 1 (best) to the declared number of players."""
    return whole(name, value, minimum=1, maximum=players)
