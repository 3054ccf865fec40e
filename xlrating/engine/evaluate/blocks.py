"""Grouping formula cells into blocks: one formula shape filled down a run of rows in a column.

Rating sheets repeat one formula per column (``=DIPPOUCH_PERCENTILE($B$1, C5)`` in C5, C6, ...).
Cells whose formulas have the same R1C1 shape (:class:`~.formula.FilledDown`) in consecutive rows
of a column form a :class:`Block`; its formula is parsed once, at one of its cells, and every
other row is the same tree shifted. Followers of a shared formula (``<f t="shared"/>``, Excel's
fill-down) have the shape of their master by definition and are never even read as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xlrating.kept import Kept

from ..formula import declared
from ..formula.areas import spread_areas
from ..formula.filled_down import FilledDown, constants_extent
from ..formula.function_names import builtin_name, our_function
from ..formula.limits import beyond_excel
from ..formula.reader import parse
from ..formula.tree import (
    Call,
    Const,
    ExternalReference,
    FormulaSyntaxError,
    Node,
    Op,
    Param,
    Ref,
    column_letters,
    literals,
    walk,
    with_params,
)
from ..read.grid import MAX_COL, MAX_ROW, Sheet
from ..read.names import is_relative
from ..read.sheet_cells import FormulaCell, SheetCells, cell_position
from . import guard
from .registry import FunctionRegistry

# Functions whose result is one value whatever ranges they are given.
SCALAR_FUNCTIONS = declared.having("one_value")
# Functions whose result is an array of a size known only when computed: their cell may spill
# anywhere below and right of it, so whatever reads there is computed after it.
ARRAY_FUNCTIONS = declared.having("spills")
ARRAY_EXTENT = (MAX_ROW, 64)
SHORT_RUN = 32  # rows of one formula filled down, below which a block of changing literals is looked for


@dataclass
class Block:
    """Consecutive formula cells of one column computed together: one formula filled down (one tree
    for them all), or a single cell."""

    id: int
    sheet: Sheet
    col: int
    first: int
    last: int
    anchor: int  # the row whose formula text was parsed
    source: str  # that formula text
    texts: dict[int, str] = field(default_factory=dict)
    listed: list[str] | None = None  # texts of rows first..last at listed[base:], for filled-down blocks
    base: int = 0
    tree: Node | None = None
    problem: str | None = None  # why the block cannot be evaluated at all
    array_ref: tuple[int, int] | None = None  # height, width of a legacy array formula's range
    spill: tuple[int, int] = (1, 1)  # largest array the formula may return
    program: Any = None  # the vectorised program, or None for cell by cell
    regions: list[tuple[str, int, int, int, int]] = field(default_factory=list)
    # a shape whose literals change from row to row: each row's literals (rows first..last), and
    # once the tree is made, the values of each literal that changes (a :class:`Param` of the tree)
    literals: list[tuple[float | str, ...]] | None = None
    params: dict[int, np.ndarray] | None = None
    data_table: dict[str, str] | None = None  # a data table's attributes (:mod:`.data_tables`)

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def text(self, row: int) -> str:
        """The formula text at ``row`` (followers of shared formulas are translated on demand)."""
        if self.listed is not None:
            return self.listed[self.base + row - self.first]
        text = self.texts.get(row)
        if text is None:
            text = translate(self.source, (self.anchor, self.col), (row, self.col))
        return text

    def where(self, row: int | None = None) -> str:
        return f"{self.sheet.name}!{column_letters(self.col)}{self.first if row is None else row}"


def _extent(node: Node) -> tuple[int, int]:
    if isinstance(node, Ref):
        return (1, 1) if node.name else (node.r2 - node.r1 + 1, node.c2 - node.c1 + 1)
    if isinstance(node, (Const, Param)):
        return (1, 1)
    if isinstance(node, Call):
        ours = our_function(node.name)
        if ours is not None:
            if ours.spills:
                return (MAX_ROW, 3)
            if not ours.broadcasts:
                return (1, 1)
        elif builtin_name(node.name) in SCALAR_FUNCTIONS:
            return (1, 1)
        elif builtin_name(node.name) in ARRAY_FUNCTIONS:
            return ARRAY_EXTENT
    if isinstance(node, Op) and node.op in (":", " "):
        return (1, 1)
    extents = [_extent(a) for a in node.args] or [(1, 1)]
    return max(e[0] for e in extents), max(e[1] for e in extents)


def _resolve_names(node: Node, names: dict[str, str]) -> Node:
    if isinstance(node, Ref) and node.name:
        target = names.get(node.name)
        if target is None or is_relative(target):  # a relative name means another cell per cell: the fallback's
            return node
        try:
            resolved = parse("=" + target)
        except FormulaSyntaxError:
            return node
        return resolved if isinstance(resolved, Ref) and not resolved.name else node
    if isinstance(node, Op):
        return Op(node.op, tuple(_resolve_names(a, names) for a in node.args))
    if isinstance(node, Call):
        return Call(node.name, tuple(_resolve_names(a, names) for a in node.args))
    return node


def _formulas_cannot_read(block: Block, names: dict[str, str], registry: FunctionRegistry,
                          sheets: tuple[str, ...] = ()) -> str | None:
    """A formula our tree builder cannot read but ``formulas`` compiles (LET, LAMBDA, a named
    formula or LAMBDA): evaluated cell by cell, reading what its compiled inputs name (None). If
    ``formulas`` cannot either, why."""
    from ..read.grid import CellFailure
    from ..read.names import expand_names
    from .compiler import input_areas

    try:
        for row in range(block.first, block.last + 1):
            text = expand_names(spread_areas(block.text(row), sheets), names)
            for sheet, r1, c1, r2, c2 in input_areas(registry, text):
                block.regions.append(((sheet or block.sheet.name).upper(), c1, c2, r1, r2))
    except CellFailure as exc:
        block.regions.clear()
        return str(exc)
    return None


def _regions(block: Block) -> list[tuple[str, int, int, int, int]]:
    """What the block reads: (SHEET, first col, last col, first row, last row) per reference."""
    regions: list[tuple[str, int, int, int, int]] = []
    if block.tree is None:
        return regions
    for node in walk(block.tree):
        if isinstance(node, Ref) and not node.name:
            sheet = (node.sheet or block.sheet.name).upper()
            top = node.r1 + (block.first - block.anchor if node.rel_r1 else 0)
            bottom = node.r2 + (block.last - block.anchor if node.rel_r2 else 0)
            regions.append((sheet, node.c1, node.c2, max(top, 1), bottom))
    return regions


def translate(formula: str, origin: tuple[int, int], target: tuple[int, int]) -> str:
    """``formula`` written at ``origin`` (row, col) as Excel fills it to ``target``: what a shared
    formula's follower holds."""
    from openpyxl.formula.translate import Translator  # only for shared formulas; keeps start-up light

    source = f"{column_letters(origin[1])}{origin[0]}"
    return str(Translator(formula, origin=source).translate_formula(f"{column_letters(target[1])}{target[0]}"))


