"""An operand or argument's text read as the number Excel reads in it, for what ``formulas``
computes: the operands of its arithmetic operators (:mod:`..functions.operators`) and the number
parameters of its functions (:mod:`..evaluate.number_arguments`); below both, so each reads text
the one way :func:`..maths.text_numbers.read_number` does. A date typed without its year ("1/15")
is in the year of the conversion's clock (:mod:`..read.clock`), read only for such a date.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import schedula as sh

from ..maths.text_numbers import read_number
from ..read import clock

# What a text Excel reads no number in becomes: a text Python's ``float`` refuses too ("1_000" and
# "inf" it would take), so ``formulas`` answers it with #VALUE! where it did for any such text,
# after an error among the other arguments (``="a"+NA()`` is #N/A, as before and as LibreOffice has it)
NO_NUMBER = "no number"


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
    """``value`` with its text read as a number (:data:`NO_NUMBER` where Excel reads none), entry by
    entry in an array or a reference's values (an array of the same kind); anything else as it is."""
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


__all__ = ["NO_NUMBER", "is_text", "texts_read", "this_year"]
