"""Excel's date functions in a workbook of the 1904 date system (:mod:`..read.date_system`).

Every implementation (ours and ``formulas``') counts days in the 1900 system. The same day is
1462 more there than in the 1904 system, and every date function but TEXT's elapsed codes depends
on the day alone: so in a 1904 workbook :func:`in_date_system` hands a function its date arguments
moved 1462 days on, and moves a date it returns 1462 days back (YEAR(0) is 1904; DATE(2008,1,1)
is 37986; WEEKDAY(0) is Friday, 6). A date the 1904 system cannot hold, before 1 January 1904 (a negative argument too), is
#NUM! as Excel gives it (#VALUE! for DATEVALUE, whose argument is text). Arguments typed as text
("2008-01-01") are left to the function, which reads them in the 1900 system it computes in.

:data:`DATE_ARGUMENTS` names, per function, which arguments are dates and whether the result is
one; a function whose result depends only on differences of dates (DAYS, XNPV) or on the time of
day (HOUR) needs nothing. In a 1900 workbook the wrapper calls the function as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..formula.function_names import builtin_name
from ..read.date_system import offset
from .wrappers import wrapped_once

# Function -> (the positions of its date arguments, whether its result is a date)
DATE_ARGUMENTS: dict[str, tuple[tuple[int, ...], bool]] = {
    "DATE": ((), True), "DATEVALUE": ((), True), "TODAY": ((), True), "NOW": ((), True),
    "YEAR": ((0,), False), "MONTH": ((0,), False), "DAY": ((0,), False), "WEEKDAY": ((0,), False),
    "WEEKNUM": ((0,), False), "ISOWEEKNUM": ((0,), False),
    "EDATE": ((0,), True), "EOMONTH": ((0,), True),
    "WORKDAY": ((0, 2), True), "WORKDAY.INTL": ((0, 3), True),
    "NETWORKDAYS": ((0, 1, 2), False), "NETWORKDAYS.INTL": ((0, 1, 3), False),
    "DATEDIF": ((0, 1), False), "DAYS360": ((0, 1), False), "YEARFRAC": ((0, 1), False),
    # the financial functions of securities count coupons in the calendar
    "COUPDAYBS": ((0, 1), False), "COUPDAYS": ((0, 1), False), "COUPDAYSNC": ((0, 1), False),
    "COUPNUM": ((0, 1), False), "COUPNCD": ((0, 1), True), "COUPPCD": ((0, 1), True),
    "PRICE": ((0, 1), False), "YIELD": ((0, 1), False), "DURATION": ((0, 1), False),
    "MDURATION": ((0, 1), False), "ACCRINT": ((0, 1, 2), False), "ACCRINTM": ((0, 1), False),
    "DISC": ((0, 1), False), "INTRATE": ((0, 1), False), "RECEIVED": ((0, 1), False),
    "PRICEDISC": ((0, 1), False), "YIELDDISC": ((0, 1), False), "PRICEMAT": ((0, 1, 2), False),
    "YIELDMAT": ((0, 1, 2), False), "TBILLPRICE": ((0, 1), False), "TBILLYIELD": ((0, 1), False),
    "TBILLEQ": ((0, 1), False), "ODDFPRICE": ((0, 1, 2, 3), False), "ODDFYIELD": ((0, 1, 2, 3), False),
    "ODDLPRICE": ((0, 1, 2), False), "ODDLYIELD": ((0, 1, 2), False),
    "AMORDEGRC": ((1, 2), False), "AMORLINC": ((1, 2), False),
}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _forward(value: Any, days: int, scalar: bool) -> Any:
    """A date argument in the 1900 system: numbers ``days`` on; an empty cell (0, 1 January 1904)
    too when it is the argument itself; anything else (text, errors, TRUE) as it is."""
    from formulas.ranges import Ranges

    if isinstance(value, Ranges):
        value = value.value
    if isinstance(value, np.ndarray):
        moved = np.empty(value.shape, dtype=object)
        for index, entry in np.ndenumerate(value):
            moved[index] = _forward(entry, days, scalar and value.size == 1)
        return moved.view(type(value)) if type(value) is not np.ndarray else moved
    if _is_number(value):
        return value + days if value >= 0 else value  # before serial 0: an error in either system
    if scalar and _is_empty(value):
        return days
    return value


def _is_empty(value: Any) -> bool:
    import schedula as sh

    return value is sh.EMPTY or value is None


def _back(value: Any, days: int, error: str) -> Any:
    """A date result in the workbook's system: numbers ``days`` back; one before its serial 0 is ``error``."""
    if isinstance(value, np.ndarray):
        moved = np.empty(value.shape, dtype=object)
        for index, entry in np.ndenumerate(value):
            moved[index] = _back(entry, days, error)
        return moved.view(type(value)) if type(value) is not np.ndarray else moved
    if _is_number(value):
        if value - days < 0:
            from formulas.tokens.operand import Error

            return Error.errors[error]
        return value - days
    return value


def in_date_system(name: str, implementation: Any) -> Any:
    """``implementation`` of the Excel function ``name`` computing in the workbook's date system
    (as it is for a function of no dates, or the implementation itself when already wrapped)."""
    plain = builtin_name(name)
    found = DATE_ARGUMENTS.get(plain)
    if found is None:
        return implementation
    return wrapped_once(_WRAPPERS, plain, implementation, lambda function, extra: _wrapped(name, function, found, extra))


_WRAPPERS: dict[tuple[str, int], tuple[Any, Any]] = {}  # (name, id) -> (the implementation, its wrapper)


def _wrapped(name: str, implementation: Callable[..., Any], found: tuple[tuple[int, ...], bool],
             extra: int) -> Callable[..., Any]:
    if getattr(implementation, "in_date_system", False):
        return implementation
    positions, date_result = tuple(extra + i for i in found[0]), found[1]
    error = "#VALUE!" if name.endswith("DATEVALUE") else "#NUM!"

    @functools.wraps(implementation)
    def computed(*args: Any, **kwargs: Any) -> Any:
        days = offset()
        if not days:
            return implementation(*args, **kwargs)
        moved = [_forward(a, days, True) if i in positions else a for i, a in enumerate(args)]
        result = implementation(*moved, **kwargs)
        return _back(result, days, error) if date_result else result

    computed.in_date_system = True  # type: ignore[attr-defined]
    return computed
