"""Fresh cached values into one sheet's XML: each formula cell gets ``<v>`` (and ``t="str"``/``"b"``/
``"e"``) after its ``<f>``, or loses its ``<f>`` for values only; the cells of a spilled array are
filled in or inserted. Three paths, fastest first: the bulk path formats a column's numbers at once
over the sheet read in bulk (:func:`bulk_chunks`), the piecewise path rebuilds the sheet a row chunk
at a time (:func:`edited_chunks`), and the general path edits every cell of the whole text
(:func:`edit_sheet`). xlrating's functions are named as Excel stores them
(:func:`excel_function_names`)."""

from __future__ import annotations

import functools
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from typing import Any

import numpy as np

from xlrating.excel_errors import ExcelError

from ..evaluate.model import Evaluated
from ..formula.tree import column_letters
from ..read.grid import NUMBER, NotComputed
from ..read.sheet_cells import SheetCells, cell_position, row_chunks

_CELL = re.compile(r"<(?P<p>(?:\w+:)?)c\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?P=p)c>)", re.DOTALL)
_ROW = re.compile(r"<(?P<p>(?:\w+:)?)row\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?P=p)row>)", re.DOTALL)
_ATTR_R = re.compile(r'\sr="([A-Z]+\d+)"')
_ATTR_T = re.compile(r'\st="[^"]*"')
_FORMULA = re.compile(r"<(?P<p>(?:\w+:)?)f\b(?P<attrs>[^>]*?)(?:/>|>(?P<text>.*?)</(?P=p)f>)", re.DOTALL)
_SHEET_DATA_END = re.compile(r"</(\w+:)?sheetData>|<(\w+:)?sheetData\s*/>")


# Characters written as _xHHHH_: those XML cannot hold, and the carriage return, which XML reads back
# as a line feed (Excel writes CHAR(13) as _x000D_)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")


def _control(match: re.Match[str]) -> str:
    char = match.group(0)
    return "_x005F_" if char == "_" else f"_x{ord(char):04X}_"


