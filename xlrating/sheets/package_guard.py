"""Checks an untrusted .xlsx/.xlsm package before any XML library builds a tree from it.

Order of the checks, cheapest first, so that a hostile file is refused before it costs anything:

1. What the bytes are (:func:`sniff`): empty, an OLE2 compound file (an old .xls, or an encrypted
   OOXML workbook, which Office wraps in OLE2), text (CSV, HTML, XML), or something else.
2. The zip central directory: readable at all, number of parts, each part's declared size and
   compression ratio, and the sum of sizes (zip bombs are refused here, before decompression).
   An OpenDocument (.ods), binary (.xlsb), Word or PowerPoint package is named as such.
3. Every part is then decompressed in a stream with a running byte count (so a part whose header
   lies about its size cannot run away; :mod:`zipfile` also stops at the declared size and checks
   the CRC). Every ``.xml``/``.rels`` part goes through expat with DTDs refused: no
   ``<!DOCTYPE>`` means no entity expansion (billion laughs) and no external entities (XXE).
   OOXML parts never carry a DTD (ECMA-376 Part 2, section 8.1.4 forbids it), so refusing one
   costs real files nothing.
4. While streaming a worksheet, its cells are counted and their positions followed the way
   openpyxl assigns them (``r`` attributes, or the running counter when ``r`` is absent), so a
   cell at XFD1048576 or a sheet of two million rows is refused naming the limit it broke.

The expat scan runs at ~35 MB/s on worksheets and faster on other parts, so with the default
limits a refusal takes a few seconds at most and memory stays near the file size.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from pyexpat import XML_PARAM_ENTITY_PARSING_NEVER, ExpatError, ParserCreate
from typing import Any

from xlrating.sheets.file_kinds import sniff
from xlrating.sheets.limits import Limits, describe

CHUNK = 64 * 1024
# Elements openpyxl turns into an object of their own, by the part they live in (see Limits.max_records).
_RECORDS = {
    "worksheet": frozenset({"mergeCell", "hyperlink", "dataValidation", "cfRule", "col"}),
    "styleSheet": frozenset({"xf", "font", "fill", "border", "numFmt", "dxf", "cellStyle"}),
    "workbook": frozenset({"definedName", "sheet"}),
    "comments": frozenset({"comment"}),
}
_ROW_NUMBER = re.compile(r"[0-9]+(?:\.0*)?")  # openpyxl also takes "7.0", which some writers produce
_CELL_TYPES = frozenset({"n", "s", "str", "inlineStr", "b", "e", "d"})  # ECMA-376 ST_CellType
_ATTRIBUTE_MEANING = {"r": "row number or cell reference", "s": "style index", "t": "cell type"}
_CELL_REF = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]+)")


class Refused(Exception):
    """The package breaks a rule; ``reason`` says which, for a person."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass
class SheetExtent:
    """How far one worksheet reaches, as openpyxl would place its cells."""

    name: str  # the sheet's tab name, or "" when the workbook part does not name it
    part: str
    rows: int = 0
    columns: int = 0
    cells: int = 0
    kind: str = "worksheet"  # or "comments": the part that places cells on a sheet

    @property
    def label(self) -> str:
        """How a refusal names the sheet: ``sheet 'Results' (xl/worksheets/sheet1.xml)``."""
        return f"sheet '{self.name}' ({self.part})" if self.name else f"{self.kind} part {self.part}"


@dataclass
class PackageReport:
    """What the checks saw in a package that passed them."""

    parts: int = 0
    unpacked_bytes: int = 0
    has_macros: bool = False
    sheets: list[SheetExtent] = field(default_factory=list)


def check_package(data: bytes, limits: Limits) -> PackageReport:
    """Run every check on the bytes of a package; raise :class:`Refused` at the first rule broken."""
    reason = sniff(data)
    if reason:
        raise Refused(reason)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as exc:  # noqa: BLE001 - zipfile raises BadZipFile, ValueError, OSError, struct.error ...
        raise Refused(f"corrupt or truncated .xlsx (the zip archive cannot be read: {exc})") from None
    with archive:
        _check_directory(archive, infos, limits)
        scan = _Scan(limits)
        for info in sorted(infos, key=_workbook_parts_first):
            scan.read_part(archive, info)
        scan.report.parts = len(infos)
        scan.report.has_macros = any(i.filename.lower().endswith("vbaproject.bin") for i in infos)
        return scan.report


