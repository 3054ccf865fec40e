"""Excel's text functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

Numbers turned into text. Wherever Excel needs the text of a number (the ``&`` operator,
CONCATENATE, CONCAT, TEXTJOIN, LEN, LEFT, RIGHT, MID, REPT, FIND, SEARCH, EXACT, SUBSTITUTE,
REPLACE, UPPER, LOWER, PROPER, TRIM, CLEAN, VALUETOTEXT) it writes it as :func:`number_text` does,
TRUE and FALSE as "TRUE" and "FALSE". ``formulas`` 1.3 wrote whole numbers with ``%d`` and the
others with Python's ``str``: 0.1+0.2 gave "0.30000000000000004", 1/3 "0.3333333333333333",
1E+20 a 21-digit number and 1E-05 "1e-05" (so LEN(0.1+0.2) was 19, not 3), and SEARCH looked
into "10.0" for the number 10. Here those functions are ``formulas``' own, given the arguments
that are text to Excel (not LEFT's ``num_chars`` nor TEXTJOIN's ``ignore_empty``) already
written as Excel writes them; nothing else about them changes.

VALUETOTEXT (Microsoft, "VALUETOTEXT function"): the text of any value. ``format`` 0 (default) is
concise, "the same as the text rendered in a cell that has general formatting applied"; 1 is
strict, text that parses back in the formula bar: text in quotes (a quote inside doubled), TRUE,
numbers and errors as they are. Any other format is #VALUE! (a fraction is truncated, as
``formulas`` does). ``formulas`` left quotes inside a strict text unescaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import RangeValueError
from formulas.functions import get_error, parse_ranges, wrap_ufunc
from formulas.functions import text as formulas_text
from formulas.tokens.operand import Error, XlError

_VALUE: XlError = Error.errors["#VALUE!"]
_NUM: XlError = Error.errors["#NUM!"]

# --- numbers as text --------------------------------------------------------------------------------

TEXT_WIDTH = 20  # the most characters (sign aside) a number is written with in decimal notation
_SMALLEST_NORMAL = 2.2250738585072014e-308


def number_text(number: float, width: int = TEXT_WIDTH) -> str:
    """``number`` as Excel writes it when it turns a number into text (``=A1&""``, CONCATENATE,
    LEN ...): the number as a General cell shows it when the column is wide enough.

    The rule (Apache POI's ``NumberToTextConverter`` documents it with the texts Excel produced for
    some fifty doubles; the examples below are among them):

    - the number is rounded to 15 significant digits, half away from zero, from its exact binary
      value (14 digits when its decimal exponent is 99 or more in absolute value, the exponent
      then taking three characters); trailing zeros are dropped: 0.1+0.2 -> "0.3",
      1/3 -> "0.333333333333333", 123.45678901234568 -> "123.456789012346",
      999999.9999999999 -> "1000000";
    - it is written in decimal notation when that takes at most ``width`` (20) characters, sign
      aside: 1.2345678901234567E19 -> "12345678901234600000", 123456789012345678 ->
      "123456789012346000", 1E-05 -> "0.00001", 1E-10 -> "0.0000000001",
      1.2345678901234567E-4 -> "0.000123456789012346" (exactly 20), 1E-18 ->
      "0.000000000000000001";
    - otherwise in scientific notation, the mantissa's digits, ``E``, the exponent's sign and at
      least two digits: 1E+20 -> "1E+20", 1.2345678901234568E20 -> "1.23456789012346E+20",
      1.2345678901234568E-5 -> "1.23456789012346E-05" (21 characters in decimal), 1E-19 -> "1E-19",
      1.7976931348623157E308 -> "1.7976931348623E+308";
    - zero, -0 and the denormal numbers (below 2.2250738585072014E-308) are "0".

    Not the 11-character cell of a default column (that shows 123456789012 as 1.23457E+11), nor
    Python's ``g`` format (which switches to 1e-05 from 1E-05 down and to 1e+15 from 1E+15 up).
    Raises ValueError for an infinity or a nan, which Excel never holds.
    """
    if not math.isfinite(number):
        raise ValueError(f"{number} has no text in Excel")
    magnitude = abs(number)
    if magnitude < _SMALLEST_NORMAL:
        return "0"
    exact = Decimal(magnitude)
    exponent = exact.adjusted()
    significant = 14 if abs(exponent) >= 99 else 15
    rounded = exact.quantize(Decimal(1).scaleb(exponent - significant + 1), rounding=ROUND_HALF_UP)
    digits = "".join(map(str, rounded.as_tuple().digits)).rstrip("0")
    exponent = rounded.adjusted()  # one more when rounding carried (9.99...95 -> 10)
    if exponent >= 0:
        whole = exponent + 1
        decimal = digits.ljust(whole, "0") if len(digits) <= whole else f"{digits[:whole]}.{digits[whole:]}"
    else:
        decimal = "0." + "0" * (-exponent - 1) + digits
    if len(decimal) <= width:
        text = decimal
    else:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        text = f"{mantissa}E{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"
    return "-" + text if number < 0 else text


def _scalar(value: Any) -> Any:
    """An array entry as a plain value (``formulas`` nests a 0-d array for ``-1`` in ``{1,-1}``)."""
    while isinstance(value, np.ndarray) and value.size == 1:
        value = value.ravel()[0]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def value_text(value: Any) -> Any:
    """A scalar as the text Excel makes of it: a number by :func:`number_text`, TRUE/FALSE in capitals;
    text, errors and empty cells (``formulas``' EMPTY) are returned as they are."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if _is_number(value):
        try:
            return number_text(float(value))
        except ValueError:
            return _NUM
    return value


def _texts(value: Any) -> Any:
    """An argument with every number and logical value in it (a scalar or each entry of an array)
    turned into text as Excel does; anything else is kept, as is the array's class."""
    if isinstance(value, np.ndarray) and value.ndim:
        converted = np.empty(value.shape, dtype=object)
        converted.flat = [value_text(v) for v in value.flat]
        return converted.view(type(value))
    return value_text(value)


def with_text_arguments(implementation: Callable[..., Any], is_text: Callable[[int], bool]) -> Any:
    """``implementation`` (``formulas``' own) called with its arguments at the positions ``is_text``
    accepts (0 is the first) holding numbers and logical values written as Excel writes them."""

    def call(*args: Any) -> Any:
        try:
            values, _ = parse_ranges(*args)  # references arrive as formulas' Ranges
        except RangeValueError:
            return implementation(*args)  # formulas' answer to a reference it cannot read
        return implementation(*(_texts(a) if is_text(i) else a for i, a in enumerate(values)))

    call.__name__ = getattr(implementation, "__name__", "text_function")
    return call


def _positions(*positions: int) -> Callable[[int], bool]:
    return frozenset(positions).__contains__


# Excel's text functions -> which of their arguments are text (LEFT's num_chars, TEXTJOIN's
# ignore_empty, FIND's start_num ... are numbers); the B twins count bytes the same way here.
_TEXT_ARGUMENTS: dict[str, Callable[[int], bool]] = {
    "CONCATENATE": lambda _: True, "CONCAT": lambda _: True, "TEXTJOIN": lambda position: position != 1,
    **dict.fromkeys(("LEN", "LENB", "LEFT", "LEFTB", "RIGHT", "RIGHTB", "MID", "MIDB", "REPT",
                     "UPPER", "LOWER", "PROPER", "TRIM", "CLEAN"), _positions(0)),
    **dict.fromkeys(("FIND", "FINDB", "SEARCH", "SEARCHB", "EXACT"), _positions(0, 1)),
    "SUBSTITUTE": _positions(0, 1, 2), "REPLACE": _positions(0, 3), "REPLACEB": _positions(0, 3),
}


def _text_functions() -> dict[str, Any]:
    builtin = formulas_text.FUNCTIONS
    return {name: with_text_arguments(builtin[name], is_text) for name, is_text in _TEXT_ARGUMENTS.items()}


# --- VALUETOTEXT ------------------------------------------------------------------------------------

def _as_objects(*args: Any) -> tuple[np.ndarray, ...]:
    """Arguments as object arrays (numpy would turn errors and empty cells, ``str`` subclasses, into text)."""
    return tuple(a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object) for a in args)


def _text(value: Any, strict: bool) -> str:
    """One value as VALUETOTEXT writes it."""
    if value is sh.EMPTY or value is None:
        return ""
    if isinstance(value, XlError):
        return str(value)
    if isinstance(value, (bool, np.bool_)) or _is_number(value):
        return str(value_text(value))  # #NUM! for an infinity
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
    **_text_functions(),
}
