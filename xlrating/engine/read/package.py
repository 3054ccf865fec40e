"""Reading an .xlsx/.xlsm package straight from its XML: its parts, shared strings, tables, links,
settings, and each sheet's cells (:mod:`.sheet_cells`).

The file comes through :func:`xlrating.gate.safe_open.open_package`, the project's one door
for untrusted files: it refuses what is not a workbook and zip bombs, and checks every part but the
worksheets and the shared strings, which this module checks in the pass that reads them
(:func:`read_package`, :mod:`xlrating.gate.part_quick`), each part parsed once.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lxml import etree

from xlrating.gate import part_quick
from xlrating.gate.limits import Limits
from xlrating.gate.package_guard import PackageCheck, Refused
from xlrating.gate.safe_open import UnreadableWorkbook, open_package

from . import strict as strict_xml
from . import xml_parts
from .character_set import WINDOWS, of_application
from .clock import save_time
from .date_system import SYSTEM_1900, of_workbook
from .names import qualified_names, visible_names
from .sheet_cells import (
    MAIN,
    SheetCells,
    ooxml_text,
    read_sheet,
    read_sheet_bulk,
    read_sheet_fast,
)

if TYPE_CHECKING:
    from .external import LinkedSheet
    from .tables import Table

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_T = f"{{{MAIN}}}t"


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
    # the date system its serial numbers count in: 1900, or 1904 (:mod:`.date_system`)
    date_system: int = SYSTEM_1900
    # saved as Strict Open XML (:mod:`.strict`): ``data`` is the Transitional package it means, and
    # the writer names it Strict again
    strict: bool = False
    # when it was last saved, UTC (``dcterms:modified``, :mod:`.clock`): the moment of TODAY/NOW
    # under ``--now saved``; None when the package records none, and ``no_saved_at`` says why
    saved_at: dt.datetime | None = None
    no_saved_at: str = ""
    # saved by a spreadsheet application (``<fileVersion appName="xl">``: Excel; ``"Calc"``:
    # LibreOffice), which saves a formula computed as a dynamic array as an array formula: its
    # ordinary formulas are legacy ones (implicit intersection, an array's first value), never spilling
    legacy_formulas: bool = False
    # the small XML parts the package check unpacked and checked, by name, for a writer that copies
    # them (edited or not) without inflating them again
    scanned: dict[str, bytes] = field(default_factory=dict)
    # the zip entries of ``data`` as the package check read its directory (empty: not known)
    members: list[zipfile.ZipInfo] = field(default_factory=list)
    # what the reader could not read as the workbook means it, for the warnings of the conversion
    notes: list[str] = field(default_factory=list)


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
    if not xml_parts.has(archive, APP_PROPERTIES):
        return WINDOWS
    try:
        root = _xml(archive, APP_PROPERTIES)
    except (etree.LxmlError, zipfile.BadZipFile, KeyError, ValueError, OSError):
        return WINDOWS
    application = root.find("{*}Application")
    return of_application(application.text if application is not None else None)


def _xml(archive: zipfile.ZipFile, part: str) -> Any:
    return xml_parts.root(archive, part)


def _rels(archive: zipfile.ZipFile, part: str) -> dict[str, str]:
    folder, name = posixpath.split(part)
    rels_part = posixpath.join(folder, "_rels", name + ".rels")
    if not xml_parts.has(archive, rels_part):
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


def _shared_strings(check: PackageCheck, workbook_part: str) -> list[str]:
    """The shared strings, parsed once: when the part is one the package check left to this reader
    (see :func:`read_package`), this parse stands for its scan (:func:`_checked_strings`)."""
    archive = check.archive
    rels = _rels(archive, workbook_part)
    parts = [t for t in rels.values() if t.endswith("sharedStrings.xml")]
    if not parts or not xml_parts.has(archive, parts[0]):
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
        root = etree.fromstring(raw, xml_parts.parser())
    except Exception:  # noqa: BLE001 - XMLSyntaxError and the like: the scan names what is wrong
        return None
    if any(len(t.text or "") > max_text_chars for t in root.iter(_T)):
        return None
    return root


def _map_texts(sheet: SheetCells, change: Callable[[str, int, int], str], marker: str = "[") -> None:
    """Rewrite every formula text containing ``marker`` with ``change(text, row, col)``."""
    for cell in sheet.formulas:
        if cell.text is not None and marker in cell.text:
            cell.text = change(cell.text, cell.row, cell.col)
    if sheet.simple is not None:
        rows, cols, texts = sheet.simple
        for i, text in enumerate(texts):
            if marker in text:
                texts[i] = change(text, int(rows[i]), int(cols[i]))


def _tables(archive: zipfile.ZipFile, sheets: list[SheetCells]) -> list[Table]:
    """The workbook's tables (:mod:`.tables`, loaded only for a workbook whose sheets have
    relationships, where a table can be)."""
    if not any(xml_parts.has(archive, posixpath.join(posixpath.dirname(sheet.part), "_rels",
                                                     posixpath.basename(sheet.part) + ".rels")) for sheet in sheets):
        return []
    from .tables import read_tables

    return read_tables(archive, {sheet.part: sheet.name for sheet in sheets})


def _resolve_structured_references(sheet: SheetCells, tables: list[Table]) -> None:
    """Structured references (``Table1[Col]``, ``[@Qty]``) rewritten as the A1 references they
    stand for in each formula's cell, so the rest of the engine sees ordinary references."""
    from .tables import resolve_structured

    for cell in sheet.formulas:  # a shared formula's master: its followers are its text moved down
        if cell.text is not None and "[" in cell.text and cell.master and cell.kind == "shared":
            cell.text = resolve_structured(cell.text, sheet.name, cell.row, cell.col, tables, relative_rows=True)
    _map_texts(sheet, lambda text, row, col: resolve_structured(text, sheet.name, row, col, tables))


