"""Which rows of a sheet Excel shows: SUBTOTAL leaves out hidden rows.

A row hidden in Excel carries ``hidden="1"`` in the sheet's XML. Excel's SUBTOTAL (Microsoft,
"SUBTOTAL function") leaves out, with function numbers 101-111, every hidden row; with 1-11 only the
rows an AutoFilter filtered out, counting rows hidden by hand. A hidden row is filtered out when it
lies in an AutoFilter that filters (one with a ``filterColumn``): the sheet's own or a table's. The
workbooks Excel saved show both (IronCalc's ``calc_test_no_export_tables``: SUBTOTAL(9, ...) 42 and
SUBTOTAL(109, ...) 38 over a hand-hidden row; 4 and 4 over filtered rows).

Computed from the sheet's XML the reader keeps, on the first SUBTOTAL that needs it, once per sheet.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .package import Package
from .sheet_cells import SheetCells, cell_position

_ROW = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?row\b([^>]*)>")
_NUMBER = re.compile(r'\br="(\d+)"')
_HIDDEN = re.compile(r'\bhidden="(?:1|true)"')
_AUTO_FILTER = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?autoFilter\b([^>]*?)(?:/>|>(.*?)</(?:[A-Za-z_][\w.-]*:)?autoFilter>)",
                          re.DOTALL)
_REF = re.compile(r'\bref="([A-Za-z]{1,3}[0-9]+)(?::([A-Za-z]{1,3}[0-9]+))?"')


class Rows(NamedTuple):
    """The hidden rows of a sheet, and those of them an AutoFilter filtered out."""

    hidden: frozenset[int]
    filtered: frozenset[int]


def _hidden(xml: str) -> frozenset[int]:
    if 'hidden="' not in xml:
        return frozenset()
    hidden: set[int] = set()
    row = 0
    for match in _ROW.finditer(xml):
        attributes = match.group(1)
        number = _NUMBER.search(attributes)
        row = int(number.group(1)) if number else row + 1  # r may be left out: the next row
        if _HIDDEN.search(attributes):
            hidden.add(row)
    return frozenset(hidden)


def _sheet_filter(xml: str) -> tuple[int, int] | None:
    """The rows of the sheet's own AutoFilter when it filters."""
    if "autoFilter" not in xml:
        return None
    match = _AUTO_FILTER.search(xml)
    if match is None or "filterColumn" not in (match.group(2) or ""):
        return None
    ref = _REF.search(match.group(1))
    if ref is None:
        return None
    rows = [cell_position(end)[0] for end in ref.groups() if end]
    return min(rows), max(rows)


def rows_of(package: Package, sheet: SheetCells) -> Rows:
    hidden = _hidden(sheet.xml or "")
    if not hidden:
        return Rows(hidden, hidden)
    areas = [t.filtered_rows for t in package.tables if t.sheet.casefold() == sheet.name.casefold()]
    areas.append(_sheet_filter(sheet.xml or ""))
    filtered = frozenset(r for r in hidden if any(a is not None and a[0] <= r <= a[1] for a in areas))
    return Rows(hidden, filtered)
