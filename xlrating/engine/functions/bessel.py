"""The modified Bessel functions of BESSELI and BESSELK, computed as Excel computes them.

Excel's values are those of the polynomial approximations of Abramowitz and Stegun's *Handbook of
Mathematical Functions* (1964), 9.8.1-9.8.8, exact to about 1e-7, not the functions themselves:
BESSELI(1, 0) is 1.2660658480342601 where I0(1) is 1.2660658777520082. The workbooks Excel saved
(IronCalc's ENGINEERING_BESSEL, formulas' test.xlsx) hold exactly these polynomials' values, bit
for bit for the orders 0 and 1; higher orders follow from them:

- I_n, n >= 2: the downward recurrence I_{k-1} = I_{k+1} + (2k/x) I_k (Miller's method, started far
  enough above n and x that the start does not show), scaled so that its I_0 is 9.8.1/9.8.2's;
- K_n, n >= 2: the upward recurrence K_{k+1} = K_{k-1} + (2k/x) K_k from 9.8.5-9.8.8's K_0 and K_1.

Pure Python, no scipy (``formulas`` loaded scipy.special for them, and its exact values differed
from Excel's in the eighth digit).
"""

from __future__ import annotations

import math

# Abramowitz and Stegun 9.8.1-9.8.8: coefficients, lowest power first
_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813)
_I0_LARGE = (0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706, 0.02635537,
             -0.01647633, 0.00392377)
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411)
_I1_LARGE = (0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967, -0.02895312,
             0.01787654, -0.00420059)
_K0_SMALL = (-0.57721566, 0.42278420, 0.23069756, 0.03488590, 0.00262698, 0.00010750, 0.00000740)
_K0_LARGE = (1.25331414, -0.07832358, 0.02189568, -0.01062446, 0.00587872, -0.00251540, 0.00053208)
_K1_SMALL = (1.0, 0.15443144, -0.67278579, -0.18156897, -0.01919402, -0.00110404, -0.00004686)
_K1_LARGE = (1.25331414, 0.23498619, -0.03655620, 0.01504268, -0.00780353, 0.00325614, -0.00068245)
_RESCALE = 1e10  # the recurrence's values are scaled down past this, to stay within the doubles


def _poly(t: float, coefficients: tuple[float, ...]) -> float:
    total = 0.0
    for c in reversed(coefficients):
        total = total * t + c
    return total


def _i0(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        return _poly((x / 3.75) ** 2, _I0_SMALL)
    return math.exp(ax) / math.sqrt(ax) * _poly(3.75 / ax, _I0_LARGE)


def _i1(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        return x * _poly((x / 3.75) ** 2, _I1_SMALL)
    value = math.exp(ax) / math.sqrt(ax) * _poly(3.75 / ax, _I1_LARGE)
    return -value if x < 0 else value


def _k0(x: float) -> float:
    if x <= 2:
        return -math.log(x / 2) * _i0(x) + _poly(x * x / 4, _K0_SMALL)
    return math.exp(-x) / math.sqrt(x) * _poly(2 / x, _K0_LARGE)


def _k1(x: float) -> float:
    if x <= 2:
        return math.log(x / 2) * _i1(x) + (1 / x) * _poly(x * x / 4, _K1_SMALL)
    return math.exp(-x) / math.sqrt(x) * _poly(2 / x, _K1_LARGE)


def bessel_i(x: float, n: int) -> float:
    """I_n(x) for a whole n >= 0 (OverflowError past the doubles)."""
    if n == 0:
        return _i0(x)
    if n == 1:
        return _i1(x)
    if x == 0:
        return 0.0
    twice_over_x = 2 / abs(x)
    above, current, found = 0.0, 1.0, 0.0
    for k in range(2 * (n + int(abs(x)) + 40), 0, -1):
        above, current = current, above + k * twice_over_x * current
        if abs(current) > _RESCALE:
            found, current, above = found / _RESCALE, current / _RESCALE, above / _RESCALE
        if k == n:
            found = above
    value = found * _i0(x) / current
    return -value if x < 0 and n % 2 else value


def bessel_k(x: float, n: int) -> float:
    """K_n(x) for x > 0 and a whole n >= 0 (OverflowError past the doubles)."""
    below, current = _k0(x), _k1(x)
    if n == 0:
        return below
    for k in range(1, n):
        below, current = current, below + k * (2 / x) * current
    return current
