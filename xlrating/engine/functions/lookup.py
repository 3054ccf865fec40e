"""Excel's lookup functions where ``formulas`` differs from Excel (see :mod:`xlrating.engine.functions`).

- XLOOKUP returned one value even when ``return_array`` is several columns (rows) wide: Excel returns
  the whole matching row (column), which spills (Microsoft Support, "XLOOKUP function", "return
  multiple values"). It also took a ``return_array`` of another length than ``lookup_array`` and a
  2-D ``lookup_array``; Excel gives #VALUE!.
- XMATCH searched a 2-D ``lookup_array`` flattened; Excel requires a single row or column (#VALUE!).
- LOOKUP's array form returned from the searched row or column's neighbour instead of the last one,
  and its vector form flattened a 2-D lookup_vector (see :func:`lookup`).
- INDEX answered a negative row_num or column_num next to a 0 with #REF!; Excel gives #VALUE! (see
  :func:`index`).
- ROWS and COLUMNS took only references: ``ROWS(UNIQUE(A2:A9))``, Excel's way of counting distinct
  values, gave #VALUE!. Excel counts the rows (columns) of an array as well (Microsoft Support, "ROWS
  function": "array  An array, an array formula, or a reference to a range of cells").

The matching itself (match modes, wildcards, binary search) is ``formulas``' XMATCH, which agrees
with Microsoft's examples.

MATCH with match_type 1, VLOOKUP and HLOOKUP with range_lookup TRUE and LOOKUP search as Excel
does, by halving over the whole range (:func:`binary_position`): on sorted data that is the largest
value not above the lookup value (the last of equal ones); on unsorted data or among values of
other types it lands where Excel's halving lands, checked against the values Excel saved
(``formulas`` walked the values from the first and stopped at the first larger one). MATCH with
-1 walks from the first value while the values are not below the lookup value, as Excel's saved
values show it does.

An if_not_found left out between commas (``XLOOKUP(x, a, b, , 1)``) is #N/A when nothing matches,
as in Excel; a typed 0 is 0.

An empty cell as XLOOKUP's lookup_value, or one left out, finds the first empty cell of
``lookup_array`` (the last, searching from the end), as a workbook Excel saved shows (IronCalc's
LOOKUP_AND_REFERENCE_XLOOKUP.xlsx: ``XLOOKUP(T12, R:R, S:S, "Not found :/")`` with T12 empty is 0,
from an empty S cell; ``XLOOKUP(, L:L, M:M, , 1, 2)`` over L1:L5 texts is M6, next to the first empty
L cell); ``formulas`` found nothing, or the first text.

XMATCH's and XLOOKUP's binary search (search_mode 2 and -2) is Excel's halving
(:func:`halving_position`): the first of equal values on ascending data, the last on descending
data, where the halving lands on unsorted data (``formulas`` stopped at the first equal value it met).
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import schedula as sh
from formulas.cell import CELL
from formulas.errors import FoundError
from formulas.functions import COMPILING, Array, get_error, wrap_func, wrap_impure_func, wrap_ufunc
from formulas.functions.look import (args_parser_hlookup, args_parser_match_array, args_parser_xlookup_array,
                                     args_parser_xmatch_array, input_parser_xlookup, input_parser_xmatch, xcolumn,
                                     xmatch, xrow)
from formulas.functions.look import xxmatch as walking_xmatch
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..formula.tree import column_letters
from ..formula.values import Area, is_omitted
from .arguments import text_number
from .dynamic_arrays import NA, fail, grid, spilled
from .library import formulas_function

_MISSING = object()


def _vector(lookup_array: Any) -> np.ndarray:
    """A lookup_array as a 2-D array; #VALUE! unless it is a single row or column."""
    table = grid(lookup_array)
    if 1 not in table.shape:
        raise fail("#VALUE!")
    return table


