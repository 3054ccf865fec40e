"""Reading the cells of an .xlsx/.xlsm package straight from its XML.

openpyxl builds a Python object per cell, which alone costs more than our whole time budget for a
50,000-formula workbook; here one streaming pass per sheet collects values and formulas into flat
lists. The file comes through :func:`xlrating.sheets.safe_open.open_package`, the project's one door
for untrusted files: it refuses what is not a workbook and zip bombs, and checks every part but the
worksheets and the shared strings, which this module checks in the pass that reads them
(:func:`read_package`, :mod:`xlrating.sheets.part_quick`), each part parsed once. Sheets are read
with one regular expression per cell (the well-formed layout every known producer writes:
``<c r="A1" ...>``), a megabyte at a time, falling back to lxml's streaming parser for any other
layout (namespace prefixes, cells without an address).

Formulas are kept as text with their kind: ordinary, the master or a follower of a shared formula
(``<f t="shared" si=..>``: Excel's fill-down), or an array formula (``t="array"`` with its range).
"""

from __future__ import annotations

import math
import posixpath
import re
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain, compress
from typing import Any

import numpy as np
from lxml import etree

from xlrating.excel_errors import ExcelError
from xlrating.sheets import part_quick
from xlrating.sheets.limits import Limits
from xlrating.sheets.package_guard import PackageCheck, Refused
from xlrating.sheets.safe_open import UnreadableWorkbook, open_package

from . import bulk_cells
from .character_set import WINDOWS, of_application
from .external import LinkedSheet, read_links, rewrite
from .formula_xml import unescape_xml
from .tables import Table, read_tables, resolve_structured

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_C, _V, _F, _IS, _T, _R = (f"{{{MAIN}}}{n}" for n in ("c", "v", "f", "is", "t", "r"))


@dataclass
class FormulaCell:
    row: int
    col: int
    text: str | None  # None for a follower of a shared formula
    shared: int | None = None  # si of a shared formula
    master: bool = False
    array_ref: str | None = None  # t="array": the range the result fills
    kind: str = "normal"  # normal, shared, array, dataTable


@dataclass
class SheetCells:
    name: str
    part: str  # path of the sheet XML inside the package
    values: list[tuple[int, int, Any]] = field(default_factory=list)
    formulas: list[FormulaCell] = field(default_factory=list)
    # plain number cells, the bulk of a sheet, as arrays: rows, columns, values
    numbers: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    # ordinary formulas (<f>text</f>), the bulk of the rest: rows, columns, texts (with "=")
    simple: tuple[np.ndarray, np.ndarray, list[str]] | None = None
    # plain text cells (shared or inline strings) read in bulk: rows, columns, texts
    texts: tuple[np.ndarray, np.ndarray, list[str]] | None = None
    xml: str | None = None  # the sheet's XML as read, kept for the writer
    max_row: int = 0
    max_col: int = 0
    min_row: int = 0  # the lowest row a cell names (0 only for a damaged cell: rows count from 1)
    # read by :func:`_read_sheet_bulk` from ``xml``: every cell in one of its four layouts, so the
    # formula cells are exactly ``simple``, in document order, each ``<c r=".." s=".."><f>..</f>..</c>``
    bulk: bool = False


@dataclass
class Package:
    path: str
    sheets: list[SheetCells]
    defined_names: dict[tuple[str, str | None], str]  # (NAME, SHEET it is local to, or None) -> reference text
    workbook_part: str = "xl/workbook.xml"
    data: bytes = b""  # the checked bytes of the file: the writer copies from these, never re-reads the file
    calc: CalcSettings = field(default_factory=lambda: CalcSettings())
    every_sheet: list[str] = field(default_factory=list)  # all sheet names in order, chart sheets too
    linked: list[LinkedSheet] = field(default_factory=list)  # cached sheets of other workbooks
    # the character set of the Excel that saved the workbook, for CHAR and CODE (:mod:`.character_set`)
    character_set: str = WINDOWS
    tables: list[Table] = field(default_factory=list)  # the workbook's tables (structured references, filters)


