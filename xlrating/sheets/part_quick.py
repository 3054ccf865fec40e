"""A worksheet part proven within the limits by its reader's own pass, at native speed.

:mod:`xlrating.sheets.part_scan` checks a worksheet in expat with a Python call per element
(about 2.5 microseconds a cell), before any reader parses the same XML again. The engine's reader
(:mod:`xlrating.engine.package`) reads a sheet's cells with regular expressions over its text;
this module lets that one pass stand for the scan, with the rest of the work done in C:

- before the read (:func:`before_read`): the part is UTF-8 XML whose root is an unprefixed
  ``<worksheet>``, with no ``<!`` anywhere (so no DTD or entity, nor the comments and CDATA a
  regular expression could misread), well-formed (lxml's parser with no Python callbacks), no
  prefixed sheet elements and only spaces between names (so counting ``<c `` counts every cell,
  as the reader does: it reads all of them or gives up), every row written ``<row r="N"`` with N
  not 0, only digits in ``s`` and known types in ``t``, the declared used range and the rows within
  reach, the records and cells within their limits counting the workbook's other parts (and,
  alongside the read, :func:`wellformed`); merged
  ranges and hyperlinks (which count for every cell they cover) are left to the full scan;
- during the read: the reader converts values as the scan checks them (numbers, booleans,
  shared-string indexes) and gives up on anything else;
- after the read (:func:`after_read`): the cells it placed are numbered from 1 and within the row
  and column limits.

It never refuses anything. When a rule cannot be proven this way, the reader runs the full scan
of that part, which refuses with the same message as for any other reader, or passes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from xlrating.sheets.part_scan import SheetExtent, WorkbookScan

_HEAD = re.compile(rb'(?:\xef\xbb\xbf)?(?:<\?xml(?P<decl>[^>]*)\?>\s*)?<(?P<root>\w+)[\s>]')
_ENCODING = re.compile(rb'encoding\s*=\s*["\']([^"\']*)["\']')
# A prefixed sheet element (<x:c>): a layout the reader's expressions do not see.
_PREFIXED = re.compile(rb":(?:c|row|mergeCell|hyperlink|dataValidation|cfRule|col|dimension|sheetData)[ />]")
_ROW_NUMBER = re.compile(rb'<row r="([0-9]{1,9})"')
_ROW_ZERO = re.compile(rb'<row r="0+"')
_BAD_STYLE = re.compile(rb' s="(?:[0-9]*[^0-9"]|")')  # an s attribute (of a cell or a row) not all digits
_TYPE = re.compile(rb' t="([^"]*)"')
_TYPES = frozenset({b"n", b"s", b"str", b"inlineStr", b"b", b"e", b"d",  # a cell's (ECMA-376 ST_CellType)
                    b"normal", b"shared", b"array", b"dataTable"})  # a formula's (ST_CellFormulaType)
_RECORD = re.compile(rb"<(?:dataValidation|cfRule|col)[ />]")  # part_scan's per-sheet records, ranges aside
_DIMENSION = re.compile(rb'<dimension ref="(?:[^":]*:)?\$?([A-Za-z]{1,3})\$?([0-9]{1,9})"')


@dataclass
class SheetFacts:
    """What :func:`before_read` found: the exact number of cells and of records, the highest row."""

    cells: int
    records: int
    rows: int


class _Wellformed:
    """An lxml parser target with no event methods: libxml2 checks the XML without calling Python."""

    def close(self) -> None:
        return None


def before_read(scan: WorkbookScan, part: str, raw: bytes) -> SheetFacts | None:
    """The facts of worksheet ``raw`` when every rule but the cells' reach and well-formedness
    (:func:`wellformed`, for the caller to run alongside its read) holds, else None."""
    body = utf8_body(raw, b"worksheet")
    if body is None or _PREFIXED.search(raw) or raw[body - 1:body] != b" " and raw[body - 1:body] != b">":
        return None
    # Only spaces separate names inside the part (as every known producer writes it), so the counts
    # below see every element; a tab or line break anywhere (a text may hold one) goes to the scan.
    if raw.find(b"\n", body) >= 0 or raw.find(b"\r", body) >= 0 or raw.find(b"\t", body) >= 0:
        return None
    if b"<mergeCell" in raw or b"<hyperlink" in raw or b"<c>" in raw or b"<c/>" in raw:
        return None
    limits = scan.limits
    cells = raw.count(b"<c ")
    if scan.cells + cells > limits.max_cells:
        return None
    rows = _ROW_NUMBER.findall(raw)
    if len(rows) != raw.count(b"<row ") + raw.count(b"<row>") + raw.count(b"<row/>") or _ROW_ZERO.search(raw):
        return None
    highest = max(map(int, rows), default=0)
    if highest > limits.max_rows or _BAD_STYLE.search(raw) or not set(_TYPE.findall(raw)) <= _TYPES:
        return None
    dimension = _DIMENSION.search(raw)
    if dimension is not None and (int(dimension.group(2)) > limits.max_rows
                                  or _column(dimension.group(1)) > limits.max_columns):
        return None
    records = len(_RECORD.findall(raw))
    if scan.records + records > limits.max_records:
        return None
    return SheetFacts(cells, records, highest)


def utf8_body(raw: bytes, root: bytes) -> int | None:
    """Where the root element ``<root`` ends its name in the XML part ``raw``, when the part is
    UTF-8 (declared so or not declared) and holds no ``<!`` at all (no DTD, entity, comment or
    CDATA): the searches over its bytes then see every element. None otherwise."""
    head = _HEAD.match(raw)
    if head is None or head.group("root") != root or b"<!" in raw:
        return None
    declaration = head.group("decl")
    if declaration:
        encoding = _ENCODING.search(declaration)
        if encoding is not None and encoding.group(1).lower().replace(b"-", b"") != b"utf8":
            return None
    return head.end()


def after_read(scan: WorkbookScan, part: str, facts: SheetFacts, rows: tuple[int, int], max_col: int) -> bool:
    """Count a sheet read under :func:`before_read`'s facts, whose cells the reader placed from
    row ``rows[0]`` to ``rows[1]`` and up to column ``max_col``; False (nothing counted) when a cell
    is numbered 0 or beyond the limits."""
    limits = scan.limits
    lowest, highest = rows
    if (facts.cells and lowest < 1) or highest > limits.max_rows or max_col > limits.max_columns:
        return False
    scan.cells += facts.cells
    scan.records += facts.records
    scan.report.sheets.append(SheetExtent(scan.sheet_parts.get(part, ""), part, max(highest, facts.rows),
                                          max_col, facts.cells))
    return True


def _column(letters: bytes) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + letter - 64
    return index


def wellformed(raw: bytes) -> bool:
    """Whether ``raw`` is well-formed XML, checked by libxml2 without a call into Python (and
    without the GIL, so a reader can run it in a thread while it reads the part)."""
    from lxml import etree

    parser: Any = etree.XMLParser(target=_Wellformed(), resolve_entities=False, no_network=True, huge_tree=True)
    try:
        etree.fromstring(raw, parser)
    except Exception:  # noqa: BLE001 - XMLSyntaxError and whatever else libxml2 reports: the full scan decides
        return False
    return True
