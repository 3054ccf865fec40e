"""Byte-level writers for the hostile corpus: zips whose headers can lie, OLE2 files, XML parts,
.xls (BIFF8) workbooks and .ods packages.

Everything here writes bytes directly (PKWARE APPNOTE for zips, [MS-CFB] for OLE2, [MS-XLS] for
BIFF8), so the corpus needs no file from outside the repository and can hold what no spreadsheet
program would write.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass

from openpyxl.utils.cell import get_column_letter

MIB = 1024 * 1024


def results_workbook() -> bytes:
    """A small, valid EMA-like results workbook: the base every mutation starts from."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Results"
    sheet.append(["tournament", "date", "players", "weight", "player", "place"])
    for place in range(1, 9):
        sheet.append(["Hostile Open", "2024-05-01", 8, 1.0, f"Player {place}", place])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def rezip(base: bytes, replace: dict[str, bytes | None] | None = None,
          add: dict[str, bytes] | None = None) -> bytes:
    """``base`` with parts replaced (``None`` drops one) and parts added, deflated like Excel does."""
    replace = replace or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(base)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename in replace:
                if replace[info.filename] is not None:
                    target.writestr(info.filename, replace[info.filename])  # type: ignore[arg-type]
            else:
                target.writestr(info.filename, source.read(info))
        for name, data in (add or {}).items():
            target.writestr(name, data)
    return out.getvalue()


def as_macro_workbook(base: bytes, vba: bytes) -> bytes:
    """``base`` typed as a macro-enabled workbook (.xlsm) with ``vba`` as its vbaProject.bin."""
    with zipfile.ZipFile(io.BytesIO(base)) as archive:
        types = archive.read("[Content_Types].xml").decode()
    types = types.replace("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                          "application/vnd.ms-excel.sheet.macroEnabled.main+xml")
    types = types.replace('<Default Extension="xml"', '<Default Extension="bin" ContentType='
                          '"application/vnd.ms-office.vbaProject"/><Default Extension="xml"')
    return rezip(base, replace={"[Content_Types].xml": types.encode()}, add={"xl/vbaProject.bin": vba})


@dataclass
class RawMember:
    """A zip member written byte for byte, so headers can lie and data can be pre-compressed."""

    name: str
    packed: bytes
    crc: int
    size: int  # the uncompressed size the headers declare
    method: int = 8
    flags: int = 0


def raw_zip(members: list[RawMember]) -> bytes:
    """A zip archive (PKWARE APPNOTE 4.3) from members exactly as given."""
    out = io.BytesIO()
    central = []
    for m in members:
        name = m.name.encode()
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, m.flags, m.method, 0, 0x21,
                              m.crc, len(m.packed), m.size, len(name), 0) + name + m.packed)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, m.flags, m.method, 0, 0x21,
                                   m.crc, len(m.packed), m.size, len(name), 0, 0, 0, 0, 0, offset) + name)
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), start, 0))
    return out.getvalue()


def deflated(data: bytes) -> RawMember:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return RawMember("", compressor.compress(data) + compressor.flush(), zlib.crc32(data), len(data))


