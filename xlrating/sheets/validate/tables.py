"""Finding a Dip Pouch or DCI table in a submission's sheets and reading its cells into findings.

The columns are those of ``xlrating rank`` (:data:`xlrating.core.dippouch.RESULT_COLUMNS`,
:data:`xlrating.core.dci.MATCH_COLUMNS`), matched as it matches them (case-insensitive; spaces,
dashes and underscores alike) and each cell is read by the parser ``rank`` uses, so a table that
validates here gives the same records as ``rank FILE`` reads. The difference: instead of stopping
at the first bad cell, every bad cell is one finding at its cell, naming its column's header.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core.errors import InvalidArgument
from xlrating.core.tables import HEADER_SEARCH_ROWS, PARSERS, Column, is_blank, normalise_header
from xlrating.sheets.read.cells import a1
from xlrating.sheets.read.xlsx import SheetGrid
from xlrating.sheets.validate.findings import UNREAD, Collector

Parser = Callable[[str, Any], Any]

# What a bad value of each kind of column is reported as (the code's template names the expectation).
KIND_CODES = {"date": "TABLE_DATE_INVALID", "whole": "TABLE_WHOLE_INVALID", "flag": "TABLE_FLAG_INVALID",
              "text": "TABLE_TEXT_INVALID", "number": "K_INVALID", "score": "TABLE_NUMBER_INVALID", "result": "RESULT_INVALID",
              "k": "TIER_UNKNOWN", "country": "TABLE_COUNTRY_INVALID"}
EXPECTED = {"date": "a date", "whole": "a whole number >= 1", "text": "a name", "result": "W, D or L",
            "flag": "TRUE or FALSE", "number": "a number", "score": "a number", "k": "a tier",
            "country": "a country"}


@dataclass
class TableLayout:
    """Where a table is: its sheet, header row, and each known column's position and header."""

    grid: SheetGrid
    header_row: int
    columns: dict[str, int]  # column name -> 1-based sheet column
    headers: dict[str, str] = field(default_factory=dict)  # column name -> the header as written

    def cell(self, row: int, name: str) -> str:
        return a1(row, self.columns[name])


def header_positions(header: Sequence[Any], columns: Sequence[Column]) -> dict[str, int]:
    """Column name -> 1-based position in ``header`` for the columns it names (aliases too)."""
    normalised = [normalise_header(h) for h in header]
    found: dict[str, int] = {}
    for column in columns:
        for candidate in (column.name, *column.aliases):
            if normalise_header(candidate) in normalised:
                found[column.name] = normalised.index(normalise_header(candidate)) + 1
                break
    return found


def best_header(grids: list[SheetGrid], columns: Sequence[Column]) -> tuple[int, TableLayout | None]:
    """The header row naming the most required columns among the top rows of each sheet (the first
    such row wins a tie): how many it names, and its layout."""
    required = [c.name for c in columns if c.required]
    best: tuple[int, TableLayout | None] = (0, None)
    for grid in grids:
        top = (r for r in range(1, grid.max_row + 1) if not all(is_blank(c) for c in grid.rows[r - 1]))
        for row in itertools.islice(top, HEADER_SEARCH_ROWS):
            header = grid.rows[row - 1]
            found = header_positions(header, columns)
            named = sum(name in found for name in required)
            if named > best[0]:
                layout = TableLayout(grid, row, found, {n: str(header[p - 1]).strip() for n, p in found.items()})
                best = (named, layout)
    return best


def missing_columns(layout: TableLayout, columns: Sequence[Column]) -> list[str]:
    return [c.name for c in columns if c.required and c.name not in layout.columns]


def read_rows(layout: TableLayout, columns: Sequence[Column], out: Collector,
              parsers: dict[str, Parser] | None = None) -> list[dict[str, Any]]:
    """One record per non-blank row below the header: column name -> parsed value (None when an
    optional column is absent or empty, or when the cell is bad: a finding says so), ``_row`` the
    sheet row and ``_bad`` the names of the columns whose cells were reported."""
    kinds = {**PARSERS, **(parsers or {})}
    grid = layout.grid
    records = []
    for row in range(layout.header_row + 1, grid.max_row + 1):
        cells = grid.rows[row - 1]
        if all(is_blank(c) for c in cells):
            continue
        record: dict[str, Any] = {"_row": row, "_bad": set()}
        for column in columns:
            record[column.name] = None
            position = layout.columns.get(column.name)
            if position is None:
                continue
            value = out.read(grid, row, position)
            header = layout.headers[column.name]
            if value is UNREAD:
                record["_bad"].add(column.name)
            elif is_blank(value):
                if column.required:
                    out.add("TABLE_VALUE_MISSING", grid.name, row, position, header=header,
                            expected=EXPECTED[column.kind])
                    record["_bad"].add(column.name)
            else:
                try:
                    record[column.name] = kinds[column.kind](column.name, value)
                except InvalidArgument:
                    out.add(KIND_CODES[column.kind], grid.name, row, position, header=header, value=value,
                            expected=EXPECTED[column.kind], tiers=_tier_names())
                    record["_bad"].add(column.name)
        records.append(record)
    return records


def _tier_names() -> str:
    from xlrating.core.dci import TIERS

    return ", ".join(f"{name!r} (K {k:g})" for name, k in TIERS)


def report_spellings(layout: TableLayout, out: Collector, records: list[dict[str, Any]], name: str,
                     what: str, code: str = "SPELLING_VARIANT") -> None:
    """A value of column ``name`` spelled two ways (case, accents, punctuation): one finding at the
    first row of each other spelling."""
    from xlrating.core.names import fold

    first: dict[str, tuple[str, int]] = {}
    reported: set[str] = set()
    for rec in records:
        value = rec[name]
        if not isinstance(value, str):
            continue
        seen = first.setdefault(fold(value), (value, rec["_row"]))
        if seen[0] != value and value not in reported:
            reported.add(value)
            out.add(code, layout.grid.name, rec["_row"], layout.columns[name], header=layout.headers[name],
                    value=value, other=seen[0], first=layout.cell(seen[1], name), what=what)
