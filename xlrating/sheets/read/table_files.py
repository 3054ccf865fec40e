"""Result tables from files: ``.csv`` (comma or semicolon separated, UTF-8) or a worksheet of an
``.xlsx``/``.xlsm``, ``.xls`` or ``.ods`` workbook. The table starts at its first non-empty row (the
header)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlrating.core.tables import is_blank
from xlrating.gate.limits import Limits
from xlrating.gate.safe_open import UnreadableWorkbook, load_workbook, read_bytes, reading
from xlrating.sheets.read.csv_grid import bounded_rows, csv_text, delimiter_of

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
CALAMINE_SUFFIXES = (".xls", ".ods")


@dataclass
class TableSource:
    """Rows of a table read from a file, with where they came from (for error messages)."""

    name: str  # the path as given ("data/file.csv") or, for a workbook, with its sheet ("file.xlsx [Sheet1]")
    header_row: int
    rows: list[list[Any]]


def read_table_file(path: str | Path, *, sheet: str | None = None) -> TableSource:
    """Read the table in ``path``; raises :class:`UnreadableWorkbook` naming the file (as ``path``
    gives it, so messages name it as the user typed it) and the reason."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise UnreadableWorkbook(path, f"--sheet {_quoted(sheet)} names a worksheet, but a .csv file has none")
        return read_csv(path)
    if suffix in WORKBOOK_SUFFIXES:
        return _from_workbook(path, sheet)
    if suffix in CALAMINE_SUFFIXES:
        return _from_calamine(path, sheet)
    raise UnreadableWorkbook(path, f"expected a .csv, .xlsx, .xlsm, .xls or .ods file, got "
                                   f"{suffix or 'no extension'!r}")


def read_csv(file: str | Path) -> TableSource:
    """A CSV table: UTF-8 (BOM allowed), comma or semicolon separated, through safe_open's file checks
    and the bounded reading of every CSV (:func:`xlrating.sheets.read.csv_grid.bounded_rows`: the
    limits of :class:`~xlrating.gate.limits.Limits`, a line handed to csv at a time)."""
    try:
        limits = Limits.from_env()
    except ValueError as exc:
        raise UnreadableWorkbook(file, str(exc)) from None
    data = read_bytes(file, limits)  # the size limit and the refusal of pipes and devices apply to CSV too
    from xlrating.sheets.read.submitted import refuse_other_content

    refuse_other_content(file, data, "csv")  # a workbook named .csv, a PDF...: what it is, as validate says
    text = csv_text(file, data)  # UTF-8, UTF-16 with a BOM or Windows-1252, as validate and ingest read it
    del data
    rows = list(bounded_rows(file, text, delimiter_of(text, (",", ";")), limits))
    return _trimmed(str(file), rows)


def _from_workbook(file: str | Path, sheet: str | None) -> TableSource:
    book = load_workbook(file, read_only=True, data_only=True)
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise UnreadableWorkbook(file, f"no sheet named {_quoted(sheet)}; sheets: "
                                           f"{', '.join(map(_quoted, book.sheetnames))}")
        with reading(file):  # a read-only sheet is parsed while its rows are iterated
            rows = [list(r) for r in ws.iter_rows(values_only=True)]
        return _trimmed(f"{file} [{ws.title}]", rows)
    finally:
        book.close()


def _from_calamine(file: str | Path, sheet: str | None) -> TableSource:
    """An .xls or .ods workbook, read as a submission of that format is (the same checks and limits,
    :mod:`~xlrating.sheets.read.submitted`)."""
    from xlrating.sheets.read.submitted import open_submission, read_grids

    grids = read_grids(open_submission(file))
    names = [g.name for g in grids]
    if not grids:
        raise UnreadableWorkbook(file, "the workbook has no sheets")
    if sheet is not None and sheet not in names:
        raise UnreadableWorkbook(file, f"no sheet named {_quoted(sheet)}; sheets: {', '.join(map(_quoted, names))}")
    grid = grids[names.index(sheet)] if sheet is not None else grids[0]
    return _trimmed(f"{file} [{grid.name}]", grid.rows)


def _trimmed(name: str, rows: Sequence[list[Any]]) -> TableSource:
    for row in rows:  # text in Unicode's composed form (NFC), as every reader gives it
        for i, value in enumerate(row):
            if isinstance(value, str) and not unicodedata.is_normalized("NFC", value):
                row[i] = unicodedata.normalize("NFC", value)
    for index, row in enumerate(rows):
        if not all(is_blank(c) for c in row):
            return TableSource(name, index + 1, list(rows[index:]))
    return TableSource(name, 1, [])


def _quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut after ``limit`` characters (a name in a message, not its content)."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"
