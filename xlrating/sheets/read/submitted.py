"""A submitted results file of any accepted format, read once and checked, and its grids.

Accepted: .xlsx/.xlsm (openpyxl, :mod:`xlrating.sheets.read.xlsx`), .xls and .ods (calamine,
:mod:`xlrating.sheets.read.calamine`) and .csv (:mod:`xlrating.sheets.read.csv_grid`), all read
into the same :class:`~xlrating.sheets.read.xlsx.SheetGrid` values so the validator is one.

The format is judged from the bytes (:func:`content_kind`), and the name must agree with them: a
file named .xlsx/.xlsm must be an Office Open XML package, .xls an Excel 97-2003 (OLE2) workbook,
.ods an OpenDocument spreadsheet, .csv text. A file whose content is another format than its
name says (a disguised file) is refused with a sentence naming what it is, as are damaged,
encrypted and oversized files. A name with none of these extensions is read by its content
(text as CSV). Every format has the size limit (``max_file_bytes``); each reader applies the
other limits before it builds anything it cannot bound.
"""

from __future__ import annotations

import io
import os
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from xlrating.gate.file_kinds import NOT_SPREADSHEET, OLE2_MAGIC, ZIP_MAGIC, package_kind, sniff
from xlrating.gate.limits import Limits
from xlrating.gate.safe_open import UnreadableWorkbook, read_bytes, read_package
from xlrating.sheets.read.xlsx import SheetGrid, read_workbook

SUFFIX_KINDS = {".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls", ".ods": "ods", ".csv": "csv"}
KIND_TITLES = {"xlsx": "an Excel workbook (.xlsx)", "xls": "an old Excel 97-2003 .xls workbook",
               "ods": "an OpenDocument spreadsheet (.ods)", "csv": "a text file (CSV or similar)"}
KIND_SUFFIXES = {"xlsx": ".xlsx", "xls": ".xls", "ods": ".ods", "csv": ".csv"}


@dataclass(frozen=True)
class SubmittedFile:
    """The bytes received (what ingest stores, unchanged) and the format they were read as."""

    path: str
    data: bytes
    kind: str  # "xlsx" (also .xlsm), "xls", "ods" or "csv"
    limits: Limits


def content_kind(data: bytes) -> str | None:
    """The accepted format ``data`` is ("xlsx", "xls", "ods", "csv"; "zip" for a zip too damaged to
    tell), or None for anything else (:func:`what_it_is` says what)."""
    return _judged(data)[0]


def what_it_is(data: bytes) -> str:
    """What ``data`` is when it is none of the accepted formats, in a sentence (for a file named
    .xlsx: :func:`~xlrating.gate.file_kinds.sniff` and the package's parts say what)."""
    return _judged(data)[1] or "not a workbook"


def _judged(data: bytes) -> tuple[str | None, str | None]:
    """The accepted format of ``data`` (or None) and, when None, what it is instead."""
    if data.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = archive.namelist()
                mimetype = b""
                if "mimetype" in names:
                    info = archive.getinfo("mimetype")
                    mimetype = archive.read(info)[:100] if info.file_size < 200 else b""
        except Exception:  # noqa: BLE001 - a damaged zip: the reader of the named format names the damage
            return "zip", None
        if mimetype.startswith(b"application/vnd.oasis.opendocument.spreadsheet"):
            return "ods", None
        reason = package_kind(names, mimetype)
        if reason is None or reason.startswith("a zip archive but not an Office Open XML"):
            return "xlsx", None  # a workbook, damaged or not: the .xlsx reader names the damage
        return None, reason
    reason = sniff(data)
    if data.startswith(OLE2_MAGIC):
        return ("xls", None) if reason is not None and "97-2003 .xls" in reason else (None, reason)
    if reason is not None and reason.startswith("a text file (CSV"):
        return "csv", None
    return None, reason


