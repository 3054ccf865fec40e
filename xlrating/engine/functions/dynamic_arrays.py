"""Excel's dynamic-array functions where ``formulas`` lacks them or differs from Excel.

Missing from ``formulas``: SEQUENCE, RANDARRAY. Differing from Excel (Microsoft Support, each
function's page, is the specification):

- SORT, SORTBY, UNIQUE compared text case-sensitively; Excel does not ("a" and "A" are the same
  value, sorted together and kept once by UNIQUE).
- FILTER without ``if_empty`` gave #VALUE! when nothing matched; Excel gives #CALC! (empty array).
- UNIQUE left with nothing (``exactly_once`` with every value repeated) gave #VALUE!; Excel #CALC!.
- TAKE with ``rows`` omitted (``TAKE(A1:C3,,2)``) gave #VALUE!; DROP of everything and TOCOL/TOROW
  left with nothing gave an empty result; Excel gives the whole dimension, #CALC!, #CALC!.
- EXPAND with ``rows`` or ``columns`` omitted gave #VALUE!; Excel keeps that dimension.
- WRAPROWS/WRAPCOLS padded with the *text* "#N/A" instead of the error, and took a 2-D array
  where Excel requires a single row or column (#VALUE!).

VSTACK, HSTACK, CHOOSECOLS, CHOOSEROWS and TEXTSPLIT are ``formulas``' own (they agree with
Microsoft's examples).

An omitted argument (``TAKE(A1:C3,,2)``) reaches a function as :data:`.arguments.OMITTED`; before the
engine's parser marked it, it arrived as the integer 0, the same as a typed
0: ``formulas`` compiles both to 0. Where an argument is a size or a position a typed 0 is an
error anyway, so a bare integer 0 is read as omitted there; a value argument (SEQUENCE's start,
EXPAND's pad_with ...) keeps it as 0. A 0 computed or read from a cell is never taken as omitted.

Results are 2-D object arrays viewed as ``formulas.functions.Array``; the engine spills them. An empty
result is Excel's #CALC! error.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import FoundError
from formulas.functions import COMPILING, Array, wrap_func, wrap_impure_func
from formulas.tokens.operand import Error, XlError

from ..formula.limits import EXCEL_MAX_VALUES, MAX_CELLS, MAX_COLUMNS, MAX_ROWS, check_size
from ..formula.values import is_omitted as left_out
from ..formula.values import not_computed
from .arguments import text_number

CALC = XlError("#CALC!")
NA = Error.errors["#N/A"]
_MISSING = object()


# --- arguments ----------------------------------------------------------------------------------

def fail(code: str) -> FoundError:
    """The exception ``formulas.functions.wrap_func`` turns into the error value ``code``."""
    return FoundError(err=CALC if code == "#CALC!" else Error.errors[code])


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def is_text(value: Any) -> bool:
    return isinstance(value, str) and not isinstance(value, XlError)


def grid(value: Any) -> np.ndarray:
    """An argument as a 2-D object array: a range or array as it is, a single value as 1x1."""
    array = np.asarray(value, dtype=object)
    if array.ndim == 0:
        single = np.empty((1, 1), dtype=object)
        single[0, 0] = array.item()
        return single
    return array.reshape(1, -1) if array.ndim == 1 else array


def single(value: Any) -> Any:
    """The one value of a scalar argument (a one-cell range or array gives its value); #VALUE! for more."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise fail("#VALUE!")
        return value.ravel()[0]
    return value


def is_omitted(value: Any) -> bool:
    """An argument left out: not passed, left empty between commas, or an empty cell."""
    return value is _MISSING or value is sh.EMPTY or left_out(value)


def number(value: Any, default: float) -> float:
    """A numeric argument: ``default`` if not passed; a blank cell is 0, TRUE 1, text that reads as a
    number its number; other text #VALUE!; an error value is raised."""
    if value is None or value is _MISSING or left_out(value):
        return default
    value = single(value)
    if isinstance(value, XlError):
        raise FoundError(err=value)
    if value is sh.EMPTY:
        return 0.0
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if is_text(value):
        value = text_number(value)
    if not is_number(value):
        raise fail("#VALUE!")
    return float(value)