@dataclass(frozen=True)
class CalcSettings:
    """The workbook's calculation settings (``<calcPr>``) that change values: iterative calculation
    of circular references, at most ``count`` rounds until no value changes by more than ``delta``
    (Excel's defaults: off, 100, 0.001)."""

    iterate: bool = False
    count: int = 100
    delta: float = 0.001


def _calc_settings(root: Any) -> CalcSettings:
    element = root.find(f"{{{MAIN}}}calcPr")
    if element is None:
        return CalcSettings()

    def number(name: str, default: float) -> float:
        try:
            return float(element.get(name, default))
        except ValueError:
            return default

    return CalcSettings(element.get("iterate", "0").lower() in ("1", "true"),
                        max(1, min(int(number("iterateCount", 100)), 32_767)), number("iterateDelta", 0.001))


APP_PROPERTIES = "docProps/app.xml"  # the extended properties: <Application> names who saved the file


def _character_set(archive: zipfile.ZipFile) -> str:
    """The character set of the Excel that saved the package, from the <Application> of its
    docProps/app.xml (:func:`.character_set.of_application`). Windows' when the part is missing,
    names another producer or none, or cannot be read: it never stops the workbook from being read.
    (The part was checked with every other by the package gate before this reads it.)"""
    if APP_PROPERTIES not in archive.namelist():
        return WINDOWS
    try:
        root = _xml(archive, APP_PROPERTIES)
    except (etree.LxmlError, zipfile.BadZipFile, KeyError, ValueError, OSError):
        return WINDOWS
    application = root.find("{*}Application")
    return of_application(application.text if application is not None else None)


def _parser() -> Any:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def _xml(archive: zipfile.ZipFile, part: str) -> Any:
    return etree.fromstring(archive.read(part), _parser())


def _rels(archive: zipfile.ZipFile, part: str) -> dict[str, str]:
    folder, name = posixpath.split(part)
    rels_part = posixpath.join(folder, "_rels", name + ".rels")
    if rels_part not in archive.namelist():
        return {}
    targets = {}
    for rel in _xml(archive, rels_part).iter(f"{{{PKG_REL}}}Relationship"):
        target = rel.get("Target", "")
        targets[rel.get("Id")] = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target))
    return targets


def _workbook_part(archive: zipfile.ZipFile) -> str:
    for rel in _xml(archive, "_rels/.rels").iter(f"{{{PKG_REL}}}Relationship"):
        if rel.get("Type", "").endswith("/officeDocument"):
            return str(rel.get("Target", "")).lstrip("/")
    raise UnreadableWorkbook("", "the package has no workbook part")


_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


def ooxml_text(text: str) -> str:
    """A string as Excel meant it: characters XML cannot hold are stored as ``_xHHHH_`` (``_x0001_``
    for CHAR(1), ``_x005F_`` for an underscore that starts such a sequence)."""
    if "_x" not in text:
        return text
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def _shared_strings(check: PackageCheck, workbook_part: str) -> list[str]:
    """The shared strings, parsed once: when the part is one the package check left to this reader
    (see :func:`read_package`), this parse stands for its scan (:func:`_checked_strings`)."""
    archive = check.archive
    rels = _rels(archive, workbook_part)
    parts = [t for t in rels.values() if t.endswith("sharedStrings.xml")]
    if not parts or parts[0] not in archive.namelist():
        return []
    part = parts[0]
    if part in check.deferred:
        raw = check.read_deferred(part)
        root = _checked_strings(raw, check.scan.limits.max_text_chars) if raw is not None else None
        if root is None:
            check.scan_part(part)  # refuses as the full scan does, or finds nothing to refuse
        else:
            check.done(part)
            strings = _strings_of(root)
            check.scan.shared_strings += len(strings)  # the sheets' string indexes are checked against these
            return strings
    return _strings_of(_xml(archive, part))


def _strings_of(root: Any) -> list[str]:
    strings = []
    for si in root.iter(f"{{{MAIN}}}si"):
        # rich text: the <t> of every run; phonetic runs (<rPh>) are not part of the value
        strings.append(ooxml_text("".join(t.text or "" for t in si.iter(_T) if t.getparent().tag != f"{{{MAIN}}}rPh")))
    return strings


