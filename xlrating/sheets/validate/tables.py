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

from xlrating.core.errors import AmbiguousDate, InvalidArgument
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
    sheet row and ``_bad`` the names of the columns whose cells were reported (a frozenset: one
    shared empty set for the many rows without a bad cell; :func:`mark_bad` adds a name)."""
    kinds = {**PARSERS, **(parsers or {})}
    grid = layout.grid
    absent = dict.fromkeys(c.name for c in columns)
    present = [(c, layout.columns[c.name] - 1, layout.headers[c.name], kinds[c.kind]) for c in columns
               if c.name in layout.columns]
    # Each column's parsed values by the cell's type and value: a long table repeats its names, dates
    # and events on row after row (a bad value is not kept: each of its cells is a finding).
    parsed: list[dict[tuple[type, Any], Any]] = [{} for _ in present]
    records = []
    for row in range(layout.header_row + 1, grid.max_row + 1):
        cells = grid.rows[row - 1]
        if all(is_blank(c) for c in cells):
            continue
        record: dict[str, Any] = {"_row": row, "_bad": NONE_BAD, **absent}
        for (column, index, header, parse), known in zip(present, parsed):
            value = cells[index] if index < len(cells) else None
            if value is None and grid.formulas:
                value = out.read(grid, row, index + 1)  # a formula without a stored value: a finding
            if value is UNREAD:
                mark_bad(record, column.name)
            elif is_blank(value):
                if column.required:
                    out.add("TABLE_VALUE_MISSING", grid.name, row, index + 1, header=header,
                            expected=EXPECTED[column.kind])
                    mark_bad(record, column.name)
            else:
                key = (type(value), value)  # 1, 1.0 and True are equal keys but not one cell
                try:
                    record[column.name] = known[key]
                    continue
                except KeyError:
                    pass
                try:
                    record[column.name] = known[key] = parse(column.name, value)
                except AmbiguousDate as ambiguous:  # 01/02/2009: the dates it could be, not "not a real date"
                    out.add("TABLE_DATE_AMBIGUOUS", grid.name, row, index + 1, header=header, value=value,
                            why=ambiguous.why)
                    mark_bad(record, column.name)
                except InvalidArgument:
                    out.add(KIND_CODES[column.kind], grid.name, row, index + 1, header=header, value=value,
                            expected=EXPECTED[column.kind], tiers=_tier_names())
                    mark_bad(record, column.name)
                if len(known) > _PARSED_VALUES:
                    known.clear()
        records.append(record)
    return records


_PARSED_VALUES = 1 << 16  # values one column keeps parsed at most
NONE_BAD: frozenset[str] = frozenset()


def mark_bad(record: dict[str, Any], column: str) -> None:
    """Note that ``column``'s cell on the record's row was reported (no other rule reports it again)."""
    record["_bad"] = record["_bad"] | {column}


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