def halving_position(value_type: Any, value: Any, index: np.ndarray, types: np.ndarray, values: np.ndarray,
                     match_mode: int, ascending: bool) -> Any:
    """The 1-based position XMATCH's (and XLOOKUP's) binary search finds, search_mode 2 (``ascending``)
    or -2 (``formulas``' parsed arguments: type ids, texts case-folded; the types ordered numbers,
    texts, logical values, errors, empty cells, as ``formulas`` orders them).

    Excel halves the whole lookup_array: the middle of the part left is compared with the lookup
    value (its type first); an equal value is kept and the search goes on towards the first of equal
    values (the last, searching descending data with -2); a smaller value is kept as the value below
    and the search goes on towards the larger values, a larger value kept as the value above and the
    search goes on towards the smaller ones. The answer is the equal value kept last, else for
    match_mode -1 the value below kept last, for 1 the value above kept last, else #N/A. On sorted
    data that is the first of equal values (the last with -2), the next smaller or the next larger
    value; on unsorted data, where the halving lands. Excel's saved values (IronCalc's XLOOKUP book):
    XLOOKUP(5, A1:A13, B1:B13, , -1, 2) over 1,2,3,4,5,5,5,6,7,7,7,8,9 is the first 5's (row 5),
    XLOOKUP(7.1, ..., -1, 2) the last 7's (row 11); over the same values descending with -2 the last
    5's and the first 7's; ``formulas`` stopped at the first equal value met and kept the nearest
    value rather than the last one met (rows 7, 10). The unsorted mixed arrays of formulas' test.xlsx
    give the same as before.
    """
    key = (value_type, value)
    keys = list(zip(types.tolist(), values.tolist()))
    equal: Any = None
    below: Any = None
    above: Any = None
    left, right = 0, len(keys) - 1
    while left <= right:
        middle = (left + right) // 2
        probe = keys[middle]
        if probe == key:
            equal = index[middle]
            go_right = not ascending
        elif probe < key:
            below = index[middle]
            go_right = ascending
        else:
            above = index[middle]
            go_right = not ascending
        if go_right:
            left = middle + 1
        else:
            right = middle - 1
    found = equal
    if found is None:
        found = below if match_mode == -1 else above if match_mode == 1 else None
    return NA if found is None else found


def _xmatch_parsed(value_type: Any, value: Any, value_raw: Any, index: np.ndarray, types: np.ndarray,
                   values: np.ndarray, raw: np.ndarray, match_mode: Any = 0, search_mode: Any = 1) -> Any:
    """XMATCH of ``formulas``' parsed arguments: a binary search (search_mode 2 or -2) as
    :func:`halving_position` says, a search from the first or the last value as ``formulas`` does it."""
    if abs(search_mode) != 2:
        return walking_xmatch(value_type, value, value_raw, index, types, values, raw, match_mode, search_mode)
    if value is None:  # an empty lookup value: a type no value of the array has
        value_type, value = 3, -1
    return halving_position(value_type, value, index, types, values, int(match_mode), search_mode > 0)


def _xlookup_parsed(value_type: Any, value: Any, value_raw: Any, index: np.ndarray, types: np.ndarray,
                    values: np.ndarray, raw: np.ndarray, match_mode: Any = 0, search_mode: Any = 1,
                    if_not_found: Any = NA, return_array: Any = None) -> Any:
    """XLOOKUP of one lookup value (``formulas``' parsed arguments): the value of ``return_array`` at
    the position :func:`_xmatch_parsed` finds, else ``if_not_found``."""
    found = _xmatch_parsed(value_type, value, value_raw, index, types, values, raw, match_mode, search_mode)
    if isinstance(found, XlError):
        return if_not_found
    return np.asarray(return_array[found - 1], dtype=object).ravel()[0]


_XMATCH = wrap_ufunc(_xmatch_parsed, check_error=lambda *a: get_error(a[1]), excluded={3, 4, 5, 6},
                     args_parser=args_parser_xmatch_array, input_parser=input_parser_xmatch)
_XLOOKUP = wrap_ufunc(_xlookup_parsed, check_error=lambda *a: get_error(a[1]), excluded={3, 4, 5, 6, 10},
                      args_parser=args_parser_xlookup_array, input_parser=input_parser_xlookup)


