"""How the engine's own functions read their arguments, shared by the category modules.

``formulas`` hands a function its arguments as scalars, 2-D arrays (references and computed
arrays) or its empty marker; Excel applies a function of single values to an array entry by entry.
:func:`elementwise` turns a function of plain values into such an implementation: it reads each
entry (:func:`scalar`), returns the first error among an entry's arguments, reads the arguments as
numbers where the function wants numbers (:func:`number`), and answers a floating-point overflow
with #NUM! instead of numpy's warning.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import get_error, wrap_ufunc
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..formula.text_operands import this_year
from ..maths.text_numbers import read_number

NUM = Error.errors["#NUM!"]
VALUE = Error.errors["#VALUE!"]


def as_objects(*args: Any) -> tuple[np.ndarray, ...]:
    """Arguments as object arrays (numpy would turn errors and empty cells, ``str`` subclasses, into text)."""
    return tuple(a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object) for a in args)


def areas(reference: Ranges) -> list[np.ndarray]:
    """The values of each area of a reference, in the order written (a union ``(A1:A3,C1:C3)`` has two)."""
    return [np.atleast_2d(np.asarray(Ranges((area,), reference.values).value, dtype=object))
            for area in reference.ranges]


def reference_values(argument: Any) -> Any:
    """An argument as ``formulas`` hands a function its values: a reference as a plain ``ndarray``;
    a reference of several areas (a union) as the cells of all its areas in one row, area by area
    (``formulas``' own reading of a union mixed their cells up with others')."""
    if not isinstance(argument, Ranges):
        return argument
    if len(argument.ranges) > 1:
        return np.array([[value for area in areas(argument) for value in area.ravel().tolist()]], dtype=object)
    return argument.value


def scalar(value: Any) -> Any:
    """An array entry as a plain value (``formulas`` nests a 0-d array for ``-1`` in ``{1,-1}``)."""
    while isinstance(value, np.ndarray) and value.size == 1:
        value = value.ravel()[0]
    return value


def text_number(text: str) -> float | None:
    """Text that reads as a number, a time or a date, as Excel reads it wherever a number is needed
    (:func:`..maths.text_numbers.read_number`: "$1,000", "10%", "(5)", "1 1/2", "12:00", "1/15/2024"),
    as that number; None for text Excel reads no number in ("1_000", "inf", "")."""
    return read_number(text, this_year)


def average(values: list[float]) -> Any:
    """The mean of ``values``; #DIV/0! for none (AVERAGE, AVERAGEIF & co.)."""
    return sum(values) / len(values) if values else Error.errors["#DIV/0!"]


def number(value: Any) -> float | None:
    """A numeric argument as Excel reads it: a number, TRUE/FALSE (1/0), an empty cell (0), text that
    reads as a number or a date; None for anything else (the function's #VALUE!)."""
    value = scalar(value)
    if value is sh.EMPTY or value is None:
        return 0.0
    if isinstance(value, str):
        return text_number(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def numeric(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` of finite floats, called with the arguments read as numbers (any not a number:
    #VALUE!; an infinity another function let through: #NUM!)."""
    def call(*args: Any) -> Any:
        read = [number(a) for a in args]
        numbers = [n for n in read if n is not None]
        if len(numbers) < len(read):
            return VALUE
        return func(*numbers) if all(math.isfinite(n) for n in numbers) else NUM
    call.__name__ = func.__name__
    return call


def quiet(implementation: Callable[..., Any]) -> Callable[..., Any]:
    """``implementation`` without numpy's warnings about floating-point overflow: the overflow is
    answered with #NUM!, not printed."""
    @functools.wraps(implementation)
    def without_warnings(*args: Any) -> Any:
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            return implementation(*args)
    return without_warnings


def first_numeric_problem(*args: Any) -> Any:
    """What stops a function of numbers before it computes: the first argument, in order, that is an
    error (that error) or no number (#VALUE!); None when all are numbers. Excel reads the arguments
    one after the other: FV("ciao", 1, NA()) is #VALUE!, FV(1, NA(), "ciao") #N/A (``formulas``'
    test workbook)."""
    for arg in args:
        value = scalar(arg)
        if isinstance(value, XlError):
            return value
        if number(value) is None:
            return VALUE
    return None


def elementwise(func: Callable[..., Any], numbers: bool = True) -> Any:
    """``func`` of scalars (of numbers, with ``numbers``) as a ``formulas`` implementation, applied
    entry by entry to array arguments; an entry whose arguments hold an error is the first such
    error, in argument order (with ``numbers``, the first error or text that is no number: #VALUE!)."""
    scalar_func = numeric(func) if numbers else func
    return quiet(wrap_ufunc(scalar_func, input_parser=lambda *a: tuple(map(scalar, a)), args_parser=as_objects,
                            check_error=first_numeric_problem if numbers else get_error))


def wildcard_source(pattern: str, lone_tilde: str) -> str:
    """The regular expression of Excel's wildcards in ``pattern``: ``?`` any one character, ``*``
    any run, ``~`` the next character itself; ``lone_tilde`` is what a ``~`` ending the pattern
    matches (the criteria: itself; SEARCH: nothing)."""
    parts: list[str] = []
    escaped = False
    for char in pattern:
        if escaped:
            parts.append(re.escape(char))
            escaped = False
        elif char == "~":
            escaped = True
        elif char == "?":
            parts.append(".")
        elif char == "*":
            parts.append(".*")
        else:
            parts.append(re.escape(char))
    if escaped:
        parts.append(re.escape(lone_tilde))
    return "".join(parts)
