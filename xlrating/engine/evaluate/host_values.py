"""Values between ``formulas`` and :mod:`xlrating.functions`: ``XlError`` <-> :class:`ExcelError`,
``formulas``' empty <-> ``None``, numpy scalars <-> Python, dates as Excel's serial numbers; and the
adapter that lets ``formulas`` call one of xlrating's rating functions."""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, Any

import numpy as np
import schedula as sh
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import Error as ErrorToken
from formulas.tokens.operand import XlError

from xlrating.core.dates import to_excel_serial
from xlrating.excel_errors import ExcelError

from ..formula.values import is_omitted

if TYPE_CHECKING:
    from xlrating.functions import ExcelFunction


def to_host(value: Any) -> Any:
    """A ``formulas`` cell value as a host-neutral value of :mod:`xlrating.functions`."""
    if isinstance(value, XlError):
        return ExcelError(str(value))
    if value is sh.EMPTY or value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return value


def argument_to_host(value: Any) -> Any:
    """A ``formulas`` argument (a scalar or a 2-D array) as a host-neutral value or list of rows; an
    argument left empty between commas is None, the default, as Excel passes it to an add-in."""
    if is_omitted(value):
        return None
    if isinstance(value, np.ndarray):
        if value.size == 1:
            return to_host(value.ravel()[0])
        grid = value if value.ndim == 2 else np.atleast_2d(value)
        return [[to_host(v) for v in row] for row in grid.tolist()]
    return to_host(value)


def from_host(value: Any) -> Any:
    """A host-neutral value as a ``formulas`` value."""
    if isinstance(value, ExcelError):
        return ErrorToken.errors.get(value.code, XlError(value.code))
    if value is None:
        return sh.EMPTY
    if isinstance(value, dt.date):  # a datetime too
        return excel_serial(value)
    return value


def excel_serial(moment: dt.date) -> float:
    """A date (and a datetime's time of day, as the fraction) as Excel's 1900-system serial number."""
    if isinstance(moment, dt.datetime):
        since_midnight = moment - dt.datetime.combine(moment.date(), dt.time(), moment.tzinfo)
        return float(to_excel_serial(moment.date())) + since_midnight.total_seconds() / 86400.0
    return float(to_excel_serial(moment))


@functools.cache
def adapter(fn: ExcelFunction) -> Any:
    """``fn`` as a ``formulas`` implementation: arguments converted, :func:`xlrating.functions.call`."""
    from xlrating.functions import call

    def evaluate(*args: Any) -> Any:
        result = call(fn, [argument_to_host(a) for a in args])
        if isinstance(result, list):
            return np.asarray([[from_host(v) for v in row] for row in result], object).view(Array)
        return from_host(result)

    evaluate.__name__ = fn.name
    return wrap_func(evaluate)
