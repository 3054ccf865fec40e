"""AGGREGATE: one of 19 functions over references or an array, leaving out what its option says.

Microsoft's "AGGREGATE function" page is the specification:

- ``function_num`` 1-19: AVERAGE, COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV.S, STDEV.P, SUM, VAR.S,
  VAR.P, MEDIAN, MODE.SNGL (the *reference form*: ``AGGREGATE(n, options, ref1, [ref2], ...)``,
  references only, an array is #VALUE!), LARGE, SMALL, PERCENTILE.INC, QUARTILE.INC,
  PERCENTILE.EXC, QUARTILE.EXC (the *array form*: ``AGGREGATE(n, options, array, k)``, the array a
  reference or a computed array, ``k`` required, an array of ``k`` giving an array of results);
- ``options`` 0-7 (omitted: 0): 0 leaves out the cells holding a SUBTOTAL or AGGREGATE formula, 1
  also hidden rows, 2 also error values, 3 all three; 4 leaves out nothing, 5 hidden rows, 6 error
  values, 7 both;
- a hidden row is one hidden by hand or by a filter (:mod:`..read.row_visibility`); hidden columns
  never count as hidden (Microsoft: AGGREGATE is designed for columns of data);
- a function number or option outside its range is #VALUE!, as is a missing ``k`` or a second
  reference in the array form.

Where the page is silent the engine follows the function AGGREGATE applies: COUNT counts numbers
and COUNTA non-empty cells whatever errors the cells hold (an error left out by the option is not
counted by COUNTA); the other functions return the first error they meet, in reading order, unless
the option leaves errors out; text and logical values in references or arrays are not numbers; the
options that keep hidden rows (0, 2, 4, 6) keep the rows a filter hides too.
"""

from __future__ import annotations

import collections
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import COMPILING, Array, wrap_func, wrap_impure_func
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..read.grid import MAX_COL, MAX_ROW
from .position import CURRENT, Position

