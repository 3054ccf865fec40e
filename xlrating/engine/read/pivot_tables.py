"""The pivot tables of a workbook as GETPIVOTDATA needs them: where each one sits, its fields and
the axis each is on, its data fields, and the records of its cache (ECMA-376 part 1, 18.10).

A pivot table (``xl/pivotTables/pivotTableN.xml``, reached from its sheet's relationships) names
its cache by ``cacheId``; the workbook's ``<pivotCaches>`` map that id to a cache definition
(``xl/pivotCache/pivotCacheDefinitionN.xml``: the fields and their shared items), whose
relationship leads to the records (``pivotCacheRecordsN.xml``: one ``<r>`` per source row, each
value either an index into the field's shared items, ``<x v="2"/>``, or the value itself). The
values Excel shows in a pivot table are computed from these records as last refreshed.

Read on the first GETPIVOTDATA (few workbooks have one).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from typing import Any

from .package import REL, Package, _rels, _xml
from .sheet_cells import MAIN, cell_position

_M = f"{{{MAIN}}}"


@dataclass
class PivotField:
    """One field of a pivot table: its name, axis, items (values of the cache's shared items, by
    index) and the indexes of the items hidden or filtered out of the table."""

    name: str
    axis: str | None = None  # "axisRow", "axisCol", "axisPage" or None (not on the table)
    items: list[Any] = field(default_factory=list)
    hidden: set[int] = field(default_factory=set)
    calculated: bool = False  # a calculated field (a formula), or grouped (dates by month ...)


@dataclass
class DataField:
    name: str  # "Sum of Sales"
    field: int  # the cache field it summarises
    subtotal: str = "sum"  # sum, count, average, max, min, product, countNums, stdDev, stdDevp, var, varp
    shown_as: str = "normal"  # showDataAs: "normal", or a percentage, a difference, a running total ...


@dataclass
class PivotTable:
    name: str
    sheet: str
    area: tuple[int, int, int, int]  # r1, c1, r2, c2 of its location
    fields: list[PivotField]
    data: list[DataField]
    records: list[list[Any]]  # one list of values per record, by field (shared items resolved)
    complete: bool = True  # False when the cache holds no records (saved without them)

    def holds(self, sheet: str, row: int, col: int) -> bool:
        r1, c1, r2, c2 = self.area
        return sheet.upper() == self.sheet.upper() and r1 <= row <= r2 and c1 <= col <= c2


def _value(element: Any) -> Any:
    """A cache value (``<s>``, ``<n>``, ``<b>``, ``<d>``, ``<e>``, ``<m>``) as a plain value."""
    tag = element.tag.removeprefix(_M)
    raw = element.get("v")
    if tag == "n":
        return float(raw)
    if tag == "b":
        return raw in ("1", "true")
    if tag == "m":
        return None
    if tag == "e":
        return ("error", raw)
    return raw  # s, and d (an ISO date-time text)


def _cache(archive: zipfile.ZipFile, part: str) -> tuple[list[str], list[list[Any]], list[bool], list[list[Any]] | None]:
    """A cache definition's field names, shared items, which fields are calculated or grouped, and
    its records (None when it was saved without them)."""
    root = _xml(archive, part)
    names, shared, calculated = [], [], []
    for cache_field in root.iter(f"{_M}cacheField"):
        names.append(cache_field.get("name", ""))
        items = cache_field.find(f"{_M}sharedItems")
        shared.append([_value(item) for item in items] if items is not None else [])
        calculated.append(cache_field.get("formula") is not None or cache_field.find(f"{_M}fieldGroup") is not None)
    records_part = next((target for target in _rels(archive, part).values() if "pivotCacheRecords" in target), None)
    if records_part is None or records_part not in archive.namelist():
        return names, shared, calculated, None
    records = []
    for record in _xml(archive, records_part).iter(f"{_M}r"):
        values = []
        for index, element in enumerate(record):
            if element.tag == f"{_M}x":
                items = shared[index] if index < len(shared) else []
                position = int(element.get("v", "0"))
                values.append(items[position] if position < len(items) else None)
            else:
                values.append(_value(element))
        records.append(values)
    return names, shared, calculated, records


def _area(ref: str) -> tuple[int, int, int, int]:
    first, _, last = ref.partition(":")
    r1, c1 = cell_position(first)
    r2, c2 = cell_position(last or first)
    return r1, c1, r2, c2


def read_pivot_tables(package: Package) -> list[PivotTable]:
    """Every pivot table of ``package`` whose cache can be read."""
    found: list[PivotTable] = []
    with zipfile.ZipFile(io.BytesIO(package.data)) as archive:
        names = set(archive.namelist())
        workbook = _xml(archive, package.workbook_part)
        workbook_rels = _rels(archive, package.workbook_part)
        caches = {element.get("cacheId"): workbook_rels.get(element.get(f"{{{REL}}}id", ""))
                  for element in workbook.iter(f"{_M}pivotCache")}
        for sheet in package.sheets:
            for target in _rels(archive, sheet.part).values():
                if "pivotTables/" not in target or target not in names:
                    continue
                table = _table(archive, target, sheet.name, caches, names)
                if table is not None:
                    found.append(table)
    return found


def _table(archive: zipfile.ZipFile, part: str, sheet: str, caches: dict[Any, str | None],
           names: set[str]) -> PivotTable | None:
    root = _xml(archive, part)
    cache_part = caches.get(root.get("cacheId"))
    location = root.find(f"{_M}location")
    if cache_part is None or cache_part not in names or location is None:
        return None
    field_names, shared, calculated, records = _cache(archive, cache_part)
    fields = []
    for index, pivot_field in enumerate(root.iter(f"{_M}pivotField")):
        if index >= len(field_names):
            break
        hidden = set()
        for item in pivot_field.iter(f"{_M}item"):
            if item.get("h") in ("1", "true") and item.get("x") is not None:
                hidden.add(int(item.get("x")))
        fields.append(PivotField(field_names[index], pivot_field.get("axis"), shared[index], hidden,
                                 calculated[index]))
    for page in root.iter(f"{_M}pageField"):  # a page filter on one item hides every other item
        index, item = int(page.get("fld", "-1")), page.get("item")
        if 0 <= index < len(fields) and item is not None:
            listed = [int(i.get("x")) for i in list(root.iter(f"{_M}pivotField"))[index].iter(f"{_M}item")
                      if i.get("x") is not None]
            chosen = listed[int(item)] if int(item) < len(listed) else None
            fields[index].hidden |= {x for x in range(len(fields[index].items)) if x != chosen}
    data = [DataField(element.get("name", ""), int(element.get("fld", "0")), element.get("subtotal", "sum"),
                      element.get("showDataAs", "normal"))
            for element in root.iter(f"{_M}dataField")]
    return PivotTable(root.get("name", ""), sheet, _area(location.get("ref", "A1")), fields, data,
                      records or [], records is not None)
