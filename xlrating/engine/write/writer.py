"""Writing a recalculated workbook: the original package with fresh cached values, or values only.

openpyxl cannot write a cached value next to a formula, and re-saving through it would drop what
it does not model, so the original package is copied part by part and only the sheet XML is
edited (:mod:`.sheet_xml`). Styles, other sheets, defined names, and the VBA project of an .xlsm pass
through byte for byte. The calc chain is dropped (Excel rebuilds it; a stale one makes Excel repair
the file), and so is a ``fullCalcOnLoad`` flag (openpyxl sets it), so that Excel shows our values at
once. With ``values_only`` the ``<f>`` elements go and the result is a plain .xlsx. A large sheet
part is deflated in a thread while its next piece is made (:func:`_write_streamed`). A workbook
saved as Strict Open XML is written back as Strict (:class:`_StrictWriter`).

CSV (one file per sheet) and JSON (one document) are written from the evaluated grid (:mod:`.values`).
"""

from __future__ import annotations

import io
import re
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from queue import Queue
from typing import Any, Self

from xlrating.gate.package_guard import packed_bytes, packed_in

from ..evaluate.model import Evaluated
from ..read.strict import to_strict
from .sheet_xml import SheetEdit, bulk_chunks, edit_sheet, edited_chunks, excel_function_names
from .zip_stream import ZipWriter

MACRO_MAIN = "application/vnd.ms-excel.sheet.macroEnabled.main+xml"
XLSX_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


# Bytes handed to the deflate thread at a time (a sixteenth of the part at most, for a small part to
# overlap too): it takes the GIL back a few times per write, and waits for it each time
_BATCH = 1 << 22


# Characters of sheet XML below which a part is deflated without a thread of its own (see _write_streamed)
_ALONE = 1 << 16


