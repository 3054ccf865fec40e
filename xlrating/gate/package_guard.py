"""Checks an untrusted .xlsx/.xlsm package before any XML library builds a tree from it.

Order of the checks, cheapest first, so that a hostile file is refused before it costs anything:

1. What the bytes are (:func:`sniff`): empty, an OLE2 compound file (an old .xls, or an encrypted
   OOXML workbook, which Office wraps in OLE2), text (CSV, HTML, XML), or something else.
2. The zip central directory: readable at all, number of parts, each part's declared size and
   compression ratio, and the sum of sizes (zip bombs are refused here, before decompression).
   An OpenDocument, binary (.xlsb), Word or PowerPoint package, or a plain zip archive, is named as such.
3. Every part is then decompressed in a stream with a running byte count (so a part whose header
   lies about its size cannot run away; :mod:`zipfile` also stops at the declared size and checks
   the CRC). Every ``.xml``/``.rels`` part goes through expat with DTDs refused: no
   ``<!DOCTYPE>`` means no entity expansion (billion laughs) and no external entities (XXE).
   OOXML parts never carry a DTD (ECMA-376 Part 2, section 8.1.4 forbids it), so refusing one
   costs real files nothing.
4. While streaming a worksheet (:mod:`xlrating.gate.part_scan`), its cells are counted and their
   positions followed the way openpyxl assigns them (``r`` attributes, or the running counter when
   ``r`` is absent), so a cell at XFD1048576 or a sheet of two million rows is refused naming the
   limit it broke; merged ranges, hyperlinks and comments count for the cells they make, styles,
   names and other records against their own limit, and each cell's attributes and value are
   checked the way openpyxl will convert them (a number that is not one, a missing shared string).

The scan costs about 2.5 microseconds per cell. A worksheet part of a megabyte or more is first
unpacked whole, and when its bytes show the cell, row or column where the scan would stop for a
limit, :mod:`xlrating.gate.part_refusal` proves that nothing before it breaks a rule and lets the
scan's parser refuse there, with its own message (1.1 million cells: 0.6 s instead of 5 s); in
every other case, and always for a part that passes, the scan reads the part whole.
"""

from __future__ import annotations

import copy
import io
import struct
import zipfile
from collections.abc import Callable, Generator
from contextlib import closing
from typing import Self

from xlrating.gate import part_refusal
from xlrating.gate.file_kinds import package_kind, sniff
from xlrating.gate.limits import Limits, describe
from xlrating.gate.part_scan import (
    PackageReport,
    PartParser,
    Refused,
    SheetExtent,
    WorkbookScan,
    dtd_reason,
)
from xlrating.kept import Kept

__all__ = ["PackageCheck", "PackageReport", "Refused", "SheetExtent", "check_package", "packed_bytes", "packed_in"]

CHUNK = 64 * 1024


def check_package(data: bytes, limits: Limits) -> PackageReport:
    """Run every check on the bytes of a package; raise :class:`Refused` at the first rule broken."""
    with PackageCheck(data, limits) as check:
        check.scan_parts()
        return check.report