def open_submission(path: str | os.PathLike[str], limits: Limits | None = None,
                    data: bytes | None = None) -> SubmittedFile:
    """Read ``path`` once (or take its ``data`` already read), judge its format and, for an
    .xlsx, run the package checks; raises :class:`UnreadableWorkbook`."""
    try:
        limits = limits or Limits.from_env()
    except ValueError as exc:
        raise UnreadableWorkbook(path, str(exc)) from None
    named = SUFFIX_KINDS.get(Path(path).suffix.lower())
    if named == "xlsx" and data is None:
        return SubmittedFile(str(path), read_package(path, limits)[0], "xlsx", limits)
    if data is None:
        data = read_bytes(path, limits)
    kind = content_kind(data)
    if kind == "zip":  # a zip too damaged to say which package it is: as named
        kind = "ods" if named == "ods" else "xlsx"
    if named == "xlsx" or (named is None and kind == "xlsx"):
        from xlrating.gate.package_guard import Refused, check_package

        try:
            check_package(data, limits)
        except Refused as refused:
            raise UnreadableWorkbook(path, refused.reason) from None
        return SubmittedFile(str(path), data, "xlsx", limits)
    if kind in (None, "csv"):  # another program's XML or JSON: say what it is and what reads it
        from xlrating.sheets.formats.recognise import explain, recognise_text

        foreign = recognise_text(data, limits)
        if foreign is not None:
            raise UnreadableWorkbook(path, explain(foreign, os.fspath(path)))
    if kind is None:
        raise UnreadableWorkbook(path, _not_readable(data, named))
    if named is not None and named != kind:
        raise UnreadableWorkbook(path, misnamed(path, kind))
    return SubmittedFile(str(path), data, kind, limits)


def refuse_other_content(path: str | os.PathLike[str], data: bytes, named: str) -> None:
    """Raise :class:`UnreadableWorkbook` when ``data``, read from a file named as the ``named``
    format, is recognisably something else: another format xlrating reads (a renamed file) or
    another kind of file altogether (a PDF, an image, a Word document...). Bytes it cannot tell
    are left to the reader of the named format, whose message is more precise."""
    kind, reason = _judged(data)
    if kind == "zip":
        kind = "xlsx"
    if kind is not None and kind != named:
        raise UnreadableWorkbook(path, misnamed(path, kind))
    if kind is None and reason is not None and NOT_SPREADSHEET in reason:
        raise UnreadableWorkbook(path, reason)


def misnamed(path: str | os.PathLike[str], kind: str) -> str:
    """A file of the accepted format ``kind`` named as another: what it is, and to rename it (renaming
    a file does not convert it)."""
    name = Path(path)
    right = KIND_SUFFIXES[kind]
    return (f"{KIND_TITLES[kind]} named {name.suffix}; rename it {name.stem}{right} (xlrating reads {right} "
            f"files too) or give the {right} file itself: renaming a file does not convert it")


def _not_readable(data: bytes, named: str | None) -> str:
    reason = what_it_is(data)
    if named in ("xls", "ods", "csv") and NOT_SPREADSHEET not in reason:
        # sniff() words its reasons for a file named .xlsx
        reason = reason.removeprefix("not an .xlsx workbook: ").replace(", not an .xlsx workbook", "")
        return f"not {KIND_TITLES[named]}: {reason}"
    return reason


def read_grids(submission: SubmittedFile) -> list[SheetGrid]:
    """Every sheet of the submission, the same for every format (see the modules named above), its
    text in Unicode's composed form (NFC): a name typed composed on Windows and decomposed on a Mac
    reads alike."""
    if submission.kind == "xlsx":
        return composed(read_workbook(submission.path, checked=submission.data))
    if submission.kind == "csv":
        from xlrating.sheets.read.csv_grid import read_csv_grid

        return read_csv_grid(submission.path, submission.data, submission.limits)  # composed as decoded
    from xlrating.sheets.read.calamine import read_calamine

    return composed(read_calamine(submission.path, submission.data, submission.kind, submission.limits))


def composed(grids: list[SheetGrid]) -> list[SheetGrid]:
    """The grids with every text in NFC (in place)."""
    for grid in grids:
        for cells in grid.rows:
            for i, value in enumerate(cells):
                if isinstance(value, str) and not unicodedata.is_normalized("NFC", value):
                    cells[i] = unicodedata.normalize("NFC", value)
    return grids
