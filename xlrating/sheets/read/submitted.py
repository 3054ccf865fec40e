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

from xlrating.gate.file_kinds import OLE2_MAGIC, ZIP_MAGIC, sniff
from xlrating.gate.limits import Limits
from xlrating.gate.safe_open import UnreadableWorkbook, read_bytes, read_package
from xlrating.sheets.read.xlsx import SheetGrid, read_workbook

SUFFIX_KINDS = {".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls", ".ods": "ods", ".csv": "csv"}
KIND_TITLES = {"xlsx": "an .xlsx workbook (Office Open XML)", "xls": "an old Excel 97-2003 .xls workbook",
               "ods": "an OpenDocument spreadsheet (.ods)", "csv": "a text file (CSV or similar)"}


@dataclass(frozen=True)
class SubmittedFile:
    """The bytes received (what ingest stores, unchanged) and the format they were read as."""

    path: str
    data: bytes
    kind: str  # "xlsx" (also .xlsm), "xls", "ods" or "csv"
    limits: Limits


def content_kind(data: bytes) -> str | None:
    """The accepted format ``data`` is ("xlsx", "xls", "ods", "csv"; "zip" for a zip too damaged to
    tell), or None for anything else
    (empty, encrypted, random bytes, HTML...: :func:`~xlrating.gate.file_kinds.sniff` says what)."""
    if data.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                if "mimetype" in archive.namelist():
                    info = archive.getinfo("mimetype")
                    if info.file_size < 200 and archive.read(info).startswith(
                            b"application/vnd.oasis.opendocument.spreadsheet"):
                        return "ods"
        except Exception:  # noqa: BLE001 - a damaged zip: the reader of the named format names the damage
            return "zip"
        return "xlsx"
    reason = sniff(data)
    if data.startswith(OLE2_MAGIC):
        return "xls" if reason is not None and "97-2003 .xls" in reason else None
    if reason is not None and reason.startswith("a text file (CSV"):
        return "csv"
    return None


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
    if kind is None:
        raise UnreadableWorkbook(path, _not_readable(data, named))
    if named is not None and named != kind:
        raise UnreadableWorkbook(path, f"{KIND_TITLES[kind]} named {Path(path).suffix}; its content is not "
                                       f"what the name says: save it again in one format and name it so")
    return SubmittedFile(str(path), data, kind, limits)


def _not_readable(data: bytes, named: str | None) -> str:
    reason = sniff(data) or "not a workbook"
    if named in ("xls", "ods", "csv"):  # sniff() words its reasons for a file named .xlsx
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