def _saved_by_spreadsheet(workbook: Any) -> bool:
    """Whether Excel or LibreOffice saved the workbook: its ``<fileVersion appName>`` (openpyxl and
    other libraries write none)."""
    version = workbook.find(f"{{{MAIN}}}fileVersion")
    return version is not None and version.get("appName") in ("xl", "Calc")


def _structured_name(text: str, scope: str | None, tables: list[Table]) -> str:
    """A defined name's structured references (``Sales[Qty]``, ``Sales[[#This Row],[Qty]]``) as the
    A1 references they stand for; ``#This Row`` with a relative row, as seen from row 1 like every
    relative reference of a name (``Sales!$C1``), so each cell using the name reads its own row."""
    if "[" not in text:
        return text
    from .tables import resolve_structured

    return resolve_structured(text, scope or "", 1, 1, tables, relative_rows=True)


def _read_here(name: str) -> bool:
    """The parts this reader checks in the pass that reads them: worksheets and shared strings."""
    return name.startswith("xl/") and (name.endswith("sharedStrings.xml") or (
        name.startswith("xl/worksheets/") and name.endswith(".xml") and name.count("/") == 2))


def read_package(path: str, *, limits: Limits | None = None, data: bytes | None = None) -> Package:
    """Every sheet's values and formulas, and the workbook's defined names.

    The package goes through the project's gate for untrusted files
    (:func:`xlrating.gate.safe_open.open_package`), which checks every part but the worksheets;
    each worksheet is checked by the pass that reads it (:func:`_read_checked`). ``data``: the
    file's bytes when they were read elsewhere (a cluster's worker); ``path`` still names it."""
    limits = limits or Limits.from_env()
    check = open_package(path, limits, defer=_read_here, data=data)
    try:
        with check:
            if strict_xml.is_strict(check.archive):
                return _read_strict(path, check, limits)
            package = _read(path, check)
            # parts no sheet of the workbook names: checked within the limits, but their cells' values
            # are no formula's business, so a value its cell's type cannot hold is not refused there
            check.scan.lenient_values = True
            check.finish()
    except Refused as refused:
        raise UnreadableWorkbook(path, refused.reason) from None
    return package