_NESTED = re.compile(r"\b(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.IGNORECASE)
_REFERENCE_FORM = 13  # 1-13 take references; 14-19 an array and k


class _Failed(Exception):
    def __init__(self, error: str):
        self.error = error


def _error(code: str) -> XlError:
    return Error.errors[code]  # type: ignore[no-any-return]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _scalar(argument: Any, default: float | None = None) -> float:
    """A whole-number argument (function_num, options): a number, truncated; an error is itself."""
    if isinstance(argument, Ranges):
        argument = argument.value
    if isinstance(argument, np.ndarray):
        argument = argument.ravel()[0] if argument.size else sh.EMPTY
    if isinstance(argument, XlError):
        raise _Failed(str(argument))
    if argument is sh.EMPTY or argument is None:
        if default is None:
            raise _Failed("#VALUE!")
        return default
    if isinstance(argument, (bool, np.bool_)):
        return float(argument)
    if _is_number(argument):
        return math.trunc(float(argument))
    try:
        return math.trunc(float(str(argument).strip()))
    except ValueError:
        raise _Failed("#VALUE!") from None


# --- the functions, over the values kept ------------------------------------------------------------

def _numbers(values: list[Any]) -> list[float]:
    return [float(v) for v in values if _is_number(v)]


def _first_error(values: list[Any]) -> XlError | None:
    return next((v for v in values if isinstance(v, XlError)), None)


def _variance(numbers: list[float], sample: bool) -> float | XlError:
    if len(numbers) < (2 if sample else 1):
        return _error("#DIV/0!")
    mean = math.fsum(numbers) / len(numbers)
    return math.fsum((x - mean) ** 2 for x in numbers) / (len(numbers) - (1 if sample else 0))


def _root(value: float | XlError) -> float | XlError:
    return value if isinstance(value, XlError) else math.sqrt(value)


def _median(numbers: list[float]) -> float | XlError:
    if not numbers:
        return _error("#NUM!")
    ordered = sorted(numbers)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _mode(numbers: list[float]) -> float | XlError:
    """MODE.SNGL: the value repeated most often, the first of them in the data's order; none repeated
    is #N/A."""
    counts = collections.Counter(numbers)
    best = max(counts.values(), default=0)
    if best < 2:
        return _error("#N/A")
    return next(x for x in numbers if counts[x] == best)


_REDUCERS: dict[int, Callable[[list[float]], float | XlError]] = {
    1: lambda x: math.fsum(x) / len(x) if x else _error("#DIV/0!"),
    4: lambda x: max(x) if x else 0.0,
    5: lambda x: min(x) if x else 0.0,
    6: lambda x: math.prod(x) if x else 0.0,
    7: lambda x: _root(_variance(x, sample=True)),
    8: lambda x: _root(_variance(x, sample=False)),
    9: math.fsum,
    10: lambda x: _variance(x, sample=True),
    11: lambda x: _variance(x, sample=False),
    12: _median,
    13: _mode,
}


def _interpolated(ordered: list[float], rank: float) -> float:
    """The value at 0-based ``rank`` of ``ordered``, interpolated between its neighbours."""
    low = math.floor(rank)
    if low + 1 >= len(ordered):
        return ordered[-1]
    return ordered[low] + (rank - low) * (ordered[low + 1] - ordered[low])


def _ranked(function_num: int, numbers: list[float], k: float) -> float | XlError:
    """LARGE, SMALL, PERCENTILE.INC, QUARTILE.INC, PERCENTILE.EXC or QUARTILE.EXC of ``numbers``."""
    n = len(numbers)
    if n == 0:
        return _error("#NUM!")
    ordered = sorted(numbers)
    if function_num in (14, 15):  # k rounded up, as Excel's LARGE and SMALL take it
        position = math.ceil(k)
        if not 1 <= position <= n:
            return _error("#NUM!")
        return ordered[n - position] if function_num == 14 else ordered[position - 1]
    if function_num in (17, 19):  # a quartile is a whole number
        quart = math.trunc(k)
        if function_num == 17 and not 0 <= quart <= 4 or function_num == 19 and not 1 <= quart <= 3:
            return _error("#NUM!")
        k = quart / 4
    if function_num in (16, 17):
        if not 0 <= k <= 1:
            return _error("#NUM!")
        return _interpolated(ordered, k * (n - 1))
    rank = k * (n + 1)  # PERCENTILE.EXC, QUARTILE.EXC
    if not 0 < k < 1 or rank < 1 or rank > n:
        return _error("#NUM!")
    return _interpolated(ordered, rank - 1)


def _result(function_num: int, values: list[Any], k: Any) -> Any:
    if function_num == 3:
        return float(sum(1 for v in values if v is not sh.EMPTY and v is not None))
    if function_num == 2:
        return float(len(_numbers(values)))
    error = _first_error(values)
    if error is not None:
        return error
    numbers = _numbers(values)
    if function_num <= _REFERENCE_FORM:
        return _REDUCERS[function_num](numbers)
    ks = np.asarray(k.value if isinstance(k, Ranges) else k, dtype=object)
    results = np.empty(ks.shape, dtype=object)
    for index, each in np.ndenumerate(ks):
        if isinstance(each, XlError):
            results[index] = each
            continue
        try:
            results[index] = _ranked(function_num, numbers, _k_number(each))
        except _Failed as failed:
            results[index] = _error(failed.error)
    if results.size == 1:
        return results.ravel()[0]
    return np.atleast_2d(results).view(Array)


def _k_number(value: Any) -> float:
    if value is sh.EMPTY or value is None:
        return 0.0
    if _is_number(value) or isinstance(value, (bool, np.bool_)):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        raise _Failed("#VALUE!") from None


# --- what is kept of the arguments ----------------------------------------------------------------

def _kept(position: Position, reference: Ranges, hidden_rows: bool, errors: bool, nested: bool) -> list[Any]:
    """The values of ``reference``'s cells in reading order, area by area, without those in hidden
    rows (``hidden_rows``), the error values (``errors``) and the cells holding a SUBTOTAL or
    AGGREGATE formula (``nested``)."""
    values: list[Any] = []
    fallback = position.fallback
    for area in reference.ranges:
        sheet = fallback.grid.sheet(area["sheet"]) if area.get("sheet") else position.sheet
        if sheet is None:
            raise _Failed("#REF!")
        r1, c1 = max(int(area["r1"]), 1), max(int(area["n1"]), 1)
        r2, c2 = int(area["r2"]) or MAX_ROW, int(area["n2"]) or MAX_COL
        if not (r1 <= r2 <= MAX_ROW and c1 <= c2 <= MAX_COL):
            raise _Failed("#REF!")
        block = fallback.read(sheet, r1, c1, r2, c2, position.sheet)
        cells = np.atleast_2d(np.asarray(block.value, dtype=object))
        hidden = fallback.rows_of(sheet).hidden if hidden_rows else frozenset()
        key = sheet.name.upper()
        for i, row in enumerate(cells.tolist()):
            if r1 + i in hidden:
                continue
            for j, value in enumerate(row):
                if errors and isinstance(value, XlError):
                    continue
                if nested:
                    text = fallback.formula_text(key, r1 + i, c1 + j)
                    if text is not None and _NESTED.search(text):
                        continue
                values.append(value)
    return values


def aggregate(position: Position, function_num: Any, options: Any = sh.EMPTY, *arguments: Any) -> Any:
    """AGGREGATE(function_num, options, ref1, [ref2], ...) or AGGREGATE(function_num, options, array, k)."""
    number = int(_scalar(function_num))
    option = int(_scalar(options, default=0.0))
    if not 1 <= number <= 19 or not 0 <= option <= 7 or not arguments:
        raise _Failed("#VALUE!")
    hidden_rows, errors, nested = option in (1, 3, 5, 7), option in (2, 3, 6, 7), option <= 3
    if number <= _REFERENCE_FORM:
        references = arguments
        k: Any = None
    else:
        if len(arguments) != 2:
            raise _Failed("#VALUE!")
        references, k = arguments[:1], arguments[1]
        if isinstance(k, Ranges):
            k = k.value
    values: list[Any] = []
    for argument in references:
        if isinstance(argument, Ranges) and argument.ranges:
            values.extend(_kept(position, argument, hidden_rows, errors, nested))
        elif number > _REFERENCE_FORM:  # a computed array: no rows, no formulas to leave out
            if isinstance(argument, XlError) and not errors:
                return argument
            cells = np.asarray(argument, dtype=object).ravel().tolist()
            values.extend(v for v in cells if not (errors and isinstance(v, XlError)))
        elif isinstance(argument, XlError):
            return argument
        else:
            raise _Failed("#VALUE!")
    return _result(number, values, k)


def _evaluate(*args: Any) -> Any:
    try:
        return aggregate(CURRENT.get(), *args)
    except _Failed as failed:
        return _error(failed.error)


_evaluate.__name__ = "aggregate"

FUNCTIONS: dict[str, Any] = {
    # impure: formulas would otherwise compute a call with constant arguments once, while compiling
    "AGGREGATE": {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
                  "function": wrap_impure_func(wrap_func(_evaluate, ranges=True))},
}

__all__ = ["FUNCTIONS", "aggregate"]
