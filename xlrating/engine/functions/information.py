"""Excel's information functions where the engine computes them itself (see :mod:`xlrating.engine.functions`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from formulas.functions import Array, wrap_func, wrap_ufunc
from formulas.tokens.operand import XlError


def n(value: Any) -> Any:
    """N(value): a number as it is, TRUE 1 and FALSE 0 (``formulas`` kept them as TRUE/FALSE), an
    error itself, anything else (text, empty) 0 (Microsoft's N page)."""
    first = np.asarray(value, dtype=object).ravel()[0]
    if isinstance(first, XlError):
        result: Any = first
    elif isinstance(first, (bool, np.bool_, int, float, np.integer, np.floating)):
        result = float(first)
    else:
        result = 0.0
    return np.asarray([[result]], dtype=object).view(Array)


def isnumber(value: Any) -> bool:
    """ISNUMBER(value): TRUE for a number only; a text that reads as one ("1") is FALSE, as in Excel
    (``formulas`` said TRUE)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


FUNCTIONS: dict[str, Any] = {
    "N": wrap_func(n),
    "ISNUMBER": wrap_ufunc(isnumber, input_parser=lambda *a: a, check_error=lambda *a: None, check_nan=False,
                           args_parser=lambda *a: a),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "ISNUMBER": {},
    "N": {},
}
