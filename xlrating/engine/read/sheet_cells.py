"""The cells of one worksheet, read from its XML: values and formulas into flat lists.

openpyxl builds a Python object per cell, which alone costs more than the engine's whole time budget
for a 50,000-formula workbook; here one pass per sheet collects values and formulas. Three readers,
quickest first: array operations over the sheet's bytes (:func:`read_sheet_bulk`, :mod:`.bulk_cells`),
one regular expression per cell over the well-formed layout every known producer writes
(``<c r="A1" ...>``: :func:`read_sheet_fast`), a megabyte at a time, and lxml's streaming parser for
any other layout (namespace prefixes, cells without an address: :func:`read_sheet`).

Formulas are kept as text with their kind: ordinary, the master or a follower of a shared formula
(``<f t="shared" si=..>``: Excel's fill-down), or an array formula (``t="array"`` with its range).
"""

from __future__ import annotations

import math
import re
import zipfile
from dataclasses import dataclass, field
from itertools import chain, compress
from operator import not_
from typing import Any

import numpy as np
from lxml import etree

from xlrating.excel_errors import ExcelError

from . import bulk_cells
from .date_system import SYSTEM_1900, iso_serial
from .formula_xml import unescape_xml

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
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
    data_table: dict[str, str] | None = None  # t="dataTable": its attributes (ref, dt2D, dtr, r1, r2)


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
    # read from ``xml`` by :func:`read_sheet_bulk` (every cell in one of its four layouts) or by
    # :func:`read_sheet_fast` (which checks this of the formula cells): the formula cells are exactly
    # ``simple``, in document order, each ``<c r=".." s=".."><f>..</f>[<v>..</v>]</c>``
    bulk: bool = False
    # the workbook's date system, for the ISO 8601 dates of cells of type "d" (:mod:`.date_system`)
    date_system: int = SYSTEM_1900
    # cells whose value their type cannot hold, read as LibreOffice reads them (a shared-string index
    # the workbook lacks: an empty cell; a number cell holding no number: 0): "cell A3 holds '17' ..."
    damaged: list[str] = field(default_factory=list)


_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


def ooxml_text(text: str) -> str:
    """A string as Excel meant it: characters XML cannot hold are stored as ``_xHHHH_`` (``_x0001_``
    for CHAR(1), ``_x005F_`` for an underscore that starts such a sequence)."""
    if "_x" not in text:
        return text
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def cell_position(ref: str) -> tuple[int, int]:
    """'AB12' -> (12, 28)."""
    i = 0
    col = 0
    while i < len(ref) and ref[i].isalpha():
        col = col * 26 + (ord(ref[i].upper()) - 64)
        i += 1
    return int(ref[i:]), col


def _value(kind: str | None, text: str | None, strings: list[str], cell: Any, system: int = SYSTEM_1900) -> Any:
    if kind == "inlineStr":
        node = cell.find(_IS)
        return ooxml_text("".join(t.text or "" for t in node.iter(_T))) if node is not None else ""
    if text is None:
        return None
    if kind == "s":
        index = int(text)
        if not 0 <= index < len(strings):
            raise IndexError(f"no shared string {index}")
        return strings[index]
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind == "e":
        return ExcelError(text.strip())
    if kind == "d":  # an ISO 8601 date (Strict workbooks hold dates so): the serial number of that day
        return iso_serial(text, system)
    if kind == "str":
        return text
    number = float(text)
    if not math.isfinite(number):  # "inf", 1E+999: no number Excel holds
        raise ValueError("a number that is not finite")
    return number


def read_sheet(archive: zipfile.ZipFile, sheet: SheetCells, strings: list[str]) -> None:
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
                elif kind == "dataTable":
                    formula.data_table = {str(k): str(v) for k, v in f.attrib.items()}
                sheet.formulas.append(formula)
            else:
                try:
                    value = _value(cell.get("t"), v.text if v is not None else None, strings, cell, sheet.date_system)
                except (ValueError, IndexError):  # a damaged cell, read as LibreOffice reads it, and named
                    number = cell.get("t") in (None, "n")  # a number cell holding no number: 0
                    value = 0.0 if number else None
                    sheet.damaged.append(_damaged(cell.get("t"), v.text if v is not None else "", row, col,
                                                  "0" if number else "an empty cell"))
                if value is not None:
                    sheet.values.append((row, col, value))
            sheet.max_row = max(sheet.max_row, row)
            sheet.max_col = max(sheet.max_col, col)
            cell.clear()
            parent = cell.getparent()
            if parent is not None:  # drop finished cells and rows so memory stays flat
                while cell.getprevious() is not None:
                    del parent[0]


_MEANING = {"s": "a shared-string index", "b": "a boolean (0 or 1)", "d": "an ISO 8601 date", "e": "an error code"}


def _damaged(kind: str | None, text: str | None, row: int, col: int, read_as: str) -> str:
    """What a cell holds that its type cannot, and what it is read as, for the warning naming it."""
    letters = ""
    number = col
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    meaning = _MEANING.get(kind or "n", "a number")
    return f"cell {letters}{row} holds {(text or '')[:40]!r} where {meaning} belongs: read as {read_as}"


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