def _read_strict(path: str, check: PackageCheck, limits: Limits) -> Package:
    """A Strict Open XML package: every part checked as it is, then read as the Transitional
    package it means (:func:`.strict.transitional`), checked again as any workbook is."""
    check.finish()
    try:
        data = strict_xml.transitional(check.archive)
    except (zipfile.BadZipFile, KeyError, ValueError, etree.LxmlError) as exc:
        raise UnreadableWorkbook(path, f"damaged Strict Open XML package ({type(exc).__name__}: {exc})") from None
    converted = PackageCheck(data, limits)
    with converted:
        converted.scan_parts(_read_here)
        package = _read(path, converted)
        converted.scan.lenient_values = True  # as for a Transitional package (read_package)
        converted.finish()
    package.strict = True
    return package


# Bytes of a part below which its well-formedness is checked after the read, in this thread: starting
# a thread costs more than the overlap saves on a small part (a folder of small workbooks)
_ALONE = 1 << 16


class _Alongside:
    """``function(argument)`` in a thread of its own (for an argument of :data:`_ALONE` bytes or
    more); :meth:`result` waits for it, or calls it then."""

    def __init__(self, function: Callable[[bytes], bool], argument: bytes):
        self._call = (function, argument)
        self._result = False
        self._thread: threading.Thread | None = None
        if len(argument) >= _ALONE:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        function, argument = self._call
        self._result = function(argument)

    def result(self) -> bool:
        if self._thread is None:
            self._run()
        else:
            self._thread.join()
        return self._result


# Bytes of a worksheet below which its cells are read with the per-cell expression first: the
# array operations of the bulk reader cost a quarter of a millisecond whatever the sheet's size,
# which a sheet of a few hundred cells never earns back
SMALL_SHEET = 8 * 1024


def _read_checked(check: PackageCheck, sheet: SheetCells, strings: list[str]) -> None:
    """Read one worksheet. Its one pass stands for the package scan when :mod:`part_quick
    <xlrating.gate.part_quick>` proves the part within the limits; otherwise the full scan runs
    first (refusing as it does for every reader), then the most general reader that fits."""
    raw = check.read_deferred(sheet.part) if sheet.part in check.deferred else None
    if raw is not None:
        facts = part_quick.before_read(check.scan, sheet.part, raw)
        if facts is not None:
            wellformed = _Alongside(part_quick.wellformed, raw)  # libxml2 (a large part) runs without the GIL
            try:
                text = raw.decode("utf-8")
                read = (len(raw) < SMALL_SHEET and read_sheet_fast(text, sheet, strings, True)
                        or read_sheet_bulk(raw, text, sheet, strings, True) or read_sheet_fast(text, sheet, strings, True))
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
        check.scan.lenient_values = True  # a damaged cell is read as LibreOffice reads it, and named (SheetCells.damaged)
        check.scan_part(sheet.part)
    text, raw = _sheet_text(check.archive.read(sheet.part))
    sheet.xml = text
    try:  # checking each value: a cell its type cannot hold goes to the general reader, which names it
        read = read_sheet_bulk(raw, text, sheet, strings, True) or read_sheet_fast(text, sheet, strings, True)
    except (ValueError, IndexError):
        read = False
    if not read:
        sheet.values.clear()
        sheet.formulas.clear()
        sheet.numbers = sheet.simple = sheet.texts = None
        sheet.bulk = False
        read_sheet(check.archive, sheet, strings)


# SpreadsheetML as a pre-release of Excel 2007 wrote it (sheets in <sheet>, strings in <sstItem>):
# neither LibreOffice nor the released format reads it; LibreOffice opens such a file as one empty sheet
_PRE_RELEASE = "http://schemas.microsoft.com/office/excel/2006/"


