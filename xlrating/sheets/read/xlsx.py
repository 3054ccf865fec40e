"""Read a submitted workbook into plain grids in one streaming pass.

The validator needs three things from each sheet: the stored (cached) cell values, which cells
hold a formula (a formula without a stored value cannot be read), and the merged ranges. openpyxl's
public API gives these only through two loads (``data_only`` for values, a full load for formulas
and merges), which costs about twice a read-only load. Instead we open the file read-only through
:func:`xlrating.gate.safe_open.load_workbook` and drive openpyxl's own sheet parser once, noting
formulas as cells go by; merged ranges are parsed from the same stream. Should openpyxl's
internals be missing (checked before any sheet is read), :func:`read_workbook` falls back to the
two public loads; an error while streaming is never taken for that.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any

from xlrating.gate.safe_open import UnreadableWorkbook, load_workbook, reading

Range = tuple[int, int, int, int]  # min_row, min_col, max_row, max_col (1-based, inclusive)


@dataclass
class SheetGrid:
    """One worksheet's stored values (``rows[r - 1][c - 1]``), formulas and merged ranges."""

    name: str
    rows: list[list[Any]] = field(default_factory=list)
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    merged: list[Range] = field(default_factory=list)
    not_utf8: bool = False  # a CSV that is UTF-8 but for some bytes, each read as U+FFFD

    def value(self, row: int, column: int) -> Any:
        if 1 <= row <= len(self.rows):
            cells = self.rows[row - 1]
            if 1 <= column <= len(cells):
                return cells[column - 1]
        return None

    @property
    def max_row(self) -> int:
        return len(self.rows)


def read_workbook(path: str | os.PathLike[str], *, checked: bytes | None = None) -> list[SheetGrid]:
    """Every worksheet of ``path`` (or of its ``checked`` bytes, see
    :func:`~xlrating.gate.safe_open.load_workbook`) as a :class:`SheetGrid`, in workbook order.

    Raises :class:`~xlrating.gate.safe_open.UnreadableWorkbook` when the file cannot be opened
    or a sheet turns out damaged while it streams.
    """
    parser_class = _value_and_formula_parser()
    wb = load_workbook(path, read_only=True, data_only=True, checked=checked)
    try:
        if parser_class is None or not _has_streaming_internals(wb):
            return _read_with_public_api(path, checked)  # openpyxl internals moved: two public loads
        # Read-only sheets are parsed only now, while their rows stream: openpyxl's errors on a
        # damaged cell become UnreadableWorkbook; any other exception is our bug and propagates.
        with reading(path):
            return [_stream_sheet(path, wb, ws, parser_class) for ws in wb.worksheets]
    finally:
        wb.close()


@functools.cache
def _value_and_formula_parser() -> Any:
    """openpyxl's sheet parser in data_only mode that also keeps each cell's formula text, or None
    when openpyxl no longer has the internals it is built on."""
    try:
        from openpyxl.worksheet._reader import FORMULA_TAG, WorkSheetParser
    except ImportError:
        return None
    if not callable(getattr(WorkSheetParser, "parse_cell", None)):
        return None

    class ValueAndFormulaParser(WorkSheetParser):  # type: ignore[misc]
        def parse_cell(self, element: Any) -> dict[str, Any]:
            cell: dict[str, Any] = super().parse_cell(element)
            formula = element.find(FORMULA_TAG)
            if formula is not None:
                cell["formula"] = "=" + (formula.text or "")
            return cell

    return ValueAndFormulaParser


def _has_streaming_internals(wb: Any) -> bool:
    """Whether the read-only workbook still has the private attributes :func:`_stream_sheet` uses."""
    if not all(hasattr(wb, name) for name in ("epoch", "_date_formats", "_timedelta_formats")):
        return False
    return all(hasattr(ws, "_get_source") and hasattr(ws, "_shared_strings") for ws in wb.worksheets)


def _stream_sheet(path: str | os.PathLike[str], wb: Any, ws: Any, parser_class: Any) -> SheetGrid:
    grid = SheetGrid(ws.title)
    with ws._get_source() as source:
        parser = parser_class(source, ws._shared_strings, data_only=True, epoch=wb.epoch,
                              date_formats=wb._date_formats, timedelta_formats=wb._timedelta_formats)
        for row_index, cells in parser.parse():
            if not cells:
                continue
            if row_index < 1:  # the package check refuses this; kept so a gap there is no IndexError
                raise UnreadableWorkbook(path, f"sheet '{ws.title}' is damaged: a row is numbered "
                                               f"{row_index}, but rows count from 1")
            while len(grid.rows) < row_index:
                grid.rows.append([])
            values = grid.rows[row_index - 1]
            for cell in cells:
                column = cell["column"]
                if len(values) < column:
                    values.extend([None] * (column - len(values)))
                values[column - 1] = cell["value"]
                if "formula" in cell:
                    grid.formulas[(row_index, column)] = cell["formula"]
        if parser.merged_cells is not None:
            grid.merged = [_bounds(m.ref) for m in parser.merged_cells.mergeCell]
    return grid


def _bounds(ref: str) -> Range:
    from openpyxl.utils.cell import range_boundaries

    min_col, min_row, max_col, max_row = range_boundaries(ref)
    return (min_row, min_col, max_row, max_col)


def _read_with_public_api(path: str | os.PathLike[str], checked: bytes | None = None) -> list[SheetGrid]:
    values_wb = load_workbook(path, data_only=True, checked=checked)
    formulas_wb = load_workbook(path, checked=checked)
    grids = []
    for ws, fws in zip(values_wb.worksheets, formulas_wb.worksheets):
        grid = SheetGrid(ws.title)
        grid.rows = [list(row) for row in ws.iter_rows(values_only=True)]
        for row in fws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    grid.formulas[(cell.row, cell.column)] = str(cell.value)
        grid.merged = [(r.min_row, r.min_col, r.max_row, r.max_col) for r in fws.merged_cells.ranges]
        grids.append(grid)
    return grids
