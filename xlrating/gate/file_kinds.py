"""What a file is, judged from its bytes: the first check on a submitted workbook.

Used by :mod:`xlrating.gate.package_guard` before the zip is opened (and on the zip's list of parts
once it is), and by the readers of the other formats (:mod:`xlrating.sheets.read.submitted`), so
that a file that is not a spreadsheet at all, or not the one its name says, gets a message saying
what it is ("an old .xls", "a PDF document", "a Word document (.docx)", "a zip archive", ...) and
what to do instead.
"""

from __future__ import annotations

from collections.abc import Collection

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
SPREADSHEET_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".csv")
NOT_SPREADSHEET = "not a spreadsheet"  # in every sentence about a file of another kind (a PDF, an image...)

# What each kind of file that is not a spreadsheet is told to do instead.
_DOCUMENT = "save the results as .xlsx or .csv (from the spreadsheet they were typed in) and give that file instead"
_PICTURE = ("a picture of a sheet cannot be read: type the results into a spreadsheet, save it as .xlsx or .csv, "
            "and give that file instead")
_ARCHIVE = "unpack it and give the spreadsheet inside (.xlsx, .xlsm, .xls, .ods or .csv)"

# Files people send instead of their results, by the bytes each format starts with (its signature).
_SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (b"%PDF-", "a PDF document", _DOCUMENT),
    (b"{\\rtf", "an RTF document", _DOCUMENT),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", _PICTURE),
    (b"\xff\xd8\xff", "a JPEG image", _PICTURE),
    (b"GIF87a", "a GIF image", _PICTURE),
    (b"GIF89a", "a GIF image", _PICTURE),
    (b"II*\x00", "a TIFF image", _PICTURE),
    (b"MM\x00*", "a TIFF image", _PICTURE),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", _ARCHIVE),
    (b"Rar!\x1a\x07", "a RAR archive", _ARCHIVE),
    (b"\x1f\x8b", "a gzip-compressed file", _ARCHIVE),
)
_OPENDOCUMENTS = ((b"opendocument.text", "an OpenDocument text document (.odt)"),
                  (b"opendocument.presentation", "an OpenDocument presentation (.odp)"))
_HEIF_BRANDS = (b"heic", b"heix", b"heif", b"mif1", b"msf1", b"hevc")  # a phone's photo (ISO/IEC 23008-12)


def not_spreadsheet(title: str, advice: str) -> str:
    """The sentence for a file of another kind than a spreadsheet: ``a PDF document, not a spreadsheet; ...``."""
    return f"{title}, {NOT_SPREADSHEET}; {advice}"


def sniff(data: bytes) -> str | None:
    """Why ``data`` is not a zip package at all, or ``None`` when it starts like one."""
    if not data:
        return "empty file (0 bytes); nothing to read"
    if data.startswith(ZIP_MAGIC):
        return None
    if data.startswith(EMPTY_ZIP_MAGIC):
        return "an empty zip archive (no parts), not an .xlsx workbook"
    if data.startswith(OLE2_MAGIC):
        return _ole2_kind(data)
    return other_kind(data) or _text_kind(data) or (
        "not an .xlsx workbook: unrecognised content starting with bytes " + data[:8].hex(" "))


def other_kind(data: bytes) -> str | None:
    """What ``data`` is when its first bytes are those of a kind of file that is not a spreadsheet
    (a PDF, an image, an archive other than zip), in a sentence saying what to do; else ``None``."""
    for signature, title, advice in _SIGNATURES:
        if data.startswith(signature):
            return not_spreadsheet(title, advice)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return not_spreadsheet("a WebP image", _PICTURE)
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return not_spreadsheet("a HEIC photo", _PICTURE)
    return None


