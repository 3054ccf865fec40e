"""Result tables from files: ``.csv`` (comma or semicolon separated, UTF-8) or a worksheet of an
``.xlsx``/``.xlsm`` workbook. The table starts at its first non-empty row (the header)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlrating.core.tables import is_blank
from xlrating.sheets.safe_open import UnreadableWorkbook, load_workbook, read_bytes, reading

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


@dataclass
class TableSource:
    """Rows of a table read from a file, with where they came from (for error messages)."""

    name: str  # "file.csv" or "file.xlsx [Sheet1]"
    header_row: int
    rows: list[list[Any]]


def read_table_file(path: str | Path, *, sheet: str | None = None) -> TableSource:
    """Read the table in ``path``; raises :class:`UnreadableWorkbook` naming the file and reason."""
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise UnreadableWorkbook(file, f"--sheet {sheet!r} names a worksheet, but a .csv file has none")
        return read_csv(file)
    if suffix in WORKBOOK_SUFFIXES:
        return _from_workbook(file, sheet)
    raise UnreadableWorkbook(file, f"expected a .csv, .xlsx or .xlsm file, got {suffix or 'no extension'!r}")


def read_csv(file: Path) -> TableSource:
    """A CSV table: UTF-8 (BOM allowed), comma or semicolon separated, through safe_open's file checks."""
    data = read_bytes(file)  # the size limit and the refusal of pipes and devices apply to CSV too
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableWorkbook(file, f"not UTF-8 text (byte {exc.start}); save the CSV as UTF-8") from None
    delimiter = _delimiter(text)
    rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    return _trimmed(file.name, rows)


def _delimiter(text: str) -> str:
    """``;`` or ``,``: whichever a line near the top uses most (a header names several columns; a
    title above it may hold a stray comma)."""
    lines = [line for line in text.splitlines()[:20] if line.strip()]
    semicolons = max((line.count(";") for line in lines), default=0)
    commas = max((line.count(",") for line in lines), default=0)
    return ";" if semicolons > commas else ","


def _from_workbook(file: Path, sheet: str | None) -> TableSource:
    book = load_workbook(file, read_only=True, data_only=True)
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise UnreadableWorkbook(file, f"no sheet named {sheet!r}; sheets: {', '.join(book.sheetnames)}")
        with reading(file):  # a read-only sheet is parsed while its rows are iterated
            rows = [list(r) for r in ws.iter_rows(values_only=True)]
        return _trimmed(f"{file.name} [{ws.title}]", rows)
    finally:
        book.close()


def _trimmed(name: str, rows: Sequence[list[Any]]) -> TableSource:
    for index, row in enumerate(rows):
        if not all(is_blank(c) for c in row):
            return TableSource(name, index + 1, list(rows[index:]))
    return TableSource(name, 1, [])