def _position(lookup_value: Any, lookup_array: Any, modes: tuple[Any, ...]) -> Any:
    """XMATCH of one value: the 1-based position or an error value."""
    found = _XMATCH(lookup_value, lookup_array, *modes)
    return np.ravel(found)[0]


def xxmatch(lookup_value: Any, lookup_array: Any, *modes: Any) -> Any:
    """XMATCH(lookup_value, lookup_array, [match_mode], [search_mode]): the position of ``lookup_value``
    in the single row or column ``lookup_array``. Microsoft Support, "XMATCH function"."""
    _vector(lookup_array)
    return _XMATCH(lookup_value, lookup_array, *modes)


def _slices(lookup: np.ndarray, returned: np.ndarray) -> bool:
    """Whether XLOOKUP returns rows of ``returned`` (a one-column lookup_array as tall as it) rather
    than columns (a one-row lookup_array as wide); other shapes are #VALUE!."""
    if lookup.shape[1] == 1 and returned.shape[0] == lookup.shape[0]:
        return True
    if lookup.shape[0] == 1 and returned.shape[1] == lookup.shape[1]:
        return False
    raise fail("#VALUE!")


def _not_found(if_not_found: Any) -> Array:
    return spilled(grid(NA if if_not_found is _MISSING or is_omitted(if_not_found) else if_not_found))


def xxlookup(lookup_value: Any, lookup_array: Any, return_array: Any, if_not_found: Any = _MISSING,
             *modes: Any) -> Any:
    """XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found], [match_mode], [search_mode]):
    the row (column) of ``return_array`` at the position of ``lookup_value`` in the one-column (one-row)
    ``lookup_array``; nothing found: ``if_not_found``, else #N/A. Several lookup values: one result
    each, the first cell of its row (column). Microsoft Support, "XLOOKUP function"."""
    lookup, returned = _vector(lookup_array), grid(return_array)
    by_rows = _slices(lookup, returned)
    if grid(lookup_value).size > 1:
        fallback = () if if_not_found is _MISSING or is_omitted(if_not_found) else (if_not_found,)
        if modes and not fallback:
            fallback = (NA,)
        return _XLOOKUP(lookup_value, lookup_array, return_array, *fallback, *modes)
    value = grid(lookup_value)[0, 0]
    if isinstance(value, XlError):
        return spilled(grid(value))
    position = _empty_position(lookup, modes) if value is sh.EMPTY or is_omitted(value) else None
    if position is None:
        position = _position(lookup_value, lookup_array, modes)
    if isinstance(position, XlError):
        return _not_found(if_not_found) if str(position) == "#N/A" else spilled(grid(position))
    index = int(position) - 1
    return spilled(returned[index:index + 1, :] if by_rows else returned[:, index:index + 1])


def _empty_position(lookup: np.ndarray, modes: tuple[Any, ...]) -> int | None:
    """The 1-based position of the first empty cell of ``lookup`` (the last with a negative
    search_mode), or None when it has none."""
    empty = [i for i, entry in enumerate(lookup.ravel().tolist()) if entry is sh.EMPTY or entry is None]
    if not empty:
        return None
    search = modes[1] if len(modes) > 1 and not is_omitted(modes[1]) else 1
    search = np.ravel(search)[0] if isinstance(search, np.ndarray) else search
    from_end = isinstance(search, (int, float)) and not isinstance(search, bool) and search < 0
    return (empty[-1] if from_end else empty[0]) + 1


