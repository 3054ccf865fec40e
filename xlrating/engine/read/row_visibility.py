"""Which rows of a sheet Excel shows: SUBTOTAL leaves out hidden rows.

A row hidden in Excel carries ``hidden="1"`` in the sheet's XML. Excel's SUBTOTAL (Microsoft,
"SUBTOTAL function") leaves out, with function numbers 101-111, every hidden row; with 1-11 only the
rows a filter filtered out, counting rows hidden by hand. The file does not say which hidden rows a
filter hid: while a filter of the sheet filters (an AutoFilter with a ``filterColumn``, the sheet's
own or a table's), Excel takes every hidden row of that sheet for a filtered one, inside the
filter's range or not; on a sheet no filter filters, none is. The workbooks Excel saved show both
(IronCalc's ``calc_test_no_export_tables``: SUBTOTAL(9, ...) 42 and SUBTOTAL(109, ...) 38 over a
hand-hidden row on a sheet whose table filters nothing; 4 and 4 over filtered rows; EPPlus's
``SubtotalFilters``: SUBTOTAL(9,$B14:$B16) 3, not 6, over a row hidden by hand below the filtered
AutoFilter, or the filtered table, of its sheet, and 6 where the AutoFilter or table filters nothing).
Published tests of Excel say the same ("SUBTOTAL first checks if the filter is active on the sheet; if
it is, all the hidden rows are treated as out of the filter result"), and that applying a filter
recomputes only the subtotals reading rows of the filter's range: a subtotal elsewhere keeps the
value it had before (EPPlus's Sheet1!N26, 6, is such a stale value; recomputed it is 3).

Computed from the sheet's XML the reader keeps, on the first SUBTOTAL that needs it, once per sheet.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .package import Package
from .sheet_cells import SheetCells

_ROW = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?row\b([^>]*)>")
_NUMBER = re.compile(r'\br="(\d+)"')
_HIDDEN = re.compile(r'\bhidden="(?:1|true)"')
_FILTER_MODE = re.compile(r'<(?:[A-Za-z_][\w.-]*:)?sheetPr\b[^>]*\bfilterMode="(?:1|true)"')
_AUTO_FILTER = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?autoFilter\b([^>]*?)(?:/>|>(.*?)</(?:[A-Za-z_][\w.-]*:)?autoFilter>)",
                          re.DOTALL)


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


def _sheet_filters(xml: str) -> bool:
    """Whether the sheet's own AutoFilter filters (has a ``filterColumn``), or the sheet says it is
    filtered (``<sheetPr filterMode="1">``)."""
    if _FILTER_MODE.search(xml[:8192]):
        return True
    if "autoFilter" not in xml:
        return False
    match = _AUTO_FILTER.search(xml)
    return match is not None and "filterColumn" in (match.group(2) or "")


def rows_of(package: Package, sheet: SheetCells) -> Rows:
    hidden = _hidden(sheet.xml or "")
    if not hidden:
        return Rows(hidden, hidden)
    filters = _sheet_filters(sheet.xml or "") or any(
        t.filtered_rows is not None for t in package.tables if t.sheet.casefold() == sheet.name.casefold())
    return Rows(hidden, hidden if filters else frozenset())