def _foreign(root: Any, workbook_part: str) -> list[str]:
    """The warning for a workbook part that is not SpreadsheetML's (a pre-release of Excel 2007):
    no sheet of it is read, as LibreOffice reads none, and nothing is computed."""
    tag = str(root.tag)
    namespace = tag[1:tag.index("}")] if tag.startswith("{") else ""
    if namespace == MAIN:
        return []
    what = ("a pre-release of Excel 2007's format" if namespace.startswith(_PRE_RELEASE)
            else "not SpreadsheetML's")
    return [f"{workbook_part} is written in the namespace {namespace or '(none)'!r}, {what}: no sheet of it is "
            f"read and no formula computed (LibreOffice too opens it as one empty sheet)"]


def _sheet_text(raw: bytes) -> tuple[str, bytes]:
    """The XML of a sheet as text, and as UTF-8: UTF-8 as every known producer writes it, else
    (UTF-16, say) as its declaration or byte-order mark says, written out again without the
    declaration."""
    try:
        return raw.decode("utf-8"), raw
    except UnicodeDecodeError:
        text = str(etree.tostring(etree.fromstring(raw, xml_parts.parser()), encoding="unicode"))
        return text, text.encode("utf-8")


def _read(path: str, check: PackageCheck) -> Package:
    archive = check.archive
    try:
        workbook_part = _workbook_part(archive)
        root = _xml(archive, workbook_part)
        notes = _foreign(root, workbook_part)
        rels = _rels(archive, workbook_part)
        strings = _shared_strings(check, workbook_part)
        system = of_workbook(root)
        sheets = []
        every_sheet: list[str] = []  # localSheetId counts chart sheets too
        for element in root.iter(f"{{{MAIN}}}sheet"):
            every_sheet.append(element.get("name", ""))
            part = rels.get(element.get(f"{{{REL}}}id"), "")
            if part.endswith(".xml") and "worksheets/" in part:  # chart sheets and dialogs hold no cells
                sheets.append(SheetCells(element.get("name", ""), part, date_system=system))
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
        tables = _tables(archive, sheets)
        if tables:
            for sheet in sheets:
                _resolve_structured_references(sheet, tables)
            names = {key: _structured_name(text, key[1], tables) for key, text in names.items()}
        linked = []
        link_names: dict[tuple[int, str | None, str], str] = {}
        if root.find(f"{{{MAIN}}}externalReferences") is not None:  # links to other workbooks (rare)
            from .external import read_link_names, read_links, rewrite

            linked = read_links(archive, root, rels)
            link_names = read_link_names(archive, root, rels)
        if linked or link_names:  # a DDE link's items are names without a cached sheet
            cached = {(link.book, link.name.upper()) for link in linked}
            for sheet in sheets:
                _map_texts(sheet, lambda text, row, col: rewrite(text, cached, link_names))
            names = {key: rewrite(text, cached, link_names) for key, text in names.items()}
        if any(scope is not None for _, scope in names):  # Sheet2!Rate: the name Sheet2's formulas see
            views = visible_names(names)  # every sheet without names of its own sees the workbook's
            views = {**{name.upper(): views[None] for name in every_sheet}, **views}
            for sheet in sheets:
                _map_texts(sheet, lambda text, row, col: qualified_names(text, views), "!")
            names = {key: qualified_names(text, views) for key, text in names.items()}
    except (zipfile.BadZipFile, KeyError, etree.XMLSyntaxError, ValueError, IndexError) as exc:
        raise UnreadableWorkbook(path, f"damaged workbook package ({type(exc).__name__}: {exc})") from None
    saved = save_time(archive)
    return Package(path, sheets, names, workbook_part, check.data, _calc_settings(root), every_sheet, linked,
                   _character_set(archive), tables, system, saved_at=saved.moment, no_saved_at=saved.missing,
                   legacy_formulas=_saved_by_spreadsheet(root),
                   scanned=getattr(archive, "scanned", {}), members=list(check.members), notes=notes)