def _checked_strings(raw: bytes, max_text_chars: int) -> Any | None:
    """The parsed shared-strings part when it passes the checks of the package scan (UTF-8, no DTD,
    well-formed, no text longer than ``max_text_chars``), else None for the scan to judge."""
    if part_quick.utf8_body(raw, b"sst") is None:
        return None
    try:
        root = etree.fromstring(raw, _parser())
    except Exception:  # noqa: BLE001 - XMLSyntaxError and the like: the scan names what is wrong
        return None
    if any(len(t.text or "") > max_text_chars for t in root.iter(_T)):
        return None
    return root


def cell_position(ref: str) -> tuple[int, int]:
    """'AB12' -> (12, 28)."""
    i = 0
    col = 0
    while i < len(ref) and ref[i].isalpha():
        col = col * 26 + (ord(ref[i].upper()) - 64)
        i += 1
    return int(ref[i:]), col


def _value(kind: str | None, text: str | None, strings: list[str], cell: Any) -> Any:
    if kind == "inlineStr":
        node = cell.find(_IS)
        return ooxml_text("".join(t.text or "" for t in node.iter(_T))) if node is not None else ""
    if text is None:
        return None
    if kind == "s":
        return strings[int(text)]
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind == "e":
        return ExcelError(text.strip())
    if kind in ("str", "d"):
        return text
    return float(text)


def _read_sheet(archive: zipfile.ZipFile, sheet: SheetCells, strings: list[str]) -> None:
    with archive.open(sheet.part) as stream:
        row = 0
        col = 0
        for _, cell in etree.iterparse(stream, events=("end",), tag=_C, resolve_entities=False, no_network=True,
                                       huge_tree=False):
            ref = cell.get("r")
            if ref is None:  # cells may omit their address: the next one along
                col += 1
                parent = cell.getparent()
                r_attr = parent.get("r") if parent is not None else None
                if r_attr is not None and int(r_attr) != row:
                    row, col = int(r_attr), 1
            else:
                row, col = cell_position(ref)
            f = cell.find(_F)
            v = cell.find(_V)
            if f is not None and not f.text and f.get("t") is None:
                f = None  # an empty <f/> (Excel writes some): the cell keeps its cached value
            if f is not None:
                kind = f.get("t", "normal")
                formula = FormulaCell(row, col, ("=" + f.text) if f.text else None, kind=kind)
                if kind == "shared":
                    formula.shared = int(f.get("si", "0"))
                    formula.master = f.get("ref") is not None and f.text is not None
                elif kind == "array":
                    formula.array_ref = f.get("ref")
                sheet.formulas.append(formula)
            else:
                value = _value(cell.get("t"), v.text if v is not None else None, strings, cell)
                if value is not None:
                    sheet.values.append((row, col, value))
            sheet.max_row = max(sheet.max_row, row)
            sheet.max_col = max(sheet.max_col, col)
            cell.clear()
            parent = cell.getparent()
            if parent is not None:  # drop finished cells and rows so memory stays flat
                while cell.getprevious() is not None:
                    del parent[0]


_PREFIXED_CELL = re.compile(r"<\w+:c[\s>/]")
_PREFIX_HINT = re.compile(r":c[\s>/]")  # found by a quick literal scan; the full expression confirms


def _prefixed_cells(text: str) -> bool:
    hint = _PREFIX_HINT.search(text)
    return hint is not None and _PREFIXED_CELL.search(text) is not None
_FAST_CELL = re.compile(r'<c r="([A-Z]{1,3})([0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)', re.DOTALL)
_KIND = re.compile(r'\st="(\w+)"')
_F_PARTS = re.compile(r'<f([^>]*?)(?:/>|>(.*?)</f>)', re.DOTALL)
_F_ATTR = re.compile(r'(\w+)="([^"]*)"')
_V_TEXT = re.compile(r"<v>(.*?)</v>", re.DOTALL)
_T_TEXT = re.compile(r"<t(?:\s[^>]*)?>(.*?)</t>", re.DOTALL)


