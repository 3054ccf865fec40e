"""GETPIVOTDATA(data_field, pivot_table, [field1, item1], ...): a value a pivot table shows, computed
from the records of its cache (:mod:`..read.pivot_tables`) as Microsoft's GETPIVOTDATA page
describes it.

- ``pivot_table`` is any cell of the pivot table; ``data_field`` names one of its data fields, by
  its caption ("Sum of Sales") or by the source field ("Sales"), in any case.
- Each field/item pair keeps the records whose ``field`` is ``item``; the field must be on the
  table (a row, column or filter field) and the item one of its items that the table shows. No
  pair gives the grand total.
- The value is the data field's summary (Sum, Count, Average, Max, Min, Product, Count Numbers,
  StdDev, StdDevp, Var, Varp) of the records kept, leaving out items hidden or filtered out.
- A data field, field or item the table does not have, or a combination with no records, is
  #REF!, as in Excel.

What the cache alone cannot say is a named warning, never a guessed value: a data field shown as
a percentage, difference or running total, a calculated or grouped field, a cache saved without
its records.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from formulas.ranges import Ranges

from ..read.grid import NotComputed
from ..read.pivot_tables import PivotField, PivotTable, read_pivot_tables
from .position import Abort, Position, area_sheet

_READ: dict[int, tuple[Any, list[PivotTable]]] = {}


class PivotError(Exception):
    """GETPIVOTDATA's result is this Excel error."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _tables(position: Position) -> list[PivotTable]:
    package = position.fallback.package
    if package is None:
        return []
    found = _READ.get(id(package))
    if found is None or found[0] is not package:
        _READ.clear()
        found = _READ[id(package)] = (package, read_pivot_tables(package))
    return found[1]


def _not_computed(reason: str) -> Abort:
    return Abort(NotComputed(reason=f"GETPIVOTDATA: {reason}"))


def _same(value: Any, item: Any) -> bool:
    """Whether a record's value is the item asked for: numbers by value, text in any case."""
    if isinstance(value, bool) or isinstance(item, bool):
        return isinstance(value, bool) and isinstance(item, bool) and value == item
    if isinstance(value, float):
        try:
            return value == float(item)
        except (TypeError, ValueError):
            return False
    if value is None:
        return item is None or item == ""
    return str(value).upper() == str(item).upper()


def _summary(kind: str, values: list[Any]) -> float:
    numbers = [float(v) for v in values if isinstance(v, float)]
    if kind == "count":
        return float(sum(1 for v in values if v is not None))
    if kind == "countNums":
        return float(len(numbers))
    if kind == "sum":
        return math.fsum(numbers)
    if kind == "product":
        return math.prod(numbers)
    if not numbers:
        raise PivotError("#DIV/0!")
    if kind == "average":
        return math.fsum(numbers) / len(numbers)
    if kind == "max":
        return max(numbers)
    if kind == "min":
        return min(numbers)
    if kind in ("stdDev", "var"):
        if len(numbers) < 2:
            raise PivotError("#DIV/0!")
        return statistics.stdev(numbers) if kind == "stdDev" else statistics.variance(numbers)
    if kind in ("stdDevp", "varp"):
        return statistics.pstdev(numbers) if kind == "stdDevp" else statistics.pvariance(numbers)
    raise _not_computed(f'a data field summarised by "{kind}"')


def _shown(field: PivotField, value: Any) -> bool:
    return not any(_same(value, field.items[x]) for x in field.hidden if x < len(field.items))


def pivot_value(table: PivotTable, data_field: str, pairs: list[tuple[str, Any]]) -> float:
    """The value ``table`` shows for ``data_field`` at the field/item ``pairs``; raises PivotError."""
    wanted = data_field.strip().upper()
    data = next((d for d in table.data if d.name.strip().upper() == wanted), None) or next(
        (d for d in table.data if d.field < len(table.fields) and table.fields[d.field].name.upper() == wanted), None)
    if data is None:
        raise PivotError("#REF!")
    if data.shown_as != "normal":
        raise _not_computed(f'the data field "{data.name}" is shown as "{data.shown_as}"')
    if not table.complete:
        raise _not_computed(f'the cache of the pivot table "{table.name}" was saved without its records')
    filters = []
    for name, item in pairs:
        index = next((i for i, f in enumerate(table.fields) if f.name.upper() == name.strip().upper()), None)
        if index is None or table.fields[index].axis is None:
            raise PivotError("#REF!")
        pivot_field = table.fields[index]
        if pivot_field.calculated:
            raise _not_computed(f'the field "{pivot_field.name}" is calculated or grouped')
        if pivot_field.items and not any(_same(v, item) and _shown(pivot_field, v) for v in pivot_field.items):
            raise PivotError("#REF!")
        filters.append((index, item))
    kept = []
    for record in table.records:
        if any(not _shown(f, record[i]) for i, f in enumerate(table.fields) if f.axis and f.hidden and i < len(record)):
            continue
        if all(i < len(record) and _same(record[i], item) for i, item in filters):
            kept.append(record[data.field] if data.field < len(record) else None)
    if not kept:
        raise PivotError("#REF!")
    return _summary(data.subtotal, kept)


def _plain(value: Any) -> Any:
    if isinstance(value, Ranges):
        value = value.value
    while hasattr(value, "ravel"):
        value = value.ravel()[0] if value.size else None
    return value


def getpivotdata(position: Position, data_field: Any, pivot_table: Any, *pairs: Any) -> Any:
    """GETPIVOTDATA for the cell being computed (see the module's docstring)."""
    from formulas.tokens.operand import Error, XlError

    name = _plain(data_field)
    if isinstance(name, XlError):
        return name
    if not isinstance(pivot_table, Ranges) or not pivot_table.ranges or len(pairs) % 2:
        return Error.errors["#REF!"]
    area = pivot_table.ranges[0]
    sheet = area_sheet(position.fallback.grid, area, position.sheet)
    row, col = int(area["r1"]), int(area["n1"])
    table = next((t for t in _tables(position) if sheet is not None and t.holds(sheet.name, row, col)), None)
    if table is None:
        return Error.errors["#REF!"]
    values = [_plain(v) for v in pairs]
    for value in values:
        if isinstance(value, XlError):
            return value
    try:
        return pivot_value(table, str(name), [(str(values[i]), values[i + 1]) for i in range(0, len(values), 2)])
    except PivotError as failed:
        return Error.errors[failed.code]
