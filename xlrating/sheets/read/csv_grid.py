"""Read a .csv submission: one sheet, the same grid as the template's results sheet.

Layout: the CSV is the results sheet cell for cell (line N is row N, field M is column M), as
Excel or LibreOffice write it with File > Save As > CSV: the tournament block, the blank line and
the results table where the template has them. A workbook whose tournament data sits on another
sheet cannot be one CSV; its CSV holds the results sheet only. The sheet takes the file's name
without its extension, as Excel and LibreOffice name the sheet of an opened CSV.

Values are typed the way LibreOffice's CSV import types them (its defaults, with dates in ISO
form), so the grid holds what the .xlsx of the same sheet holds:

- an empty field is an empty cell;
- a plain number (``24``, ``-2``, ``1.5``, ``2.0``; with ``;`` separators also ``1,5``) is a
  number, an ``int`` when whole, as openpyxl reads a number from an .xlsx;
- digits with a leading zero (``05378104``) stay text: a number could not show that zero, so the
  text is what the file says (LibreOffice would drop the zero; an EMA ID is text in the template);
- ``2025-01-18`` (or with a time, ``2025-01-18 13:30:00``) is a date;
- ``TRUE``/``FALSE`` are booleans; everything else is text, never a formula.

Encoding: UTF-8 (a BOM allowed), UTF-16 with a BOM, else Windows-1252 (Excel's "CSV" on
Windows); text holding a NUL character (binary, UTF-32...) is refused. A file that is UTF-8 but for
some bytes (a name typed in another program, pasted in) is read as UTF-8, never re-decoded whole: each
byte that is not UTF-8 reads as U+FFFD, the grid says so (:attr:`SheetGrid.not_utf8`) and the
validator reports each such cell (``TEXT_NOT_UTF8``); ``rank`` refuses the file, naming the line and
column. Text is kept in Unicode's composed form (NFC): "Dóra" typed on Windows and on a Mac is one
name. Separator: ``,``, ``;`` or
a tab, whichever the first lines use most.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from xlrating.gate.limits import Limits, describe
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.read.xlsx import SheetGrid

_INTEGER = re.compile(r"[+-]?(0|[1-9][0-9]*)")
_DECIMAL = re.compile(r"[+-]?(0|[1-9][0-9]*)?[.][0-9]+([eE][+-]?[0-9]+)?|[+-]?(0|[1-9][0-9]*)[eE][+-]?[0-9]+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?")
_SHEET_NAME_CHARS = re.compile(r"[\[\]:*?/\\]")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")  # how a file opened with newline="" splits its lines
_UNSEEN = object()
# The separators one row may hold, whatever the cells of the whole table: no table's row holds a
# million (a thousand columns of texts holding a thousand commas each).
ROW_SEPARATORS = 1_000_000
_SEEN_VALUES = 1 << 16  # texts whose values one read keeps at most (a column of unique texts keeps no more)


def read_csv_grid(path: str | os.PathLike[str], data: bytes, limits: Limits) -> list[SheetGrid]:
    """The CSV ``data`` read from ``path`` as one SheetGrid, or :class:`UnreadableWorkbook`."""
    text, not_utf8 = decoded(path, data)
    delimiter = delimiter_of(text)
    name = _SHEET_NAME_CHARS.sub("_", Path(path).stem)[:31] or "Sheet1"
    grid = SheetGrid(name, not_utf8=bool(not_utf8))
    # A field's value, by its text: a table repeats its names, dates and events on row after row,
    # and one value kept for each text read is both faster and a fraction of the memory of one per
    # cell (a federation's history has hundreds of thousands of rows). The values are immutable.
    seen: dict[str, Any] = {}
    for fields in bounded_rows(path, text, delimiter, limits):
        row = []
        for f in fields:
            value = seen.get(f, _UNSEEN)
            if value is _UNSEEN:
                if len(seen) >= _SEEN_VALUES:
                    seen.clear()
                value = seen[f] = _value(f, delimiter)
            row.append(value)
        while row and row[-1] is None:
            row.pop()
        grid.rows.append(row)
    while grid.rows and not grid.rows[-1]:
        grid.rows.pop()
    return [grid]


def bounded_rows(path: str | os.PathLike[str], text: str, delimiter: str, limits: Limits) -> Iterator[list[str]]:
    """The rows of the CSV ``text`` as :func:`csv.reader` splits them, each refused as soon as it
    breaks a limit, naming it (:class:`UnreadableWorkbook` for ``path``): more than ``max_rows``
    rows, ``max_columns`` fields in a row, ``max_text_chars`` characters in a field, ``max_cells``
    fields in all (blank fields at the end of a row aside), or a row of more separators than
    ``max_cells`` (refused before csv builds it: see :class:`_Lines`). The text is handed to csv a
    line at a time, never copied whole. Every CSV reader of xlrating reads through here."""
    cells = rows = 0
    lines = _Lines(path, text, delimiter, limits)
    try:
        for fields in csv.reader(lines, delimiter=delimiter, strict=False):
            lines.next_row()
            if rows >= limits.max_rows:
                raise UnreadableWorkbook(path, f"the CSV has more than {limits.max_rows:,} lines, over the "
                                               f"limit {describe('max_rows', limits.max_rows)}")
            if len(fields) > limits.max_columns:
                raise UnreadableWorkbook(path, f"line {rows + 1} has {len(fields):,} fields, over "
                                               f"the limit {describe('max_columns', limits.max_columns)}")
            if fields and max(map(len, fields)) > limits.max_text_chars:
                first = next(len(f) for f in fields if len(f) > limits.max_text_chars)
                raise UnreadableWorkbook(path, f"line {rows + 1} has a field of {first:,} characters, "
                                               f"over the limit {describe('max_text_chars', limits.max_text_chars)}")
            used = len(fields)  # blank fields at the end of a row are not cells
            while used and not fields[used - 1].strip():
                used -= 1
            cells += used
            if cells > limits.max_cells:
                raise UnreadableWorkbook(path, f"the CSV has more than {limits.max_cells:,} cells, over the "
                                               f"limit {describe('max_cells', limits.max_cells)}")
            rows += 1
            yield fields
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise UnreadableWorkbook(path, f"line {rows + 1} has a field of more than "
                                           f"{csv.field_size_limit():,} characters, over the limit "
                                           f"{describe('max_text_chars', limits.max_text_chars)}") from None
        raise UnreadableWorkbook(path, f"damaged CSV file (line {rows + 1}: {exc})") from None


class _Lines:
    """The lines of ``text`` for :func:`csv.reader` (ends kept, as a file opened with newline=""),
    one at a time, without copying the text. csv builds a whole row before it returns it, so a row
    of millions of short fields would take gigabytes before its field count could be checked: a
    row whose lines hold more separators than ``max_cells`` (each one a field unless quoted), or
    than :data:`ROW_SEPARATORS` when a long table's ``max_cells`` is higher, is refused before csv
    sees it."""

    def __init__(self, path: str | os.PathLike[str], text: str, delimiter: str, limits: Limits):
        self.path, self.delimiter, self.limits = path, delimiter, limits
        self.lines = _LINE.finditer(text)
        self.most = min(limits.max_cells, ROW_SEPARATORS)
        self.number = 0
        self.next_row()

    def next_row(self) -> None:
        """csv has returned a row: the next line starts the next one."""
        self.first = self.number + 1
        self.separators = 0  # in the lines of the row csv is reading

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self.lines).group()
        if not line:  # the empty match at the end of the text
            raise StopIteration
        self.number += 1
        self.separators += line.count(self.delimiter)
        if self.separators > self.most:
            where = (f"line {self.number:,}" if self.first == self.number
                     else f"the row on lines {self.first:,} to {self.number:,}")
            raise UnreadableWorkbook(self.path, f"{where} holds more than {self.most:,} "
                                                f"{self.delimiter!r} separators, far more fields than the limit "
                                                f"{describe('max_columns', self.limits.max_columns)}")
        return line


def csv_text(path: str | os.PathLike[str], data: bytes) -> str:
    """The text of a CSV file's bytes in the encodings above (every CSV reader's one decoding, so a
    table that validates is a table that ranks), or :class:`UnreadableWorkbook` for binary data, or
    for a UTF-8 file with bytes that are not UTF-8 (naming the first: line and column)."""
    text, not_utf8 = decoded(path, data)
    if not_utf8:
        line, column = not_utf8[0]
        more = f" (and {len(not_utf8) - 1:,} more)" if len(not_utf8) > 1 else ""
        raise UnreadableWorkbook(path, f"line {line}, column {column}: bytes that are not UTF-8{more} in a file "
                                       f"that is otherwise UTF-8 (a name typed in another program?); save it "
                                       f"again as CSV (UTF-8)")
    return text


def decoded(path: str | os.PathLike[str], data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """The text of a CSV file's bytes (composed, NFC) and the (line, column) of each character that
    stands for bytes that were not UTF-8 in a file that otherwise is; :class:`UnreadableWorkbook`
    for binary data."""
    text, not_utf8 = _decode(data)
    if (nul := text.find("\x00")) >= 0:
        raise UnreadableWorkbook(path, f"not a text file (CSV or similar): line {text.count(chr(10), 0, nul) + 1} "
                                       f"holds a NUL character, which text never does; it is binary, or text in "
                                       f"an encoding other than UTF-8, UTF-16 or Windows-1252: save it again as "
                                       f"CSV (UTF-8)")
    positions = []
    if not_utf8:
        for match in re.finditer("\ufffd", text):
            line = text.count("\n", 0, match.start()) + 1
            positions.append((line, match.start() - text.rfind("\n", 0, match.start())))
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text, positions


# A well-formed UTF-8 sequence of two to four bytes: a file holding one is UTF-8, whatever else it holds.
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _decode(data: bytes) -> tuple[str, bool]:
    """The text, and whether it is UTF-8 with some bytes that are not (each read as U+FFFD)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace"), False
    try:
        return data.decode("utf-8-sig"), False
    except UnicodeDecodeError:
        pass
    if _UTF8_SEQUENCE.search(data):  # UTF-8 but for some bytes: never read the whole file otherwise
        return data.decode("utf-8-sig", errors="replace"), True
    return data.decode("cp1252", errors="replace"), False


def delimiter_of(text: str, candidates: tuple[str, ...] = (",", ";", "\t")) -> str:
    """Whichever of ``candidates`` a line near the top of ``text`` (the first 20 non-blank lines of
    its first 64 KiB) uses most; the first of them on a tie or when none is used."""
    lines = [line for line in text[:65536].splitlines()[:20] if line.strip()]
    counts = {d: max((line.count(d) for line in lines), default=0) for d in candidates}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else candidates[0]


def _value(field: str, delimiter: str) -> Any:
    text = field.strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text) if len(text) <= 16 else float(text)  # Excel keeps 15 digits anyway
    number = text.replace(",", ".") if delimiter == ";" and text.count(",") == 1 and "." not in text else text
    if _DECIMAL.fullmatch(number):
        value = float(number)
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if _DATE.fullmatch(text):
        try:
            return dt.datetime.fromisoformat(text)
        except ValueError:
            return field
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    return field