def _read_sheet_bulk(raw: bytes, text: str, sheet: SheetCells, strings: list[str], checking: bool = False) -> bool:
    """The quickest read: every cell in one of the four layouts of :mod:`.bulk_cells`, found with
    array operations over ``raw`` (the UTF-8 bytes of ``text``) and converted column by column.
    False, leaving ``sheet`` untouched, when any cell is laid out otherwise. ``checking``: the read
    stands for the package scan (:mod:`xlrating.sheets.part_quick`), so a value the scan would
    question (a number that is not finite) is False too."""
    numbers: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    formulas: list[tuple[np.ndarray, np.ndarray, list[str]]] = []
    texts: list[tuple[np.ndarray, np.ndarray, list[str]]] = []
    colon_c = False
    view = memoryview(raw)
    try:
        for start, stop in row_chunks(raw):
            cells = bulk_cells.scan(view[start:stop])
            if cells is None or not _bulk_chunk(cells, strings, numbers, formulas, texts, checking):
                return False
            colon_c |= cells.colon_c
    except Exception:
        if _prefixed_cells(text) or "<c>" in text:  # never the bulk reader's sheet: its values unasked
            return False
        raise
    if colon_c and _prefixed_cells(text):
        return False
    for found, attribute in ((numbers, "numbers"), (formulas, "simple"), (texts, "texts")):
        if found:
            rows, cols, values = zip(*found)
            setattr(sheet, attribute, (np.concatenate(rows), np.concatenate(cols),
                                       np.concatenate(values) if attribute == "numbers" else
                                       list(chain.from_iterable(values))))
    extent = [(int(r.min()), int(r.max()), int(c.max())) for r, c, _ in (*numbers, *formulas, *texts)]
    sheet.bulk = True
    if extent:
        sheet.min_row = min(e[0] for e in extent)
        sheet.max_row = max(e[1] for e in extent)
        sheet.max_col = max(e[2] for e in extent)
    return True


_CHUNK = 1 << 20  # characters of sheet XML read at a time: per-cell objects stay bounded in a large sheet


def row_chunks(text: str | bytes, size: int | None = None) -> list[tuple[int, int]]:
    """Spans of ``text`` about ``size`` (default ``_CHUNK``) long that start at a row (no cell crosses
    a row start)."""
    size = _CHUNK if size is None else size
    marker = b"<row " if isinstance(text, bytes) else "<row "
    spans = []
    start = 0
    while start < len(text):
        cut = text.find(marker, start + size)  # type: ignore[arg-type]
        stop = len(text) if cut < 0 else cut
        spans.append((start, stop))
        start = stop
    return spans


def _bulk_chunk(cells: bulk_cells.Cells, strings: list[str], numbers: list[Any], formulas: list[Any],
                texts: list[Any], checking: bool) -> bool:
    """Convert the cells of one chunk, kind by kind (C-level maps, not a loop per cell), into
    ``numbers``, ``formulas`` and ``texts`` (rows, columns, values each)."""
    kinds, rows, cols = cells.kinds, cells.rows, cells.cols
    if not len(kinds):
        return True
    number_mask = kinds == bulk_cells.NUMBER
    formula_mask = kinds == bulk_cells.FORMULA
    numbered = int(number_mask.sum())
    if numbered:
        found = cells.numbers()
        if checking and not np.isfinite(found).all():
            return False
        numbers.append((rows[number_mask], cols[number_mask], found))
    if formula_mask.any():
        found_texts = cells.contents(bulk_cells.FORMULA, "=")
        if "&" in "".join(found_texts):
            found_texts = [unescape_xml(t) if "&" in t else t for t in found_texts]
        formulas.append((rows[formula_mask], cols[formula_mask], found_texts))
    text_mask = ~(number_mask | formula_mask)
    if text_mask.any():
        written = cells.contents(bulk_cells.INLINE)
        if "&" in "".join(written) or "_x" in "".join(written):
            written = [ooxml_text(unescape_xml(t) if "&" in t else t) for t in written]
        shared = [strings[int(index)] for index in cells.contents(bulk_cells.SHARED)]
        if shared and written:  # both kinds: back into document order
            merged = np.empty(len(shared) + len(written), dtype=object)
            is_shared = kinds[text_mask] == bulk_cells.SHARED
            merged[is_shared] = shared
            merged[~is_shared] = written
            found_texts = merged.tolist()
        else:
            found_texts = shared or written
        texts.append((rows[text_mask], cols[text_mask], found_texts))
    return True


