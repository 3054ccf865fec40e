"""What a file is, judged from its bytes: the first check on a submitted workbook.

Used by :mod:`xlrating.gate.package_guard` before the zip is opened, so that a file that is
not a zip at all gets a message saying what it is instead ("an old .xls", "a CSV file", ...).
"""

from __future__ import annotations

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"


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
    return _text_kind(data) or ("not an .xlsx workbook: unrecognised content starting with bytes "
                                + data[:8].hex(" "))


def _ole2_kind(data: bytes) -> str:
    # OLE2 directory entries store stream names in UTF-16LE; an encrypted OOXML file has the
    # EncryptionInfo and EncryptedPackage streams ([MS-OFFCRYPTO] 2.3.4), a .xls has Workbook/Book.
    def has(name: str) -> bool:
        return name.encode("utf-16-le") in data

    if has("EncryptedPackage") and has("EncryptionInfo"):
        return ("an encrypted (password-protected) workbook; remove the password in Excel "
                "(File > Info > Protect Workbook) and save it again as .xlsx")
    if has("Workbook") or has("Book"):
        return "an old Excel 97-2003 .xls workbook; open it in Excel or LibreOffice and save it as .xlsx"
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