def count(value: Any, default: int) -> int:
    """A size or position argument, truncated toward zero; ``default`` when omitted (a bare 0 too)."""
    if is_omitted(value):
        return default
    return int(number(value, default))


def flag(value: Any) -> bool:
    """A TRUE/FALSE argument (numbers: non-zero is TRUE); FALSE when omitted."""
    if is_omitted(value):
        return False
    value = single(value)
    if is_text(value) and value.upper() in ("TRUE", "FALSE"):
        return bool(value.upper() == "TRUE")
    return number(value, 0.0) != 0


def spilled(array: np.ndarray) -> Array:
    """A result array as ``formulas`` returns arrays; an empty one is Excel's #CALC!."""
    if array.size == 0:
        raise fail("#CALC!")
    return np.asarray(array, dtype=object).view(Array)


def filled(shape: tuple[int, int], value: Any, what: str = "an array") -> np.ndarray:
    """An object array of ``shape`` holding ``value`` everywhere (:func:`check_size` first)."""
    check_size(*shape, what)
    array = np.empty(shape, dtype=object)
    array[...] = value
    return array


def column_of(values: Iterable[Any]) -> np.ndarray:
    """``values`` as a one-column object array."""
    items = list(values)
    array = np.empty((len(items), 1), dtype=object)
    for i, value in enumerate(items):
        array[i, 0] = value
    return array


def sort_key(value: Any) -> tuple[int, Any]:
    """How Excel orders and compares values: numbers, then text (case-insensitive), then FALSE, TRUE,
    then errors, then blanks."""
    if isinstance(value, XlError):
        return 3, str(value)
    if value is sh.EMPTY:
        return 4, 0
    if isinstance(value, (bool, np.bool_)):
        return 2, bool(value)
    if is_number(value):
        return 0, float(value)
    return 1, str(value).casefold()


# --- SEQUENCE, RANDARRAY ------------------------------------------------------------------------

def _size(rows: Any, columns: Any, rows_required: bool = False, what: str = "SEQUENCE") -> tuple[int, int]:
    """The shape SEQUENCE and RANDARRAY make: negative #VALUE!, zero #CALC! (SEQUENCE: #VALUE!, as
    Excel saved SEQUENCE(0,0) and SEQUENCE(0.3) in IronCalc's SEQUENCE book), omitted 1 (SEQUENCE's
    ``rows`` cannot be omitted: a typed 0 is 0)."""
    shape = int(number(rows, 1.0)) if rows_required else count(rows, 1), count(columns, 1)
    if min(shape) < 0:
        raise fail("#VALUE!")
    if min(shape) == 0:
        raise fail("#VALUE!" if rows_required else "#CALC!")
    check_size(*shape, what)
    return shape


def xsequence(rows: Any, columns: Any = None, start: Any = None, step: Any = None) -> Array:
    """SEQUENCE(rows, [columns], [start], [step]): ``rows`` x ``columns`` numbers counting from ``start``
    by ``step`` along each row, then down (all default to 1). Microsoft Support, "SEQUENCE function"."""
    height, width = _size(rows, columns, rows_required=True)
    first, increment = number(start, 1.0), number(step, 1.0)
    values = first + increment * np.arange(height * width, dtype=float)
    return spilled(values.reshape(height, width).astype(object))


def xrandarray(rows: Any = None, columns: Any = None, minimum: Any = None, maximum: Any = None,
               whole_number: Any = None) -> Array:
    """RANDARRAY([rows], [columns], [min], [max], [whole_number]): random numbers in [min, max) (default
    0 and 1), or whole numbers from min to max inclusive; #VALUE! if min > max. Recomputed at each
    evaluation. Microsoft Support, "RANDARRAY function"."""
    shape = _size(rows, columns, what="RANDARRAY")
    low, high = number(minimum, 0.0), number(maximum, 1.0)
    if low > high:
        raise fail("#VALUE!")
    if flag(whole_number):
        first, last = math.ceil(low), math.floor(high)
        if first > last:
            raise fail("#VALUE!")
        values = np.random.randint(first, last + 1, size=shape).astype(float)
    else:
        values = low + (high - low) * np.random.random_sample(shape)
    return spilled(values.astype(object))