def escape(text: str) -> str:
    """XML character data: &, < and > escaped (xml.sax.saxutils would import urllib at start-up);
    characters XML cannot hold (``CHAR(1)``) and the carriage return written as Excel writes them,
    ``_x0001_``, ``_x000D_``."""
    text = _CONTROL.sub(_control, text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _spelt(text: str) -> str:
    """``repr``'s text of a float spelt as orjson spells the same digits (see :func:`_number_texts`),
    so that a value has one text whichever path writes it: from 1e-9 up to 1e-5 without the
    exponent's leading zero ("1e-6"), from 1e-5 up to 1e-4 in decimals ("0.00001"); every other text
    is the same."""
    if "e-0" not in text:
        return text
    mantissa, exponent = text.split("e-0")
    if exponent != "5":
        return f"{mantissa}e-{exponent}"
    sign = "-" if mantissa.startswith("-") else ""
    return f"{sign}0.0000{mantissa.lstrip('-').replace('.', '')}"


def number_text(value: float) -> str:
    """A number as the cell-by-cell paths and CSV write it: an integer below 10**15 without a fraction
    ("3", as Excel writes it; the bulk paths write "3.0"), else the shortest text that reads back to
    the same double, the bulk paths' text."""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return _spelt(repr(float(value)))


# Formula cells of a sheet from which the bulk paths format its numbers with orjson: its import
# (3-4 ms) costs more than it saves on fewer (repr takes about 0.5 µs a number longer)
_ORJSON_FROM = 10_000


def _number_texts(values: np.ndarray, quick: bool) -> list[str]:
    """The texts of numbers (a float64 array): with ``quick``, orjson's, all made in one call (a tenth
    of the time ``repr`` takes, which was most of the writing); else ``repr``'s, spelt as orjson
    spells them. The same texts either way, each the shortest that reads back to the same double;
    they differ from repr's only in how small numbers are spelt ("1e-6", "0.00001" for repr's
    "1e-06", "1e-05"), an xsd:double that Excel and LibreOffice read as well."""
    if quick and len(values):
        import orjson  # here only: a small workbook does not pay its import

        made = orjson.dumps(np.ascontiguousarray(values, dtype=np.float64), option=orjson.OPT_SERIALIZE_NUMPY)
        # orjson writes NaN and infinities as null; never a number cell's value (model.py makes them
        # #NUM!), but should one come, it gets repr's text below as it always did, never "null"
        if b"null" not in made:
            return made[1:-1].decode("ascii").split(",")
    texts = list(map(repr, values.tolist()))
    if "e-0" in ",".join(texts):
        texts = list(map(_spelt, texts))
    return texts


def _value_xml(value: Any, formula: bool, prefix: str) -> tuple[str | None, str]:
    """(t attribute, XML after the formula) for a cell value."""
    if isinstance(value, NotComputed):  # no cached value: Excel and LibreOffice compute it on open
        return None, ""
    if isinstance(value, ExcelError):
        return "e", f"<{prefix}v>{escape(value.code)}</{prefix}v>"
    if isinstance(value, bool):
        return "b", f"<{prefix}v>{int(value)}</{prefix}v>"
    if isinstance(value, (int, float)):
        if not math.isfinite(value):  # never a number a spreadsheet must repair: Excel's #NUM!
            return "e", f"<{prefix}v>#NUM!</{prefix}v>"
        return None, f"<{prefix}v>{number_text(value)}</{prefix}v>"
    if value is None:
        return None, ""
    text = escape(str(value))
    if formula:
        return "str", f"<{prefix}v>{text}</{prefix}v>"
    return "inlineStr", f'<{prefix}is><{prefix}t xml:space="preserve">{text}</{prefix}t></{prefix}is>'


class SheetEdit:
    """The cells of one sheet to rewrite: formula cells and the cells their arrays spill into."""

    def __init__(self, evaluated: Evaluated, sheet_name: str, values_only: bool):
        self.sheet = evaluated.grid.sheet(sheet_name)
        self.values_only = values_only
        upper = sheet_name.upper()
        self._blocks = [b for b in evaluated.blocks if b.sheet is self.sheet]
        self._formulas: set[tuple[int, int]] | None = None
        self.anchors: dict[tuple[int, int], str] = {}
        self.spilled: set[tuple[int, int]] = set()
        for (sheet, row, col), (height, width) in evaluated.spills.items():
            if sheet != upper:
                continue
            self.anchors[(row, col)] = f"{column_letters(col)}{row}:{column_letters(col + width - 1)}{row + height - 1}"
            for i in range(height):
                for j in range(width):
                    if i or j:
                        self.spilled.add((row + i, col + j))
        self.pending = set(self.spilled)
        self.columns: _ColumnValues | None = None  # built by the fast path on first use

    @property
    def formula_count(self) -> int:
        return sum(b.last - b.first + 1 for b in self._blocks)

    @property
    def formulas(self) -> set[tuple[int, int]]:
        """Every formula cell of the sheet (built on first use: the fast path does not need it)."""
        if self._formulas is None:
            self._formulas = {(row, b.col) for b in self._blocks for row in range(b.first, b.last + 1)}
        return self._formulas

    def cell(self, match: re.Match[str]) -> str:
        attrs = match.group("attrs")
        found = _ATTR_R.search(attrs)
        if found is None:
            return match.group(0)
        position = cell_position(found.group(1))
        if position not in self.formulas and position not in self.spilled:
            return match.group(0)
        self.pending.discard(position)
        prefix = match.group("p") or ""
        formula_xml = ""
        body = match.group("body") or ""
        if position in self.formulas and not self.values_only:
            f = _FORMULA.search(body)
            if f is not None:
                formula_xml = f.group(0)
                if position in self.anchors and "dataTable" not in (f.group("attrs") or ""):
                    text = f.group("text") or ""
                    formula_xml = f'<{prefix}f t="array" ref="{self.anchors[position]}">{text}</{prefix}f>'
        return self._xml(position, _ATTR_T.sub("", attrs), formula_xml, prefix)

    def _xml(self, position: tuple[int, int], attrs: str, formula_xml: str, prefix: str) -> str:
        value = self.sheet.get(*position) if self.sheet is not None else None
        kind, value_xml = _value_xml(value, bool(formula_xml), prefix)
        kind_attr = f' t="{kind}"' if kind else ""
        return f"<{prefix}c{attrs.rstrip()}{kind_attr}>{formula_xml}{value_xml}</{prefix}c>"

    def new_cell(self, row: int, col: int, prefix: str) -> str:
        return self._xml((row, col), f' r="{column_letters(col)}{row}"', "", prefix)

    def insert_missing(self, xml: str) -> str:
        """Add the spilled cells the sheet had no element for, in row and column order."""
        by_row: dict[int, list[int]] = defaultdict(list)
        for row, col in sorted(self.pending):
            by_row[row].append(col)
        prefix_match = re.search(r"<(\w+:)?sheetData", xml)
        prefix = (prefix_match.group(1) or "") if prefix_match else ""

        def row_sub(match: re.Match[str]) -> str:
            r = re.search(r'\sr="(\d+)"', match.group("attrs"))
            if r is None or int(r.group(1)) not in by_row:
                return match.group(0)
            row = int(r.group(1))
            cells = []
            for cell in _CELL.finditer(match.group("body") or ""):
                address = _ATTR_R.search(cell.group("attrs"))
                cells.append((cell_position(address.group(1))[1] if address else 0, cell.group(0)))
            cells += [(col, self.new_cell(row, col, prefix)) for col in by_row.pop(row)]
            cells.sort(key=lambda item: item[0])
            attrs = re.sub(r'\sspans="[^"]*"', "", match.group("attrs"))
            return f"<{prefix}row{attrs}>{''.join(c for _, c in cells)}</{prefix}row>"

        xml = _ROW.sub(row_sub, xml)
        if not by_row:
            return xml
        # rows that did not exist: insert each before the first row after it, or at the end
        rows_xml = {row: f'<{prefix}row r="{row}">' + "".join(self.new_cell(row, c, prefix) for c in cols) +
                    f"</{prefix}row>" for row, cols in by_row.items()}

        def place(match: re.Match[str]) -> str:
            r = re.search(r'\sr="(\d+)"', match.group("attrs"))
            if r is None:
                return match.group(0)
            before = [row for row in rows_xml if row < int(r.group(1))]
            inserted = "".join(rows_xml.pop(row) for row in sorted(before))
            return inserted + match.group(0)

        xml = _ROW.sub(place, xml)
        rest = "".join(rows_xml[row] for row in sorted(rows_xml))
        end = _SHEET_DATA_END.search(xml)
        if end is None or not rest:
            return xml
        if end.group(0).endswith("/>"):
            return xml[:end.start()] + f"<{prefix}sheetData>{rest}</{prefix}sheetData>" + xml[end.end():]
        return xml[:end.start()] + rest + xml[end.start():]


@functools.lru_cache(maxsize=1)
def _service_prefix() -> re.Pattern[str]:
    """``xlrating.NAME(`` outside string literals: how LibreOffice's add-in names our functions."""
    from xlrating.functions import BY_NAME

    names = "|".join(sorted(BY_NAME, key=len, reverse=True))
    return re.compile(rf'("(?:[^"]|"")*")|(?<![\w.])xlrating\.(?=(?:{names})\()', re.IGNORECASE)


def excel_function_names(xml: str) -> str:
    """Sheet XML whose formulas name xlrating's functions as Excel and its add-ins store them
    (``MERS_BASE_RANK(``), not as LibreOffice's add-in does (``xlrating.MERS_BASE_RANK(``, which the
    engine reads too), so the workbook works in Excel with the xlwings add-in as it is written."""
    if "xlrating." not in xml and "XLRATING." not in xml:  # as LibreOffice writes it, or upper case
        return xml
    from ..read.formula_xml import rewrite_formulas

    prefix = _service_prefix()
    return rewrite_formulas(xml, lambda text: prefix.sub(lambda m: m.group(1) or "", text))


def edit_sheet(xml: str, edit: SheetEdit) -> str:
    chunks = edited_chunks(xml, edit)
    xml = "".join(chunks) if chunks is not None else _CELL.sub(edit.cell, xml)
    if edit.pending:
        xml = edit.insert_missing(xml)
    return xml


_F_OPEN = re.compile(r"<f[\s>/]")


_ADDRESS = re.compile(r'\sr="([A-Z]{1,3})([0-9]+)"')


# A formula cell as every known producer writes it: the address first, the formula, maybe a value.
_FORMULA_CELL = re.compile(r'<c r="([A-Z]{1,3})([0-9]+)"([^>]*)>(<f(?:\s[^>]*)?(?:/>|>[^<]*</f>))'
                           r'(?:<v>[^<]*</v>|<v/>)?</c>')


def _formula_elements(xml: str) -> int:
    return xml.count("<f>") + xml.count("<f ") + xml.count("<f/>")


def edited_chunks(xml: str, edit: SheetEdit) -> Iterator[str] | None:
    """The fast path: the sheet rebuilt a piece at a time (pieces start at a row), each piece split
    at its formula cells (one C-level pass) and rebuilt with their values; None (the general path
    takes the whole sheet) for spilled arrays, whose cells may need inserting, or a sheet whose
    formula elements are not its formula cells (namespace prefixes, an empty ``<f/>``...)."""
    if edit.sheet is None or edit.spilled or _formula_elements(xml) != edit.formula_count:
        return None
    return (_edit_chunk(xml[start:stop], edit) for start, stop in row_chunks(xml))


class _ColumnValues:
    """The formula columns of a sheet as 2-D arrays (kinds and numbers), for indexing many cells at once."""

    def __init__(self, edit: SheetEdit):
        sheet = edit.sheet
        assert sheet is not None
        self.index: dict[str, int] = {}
        self.cols: list[int] = []
        for col in sorted({b.col for b in edit._blocks}):
            sheet.column(col).grow(sheet.size)
            self.index[column_letters(col)] = len(self.cols)
            self.cols.append(col)
        self.kinds = np.stack([sheet.columns[c].kind[:sheet.size] for c in self.cols]) if self.cols \
            else np.zeros((0, 0), np.int8)
        self.nums = np.stack([sheet.columns[c].num[:sheet.size] for c in self.cols]) if self.cols else np.zeros((0, 0))
        # orjson for many numbers, or where it is imported already (another sheet, the web service)
        self.quick = edit.formula_count >= _ORJSON_FROM or "orjson" in sys.modules

    def numbers(self, which: np.ndarray, rows: np.ndarray) -> tuple[str, ...]:
        """The texts of the numbers of the cells (formula column slots ``which``, ``rows``), for ``%s``."""
        return tuple(_number_texts(self.nums[which, rows], self.quick))


def _edit_chunk(xml: str, edit: SheetEdit) -> str:
    """One piece of the sheet with its formula cells rebuilt; a piece where some formula cell is
    laid out otherwise (extra children, say) goes cell by cell through the general path."""
    parts = _FORMULA_CELL.split(xml)
    if (len(parts) - 1) // 5 != _formula_elements(xml):
        return _CELL.sub(edit.cell, xml)
    sheet, values_only = edit.sheet, edit.values_only
    assert sheet is not None
    if edit.columns is None:
        edit.columns = _ColumnValues(edit)
    columns = edit.columns
    before, letters, digits = parts[0::5], parts[1::5], parts[2::5]
    if not letters:
        return xml
    if not columns.index.keys() >= set(letters):  # a formula element that is not one of the engine's cells
        return _CELL.sub(edit.cell, xml)
    attrs = [_ATTR_T.sub("", a) if " t=" in a else a for a in parts[3::5]]
    formula_xml = [""] * len(letters) if values_only else parts[4::5]
    rows = np.fromstring(",".join(digits), dtype=np.int64, sep=",")
    which = np.fromiter(map(columns.index.__getitem__, letters), dtype=np.int64, count=len(letters))
    # built by C-level maps and one join, not an f-string per cell: a million cells cost seconds otherwise
    numbers = _number_texts(columns.nums[which, rows], columns.quick)
    values = list(map("".join, zip(repeat("<v>"), numbers, repeat("</v>"))))
    kind_attrs = [""] * len(letters)
    for i in np.flatnonzero(columns.kinds[which, rows] != NUMBER).tolist():
        kind, values[i] = _value_xml(sheet.get(int(rows[i]), columns.cols[which[i]]), not values_only, "")
        kind_attrs[i] = f' t="{kind}"' if kind else ""
    cells = zip(before, repeat('<c r="'), letters, digits, repeat('"'), attrs, kind_attrs, repeat(">"), formula_xml,
                values, repeat("</c>"))
    return "".join(chain(chain.from_iterable(cells), (before[-1],)))


# What follows a formula's text in a formula cell of the bulk layout (see SheetCells.bulk): the
# end of the formula, the old cached value if any, the end of the cell.
_FORMULA_END = re.compile(r"</f>(?:<v>[^<]*</v>|<v/>)?</c>")


def bulk_chunks(xml: str, edit: SheetEdit, cells: SheetCells) -> Iterator[str] | None:
    """The quickest path, for a sheet read in the bulk layout (:attr:`SheetCells.bulk`) from this
    very text: its formula cells are ``cells.simple`` in document order, each ending in
    ``</f>[<v>..</v>]</c>`` and no other ``</f>`` in the sheet; so the text between two formula
    ends is copied as it is and only the value after each ``</f>`` is new (and a ``t`` attribute
    for a value that is not a number): see :func:`_bulk_pieces`. The same bytes as
    :func:`_edit_chunk`. None where the conditions do not hold (the other paths decide)."""
    if (not cells.bulk or cells.simple is None or cells.xml is None or edit.sheet is None or edit.spilled
            or edit.values_only):
        return None
    rows, cols, _ = cells.simple
    if not len(rows):
        return None
    spans = row_chunks(xml, _PIECE)
    counts = [xml.count("</f>", start, stop) for start, stop in spans]
    if not len(rows) == edit.formula_count == sum(counts):
        return None
    if edit.columns is None:
        edit.columns = _ColumnValues(edit)
    columns = edit.columns
    if cols.min() < 0:
        return None
    slot = np.full(max([int(cols.max()), *columns.cols]) + 1, -1, dtype=np.int64)
    slot[columns.cols] = np.arange(len(columns.cols))
    which = slot[cols]
    if which.min() < 0:  # a formula cell in none of the engine's formula columns
        return None
    return _bulk_pieces(xml, edit, rows, which, zip(spans, counts))


# Characters of sheet XML made at a time: a piece's formatting holds the GIL, which the deflate
# thread (see _write_streamed) waits for after each of its steps, so pieces stay short
_PIECE = 1 << 18


# A formula cell's end with a slot for its number, for "%" formatting: one C-level pass formats and
# places every number of a piece (a join of four strings a cell cost more than the numbers themselves)
_NUMBER_SLOT = "</f><v>%s</v></c>"
# the same output (a number's text is never empty) one character longer: a slot and the end it
# replaces must differ in length, which then tells how many ends a replace found
_NUMBER_SLOT_WIDE = "</f><v>%1s</v></c>"


def _bulk_pieces(xml: str, edit: SheetEdit, rows: np.ndarray, which: np.ndarray,
                 spans: Iterable[tuple[tuple[int, int], int]]) -> Iterator[str]:
    """The sheet a piece at a time (``spans``: each piece's start, stop and number of formula cells),
    each made a "%" template with a slot where each formula cell's number goes (its old value
    dropped), then formatted with the numbers' texts at once (see :func:`_number_texts`)."""
    sheet, columns = edit.sheet, edit.columns
    assert sheet is not None and columns is not None
    done = 0
    for (start, stop), count in spans:
        piece = xml[start:stop]
        if not count:
            yield piece
            continue
        at_rows, at = rows[done:done + count], which[done:done + count]
        if len(at_rows) != count:
            raise AssertionError("formula cells out of step with the sheet read")  # never: see bulk_chunks
        done += count
        if "%" in piece:
            piece = piece.replace("%", "%%")
        # How the first formula cell ends (</f>, its old value, </c>). Where every formula cell of the
        # piece ends so (a generated workbook's old values are all alike: judged on the first few
        # thousand characters, proved by the length of the result), a plain replace makes the
        # template; else an expression finds the ends.
        first = piece.find("</f>")
        end = piece[first:piece.find("</c>", first) + 4]
        window = piece[first:first + 4096]
        alike = window.count("</f>") - window.count(end) <= 1  # (the window may cut the last end)
        special = np.flatnonzero(columns.kinds[at, at_rows] != NUMBER).tolist()
        if not special:
            slot = _NUMBER_SLOT if len(end) != len(_NUMBER_SLOT) else _NUMBER_SLOT_WIDE
            template = piece.replace(end, slot) if alike else piece
            if len(template) - len(piece) != count * (len(slot) - len(end)):
                template, found = _FORMULA_END.subn(_NUMBER_SLOT, piece)
                if found != count:
                    raise AssertionError("formula cells out of step with the sheet read")
            yield template % columns.numbers(at, at_rows)
            continue
        pieces = piece.split(end) if alike else []
        if len(pieces) != count + 1:
            pieces = _FORMULA_END.split(piece)
            if len(pieces) != count + 1:
                raise AssertionError("formula cells out of step with the sheet read")
        ends = [_NUMBER_SLOT] * count
        for i in special:
            kind, value = _value_xml(sheet.get(int(at_rows[i]), columns.cols[at[i]]), True, "")
            ends[i] = "</f>" + value.replace("%", "%%") + "</c>"
            if kind:
                cell = pieces[i]
                tag = cell.rfind("><f>")  # the formula's text holds no "<": this is its cell's start tag
                pieces[i] = f'{cell[:tag]} t="{kind}"{cell[tag:]}'
        numbered = np.ones(count, dtype=bool)
        numbered[special] = False
        template = "".join(chain(chain.from_iterable(zip(pieces, ends)), (pieces[-1],)))
        yield template % columns.numbers(at[numbered], at_rows[numbered])
    if done != len(rows):
        raise AssertionError("formula cells out of step with the sheet read")
