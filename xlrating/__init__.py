"""xlrating: tournament rating systems for spreadsheets.

The rating maths lives in :mod:`xlrating.core`; the three systems are re-exported here so that
``from xlrating import dippouch, dci, mers`` works. They are imported on first use, so that the
command line starts without loading numpy for commands that do not need it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["dci", "dippouch", "mers"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in __all__:
        return importlib.import_module(f"xlrating.core.{name}")
    raise AttributeError(f"module 'xlrating' has no attribute {name!r}")
