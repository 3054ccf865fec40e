"""The workbook's cell values, stored column by column for whole-column evaluation.

Each column holds a float array (the number in each row), a kind code per row and a dict for
values that are not numbers (text, booleans, errors). Rows are 1-based; row 0 is unused. Kinds:
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xlrating.excel_errors import ERROR_CODES, ExcelError

# Excel's sheet size: rows 1 to 1,048,576, columns A to XFD
MAX_ROW = 1_048_576
MAX_COL = 16_384

EMPTY, NUMBER, TEXT, BOOL, ERROR = 0, 1, 2, 3, 4

# error code <-> small integer for the vectorised path (0 means no error)
ERROR_INDEX = {code: i + 1 for i, code in enumerate(ERROR_CODES)}
ERROR_BY_INDEX = {i: code for code, i in ERROR_INDEX.items()}


@dataclass(frozen=True)
class NotComputed(ExcelError):
    """A formula cell the engine could not compute, with the reason (``where``: the cell it depends on
    that was not computed, or the cell itself). It is written without a cached value, so Excel and
    LibreOffice compute it on open; a formula reading it is not computed either, never given a value
    made up from it."""

    code: str = "#N/A"
    reason: str = ""


class CellFailure(Exception):
    """A formula the engine cannot evaluate; the message says why (the cell is then left
    :class:`NotComputed` with it)."""


@dataclass(frozen=True)
class InCircle(ExcelError):
    """While computing: a cell in a circular reference Excel does not iterate, or one reading such a
    cell. Excel leaves these cells uncalculated and shows 0; the engine turns them into 0 once every
    other cell is computed, so that nothing reading them computes a value Excel would not show."""

    code: str = "#N/A"
    reason: str = ""


def error_index(code: str) -> int:
    return ERROR_INDEX.get(code, ERROR_INDEX["#VALUE!"])


def kind_of(value: Any) -> int:
    if value is None:
        return EMPTY
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, ExcelError):
        return ERROR
    return TEXT


class Column:
    __slots__ = ("kind", "num", "other")

    def __init__(self, size: int):
        self.num = np.zeros(size, dtype=np.float64)
        self.kind = np.zeros(size, dtype=np.int8)
        self.other: dict[int, Any] = {}

    def grow(self, size: int) -> None:
        if size > len(self.num):
            extra = size - len(self.num)
            self.num = np.concatenate([self.num, np.zeros(extra)])
            self.kind = np.concatenate([self.kind, np.zeros(extra, dtype=np.int8)])


class Sheet:
    def __init__(self, name: str, rows: int):
        self.name = name
        self.size = rows + 2
        self.columns: dict[int, Column] = {}

    def column(self, col: int) -> Column:
        column = self.columns.get(col)
        if column is None:
            column = self.columns[col] = Column(self.size)
        return column

    def ensure_rows(self, row: int) -> None:
        if row + 1 >= self.size:
            self.size = max(row + 2, self.size * 2)
            for column in self.columns.values():
                column.grow(self.size)

    def get(self, row: int, col: int) -> Any:
        column = self.columns.get(col)
        if column is None or row >= len(column.kind):
            return None
        kind = column.kind[row]
        if kind == NUMBER:
            return float(column.num[row])
        if kind == EMPTY:
            return None
        return column.other[row]

    def set(self, row: int, col: int, value: Any) -> None:
        self.ensure_rows(row)
        column = self.column(col)
        column.grow(self.size)
        kind = kind_of(value)
        column.kind[row] = kind
        if kind == NUMBER:
            column.num[row] = value
            column.other.pop(row, None)
        else:
            column.num[row] = 0.0
            if kind == EMPTY:
                column.other.pop(row, None)
            else:
                column.other[row] = value

    def set_numbers(self, rows: np.ndarray, cols: np.ndarray, values: np.ndarray) -> None:
        """Many number cells at once (rows, columns and values as parallel arrays)."""
        if not len(rows):
            return
        self.ensure_rows(int(rows.max()))
        order, rows, cols, runs = _by_column(rows, cols)
        values = values[order]
        for start, end in runs:
            column = self.column(int(cols[start]))
            column.grow(self.size)
            column.num[rows[start:end]] = values[start:end]
            column.kind[rows[start:end]] = NUMBER

    def set_texts(self, rows: np.ndarray, cols: np.ndarray, texts: list[str]) -> None:
        """Many text cells at once (rows and columns as arrays, the texts as a parallel list)."""
        if not len(rows):
            return
        self.ensure_rows(int(rows.max()))
        order, rows, cols, runs = _by_column(rows, cols)
        ordered = list(map(texts.__getitem__, order.tolist()))
        for start, end in runs:
            column = self.column(int(cols[start]))
            column.grow(self.size)
            column.kind[rows[start:end]] = TEXT
            column.num[rows[start:end]] = 0.0
            column.other.update(zip(rows[start:end].tolist(), ordered[start:end]))

    def set_many(self, values: list[tuple[int, int, Any]]) -> None:
        """Many cells of any kind at once: kinds set per column with numpy, values kept in ``other``."""
        if not values:
            return
        self.ensure_rows(max(row for row, _, _ in values))
        by_column: dict[int, list[tuple[int, Any]]] = {}
        for row, col, value in values:
            by_column.setdefault(col, []).append((row, value))
        for col, cells in by_column.items():
            column = self.column(col)
            column.grow(self.size)
            kinds_of = list(map(kind_of, [v for _, v in cells]))
            rows = np.array([row for row, _ in cells], dtype=np.int64)
            column.kind[rows] = kinds_of
            if NUMBER in kinds_of:
                numbers = [kind == NUMBER for kind in kinds_of]
                column.num[rows[numbers]] = [v for (_, v), n in zip(cells, numbers) if n]
                column.other.update((row, v) for (row, v), n in zip(cells, numbers) if not n and v is not None)
            else:
                column.other.update((row, v) for row, v in cells if v is not None)

    def used_part(self, r1: int, c1: int, r2: int, c2: int) -> tuple[int, int]:
        """The last row and column of an area as far as it is read: whole columns (rows) only down
        to the last row (across to the last column) the sheet uses."""
        if r2 >= MAX_ROW:
            r2 = max(r1, min(r2, self.size - 2))
        if c2 >= MAX_COL:
            c2 = max(c1, min(c2, max(self.columns, default=c1)))
        return r2, c2

    def block(self, r1: int, c1: int, r2: int, c2: int) -> list[list[Any]]:
        """Values of a rectangle as a list of rows (clipped to the used area, padded with None)."""
        return [[self.get(r, c) for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)]


def _by_column(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Cells sorted by column, stably: the order, the rows and columns so sorted, and each
    column's run (start, end) in them."""
    order = np.argsort(cols, kind="stable")
    rows, cols = rows[order], cols[order]
    edges = (np.flatnonzero(cols[1:] != cols[:-1]) + 1).tolist()
    return order, rows, cols, list(zip([0, *edges], [*edges, len(cols)], strict=True))


class Grid:
    """All sheets of a workbook, looked up by name case-insensitively."""

    def __init__(self) -> None:
        self.sheets: dict[str, Sheet] = {}
        self.order: list[Sheet] = []

    def add(self, name: str, rows: int) -> Sheet:
        sheet = Sheet(name, rows)
        self.sheets[name.upper()] = sheet
        self.order.append(sheet)
        return sheet

    def sheet(self, name: str) -> Sheet | None:
        return self.sheets.get(name.upper())
