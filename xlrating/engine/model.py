"""Evaluating a workbook: read it, group its formulas into blocks, evaluate them in order.

Whole blocks go through the vectorised path (:mod:`.vector`); rows it defers, blocks it does not
cover and blocks that must be ordered cell by cell go through ``formulas`` (:mod:`.fallback`).

Array results spill from their cell to the right and down, as Excel's dynamic arrays do: the
values fill the cells below/right and the formula is written back as an array formula over that
range (so it stays live in Excel, which shows the cached table at once). A spill onto a cell that
holds a value or a formula gives ``#SPILL!``, as in Excel. LibreOffice recalculates array formulas
on load whatever its settings, so a spilled table of *our* functions shows ``#NAME?`` there (it
has no xlrating functions); ordinary cells show our cached values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xlrating.functions import ExcelError
from xlrating.sheets.limits import Limits

from .blocks import Block, build_blocks
from .fallback import CellFailure, Fallback
from .grid import BOOL, ERROR, ERROR_BY_INDEX, NUMBER, TEXT, Grid
from .package import Package, read_package
from .schedule import CircularReference, block_order, cell_order
from .vector import Context, Unsupported, is_text
from .vector_compile import compile_tree


class ConversionError(Exception):
    """A workbook that cannot be recalculated; the message names the sheet, the cell and why."""


@dataclass
class Evaluated:
    """A recalculated workbook: the package as read, every cell's value in ``grid``, the formula
    blocks, the spilled arrays, and how many formula cells each path computed (``stats``)."""

    package: Package
    grid: Grid
    blocks: list[Block]
    spills: dict[tuple[str, int, int], tuple[int, int]] = field(default_factory=dict)  # anchor -> (h, w)
    stats: dict[str, int] = field(default_factory=lambda: {"vector": 0, "cell": 0})


def _names(package: Package) -> dict[str | None, dict[str, str]]:
    """The defined names each sheet's formulas see, by upper-case sheet name (None: any other sheet).

    As in Excel, a name local to a sheet hides the workbook-wide name of the same spelling there.
    """
    shared = {name: text for (name, scope), text in package.defined_names.items() if scope is None}
    seen: dict[str | None, dict[str, str]] = {None: shared}
    for (name, scope), text in package.defined_names.items():
        if scope is not None:
            seen.setdefault(scope, dict(shared))[name] = text
    return seen


def evaluate_workbook(path: str, *, limits: Limits | None = None) -> Evaluated:
    """Recalculate every formula of the workbook at ``path``; raises :class:`ConversionError`.

    ``limits``: the size limits of :mod:`xlrating.sheets.safe_open` (default: its defaults).
    """
    package = read_package(path, limits=limits)
    grid = Grid()
    names = _names(package)
    blocks: list[Block] = []
    for cells in package.sheets:
        sheet = grid.add(cells.name, cells.max_row)
        if cells.numbers is not None:
            sheet.set_numbers(*cells.numbers)
        sheet.set_many(cells.values)
    for cells in package.sheets:
        sheet = grid.sheets[cells.name.upper()]
        blocks.extend(build_blocks(sheet, cells, names.get(cells.name.upper(), names[None]), len(blocks)))
    for number, block in enumerate(blocks):  # ids index the dependency graph: unique across sheets
        block.id = number
    for block in blocks:
        if block.problem:
            raise ConversionError(f"{block.where()}: {block.problem}")
    result = Evaluated(package, grid, blocks)
    _Evaluator(result, Fallback(grid, names)).run()
    return result


class _Evaluator:
    def __init__(self, result: Evaluated, fallback: Fallback):
        self.result = result
        self.grid = result.grid
        self.fallback = fallback
        self._formula_columns: dict[tuple[str, int], list[tuple[int, int]]] | None = None

    def _is_formula(self, sheet: str, row: int, col: int) -> bool:
        """Whether a cell holds a formula (the index is built on the first spill that needs it)."""
        if self._formula_columns is None:
            self._formula_columns = {}
            for b in self.result.blocks:
                self._formula_columns.setdefault((b.sheet.name.upper(), b.col), []).append((b.first, b.last))
        return any(first <= row <= last for first, last in self._formula_columns.get((sheet, col), ()))

    def run(self) -> None:
        try:
            for group, cell_level in block_order(self.result.blocks):
                for block in group:
                    self._compile(block)
                if cell_level:
                    for block, row in cell_order(group):
                        self._rows(block, np.array([row]))
                else:
                    for block in group:
                        self._rows(block, np.arange(block.first, block.last + 1))
        except CircularReference as exc:
            raise ConversionError(str(exc)) from None

    @staticmethod
    def _compile(block: Block) -> None:
        if block.program is not None or block.tree is None or block.array_ref is not None:
            return
        try:
            block.program = compile_tree(block.tree)
        except Unsupported:
            block.program = None

    def _rows(self, block: Block, rows: np.ndarray) -> None:
        if block.program is None:
            for row in rows.tolist():
                self._cell(block, row)
            return
        ctx = Context(self.grid, block.sheet, rows, block.anchor)
        try:
            vec = block.program(ctx)
        except Unsupported:
            block.program = None
            self._rows(block, rows)
            return
        done = ~ctx.defer
        self._store(block, rows[done], vec.num[done], None if vec.err is None else vec.err[done], vec.is_bool,
                    None if vec.text is None else vec.text[done], None if vec.empty is None else vec.empty[done])
        self.result.stats["vector"] += int(done.sum())
        for row in rows[ctx.defer].tolist():
            self._cell(block, row)

    def _store(self, block: Block, rows: np.ndarray, num: np.ndarray, err: np.ndarray | None, is_bool: bool,
               text: np.ndarray | None = None, empty: np.ndarray | None = None) -> None:
        if not len(rows):
            return
        sheet = block.sheet
        sheet.ensure_rows(int(rows.max()))
        column = sheet.column(block.col)
        column.grow(sheet.size)
        column.num[rows] = num
        if is_bool:
            column.kind[rows] = BOOL
            for row, value in zip(rows.tolist(), num.tolist()):
                column.other[row] = value != 0
            if empty is not None and empty.any():  # =H2 with H2 blank shows 0, not FALSE
                column.kind[rows[empty]] = NUMBER
                for row in rows[empty].tolist():
                    column.other.pop(row, None)
        else:
            column.kind[rows] = NUMBER
        if text is not None:
            texts = is_text(text)
            column.kind[rows[texts]] = TEXT
            column.num[rows[texts]] = 0.0
            for row, value in zip(rows[texts].tolist(), text[texts].tolist()):
                column.other[row] = value
        if err is not None and err.any():
            failed = err != 0
            column.kind[rows[failed]] = ERROR
            column.num[rows[failed]] = 0.0
            for row, code in zip(rows[failed].tolist(), err[failed].tolist()):
                column.other[row] = ExcelError(ERROR_BY_INDEX[code])

    def _cell(self, block: Block, row: int) -> None:
        try:
            value = self.fallback.evaluate(block.text(row), block.sheet, row, block.col)
        except CellFailure as exc:
            raise ConversionError(f"{block.where(row)}: {exc}") from None
        self.result.stats["cell"] += 1
        if isinstance(value, list):
            self._spill(block, row, value)
        else:
            block.sheet.set(row, block.col, value)

    def _spill(self, block: Block, row: int, rows: list[list[Any]]) -> None:
        sheet = block.sheet
        height, width = len(rows), max((len(r) for r in rows), default=1)
        if block.array_ref is not None:  # a legacy array formula fills exactly its range
            height, width = block.array_ref
            rows = [[(rows[i][j] if i < len(rows) and j < len(rows[i]) else ExcelError("#N/A"))
                     for j in range(width)] for i in range(height)]
        else:
            for i in range(height):
                for j in range(width):
                    if (i or j) and (sheet.get(row + i, block.col + j) is not None or
                                     self._is_formula(sheet.name.upper(), row + i, block.col + j)):
                        sheet.set(row, block.col, ExcelError("#SPILL!"))
                        return
        for i in range(height):
            for j in range(width):
                value = rows[i][j] if j < len(rows[i]) else None
                sheet.set(row + i, block.col + j, 0.0 if value is None else value)
        self.result.spills[(sheet.name.upper(), row, block.col)] = (height, width)


__all__ = ["ConversionError", "Evaluated", "evaluate_workbook"]
