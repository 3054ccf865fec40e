"""Expat over the XML parts of a workbook: DTDs refused, sheets measured, cell values checked.

The streaming half of :mod:`xlrating.gate.package_guard`: one :class:`PartParser` per XML part
looks at the part's root element and then watches only what matters there -- cells, rows and
ranges in a worksheet, string lengths in the shared strings, records in the styles and the
workbook -- raising :class:`Refused` at the first rule broken. It runs at about 2.5 microseconds
per cell.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pyexpat import XML_PARAM_ENTITY_PARSING_NEVER, ExpatError, ParserCreate
from typing import Any, NoReturn

from xlrating.gate.limits import Limits, describe

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


class WorkbookScan:
    """What the scan of one package has counted so far, shared by the parsers of its parts."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.report = PackageReport()
        self.sheet_names: dict[str, str] = {}  # relationship id -> part name
        self.sheet_parts: dict[str, str] = {}  # part name -> sheet name
        self.cells = 0
        self.records = 0
        self.shared_strings = 0
        # set by a reader that reads cell values itself and tolerates a damaged one (the formula
        # engine reads it as empty and names it): a value its cell's type cannot hold is not refused
        self.lenient_values = False

    def add_record(self, kind: str, part: str) -> None:
        self.records += 1
        if self.records > self.limits.max_records:
            raise Refused(f"the workbook has more than {self.limits.max_records:,} records other than cells "
                          f"(reached at a <{kind}> in part {part}), over the limit "
                          f"{describe('max_records', self.limits.max_records)}")


def dtd_reason(part: str) -> str:
    return (f"part {part} declares a DTD (<!DOCTYPE>/<!ENTITY>); workbooks never do, and DTDs carry "
            f"entity-expansion and external-entity attacks, so the file is refused")


def _local(name: str) -> str:
    return name[name.rfind("}") + 1:]


_COLUMNS: dict[str, int] = {}  # column letters -> number, filled as met (at most 18,278 entries)


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - 64
    _COLUMNS[letters] = index
    return index