def package_kind(names: Collection[str], mimetype: bytes = b"") -> str | None:
    """Why a zip archive whose parts are ``names`` (and whose ``mimetype`` part, if any, holds
    ``mimetype``) is not an .xlsx workbook, or ``None`` when its parts are laid out as one."""
    if mimetype.startswith(b"application/vnd.oasis.opendocument"):
        if b"spreadsheet" in mimetype:
            return ("an OpenDocument spreadsheet (.ods), not an .xlsx workbook; save it as .xlsx "
                    "(in LibreOffice: File > Save As > Excel 2007-365)")
        what = next((title for key, title in _OPENDOCUMENTS if key in mimetype), "an OpenDocument document")
        return not_spreadsheet(what, _DOCUMENT)
    if "xl/workbook.bin" in names:
        return "a binary .xlsb workbook; save it from Excel as .xlsx"
    if "word/document.xml" in names:
        return not_spreadsheet("a Word document (.docx)", "copy the results table into a spreadsheet, save it as "
                                                          ".xlsx or .csv, and give that file instead")
    if "ppt/presentation.xml" in names:
        return not_spreadsheet("a PowerPoint presentation (.pptx)", _DOCUMENT)
    if "[Content_Types].xml" not in names:
        if any(name.startswith("xl/") for name in names):
            return "a zip archive but not an Office Open XML package (no [Content_Types].xml part)"
        return _archive(names)
    return None


def _archive(names: Collection[str]) -> str:
    """A zip archive that is no Office package: the spreadsheets it holds, or the files."""
    files = [name for name in names if not name.endswith("/")]
    sheets = [name for name in files if name.lower().endswith(SPREADSHEET_SUFFIXES)]
    if sheets:
        return not_spreadsheet(f"a zip archive holding {_listed(sheets)}",
                               f"unpack it and give {sheets[0] if len(sheets) == 1 else 'each spreadsheet'} itself")
    held = f"a zip archive of {_listed(files)}, {NOT_SPREADSHEET}, and none of its files is one" if files else \
        f"an empty zip archive, {NOT_SPREADSHEET}"
    return f"{held}; save the results as .xlsx or .csv and give that file instead"


def _listed(names: list[str]) -> str:
    shown = [repr(name) if "," in name else name for name in names[:3]]
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    return ", ".join(shown) + more


def _ole2_kind(data: bytes) -> str:
    # OLE2 directory entries store stream names in UTF-16LE; an encrypted OOXML file has the
    # EncryptionInfo and EncryptedPackage streams ([MS-OFFCRYPTO] 2.3.4), a .xls has Workbook/Book,
    # a .doc WordDocument ([MS-DOC] 2.1.1), a .ppt "PowerPoint Document" ([MS-PPT] 2.1.1).
    def has(name: str) -> bool:
        return name.encode("utf-16-le") in data

    if has("EncryptedPackage") and has("EncryptionInfo"):
        return ("an encrypted (password-protected) workbook; remove the password in Excel "
                "(File > Info > Protect Workbook) and save it again as .xlsx")
    if has("Workbook") or has("Book"):
        return "an old Excel 97-2003 .xls workbook; open it in Excel or LibreOffice and save it as .xlsx"
    if has("WordDocument"):
        return not_spreadsheet("a Word 97-2003 document (.doc)", "copy the results table into a spreadsheet, save "
                                                                 "it as .xlsx or .csv, and give that file instead")
    if has("PowerPoint Document"):
        return not_spreadsheet("a PowerPoint 97-2003 presentation (.ppt)", _DOCUMENT)
    return "an Office 97-2003 (OLE2) document, not an .xlsx workbook"


def _text_kind(data: bytes) -> str | None:
    head = data[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", errors="replace").encode("utf-8", errors="replace")
    elif b"\x00" in head:
        return None
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "an HTML page saved with a workbook name, not an .xlsx workbook; save it from Excel as .xlsx"
    if start.startswith(b"<"):
        if b"urn:schemas-microsoft-com:office:spreadsheet" in start:
            return "an Excel 2003 XML spreadsheet, not an .xlsx workbook; save it from Excel as .xlsx"
        return "an XML or HTML text file, not an .xlsx workbook"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # a multi-byte character cut by the 4 KiB window is fine; otherwise text must be
        # Windows-1252, what Excel's and LibreOffice's plain "CSV" save in Western Europe
        if exc.start < len(head) - 4 and not _windows_1252_text(head):
            return None
    return ("a text file (CSV or similar), not an .xlsx workbook; open it in a spreadsheet and "
            "save it as .xlsx, or, if it is a CSV file, name it .csv")


def _windows_1252_text(head: bytes) -> bool:
    """Whether ``head`` reads as Windows-1252 text: every byte a defined character, and no control
    character but tab and line ends."""
    try:
        text = head.decode("cp1252")
    except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D are not characters in it
        return False
    return not any(ch < " " and ch not in "\t\r\n" for ch in text)