class PackageCheck:
    """The checks of one package, part by part, for a reader that reads some parts itself.

    Opening runs steps 1 and 2 (what the bytes are, the zip directory); :meth:`scan_parts` streams
    every part through step 3 and 4, except the parts a reader takes over (``defer``): that
    reader proves them within the limits in its own pass (:mod:`xlrating.gate.part_quick`) and
    calls :meth:`scan_part` for any it cannot, and :meth:`finish` for those it never read.
    """

    def __init__(self, data: bytes, limits: Limits):
        reason = sniff(data)
        if reason:
            raise Refused(reason)
        try:
            self.archive = _ScannedZip(data)
            infos = self.archive.infolist()
        except Exception as exc:  # noqa: BLE001 - zipfile raises BadZipFile, ValueError, OSError, struct.error ...
            raise Refused(f"corrupt or truncated .xlsx (the zip archive cannot be read: {exc})") from None
        try:
            _check_directory(self.archive, infos, limits)
        except Refused:
            self.archive.close()
            raise
        self.members = infos  # a name may appear twice in a hostile zip: each copy is scanned
        self.infos = {info.filename: info for info in infos}
        self.scan = _Scan(limits, self.archive.scanned)
        self.report = self.scan.report
        self.report.parts = len(infos)
        self.report.has_macros = any(i.filename.lower().endswith("vbaproject.bin") for i in infos)
        self.deferred: set[str] = set()
        self.data = data  # the bytes checked: what the reader reads and a writer copies from

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.archive.close()

    def scan_parts(self, defer: Callable[[str], bool] | None = None) -> None:
        """Stream every part through the checks, except those ``defer`` names (kept in ``deferred``)."""
        for info in sorted(self.members, key=_workbook_parts_first):
            if defer is not None and defer(info.filename) and self.infos[info.filename] is info:
                self.deferred.add(info.filename)
            else:
                self.scan.read_part(self.archive, info)

    def scan_part(self, name: str) -> None:
        """The full streaming checks of one deferred part (raises :class:`Refused` as they do)."""
        self.deferred.discard(name)
        self.scan.read_part(self.archive, self.infos[name])

    def read_deferred(self, name: str) -> bytes | None:
        """The unpacked bytes of a deferred part, counted against ``max_total_bytes``; None when the
        zip cannot give them (the caller then runs :meth:`scan_part`, which names the damage)."""
        info = self.infos[name]
        if self.report.unpacked_bytes + info.file_size > self.scan.limits.max_total_bytes:
            return None
        data = _unpacked(self.archive, info)
        if data is not None:
            self.report.unpacked_bytes += len(data)
        return data

    def done(self, name: str) -> None:
        """A deferred part its reader proved within the limits."""
        self.deferred.discard(name)

    def finish(self) -> PackageReport:
        """Scan the deferred parts no reader took; the report of the whole package."""
        for name in sorted(self.deferred, key=lambda n: _workbook_parts_first(self.infos[n])):
            self.scan_part(name)
        return self.report


def check_zip_directory(infos: list[zipfile.ZipInfo], limits: Limits) -> None:
    """The zip-bomb checks of any zip package (.xlsx, .ods), from its directory alone: number of
    parts, encryption, compression method, each part's size and ratio, and the total size."""
    if len(infos) > limits.max_members:
        raise Refused(f"the package has {len(infos):,} parts, over the limit "
                      f"{describe('max_members', limits.max_members)}")
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


def _check_directory(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], limits: Limits) -> None:
    check_zip_directory(infos, limits)
    names = {info.filename for info in infos}
    reason = package_kind(names, archive.read("mimetype")[:100] if "mimetype" in names else b"")
    if reason is not None:
        raise Refused(reason)


def _workbook_parts_first(info: zipfile.ZipInfo) -> int:
    # The workbook and its relationships name the sheets; reading them first lets a refusal of a
    # worksheet name the sheet ('Results') and not only its part (xl/worksheets/sheet1.xml).
    # Shared strings come before the sheets too, so that a cell's string index can be checked.
    name = info.filename
    if name.endswith("_rels/workbook.xml.rels"):
        return 0
    return 1 if name.endswith("workbook.xml") else 2 if name.endswith("sharedStrings.xml") else 3


