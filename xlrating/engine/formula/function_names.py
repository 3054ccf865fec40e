"""The names functions are stored under in a formula, without loading any function table.

Which name is one of xlrating's functions (:func:`our_function`, under every prefix Excel stores an
add-in's function with) and which built-in a prefixed name is (:func:`builtin_name`): what reading
and grouping formulas needs, apart from :mod:`.registry`, which loads ``formulas``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlrating.functions import ExcelFunction

# How Excel stores a user-defined function in a cell formula: plainly (xlwings UDFs after a
# round-trip), as an unknown add-in function (``_xldudf_``), an XLL registration (``_xll.``), or
# qualified by the add-in's module name.
PREFIXES = ("", "_XLDUDF_", "_XLL.", "XLRATING.")
# Prefixes Excel adds to its own newer functions in the file format.
BUILTIN_PREFIXES = ("_XLFN._XLWS.", "_XLFN.", "_XLWS.")
# Every xlrating function is named after its rating system (a test holds the table to it), so a name
# that starts otherwise is not ours without loading the table and the rating maths behind it.
SYSTEM_PREFIXES = ("DIPPOUCH_", "DCI_", "MERS_")


def _ours_by_name(name: str) -> ExcelFunction | None:
    """``xlrating.functions.BY_NAME.get(name)`` for an upper-case name without a storage prefix."""
    if not name.startswith(SYSTEM_PREFIXES):
        return None
    from xlrating.functions import BY_NAME

    return BY_NAME.get(name)


def our_function(name: str) -> ExcelFunction | None:
    """The xlrating function stored under ``name`` (any accepted prefix), or None."""
    upper = name.upper()
    for prefix in PREFIXES:
        if prefix and upper.startswith(prefix):
            return _ours_by_name(upper[len(prefix):])
    return _ours_by_name(upper)


def builtin_name(name: str) -> str:
    """``name`` without the file-format prefixes Excel adds to newer built-in functions."""
    upper = name.upper()
    for prefix in BUILTIN_PREFIXES:
        if upper.startswith(prefix):
            return upper[len(prefix):]
    return upper