def _read_sheet_fast(text: str, sheet: SheetCells, strings: list[str], checking: bool = False) -> bool:
    """Read ``text`` with the per-cell regular expression; False if its layout needs the parser.
    ``checking`` (see :func:`_read_sheet_bulk`): values are checked as the package scan checks them,
    and raise ValueError where it would look closer."""
    if _prefixed_cells(text):
        return False
    cells = _FAST_CELL.findall(text)
    if len(cells) != text.count("<c ") or "<c>" in text:
        return False
    columns: dict[str, int] = {}
    values, formulas = sheet.values, sheet.formulas
    max_row = max_col = 0
    min_row = 1 << 31
    if cells:
        # plain numbers (no type or t="n", just <v>) in bulk; everything else cell by cell below
        plain = [("t=" not in a or ' t="n"' in a) and b[:3] == "<v>" and b[-4:] == "</v>" and "<f" not in b
                 for _, _, a, b in cells]
        numeric = list(compress(cells, plain))
        if numeric:
            letters_of = [c[0] for c in numeric]
            for letters in set(letters_of):
                columns[letters] = cell_position(letters + "1")[1]
            rows = np.array([c[1] for c in numeric]).astype(np.int64)
            cols = np.fromiter((columns[x] for x in letters_of), dtype=np.int64, count=len(numeric))
            min_row = int(rows.min())
            nums = np.array([c[3][3:-4] for c in numeric]).astype(np.float64)
            if checking and not np.isfinite(nums).all():
                raise ValueError("a number that is not finite")
            sheet.numbers = (rows, cols, nums)
            max_row, max_col = int(rows.max()), int(cols.max())
        cells = list(compress(cells, (not p for p in plain)))
        ordinary = [b[:3] == "<f>" and b.find("</f>") > 3 for _, _, _, b in cells]
        simple = list(compress(cells, ordinary))
        if simple:
            letters_of = [c[0] for c in simple]
            for letters in set(letters_of) - columns.keys():
                columns[letters] = cell_position(letters + "1")[1]
            rows = np.array([c[1] for c in simple]).astype(np.int64)
            cols = np.fromiter((columns[x] for x in letters_of), dtype=np.int64, count=len(simple))
            texts = ["=" + b[3:b.find("</f>")] for _, _, _, b in simple]
            texts = [unescape_xml(t) if "&" in t else t for t in texts]
            sheet.simple = (rows, cols, texts)
            max_row, max_col = max(max_row, int(rows.max())), max(max_col, int(cols.max()))
            min_row = min(min_row, int(rows.min()))
            cells = list(compress(cells, (not o for o in ordinary)))
    for letters, digits, attrs, body in cells:
        col = columns.get(letters)
        if col is None:
            col = columns[letters] = cell_position(letters + "1")[1]
        row = int(digits)
        max_row = max(max_row, row)
        max_col = max(max_col, col)
        min_row = min(min_row, row)
        kind_match = _KIND.search(attrs) if "t=" in attrs else None
        kind = kind_match.group(1) if kind_match else None
        if checking and kind not in _CELL_TYPES:
            raise ValueError(f"cell type {kind!r}")
        if "<f" in body:
            f = _F_PARTS.search(body)
            if f is not None and (f.group(2) or " t=" in f.group(1)):  # an empty <f/> keeps its cached value
                fattrs = dict(_F_ATTR.findall(f.group(1)))
                formula_text = unescape_xml(f.group(2)) if f.group(2) else None
                fkind = fattrs.get("t", "normal")
                cell = FormulaCell(row, col, "=" + formula_text if formula_text else None, kind=fkind)
                if fkind == "shared":
                    cell.shared = int(fattrs.get("si", "0"))
                    cell.master = "ref" in fattrs and formula_text is not None
                elif fkind == "array":
                    cell.array_ref = fattrs.get("ref")
                formulas.append(cell)
                continue
        if not body:
            continue
        if kind == "inlineStr":
            values.append((row, col, ooxml_text(unescape_xml("".join(_T_TEXT.findall(body))))))
            continue
        v = _V_TEXT.search(body)
        if v is None:
            continue
        raw = v.group(1)
        if checking:
            _check_value(kind, raw, len(strings))
        if kind is None or kind == "n":
            values.append((row, col, float(raw)))
        elif kind == "s":
            values.append((row, col, strings[int(raw)]))
        elif kind == "b":
            values.append((row, col, raw.strip() in ("1", "true")))
        elif kind == "e":
            values.append((row, col, ExcelError(raw.strip())))
        else:
            values.append((row, col, unescape_xml(raw)))
    sheet.max_row, sheet.max_col, sheet.min_row = max_row, max_col, min(min_row, max_row)
    return True


