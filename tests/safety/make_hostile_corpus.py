"""Builds the hostile workbook corpus: files a stranger could submit, each with its expected outcome.

Run as a script to write the corpus into a folder and print the table of cases::

    python tests/safety/make_hostile_corpus.py /tmp/hostile

The test suite imports :func:`build` and runs every reader on every case
(``tests/safety/test_hostile_corpus.py``). Every case here must be *refused*: ``xlrating`` exits
with status 2 and its message contains ``fragment``. Cases are built from bytes written here
(a zip writer, an OLE2 writer), so nothing depends on files outside the repository.
"""

from __future__ import annotations

import io
import os
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from package_bytes import (
    MIB,
    SHEET,
    SHEET_OPEN,
    as_macro_workbook,
    billion_laughs,
    column_letters,
    deflated,
    ole2,
    parts_of,
    raw_zip,
    results_workbook,
    rezip,
    sheet_xml,
    zeros_member,
)

__all__ = ["HostileCase", "as_macro_workbook", "build", "case_writer", "outcomes", "results_workbook", "rezip", "sheet_xml"]


@dataclass(frozen=True)
class HostileCase:
    """One hostile input and what every reader must answer."""

    name: str
    path: Path
    fragment: str  # a piece of the refusal message, lower case
    attack: str  # what the file tries, for the report
    env: dict[str, str] = field(default_factory=dict)  # limit overrides the case runs under


def case_writer(folder: Path, cases: list[HostileCase]) -> Callable[..., None]:
    """``case(name, data, fragment, attack, **env)``: write ``data`` (unless None: the file is made
    otherwise) as ``folder/name`` and add its case to ``cases``."""
    def case(name: str, data: bytes | None, fragment: str, attack: str, **env: str) -> None:
        path = folder / name
        if data is not None:
            path.write_bytes(data)
        cases.append(HostileCase(name, path, fragment.lower(), attack, env))

    return case


# ---------------------------------------------------------------- the corpus

