"""Result tables: a header row plus data rows, as read from a CSV file, a worksheet or an Excel
range, turned into typed values.

Headers match case-insensitively, with spaces, dashes and underscores treated alike
("World Championship" is ``world_championship``); optional columns may be absent; extra columns are
ignored. Blank rows are skipped. Errors are :class:`TableError` naming the row (the header is row 1,
as a spreadsheet numbers it when the table starts at the top) and the column.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.core import checks
from xlrating.core.countries import is_country
from xlrating.core.dates import as_date
from xlrating.core.errors import InvalidArgument, TableError

Parser = Callable[[str, Any], Any]


def _text(name: str, value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if not unicodedata.is_normalized("NFC", text):  # one spelling of "Dóra", however it was typed
        text = unicodedata.normalize("NFC", text)
    if not text:
        raise InvalidArgument(name, "a non-empty text", value)
    return text


def _country(name: str, value: Any) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not is_country(text):
        raise InvalidArgument(name, "a country's code (e.g. FRA) or name", value)
    return " ".join(text.split())


def _whole_positive(name: str, value: Any) -> int:
    return checks.whole(name, _numeric(name, value), minimum=1)


def number_from_text(value: Any) -> Any:
    """A number typed as text (CSV cells, text cells in Excel) read as that number (``"3"`` -> 3,
    ``"2.5"`` -> 2.5); any other value is returned as it is."""
    if isinstance(value, str):
        text = value.strip()
        if _NUMBER_TEXT.fullmatch(text):
            return float(text) if any(c in text for c in ".eE") else int(text)
        return value
    return value


# What a spreadsheet reads as a number: sign, digits, decimal point, exponent (no "1_000", no "inf").
_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _numeric(name: str, value: Any) -> Any:
    number = number_from_text(value)
    if isinstance(number, str):
        raise InvalidArgument(name, "a number", value)
    return number


def _number(name: str, value: Any) -> float:
    return checks.number(name, _numeric(name, value))


PARSERS: dict[str, Parser] = {
    "text": _text,
    "date": as_date,
    "whole": _whole_positive,
    "number": _number,
    "score": _number,  # a tournament score: any number (its own kind, so a bad one is not called a K-value)
    "flag": checks.flag,
    "country": _country,  # a player's nationality (see is_country), as written, spaces tidied
}


@dataclass(frozen=True)
class Column:
    """One column of a result table: its header, how cells are read, and whether it must exist."""

    name: str
    kind: str
    required: bool = True
    aliases: tuple[str, ...] = ()


def normalise_header(header: Any) -> str:
    """Header text reduced for matching: lower case, runs of space/dash/underscore as ``_``."""
    return re.sub(r"[\s_\-]+", "_", str(header if header is not None else "").strip().lower())


def is_blank(value: Any) -> bool:
    """An empty cell: ``None``, empty text, or NaN (what some readers give for an empty cell)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    return isinstance(value, float) and math.isnan(value)


def read_table(
    rows: Iterable[Sequence[Any]],
    columns: Sequence[Column],
    *,
    header_row: int = 1,
    parsers: dict[str, Parser] | None = None,
) -> list[dict[str, Any]]:
    """Read a table (header first) into one dict per non-blank data row.

    Each dict maps column names to parsed values, ``None`` for an optional column that is absent or
    empty, and carries its source row number under the key ``"_row"``.
    """
    kinds = {**PARSERS, **(parsers or {})}
    iterator = iter(rows)
    try:
        header = list(next(iterator))
    except StopIteration:
        raise TableError(header_row, None, "a header row naming the columns " + _names(columns)) from None

    # A title or notes above the table are skipped: the header is the first of the top rows that
    # names every required column. When none does, the row naming the most of them is reported.
    closest = (header_row, header)
    for _ in range(HEADER_SEARCH_ROWS):
        if _missing_column(header, columns) is None:
            break
        if len(_positions(header, columns)) > len(_positions(closest[1], columns)):
            closest = (header_row, header)
        try:
            header, header_row = list(next(iterator)), header_row + 1
        except StopIteration:
            break
    if _missing_column(header, columns) is not None:
        missing = _missing_column(closest[1], columns)
        assert missing is not None
        raise TableError(closest[0], missing.name, "a column headed " + repr(missing.name),
                         _header_text(closest[1]))
    position = _positions(header, columns)

    # Result tables repeat the same dates, names and codes on many rows: parse each distinct cell
    # value once per column.
    plan: list[tuple[str, int | None, bool, Parser, dict[Any, Any]]] = [
        (column.name, position.get(column.name), column.required, kinds[column.kind], {}) for column in columns]
    records: list[dict[str, Any]] = []
    for offset, row in enumerate(iterator, start=1):
        row_number = header_row + offset
        cells = list(row)
        if all(is_blank(c) for c in cells):
            continue
        record: dict[str, Any] = {"_row": row_number}
        for name, index, required, parse, memo in plan:
            value = cells[index] if index is not None and index < len(cells) else None
            cell_type = type(value)
            # Key numbers by type too: True == 1 == 1.0 would otherwise share one entry.
            key: Any = value if cell_type is str else (
                (cell_type, value) if cell_type is int or cell_type is float else None)
            if key is not None and key in memo:
                record[name] = memo[key]
                continue
            if is_blank(value):
                if required:
                    raise TableError(row_number, name, "a value", None)
                record[name] = None
                continue
            try:
                parsed = parse(name, value)
            except InvalidArgument as err:
                raise TableError(row_number, name, err.expected, value, note=err.note) from None
            record[name] = parsed
            if key is not None:
                memo[key] = parsed
        records.append(record)
    return records


HEADER_SEARCH_ROWS = 10


def _positions(header: Sequence[Any], columns: Sequence[Column]) -> dict[str, int]:
    """Column name -> index in ``header`` for the columns the header names (aliases included)."""
    normalised = [normalise_header(h) for h in header]
    position: dict[str, int] = {}
    for column in columns:
        for candidate in (column.name, *column.aliases):
            wanted = normalise_header(candidate)
            if wanted in normalised:
                position[column.name] = normalised.index(wanted)
                break
    return position


def _missing_column(header: Sequence[Any], columns: Sequence[Column]) -> Column | None:
    """The first required column ``header`` does not name, or None."""
    found = _positions(header, columns)
    return next((c for c in columns if c.required and c.name not in found), None)


def _names(columns: Sequence[Column]) -> str:
    return ", ".join(c.name for c in columns if c.required)


HEADER_TEXT_CHARS = 40
"""Characters of one header cell shown in a message (a header cell can hold 32,767)."""
HEADER_TEXT_CELLS = 30
"""Header cells shown in a message; the rest are counted."""


def _header_text(header: Sequence[Any]) -> str:
    """The header as a message shows it: each cell cut to :data:`HEADER_TEXT_CHARS`, at most
    :data:`HEADER_TEXT_CELLS` cells (a huge header must not become a huge message)."""
    cells = [str(h) for h in header if not is_blank(h)]
    shown = [c if len(c) <= HEADER_TEXT_CHARS else c[:HEADER_TEXT_CHARS - 3] + "..." for c in cells[:HEADER_TEXT_CELLS]]
    more = len(cells) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more else "") if cells else "(empty header row)"