# --- SORT, SORTBY, UNIQUE, FILTER ---------------------------------------------------------------

def _values(argument: Any, default: int) -> list[int]:
    """The integers of a scalar or array argument (SORT's sort_index and sort_order)."""
    if is_omitted(argument):
        return [default]
    return [count(v, default) for v in grid(argument).ravel().tolist()]


def _order(keys: list[tuple[list[tuple[int, Any]], bool]], size: int) -> list[int]:
    """The positions 0..size-1 sorted by several keys (first key first), each ascending or descending
    (``True``); equal keys keep their order."""
    positions = list(range(size))
    for values, descending in reversed(keys):
        positions.sort(key=values.__getitem__, reverse=descending)
    return positions


def _direction(order: int) -> bool:
    """A sort_order (1 ascending, -1 descending) as ``descending``; anything else is #VALUE!."""
    if order not in (1, -1):
        raise fail("#VALUE!")
    return order == -1


def xsort(array: Any, sort_index: Any = None, sort_order: Any = None, by_col: Any = None) -> Array:
    """SORT(array, [sort_index], [sort_order], [by_col]): the rows (columns with ``by_col``) of ``array``
    ordered by the ``sort_index``-th column (row), ascending (1) or descending (-1); indexes and orders
    may be arrays for several keys. Text compares case-insensitively; ties keep their order.
    Microsoft Support, "SORT function"."""
    table = grid(array)
    columns = flag(by_col)
    if columns:
        table = table.T
    indexes, orders = _values(sort_index, 1), _values(sort_order, 1)
    if len(orders) == 1:
        orders *= len(indexes)
    if len(orders) != len(indexes) or not all(1 <= i <= table.shape[1] for i in indexes):
        raise fail("#VALUE!")
    keys = [([sort_key(v) for v in table[:, i - 1].tolist()], _direction(o)) for i, o in zip(indexes, orders)]
    result = table[_order(keys, table.shape[0])]
    return spilled(result.T if columns else result)


def _by_keys(table: np.ndarray, pairs: list[tuple[Any, Any]]) -> tuple[bool, list[tuple[list[Any], bool]]]:
    """SORTBY's by_arrays as sort keys, and whether they sort columns (one-row by_arrays) or rows."""
    keys: list[tuple[list[Any], bool]] = []
    orientation: bool | None = None
    for by_array, sort_order in pairs:
        by = grid(by_array)
        if by.shape == (table.shape[0], 1) and orientation is not True:
            orientation = False
        elif by.shape == (1, table.shape[1]) and orientation is not False:
            orientation = True
        else:
            raise fail("#VALUE!")
        keys.append(([sort_key(v) for v in by.ravel().tolist()], _direction(count(sort_order, 1))))
    return bool(orientation), keys


def xsortby(array: Any, by_array: Any, *orders_and_arrays: Any) -> Array:
    """SORTBY(array, by_array1, [sort_order1], [by_array2, sort_order2] ...): ``array``'s rows ordered by
    the values of one-column by_arrays as tall as it (its columns, by one-row by_arrays as wide);
    ascending (1) or descending (-1). Text compares case-insensitively; ties keep their order.
    Microsoft Support, "SORTBY function"."""
    table = grid(array)
    rest = (by_array, *orders_and_arrays)
    pairs = [(rest[i], rest[i + 1] if i + 1 < len(rest) else None) for i in range(0, len(rest), 2)]
    columns, keys = _by_keys(table, pairs)
    if columns:
        return spilled(table[:, _order(keys, table.shape[1])])
    return spilled(table[_order(keys, table.shape[0])])


def xunique(array: Any, by_col: Any = None, exactly_once: Any = None) -> Array:
    """UNIQUE(array, [by_col], [exactly_once]): the distinct rows (columns with ``by_col``) of ``array``
    in order of first appearance, or only those appearing exactly once. Text compares
    case-insensitively (the first spelling is kept). Nothing left: #CALC!. Microsoft Support,
    "UNIQUE function"."""
    table = grid(array)
    columns = flag(by_col)
    if columns:
        table = table.T
    keys = [tuple(sort_key(v) for v in row) for row in table.tolist()]
    if flag(exactly_once):
        counts = collections.Counter(keys)
        kept = [i for i, key in enumerate(keys) if counts[key] == 1]
    else:
        first = {key: i for i, key in reversed(list(enumerate(keys)))}
        kept = sorted(first.values())
    result = table[kept]
    return spilled(result.T if columns else result)


