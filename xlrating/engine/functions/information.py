"""Excel's information functions where the engine computes them itself (see :mod:`xlrating.engine.functions`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import XlError


def n(value: Any) -> Any:
    """N(value): a number as it is, TRUE 1 and FALSE 0 (``formulas`` kept them as TRUE/FALSE), an
    error itself, anything else (text, empty) 0 (Microsoft's N page)."""
    first = np.asarray(value, dtype=object).ravel()[0]
    if isinstance(first, XlError):
        result: Any = first
    elif isinstance(first, (bool, np.bool_)):
        result = float(first)
    elif isinstance(first, (int, float, np.integer, np.floating)):
        result = float(first)
    else:
        result = 0.0
    return np.asarray([[result]], dtype=object).view(Array)


FUNCTIONS: dict[str, Any] = {"N": wrap_func(n)}