def _reads_literals(text: str, row_literals: tuple[float | str, ...], sheets: tuple[str, ...]) -> bool:
    """Whether the tree of ``text`` holds exactly the literals its text shows, in that order: the
    shape's literals can then be the tree's (a formula the reader rewrites, ``--A1`` as ``0+A1``,
    does not)."""
    try:
        tree = parse(spread_areas(text, sheets))
    except FormulaSyntaxError:
        return False
    found = literals(tree)
    return len(found) == len(row_literals) and all(type(a) is type(b) and a == b for a, b in zip(found, row_literals))


def _filled_down_blocks(sheet: Sheet, cells: SheetCells, start_id: int, sheets: tuple[str, ...] = ()) -> list[Block]:
    """Blocks of the ordinary formulas, found column by column with :meth:`FilledDown.extent`; a run
    of rows whose formulas differ only in literals (:func:`..formula.filled_down.literal_shape`)
    is one block too."""
    if cells.simple is None:
        return []
    texts, plan = _filled_down_plan(*cells.simple, sheets)
    blocks: list[Block] = []
    for col, row, last, i, found in plan:
        block = Block(start_id + len(blocks), sheet, col, row, last, row, texts[i])
        block.listed, block.base = texts, i
        if found:
            block.literals = found
        blocks.append(block)
    return blocks


