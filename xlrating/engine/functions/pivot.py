"""GROUPBY, PIVOTBY and PERCENTOF (Excel 365): values grouped by the keys of row (and column) fields,
aggregated by a function, laid out as Excel spills them.

The layout follows Microsoft's pages for the two functions and the results Excel saved in formulas'
test.xlsx (its LOOKUP and EXTRA sheets hold GROUPBY and PIVOTBY spills of every argument):

- field_headers: 0 no headers; 1 the first row holds headers, not shown; 3 headers, shown; left out,
  headers when the first value is text and the one under it a number (then as 1). The first row of
  row_fields, col_fields, values and filter_array is the header row. (2, headers generated, is not
  computed: Excel's generated names are not documented.)
- GROUPBY: [headers], one row per group, keys then one column per value column; total_depth 1 a
  "Total" row at the end, 2 and more also subtotal rows (the group's keys, blank below their
  level) after each group of the levels above the last, the last row then "Grand Total"; negative,
  the same at the top of their groups; 0 none.
- PIVOTBY: one header row per column field (its keys, repeated for each value column), above the
  row keys a blank corner; with headers shown a row above them with the column fields' names
  joined by ", " and a row below with the row fields' names and the values' names under each
  column. The column total is a "Total" column at the right (col_total_depth 1) or left (-1).
- Keys are sorted as Excel sorts (numbers, then text without regard to case, then TRUE/FALSE, then
  errors), each field ascending unless sort_order says otherwise: a field's index (negative:
  descending), or an index past the fields, the value column whose totals order the last level.
  field_relationship 0 keeps the fields a hierarchy; 1 (table) sorts the rows by the sort order
  alone.
- Each cell is the function of the values of its rows (a total: of all the rows it covers, not of
  the cells above it); an empty combination is blank. PERCENTOF is the cell's sum over the sum of
  its reference: all the values (GROUPBY), or PIVOTBY's relative_to: 0 the column's total, 1 the
  row's, 2 the grand total, 3 the parent column's, 4 the parent row's.

What is not computed (warnings): generated headers, several functions at once, a filter of
several columns, column subtotals, subtotals of a table (field_relationship 1), a LAMBDA returning
an array.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted, not_computed
from .arguments import number, scalar

_VALUE = Error.errors["#VALUE!"]
_DIV0 = Error.errors["#DIV/0!"]
_NUM = Error.errors["#NUM!"]
_CALC = XlError("#CALC!")
_BLANK = ""


class _Answer(Exception):
    def __init__(self, value: Any):
        self.value = value


# --- reading the arguments ----------------------------------------------------------------------

def _table(value: Any) -> list[list[Any]]:
    cells = np.asarray(value, dtype=object)
    if cells.ndim == 0:
        cells = cells.reshape(1, 1)
    elif cells.ndim == 1:
        cells = cells.reshape(-1, 1)
    return [[_plain(c) for c in row] for row in cells.tolist()]


def _plain(cell: Any) -> Any:
    cell = scalar(cell)
    if cell is sh.EMPTY or cell is None:
        return None
    if isinstance(cell, (bool, np.bool_)):
        return bool(cell)
    if isinstance(cell, (int, float, np.integer, np.floating)):
        return float(cell)
    return cell


def _is_number(cell: Any) -> bool:
    return isinstance(cell, float)


def _int_argument(value: Any, default: int, name: str) -> int:
    if is_omitted(value):
        return default
    cells = np.asarray(value, dtype=object).ravel().tolist()
    if len(cells) != 1:
        raise not_computed(f"{name}: an array where one number is expected")
    cell = cells[0]
    if isinstance(cell, XlError):
        raise _Answer(cell)
    read = number(cell)
    if read is None:
        raise _Answer(_VALUE)
    return int(read)


def _sort_specs(value: Any) -> list[int]:
    if is_omitted(value):
        return [1]
    specs = []
    for cell in np.asarray(value, dtype=object).ravel().tolist():
        if isinstance(cell, XlError):
            raise _Answer(cell)
        read = number(cell)
        if read is None or int(read) == 0:
            raise _Answer(_VALUE)
        specs.append(int(read))
    return specs


def _has_headers(mode: int, values: list[list[Any]], name: str) -> tuple[bool, bool]:
    """(the first row is headers, they are shown) for field_headers ``mode`` (-1: left out)."""
    if mode == -1:
        detected = len(values) >= 2 and isinstance(values[0][0], str) and _is_number(values[1][0])
        return detected, False
    if mode == 0:
        return False, False
    if mode == 1:
        return True, False
    if mode == 3:
        return True, True
    if mode == 2:
        raise not_computed(f"{name}: field_headers 2, the header names Excel generates are not documented")
    raise _Answer(_VALUE)


def _filter(value: Any, rows: int, start: int, name: str) -> list[bool]:
    """Which of the ``rows`` rows the filter keeps (its first ``start`` rows, the headers', unread)."""
    if is_omitted(value):
        return [True] * rows
    table = _table(value)
    if table and len(table[0]) != 1:
        raise not_computed(f"{name}: a filter_array of several columns")
    if len(table) != rows:
        raise _Answer(_VALUE)
    kept = [False] * start
    for (cell,) in table[start:]:
        if isinstance(cell, XlError):
            raise _Answer(cell)
        if cell is None:
            kept.append(False)
        elif isinstance(cell, (bool, float)):
            kept.append(bool(cell))
        else:
            raise _Answer(_VALUE)
    return kept


# --- the aggregating functions -----------------------------------------------------------------

def _numbers(cells: Sequence[Any]) -> list[float]:
    for cell in cells:
        if isinstance(cell, XlError):
            raise _Answer(cell)
    return [c for c in cells if _is_number(c)]


def _aggregate_of(reduce: Callable[[list[float]], Any]) -> Callable[[Sequence[Any]], Any]:
    def aggregate(cells: Sequence[Any]) -> Any:
        try:
            return reduce(_numbers(cells))
        except _Answer as answer:
            return answer.value
    return aggregate


def _spread(function: Callable[[list[float]], float], least: int) -> Callable[[list[float]], Any]:
    return lambda v: function(v) if len(v) >= least else _DIV0


_AGGREGATES: dict[str, Callable[[Sequence[Any]], Any]] = {
    "SUM": _aggregate_of(lambda v: float(sum(v))),  # added in order, as SUM adds
    "AVERAGE": _aggregate_of(lambda v: sum(v) / len(v) if v else _DIV0),
    "COUNT": lambda cells: float(sum(1 for c in cells if _is_number(c))),
    "COUNTA": lambda cells: float(sum(1 for c in cells if c is not None)),
    "MAX": _aggregate_of(lambda v: max(v, default=0.0)),
    "MIN": _aggregate_of(lambda v: min(v, default=0.0)),
    "PRODUCT": _aggregate_of(lambda v: math.prod(v) if v else 0.0),
    "MEDIAN": _aggregate_of(lambda v: statistics.median(v) if v else _NUM),
    "STDEV.S": _aggregate_of(_spread(statistics.stdev, 2)),
    "STDEV.P": _aggregate_of(_spread(statistics.pstdev, 1)),
    "VAR.S": _aggregate_of(_spread(statistics.variance, 2)),
    "VAR.P": _aggregate_of(_spread(statistics.pvariance, 1)),
}


def _percent_of(cells: Sequence[Any], reference: Sequence[Any]) -> Any:
    """PERCENTOF(data_subset, data_all): the sum of the subset's numbers over the sum of all's, added
    in order as SUM adds them (text, TRUE/FALSE and empty cells left out); an error in either is
    #NUM!, not that error (formulas' test.xlsx, saved by Excel: PERCENTOF(K49:L49,D49:G49) over
    #VALUE!, #N/A is #NUM!); a whole of 0 #DIV/0!."""
    if any(isinstance(c, XlError) for c in (*cells, *reference)):
        return _NUM
    part, whole = sum(c for c in cells if _is_number(c)), sum(c for c in reference if _is_number(c))
    return part / whole if whole else _DIV0


class _Function:
    """The function argument: a function named by eta (``SUM``), or a LAMBDA of one array."""

    def __init__(self, function: Any, name: str):
        if isinstance(function, np.ndarray):
            cells = function.ravel().tolist()
            if len(cells) != 1:
                raise not_computed(f"{name}: several functions at once")
            function = cells[0]
        if isinstance(function, XlError):
            raise _Answer(function)
        if not callable(function):
            raise _Answer(_VALUE)
        self.eta = getattr(function, "eta_name", None)
        self.function = function
        self.name = name
        self.relative = self.eta == "PERCENTOF"

    def __call__(self, cells: Sequence[Any], reference: Sequence[Any]) -> Any:
        if self.relative:
            return _percent_of(cells, reference)
        known = _AGGREGATES.get(self.eta) if self.eta else None
        if known is not None:
            return known(cells)
        column = np.empty((len(cells), 1), dtype=object)
        column[:, 0] = [sh.EMPTY if c is None else c for c in cells]
        try:
            result = self.function(column.view(Array))
        except Exception:  # noqa: BLE001 - formulas raises for a function given the wrong arguments
            return _VALUE
        result = np.asarray(result, dtype=object)
        if result.size != 1:
            if self.eta:  # IF given the values alone: Excel's cells are #VALUE!
                return _VALUE
            raise not_computed(f"{self.name}: a LAMBDA returning an array")
        return _plain(result.ravel()[0])


# --- keys, groups and their order ----------------------------------------------------------------

def _order(cell: Any) -> tuple[Any, ...]:
    """Excel's sort order: numbers, text (case ignored), TRUE/FALSE, errors, blanks."""
    if _is_number(cell):
        return (0, cell)
    if isinstance(cell, str):
        return (1, cell.casefold())
    if isinstance(cell, bool):
        return (2, cell)
    if isinstance(cell, XlError):
        return (3, str(cell))
    return (4,)


def _identity(cell: Any) -> Any:
    return cell.casefold() if isinstance(cell, str) else (str(cell) if isinstance(cell, XlError) else cell)


class _Axis:
    """The groups of one axis (GROUPBY's rows; PIVOTBY's rows or columns): its entries in display
    order, each (keys shown, the data rows it covers, its level: fields given, 0 for the total)."""

    def __init__(self, keys: list[tuple[Any, ...]], rows: list[int], depth: int, specs: list[int],
                 table: bool, value_of: Callable[[list[int], int], Any], values: int, name: str):
        self.fields = len(keys[0]) if keys else 0
        self.entries: list[tuple[tuple[Any, ...], list[int], int]] = []
        fields = self.fields
        directions = [1] * fields
        value_sort: tuple[int, int] | None = None  # (value column, direction)
        chosen: list[int] = []
        for spec in specs:
            index = abs(spec)
            if index <= fields:
                directions[index - 1] = 1 if spec > 0 else -1
                chosen.append(index - 1)
            elif index <= fields + values:
                value_sort = (index - fields - 1, 1 if spec > 0 else -1)
            else:
                raise _Answer(_VALUE)
        self._keys, self._value_of = keys, value_of
        self._directions, self._value_sort = directions, value_sort
        levels = min(abs(depth) - 1, fields - 1) if abs(depth) >= 2 else 0
        if table and levels:
            raise not_computed(f"{name}: subtotals of fields related as a table")
        self._subtotal_levels, self._top = levels, depth < 0
        if table:
            self._flat(rows, chosen)
        else:
            self._tree(rows, 0)
        if depth:
            total = ((), list(rows), 0)
            if depth < 0:
                self.entries.insert(0, total)
            else:
                self.entries.append(total)
        self.grand_label = "Grand Total" if levels else "Total"

    def _sorted_groups(self, rows: list[int], level: int, last: bool) -> list[tuple[Any, list[int]]]:
        groups: dict[Any, tuple[Any, list[int]]] = {}
        for row in rows:
            key = self._keys[row][level]
            identity = _identity(key)
            if identity not in groups:
                groups[identity] = (key, [])
            groups[identity][1].append(row)
        ordered = sorted(groups.values(), key=lambda g: _order(g[0]), reverse=self._directions[level] < 0)
        if last and self._value_sort is not None:
            column, direction = self._value_sort
            ordered.sort(key=lambda g: _order(self._value_of(g[1], column)), reverse=direction < 0)
        return ordered

    def _tree(self, rows: list[int], level: int, prefix: tuple[Any, ...] = ()) -> None:
        last = level == self.fields - 1
        for key, members in self._sorted_groups(rows, level, last):
            keys = (*prefix, key)
            if last:
                self.entries.append((keys, members, self.fields))
                continue
            subtotal = (keys, members, level + 1) if level + 1 <= self._subtotal_levels else None
            if subtotal and self._top:
                self.entries.append(subtotal)
            self._tree(members, level + 1, keys)
            if subtotal and not self._top:
                self.entries.append(subtotal)

    def _flat(self, rows: list[int], chosen: list[int]) -> None:
        fields = [*chosen, *(f for f in range(self.fields) if f not in chosen)]
        groups: dict[tuple[Any, ...], tuple[tuple[Any, ...], list[int]]] = {}
        for row in rows:
            identity = tuple(_identity(k) for k in self._keys[row])
            groups.setdefault(identity, (self._keys[row], []))[1].append(row)
        ordered = list(groups.values())
        for field in reversed(fields):
            ordered.sort(key=lambda g: _order(g[0][field]), reverse=self._directions[field] < 0)
        if self._value_sort is not None:
            column, direction = self._value_sort
            ordered.sort(key=lambda g: _order(self._value_of(g[1], column)), reverse=direction < 0)
        self.entries.extend((keys, members, self.fields) for keys, members in ordered)

    def labels(self, keys: tuple[Any, ...], level: int) -> list[Any]:
        """The key cells an entry shows: its keys, blank below its level; the total its label."""
        if level == 0:
            return [self.grand_label] + [_BLANK] * (self.fields - 1)
        return [_shown(k) for k in keys] + [_BLANK] * (self.fields - len(keys))


def _shown(cell: Any) -> Any:
    return _BLANK if cell is None else cell


# --- GROUPBY and PIVOTBY ------------------------------------------------------------------------

class _Data:
    """The arguments' rows once headers are split off and the filter applied."""

    def __init__(self, fields: list[list[list[Any]]], values: Any, headers: Any, filter_array: Any, name: str):
        self.values = _table(values)
        self.fields = fields
        if any(len(f) != len(self.values) for f in fields):
            raise _Answer(_VALUE)
        mode = -1 if is_omitted(headers) else _int_argument(headers, -1, name)
        self.has_headers, self.shown = _has_headers(mode, self.values, name)
        start = 1 if self.has_headers else 0
        kept = _filter(filter_array, len(self.values), start, name)
        self.rows = [r - start for r in range(start, len(self.values)) if kept[r]]
        self.value_headers = self.values[0] if self.has_headers else []
        self.field_headers = [f[0] for f in fields] if self.has_headers else [[] for _ in fields]
        self.values = self.values[start:]
        self.keys = [[tuple(row) for row in f[start:]] for f in fields]
        self.width = len(self.values[0]) if self.values else 0
        if not self.rows:
            raise _Answer(_CALC)  # nothing left after the filter: an empty array

    def column(self, rows: list[int], column: int) -> list[Any]:
        return [self.values[r][column] for r in rows]


def _spill(rows: list[list[Any]]) -> Any:
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        out[i, :] = [_shown(c) for c in row]
    return out.view(Array)


def groupby(row_fields: Any, values: Any, function: Any, field_headers: Any = None, total_depth: Any = None,
            sort_order: Any = None, filter_array: Any = None, field_relationship: Any = None) -> Any:
    """GROUPBY(row_fields, values, function, [field_headers], [total_depth], [sort_order],
    [filter_array], [field_relationship])."""
    name = "GROUPBY"
    try:
        data = _Data([_table(row_fields)], values, field_headers, filter_array, name)
        apply = _Function(function, name)
        depth = _int_argument(total_depth, 1, name)
        table = _int_argument(field_relationship, 0, name)
        if table not in (0, 1):
            raise _Answer(_VALUE)
        everything = data.rows

        def value_of(rows: list[int], column: int) -> Any:
            return apply(data.column(rows, column), data.column(everything, column))

        axis = _Axis(data.keys[0], data.rows, depth, _sort_specs(sort_order), table == 1, value_of,
                     data.width, name)
        out: list[list[Any]] = []
        if data.shown:
            out.append([*data.field_headers[0], *data.value_headers])
        for keys, rows, level in axis.entries:
            out.append([*axis.labels(keys, level), *(value_of(rows, c) for c in range(data.width))])
        return _spill(out)
    except _Answer as answer:
        return answer.value


def pivotby(row_fields: Any, col_fields: Any, values: Any, function: Any, field_headers: Any = None,
            row_total_depth: Any = None, row_sort_order: Any = None, col_total_depth: Any = None,
            col_sort_order: Any = None, filter_array: Any = None, relative_to: Any = None) -> Any:
    """PIVOTBY(row_fields, col_fields, values, function, [field_headers], [row_total_depth],
    [row_sort_order], [col_total_depth], [col_sort_order], [filter_array], [relative_to])."""
    name = "PIVOTBY"
    try:
        data = _Data([_table(row_fields), _table(col_fields)], values, field_headers, filter_array, name)
        apply = _Function(function, name)
        col_depth = _int_argument(col_total_depth, 1, name)
        if abs(col_depth) >= 2:
            raise not_computed(f"{name}: column subtotals (col_total_depth {col_depth})")
        relative = _int_argument(relative_to, 0, name)
        if relative not in range(5):
            raise _Answer(_VALUE)
        row_keys, col_keys = data.keys
        everything = set(data.rows)

        def cell(rows: list[int], columns: list[int], row_parent: list[int], col_parent: list[int],
                 column: int) -> Any:
            subset = sorted(set(rows) & set(columns))
            if not subset:
                return _BLANK
            reference = {0: columns, 1: rows, 2: everything, 3: set(rows) & set(col_parent),
                         4: set(columns) & set(row_parent)}[relative]
            return apply(data.column(subset, column), data.column(sorted(reference), column))

        def row_value(rows: list[int], column: int) -> Any:
            return cell(rows, data.rows, data.rows, data.rows, column)

        def col_value(columns: list[int], column: int) -> Any:
            return cell(data.rows, columns, data.rows, data.rows, column)

        rows_axis = _Axis(row_keys, data.rows, _int_argument(row_total_depth, 1, name),
                          _sort_specs(row_sort_order), False, row_value, data.width, name)
        cols_axis = _Axis(col_keys, data.rows, col_depth, _sort_specs(col_sort_order), False, col_value,
                          data.width, name)
        parents_of_rows = _parents(rows_axis, data.rows)
        parents_of_cols = _parents(cols_axis, data.rows)
        n_row, n_col, width = rows_axis.fields, cols_axis.fields, data.width
        out: list[list[Any]] = []
        if data.shown:
            names = ", ".join(str(_shown(h)) for h in data.field_headers[1])
            out.append([_BLANK] * n_row + [names] + [_BLANK] * (len(cols_axis.entries) * width - 1))
        for level in range(n_col):
            line = [_BLANK] * n_row
            for keys, _rows, entry_level in cols_axis.entries:
                label = cols_axis.labels(keys, entry_level)[level] if entry_level else (
                    "Total" if level == 0 else _BLANK)
                line.extend([label] * width if entry_level else [label] + [_BLANK] * (width - 1))
            out.append(line)
        if data.shown:
            out.append([*(_shown(h) for h in data.field_headers[0]),
                        *(_shown(h) for _ in cols_axis.entries for h in data.value_headers)])
        for r, (keys, rows, level) in enumerate(rows_axis.entries):
            line = rows_axis.labels(keys, level)
            for c, (_keys, columns, _level) in enumerate(cols_axis.entries):
                line.extend(cell(rows, columns, parents_of_rows[r], parents_of_cols[c], v) for v in range(width))
            out.append(line)
        return _spill(out)
    except _Answer as answer:
        return answer.value


def _parents(axis: _Axis, everything: list[int]) -> list[list[int]]:
    """For each entry of ``axis``, the rows of the group one level above it (all rows for the top
    level and the total)."""
    parents = []
    for keys, _rows, level in axis.entries:
        if level <= 1:
            parents.append(everything)
            continue
        prefix = tuple(_identity(k) for k in keys[:level - 1])
        parents.append([r for r in everything
                        if tuple(_identity(k) for k in axis._keys[r][:level - 1]) == prefix])
    return parents


def percentof(data_subset: Any, data_all: Any) -> Any:
    """PERCENTOF(data_subset, data_all): the sum of the subset over the sum of all (numbers only)."""
    subset = [c for row in _table(data_subset) for c in row]
    whole = [c for row in _table(data_all) for c in row]
    return _percent_of(subset, whole)


FUNCTIONS: dict[str, Any] = {
    "GROUPBY": wrap_func(groupby),
    "PIVOTBY": wrap_func(pivotby),
    "PERCENTOF": wrap_func(percentof),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "GROUPBY": {"spills": True},
    "PERCENTOF": {},
    "PIVOTBY": {"spills": True},
}