def build(folder: Path) -> list[HostileCase]:
    """Write every hostile case into ``folder`` and return them with their expected outcomes."""
    folder.mkdir(parents=True, exist_ok=True)
    base = results_workbook()
    cases: list[HostileCase] = []
    case = case_writer(folder, cases)

    # -- not a workbook at all
    case("empty.xlsx", b"", "empty file", "a 0-byte file")
    (folder / "folder.xlsx").mkdir(exist_ok=True)
    case("folder.xlsx", None, "is a folder", "a directory named like a workbook")
    fifo = folder / "pipe.xlsx"
    if not fifo.exists() and hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
    if fifo.exists():
        case("pipe.xlsx", None, "not a regular file", "a named pipe (reading it would block forever)")
    case("results-csv.xlsx", b"player,place\r\nAda,1\r\nBob,2\r\n", "a text file (csv", "CSV renamed to .xlsx")
    case("page.xlsx", b"<!DOCTYPE html><html><body><table><tr><td>1</td></tr></table></body></html>",
         "html page", "HTML table saved as .xlsx")
    case("spreadsheet2003.xlsx", b'<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:'
         b'spreadsheet"></Workbook>', "excel 2003 xml", "Excel 2003 XML renamed to .xlsx")
    case("random.xlsx", bytes(range(7, 256)) * 40, "unrecognised content", "random binary bytes")
    case("old.xlsx", ole2({"Workbook": b"\x09\x08" + bytes(200)}), "old excel 97-2003 .xls",
         ".xls (OLE2, BIFF8) renamed to .xlsx")
    case("encrypted.xlsx", ole2({"EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60),
                                 "EncryptedPackage": bytes(5000)}),
         "encrypted (password-protected)", "password-protected .xlsx (OLE2 wrapper)")
    zero = folder / "link-to-dev-zero.xlsx"
    if not zero.is_symlink() and Path("/dev/zero").exists():
        zero.symlink_to("/dev/zero")
    if zero.is_symlink():
        case("link-to-dev-zero.xlsx", None, "not a regular file", "a symlink to /dev/zero (endless bytes)")
    case("oversized.xlsx", None, "max_file_bytes", "a 60 MB file (sparse)")
    with open(folder / "oversized.xlsx", "wb") as handle:
        handle.truncate(60 * MIB)

    # -- zip, but the wrong kind of package
    ods = io.BytesIO()
    with zipfile.ZipFile(ods, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", "<office:document-content/>")
    case("calc.xlsx", ods.getvalue(), "opendocument spreadsheet (.ods)", ".ods renamed to .xlsx")
    case("binary.xlsx", rezip(base, add={"xl/workbook.bin": bytes(100)}), "binary .xlsb", ".xlsb renamed to .xlsx")
    case("letter.xlsx", rezip(base, add={"word/document.xml": b"<w:document/>"}), "a word document (.docx)",
         ".docx renamed to .xlsx")
    case("no-content-types.xlsx", rezip(base, replace={"[Content_Types].xml": None}),
         "no [content_types].xml", "valid parts but no [Content_Types].xml")
    case("empty-zip.xlsx", b"PK\x05\x06" + bytes(18), "empty zip archive", "an empty zip")

    # -- corrupt zip
    case("truncated.xlsx", base[: len(base) // 2], "corrupt or truncated", "a workbook cut in half")
    case("junk-after-magic.xlsx", b"PK\x03\x04" + bytes(range(256)) * 8, "corrupt or truncated",
         "zip magic followed by junk")
    flipped = bytearray(base)
    with zipfile.ZipFile(io.BytesIO(base)) as archive:
        info = archive.getinfo(SHEET)
    data_start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(data_start + 10, data_start + info.compress_size - 4, 7):
        flipped[offset] ^= 0x5A
    case("flipped-bytes.xlsx", bytes(flipped), "corrupt part xl/worksheets/sheet1.xml",
         "bytes flipped inside the sheet's compressed data")
    crc_lie = deflated(sheet_xml(""))
    crc_lie.crc ^= 0xFFFF
    case("bad-crc.xlsx", raw_zip(parts_of(base, {SHEET: crc_lie})), "corrupt part",
         "a part whose CRC does not match its data")
    encrypted_member = deflated(b"secret")
    encrypted_member.name, encrypted_member.flags = "xl/secret.xml", 1
    case("zip-encrypted-part.xlsx", raw_zip(parts_of(base, {}) + [encrypted_member]), "is encrypted inside the zip",
         "a zip member with the encryption flag")
    bz = io.BytesIO()
    with zipfile.ZipFile(bz, "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    case("bzip2.xlsx", bz.getvalue(), "compression method 12", "a member compressed with bzip2")

    # -- zip bombs
    case("bomb-1gb.xlsx", raw_zip(parts_of(base, {}) + [zeros_member("xl/media/zeros.bin", 1024 * MIB)]),
         "max_member_bytes", "1 GiB of zeros deflated to ~1 MB")
    case("bomb-ratio.xlsx", raw_zip(parts_of(base, {}) + [zeros_member("xl/media/zeros.bin", 32 * MIB)]),
         "max_ratio", "32 MiB of zeros (under the size limit, ratio ~1000:1)")
    lying = zeros_member(SHEET, 512 * MIB)
    lying.size = 4096  # the headers claim 4 KiB; the stream would inflate to 512 MiB
    case("bomb-lying-header.xlsx", raw_zip(parts_of(base, {SHEET: lying})), "corrupt part",
         "a 512 MiB stream whose headers declare 4 KiB")
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        for i in range(2_001):
            archive.writestr(f"xl/media/{i}.bin", b"")
    case("too-many-parts.xlsx", many.getvalue(), "max_members", "2,002 zip members")
    spread = [deflated(os.urandom(1024) * 40) for _ in range(4)]  # 40 KiB each, ratio ~40
    for i, member in enumerate(spread):
        member.name = f"xl/media/{i}.bin"
    case("bomb-total.xlsx", raw_zip(parts_of(base, {}) + spread), "max_total_bytes",
         "four parts each within limits, together over the total", XLRATING_MAX_TOTAL_BYTES="100000")

    # -- XML attacks
    case("laughs-sheet.xlsx", rezip(base, replace={SHEET: billion_laughs("worksheet")}), "declares a dtd",
         "billion laughs in the worksheet")
    case("laughs-strings.xlsx", rezip(base, add={"xl/sharedStrings.xml": billion_laughs("sst")}),
         "declares a dtd", "billion laughs in sharedStrings.xml")
    case("laughs-workbook.xlsx", rezip(base, replace={"xl/workbook.xml": billion_laughs("workbook")}),
         "declares a dtd", "billion laughs in workbook.xml")
    xxe = (b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
           + SHEET_OPEN.split("?>", 1)[1].encode() + b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is>'
           b'<t>&xxe;</t></is></c></row></sheetData></worksheet>')
    case("xxe-passwd.xlsx", rezip(base, replace={SHEET: xxe}), "declares a dtd",
         "external entity reading /etc/passwd")
    remote_dtd = (b'<?xml version="1.0"?><!DOCTYPE Types SYSTEM "http://127.0.0.1:9/evil.dtd">'
                  b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    case("xxe-remote-dtd.xlsx", rezip(base, replace={"[Content_Types].xml": remote_dtd}), "declares a dtd",
         "external DTD fetched over the network")
    case("laughs-utf16.xlsx", rezip(base, replace={SHEET: billion_laughs("worksheet").decode().replace(
        'version="1.0"', 'version="1.0" encoding="UTF-16"').encode("utf-16")}), "declares a dtd",
         "billion laughs encoded as UTF-16 (beats a byte search)")
    case("vml-dtd.xlsx", rezip(base, add={"xl/drawings/vmlDrawing1.vml": b"<!DOCTYPE x [<!ENTITY a 'b'>]><xml/>"}),
         "declares a dtd", "a DTD inside a VML drawing")
    for name, body, fragment in (
            ("bad-style-index.xlsx", '<row r="1"><c r="A1" s="A7"><v>1</v></c></row>', "s='a7'"),
            ("bad-row-number.xlsx", '<row r="x1"><c r="A1"><v>1</v></c></row>', "r='x1'"),
            ("bad-cell-type.xlsx", '<row r="1"><c r="A1" t="zz"><v>1</v></c></row>', "t='zz'"),
            ("bad-cell-ref.xlsx", '<row r="1"><c r="1A"><v>1</v></c></row>', "r='1a'"),
            ("row-zero.xlsx", '<row r="0"><c r="A0"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>',
             "has r='0'"),
            ("cell-in-row-zero.xlsx", '<row r="1"><c r="A0"><v>1</v></c></row>', "has r='a0'"),
            ("number-not-a-number.xlsx", '<row r="1"><c r="A1"><v>12,5</v></c></row>', "where a number belongs"),
            ("shared-string-missing.xlsx", '<row r="1"><c r="A1" t="s"><v>99</v></c></row>',
             "where a shared-string index belongs"),
            ("date-not-a-date.xlsx", '<row r="1"><c r="A1" t="d"><v>yesterday</v></c></row>',
             "where an iso 8601 date belongs"),
            ("rich-text-bad-size.xlsx", ('<row r="1"><c r="A1" t="inlineStr"><is><r><rPr><sz val="big"/></rPr>'
             '<t>x</t></r></is></c></row>'), "typeerror: expected <class 'float'>")):
        case(name, rezip(base, replace={SHEET: sheet_xml(body)}), fragment,
             "well-formed XML whose attribute or value openpyxl cannot convert while streaming a sheet")
    case("malformed-sheet.xlsx", rezip(base, replace={SHEET: SHEET_OPEN.encode() + b"<sheetData><row><c>"}),
         "not well-formed xml", "a worksheet whose XML is cut off")

    # -- sheets beyond the limits
    case("cell-at-xfd1048576.xlsx", rezip(base, replace={SHEET: sheet_xml(
        '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')}), "max_rows",
         "one cell in the last row and column Excel has")
    case("column-xfd.xlsx", rezip(base, replace={SHEET: sheet_xml('<row r="1"><c r="XFD1"><v>1</v></c></row>')}),
         "max_columns", "one cell in column XFD (16,384)")
    case("dimension-lies.xlsx", rezip(base, replace={SHEET: sheet_xml(
        '<row r="1"><c r="A1"><v>1</v></c></row>', "A1:XFD1048576")}), "declared used range",
         "a tiny sheet declaring a used range of the whole grid")
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(1, 200_001))
    case("rows-200k.xlsx", rezip(base, replace={SHEET: sheet_xml(rows)}), "max_rows", "200,000 rows")
    wide = "<row>" + "<c><v>1</v></c>" * 1_500 + "</row>"
    case("columns-without-r.xlsx", rezip(base, replace={SHEET: sheet_xml(wide)}), "max_columns",
         "1,500 cells in one row with no r attribute")
    columns = [column_letters(c) for c in range(1, 1_001)]
    grid = "".join(f'<row r="{r}">' + "".join(f'<c r="{col}{r}"><v>{r * 7 + c}</v></c>' for c, col in enumerate(columns))
                   + "</row>" for r in range(1, 1_101))
    case("cells-1.1m.xlsx", rezip(base, replace={SHEET: sheet_xml(grid)}), "max_cells",
         "1,100 rows x 1,000 columns = 1.1 million cells")
    merge = sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>').replace(
        b"</worksheet>", b'<mergeCells count="1"><mergeCell ref="A1:ALL100000"/></mergeCells></worksheet>')
    case("merge-bomb.xlsx", rezip(base, replace={SHEET: merge}), "merged range a1:all100000",
         "one merged range of 100 million cells (openpyxl makes an object per cell)")
    links = sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>').replace(
        b"</worksheet>", b'<hyperlinks><hyperlink ref="A1:ALL100000" location="Results!A1"/></hyperlinks></worksheet>')
    case("hyperlink-bomb.xlsx", rezip(base, replace={SHEET: links}), "hyperlink range a1:all100000",
         "one hyperlink over 100 million cells (openpyxl makes every one)")
    far_link = sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>').replace(
        b"</worksheet>", b'<hyperlinks><hyperlink ref="XFD1048576" location="Results!A1"/></hyperlinks></worksheet>')
    case("hyperlink-far.xlsx", rezip(base, replace={SHEET: far_link}), "max_rows",
         "a hyperlink on XFD1048576 stretching the sheet to Excel's grid")
    comments = (b'<?xml version="1.0"?><comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                b'<authors><author>x</author></authors><commentList><comment ref="XFD1048576" authorId="0">'
                b'<text><t>far</t></text></comment></commentList></comments>')
    sheet_rels = (b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                  b'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
                  b'2006/relationships/comments" Target="../comments1.xml"/></Relationships>')
    case("comment-far.xlsx", rezip(base, add={"xl/comments1.xml": comments,
                                              "xl/worksheets/_rels/sheet1.xml.rels": sheet_rels}),
         "comments part xl/comments1.xml reaches row 1,048,576", "a comment on XFD1048576")
    with zipfile.ZipFile(io.BytesIO(base)) as archive:
        styles, workbook = archive.read("xl/styles.xml").decode(), archive.read("xl/workbook.xml").decode()
    many = 120_000  # varied, so that the part stays under the ratio limit and reaches the parser
    xfs = "".join(f'<xf numFmtId="{i % 50}" fontId="0" fillId="0" borderId="0" applyNumberFormat="{i}"/>'
                  for i in range(many))
    start = styles.index("<cellXfs")
    start = styles.index(">", start) + 1
    case("styles-bomb.xlsx", rezip(base, replace={"xl/styles.xml": (styles[:start] + xfs + styles[start:]).encode()}),
         "max_records", "120,000 cell formats in 2 MB (openpyxl: ~2 KB and 25 us each)")
    names = "".join(f'<definedName name="n{i}">Results!$A${i % 999 + 1}</definedName>' for i in range(many))
    case("names-bomb.xlsx", rezip(base, replace={"xl/workbook.xml": workbook.replace(
        "</sheets>", f"</sheets><definedNames>{names}</definedNames>").encode()}), "max_records",
         "120,000 defined names")
    checks = "".join(f'<dataValidation type="whole" sqref="A{i % 999 + 1}"><formula1>{i}</formula1></dataValidation>'
                     for i in range(many))
    case("validations-bomb.xlsx", rezip(base, replace={SHEET: sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>')
                                                      .replace(b"</worksheet>", f"<dataValidations>{checks}"
                                                               f"</dataValidations></worksheet>".encode())}),
         "max_records", "120,000 data validations")
    huge_string = ('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   f'count="1" uniqueCount="1"><si><t>{"x" * 40_000}</t></si></sst>').encode()
    case("huge-shared-string.xlsx", rezip(base, add={"xl/sharedStrings.xml": huge_string}), "max_text_chars",
         "a 40,000-character shared string (Excel's limit is 32,767)")
    return cases


def outcomes(cases: list[HostileCase]) -> list[tuple[str, str, float, str]]:
    """(name, attack, seconds, what load_workbook said) for each case: the corpus's closing table."""
    import time

    from xlrating.gate.limits import Limits
    from xlrating.gate.safe_open import UnreadableWorkbook, load_workbook

    table = []
    for c in cases:
        started = time.monotonic()
        try:
            load_workbook(c.path, limits=Limits.from_env(c.env))
            said = "OPENED (not refused)"
        except UnreadableWorkbook as refused:
            said = refused.reason
        table.append((c.name, c.attack, time.monotonic() - started, said))
    return table


if __name__ == "__main__":
    # python tests/safety/make_hostile_corpus.py OUT [--outcomes]
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-corpus")
    built = build(target)
    if "--outcomes" in sys.argv:
        for name, attack, seconds, said in outcomes(built):
            print(f"{name} | {attack} | {seconds:.2f} s | {said}")
    else:
        for c in built:
            print(f"{c.name:28} exit 2, '{c.fragment}'  <- {c.attack}")