_CELL_TYPES = frozenset({None, "n", "s", "str", "inlineStr", "b", "e", "d"})  # ECMA-376 ST_CellType


def _check_value(kind: str | None, raw: str, strings: int) -> None:
    """ValueError where the package scan would refuse or look closer (part_scan's value rules)."""
    text = raw.strip()
    if kind in (None, "n") and not math.isfinite(float(text) if "." in text or "e" in text.lower() else int(text)):
        raise ValueError("a number that is not finite")
    if kind == "s" and not 0 <= int(text) < strings:
        raise ValueError("no such shared string")
    if kind == "b":
        int(text)
    if kind == "d":  # ISO 8601 dates: the scan's own check
        raise ValueError("a date cell")


def _map_texts(sheet: SheetCells, change: Callable[[str, int, int], str]) -> None:
    """Rewrite every formula text containing ``[`` with ``change(text, row, col)``."""
    for cell in sheet.formulas:
        if cell.text is not None and "[" in cell.text:
            cell.text = change(cell.text, cell.row, cell.col)
    if sheet.simple is not None:
        rows, cols, texts = sheet.simple
        for i, text in enumerate(texts):
            if "[" in text:
                texts[i] = change(text, int(rows[i]), int(cols[i]))


def _resolve_structured_references(sheet: SheetCells, tables: list[Table]) -> None:
    """Structured references (``Table1[Col]``, ``[@Qty]``) rewritten as the A1 references they
    stand for in each formula's cell, so the rest of the engine sees ordinary references."""
    _map_texts(sheet, lambda text, row, col: resolve_structured(text, sheet.name, row, col, tables))


def _read_here(name: str) -> bool:
    """The parts this reader checks in the pass that reads them: worksheets and shared strings."""
    return name.startswith("xl/") and (name.endswith("sharedStrings.xml") or (
        name.startswith("xl/worksheets/") and name.endswith(".xml") and name.count("/") == 2))


def read_package(path: str, *, limits: Limits | None = None) -> Package:
    """Every sheet's values and formulas, and the workbook's defined names.

    The package goes through the project's gate for untrusted files
    (:func:`xlrating.sheets.safe_open.open_package`), which checks every part but the worksheets;
    each worksheet is checked by the pass that reads it (:func:`_read_checked`)."""
    limits = limits or Limits.from_env()
    check = open_package(path, limits, defer=_read_here)
    try:
        with check:
            package = _read(path, check)
            check.finish()
    except Refused as refused:
        raise UnreadableWorkbook(path, refused.reason) from None
    return package


# Bytes of a part below which its well-formedness is checked after the read, in this thread: starting
# a thread costs more than the overlap saves on a small part (a folder of small workbooks)
_ALONE = 1 << 16


class _Alongside(threading.Thread):
    """``function(argument)`` in a thread of its own (for an argument of :data:`_ALONE` bytes or
    more); :meth:`result` waits for it, or calls it then."""

    def __init__(self, function: Callable[[bytes], bool], argument: bytes):
        super().__init__(daemon=True)
        self._call = (function, argument)
        self._result = False
        if len(argument) >= _ALONE:
            self.start()

    def run(self) -> None:
        function, argument = self._call
        self._result = function(argument)

    def result(self) -> bool:
        if self.ident is None:
            self.run()
        else:
            self.join()
        return self._result


