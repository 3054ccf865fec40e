"""Read an .xls (Excel 97-2003) or .ods (OpenDocument) submission into the same grids as an .xlsx.

calamine (Rust, through python-calamine) parses both formats. It gives each sheet's stored values
as a dense range; this module turns them into :class:`~xlrating.sheets.read.xlsx.SheetGrid` values
the way openpyxl reads the .xlsx of the same sheet, so the validator finds the same things at the
same cells:

- an empty cell is ``None`` (calamine gives ``''``);
- a whole number is an ``int`` (Excel stores 2.0 as ``2`` in an .xlsx and openpyxl reads an int;
  calamine gives 2.0 for .ods and for a formula's result in .xls);
- a date is a ``datetime`` at midnight (openpyxl's reading of a date-formatted cell);
- formulas: calamine gives their cached results, which .xls and .ods always store (a BIFF FORMULA
  record and an ODF ``office:value`` carry the result), so ``formulas`` stays empty and
  FORMULA_NO_VALUE cannot arise; a formula whose result is an error (``#N/A``) or empty text
  reads as an empty cell.

Before calamine sees an .ods, :func:`check_ods` proves it within the limits: the zip directory
(the zip-bomb checks of every package), every part unpacked in a stream with a running count,
no DTD in any XML part, and ``content.xml`` followed cell by cell with its repeat counts, so that
a sheet whose cells (or whose bounding box, which calamine allocates densely) break a limit is
refused before anything is built. The same pass collects the merged ranges, which calamine does
not report for .ods. An .xls cannot be pre-checked this way here: it is bounded by the file size
and by BIFF8's own grid (65,536 rows x 256 columns), and its extent is checked against the limits
right after calamine has read it, before any Python value is made.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import struct
import xml.parsers.expat
import zipfile
from typing import Any

from xlrating.gate.limits import Limits, describe
from xlrating.gate.package_guard import CHUNK, Refused, check_zip_directory
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.read.xlsx import Range, SheetGrid

KIND_NAMES = {"xls": "Excel 97-2003 .xls workbook", "ods": "OpenDocument spreadsheet (.ods)"}


# An .xls cannot be measured before calamine reads it, and calamine holds a sheet densely (BIFF8's
# grid is 65,536 x 256 cells: about half a gigabyte for two cells at opposite corners). It is read
# in a child process whose address space and time are capped, so a hostile file costs this process
# nothing and is refused within the bounds every other submission gets.
XLS_MEMORY_BYTES = 768 * 1024**2  # address space: Python and calamine take ~0.3 GB, a real submission little more
XLS_SECONDS = 20
_CHILD = "import sys; from xlrating.sheets.read.calamine import _child_main; _child_main()"


def read_calamine(path: str | os.PathLike[str], data: bytes, kind: str, limits: Limits) -> list[SheetGrid]:
    """Every sheet of the .xls or .ods ``data`` (``kind`` "xls" or "ods") as a SheetGrid, or
    :class:`UnreadableWorkbook` naming what the file is and what is wrong with it."""
    if kind == "xls" and _can_cap():
        return _read_capped(path, data, limits)
    return _read(path, data, kind, limits)


def _can_cap() -> bool:
    try:
        import resource  # noqa: F401 - POSIX only; elsewhere the .xls is read in this process
    except ImportError:
        return False
    return True


def _read_capped(path: str | os.PathLike[str], data: bytes, limits: Limits) -> list[SheetGrid]:
    import pickle
    import subprocess
    import sys

    def cap() -> None:  # runs in the child before it starts Python
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (XLS_MEMORY_BYTES, XLS_MEMORY_BYTES))

    try:
        done = subprocess.run([sys.executable, "-c", _CHILD], input=pickle.dumps((str(path), data, limits)),
                              capture_output=True, timeout=XLS_SECONDS, preexec_fn=cap, check=False)
    except subprocess.TimeoutExpired:
        raise UnreadableWorkbook(path, f"the {KIND_NAMES['xls']} takes longer than {XLS_SECONDS} s to read; "
                                       f"refused") from None
    if done.returncode != 0 or not done.stdout:
        said = done.stderr.decode("utf-8", "replace")
        if done.returncode < 0 or "memory" in said.lower():
            raise UnreadableWorkbook(path, f"the {KIND_NAMES['xls']} needs more than "
                                           f"{XLS_MEMORY_BYTES // 2**20} MB of memory to read (its sheets span "
                                           f"too many cells); refused")
        last = said.strip().splitlines()[-1] if said.strip() else f"exit status {done.returncode}"
        raise UnreadableWorkbook(path, f"damaged {KIND_NAMES['xls']} (the reader failed: {last[:200]})")
    outcome = pickle.loads(done.stdout)  # written by _child_main, our own code, just now
    if isinstance(outcome, str):
        raise UnreadableWorkbook(path, outcome)
    grids: list[SheetGrid] = outcome
    return grids


def _child_main() -> None:
    """In the capped child: read the .xls from stdin, write the grids (or the refusal) to stdout."""
    import pickle
    import sys

    path, data, limits = pickle.loads(sys.stdin.buffer.read())  # from the parent above
    try:
        outcome: Any = _read(path, data, "xls", limits)
    except UnreadableWorkbook as refused:
        outcome = refused.reason
    sys.stdout.buffer.write(pickle.dumps(outcome))


def _read(path: str | os.PathLike[str], data: bytes, kind: str, limits: Limits) -> list[SheetGrid]:
    merged: dict[str, list[Range]] = {}
    if kind == "ods":
        try:
            merged = check_ods(data, limits)
        except Refused as refused:
            raise UnreadableWorkbook(path, refused.reason) from None
    from python_calamine import CalamineWorkbook

    grids = []
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        for name in book.sheet_names:
            sheet = book.get_sheet_by_name(name)
            _check_extent(path, name, sheet.height, sheet.width, limits)
            grid = SheetGrid(name, [_row(values) for values in sheet.to_python(skip_empty_area=False)])
            while grid.rows and not grid.rows[-1]:
                grid.rows.pop()
            if kind == "xls":
                grid.merged = [(r0 + 1, c0 + 1, r1 + 1, c1 + 1)
                               for (r0, c0), (r1, c1) in (sheet.merged_cell_ranges or [])]
            else:
                grid.merged = merged.get(name, [])
            grids.append(grid)
    except UnreadableWorkbook:
        raise
    except Exception as exc:  # noqa: BLE001 - calamine's CalamineError, ZipError, XmlError, ValueError ...
        if kind == "xls" and _encrypted_xls(data):  # calamine says only "Cannot detect file format"
            raise UnreadableWorkbook(path, f"an encrypted (password-protected) {KIND_NAMES[kind]}; remove the "
                                           f"password in Excel (File > Info > Protect Workbook) and save it "
                                           f"again") from None
        raise UnreadableWorkbook(path, f"damaged {KIND_NAMES[kind]} ({type(exc).__name__}: {exc})") from None
    except BaseException as exc:  # a Rust panic reaches Python as pyo3's PanicException (a BaseException)
        if type(exc).__name__ != "PanicException":
            raise
        raise UnreadableWorkbook(path, f"damaged {KIND_NAMES[kind]} (the reader failed: {exc})") from None
    return grids


# The BOF record opening an .xls's workbook globals (BIFF8, [MS-XLS] 2.4.21); encryption is declared
# by a FILEPASS record (2.4.117) among the records after it, before the first BOUNDSHEET.
_GLOBALS_BOF = b"\x09\x08\x10\x00\x00\x06\x05\x00"
_FILEPASS, _BOUNDSHEET, _EOF = 0x002F, 0x0085, 0x000A


def _encrypted_xls(data: bytes) -> bool:
    at = data.find(_GLOBALS_BOF)
    if at < 0:
        return False
    at += 20  # the BOF record: 4 bytes of header, 16 of data
    for _ in range(8):
        if at + 4 > len(data):
            return False
        kind, size = struct.unpack_from("<HH", data, at)
        if kind == _FILEPASS:
            return True
        if kind in (_BOUNDSHEET, _EOF):
            return False
        at += 4 + size
    return False


def _check_extent(path: str | os.PathLike[str], sheet: str, height: int, width: int, limits: Limits) -> None:
    if height > limits.max_rows:
        raise UnreadableWorkbook(path, f"sheet '{sheet}' has {height:,} rows, over the limit "
                                       f"{describe('max_rows', limits.max_rows)}")
    if width > limits.max_columns:
        raise UnreadableWorkbook(path, f"sheet '{sheet}' has {width:,} columns, over the limit "
                                       f"{describe('max_columns', limits.max_columns)}")
    if height * width > limits.max_cells:
        raise UnreadableWorkbook(path, f"sheet '{sheet}' spans {height:,} x {width:,} cells, over the limit "
                                       f"{describe('max_cells', limits.max_cells)}")


def _row(values: list[Any]) -> list[Any]:
    row = [_cell(v) for v in values]
    while row and row[-1] is None:
        row.pop()
    return row


def _cell(value: Any) -> Any:
    if isinstance(value, str):
        return value if value != "" else None
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return dt.datetime(value.year, value.month, value.day)
    return value


# -- .ods: the package checks before calamine decompresses anything

def check_ods(data: bytes, limits: Limits) -> dict[str, list[Range]]:
    """Refuse (:class:`Refused`) an .ods beyond the limits; return each sheet's merged ranges."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as exc:  # noqa: BLE001 - BadZipFile, ValueError, OSError, struct.error ...
        raise Refused(f"corrupt or truncated OpenDocument spreadsheet (.ods): the zip archive cannot "
                      f"be read ({exc})") from None
    with archive:
        check_zip_directory(infos, limits)
        names = {info.filename for info in infos}
        if "content.xml" not in names:
            raise Refused("damaged OpenDocument spreadsheet (.ods): it has no content.xml part")
        content = _OdsContent(limits)
        unpacked = 0
        for info in infos:
            name = info.filename
            xml = content if name == "content.xml" else _NoDtd(name) if name.lower().endswith(".xml") else None
            try:
                with archive.open(info) as stream:
                    while chunk := stream.read(CHUNK):
                        unpacked += len(chunk)
                        if unpacked > limits.max_total_bytes:
                            raise Refused(f"the parts unpack to more than "
                                          f"{describe('max_total_bytes', limits.max_total_bytes)} "
                                          f"bytes (part {name} lies about its size)")
                        if xml is not None:
                            xml.feed(chunk, name)
                if xml is not None:
                    xml.feed(b"", name, final=True)
            except Refused:
                raise
            except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (bad CRC), EOFError, ExpatError
                raise Refused(f"damaged OpenDocument spreadsheet (.ods): part {name} cannot be read "
                              f"({type(exc).__name__}: {exc})") from None
        return content.merged


