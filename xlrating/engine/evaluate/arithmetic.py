"""Excel's arithmetic where ``formulas``' own operators differ: ``^`` on the cell-by-cell path (the
same double as the vectorised path), the double negation ``--``, and the size of what an operator
makes of two arrays.

**The power** ``^``.

``formulas`` computed ``x ** y`` with Python's own operator: ``0^0`` was 1, ``0^-1`` #VALUE!
(Python's ZeroDivisionError), ``10^400`` #VALUE! (OverflowError) and ``(-8)^(1/3)`` a complex
number, written to the cell as text. Excel's results (Microsoft's "Calculation operators" page and
what Excel shows):

- ``0^0`` is #NUM!, ``0`` to a negative power #DIV/0!;
- a negative base to a power that is not a whole number is #NUM! (``(-8)^(1/3)``, Excel takes no
  odd roots through ``^``), a whole power of a negative base is computed (``(-2)^3`` is -8);
- a result past the largest double is #NUM!;
- an operand's error is the result (the base's first), text that reads as a number is that number,
  other text #VALUE!, an empty cell 0, TRUE 1 (text as :func:`..maths.text_numbers.read_number`
  reads it, as for every operator: "$1,000", "10%", "12:00", "1/15/2024").

The power itself is :func:`xlrating.core.powers.power`, the one the vectorised path
(:mod:`.vector`) takes for every row, so a formula gives the same double whichever path computes it.

**The double negation** ``--x`` (and any run of signs with a minus in it that cancels out, ``-+-x``):
``formulas``' parser folds the signs into one unary plus, which leaves its operand as it is, so
``--(A1:A9>2)`` stayed an array of TRUE/FALSE. Excel negates twice: the result is a number (TRUE 1,
FALSE 0, text that reads as a number that number, other text #VALUE!), which SUM and SUMPRODUCT
then count, where they skip logical values in an array (Microsoft's SUM and SUMPRODUCT pages).
:data:`NEGATED_TWICE` is that operator; a plain ``+x`` stays ``formulas``' (Excel's unary plus
changes nothing).

**The size of the result** (:func:`check_operands`). An operator between a column and a row makes a
grid (``=LET(x,SEQUENCE(20000),SUM(x*TRANSPOSE(x)))`` is 400 million products): the result has the
most rows and the most columns of its operands. Its size is checked against the array limits
(:func:`..formula.limits.check_size`) before a single element is computed, so such a formula is
left not computed with a warning naming the cell and the limit, at once, instead of filling memory
element by element inside one numpy call that nothing can interrupt.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from formulas.functions import replace_empty, wrap_ufunc
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from xlrating.core.powers import power

from ..formula.limits import MAX_CELLS, MAX_COLUMNS, MAX_ROWS, check_size
from ..formula.text_operands import this_year
from ..maths.text_numbers import read_number


def _operand(value: Any) -> float:
    """An operand of ``^`` or ``--`` as Excel reads it; #VALUE! (raised, as ``formulas``' operators
    do) for text that is no number."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        number = read_number(value, this_year)  # Excel's one reading of text as a number
        if number is None:
            raise TypeError(f"{value!r} is no number")  # formulas' wrapper: #VALUE!
        return number
    return float(value)


def excel_power(base: float, exponent: float) -> Any:
    """``base ^ exponent`` as Excel computes it (see the module's docstring)."""
    if base == 0.0 and exponent == 0.0:
        return Error.errors["#NUM!"]
    if base == 0.0 and exponent < 0.0:
        return Error.errors["#DIV/0!"]
    result = power(base, exponent)
    if not math.isfinite(result):  # overflow, or a negative base to a fractional power (nan)
        return Error.errors["#NUM!"]
    return result


def _parse(*operands: Any) -> Any:
    return map(_operand, operands)


def _first_error(*operands: Any) -> XlError | None:
    return next((v for v in operands if isinstance(v, XlError)), None)


_ELEMENTWISE = wrap_ufunc(excel_power, input_parser=_parse, check_error=_first_error,
                          args_parser=lambda *operands: map(replace_empty, operands))


@functools.wraps(_ELEMENTWISE)
def POWER_OPERATOR(*operands: Any) -> Any:
    """``^`` over single values or arrays (broadcast as ``formulas``' operators are). The C library's
    ``pow`` leaves the overflow flag set after 10^400 (Python raises, :func:`power` answers inf):
    numpy's element loop would report it as a RuntimeWarning for a result that is #NUM! anyway."""
    with np.errstate(over="ignore"):
        return _ELEMENTWISE(*operands)

def _as_number(value: float) -> float:
    return value


NEGATED_TWICE = wrap_ufunc(_as_number, input_parser=_parse, check_error=_first_error,
                           args_parser=lambda *operands: map(replace_empty, operands))



def _shape(value: Any) -> tuple[int, int] | None:
    """The rows and columns of an operand that is an array or a one-area range (None otherwise)."""
    if isinstance(value, np.ndarray):
        return (value.shape[0], value.shape[1]) if value.ndim == 2 else None
    if isinstance(value, Ranges) and len(value.ranges) == 1:
        area = value.ranges[0]
        rows, columns = int(area["r2"]) - int(area["r1"]) + 1, int(area["n2"]) - int(area["n1"]) + 1
        size = getattr(value, "size", None)  # a whole column read as far as used: the extent asked for
        return (max(rows, int(size[0])), max(columns, int(size[1]))) if size is not None else (rows, columns)
    return None


def check_operands(name: str, operands: tuple[Any, ...]) -> None:
    """That the array the operator ``name`` makes of ``operands`` is within the array limits (see
    the module's docstring): the most rows and the most columns of the operands that are arrays."""
    if len(operands) < 2:
        return
    shapes = [shape for shape in map(_shape, operands) if shape is not None]
    if len(shapes) > 1:
        rows, columns = max(s[0] for s in shapes), max(s[1] for s in shapes)
        if rows * columns > MAX_CELLS or rows > MAX_ROWS or columns > MAX_COLUMNS:
            check_size(rows, columns, f"the operator {name}")


__all__ = ["NEGATED_TWICE", "POWER_OPERATOR", "check_operands", "excel_power"]