def _write_streamed(out: ZipWriter, info: zipfile.ZipInfo, pieces: Iterator[str], size_hint: int) -> None:
    """Write the part ``info`` from text pieces while they are being made: a thread feeds the zip
    entry, whose checksum and compression run without the GIL, so deflating overlaps building the
    next piece. A part of less than :data:`_ALONE` characters is joined and deflated at once in this
    thread: starting a thread and handing it the pieces costs more than the overlap saves, and its
    header is then right as first written (no seek back to fill it in: a folder of small workbooks)."""
    if size_hint < _ALONE:  # whole, then deflated at once: its header is right as first written
        out.write(info, "".join(pieces).encode("utf-8"))
        return
    queue: Queue[bytes | None] = Queue(maxsize=2)
    failed: list[BaseException] = []

    def drain() -> None:
        try:
            stream = out.stream(info, size_hint)
            while (piece := queue.get()) is not None:
                stream.write(piece)
            stream.close()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            failed.append(exc)
            while queue.get() is not None:  # let the producer finish
                pass

    thread = threading.Thread(target=drain, daemon=True)
    # The thread takes the GIL back after each checksum, deflate and file write of a piece; at the
    # default switch interval (5 ms) it waits that long each time while this thread builds the next
    # piece, and the deflating, not the building, sets the pace (about 2 s of waiting a million cells).
    # It gets a few MB at a time (pieces joined) so that it asks for the GIL seldom.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, 0.0002))
    batch_size = min(_BATCH, max(size_hint // 16, 1 << 16))
    thread.start()
    try:
        batch: list[bytes] = []
        size = 0
        for piece in pieces:
            batch.append(piece.encode("utf-8"))
            size += len(batch[-1])
            if size >= batch_size:
                queue.put(b"".join(batch))
                batch, size = [], 0
        if batch:
            queue.put(b"".join(batch))
    finally:
        queue.put(None)
        thread.join()
        sys.setswitchinterval(interval)
    if failed:
        raise failed[0]


def write_xlsx(evaluated: Evaluated, target: str | Path, *, values_only: bool = False) -> None:
    """The workbook with fresh cached values (formulas kept, or dropped with ``values_only``)."""
    parts = {sheet.part: sheet for sheet in evaluated.package.sheets}
    drop_vba = values_only or str(target).lower().endswith(".xlsx")
    # a Strict Open XML workbook was read as the Transitional package it means: written Strict again
    out_class = _StrictWriter if evaluated.package.strict else ZipWriter
    with _Source(evaluated.package) as source, out_class(target) as out:
        for info in source.infolist():
            name = info.filename
            if name.endswith("calcChain.xml") or (drop_vba and name.lower().endswith("vbaproject.bin")):
                continue
            sheet = parts.get(name)
            if sheet is None and out_class is ZipWriter and _kept_as_is(name, evaluated.package.workbook_part, info):
                out.copy(info, source.deflated(info))  # no need to inflate and deflate it again
                continue
            data = source.read(name) if sheet is None or sheet.xml is None else b""
            if sheet is not None:
                edit = SheetEdit(evaluated, sheet.name, values_only)
                xml = excel_function_names(sheet.xml if sheet.xml is not None else data.decode("utf-8"))
                chunks = bulk_chunks(xml, edit, sheet) if xml is sheet.xml else None
                if chunks is None:
                    chunks = edited_chunks(xml, edit)
                if chunks is not None:
                    _write_streamed(out, info, chunks, len(xml))
                    continue
                data = edit_sheet(xml, edit).encode("utf-8")
            elif name == evaluated.package.workbook_part:
                data = _calculation_on_load(data, bool(evaluated.not_computed))
            elif name == "[Content_Types].xml" or name.endswith(".rels"):
                text = edited = data.decode("utf-8")
                if "calcChain" in text:
                    edited = re.sub(r"<(\w+:)?(Override|Relationship)\b[^>]*calcChain[^>]*/>", "", edited)
                if drop_vba and ("vbaProject" in text or "bin" in text or MACRO_MAIN in text):
                    edited = re.sub(r"<(\w+:)?(Override|Relationship|Default)\b[^>]*vbaProject[^>]*/>", "", edited)
                    edited = re.sub(r'<(\w+:)?Default\b[^>]*Extension="bin"[^>]*/>', "", edited)
                    edited = edited.replace(MACRO_MAIN, XLSX_MAIN)
                if edited == text and out_class is ZipWriter and _deflated(info):
                    out.copy(info, source.deflated(info))  # nothing to take out: copied as it is
                    continue
                data = edited.encode("utf-8")
            out.write(info, data)


def _kept_as_is(name: str, workbook_part: str, info: zipfile.ZipInfo) -> bool:
    """Whether a part (not a worksheet) goes to the output unchanged and can be copied deflated as
    it is: every part but the workbook, the content types and the relationships, which are edited
    (and copied so too when the edit changes nothing)."""
    return _deflated(info) and name != workbook_part and name != "[Content_Types].xml" and not name.endswith(".rels")


def _deflated(info: zipfile.ZipInfo) -> bool:
    return info.compress_type == zipfile.ZIP_DEFLATED and not info.flag_bits & 1


class _Source:
    """The parts of the package read: the small XML ones the package check kept unpacked, the
    others from its bytes; the entries as the check listed them. A zip archive of the bytes is
    opened only for what that does not give (a part not kept, a local header out of place)."""

    def __init__(self, package: Any):
        self._data, self._scanned, self._members = package.data, package.scanned, package.members
        self._archive: zipfile.ZipFile | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        if self._archive is not None:
            self._archive.close()

    def _zip(self) -> zipfile.ZipFile:
        if self._archive is None:
            self._archive = zipfile.ZipFile(io.BytesIO(self._data))
        return self._archive

    def infolist(self) -> list[zipfile.ZipInfo]:
        return self._members or self._zip().infolist()

    def read(self, name: str) -> bytes:
        kept = self._scanned.get(name)
        return kept if kept is not None else self._zip().read(name)

    def deflated(self, info: zipfile.ZipInfo) -> bytes:
        """The DEFLATE data of an entry as the package holds it (the package check has inflated it
        and checked its CRC-32)."""
        found = packed_in(self._data, info)
        return found if found is not None else packed_bytes(self._zip(), info)


class _StrictWriter(ZipWriter):
    """A :class:`ZipWriter` that names every XML part's namespaces and relationship types as Strict
    Open XML does (:func:`..read.strict.to_strict`); the parts come from a Strict workbook read
    as Transitional, so the result is the user's Strict workbook with fresh values."""

    def write(self, info: zipfile.ZipInfo, data: bytes) -> None:
        if info.filename.endswith((".xml", ".rels", ".vml")):
            data = to_strict(info.filename, data.decode("utf-8")).encode("utf-8")
        super().write(info, data)

    def stream(self, info: zipfile.ZipInfo, size_hint: int) -> Any:
        return _StrictStream(super().stream(info, size_hint), info.filename)


class _StrictStream:
    """A part written a piece at a time (pieces start at an element, :func:`_write_streamed`),
    each named as Strict names it."""

    def __init__(self, stream: Any, name: str):
        self._stream, self._name = stream, name

    def write(self, piece: bytes) -> None:
        self._stream.write(to_strict(self._name, piece.decode("utf-8")).encode("utf-8"))

    def close(self) -> None:
        self._stream.close()


def _calculation_on_load(workbook_xml: bytes, recalculate: bool) -> bytes:
    """The workbook part with a full recalculation on load only where a cell was left without a
    value. When every value is fresh, a forced recalculation would only replace ours with #NAME? in
    an Excel without the add-in; when some are missing, Excel and LibreOffice must compute them."""
    data = re.sub(rb'\sfullCalcOnLoad="(?:1|true|0|false)"', b"", workbook_xml)
    if not recalculate:
        return data
    if re.search(rb"<(\w+:)?calcPr\b", data):
        return re.sub(rb"<((?:\w+:)?calcPr)\b", rb'<\1 fullCalcOnLoad="1"', data, count=1)
    # calcPr comes after the sheets and defined names, before the other optional elements
    for element in (b"definedNames", b"externalReferences", b"functionGroups", b"sheets"):
        found = re.search(rb"</(\w+:)?" + element + rb">|<(\w+:)?" + element + rb"\s*/>", data)
        if found is not None:
            break
    else:
        return data
    prefix = next((g for g in found.groups() if g), b"")
    return data[:found.end()] + b"<" + prefix + b'calcPr fullCalcOnLoad="1"/>' + data[found.end():]
