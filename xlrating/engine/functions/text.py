"""Excel's text functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

VALUETOTEXT (Microsoft, "VALUETOTEXT function"): the text of any value. ``format`` 0 (default) is
concise, "the same as the text rendered in a cell that has general formatting applied"; 1 is
strict, text that parses back in the formula bar: text in quotes (a quote inside doubled), TRUE,
numbers and errors as they are. Any other format is #VALUE! (a fraction is truncated, as
``formulas`` does). ``formulas`` 1.3 wrote numbers with Python's ``str``: 0.1+0.2 gave
"0.30000000000000004", 1/3 "0.3333333333333333", 1E+20 a 21-digit number and 1E-05 "1e-05", where
General shows at most 15 significant digits ("0.3", "0.333333333333333", "1E+20", "1E-05"); and it
left quotes inside a strict text unescaped.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import get_error, wrap_ufunc
from formulas.tokens.operand import Error, XlError

_VALUE: XlError = Error.errors["#VALUE!"]


def _as_objects(*args: Any) -> tuple[np.ndarray, ...]:
    """Arguments as object arrays (numpy would turn errors and empty cells, ``str`` subclasses, into text)."""
    return tuple(a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object) for a in args)


def _scalar(value: Any) -> Any:
    """An array entry as a plain value (``formulas`` nests a 0-d array for ``-1`` in ``{1,-1}``)."""
    while isinstance(value, np.ndarray) and value.size == 1:
        value = value.ravel()[0]
    return value


def _general_number(number: float) -> str:
    """``number`` as Excel's General format writes it: at most 15 significant digits, scientific
    notation (``1E+20``, ``1.5E-07``) from 1E+15 up and below 1E-04, as Python's ``g`` format."""
    if not math.isfinite(number):
        return str(Error.errors["#NUM!"])
    text = f"{number:.15g}".upper()
    return "0" if text == "-0" else text


def _text(value: Any, strict: bool) -> str:
    """One value as VALUETOTEXT writes it."""
    if value is sh.EMPTY or value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, XlError):
        return str(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return _general_number(float(value))
    text = str(value)
    return '"' + text.replace('"', '""') + '"' if strict else text


def _format(value: Any) -> int | XlError:
    """VALUETOTEXT's ``format``: 0 or 1 (truncated; TRUE is 1), else #VALUE!."""
    if value is sh.EMPTY:
        return 0
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        number = math.trunc(float(value))
    except (TypeError, ValueError, OverflowError):
        return _VALUE
    return number if number in (0, 1) else _VALUE


def _valuetotext(value: Any, format_type: Any = 0) -> Any:
    """VALUETOTEXT: ``value`` as text; an error ``value`` is written out, an error ``format`` returned."""
    mode = _format(_scalar(format_type))
    if isinstance(mode, XlError):
        return mode
    return _text(_scalar(value), strict=mode == 1)


FUNCTIONS: dict[str, Any] = {
    "VALUETOTEXT": wrap_ufunc(_valuetotext, input_parser=lambda *a: a, args_parser=_as_objects,
                              check_error=lambda value, format_type=0: get_error(format_type), check_nan=False),
}
