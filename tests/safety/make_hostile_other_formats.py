"""The hostile corpus of the other accepted formats: .xls, .ods and .csv files a stranger could submit.

The .xlsx corpus (:mod:`make_hostile_corpus`) is the model: every case here must be *refused* by
``xlrating validate`` and ``ingest`` (exit 2, a message naming the file with ``fragment`` in it)
within the same time and memory bounds (tests/safety/test_hostile_cli.py). Every file is written
from bytes here (``package_bytes``): a BIFF8 .xls, an .ods package, CSV text; nothing comes from a
spreadsheet program, so building the corpus takes well under a second and needs no LibreOffice.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from make_hostile_corpus import HostileCase, case_writer
from package_bytes import (
    MIB,
    ODS_MIMETYPE,
    RawMember,
    biff_record,
    ods,
    ods_table,
    ole2,
    parts_of,
    raw_zip,
    results_workbook,
    xls,
    zeros_member,
)

HTML = b"<!DOCTYPE html><html><body><table><tr><td>Player</td><td>1</td></tr></table></body></html>"
EXCEL_2003_XML = b'<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"></Workbook>'
CSV = b"tournament,Hostile Open\r\nplayer,place\r\nAda,1\r\nBob,2\r\n"
ENCRYPTED_OOXML = ole2({"EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60), "EncryptedPackage": bytes(5000)})
NUMBER = '<table:table-cell office:value-type="float" office:value="1"/>'


def build_other_formats(folder: Path) -> list[HostileCase]:
    """Write every hostile .xls, .ods and .csv case into ``folder``; return them with their outcomes."""
    folder.mkdir(parents=True, exist_ok=True)
    cases: list[HostileCase] = []
    case = case_writer(folder, cases)
    real_xls = xls([(0, 0, 1.0), (8, 5, 8.0)])
    real_ods = ods(ods_table(f"<table:table-row>{NUMBER}</table:table-row>"))

    # -- disguised: the content is another format than the name says
    contents = {"xlsx": (results_workbook(), "an excel workbook (.xlsx)"),
                "xls": (real_xls, "an old excel 97-2003 .xls workbook"),
                "ods": (real_ods, "an opendocument spreadsheet (.ods)"),
                "csv": (CSV, "a text file (csv or similar)")}
    for suffix in (".xls", ".ods", ".csv"):
        for kind, (data, title) in contents.items():
            if f".{kind}" != suffix:
                case(f"{kind}-renamed{suffix}", data, f"{title} named {suffix}", f"an .{kind} renamed to {suffix}")
        case(f"page{suffix}", HTML, "html page", f"an HTML table saved as {suffix} (what many web sites export)")
        case(f"spreadsheet2003{suffix}", EXCEL_2003_XML, "excel 2003 xml", f"Excel 2003 XML named {suffix}")
        case(f"encrypted{suffix}", ENCRYPTED_OOXML, "encrypted (password-protected)",
             f"a password-protected .xlsx (OLE2 wrapper) named {suffix}")
        case(f"empty{suffix}", b"", "empty file", "a 0-byte file")
        case(f"random{suffix}", bytes(range(7, 256)) * 40, "unrecognised content", "random binary bytes")
    case("document.xls", ole2({"WordDocument": bytes(5000)}), "a word 97-2003 document (.doc), not a spreadsheet",
         "a Word 97-2003 .doc (OLE2, no Workbook stream) named .xls")

    # -- not a file to read at all (read as plain bytes, not through the .xlsx package reader)
    (folder / "folder.csv").mkdir(exist_ok=True)
    case("folder.csv", None, "is a folder", "a directory named like a CSV")
    fifo = folder / "pipe.ods"
    if not fifo.exists() and hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
    if fifo.exists():
        case("pipe.ods", None, "not a regular file", "a named pipe (reading it would block forever)")
    zero = folder / "link-to-dev-zero.xls"
    if not zero.is_symlink() and Path("/dev/zero").exists():
        zero.symlink_to("/dev/zero")
    if zero.is_symlink():
        case("link-to-dev-zero.xls", None, "not a regular file", "a symlink to /dev/zero (endless bytes)")
    case("oversized.csv", None, "max_file_bytes", "a 60 MB file (sparse)")
    with open(folder / "oversized.csv", "wb") as handle:
        handle.truncate(60 * MIB)

    # -- .xls: damaged, encrypted, or beyond the limits once calamine has read it
    case("garbage-ole2.xls", ole2({"Workbook": b"\x09\x08" + bytes(200)}), "damaged excel 97-2003 .xls",
         "an OLE2 file whose Workbook stream is garbage")
    case("truncated.xls", real_xls[: len(real_xls) // 2], "damaged excel 97-2003 .xls", "an .xls cut in half")
    filepass = biff_record(0x002F, bytes.fromhex("0100 0100 0100") + bytes(48))  # RC4, as Excel 2003 writes
    case("password.xls", xls([(0, 0, 1.0)], globals_records=filepass), "encrypted (password-protected) excel",
         "an .xls with a password to open (a FILEPASS record)")
    case("corners.xls", xls([(0, 0, 1.0), (65_535, 255, 2.0)]), "768 mb of memory",
         "two cells at opposite corners of BIFF8's grid (calamine holds 65,536 x 256 cells densely)")
    case("over-max-cells.xls", xls([(0, 0, 1.0), (3_999, 255, 2.0)]), "max_cells",
         "two cells spanning 4,000 x 256 cells, within the reader's memory and over the cell limit")

    # -- .ods: damaged packages, zip bombs, DTDs
    case("truncated.ods", real_ods[: len(real_ods) // 2], "corrupt or truncated opendocument spreadsheet (.ods)",
         "an .ods cut in half")
    mimetype = RawMember("mimetype", ODS_MIMETYPE, zlib.crc32(ODS_MIMETYPE), len(ODS_MIMETYPE), 0)
    content = parts_of(real_ods, {})[1]
    content.crc ^= 0xFFFF
    case("bad-crc.ods", raw_zip([mimetype, content]), "part content.xml cannot be read",
         "content.xml whose CRC does not match its data")
    case("no-content.ods", raw_zip([mimetype]), "no content.xml", "an .ods package without content.xml")
    case("bomb-1gb.ods", raw_zip([mimetype, zeros_member("content.xml", 1024 * MIB)]), "max_member_bytes",
         "content.xml of 1 GiB of zeros deflated to ~1 MB")
    case("bomb-ratio.ods", raw_zip([mimetype, zeros_member("content.xml", 32 * MIB)]), "max_ratio",
         "content.xml of 32 MiB of zeros (ratio ~1000:1)")
    lying = zeros_member("content.xml", 512 * MIB)
    lying.size = 4096
    case("bomb-lying-header.ods", raw_zip([mimetype, lying]), "part content.xml cannot be read",
         "a 512 MiB content.xml whose headers declare 4 KiB")
    many = [mimetype] + [RawMember(f"Pictures/{i}.png", b"", 0, 0, 0) for i in range(2_001)]
    case("too-many-parts.ods", raw_zip(many), "max_members", "2,002 zip members")
    laughs = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
              + ods_table("<table:table-row><table:table-cell><text:p>&b;</text:p></table:table-cell>"
                          "</table:table-row>"))
    case("laughs-content.ods", ods(laughs), "declares a dtd", "entity expansion in content.xml")

    # -- .ods: repeat counts that make a few bytes describe millions of cells
    def repeated(name: str, rows: str, fragment: str, attack: str) -> None:
        case(name, ods(ods_table(rows)), fragment, attack)

    repeated("repeated-cells.ods", '<table:table-row table:number-rows-repeated="5000"><table:table-cell '
             'table:number-columns-repeated="900" office:value-type="float" office:value="1"/></table:table-row>',
             "max_cells", "one cell repeated 900 columns x 5,000 rows = 4.5 million cells")
    repeated("repeated-rows.ods", f'<table:table-row table:number-rows-repeated="1048576">{NUMBER}'
             '</table:table-row>', "max_rows", "a row with a value repeated 1,048,576 times")
    repeated("repeated-columns.ods", '<table:table-row><table:table-cell table:number-columns-repeated="16384" '
             'office:value-type="float" office:value="1"/></table:table-row>', "max_columns",
             "a value repeated over 16,384 columns")
    repeated("repeat-not-a-count.ods", '<table:table-row table:number-rows-repeated="-1">'
             f'{NUMBER}</table:table-row>', "is not a count", "number-rows-repeated='-1'")
    repeated("repeat-far-column.ods", '<table:table-row><table:table-cell table:number-columns-repeated='
             f'"999999999999"/>{NUMBER}</table:table-row>', "max_columns",
             "a trillion empty cells, then a value")
    repeated("corners.ods", f'<table:table-row>{NUMBER}</table:table-row><table:table-row '
             'table:number-rows-repeated="99998"><table:table-cell table:number-columns-repeated="1000"/>'
             f'</table:table-row><table:table-row><table:table-cell table:number-columns-repeated="999"/>{NUMBER}'
             '</table:table-row>', "spans 100,000 x 1,000 cells",
             "two values at A1 and ALL100000, each within the row and column limits (calamine holds the "
             "100 million cells between them densely)")

    # -- .csv: too long, too wide, too many, or not text
    case("long-line.csv", b"ab," * (16 * MIB), "max_columns",
         "48 MB on one line: 16 million short fields (csv builds a row whole before it returns it)")
    case("quoted-lines.csv", b'"ab\n",' * 2_000_000, "the row on lines 1 to",
         "2 million quoted fields each holding a line break: one row over 2 million lines")
    case("wide.csv", b",".join([b"1"] * 1_200) + b"\n", "max_columns", "1,200 fields on one line")
    case("rows.csv", b"1\n" * 100_001, "max_rows", "100,001 lines")
    case("cells.csv", (b"1," * 999 + b"1\n") * 1_001, "max_cells", "1,001 lines x 1,000 fields")
    case("long-field.csv", b"x" * 40_000 + b"\n", "max_text_chars", "a 40,000-character field")
    case("huge-field.csv", b'"' + b"x" * (40 * MIB), "max_text_chars",
         "a 40 MB quoted field never closed (over csv's own field limit)")
    case("nul-late.csv", CSV * 200 + b"Eve\x00,3\r\n", "nul character", "a NUL byte after the first 4 KiB")
    case("utf-16-no-bom.csv", CSV.decode().encode("utf-16-le"), "unrecognised content",
         "UTF-16 text without its byte-order mark (a NUL in every other byte)")
    case("utf-32.csv", CSV.decode().encode("utf-32"), "nul character",
         "UTF-32 text, whose BOM starts like UTF-16's")
    return cases
