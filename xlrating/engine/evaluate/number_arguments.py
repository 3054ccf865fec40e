"""Text read as a number where Excel needs one, for what ``formulas`` computes: the number
parameters of its functions (declared ``"numbers"``: :func:`..formula.declared.number_parameters`;
the operands of its arithmetic operators are read the same way: :mod:`..functions.operators`).

``formulas`` read such text with Python's ``float``: "1_000" and "inf" were numbers, "$1,000",
"10%", "(5)", "1 1/2" and "12:00" were #VALUE!, so ``=ABS("-$2")`` was #VALUE! where Excel shows 2.
Here a text is read once, as Excel reads it (:func:`..formula.text_operands.texts_read`), before
the function or the operator sees it: the number Excel reads, or a text that is no number to
``float`` either where it reads none (:data:`..formula.text_operands.NO_NUMBER`), which the
function answers with #VALUE! as it answered such text before, an error among the arguments coming
first. Numbers, logical values, empty cells and errors are left as they are, and so are arrays
that hold no text (a column of numbers is not copied).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..formula import declared
from ..formula.text_operands import texts_read
from .wrappers import at_parameters

# Function -> the positions of its parameters that take a number (None: all of them)
NUMBER_PARAMETERS: dict[str, tuple[int, ...] | None] = declared.number_parameters()


def _reading(function: Callable[..., Any], taking: frozenset[int] | None, extra: int) -> Callable[..., Any]:
    @functools.wraps(function)
    def reading(*args: Any, **kwargs: Any) -> Any:
        return function(*args[:extra], *(texts_read(a) if taking is None or i in taking else a
                                         for i, a in enumerate(args[extra:], start=extra)), **kwargs)

    return reading


# ``numbers_read(name, implementation)``: the implementation of the Excel function ``name`` with the
# text given to its number parameters read first (:func:`..formula.text_operands.texts_read`); the
# implementation itself for a function of none
numbers_read = at_parameters(NUMBER_PARAMETERS, "numbers_read", _reading)

__all__ = ["NUMBER_PARAMETERS", "numbers_read"]