def read_sheet_bulk(raw: bytes, text: str, sheet: SheetCells, strings: list[str], checking: bool = False) -> bool:
    """The quickest read: every cell in one of the four layouts of :mod:`.bulk_cells`, found with
    array operations over ``raw`` (the UTF-8 bytes of ``text``) and converted column by column.
    False, leaving ``sheet`` untouched, when any cell is laid out otherwise. ``checking``: the read
    stands for the package scan (:mod:`xlrating.gate.part_quick`), so a value the scan would
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


def read_sheet_fast(text: str, sheet: SheetCells, strings: list[str], checking: bool = False) -> bool:
    """Read ``text`` with the per-cell regular expression; False if its layout needs the parser.
    ``checking`` (see :func:`read_sheet_bulk`): values are checked as the package scan checks them,
    and raise ValueError where it would look closer."""
    if _prefixed_cells(text):
        return False
    cells = _FAST_CELL.findall(text)
    if len(cells) != text.count("<c ") or "<c>" in text:
        return False
    columns: dict[str, int] = {}
    values, formulas = sheet.values, sheet.formulas
    bulk_layout = False  # every formula cell as in the bulk layout (see SheetCells.bulk)
    max_row = max_col = 0
    min_row = 1 << 31
    if cells:
        # plain numbers (no type or t="n", just <v>) in bulk; everything else cell by cell below
        plain = [("t=" not in a or ' t="n"' in a) and b[:3] == "<v>" and b[-4:] == "</v>" and "<f" not in b
                 for _, _, a, b in cells]
        numeric = list(compress(cells, plain))
        if numeric:
            rows, cols = _positions(numeric, columns)
            min_row = int(rows.min())
            nums = np.fromiter(map(float, [c[3][3:-4] for c in numeric]), dtype=np.float64, count=len(numeric))
            if checking and not np.isfinite(nums).all():
                raise ValueError("a number that is not finite")
            sheet.numbers = (rows, cols, nums)
            max_row, max_col = int(rows.max()), int(cols.max())
        cells = list(compress(cells, map(not_, plain)))
        closes = [b.find("</f>") if b[:3] == "<f>" else -1 for _, _, _, b in cells]  # where an <f>'s text ends
        ordinary = [close > 3 for close in closes]
        simple = list(compress(cells, ordinary))
        if simple:
            closes = list(compress(closes, ordinary))
            rows, cols = _positions(simple, columns)
            texts = ["=" + c[3][3:close] for c, close in zip(simple, closes)]
            texts = [unescape_xml(t) if "&" in t or "\r" in t else t for t in texts]
            sheet.simple = (rows, cols, texts)
            # judged on the distinct start tags and ends, which a filled-down column repeats
            bulk_layout = (all(_PLAIN_START.fullmatch(a) for a in {c[2] for c in simple})
                           and all(_PLAIN_END.fullmatch(end) for end in {c[3][close:] for c, close in zip(simple, closes)}))
            max_row, max_col = max(max_row, int(rows.max())), max(max_col, int(cols.max()))
            min_row = min(min_row, int(rows.min()))
            cells = list(compress(cells, map(not_, ordinary)))
        # inline strings of one plain text (the layout of generated sheets), without an expression each
        inline = [a.endswith(' t="inlineStr"') and b[:7] == "<is><t>" and b[-9:] == "</t></is>" and b.count("<") == 4
                  for _, _, a, b in cells]
        if any(inline):
            found = list(compress(cells, inline))
            rows, cols = _positions(found, columns)
            values.extend(zip(rows.tolist(), cols.tolist(), [ooxml_text(unescape_xml(c[3][7:-9])) for c in found]))
            max_row, max_col = max(max_row, int(rows.max())), max(max_col, int(cols.max()))
            min_row = min(min_row, int(rows.min()))
            cells = list(compress(cells, map(not_, inline)))
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
                elif fkind == "dataTable":
                    cell.data_table = fattrs
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
        elif kind == "d":  # an ISO 8601 date: the serial number of that day
            try:
                values.append((row, col, iso_serial(unescape_xml(raw), sheet.date_system)))
            except ValueError as exc:
                raise ValueError(f"cell {sheet.name}!{letters}{digits}: {exc}") from None
        else:
            values.append((row, col, unescape_xml(raw)))
    sheet.max_row, sheet.max_col, sheet.min_row = max_row, max_col, min(min_row, max_row)
    sheet.bulk = bulk_layout and not formulas
    return True


def _positions(cells: list[tuple[str, str, str, str]], columns: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """The rows and column numbers of matched cells (letters, digits, ...), as arrays; ``columns``
    learns the number of each column's letters met for the first time."""
    letters_of = [c[0] for c in cells]
    for letters in set(letters_of) - columns.keys():
        columns[letters] = cell_position(letters + "1")[1]
    rows = np.fromiter(map(int, [c[1] for c in cells]), dtype=np.int64, count=len(cells))
    return rows, np.fromiter(map(columns.__getitem__, letters_of), dtype=np.int64, count=len(cells))


# A formula cell as the bulk layout has it: a start tag of its reference and at most a style, and
# after the formula's text its old value (or none) and its end
_PLAIN_START = re.compile(r' s="[0-9]+"|')
_PLAIN_END = re.compile(r"</f>(?:<v>[^<]*</v>|<v/>)?")

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