# (col, first row, last row, index of the first row's text, each row's literals or None)
_Plan = tuple[list[str], list[tuple[int, int, int, int, list[tuple[float | str, ...]] | None]]]
# The plans of the sheets seen last, by their formula cells: a batch of workbooks made from one
# template finds each sheet's blocks once. Only sheets of a few formulas are kept (a big sheet's
# texts are not held past its workbook).
_PLANS: Kept[tuple[bytes, bytes, tuple[str, ...], tuple[str, ...]], _Plan] = Kept(64)
_PLANNED_CELLS = 2_000  # at most 64 x 2,000 texts held: a few MB in a process that runs for days


def _filled_down_plan(rows_array: np.ndarray, cols_array: np.ndarray, texts_in: list[str],
                      sheets: tuple[str, ...]) -> _Plan:
    """The texts in column order and the blocks they make (:func:`_filled_down_blocks`)."""
    key = None
    if len(texts_in) <= _PLANNED_CELLS:
        key = (rows_array.tobytes(), cols_array.tobytes(), tuple(texts_in), sheets)
        known = _PLANS.get(key)
        if known is not None:
            return known
    order = np.lexsort((rows_array, cols_array))
    rows, cols = rows_array[order], cols_array[order]
    texts = list(map(texts_in.__getitem__, order.tolist()))
    # runs of consecutive rows within a column
    breaks = (np.flatnonzero((np.diff(cols) != 0) | (np.diff(rows) != 1)) + 1).tolist()
    plan: list[tuple[int, int, int, int, list[tuple[float | str, ...]] | None]] = []
    for start, stop in zip([0, *breaks], [*breaks, len(texts)]):
        col, top = int(cols[start]), int(rows[start])
        i = start
        while i < stop:
            row = top + i - start
            shape = FilledDown(texts[i], row)
            j = shape.extent(texts, row + 1, i + 1, stop)
            found: list[tuple[float | str, ...]] = []
            if j - i < SHORT_RUN and j < stop:  # a short run: the rows below may differ only in literals
                end, found = constants_extent(texts, row, i, stop)
                if end > j and _reads_literals(texts[i], found[0], sheets):
                    j = end
                else:
                    found = []
            plan.append((col, row, top + j - 1 - start, i, found or None))
            i = j
    if key is not None:
        _PLANS[key] = (texts, plan)
    return texts, plan


def _params(block: Block, varying: frozenset[int]) -> dict[int, np.ndarray]:
    """The values per row of the block's literals that change from row to row (its tree's
    :class:`Param` nodes)."""
    assert block.literals is not None
    first = block.literals[0]
    return {i: np.array([row[i] for row in block.literals], dtype=object if isinstance(first[i], str)
                        else np.float64) for i in varying}


