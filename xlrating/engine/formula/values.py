"""The values a formula's parts hand each other while ``formulas`` computes it, shared by the
evaluator (which makes them) and the functions (which read them): an argument left out between
commas, an area read with the size the formula asked for, and the signal that stops a formula the
engine cannot compute as Excel would (:class:`Abort`, raised by the functions, caught by the
evaluator)."""

from __future__ import annotations

from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import BaseError
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..read.grid import InCircle, NotComputed


class Omitted(float):
    """An argument left out between commas (``XLOOKUP(x, a, b, , 1)``): 0 to every function that
    takes it as a number, as Excel reads it, and recognisably left out to the functions whose
    default is something else (XLOOKUP's if_not_found, LINEST's const, SEQUENCE's start)."""

    def __repr__(self) -> str:
        return "OMITTED"


OMITTED = Omitted(0.0)


def is_omitted(value: Any) -> bool:
    """Whether an argument was left out: not passed (None) or left empty between commas."""
    return value is None or isinstance(value, Omitted) or (
        isinstance(value, np.ndarray) and value.size == 1 and isinstance(value.ravel()[0], Omitted))


class Area(Ranges):
    """The values of an area read for ``formulas``, with the size the formula asked for: a whole
    column (row) is read only as far as the sheet is used, but ROWS(C:C) is 1048576 all the same."""

    __slots__ = ("size",)

    def __init__(self, size: tuple[int, int]):
        super().__init__()
        self.size = size


class Abort(BaseError):
    """Stops a formula from inside a function ``formulas`` calls (its wrappers turn other exceptions
    into #VALUE!): ``reason`` is re-raised or returned by :meth:`..evaluate.fallback.Fallback.evaluate`."""

    def __init__(self, reason: Exception | NotComputed | InCircle):
        super().__init__()
        self.reason = reason


def not_computed(reason: str) -> Abort:
    """The :class:`Abort` that leaves the cell not computed, with a warning giving ``reason``: what a
    function raises for a form whose value Excel's would not be known to equal."""
    return Abort(NotComputed(reason=reason))


# --- how IF reads its condition (the one rule of the registry's IF and of IF inside a LAMBDA) -------

def single(value: Any) -> tuple[bool, Any]:
    """(True, the value) for a scalar, a 1x1 array or a one-cell reference; (False, None) otherwise."""
    if isinstance(value, Ranges):
        value = value.value
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return False, None
        value = value.ravel()[0]
    return True, value


def truth(condition: Any) -> bool | XlError:
    """A condition as IF reads it: numbers (0 is FALSE), TRUE/FALSE, the texts "TRUE"/"FALSE";
    any other text is #VALUE!, an error is itself."""
    if isinstance(condition, XlError):
        return condition
    if condition is sh.EMPTY or condition is None:
        return False
    if isinstance(condition, str):
        upper = condition.strip().upper()
        if upper in ("TRUE", "FALSE"):
            return upper == "TRUE"
        return Error.errors["#VALUE!"]
    return bool(condition)


def if_branch(condition: Any) -> int | XlError | None:
    """Which of IF's arguments a condition takes: 1 (value_if_true) or 2 (value_if_false), the error
    it is or makes, or None when it is an array of conditions (then IF goes entry by entry)."""
    scalar, value = single(condition)
    if not scalar:
        return None
    chosen = truth(value)
    if isinstance(chosen, XlError):
        return chosen
    return 1 if chosen else 2
