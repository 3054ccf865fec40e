"""Excel's ROUND, ROUNDUP and ROUNDDOWN, shared by the fast path and the cell-by-cell path.

Excel rounds the number *as it shows it*: the double reduced to 15 significant digits, then
rounded in decimal. So ``ROUND(1.005, 2)`` is 1.01 although the double 1.005 lies just below
1.005, and ``ROUNDDOWN(4.35, 2)`` stays 4.35 although ``4.35 * 100`` is 434.99999999999994.
(Microsoft documents ROUND as rounding half away from zero, ROUNDUP away from zero and ROUNDDOWN
towards zero; the 15 digits are Excel's documented precision.) LibreOffice does the same.
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Decimal

import numpy as np

# Excel's rounding mode per function: Decimal's ROUND_HALF_UP/ROUND_UP/ROUND_DOWN work on the
# magnitude, i.e. half away from zero / away from zero / towards zero, as Excel's do.
MODES = {"ROUND": ROUND_HALF_UP, "ROUNDUP": ROUND_UP, "ROUNDDOWN": ROUND_DOWN}

_SIGNIFICANT = 15  # the digits Excel keeps of a number
_SMALLEST = -400  # fewer digits than this rounds every double to 0


def excel_round(number: float, digits: float, mode: str = ROUND_HALF_UP) -> float:
    """``number`` rounded to ``digits`` decimals (negative: to tens, hundreds ...) as Excel does.

    ``digits`` is truncated towards zero, as Excel truncates it (``ROUND(x, 1.9)`` = ``ROUND(x, 1)``).
    """
    if not math.isfinite(number) or number == 0:
        return number
    places = max(int(digits), _SMALLEST)
    shown = Decimal(format(number, f".{_SIGNIFICANT}g"))
    if shown.as_tuple().exponent >= -places:  # already no finer than asked: nothing to round
        return float(shown)
    return float(shown.quantize(Decimal(1).scaleb(-places), rounding=mode)) + 0.0  # no -0.0


# Below this magnitude of ``number * 10**digits`` the scaled number and its integer part are exact
# enough in binary for the shortcut of :func:`round_many` (far from the 2**53 where integers end)
_SCALED_LIMIT = 1e15
# A scaled number within this much (relative) of where the rounding changes (a half for ROUND, a
# whole for ROUNDUP and ROUNDDOWN) is rounded in decimal: the 15 digits Excel shows may lie on the
# other side (1.005 is shown 1.005 but held as 1.00499999999999989...)
_MARGIN = 1e-9


def round_many(numbers: np.ndarray, digits: float, mode: str = ROUND_HALF_UP) -> np.ndarray:
    """:func:`excel_round` over an array, equal to it element by element.

    Where the number scaled by ``10**digits`` is clearly away from where its rounding changes, the
    decimal rounding of its 15 digits and the binary rounding of the scaled double agree on the
    integer, and that integer over ``10**digits`` is then the double nearest the decimal result
    (both exact, one correctly rounded division); only the other numbers (near a half, huge,
    infinite) are rounded in decimal one by one."""
    places = max(int(digits), _SMALLEST) if math.isfinite(digits) else _SMALLEST
    values = np.asarray(numbers, dtype=np.float64)
    if not len(values) or abs(places) > 22:
        return np.fromiter((excel_round(x, digits, mode) for x in values.tolist()), np.float64, len(values))
    scale = 10.0 ** abs(places)
    with np.errstate(all="ignore"):
        scaled = np.abs(values) * scale if places >= 0 else np.abs(values) / scale
        whole = np.floor(scaled)
        part = scaled - whole
        edge = 0.5 if mode == ROUND_HALF_UP else 0.0
        distance = np.abs(part - edge) if edge else np.minimum(part, 1.0 - part)
        sure = np.isfinite(scaled) & (scaled < _SCALED_LIMIT) & (distance > _MARGIN * np.maximum(scaled, 1.0))
        if mode == ROUND_HALF_UP:
            integer = whole + (part > 0.5)
        elif mode == ROUND_UP:
            integer = whole + (part > 0.0)
        else:
            integer = whole
        result = np.copysign(integer / scale if places >= 0 else integer * scale, values) + 0.0
    result[values == 0] = values[values == 0]
    for i in np.flatnonzero(~sure & (values != 0)).tolist():
        result[i] = excel_round(float(values[i]), digits, mode)
    return result
