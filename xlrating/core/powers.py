"""``x ** y`` one value at a time, by Python's float power, for every path that must agree.

Two computations of the same rating (the column engine and the record-by-record replay of
the replay modules, :mod:`xlrating.core.mers.replay` and its siblings; the formula engine's vectorised path and its cell-by-cell path)
must give the same double. ``+ - * /``, ``sqrt``, comparisons, ``floor`` and sums taken in a fixed
order are correctly rounded by IEEE 754, so numpy's vector loops and Python's scalars agree on them
on every machine. A power is not: numpy evaluates ``array ** y`` with SIMD routines chosen by the
processor (on an AVX-512 machine about 5% of ``10.0 ** x`` differ by one unit in the last place
from the C library's ``pow``, which Python's ``float ** float`` calls; ``10.0 ** -5`` is one of
them), and ``array ** 2`` is computed as ``x * x``, which can differ from ``pow(x, 2)`` too.

So every power that a second path must reproduce is taken here, element by element, by
:func:`power` (Python's ``float ** float``), and only the exact arithmetic around it is vectorised:

- On one machine, both paths give bit-identical results, whatever the processor or numpy build.
- Across machines, a power may differ in the last place where the C library's ``pow`` differs
  (glibc, macOS and Windows have their own; glibc picks an FMA variant on processors with FMA).
  Results that go through a power are promised to within a few units in the last place across
  machines, not bit for bit; everything computed with ``+ - * /`` alone is bit for bit.

:func:`powers` needs numpy; :func:`power` does not (LibreOffice's own Python has no numpy).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterable
from typing import Any

# float ** float: the one scalar power both paths take (a test substitutes it to prove that they do)
_float_power: Callable[[float, float], Any] = operator.pow


def power(base: float, exponent: float) -> float:
    """``base ** exponent`` as Python's float power computes it (the C library's ``pow``), with
    IEEE 754's answer where Python raises or goes complex: ``±inf`` on overflow and for ``0`` to a
    negative power, ``nan`` for a negative base to a non-integer power."""
    try:
        result = _float_power(base, exponent)
    except (OverflowError, ZeroDivisionError):
        odd = math.isfinite(exponent) and exponent % 2.0 == 1.0
        return -math.inf if odd and math.copysign(1.0, base) < 0 else math.inf
    return result if isinstance(result, float) else math.nan


def powers(base: Any, exponent: Any) -> Any:
    """:func:`power` of every pair of ``base`` and ``exponent`` (numbers or numpy arrays, broadcast
    together): a float64 array of the shape they broadcast to, each entry the double
    :func:`power` gives for it. numpy's own power (``np.power``, ``**`` on arrays) is never used."""
    import numpy as np

    if isinstance(base, (int, float)):  # one base (10 ** x): no array of copies of it
        e = np.asarray(exponent, dtype=np.float64)
        shape, exponents = e.shape, e.ravel().tolist()
        bases: Iterable[float] = itertools.repeat(float(base), len(exponents))
    else:
        b, e = np.broadcast_arrays(np.asarray(base, dtype=np.float64), np.asarray(exponent, dtype=np.float64))
        shape, bases, exponents = b.shape, b.ravel().tolist(), e.ravel().tolist()
    try:  # map calls float ** float without a Python frame per entry
        flat = np.fromiter(map(_float_power, bases, exponents), dtype=np.float64, count=len(exponents))
    except (ArithmeticError, TypeError):  # an overflow, 0 ** -1, or a complex result somewhere
        if not isinstance(bases, list):
            bases = itertools.repeat(float(base), len(exponents))
        flat = np.fromiter(map(power, bases, exponents), dtype=np.float64, count=len(exponents))
    result: Any = flat.reshape(shape)
    return result