def _check_directory(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], limits: Limits) -> None:
    if len(infos) > limits.max_members:
        raise Refused(f"the package has {len(infos):,} parts, over the limit "
                      f"{describe('max_members', limits.max_members)}")
    names = {info.filename for info in infos}
    total = 0
    for info in infos:
        name = info.filename
        if info.flag_bits & 0x1:
            raise Refused(f"part {name} is encrypted inside the zip; .xlsx parts never are")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise Refused(f"part {name} uses zip compression method {info.compress_type}; "
                          f".xlsx parts are stored or deflated")
        if info.file_size > limits.max_member_bytes:
            raise Refused(f"part {name} would unpack to {info.file_size:,} bytes, over the limit "
                          f"{describe('max_member_bytes', limits.max_member_bytes)} (a zip bomb?)")
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size >= limits.ratio_floor_bytes and ratio > limits.max_ratio:
            raise Refused(f"part {name} would unpack {ratio:,.0f} times its packed size, over the limit "
                          f"{describe('max_ratio', limits.max_ratio)} (a zip bomb?)")
        total += info.file_size
    if total > limits.max_total_bytes:
        raise Refused(f"the parts would unpack to {total:,} bytes in all, over the limit "
                      f"{describe('max_total_bytes', limits.max_total_bytes)} (a zip bomb?)")
    if "mimetype" in names:
        kind = archive.read("mimetype")[:100]
        if kind.startswith(b"application/vnd.oasis.opendocument"):
            what = "spreadsheet (.ods)" if b"spreadsheet" in kind else "document"
            raise Refused(f"an OpenDocument {what}, not an .xlsx workbook; save it as .xlsx "
                          f"(in LibreOffice: File > Save As > Excel 2007-365)")
    if "xl/workbook.bin" in names:
        raise Refused("a binary .xlsb workbook; save it from Excel as .xlsx")
    if "[Content_Types].xml" not in names:
        raise Refused("a zip archive but not an Office Open XML package (no [Content_Types].xml part)")
    if "word/document.xml" in names or "ppt/presentation.xml" in names:
        raise Refused("a Word or PowerPoint document, not an Excel workbook")


def _workbook_parts_first(info: zipfile.ZipInfo) -> int:
    # The workbook and its relationships name the sheets; reading them first lets a refusal of a
    # worksheet name the sheet ('Results') and not only its part (xl/worksheets/sheet1.xml).
    name = info.filename
    return 0 if name.endswith("_rels/workbook.xml.rels") else 1 if name.endswith("workbook.xml") else 2