def build_blocks(sheet: Sheet, cells: SheetCells, names: dict[str, str], start_id: int,
                 registry: FunctionRegistry, sheets: tuple[str, ...] = ()) -> list[Block]:
    """The blocks of one sheet, columns left to right, rows top to bottom; ``sheets``: the
    workbook's sheet names in order, the sheets its 3-D references span (:mod:`..formula.areas`)."""
    blocks = _filled_down_blocks(sheet, cells, start_id, sheets)
    start_id += len(blocks)
    masters: dict[int, FormulaCell] = {f.shared: f for f in cells.formulas if f.master and f.shared is not None}
    current: Block | None = None
    shape: FilledDown | None = None  # recognises the current block's text-bearing cells
    group: int | None = None  # the shared formula the current block's cells follow
    for f in sorted(cells.formulas, key=lambda cell: (cell.col, cell.row)):
        col, row, text = f.col, f.row, f.text
        follower = text is None and f.shared is not None and f.shared in masters
        extends = (current is not None and col == current.col and row == current.last + 1 and f.kind != "array"
                   and current.array_ref is None and (
                       (follower and group is not None and f.shared == group) or
                       (text is not None and f.kind != "shared" and shape is not None and shape.matches(text, row))))
        if extends:
            current.last = row  # type: ignore[union-attr]
            if text is not None:
                current.texts[row] = text  # type: ignore[union-attr]
            continue
        current = Block(start_id + len(blocks), sheet, col, row, row, row, "")
        blocks.append(current)
        shape, group = None, None
        if follower:
            master = masters[f.shared]  # type: ignore[index]
            current.source = (master.text or "") if (master.row, master.col) == (row, col) else \
                translate(master.text or "", (master.row, master.col), (row, col))
            group = f.shared
        elif text is not None:
            current.source = text
            group = f.shared if f.master else None
            shape = FilledDown(text, row) if group is None else None
        current.texts[row] = current.source
        if f.kind == "array" and f.array_ref:
            top_left, _, bottom_right = f.array_ref.partition(":")
            r1, c1 = cell_position(top_left)
            r2, c2 = cell_position(bottom_right or top_left)
            current.array_ref = (r2 - r1 + 1, c2 - c1 + 1)
        if f.kind == "dataTable":  # computed when the schedule reaches it (:mod:`.data_tables`)
            current.problem = "a data table (What-If analysis) the engine cannot compute as Excel would"
            current.data_table = f.data_table or {}
            top_left, _, bottom_right = current.data_table.get("ref", "").partition(":")
            if top_left:  # what reads the table's cells is computed after it
                (t_row, t_col), (b_row, b_col) = cell_position(top_left), cell_position(bottom_right or top_left)
                current.spill = (max(b_row - t_row + 1, 1), max(b_col - t_col + 1, 1))
        elif text is None and not follower:
            current.problem = "a shared formula without its master cell"

    names_key = tuple(sorted(names.items()))
    for block in blocks:
        if block.problem:
            continue
        if not block.source:
            block.problem = "a formula cell without formula text"
            continue
        varying = _varying(block)
        key = (block.source, sheets, names_key, varying)
        derived = _DERIVED.get(key)  # a formula seen in an earlier workbook (a batch of one template)
        if derived is None:
            guard.WHERE.set(block.where())  # compiling may compute it: the time limit names the cell
            derived = _derived(block, names, registry, sheets, varying)
            if derived is None:  # read by formulas cell by cell, or refused: as this workbook found it
                continue
            _DERIVED[key] = derived
        block.problem, block.tree, extent = derived
        if block.problem:
            continue
        if varying:
            block.params = _params(block, varying)
        block.spill = block.array_ref or extent
        block.spill = (min(block.spill[0], MAX_ROW), min(block.spill[1], MAX_COL))
        block.regions = _regions(block)
    return blocks


# What a formula text makes, whatever the workbook: why it cannot be computed, or its tree (names
# resolved, the literals that change from row to row made parameters) and the largest array it
# may return; by (text, the workbook's sheets, the names it sees, which literals change). Trees
# are immutable and hold no values, so one serves every workbook with that formula.
_DERIVED: Kept[tuple[Any, ...], tuple[str | None, Node | None, tuple[int, int]]] = Kept(4096)


def _varying(block: Block) -> frozenset[int] | None:
    """The positions of the block's literals that change from row to row (None: no literals)."""
    if not block.literals:
        return None
    first = block.literals[0]
    return frozenset(i for i in range(len(first)) if any(row[i] != first[i] for row in block.literals))


def _derived(block: Block, names: dict[str, str], registry: FunctionRegistry, sheets: tuple[str, ...],
             varying: frozenset[int] | None) -> tuple[str | None, Node | None, tuple[int, int]] | None:
    """What the block's text makes (:data:`_DERIVED`); None, with the block's problem or regions
    set, for a text our reader cannot take (an external reference, or one ``formulas`` reads)."""
    problem = beyond_excel(block.source)  # a formula Excel would not take has no value of Excel's
    if problem:
        return problem, None, (1, 1)
    try:
        tree = _resolve_names(parse(spread_areas(block.source, sheets)), names)
    except ExternalReference as exc:
        block.problem = str(exc)
        return None
    except FormulaSyntaxError as exc:
        why = _formulas_cannot_read(block, names, registry, sheets)  # formulas itself may still manage (LET, LAMBDA ...)
        if why is not None:  # what stopped formulas (a function it computed while compiling), else the syntax
            block.problem = str(exc) if why.startswith("cannot parse") else why
        return None
    if varying:
        tree = with_params(tree, set(varying))
    return None, tree, _extent(tree)