def _unpacked(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """The whole of a part, or None when the zip cannot give it: exactly its declared size, with
    its declared checksum."""
    if info.compress_type == zipfile.ZIP_DEFLATED and not info.flag_bits & 1:
        return _inflated(archive, info)
    chunks = []
    try:  # in chunks: zipfile stops at the declared size without inflating what a lying header hides
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                chunks.append(chunk)
    except Exception:  # noqa: BLE001 - zlib.error, BadZipFile (bad CRC), EOFError on a cut stream
        return None
    return b"".join(chunks)


def _inflated(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """A deflated part inflated by ISA-L (``isal``, about 3 times zlib's speed), never past its
    declared size; zipfile gives the compressed bytes (a copy of the entry read as stored), having
    checked the entry's local header as for any read."""
    from isal import isal_zlib

    try:
        compressed = packed_bytes(archive, info)
        inflater = isal_zlib.decompressobj(-15)
        data = inflater.decompress(compressed, info.file_size)
    except Exception:  # noqa: BLE001 - isal's error on a damaged stream, BadZipFile on a bad header
        return None
    if len(data) != info.file_size or isal_zlib.crc32(data) != info.CRC:
        return None  # shorter or longer than declared, or not what was packed
    return data


def packed_bytes(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """An entry's data as the zip holds it, still compressed (not its CRC-32 checked): straight
    from the bytes of a checked package (:func:`packed_in`), else read through zipfile as a stored
    entry of its compressed size, so zipfile checks its local header as for any read."""
    found = _packed(archive, info)
    if found is not None:
        return found
    stored = copy.copy(info)
    stored.compress_type, stored.file_size = zipfile.ZIP_STORED, info.compress_size
    stored.CRC = None  # type: ignore[assignment]  # the packed bytes have no CRC of their own to check
    with archive.open(stored) as stream:
        return stream.read()


def _packed(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes | None:
    """:func:`packed_in` the bytes of a checked package's archive; None for any other archive."""
    data = getattr(archive, "data", None)
    return packed_in(data, info) if data is not None else None


_LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")  # a zip entry's local header (APPNOTE 4.3.7)


def packed_in(data: bytes, info: zipfile.ZipInfo) -> bytes | None:
    """An entry's compressed data in ``data``, the bytes of its zip: after its local header, when
    that header is where the directory says, names the entry and is followed by the whole of it;
    else None (read it through zipfile, which names the damage)."""
    at = info.header_offset
    if at < 0 or at + _LOCAL_HEADER.size > len(data) or info.flag_bits & 0x61:  # encrypted, patched
        return None
    fields = _LOCAL_HEADER.unpack_from(data, at)
    named_at = at + _LOCAL_HEADER.size
    start = named_at + fields[9] + fields[10]
    name = info.orig_filename.encode("utf-8" if fields[3] & 0x800 else "cp437", "replace")
    if fields[0] != 0x04034B50 or data[named_at:named_at + fields[9]] != name \
            or start + info.compress_size > len(data):
        return None
    return data[start:start + info.compress_size]


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, raw: bytes | None) -> Generator[bytes, None, None]:
    """The bytes of a part a chunk at a time: from ``raw`` when it is already unpacked."""
    if raw is not None:
        for start in range(0, len(raw), CHUNK):
            yield raw[start:start + CHUNK]
        return
    with archive.open(info) as stream:
        while chunk := stream.read(CHUNK):
            yield chunk


# An XML part of at most this many bytes is kept unpacked once scanned, for its reader
KEPT_BYTES = 256 * 1024


class _ScannedZip(zipfile.ZipFile):
    """The package's zip archive; ``read`` of a small XML part the scan has unpacked and checked
    (CRC-32 included) gives those bytes instead of inflating the part again."""

    def __init__(self, data: bytes):
        super().__init__(io.BytesIO(data))
        self.data = data  # for packed_bytes: an entry's bytes without a stream
        self.scanned: dict[str, bytes] = {}
        self.roots: dict[str, object] = {}  # the trees its readers parse of its parts, each parsed once

    def read(self, name: str | zipfile.ZipInfo, pwd: bytes | None = None) -> bytes:
        if pwd is None and isinstance(name, str):
            found = self.scanned.get(name)
            if found is not None:
                return found
        return super().read(name, pwd)


# Parts scanned before in this process that told the scan nothing but how many records they hold
# (content types, package relationships, styles, themes, properties: a batch of one template has
# the same ones in every workbook), by name, checksum, sizes and compression, with the limits they
# were scanned under: their packed bytes, their records and their bytes. A part of the same key
# and the same packed bytes unpacks to the same bytes, which the same scan would pass again, so it
# is counted, not scanned again. At most 64 of at most _SEEN_BYTES each.
_SEEN: Kept[tuple[str, int, int, int, Limits], tuple[bytes, int, bytes]] = Kept(64)
_SEEN_BYTES = 64 * 1024


class _Scan(WorkbookScan):
    """Streams every part once, counting bytes and, in XML parts, elements that matter; keeps the
    small XML parts it unpacked (``kept``: name -> bytes) when each name is in the package once."""

    def __init__(self, limits: Limits, kept: dict[str, bytes] | None = None):
        super().__init__(limits)
        self.kept = kept if kept is not None else {}
        self._names: set[str] = set()

    def read_part(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        keep = info.filename.lower().endswith((".xml", ".rels")) and info.file_size <= KEPT_BYTES
        twice = info.filename in self._names
        self._names.add(info.filename)
        if twice:
            self.kept.pop(info.filename, None)  # a name twice in a hostile zip: its reader reads the zip
        elif keep and self._seen_before(archive, info):
            return
        pieces: list[bytes] | None = [] if keep and not twice else None
        records = self.records
        xml = self._read_part(archive, info, pieces)
        if pieces is not None:
            data = self.kept[info.filename] = b"".join(pieces)
            if xml is not None and not xml.telling and len(data) <= _SEEN_BYTES:
                self._remember(archive, info, data, self.records - records)

    def _seen_before(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
        """Whether the part is one scanned before (:data:`_SEEN`): then its records and bytes are
        counted as its scan counted them and its bytes kept, unless a limit would be reached, where
        the scan itself runs to say so."""
        entry = _SEEN.get(self._seen_key(info))
        if entry is None or _packed(archive, info) != entry[0]:
            return False
        _, records, unpacked = entry
        if (self.records + records > self.limits.max_records
                or self.report.unpacked_bytes + len(unpacked) > self.limits.max_total_bytes):
            return False
        self.records += records
        self.report.unpacked_bytes += len(unpacked)
        self.kept[info.filename] = unpacked
        return True

    def _remember(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, unpacked: bytes, records: int) -> None:
        packed = _packed(archive, info)
        if packed is None:
            return
        _SEEN[self._seen_key(info)] = (packed, records, unpacked)

    def _seen_key(self, info: zipfile.ZipInfo) -> tuple[str, int, int, int, Limits]:
        return info.filename, info.CRC, info.file_size, info.compress_type, self.limits

    def _read_part(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                   pieces: list[bytes] | None) -> PartParser | None:
        name = info.filename
        lower = name.lower()
        if name.endswith("/"):
            return None
        xml = PartParser(self, name) if lower.endswith((".xml", ".rels")) else None
        dtd_probe = lower.endswith(".vml")  # VML is often not well-formed XML; only look for a DTD
        tail = b""
        raw = None
        if (xml is not None and info.file_size >= part_refusal.MIN_BYTES
                and self.report.unpacked_bytes + info.file_size <= self.limits.max_total_bytes):
            raw = _unpacked(archive, info)  # None when the zip cannot give it: the stream names the damage
            refusal = part_refusal.proven_refusal(self, name, raw) if raw is not None else None
            if refusal is not None:
                raise refusal
        elif info.file_size <= CHUNK and info.compress_type == zipfile.ZIP_DEFLATED and not info.flag_bits & 1:
            raw = _inflated(archive, info)  # a small part whole at once, not through a stream of one chunk
        try:
            with closing(_chunks(archive, info, raw)) as stream:
                for chunk in stream:
                    if pieces is not None:
                        pieces.append(chunk)
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
                            raise Refused(dtd_reason(name))
                        tail = window[-16:]
            if xml is not None:
                xml.close()
        except Refused:
            raise
        except Exception as exc:  # noqa: BLE001 - zlib.error, BadZipFile (bad CRC), EOFError on a cut stream
            raise Refused(f"corrupt part {name} in the zip archive ({type(exc).__name__}: {exc})") from None
        return xml
