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


def round_many(numbers: np.ndarray, digits: float, mode: str = ROUND_HALF_UP) -> np.ndarray:
    """:func:`excel_round` over an array (Python per element: rounding is in decimal)."""
    return np.fromiter((excel_round(x, digits, mode) for x in numbers.tolist()), np.float64, len(numbers))
