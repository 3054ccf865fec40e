"""Pure rating maths: no spreadsheet, file or network access; stdlib and numpy only.

The three systems load on first use (``from xlrating.core import mers`` or ``xlrating.core.mers``),
so that a module needing only the shared pieces (dates, errors) does not load all of them.
"""

from __future__ import annotations

import importlib
from typing import Any

from xlrating.core.errors import InvalidArgument, NotRanked, RatingError, TableError

__all__ = ["InvalidArgument", "NotRanked", "RatingError", "TableError", "dci", "dippouch", "mers"]
_SYSTEMS = ("dci", "dippouch", "mers")


def __getattr__(name: str) -> Any:
    if name in _SYSTEMS:
        return importlib.import_module(f"xlrating.core.{name}")
    raise AttributeError(f"module 'xlrating.core' has no attribute {name!r}")