class PartParser:
    """Expat over one XML part: refuses DTDs; looks into the root to decide what else to watch."""

    def __init__(self, scan: WorkbookScan, part: str):
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
        self.cell_type = "n"
        self.cell_ref = ""
        self.value: list[str] | None = None  # the text of the <v> being read, if any
        self.telling = True  # until its root is known

    def feed(self, chunk: bytes) -> None:
        self._parse(chunk, False)

    def close(self) -> None:
        self._parse(b"", True)
        if self.value is not None:
            self._value_done()

    def resume(self, cells: int, row: int, column: int, tag: bytes) -> None:
        """Go on as though ``cells`` more cells, each proven to pass every check here, and the rows
        around them had just been read (:mod:`xlrating.gate.part_refusal`), the last of them in
        ``row`` and ``column``, then read ``tag``, the start tag of the next element: its handler
        raises what it raises; an ExpatError is not turned into a refusal (this parser's message
        would name a wrong line and column)."""
        sheet = self.sheet
        assert sheet is not None
        sheet.cells += cells
        self.scan.cells += cells
        self.row, self.column, self.value = row, column, None
        self.parser.Parse(tag, False)

    def _parse(self, chunk: bytes, final: bool) -> None:
        try:
            self.parser.Parse(chunk, final)
        except ExpatError as exc:
            raise Refused(f"part {self.part} is not well-formed XML (line {exc.lineno}, column "
                          f"{exc.offset}: {_expat_message(exc)})") from None

    def _refuse_dtd(self, *_: Any) -> None:
        raise Refused(dtd_reason(self.part))

    def _refuse_external_entity(self, *_: Any) -> int:
        raise Refused(dtd_reason(self.part))

    def _root(self, name: str, attrs: dict[str, str]) -> None:
        root = _local(name)
        self.record_kinds = _RECORDS.get(root, frozenset())
        # a part whose scan tells the package's scan more than a count of its records (cells, strings,
        # sheet names, sheet extents): see package_guard's _SEEN
        self.telling = root in ("worksheet", "comments", "sst", "workbook") or (
            root == "Relationships" and self.part.endswith("_rels/workbook.xml.rels"))
        if root == "worksheet":
            self.sheet = SheetExtent(self.scan.sheet_parts.get(self.part, ""), self.part)
            self.scan.report.sheets.append(self.sheet)
            self.parser.StartElementHandler = self._sheet_element
            self.parser.CharacterDataHandler = self._sheet_text
            self.parser.buffer_text = True
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
        # The hot path (called for every cell and value): keep it to plain comparisons.
        if self.value is not None:
            self._value_done()
        local = name[name.rfind("}") + 1:]
        if local == "v":
            self.value = []
        elif local == "c":
            self._cell(attrs)
        else:
            self._other_sheet_element(local, attrs)

    def _cell(self, attrs: dict[str, str]) -> None:
        sheet = self.sheet
        assert sheet is not None
        sheet.cells += 1
        self.scan.cells += 1
        if self.scan.cells > self.limits.max_cells:
            self._add_cells(0, "")
        ref = attrs.get("r")
        if ref:
            match = _CELL_REF.fullmatch(ref)
            if not match:
                self._damaged("c", "r", ref)
            letters = match[1]
            column = _COLUMNS.get(letters) or _column_index(letters)
            row = int(match[2])
            if not row:  # rows count from 1; openpyxl would index row 0 as the last one, or fail
                self._damaged("c", "r", ref)
            self.cell_ref = ref
        else:  # openpyxl places a cell without r next to the previous one
            column, row = self.column + 1, self.row
            self.cell_ref = f"row {row}, cell {column}"
        self.column = column
        if row > self.limits.max_rows or column > self.limits.max_columns:
            self._reach(row, column, self.cell_ref)
        if row > sheet.rows:  # noqa: PLR1730 - plain comparisons: this runs for every cell
            sheet.rows = row
        if column > sheet.columns:  # noqa: PLR1730
            sheet.columns = column
        # openpyxl int()s the style index and switches on the type while streaming a sheet,
        # outside any error handling of its own: check them here instead.
        style = attrs.get("s")
        if style is not None and not style.isdigit():
            self._damaged("c", "s", style)
        kind = self.cell_type = attrs.get("t", "n")
        if kind not in _CELL_TYPES:
            self._damaged("c", "t", kind)

    def _other_sheet_element(self, local: str, attrs: dict[str, str]) -> None:
        if local == "row":
            number = attrs.get("r")
            if number is not None and not _ROW_NUMBER.fullmatch(number):
                self._damaged("row", "r", number)
            self.row = int(float(number)) if number is not None else self.row + 1
            if not self.row:  # rows count from 1 (ECMA-376 ST_CellRef, row attribute of CT_Row)
                self._damaged("row", "r", str(number))
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

    def _sheet_text(self, text: str) -> None:
        if self.value is not None:
            self.value.append(text)

    def _value_done(self) -> None:
        # No end-element handler (it would cost a call per element): a <v>'s text is complete when
        # the next element starts or the part ends; text after </v> is only layout whitespace.
        text, self.value = "".join(self.value or ()).strip(), None
        if text:
            self._check_value(text)

    def _check_value(self, text: str) -> None:
        # What openpyxl does with a cell value while streaming a read-only sheet
        # (openpyxl.worksheet._reader.WorkSheetParser.parse_cell), where its errors escape.
        kind = self.cell_type
        try:
            if kind == "n":  # openpyxl's _cast_number, exactly: "inf" fails there too
                float(text) if "." in text or "E" in text or "e" in text else int(text)
            elif kind == "b":
                int(text)
            elif kind == "s" and not 0 <= int(text) < self.scan.shared_strings:
                raise ValueError("no such shared string")
            elif kind == "d":
                from openpyxl.utils.datetime import from_ISO8601

                from_ISO8601(text)
        except ValueError:
            if self.scan.lenient_values:
                return
            sheet = self.sheet
            assert sheet is not None
            meaning = {"n": "a number", "b": "a boolean (0 or 1)", "s": "a shared-string index",
                       "d": "an ISO 8601 date"}[kind]
            raise Refused(f"{sheet.label} is damaged: cell {self.cell_ref} holds {text[:40]!r} where "
                          f"{meaning} belongs") from None

    def _damaged(self, element: str, attribute: str, value: str) -> NoReturn:
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
        local = _local(name)
        if local == "t":
            self.text_chars = 0
        elif local == "si":
            self.scan.shared_strings += 1

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