class _Scan:
    """Streams every part once, counting bytes and, in XML parts, elements that matter."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.report = PackageReport()
        self.sheet_names: dict[str, str] = {}  # relationship id -> part name
        self.sheet_parts: dict[str, str] = {}  # part name -> sheet name
        self.cells = 0
        self.records = 0

    def add_record(self, kind: str, part: str) -> None:
        self.records += 1
        if self.records > self.limits.max_records:
            raise Refused(f"the workbook has more than {self.limits.max_records:,} records other than cells "
                          f"(reached at a <{kind}> in part {part}), over the limit "
                          f"{describe('max_records', self.limits.max_records)}")

    def read_part(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        name = info.filename
        lower = name.lower()
        if name.endswith("/"):
            return
        xml = _PartParser(self, name) if lower.endswith((".xml", ".rels")) else None
        dtd_probe = lower.endswith(".vml")  # VML is often not well-formed XML; only look for a DTD
        tail = b""
        try:
            with archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    self.report.unpacked_bytes += len(chunk)
                    if self.report.unpacked_bytes > self.limits.max_total_bytes:
                        raise Refused(f"the parts unpack to more than "
                                      f"{describe('max_total_bytes', self.limits.max_total_bytes)} "
                                      f"bytes (part {name} lies about its size)")
                    if xml is not None:
                        xml.feed(chunk)
                    elif dtd_probe:
                        window = (tail + chunk).lower()
                        if b"<!doctype" in window or b"<!entity" in window:
                            raise Refused(_dtd_reason(name))
                        tail = window[-16:]
            if xml is not None:
                xml.close()
        except Refused:
            raise
        except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (bad CRC), EOFError on a cut stream
            raise Refused(f"corrupt part {name} in the zip archive ({type(exc).__name__}: {exc})") from None


def _dtd_reason(part: str) -> str:
    return (f"part {part} declares a DTD (<!DOCTYPE>/<!ENTITY>); workbooks never do, and DTDs carry "
            f"entity-expansion and external-entity attacks, so the file is refused")


def _local(name: str) -> str:
    return name[name.rfind("}") + 1:]


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - 64
    return index


class _PartParser:
    """Expat over one XML part: refuses DTDs; looks into the root to decide what else to watch."""

    def __init__(self, scan: _Scan, part: str):
        self.scan = scan
        self.limits = scan.limits
        self.part = part
        self.parser: Any = ParserCreate(namespace_separator="}")
        self.parser.SetParamEntityParsing(XML_PARAM_ENTITY_PARSING_NEVER)
        self.parser.StartDoctypeDeclHandler = self._refuse_dtd
        self.parser.EntityDeclHandler = self._refuse_dtd
        self.parser.ExternalEntityRefHandler = self._refuse_external_entity
        self.parser.StartElementHandler = self._root
        self.sheet: SheetExtent | None = None
        self.row = 0
        self.column = 0
        self.text_chars: int | None = None
        self.record_kinds: frozenset[str] = frozenset()  # element names counted against max_records

    def feed(self, chunk: bytes) -> None:
        self._parse(chunk, False)

    def close(self) -> None:
        self._parse(b"", True)

    def _parse(self, chunk: bytes, final: bool) -> None:
        try:
            self.parser.Parse(chunk, final)
        except ExpatError as exc:
            raise Refused(f"part {self.part} is not well-formed XML (line {exc.lineno}, column "
                          f"{exc.offset}: {_expat_message(exc)})") from None

    def _refuse_dtd(self, *_: Any) -> None:
        raise Refused(_dtd_reason(self.part))

    def _refuse_external_entity(self, *_: Any) -> int:
        raise Refused(_dtd_reason(self.part))

    def _root(self, name: str, attrs: dict[str, str]) -> None:
        root = _local(name)
        self.record_kinds = _RECORDS.get(root, frozenset())
        if root == "worksheet":
            self.sheet = SheetExtent(self.scan.sheet_parts.get(self.part, ""), self.part)
            self.scan.report.sheets.append(self.sheet)
            self.parser.StartElementHandler = self._sheet_element
        elif root == "comments":
            self.sheet = SheetExtent("", self.part, kind="comments")
            self.parser.StartElementHandler = self._comment
        elif root == "sst":
            self.parser.StartElementHandler = self._string_start
            self.parser.EndElementHandler = self._string_end
            self.parser.CharacterDataHandler = self._string_text
        elif root == "workbook":
            self.parser.StartElementHandler = self._workbook_element
        elif root == "styleSheet":
            self.parser.StartElementHandler = self._style_element
        elif root == "Relationships" and self.part.endswith("_rels/workbook.xml.rels"):
            self.parser.StartElementHandler = self._relationship
        else:
            self.parser.StartElementHandler = None

    def _style_element(self, name: str, attrs: dict[str, str]) -> None:
        local = _local(name)
        if local in self.record_kinds:
            self.scan.add_record(local, self.part)

    def _workbook_element(self, name: str, attrs: dict[str, str]) -> None:
        if _local(name) in self.record_kinds:
            self.scan.add_record(_local(name), self.part)
        if _local(name) == "sheet":
            rel_id = next((v for k, v in attrs.items() if _local(k) == "id"), None)
            part = self.scan.sheet_names.get(rel_id or "")
            if part:
                self.scan.sheet_parts[part] = attrs.get("name", "")

    def _relationship(self, name: str, attrs: dict[str, str]) -> None:
        target = attrs.get("Target", "")
        if _local(name) == "Relationship" and target:
            base = posixpath.dirname(posixpath.dirname(self.part))  # xl/_rels/x.rels -> xl
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
                posixpath.join(base, target))
            self.scan.sheet_names[attrs.get("Id", "")] = part

    def _sheet_element(self, name: str, attrs: dict[str, str]) -> None:
        local = name[name.rfind("}") + 1:]
        sheet = self.sheet
        assert sheet is not None
        if local == "c":
            self._add_cells(1, "")
            ref = attrs.get("r")
            match = _CELL_REF.fullmatch(ref) if ref else None
            if match:
                self.column = _column_index(match[1])
                self._reach(int(match[2]), self.column, ref or "")
            elif ref:
                self._damaged("c", "r", ref)
            else:  # openpyxl places a cell without r next to the previous one
                self.column += 1
                self._reach(self.row, self.column, f"row {self.row}, cell {self.column}")
            # openpyxl int()s the style index and switches on the type while streaming a sheet,
            # outside any error handling of its own: check them here instead.
            if not attrs.get("s", "0").isdigit():
                self._damaged("c", "s", attrs["s"])
            if attrs.get("t", "n") not in _CELL_TYPES:
                self._damaged("c", "t", attrs["t"])
        elif local == "row":
            number = attrs.get("r")
            if number is not None and not _ROW_NUMBER.fullmatch(number):
                self._damaged("row", "r", number)
            self.row = int(float(number)) if number is not None else self.row + 1
            self.column = 0
            self._reach(self.row, 0, f"row {self.row}")
            if not attrs.get("s", "0").isdigit():
                self._damaged("row", "s", attrs["s"])
        elif local == "dimension":
            used = attrs.get("ref", "").split(":")[-1]
            match = _CELL_REF.fullmatch(used)
            if match:
                self._reach(int(match[2]), _column_index(match[1]),
                            f"its declared used range {attrs.get('ref')}", record=False)
        elif local in self.record_kinds:
            self.scan.add_record(local, self.part)
        if local in ("mergeCell", "hyperlink"):
            # openpyxl makes a cell object for every cell a merged range or a hyperlink range
            # covers (MergedCell, cell.hyperlink): a one-line range can cost as much as a full grid.
            self._range(attrs.get("ref", ""), "merged range" if local == "mergeCell" else "hyperlink range")

    def _damaged(self, element: str, attribute: str, value: str) -> None:
        sheet = self.sheet
        assert sheet is not None
        where = f"row {self.row}" if self.row else "its first row"
        raise Refused(f"{sheet.label} is damaged: a <{element}> element in {where} has {attribute}={value!r}, "
                      f"which is not a valid {_ATTRIBUTE_MEANING[attribute]}")

    def _range(self, ref: str, what: str) -> None:
        corners = [_CELL_REF.fullmatch(end) for end in ref.split(":")[:2]]
        if not all(corners):
            return  # openpyxl rejects a malformed reference itself
        rows = [int(c[2]) for c in corners if c]
        columns = [_column_index(c[1]) for c in corners if c]
        self._reach(max(rows), max(columns), f"its {what} {ref}")
        area = (max(rows) - min(rows) + 1) * (max(columns) - min(columns) + 1)
        self._add_cells(area, f"its {what} {ref} covers {area:,} cells; ")

    def _add_cells(self, count: int, why: str) -> None:
        sheet = self.sheet
        assert sheet is not None
        sheet.cells += count
        self.scan.cells += count
        if self.scan.cells > self.limits.max_cells:
            raise Refused(f"{why}the workbook has more than {self.limits.max_cells:,} cells (at {sheet.label}), "
                          f"over the limit {describe('max_cells', self.limits.max_cells)}")

    def _comment(self, name: str, attrs: dict[str, str]) -> None:
        # A comment creates its cell: one at XFD1048576 would stretch the sheet to Excel's grid.
        if _local(name) == "comment":
            self.scan.add_record("comment", self.part)
            self._range(attrs.get("ref", ""), "comment")

    def _reach(self, row: int, column: int, where: str, *, record: bool = True) -> None:
        sheet = self.sheet
        assert sheet is not None
        if row > self.limits.max_rows:
            raise Refused(f"{sheet.label} reaches row {row:,} at {where}, beyond the limit "
                          f"{describe('max_rows', self.limits.max_rows)}")
        if column > self.limits.max_columns:
            raise Refused(f"{sheet.label} reaches column {column:,} at {where}, beyond the limit "
                          f"{describe('max_columns', self.limits.max_columns)}")
        if record:
            sheet.rows = max(sheet.rows, row)
            sheet.columns = max(sheet.columns, column)

    def _string_start(self, name: str, attrs: dict[str, str]) -> None:
        if _local(name) == "t":
            self.text_chars = 0

    def _string_end(self, name: str) -> None:
        if _local(name) == "t":
            self.text_chars = None

    def _string_text(self, text: str) -> None:
        if self.text_chars is not None:
            self.text_chars += len(text)
            if self.text_chars > self.limits.max_text_chars:
                raise Refused(f"part {self.part} holds a text longer than {self.limits.max_text_chars:,} "
                              f"characters, over the limit {describe('max_text_chars', self.limits.max_text_chars)}")


def _expat_message(exc: ExpatError) -> str:
    from pyexpat import ErrorString

    return str(ErrorString(exc.code))