def _included(value: Any) -> bool:
    """A FILTER include value: TRUE or a non-zero number keeps; FALSE, 0 and blank drop; an error is
    raised; text is #VALUE!."""
    if isinstance(value, XlError):
        raise FoundError(err=value)
    if value is sh.EMPTY:
        return False
    if isinstance(value, (bool, np.bool_)) or is_number(value):
        return bool(value)
    raise fail("#VALUE!")


def xfilter(array: Any, include: Any, if_empty: Any = _MISSING) -> Array:
    """FILTER(array, include, [if_empty]): the rows of ``array`` whose entry in the one-column
    ``include`` is TRUE (its columns, for a one-row ``include`` as wide). Nothing kept: ``if_empty``,
    or #CALC! without it. Microsoft Support, "FILTER function"."""
    table, mask = grid(array), grid(include)
    keep = [_included(v) for v in mask.ravel().tolist()]
    if mask.shape == (table.shape[0], 1):
        result = table[keep]
    elif mask.shape == (1, table.shape[1]):
        result = table[:, keep]
    else:
        raise fail("#VALUE!")
    if result.size == 0 and if_empty is not _MISSING and if_empty is not sh.EMPTY:
        return spilled(grid(if_empty))
    return spilled(result)


# --- TAKE, DROP, EXPAND, WRAPROWS, WRAPCOLS, TOCOL, TOROW ----------------------------------------

def _taken(size: int, wanted: int | None) -> slice:
    """The first ``wanted`` (the last, if negative) of ``size`` positions; all if None."""
    if wanted is None:
        return slice(None)
    return slice(0, wanted) if wanted > 0 else slice(max(size + wanted, 0), size)


def _dropped(size: int, dropped: int) -> slice:
    """The positions left of ``size`` after dropping the first ``dropped`` (the last, if negative)."""
    return slice(dropped, size) if dropped >= 0 else slice(0, max(size + dropped, 0))


def _optional_count(value: Any) -> int | None:
    return None if is_omitted(value) else count(value, 0)


def xtake(array: Any, rows: Any = None, columns: Any = None) -> Array:
    """TAKE(array, rows, [columns]): the first ``rows`` rows and ``columns`` columns (the last ones for
    negative numbers; all when omitted or larger than the array); a 0 computed from cells is #CALC!.
    Microsoft Support, "TAKE function"."""
    table = grid(array)
    height, width = _optional_count(rows), _optional_count(columns)
    if height == 0 or width == 0:
        raise fail("#CALC!")
    return spilled(table[_taken(table.shape[0], height), _taken(table.shape[1], width)])


def xdrop(array: Any, rows: Any = None, columns: Any = None) -> Array:
    """DROP(array, rows, [columns]): ``array`` without its first ``rows`` rows and ``columns`` columns
    (the last ones for negative numbers); nothing left: #CALC!. Microsoft Support, "DROP function"."""
    table = grid(array)
    height, width = count(rows, 0), count(columns, 0)
    return spilled(table[_dropped(table.shape[0], height), _dropped(table.shape[1], width)])


def xexpand(array: Any, rows: Any = None, columns: Any = None, pad_with: Any = _MISSING) -> Array:
    """EXPAND(array, rows, [columns], [pad_with]): ``array`` enlarged to ``rows`` x ``columns`` (an
    omitted one keeps the array's), new cells filled with ``pad_with`` (default #N/A); smaller than the
    array: #VALUE!. Microsoft Support, "EXPAND function"."""
    table = grid(array)
    height, width = count(rows, table.shape[0]), count(columns, table.shape[1])
    if height < table.shape[0] or width < table.shape[1]:
        raise fail("#VALUE!")
    result = filled((height, width), NA if pad_with is _MISSING else single(pad_with), "EXPAND")
    result[:table.shape[0], :table.shape[1]] = table
    return spilled(result)