def _read_checked(check: PackageCheck, sheet: SheetCells, strings: list[str]) -> None:
    """Read one worksheet. Its one pass stands for the package scan when :mod:`part_quick
    <xlrating.sheets.part_quick>` proves the part within the limits; otherwise the full scan runs
    first (refusing as it does for every reader), then the most general reader that fits."""
    raw = check.read_deferred(sheet.part) if sheet.part in check.deferred else None
    if raw is not None:
        facts = part_quick.before_read(check.scan, sheet.part, raw)
        if facts is not None:
            wellformed = _Alongside(part_quick.wellformed, raw)  # libxml2 runs without the GIL
            try:
                text = raw.decode("utf-8")
                read = _read_sheet_bulk(raw, text, sheet, strings, True) or _read_sheet_fast(text, sheet, strings, True)
            except (ValueError, IndexError, KeyError):
                read = False
            if wellformed.result() and read and part_quick.after_read(
                    check.scan, sheet.part, facts, (sheet.min_row, sheet.max_row), sheet.max_col):
                sheet.xml = text
                check.done(sheet.part)
                return
            sheet.values.clear()
            sheet.formulas.clear()
            sheet.numbers = sheet.simple = sheet.texts = None
            sheet.bulk = False
    if sheet.part in check.deferred:
        check.scan_part(sheet.part)
    text, raw = _sheet_text(check.archive.read(sheet.part))
    sheet.xml = text
    if not _read_sheet_bulk(raw, text, sheet, strings) and not _read_sheet_fast(text, sheet, strings):
        sheet.values.clear()
        sheet.formulas.clear()
        _read_sheet(check.archive, sheet, strings)


def _sheet_text(raw: bytes) -> tuple[str, bytes]:
    """The XML of a sheet as text, and as UTF-8: UTF-8 as every known producer writes it, else
    (UTF-16, say) as its declaration or byte-order mark says, written out again without the
    declaration."""
    try:
        return raw.decode("utf-8"), raw
    except UnicodeDecodeError:
        text = str(etree.tostring(etree.fromstring(raw, _parser()), encoding="unicode"))
        return text, text.encode("utf-8")


def _read(path: str, check: PackageCheck) -> Package:
    archive = check.archive
    try:
        workbook_part = _workbook_part(archive)
        root = _xml(archive, workbook_part)
        rels = _rels(archive, workbook_part)
        strings = _shared_strings(check, workbook_part)
        sheets = []
        every_sheet: list[str] = []  # localSheetId counts chart sheets too
        for element in root.iter(f"{{{MAIN}}}sheet"):
            every_sheet.append(element.get("name", ""))
            part = rels.get(element.get(f"{{{REL}}}id"), "")
            if part.endswith(".xml") and "worksheets/" in part:  # chart sheets and dialogs hold no cells
                sheets.append(SheetCells(element.get("name", ""), part))
        names: dict[tuple[str, str | None], str] = {}
        for element in root.iter(f"{{{MAIN}}}definedName"):
            local = element.get("localSheetId")
            if local is None:
                scope = None
            elif local.isdigit() and int(local) < len(every_sheet):
                scope = every_sheet[int(local)].upper()
            else:
                continue  # scoped to a sheet the workbook does not have: no formula can see it
            names[(element.get("name", "").upper(), scope)] = element.text or ""
        for sheet in sheets:
            _read_checked(check, sheet, strings)
        tables = read_tables(archive, {sheet.part: sheet.name for sheet in sheets})
        if tables:
            for sheet in sheets:
                _resolve_structured_references(sheet, tables)
        linked = read_links(archive, root, rels)
        if linked:
            cached = {(link.book, link.name.upper()) for link in linked}
            for sheet in sheets:
                _map_texts(sheet, lambda text, row, col: rewrite(text, cached))
            names = {key: rewrite(text, cached) for key, text in names.items()}
    except (zipfile.BadZipFile, KeyError, etree.XMLSyntaxError, ValueError, IndexError) as exc:
        raise UnreadableWorkbook(path, f"damaged workbook package ({type(exc).__name__}: {exc})") from None
    return Package(path, sheets, names, workbook_part, check.data, _calc_settings(root), every_sheet, linked,
                   _character_set(archive), tables)
