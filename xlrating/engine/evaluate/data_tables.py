"""Data tables (Excel's What-If Analysis > Data Table, ``{=TABLE(row_input, column_input)}``).

A data table is stored in its first result cell as ``<f t="dataTable" ref="B2:D5" dt2D="1" dtr="1"
r1="A10" r2="A11"/>``; the other cells of ``ref`` hold only the values Excel computed. Each cell of
the table is a formula of the sheet recomputed with input cells holding other values (Microsoft,
"Calculate multiple results by using a data table"; ECMA-376 Part 1, 18.3.1.40 ``f``: ``dt2D``,
``dtr``, ``r1``, ``r2``):

- a table of one variable in a column (``dtr`` false): the values for the input cell ``r1`` stand
  in the column left of ``ref``, the formulas in the row above it, one per column;
- a table of one variable in a row (``dtr`` true): the values in the row above ``ref``, the
  formulas in the column left of it, one per row;
- a table of two variables (``dt2D`` true): one formula, in the cell above and left of ``ref``;
  the row above holds the values for the row input cell ``r1``, the column left of it those for
  the column input cell ``r2``.

An input cell deleted after the table was made (``del1``, and ``del2`` in a table of two variables)
leaves #REF! in every cell of the table, as Excel saves it.

The table is computed when the schedule reaches it (its formulas and input cells first, on
demand; what reads its cells after it). For each cell the input cells take their values, every formula cell between them and the
table's formula is computed again (:func:`_chain`, from the areas each formula reads), the
formula's value is the cell's, and everything is put back. The table's cells are then written as
a spilled range of the formula cell, its ``<f t="dataTable" ...>`` kept. A table whose formula
reads a cell the engine did not compute, or through a reference known only when computed
(OFFSET, INDIRECT), keeps its warning and no value.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from xlrating.excel_errors import ExcelError

from ..formula.function_names import builtin_name
from ..formula.tree import Call, Ref, walk
from ..read.grid import MAX_COL, MAX_ROW, CellFailure, InCircle, NotComputed
from ..read.sheet_cells import cell_position
from .blocks import Block


class _Evaluator(Protocol):
    """What a data table is computed with: :class:`.model._Evaluator` (the schedule running)."""

    result: Any
    fallback: Any
    _columns: dict[tuple[str, int], tuple[list[int], list[Block]]]

    def demand(self, sheet: str, r1: int, c1: int, r2: int, c2: int) -> None: ...

    def _block_at(self, sheet: str, row: int, col: int) -> Block | None: ...

    def _intersects(self, block: Block) -> bool: ...


Cell = tuple[str, int, int]  # (SHEET in upper case, row, col)
_DYNAMIC = frozenset(("OFFSET", "INDIRECT"))  # what they read is known only when computed


class _Unsure(Exception):
    """The table cannot be computed as Excel would."""


def _true(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("1", "true")


def _cell(text: str | None) -> tuple[int, int]:
    if not text:
        raise _Unsure("a data table without its input cell")
    row, col = cell_position(text.replace("$", "").strip())
    return row, col


def compute_data_table(evaluator: _Evaluator, block: Block) -> bool:
    """The data table whose first cell ``block`` is, computed into the grid; False (nothing
    changed) when the engine cannot compute it as Excel would."""
    try:
        _compute(evaluator, block, block.data_table or {})
    except _Unsure:
        return False
    return True


def _compute(ev: _Evaluator, block: Block, attributes: dict[str, str]) -> None:
    sheet = block.sheet
    upper = sheet.name.upper()
    top_left, _, bottom_right = attributes.get("ref", "").partition(":")
    r1, c1 = _cell(top_left)
    r2, c2 = _cell(bottom_right or top_left)
    if r1 < 2 or c1 < 2 or (r1, c1) != (block.first, block.col):
        raise _Unsure("a data table without room for its inputs")
    if _true(attributes.get("del1")) or (_true(attributes.get("dt2D")) and _true(attributes.get("del2"))):
        for row in range(r1, r2 + 1):  # an input cell was deleted: Excel shows #REF! in every cell
            for col in range(c1, c2 + 1):
                sheet.set(row, col, ExcelError("#REF!"))
        ev.result.spills[(upper, r1, c1)] = (r2 - r1 + 1, c2 - c1 + 1)
        return
    first_input = _cell(attributes.get("r1"))
    second = _cell(attributes.get("r2")) if _true(attributes.get("dt2D")) else first_input
    for r_a, c_a, r_b, c_b in ((r1 - 1, c1 - 1, r2, c1 - 1), (r1 - 1, c1 - 1, r1 - 1, c2), (*first_input, *first_input),
                               (*second, *second)):
        ev.demand(upper, r_a, c_a, r_b, c_b)  # the formulas, the values put in, and the input cells
    plan: dict[tuple[int, int], tuple[tuple[int, int], list[tuple[tuple[int, int], tuple[int, int]]]]] = {}
    for row in range(r1, r2 + 1):
        for col in range(c1, c2 + 1):
            if _true(attributes.get("dt2D")):
                second_input = _cell(attributes.get("r2"))
                plan[(row, col)] = ((r1 - 1, c1 - 1), [(first_input, (r1 - 1, col)), (second_input, (row, c1 - 1))])
            elif _true(attributes.get("dtr")):
                plan[(row, col)] = ((row, c1 - 1), [(first_input, (r1 - 1, col))])
            else:
                plan[(row, col)] = ((r1 - 1, col), [(first_input, (row, c1 - 1))])
    inputs = {(upper, *cell) for _, overrides in plan.values() for cell, _ in overrides}
    chains: dict[tuple[int, int], list[tuple[Block, int]]] = {}
    results: dict[tuple[int, int], Any] = {}
    for position, (formula, overrides) in plan.items():
        if formula not in chains:
            chains[formula] = _chain(ev, (upper, *formula), inputs)
        chain = chains[formula]
        cells = [(sheet, cell) for cell, _ in overrides] + [(b.sheet, (row, b.col)) for b, row in chain]
        saved = [(where, cell, where.get(*cell)) for where, cell in cells]
        try:
            for cell, source in overrides:
                sheet.set(*cell, _plain(sheet.get(*source)))
            for chained, row in chain:
                chained.sheet.set(row, chained.col, _recomputed(ev, chained, row))
            results[position] = _plain(sheet.get(*formula))
        finally:
            for where, cell, value in reversed(saved):
                where.set(*cell, value)
    for (row, col), value in results.items():
        sheet.set(row, col, value)
    ev.result.spills[(upper, r1, c1)] = (r2 - r1 + 1, c2 - c1 + 1)


def _plain(value: Any) -> Any:
    """A cell's value as an input: an empty cell is empty; what was not computed stops the table."""
    if isinstance(value, (NotComputed, InCircle)):
        raise _Unsure("a data table reading a cell not computed")
    return value


