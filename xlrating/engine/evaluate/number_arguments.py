"""Text read as a number where Excel needs one, for what ``formulas`` computes: the number
parameters of its functions (declared ``"numbers"``: :func:`..formula.declared.number_parameters`)
and the operands of its arithmetic operators (:mod:`..functions.operators`).

``formulas`` read such text with Python's ``float``: "1_000" and "inf" were numbers, "$1,000",
"10%", "(5)", "1 1/2" and "12:00" were #VALUE!, so ``=ABS("-$2")`` was #VALUE! where Excel shows 2.
Here a text is read once, as Excel reads it (:func:`..maths.text_numbers.read_number`), before the
function or the operator sees it: the number Excel reads, or a text that is no number to
``float`` either where it reads none (:data:`NO_NUMBER`), which the function answers with #VALUE!
as it answered such text before, an error among the arguments coming first. Numbers,
logical values, empty cells and errors are left as they are, and so are arrays that hold no text
(a column of numbers is not copied). A date without a year ("1/15") is in the year of the
conversion's clock (:mod:`..read.clock`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh

from ..formula import declared
from ..formula.function_names import builtin_name
from ..maths.text_numbers import read_number
from ..read import clock
from .wrappers import wrapped_once

# What a text Excel reads no number in becomes: a text Python's ``float`` refuses too ("1_000" and
# "inf" it would take), so ``formulas`` answers it with #VALUE! where it did for any such text,
# after an error among the other arguments (``="a"+NA()`` is #N/A, as before and as LibreOffice has it)
NO_NUMBER = "no number"

# Function -> the positions of its parameters that take a number (None: all of them)
NUMBER_PARAMETERS: dict[str, tuple[int, ...] | None] = declared.number_parameters()


def this_year() -> int:
    """The year of the conversion's clock, for a date typed without one."""
    return clock.current().year


def is_text(value: Any) -> bool:
    """A text, not an error or an empty cell (both ``str`` to ``schedula``)."""
    return isinstance(value, str) and not isinstance(value, sh.Token)


def _holds_text(values: np.ndarray) -> bool:
    if values.dtype != object:
        return values.dtype.kind == "U"
    return any(is_text(v) for v in values.flat)


def texts_read(value: Any) -> Any:
    """``value`` with its text read as a number (:data:`NO_NUMBER` where Excel reads none), entry by entry in
    an array or a reference's values (an array of the same kind); anything else as it is."""
    from formulas.ranges import Ranges

    if isinstance(value, Ranges):
        values = value.value
        return texts_read(values) if isinstance(values, np.ndarray) and _holds_text(values) else value
    if isinstance(value, np.ndarray):
        if not _holds_text(value):
            return value
        read = np.empty(value.shape, dtype=object)
        for index, entry in np.ndenumerate(value):
            read[index] = texts_read(entry)
        return read.view(type(value)) if type(value) is not np.ndarray else read
    if is_text(value):
        number = read_number(value, this_year)
        return NO_NUMBER if number is None else number
    return value


def numbers_read(name: str, implementation: Any) -> Any:
    """``implementation`` of the Excel function ``name`` with the text given to its number
    parameters read first (:func:`texts_read`); the implementation itself for a function of none."""
    plain = builtin_name(name)
    if plain not in NUMBER_PARAMETERS:
        return implementation
    positions = NUMBER_PARAMETERS[plain]
    return wrapped_once(_WRAPPERS, plain, implementation, lambda function, extra: _reading(function, positions, extra))


_WRAPPERS: dict[tuple[str, int], tuple[Any, Any]] = {}  # (name, id) -> (the implementation, its wrapper)


def _reading(function: Callable[..., Any], positions: tuple[int, ...] | None, extra: int) -> Callable[..., Any]:
    if getattr(function, "numbers_read", False):
        return function
    taking = None if positions is None else frozenset(extra + i for i in positions)

    @functools.wraps(function)
    def reading(*args: Any, **kwargs: Any) -> Any:
        return function(*args[:extra], *(texts_read(a) if taking is None or i in taking else a
                                         for i, a in enumerate(args[extra:], start=extra)), **kwargs)

    reading.numbers_read = True  # type: ignore[attr-defined]
    return reading


__all__ = ["NO_NUMBER", "NUMBER_PARAMETERS", "is_text", "numbers_read", "texts_read", "this_year"]