def _dtd(name: str) -> Refused:
    return Refused(f"part {name} declares a DTD (<!DOCTYPE> or <!ENTITY>), which a spreadsheet never "
                   f"needs; refused to rule out entity expansion and external entities")


class _NoDtd:
    """An XML part checked only for being well-formed and free of any DTD."""

    def __init__(self, name: str):
        self.parser = xml.parsers.expat.ParserCreate()
        self.parser.StartDoctypeDeclHandler = lambda *_: self._refuse(name)
        self.parser.EntityDeclHandler = lambda *_: self._refuse(name)

    @staticmethod
    def _refuse(name: str) -> None:
        raise _dtd(name)

    def feed(self, chunk: bytes, name: str, final: bool = False) -> None:
        self.parser.Parse(chunk, final)


class _OdsContent(_NoDtd):
    """``content.xml`` followed cell by cell: positions with their repeats, cells that hold
    something (a value type or content) counted against the limits, spans kept as merged ranges."""

    def __init__(self, limits: Limits):
        super().__init__("content.xml")
        self.limits = limits
        self.merged: dict[str, list[Range]] = {}
        self.table: str | None = None
        self.row = self.column = 0  # cells before the current row / column (0-based)
        self.rows_repeated = 1
        self.cell: tuple[int, bool] | None = None  # columns repeated, holds something
        self.inside = 0  # depth of elements inside the current cell
        self.cells = 0
        self.records = 0
        self.extent = (0, 0)  # last row and column holding something in the current table
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        local = tag.rpartition(":")[2]
        if self.cell is not None:
            self.cell = (self.cell[0], True)  # any element inside a cell (text:p, ...) is content
            self.inside += 1
            return
        if local == "table":
            self.table = _attr(attrs, "name") or f"Sheet{len(self.merged) + 1}"
            self.merged.setdefault(self.table, [])
            self.row = 0
            self.extent = (0, 0)
        elif local == "table-row":
            self.rows_repeated = _count(attrs, "number-rows-repeated")
            self.column = 0
        elif local in ("table-cell", "covered-table-cell"):
            self.cell = (_count(attrs, "number-columns-repeated"), _attr(attrs, "value-type") is not None)
            rows, columns = _count(attrs, "number-rows-spanned"), _count(attrs, "number-columns-spanned")
            if (rows > 1 or columns > 1) and self.table is not None:
                self._record()
                self.merged[self.table].append((self.row + 1, self.column + 1, self.row + rows,
                                                self.column + columns))

    def _end(self, tag: str) -> None:
        if self.inside:
            self.inside -= 1
            return
        local = tag.rpartition(":")[2]
        if local in ("table-cell", "covered-table-cell") and self.cell is not None:
            columns, holds = self.cell
            self.cell = None
            if holds:
                self._holds(columns)
            self.column += columns
        elif local == "table-row" and self.cell is None:
            self.row += self.rows_repeated
            self.rows_repeated = 1

    def _holds(self, columns: int) -> None:
        last_row, last_column = self.row + self.rows_repeated, self.column + columns
        where = f"sheet '{self.table}'"
        if last_row > self.limits.max_rows:
            raise Refused(f"{where} has a cell in row {last_row:,}, over the limit "
                          f"{describe('max_rows', self.limits.max_rows)}")
        if last_column > self.limits.max_columns:
            raise Refused(f"{where} has a cell in column {last_column:,}, over the limit "
                          f"{describe('max_columns', self.limits.max_columns)}")
        # calamine (and the grid made from it) holds a sheet densely from A1 to its last cell, so
        # two cells at opposite corners cost as much as the whole rectangle between them.
        self.extent = (max(self.extent[0], last_row), max(self.extent[1], last_column))
        if self.extent[0] * self.extent[1] > self.limits.max_cells:
            raise Refused(f"{where} spans {self.extent[0]:,} x {self.extent[1]:,} cells, over the limit "
                          f"{describe('max_cells', self.limits.max_cells)}")
        self.cells += columns * self.rows_repeated
        if self.cells > self.limits.max_cells:
            raise Refused(f"the workbook has more than {self.limits.max_cells:,} cells (repeated cells "
                          f"count for every cell they fill), over the limit "
                          f"{describe('max_cells', self.limits.max_cells)}")

    def _record(self) -> None:
        self.records += 1
        if self.records > self.limits.max_records:
            raise Refused(f"the workbook has more than {self.limits.max_records:,} merged ranges, over the "
                          f"limit {describe('max_records', self.limits.max_records)}")


def _attr(attrs: dict[str, str], local: str) -> str | None:
    for key, value in attrs.items():
        if key.rpartition(":")[2] == local:
            return value
    return None


def _count(attrs: dict[str, str], local: str) -> int:
    text = _attr(attrs, local)
    if text is None:
        return 1
    if not text.isdigit() or int(text) < 1 or len(text) > 12:
        raise Refused(f"damaged OpenDocument spreadsheet (.ods): {local}={text[:20]!r} is not a count")
    return int(text)