def _search_and_result(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LOOKUP's array form: (the row or column searched, the one returned). Microsoft Support, "LOOKUP
    function": an array wider than tall is searched in its first row and returns from its last row; a
    square or taller one is searched in its first column and returns from its last column."""
    if table.shape[1] > table.shape[0]:
        return table[0, :], table[-1, :]
    return table[:, 0], table[:, -1]


def binary_position(value_type: Any, value: Any, value_raw: Any, index: np.ndarray, types: np.ndarray,
                    values: np.ndarray, raw: np.ndarray, match_type: Any = 1) -> Any:
    """The 1-based position MATCH finds (``formulas``' parsed arguments: types, texts in lower case).

    - 0: an exact match, as ``formulas`` finds it.
    - 1: Excel's halving over the whole range: the middle of the range left is compared, the search
      goes on right of it when it is not above the lookup value, else left of it; the answer is the
      last value equal to the lookup value the search went right of (MATCH("delta", {"Alpha",
      "Beta","Delta","Delta","Gamma","Omega"}) is 4: IronCalc's MATCH book), else the last one
      below it, #N/A when there is none. A middle of another type than the lookup value (numbers,
      texts, logical values; errors and empty cells are none of them) is replaced by the nearest
      value of the type after it in the range left; when there is none, the search goes on left of
      it. Excel's saved values (formulas' test.xlsx): LOOKUP(4.1, {"b",4.1,"a",1.1}) is 4.1 but
      LOOKUP(20, {"b",4.1,"a",1.1}) is 1.1, LOOKUP(4.1, {"a",2.1,"b",4.1}) 4.1, LOOKUP("b",
      {TRUE,4.1,FALSE,"b"}) "b", and MATCH of anything below 4.1 in {"b",4.1,"a",1.1} #N/A, which
      searching the values of the type alone (4.1, 1.1) does not give.
    - -1: the values of the type from the first, as long as they are not below the lookup value
      (stopping at an equal one); the last of them, #N/A when the first is below. Excel's saved
      values: MATCH(1.1, {-1.1,2.1,3.1,4.1}, -1) is #N/A (formulas' test.xlsx), MATCH(0, {0,1,2,3,4},
      -1) is 1 and MATCH(-1, {0,1,2,3,4}, -1) is 5 (pycel's lookup.xlsx), which no halving gives.
    """
    if not match_type:
        return xmatch(value_type, value, value_raw, index, types, values, raw, match_type)
    if match_type < 0:
        found: Any = NA
        for position, same, candidate in zip(index.tolist(), (types == value_type).tolist(), values.tolist()):
            if not same:
                continue
            if candidate < value:
                break
            found = position
            if candidate == value:
                break
        return found
    # for each position, the nearest one at or after it holding a value of the type (len: none)
    size = len(values)
    after = np.minimum.accumulate(np.where(types == value_type, np.arange(size), size)[::-1])[::-1]
    equal: Any = None
    below: Any = NA
    low, high = 0, size - 1
    while low <= high:
        middle = (low + high) // 2
        probe = int(after[middle])
        if probe > high or values[probe] > value:
            high = middle - 1
            continue
        if values[probe] == value:
            equal = index[probe]
        else:
            below = index[probe]
        low = probe + 1
    return below if equal is None else equal


def _binary_lookup(value_type: Any, value: Any, value_raw: Any, index: np.ndarray, types: np.ndarray,
                   values: np.ndarray, raw: np.ndarray, match_type: Any = 1, result: Any = None) -> Any:
    """VLOOKUP's and HLOOKUP's value: the row (column) :func:`binary_position` finds."""
    found = binary_position(value_type, value, value_raw, index, types, values, raw, match_type)
    if isinstance(found, XlError):
        return found
    return np.asarray(result[found - 1], dtype=object).ravel()[0]


def _table_parser(transpose: bool) -> Any:
    """VLOOKUP's (``transpose``) or HLOOKUP's arguments as ``formulas`` parses them, once the
    col_index_num (row_index_num) is checked as Excel does (Microsoft's VLOOKUP page): truncated, below
    1 is #VALUE! once the value is found (EPPlus' FormulaTest workbook, saved by Excel:
    ``VLOOKUP(8,B3:B7,FALSE)`` finds 7 and is #VALUE!, ``VLOOKUP(8,I10:I28,0,FALSE)`` finds nothing
    and is #N/A), past the table #REF!; text that is no number #VALUE!, an error that error.
    ``formulas`` read FALSE (0) as -1, Python's index of the last column, and 0.5 as the first."""
    def parse(value: Any, table: Any, index: Any, match_type: Any = 1) -> Any:
        number = np.asarray(index, dtype=object).ravel()[0] if np.size(index) else sh.EMPTY
        if isinstance(number, XlError):
            raise FoundError(err=number)
        if number is sh.EMPTY:
            number = 0.0
        elif isinstance(number, str):
            number = text_number(number)
            if number is None:
                raise FoundError(err=Error.errors["#VALUE!"])
        column = int(float(number))
        parsed = args_parser_hlookup(value, table, max(column, 1), match_type, transpose=transpose)
        if column < 1:  # what the search finds is #VALUE!; nothing found stays #N/A
            refused = np.empty(len(parsed[-1]), dtype=object)
            refused[:] = [Error.errors["#VALUE!"]] * len(refused)
            parsed = (*parsed[:-1], refused)
        return parsed
    return parse


def _searching(function: Any, args_parser: Any) -> Any:
    return wrap_ufunc(function, input_parser=lambda *a: a, args_parser=args_parser,
                      check_error=lambda *a: get_error(a[1]), excluded={3, 4, 5, 6, 7, 8})


MATCH = _searching(binary_position, args_parser_match_array)


def lookup(lookup_value: Any, lookup_vector: Any, result_vector: Any = _MISSING) -> Any:
    """LOOKUP(lookup_value, array) and LOOKUP(lookup_value, lookup_vector, [result_vector]).

    Approximate match, as Microsoft documents it: the largest value less than or equal to
    ``lookup_value`` in the searched row or column (assumed sorted ascending); values of another type
    than ``lookup_value`` (text, number, TRUE/FALSE) and errors are skipped; nothing small enough is
    #N/A. The search is MATCH(..., 1)'s, Excel's halving (:func:`binary_position`).

    - Array form (two arguments): searched and returned as :func:`_search_and_result` says.
    - Vector form: a 2-D lookup_vector is searched like the array form (first row if wider than tall,
      else first column), as the workbook Excel saved shows (``LOOKUP("plugh", B5:C9, C5:C9)`` is #N/A
      although C5:C9 holds text). The n-th value found is the n-th value of ``result_vector``, whatever
      its orientation (a column may look up into a row). A position past the end of ``result_vector``
      is #N/A, and so is a ``result_vector`` more than one row and one column (as Excel saved
      ``LOOKUP(2, B5:C9, E5:F9)``).
    - An empty cell found is 0; an error value found is returned as it is; an array of lookup values
      gives an array of results.
    """
    table = grid(lookup_vector)
    searched, returned = _search_and_result(table)
    if result_vector is not _MISSING:
        result = grid(result_vector)
        if 1 not in result.shape:
            return NA
        returned = result.ravel()
    positions = grid(MATCH(lookup_value, searched.reshape(-1, 1).view(Array), 1))

    def pick(position: Any) -> Any:
        if isinstance(position, XlError):
            return position
        i = int(position) - 1
        if i >= returned.size:
            return NA
        value = returned[i]
        return 0.0 if value is sh.EMPTY or value is None else value

    out = np.empty(positions.shape, dtype=object)
    for (r, c), position in np.ndenumerate(positions):
        out[r, c] = pick(position)
    if out.size == 1 and grid(lookup_value).size == 1:
        return out[0, 0]
    return out.view(Array)


def _dimension(name: str, axis: int) -> Any:
    """ROWS (``axis`` 0) or COLUMNS (1) of a reference (``formulas``' own) or of an array or value."""
    def dimension(array: Any) -> Any:
        if isinstance(array, Area) and len(array.ranges) == 1:
            return float(array.size[axis])  # a whole column (row) counts every row (column)
        if isinstance(array, Ranges):
            return formulas_function(name)(array)
        value = grid(array)
        if value.size == 1 and isinstance(value[0, 0], XlError):
            return spilled(value)
        return spilled(grid(float(value.shape[axis])))

    dimension.__name__ = name.lower()
    return wrap_func(dimension, ranges=True)


def _row_or_column(position_of: Any) -> dict[str, Any]:
    """ROW or COLUMN (``formulas``' own, which reads the formula's cell when given no reference)
    with an error for a reference passed on as it is: ROW(INDIRECT("h")) is #REF!, as a workbook
    Excel saved has it (IronCalc's LOOKUP_AND_REFERENCE_ROW_COLUM.xlsx); ``formulas`` gave #VALUE!."""
    def evaluate(cell: Any = None, ref: Any = None) -> Any:
        if isinstance(ref, XlError):
            return ref
        return position_of(cell, ref)

    evaluate.__name__ = position_of.__name__
    return {"extra_inputs": collections.OrderedDict([(CELL, None)]), "function": wrap_func(evaluate, ranges=True)}


def choose(index: Any, *values: Any) -> Any:
    """CHOOSE(index_num, value1, [value2], ...): with one index, the value it picks as it is (a
    reference stays a reference: ``SUM(CHOOSE(2, A1:A2, B1:B5))`` adds B1:B5); an index outside
    1..count is #VALUE!. An array of indexes picks element by element (``formulas``' CHOOSE)."""
    from .logical import single

    scalar, value = single(index)
    if not scalar:
        found = formulas_function("CHOOSE")
        parsed = [a.value if isinstance(a, Ranges) else a for a in (index, *values)]
        return (found["function"] if isinstance(found, dict) else found)(*parsed)
    if isinstance(value, XlError):
        return value
    try:
        number = int(float(value))  # truncated, as Excel reads index_num
    except (TypeError, ValueError):
        return Error.errors["#VALUE!"]
    if not 1 <= number <= len(values):
        return Error.errors["#VALUE!"]
    return values[number - 1]


def _one_row(array: Any) -> bool:
    """Whether ``array`` (a reference to one area, or an array) is a single row of several cells."""
    if isinstance(array, Ranges):
        if len(array.ranges) != 1:
            return False
        area = array.ranges[0]
        return int(area["r1"]) == int(area["r2"]) and int(area["n2"]) > int(area["n1"])
    if isinstance(array, np.ndarray):
        return array.ndim == 2 and array.shape[0] == 1 and array.shape[1] > 1
    return False


def index(array: Any, row_num: Any, col_num: Any = None, area_num: Any = 1) -> Any:
    """INDEX(array, row_num, [column_num], [area_num]): a row_num or column_num of 0 is the whole
    column or row (a reference stays a reference: ``SUM(INDEX(B1:D5, 0, 2))`` adds C1:C5), which
    ``formulas`` answered with the first cell; of a single row, a lone row_num picks the column
    (Microsoft: the argument of a single row or column is optional), where ``formulas`` gave #REF!;
    everything else as ``formulas`` computes it.

    Wrong indexes, as Microsoft documents them and the workbook Excel saved shows: a row_num or
    column_num that is not a number or is negative is #VALUE!, even when the other one is beyond the
    array (``INDEX(B2:F6, 6, -1)``) or 0 (``INDEX(B2:F6, -1, 0)``); one beyond the array is #REF!."""
    from formulas.functions.look import xindex

    from .logical import single

    row_ok, row = single(row_num)
    col_ok, col = single(col_num) if col_num is not None else (True, None)
    area_ok, area_number = single(area_num)
    if not isinstance(array, Ranges) and area_ok and isinstance(area_number, (int, float)) \
            and not isinstance(area_number, bool) and int(area_number) > 1:
        return Error.errors["#REF!"]  # an array is one area (INDEX({1,2,3},1,0,2))
    if col_num is None and row_ok and not isinstance(row, XlError) and _one_row(array):
        return index(array, 1, row_num, area_num)  # INDEX({2,3,4}, 2) is 3: the n-th cell of a single row
    whole = row_ok and col_ok and (row == 0 or col == 0) and not isinstance(row, XlError) \
        and not isinstance(col, XlError) and not (isinstance(array, Ranges) and len(array.ranges) != 1)
    if not whole:
        return xindex(array, row_num, *(() if col_num is None else (col_num,)), area_num)
    values = np.atleast_2d(np.asarray(array.value if isinstance(array, Ranges) else array, dtype=object))
    try:
        r, c = int(float(row or 0)), int(float(col or 0))
    except (TypeError, ValueError):
        return Error.errors["#VALUE!"]
    if r < 0 or c < 0:
        return Error.errors["#VALUE!"]
    height, width = values.shape
    if col_num is None and height == 1:  # INDEX(row, n): the n-th cell of a single row
        r, c = 1 if r else 0, r
    if not (0 <= r <= height and 0 <= c <= width):
        return Error.errors["#REF!"]
    rows = slice(None) if r == 0 else slice(r - 1, r)
    cols = slice(None) if c == 0 else slice(c - 1, c)
    part = values[rows, cols]
    if not isinstance(array, Ranges):
        return part.view(Array)
    area = array.ranges[0]
    top, left = max(int(area["r1"]), 1) + (0 if r == 0 else r - 1), max(int(area["n1"]), 1) + (0 if c == 0 else c - 1)
    sheet = area.get("sheet")
    label = "'" + str(sheet).replace("'", "''") + "'!" if sheet else ""
    ref = f"{label}{column_letters(left)}{top}:{column_letters(left + part.shape[1] - 1)}{top + part.shape[0] - 1}"
    return Ranges().push(ref, part)


def hyperlink(link_location: Any, friendly_name: Any = _MISSING) -> Any:
    """HYPERLINK(link_location, [friendly_name]): the cell shows ``friendly_name`` (a number stays a
    number, an empty cell is 0, an error is shown instead of the jump text), or the link text when
    it is left out (Microsoft's HYPERLINK page; IronCalc's link_test.xlsx, saved by Excel, shows
    "Go to Target!A1" for HYPERLINK("#Target!A1","Go to Target!A1") and 0 for
    HYPERLINK("https://"&E21,E21) over an empty E21). The link itself is kept in the formula, which
    the written workbook keeps; an error in ``link_location`` is the result, as for any argument."""
    if isinstance(link_location, XlError):
        return link_location
    shown = link_location if friendly_name is _MISSING or is_omitted(friendly_name) else friendly_name
    return 0.0 if shown is sh.EMPTY else shown


FUNCTIONS: dict[str, Any] = {
    "HYPERLINK": wrap_ufunc(hyperlink, input_parser=lambda *a: a, check_error=lambda *a: None, check_nan=False,
                            args_parser=lambda *a: a),
    "INDEX": {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
              "function": wrap_impure_func(wrap_func(index, ranges=True))},
    "CHOOSE": wrap_func(choose, ranges=True),
    "LOOKUP": wrap_func(lookup),
    "MATCH": MATCH,
    "VLOOKUP": _searching(_binary_lookup, _table_parser(transpose=True)),
    "HLOOKUP": _searching(_binary_lookup, _table_parser(transpose=False)),
    "XLOOKUP": wrap_func(xxlookup),
    "XMATCH": wrap_func(xxmatch),
    "ROW": _row_or_column(xrow),
    "COLUMN": _row_or_column(xcolumn),
    "ROWS": _dimension("ROWS", 0),
    "COLUMNS": _dimension("COLUMNS", 1),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "CHOOSE": {},
    "COLUMN": {},
    "COLUMNS": {"one_value": True},
    "HLOOKUP": {"one_value": True, "arrays": True, "memoised": True},
    "HYPERLINK": {},
    "INDEX": {"one_value": True, "arrays": True},
    "LOOKUP": {"arrays": True},
    "MATCH": {"one_value": True, "arrays": True, "memoised": True},
    "ROW": {},
    "ROWS": {"one_value": True},
    "VLOOKUP": {"one_value": True, "arrays": True, "memoised": True},
    "XLOOKUP": {"spills": True},
    "XMATCH": {"one_value": True},
}
