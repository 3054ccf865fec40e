"""The numbers a statistical or aggregating function takes from its arguments, as Excel reads them.

Microsoft's pages for SUMSQ, PRODUCT, VAR, STDEV, MEDIAN, AVEDEV, DEVSQ, GEOMEAN, HARMEAN, KURT,
SKEW and their .S/.P forms say it the same way: "Logical values and text representations of numbers
that you type directly into the list of arguments are counted. If an argument is an array or
reference, only numbers in that array or reference are counted. Empty cells, logical values, text,
or error values in the array or reference are ignored. Arguments that are error values or text that
cannot be translated into numbers cause errors." The workbooks Excel saved agree: PRODUCT and
SUMSQ of a cell holding ="8", TRUE or "seven" count nothing (IronCalc's PRODUCT_SUM and SUMSQ
books), STDEV(C34:D34,...,"2") counts the typed "2", STDEV(...,"") is #VALUE! (formulas' test.xlsx).

How ``formulas`` hands arguments over tells them apart (as for SUM, :mod:`xlrating.engine.functions.builtins`):
a reference arrives as a plain ``ndarray`` (a single cell too), a computed array as its ``Array``
subclass, a value typed or computed as a scalar or a 1x1 ``Array``. An error inside a reference or
array is the result (the first one, in argument order), as Excel answers STDEV(K34:L34) over
#VALUE!. A computed array is read as a reference: MEDIAN(IF(A2:A9>5,A2:A9)) leaves out the FALSE
of the rows the IF drops, the idiom array formulas are written with.

:func:`numbers` applies that rule; ``typed_text`` and ``omitted`` say what a function does
differently with typed text that is no number and with an argument left out (``MODE(A1:A9,)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted
from .arguments import scalar, text_number

VALUE: XlError = Error.errors["#VALUE!"]


class Rejected(Exception):
    """An argument makes the function's result this error."""

    def __init__(self, error: XlError) -> None:
        super().__init__(str(error))
        self.error = error


def is_reference(argument: Any) -> bool:
    """Whether ``formulas`` handed the argument over as a reference (a plain ``ndarray``)."""
    return type(argument) is np.ndarray


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _entries(argument: Any) -> list[Any] | None:
    """The entries of a reference or of a computed array of several values; None for a single value."""
    if isinstance(argument, np.ndarray) and (is_reference(argument) or argument.size > 1):
        return [scalar(value) for value in argument.ravel().tolist()]  # {1,-1} nests -1
    return None


def _typed(value: Any, typed_text: str, omitted: XlError | None) -> float | None:
    """A value given directly as an argument as the number it counts as; None if it is skipped."""
    value = scalar(value)
    if isinstance(value, np.ndarray):  # an empty array
        value = sh.EMPTY
    if isinstance(value, XlError):
        raise Rejected(value)
    if value is sh.EMPTY or value is None or is_omitted(value):
        if omitted is not None:
            raise Rejected(omitted)
        return 0.0
    if isinstance(value, (bool, np.bool_)) or _is_number(value):
        return float(value)
    number = text_number(value) if isinstance(value, str) else None
    if number is not None:
        return number
    if typed_text == "skip":
        return None
    raise Rejected(VALUE)


def numbers(args: tuple[Any, ...], typed_text: str = "error", omitted: XlError | None = None) -> list[float]:
    """The numbers ``args`` give, in order; raises :class:`Rejected` with the error they make.

    ``typed_text``: "error" (typed text that is no number is #VALUE!) or "skip" (it is left out,
    as MODE does: MODE.SNGL(D71:E71,...,"") is 0.2 in formulas' test.xlsx). ``omitted``: the error an
    argument left out makes (MODE's #VALUE!), or None for 0."""
    found: list[float] = []
    for argument in args:
        entries = _entries(argument)
        if entries is None:
            number = _typed(argument, typed_text, omitted)
            if number is not None:
                found.append(number)
            continue
        for value in entries:
            if isinstance(value, XlError):
                raise Rejected(value)
            if _is_number(value):
                found.append(float(value))
    return found


def as_reference(values: list[float]) -> np.ndarray:
    """``values`` as a one-row reference of numbers (an empty cell when there are none), the form in
    which ``formulas``' own implementations count exactly them."""
    if not values:
        return np.array([[sh.EMPTY]], dtype=object)
    return np.array([values], dtype=float)


def single(value: Any) -> Any:
    """A result as ``formulas`` expects a function's scalar result."""
    return np.asarray([[value]], object).view(Array)


def count_values(args: tuple[Any, ...]) -> float:
    """COUNTA: the values that are not empty. In a reference or array every cell that holds
    something counts (a text, "" a formula returns, a logical value, an error); typed directly,
    every argument counts, whatever it is (IronCalc's STATISTICAL_COUNT book, saved by Excel:
    COUNTA("Hola"), COUNTA(#N/A) and COUNTA(TRUE) are 1)."""
    count = 0
    for argument in args:
        entries = _entries(argument)
        if entries is None:
            count += 1
            continue
        count += sum(1 for value in entries if value is not sh.EMPTY and value is not None)
    return float(count)


def values_a(args: tuple[Any, ...]) -> list[float]:
    """The values AVERAGEA (MAXA, MINA, STDEVA, VARA alike) takes (Microsoft's AVERAGEA page): in a
    reference or array, numbers, TRUE as 1, FALSE and any text as 0, empty cells left out, an error
    the result; typed directly, numbers, logical values and text that reads as a number (text that
    does not is #VALUE!). Raises :class:`Rejected`."""
    found: list[float] = []
    for argument in args:
        entries = _entries(argument)
        if entries is None:
            number = _typed(argument, "error", None)
            if number is not None:
                found.append(number)
            continue
        for value in entries:
            if isinstance(value, XlError):
                raise Rejected(value)
            if value is sh.EMPTY or value is None:
                continue
            if isinstance(value, (bool, np.bool_)):
                found.append(1.0 if value else 0.0)
            elif _is_number(value):
                found.append(float(value))
            else:
                found.append(0.0)
    return found