def zeros_member(name: str, size: int) -> RawMember:
    """``size`` zero bytes, deflated without ever holding them in memory (a zip bomb's payload)."""
    block = bytes(MIB)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    # After a full flush the compressor forgets its history, so every MiB of zeros deflates to
    # the same bytes: compress one, repeat it.
    segment = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(size // MIB):
        crc = zlib.crc32(block, crc)
    return RawMember(name, segment * (size // MIB) + compressor.flush(), crc, size)


def ole2(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE2 compound file ([MS-CFB], version 3, 512-byte sectors) holding ``streams``."""
    end, free, fat_sector = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD
    sector = 512
    bodies = [data.ljust(max(4096, -(-len(data) // sector) * sector), b"\0") for data in streams.values()]
    fat = [fat_sector, end]  # sector 0 holds the FAT, sector 1 the directory
    starts = []
    for body in bodies:
        count = len(body) // sector
        starts.append(len(fat))
        fat += [len(fat) + i + 1 for i in range(count - 1)] + [end]
    assert len(fat) <= sector // 4, "tiny writer: one FAT sector only"

    def entry(name: str, kind: int, child: int, right: int, start: int, size: int) -> bytes:
        encoded = (name + "\0").encode("utf-16-le")
        return (encoded.ljust(64, b"\0") + struct.pack("<HBBIII", len(encoded), kind, 1, free, right, child)
                + bytes(16 + 4 + 16) + struct.pack("<IQ", start, size))

    names = list(streams)
    directory = entry("Root Entry", 5, 1 if names else free, free, end, 0)
    for i, name in enumerate(names):
        right = i + 2 if i + 1 < len(names) else free
        directory += entry(name, 2, free, right, starts[i], len(streams[name]))
    directory = directory.ljust(sector, b"\0")
    header = (bytes.fromhex("d0cf11e0a1b11ae1") + bytes(16) + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + bytes(6) + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, end, 0, end, 0)
              + struct.pack("<I", 0) + struct.pack("<I", free) * 108)
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat).ljust(sector, b"\xff")
    return header + fat_bytes + directory + b"".join(bodies)


def billion_laughs(root: str) -> bytes:
    """The classic entity-expansion document: 10 levels of 10 copies, ~1 GB of 'lol' if expanded."""
    lines = ['<!ENTITY lol0 "lol">']
    lines += [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    return (f'<?xml version="1.0"?><!DOCTYPE {root} [{"".join(lines)}]>'
            f'<{root} xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">&lol9;</{root}>').encode()


SHEET_OPEN = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
              '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')


def sheet_xml(body: str, dimension: str = "A1") -> bytes:
    return f'{SHEET_OPEN}<dimension ref="{dimension}"/><sheetData>{body}</sheetData></worksheet>'.encode()


SHEET = "xl/worksheets/sheet1.xml"


column_letters = get_column_letter


def parts_of(base: bytes, replace: dict[str, RawMember]) -> list[RawMember]:
    """The parts of ``base`` as raw members, some replaced by hand-made ones."""
    members = []
    with zipfile.ZipFile(io.BytesIO(base)) as archive:
        for info in archive.infolist():
            member = replace.get(info.filename) or deflated(archive.read(info))
            member.name = info.filename
            members.append(member)
    return members


ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
ODS_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
                f'manifest:media-type="{ODS_MIMETYPE.decode()}"/><manifest:file-entry manifest:full-path='
                '"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')


def ods(content: str | bytes) -> bytes:
    """An OpenDocument spreadsheet package holding ``content`` as its content.xml (with the
    mimetype and manifest a reader looks for, so calamine reads it as LibreOffice's own)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", ODS_MIMETYPE, compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", content)
        archive.writestr("META-INF/manifest.xml", ODS_MANIFEST)
    return out.getvalue()


def ods_table(rows: str, name: str = "Results") -> str:
    """A content.xml whose one sheet ``name`` holds ``rows`` (table:table-row elements)."""
    return ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
            f'<table:table table:name="{name}">{rows}</table:table></office:spreadsheet></office:body>'
            '</office:document-content>')


def biff_record(kind: int, data: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


def xls(cells: list[tuple[int, int, float]], *, globals_records: bytes = b"", sheet: str = "Results") -> bytes:
    """An Excel 97-2003 .xls workbook ([MS-XLS], BIFF8 in OLE2) of one sheet holding ``cells``
    ((row, column, number), 0-based); ``globals_records`` go right after the workbook's BOF record
    (a FILEPASS makes it encrypted)."""
    def bof(substream: int) -> bytes:  # BIFF8, build 3515, year 1996: what Excel 97 writes
        return biff_record(0x0809, struct.pack("<HHHHII", 0x0600, substream, 0x0DBB, 0x07CC, 0, 6))

    name = sheet.encode("latin-1")

    def workbook_globals(sheet_offset: int) -> bytes:
        boundsheet = struct.pack("<IBBBB", sheet_offset, 0, 0, len(name), 0) + name
        return bof(0x0005) + globals_records + biff_record(0x0085, boundsheet) + biff_record(0x000A)

    rows, columns = max(r for r, _, _ in cells) + 1, max(c for _, c, _ in cells) + 1
    worksheet = (bof(0x0010) + biff_record(0x0200, struct.pack("<IIHHH", 0, rows, 0, columns, 0))
                 + b"".join(biff_record(0x0203, struct.pack("<HHHd", r, c, 0, v)) for r, c, v in cells)
                 + biff_record(0x000A))
    stream = workbook_globals(len(workbook_globals(0))) + worksheet
    return ole2({"Workbook": stream.ljust(4096, b"\0")})  # 4 KiB at least: ole2() writes no mini stream
