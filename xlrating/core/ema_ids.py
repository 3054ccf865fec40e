"""EMA IDs ("EMA numbers"): eight digits kept as text, the first two naming the member country.

Spreadsheets often store them as numbers, which drops the leading zero (04060059 becomes
4060059). That is reported with the repaired ID, never silently accepted or silently changed.
Players from outside the EMA have no ID: an empty cell or "-".
"""

from __future__ import annotations

import math
from typing import Any

from xlrating.core.errors import InvalidArgument

DIGITS = 8
NO_ID = frozenset({"", "-"})


def repaired(value: Any) -> str | None:
    """The 8-digit text that ``value`` stands for when it is an ID that lost leading zeros (a
    number under 10,000,000, or digits short of 8), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return f"{value:0{DIGITS}d}" if 0 <= value < 10 ** (DIGITS - 1) else None
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < DIGITS:
        return value.strip().zfill(DIGITS)
    return None


def player_id(name: str, value: Any) -> str | None:
    """A player key from a results table: an EMA ID as 8-digit text (or another text key, such
    as a name), None for a player without an ID. An ID that lost its leading zero is an error
    naming the repaired ID."""
    fixed = repaired(value)
    if fixed is not None:
        raise InvalidArgument(name, f"an EMA ID as 8-digit text: {value!r} has lost its leading zero, "
                              f"it should read '{fixed}' (format the column as Text)", value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) == DIGITS:
        return str(value)  # all eight digits are there: the same ID, stored as a number
    if not isinstance(value, str):
        raise InvalidArgument(name, "a player (an EMA ID as 8-digit text)", value)
    text = value.strip()
    return None if text in NO_ID else text