def _wrap(vector: Any, wrap_count: Any, pad_with: Any, by_columns: bool) -> Array:
    """WRAPROWS/WRAPCOLS: a single row or column cut into rows (columns) of ``wrap_count`` values, the
    last padded with ``pad_with`` (default the #N/A error). A 2-D array: #VALUE!; a count below 1: #NUM!."""
    values = grid(vector)
    if 1 not in values.shape:
        raise fail("#VALUE!")
    size = count(wrap_count, 0)
    if size < 1:
        raise fail("#NUM!")
    items = values.ravel().tolist()
    result = filled((math.ceil(len(items) / size), size), NA if pad_with is _MISSING else single(pad_with),
                    "WRAPCOLS" if by_columns else "WRAPROWS")
    for i, value in enumerate(items):
        result[divmod(i, size)] = value
    return spilled(result.T if by_columns else result)


def xwraprows(vector: Any, wrap_count: Any = None, pad_with: Any = _MISSING) -> Array:
    """WRAPROWS(vector, wrap_count, [pad_with]). Microsoft Support, "WRAPROWS function"."""
    return _wrap(vector, wrap_count, pad_with, by_columns=False)


def xwrapcols(vector: Any, wrap_count: Any = None, pad_with: Any = _MISSING) -> Array:
    """WRAPCOLS(vector, wrap_count, [pad_with]). Microsoft Support, "WRAPCOLS function"."""
    return _wrap(vector, wrap_count, pad_with, by_columns=True)


_IGNORED: dict[int, Callable[[Any], bool]] = {
    0: lambda v: False,
    1: lambda v: v is sh.EMPTY,
    2: lambda v: isinstance(v, XlError),
    3: lambda v: v is sh.EMPTY or isinstance(v, XlError),
}


def _line(array: Any, ignore: Any, scan_by_column: Any, as_row: bool) -> Array:
    """TOCOL/TOROW: ``array``'s values in one column (row), read by rows (by columns with
    ``scan_by_column``), skipping blanks (``ignore`` 1), errors (2) or both (3). Nothing left: #CALC!."""
    mode = count(ignore, 0)
    if mode not in _IGNORED:
        raise fail("#VALUE!")
    table = grid(array)
    if flag(scan_by_column):
        table = table.T
    line = column_of(v for v in table.ravel().tolist() if not _IGNORED[mode](v))
    return spilled(line.T if as_row else line)


def xtocol(array: Any, ignore: Any = None, scan_by_column: Any = None) -> Array:
    """TOCOL(array, [ignore], [scan_by_column]). Microsoft Support, "TOCOL function"."""
    return _line(array, ignore, scan_by_column, as_row=False)


def xtorow(array: Any, ignore: Any = None, scan_by_column: Any = None) -> Array:
    """TOROW(array, [ignore], [scan_by_column]). Microsoft Support, "TOROW function"."""
    return _line(array, ignore, scan_by_column, as_row=True)


FUNCTIONS: dict[str, Any] = {
    "SEQUENCE": wrap_func(xsequence),
    # volatile, as formulas registers RAND: computed when the formula runs, never while compiling
    "RANDARRAY": {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
                  "function": wrap_impure_func(wrap_func(xrandarray))},
    "SORT": wrap_func(xsort),
    "SORTBY": wrap_func(xsortby),
    "UNIQUE": wrap_func(xunique),
    "FILTER": wrap_func(xfilter),
    "TAKE": wrap_func(xtake),
    "DROP": wrap_func(xdrop),
    "EXPAND": wrap_func(xexpand),
    "WRAPROWS": wrap_func(xwraprows),
    "WRAPCOLS": wrap_func(xwrapcols),
    "TOCOL": wrap_func(xtocol),
    "TOROW": wrap_func(xtorow),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "DROP": {"spills": True},
    "EXPAND": {"spills": True},
    "FILTER": {"spills": True},
    "RANDARRAY": {"spills": True},
    "SEQUENCE": {"spills": True},
    "SORT": {"spills": True},
    "SORTBY": {"spills": True},
    "TAKE": {"spills": True},
    "TOCOL": {"spills": True},
    "TOROW": {"spills": True},
    "UNIQUE": {"spills": True},
    "WRAPCOLS": {"spills": True},
    "WRAPROWS": {"spills": True},
}