def _recomputed(ev: _Evaluator, block: Block, row: int) -> Any:
    try:
        value = ev.fallback.evaluate(block.text(row), block.sheet, row, block.col, intersect=ev._intersects(block),
                                     fills=block.array_ref, operands=ev.result.package.legacy_formulas)
    except CellFailure as exc:
        raise _Unsure(str(exc)) from None
    if isinstance(value, np.ndarray):  # an array formula on the way: its first value
        value = value.ravel()[0] if value.size else None
    return _plain(value)


def _chain(ev: _Evaluator, formula: Cell, inputs: set[Cell]) -> list[tuple[Block, int]]:
    """The formula cells to compute again, in order, for ``formula`` to see other values in
    ``inputs``: those that read an input, directly or through others, ``formula`` among them when
    it does."""
    order: list[tuple[Block, int]] = []
    depends: dict[Cell, bool] = {}

    def visit(cell: Cell) -> bool:
        if cell in depends:
            return depends[cell]
        depends[cell] = cell in inputs  # a cell met again while visited (a circle) counts as it is
        block = ev._block_at(*cell)
        if block is None or cell in inputs:
            return depends[cell]
        if block.problem or block.data_table is not None or block.tree is None:
            if block.tree is None or any(_reads(block, each) for each in inputs):
                raise _Unsure("a data table through a formula the engine does not compute")
            return False
        if any(isinstance(node, Ref) and node.name or isinstance(node, Call) and builtin_name(node.name) in _DYNAMIC
               for node in walk(block.tree)):
            raise _Unsure("a data table through a name or a reference known only when computed")
        reads = False
        for area_sheet, a_c1, a_c2, top, bottom in block.regions:
            if any(s == area_sheet and a_c1 <= c <= a_c2 and top <= r <= bottom for s, r, c in inputs):
                reads = True
            for col in range(a_c1, min(a_c2, MAX_COL) + 1):
                found = ev._columns.get((area_sheet, col))
                if found is None:
                    continue
                for member in found[1]:
                    for member_row in range(max(member.first, top), min(member.last, bottom, MAX_ROW) + 1):
                        if visit((area_sheet, member_row, col)):
                            reads = True
        depends[cell] = reads
        if reads:
            order.append((block, cell[1]))
        return reads

    visit(formula)
    return order


def _reads(block: Block, cell: Cell) -> bool:
    return any(s == cell[0] and c1 <= cell[2] <= c2 and top <= cell[1] <= bottom
               for s, c1, c2, top, bottom in block.regions)
