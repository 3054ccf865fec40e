"""Evaluating a workbook: read it, group its formulas into blocks, evaluate them in order.

Whole blocks go through the vectorised path (:mod:`.vector`); rows it defers, blocks it does not
cover and blocks that must be ordered cell by cell go through ``formulas`` (:mod:`.fallback`).

Array results spill from their cell to the right and down, as Excel's dynamic arrays do: the
values fill the cells below/right and the formula is written back as an array formula over that
range (so it stays live in Excel, which shows the cached table at once). A spill onto a cell that
holds a value or a formula gives ``#SPILL!``, as in Excel. LibreOffice recalculates array formulas
on load whatever its settings, so a spilled table of *our* functions shows ``#NAME?`` there (it
has no xlrating functions); ordinary cells show our cached values.

One cell never sinks a workbook: a formula the engine cannot compute (or one reading such a cell)
is left :class:`~.grid.NotComputed`, named in :attr:`Evaluated.warnings`, and written without a
value so that Excel and LibreOffice compute it on open. Circular references are iterated when the
workbook enables iterative calculation, as Excel does; otherwise their cells are 0, as Excel shows
them, with a warning. Cells read by a reference known only when computed (OFFSET, INDIRECT) are
computed on demand, before the formula reading them goes on.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from xlrating.excel_errors import ExcelError
from xlrating.gate.limits import Limits, describe
from xlrating.kept import Kept

from ..formula.function_names import builtin_name, our_function
from ..formula.tree import Call, walk
from ..read import clock
from ..read.character_set import CHARACTER_SET
from ..read.date_system import using
from ..read.grid import (
    BOOL,
    ERROR,
    ERROR_BY_INDEX,
    MAX_COL,
    MAX_ROW,
    NUMBER,
    TEXT,
    CellFailure,
    Grid,
    InCircle,
    NotComputed,
)
from ..read.names import visible_names
from ..read.package import Package, read_package
from . import guard
from .blocks import ARRAY_FUNCTIONS, Block, build_blocks
from .registry import FunctionRegistry
from .schedule import Cycle, block_order, cell_order
from .stack import with_deep_stack
from .vector import Context, Unsupported, is_text
from .vector_compile import compile_tree

if TYPE_CHECKING:
    from .fallback import Fallback


class ConversionError(Exception):
    """A workbook that cannot be recalculated; the message names the sheet, the cell and why."""


class TimeLimit(ConversionError):
    """The workbook took longer than its time limit (``max_seconds``)."""


class Interrupted(ConversionError):
    """The batch was interrupted (Ctrl-C) while the workbook was being computed."""


@dataclass
class Evaluated:
    """A recalculated workbook: the package as read, every cell's value in ``grid``, the formula
    blocks, the spilled arrays, how many formula cells each path computed (``stats``), and a
    warning per cell the engine did not compute as Excel would (``warnings``: "Sheet!A1: why")."""

    package: Package
    grid: Grid
    blocks: list[Block]
    spills: dict[tuple[str, int, int], tuple[int, int]] = field(default_factory=dict)  # anchor -> (h, w)
    stats: dict[str, int] = field(default_factory=lambda: {"vector": 0, "cell": 0})
    warnings: list[str] = field(default_factory=list)
    not_computed: list[tuple[str, int, int, int, int]] = field(default_factory=list)  # (SHEET, row, col, ..)
    # warnings about the workbook as a whole, not one cell (``--now saved`` on a workbook that
    # records no save time): "why", the file named by whoever shows them
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Whether every formula got the value Excel would show (no warnings)."""
        return not self.warnings


def _names(package: Package) -> dict[str | None, dict[str, str]]:
    """The defined names each sheet's formulas see (:func:`..read.names.visible_names`)."""
    return visible_names(package.defined_names)


def sheet_order(package: Package) -> tuple[str, ...]:
    """The workbook's sheets in the order of its tabs, chart sheets included: the sheets a 3-D
    reference ``Jan:Dec!B2`` spans are those from Jan to Dec in this order."""
    return tuple(package.every_sheet) or tuple(cells.name for cells in package.sheets)


def evaluate_workbook(path: str, registry: FunctionRegistry, *, limits: Limits | None = None,
                      now: clock.NowOption = None, data: bytes | None = None) -> Evaluated:
    """Recalculate every formula of the workbook at ``path`` with the functions of ``registry``.

    ``limits``: the size limits of :mod:`xlrating.gate.safe_open` (default: its defaults) and the
    time limit (``max_seconds``: :class:`TimeLimit`, naming the cell being computed).
    ``now``: the moment TODAY() and NOW() see (:mod:`..read.clock`): None for the computer's clock
    (read once, as the workbook's computation starts), a wall-clock time, or :data:`~..read.clock.SAVED`
    for the workbook's save time; a workbook that records none then uses the computer's clock,
    with a note (:attr:`Evaluated.notes`) when a formula read it. ``data``: the file's bytes, read
    elsewhere (:func:`..read.package.read_package`).
    """
    limits = limits or Limits()
    package = read_package(path, limits=limits, data=data)
    moment, fallback = _moment(package, now)
    CHARACTER_SET.set(package.character_set)  # CHAR and CODE as the Excel that saved the workbook
    with using(package.date_system), clock.using(moment) as used:  # dates as the workbook counts them
        result = with_deep_stack(_evaluate, package, registry, limits)  # room for deep formulas
    result.notes.extend(package.notes)
    for cells in package.sheets:  # damaged cells, read as empty: the rest computes
        result.notes.extend(f"sheet '{cells.name}' ({cells.part}) is damaged: {what}" for what in cells.damaged)
    if fallback and used.read:
        result.notes.append(f"--now saved: the workbook records no save time ({package.no_saved_at}); TODAY() "
                            f"and NOW() used the computer's clock, {moment.isoformat(sep=' ', timespec='seconds')}")
    return result


def _moment(package: Package, now: clock.NowOption) -> tuple[dt.datetime, bool]:
    """The moment of the workbook's TODAY and NOW, and whether it is the computer's clock standing
    in for a save time the workbook does not record."""
    if isinstance(now, dt.datetime):
        return now, False
    if now == clock.SAVED:
        if package.saved_at is not None:
            return package.saved_at, False
        return dt.datetime.now(), True
    if now is not None:
        raise ValueError(f"now: expected a datetime, {clock.SAVED!r} or None, not {now!r}")
    return dt.datetime.now(), False


def _evaluate(package: Package, registry: FunctionRegistry, limits: Limits) -> Evaluated:
    """The workbook computed, under the watchdog (:mod:`.guard`): past the time limit, or on Ctrl-C,
    wherever it is, even inside one formula (``formulas`` computes some while compiling them), the
    conversion stops naming the cell; out of memory, the same."""
    deadline = time.monotonic() + limits.max_seconds
    evaluator: _Evaluator | None = None
    token = guard.WHERE.set(package.sheets[0].name if package.sheets else "the workbook")
    try:
        with guard.watched(deadline):
            result = _blocks(package, registry)
            evaluator = _Evaluator(result, _names(package), registry, limits.max_seconds, limits.max_cells, deadline)
            evaluator.run()
            return result
    except guard.Stopped as exc:
        where = evaluator.current if evaluator is not None and evaluator.current else guard.WHERE.get()
        if exc.why == "interrupted":
            raise Interrupted(f"{where}: interrupted (Ctrl-C) while computing") from None
        raise TimeLimit(past_time(where, limits.max_seconds)) from None
    except MemoryError:
        where = evaluator.current if evaluator is not None and evaluator.current else guard.WHERE.get()
        raise ConversionError(f"{where}: ran out of memory while computing (the workbook is within "
                              f"{describe('max_cells', limits.max_cells)} cells, its arrays within the engine's "
                              "caps; this computer gave less memory than they take)") from None
    finally:
        guard.WHERE.reset(token)


def past_time(where: str, seconds: float) -> str:
    return f"{where}: still computing after the time limit of {seconds:g} s (max_seconds, XLRATING_MAX_SECONDS)"


def _blocks(package: Package, registry: FunctionRegistry) -> Evaluated:
    """The workbook's cells in a grid, and its formulas in blocks."""
    grid = Grid()
    names = _names(package)
    blocks: list[Block] = []
    for cells in package.sheets:
        sheet = grid.add(cells.name, cells.max_row)
        if cells.numbers is not None:
            sheet.set_numbers(*cells.numbers)
        if cells.texts is not None:
            sheet.set_texts(*cells.texts)
        sheet.set_many(cells.values)
    if package.linked:
        from ..read.external import local_name
    for link in package.linked:  # what Excel cached of other workbooks, under names no sheet has
        sheet = grid.add(local_name(link.book, link.name), max((row for row, _ in link.cells), default=1))
        sheet.set_many([(row, col, value) for (row, col), value in link.cells.items()])
    order = sheet_order(package)
    for cells in package.sheets:
        sheet = grid.sheets[cells.name.upper()]
        blocks.extend(build_blocks(sheet, cells, names.get(cells.name.upper(), names[None]), len(blocks), registry,
                                   order))
    for number, block in enumerate(blocks):  # ids index the dependency graph: unique across sheets
        block.id = number
    return Evaluated(package, grid, blocks)


# The program of each tree (None: not vectorised), made once per process: the blocks of one formula
# text share one tree (:data:`.blocks._DERIVED`), so a batch of one template compiles each of its
# shapes once. Programs keep nothing of a run (their memos are per run). Keyed by the tree's
# identity, the tree kept alive in the entry.
_PROGRAMS: Kept[int, tuple[Any, FunctionRegistry, Any]] = Kept(4096)


class _Evaluator:
    def __init__(self, result: Evaluated, names: dict[str | None, dict[str, str]], registry: FunctionRegistry,
                 seconds: float, max_cells: int = Limits.max_cells, deadline: float | None = None):
        self.result = result
        self.registry = registry
        self.grid = result.grid
        self._names = names
        self._fallback: Fallback | None = None
        self.deadline = time.monotonic() + seconds if deadline is None else deadline
        self.seconds = seconds
        self.max_cells = max_cells  # the workbook's cells, spilled ones too
        self.spilled = 0  # cells filled by spills so far
        self._room: int | None = None
        # formula cells by (SHEET, col): sorted first rows and their blocks, for on-demand evaluation
        self._columns: dict[tuple[str, int], tuple[list[int], list[Block]]] = {}
        for b in sorted(result.blocks, key=lambda b: b.first):
            firsts, members = self._columns.setdefault((b.sheet.name.upper(), b.col), ([], []))
            firsts.append(b.first)
            members.append(b)
        self.done = {b.id: np.zeros(b.size, dtype=bool) for b in result.blocks}
        self.computing: set[tuple[int, int]] = set()  # cells being computed (on demand), outermost first
        self.current = ""  # the cell (or block) being computed, for the time limit's message
        self._quiet = False  # inside a loop's passes: reading a cell being computed is expected
        self.circled: list[tuple[str, int, int, int, int]] = []  # cells InCircle, made 0 at the end
        self.not_computed = result.not_computed  # (SHEET, row, col, row, col) of each cell left out

    @property
    def fallback(self) -> Fallback:
        """The cell-by-cell path, made when a cell first needs it: it loads ``formulas`` (tens of
        milliseconds), which a workbook the vectorised path computes whole never does."""
        if self._fallback is None:
            from .fallback import Fallback

            self._fallback = Fallback(self.grid, self._names, self.registry, self.result.package)
            self._fallback.demand = self.demand
            self._fallback.formula_text = self.formula_text
            self._fallback.spill_size = self.spill_size
        return self._fallback

    # --- bookkeeping ----------------------------------------------------------------------------

    @property
    def room(self) -> int:
        """The cells spills may fill: the workbook's limit less the cells it was read with (counted
        when first asked: most workbooks never spill)."""
        if self._room is None:
            held = sum(int(np.count_nonzero(column.kind)) for sheet in self.grid.sheets.values()
                       for column in sheet.columns.values())
            self._room = max(0, self.max_cells - held)
        return self._room

    def _check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise self.past_time()

    def past_time(self) -> TimeLimit:
        return TimeLimit(past_time(self.current, self.seconds))

    def _is_formula(self, sheet: str, row: int, col: int) -> bool:
        return self._block_at(sheet, row, col) is not None

    def _block_at(self, sheet: str, row: int, col: int) -> Block | None:
        found = self._columns.get((sheet, col))
        if found is None:
            return None
        firsts, members = found
        i = bisect_right(firsts, row) - 1
        if i >= 0 and members[i].last >= row:
            return members[i]
        return None

    def formula_text(self, sheet: str, row: int, col: int) -> str | None:
        """The formula of a cell as stored (None: not a formula), for FORMULATEXT and ISFORMULA."""
        block = self._block_at(sheet, row, col)
        return None if block is None else block.text(row)

    def spill_size(self, sheet: str, row: int, col: int) -> tuple[int, int] | None:
        """The (height, width) of the array a formula cell fills, computing it first; None if the
        cell is no formula. A formula giving one value fills (1, 1)."""
        block = self._block_at(sheet, row, col)
        if block is None:
            return None
        self.demand(sheet, row, col, row, col)
        if block.array_ref is not None and block.first == block.last:
            return block.array_ref
        return self.result.spills.get((sheet, row, col), (1, 1))

    def _warn(self, where: str, reason: str) -> None:
        self.result.warnings.append(f"{where}: {reason}")

    def _give_up(self, block: Block, row: int, reason: str) -> None:
        """Leave one cell not computed, with a warning naming it and why."""
        block.sheet.set(row, block.col, NotComputed(reason=reason))
        self.done[block.id][row - block.first] = True
        self.not_computed.append((block.sheet.name.upper(), row, block.col, row, block.col))
        self._warn(block.where(row), reason)

    def _reads_not_computed(self, block: Block) -> bool:
        return any(sheet == nc_sheet and c1 <= nc_col <= c2 and top <= nc_row <= bottom
                   for sheet, c1, c2, top, bottom in block.regions
                   for nc_sheet, nc_row, nc_col, _, _ in (*self.not_computed, *self.circled))

    # --- the schedule ---------------------------------------------------------------------------

    def run(self) -> None:
        for group, cell_level in block_order(self.result.blocks):
            for block in group:
                self._compile(block)
            if cell_level:
                for step in cell_order(group):
                    if isinstance(step, Cycle):
                        self._cycle(step)
                    else:
                        self._rows(step[0], np.array([step[1]]))
            else:
                for block in group:
                    self._rows(block, np.arange(block.first, block.last + 1))
        for sheet, row, col, _, _ in self.circled:  # what Excel leaves uncalculated in a circle shows 0
            self.grid.sheets[sheet].set(row, col, 0.0)

    def _compile(self, block: Block) -> None:
        if block.program is not None or block.tree is None or block.array_ref is not None or block.problem:
            return
        tree, registry = block.tree, self.registry
        kept = _PROGRAMS.get(id(tree))
        if kept is not None and kept[0] is tree and kept[1] is registry:
            block.program = kept[2]
            return
        try:
            block.program = compile_tree(tree, registry.lookup)
        except Unsupported:
            block.program = None
        _PROGRAMS[id(tree)] = (tree, registry, block.program)

    def _data_table(self, block: Block) -> bool:
        """Compute the data table whose first cell ``block`` is (:mod:`.data_tables`); False when the
        engine cannot, the block then left as its problem says."""
        from .data_tables import compute_data_table

        self.done[block.id][0] = True  # being computed: a formula reading it meanwhile is a circle
        if compute_data_table(self, block):
            return True
        self.done[block.id][0] = False
        return False

    def _rows(self, block: Block, rows: np.ndarray) -> None:
        self.current = block.where(int(rows[0]))
        self._check_time()
        if block.data_table is not None and not self.done[block.id][0] and self._data_table(block):
            return
        if block.problem:
            for row in rows.tolist():
                if not self.done[block.id][row - block.first]:
                    self._give_up(block, row, block.problem)
            return
        if block.program is not None and (self.not_computed or self.circled) and self._reads_not_computed(block):
            block.program = None  # cell by cell, so that exactly the cells reading them are left out
        if block.program is None:
            for row in rows.tolist():
                if not self.done[block.id][row - block.first]:
                    self._cell(block, row)
            return
        ctx = Context(self.grid, block.sheet, rows, block.anchor, lambda: self.fallback, block.params, block.first)
        try:
            vec = block.program(ctx)
        except Unsupported:
            block.program = None
            self._rows(block, rows)
            return
        deferred = bool(ctx.defer.any())
        done = ~ctx.defer if deferred else slice(None)  # every row computed (the rule): all of them as they are
        computed = rows[done]
        self._store(block, computed, vec.num[done], None if vec.err is None else vec.err[done], vec.is_bool,
                    None if vec.text is None else vec.text[done], None if vec.empty is None else vec.empty[done])
        self.done[block.id][computed - block.first] = True
        self.result.stats["vector"] += len(computed)
        if deferred:
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
        overflow = ~np.isfinite(num)
        if overflow.any() and (overflow := overflow & (column.kind[rows] == NUMBER)).any():
            # Excel has no infinity or NaN: a result past its range is #NUM!
            err = np.zeros(len(rows), dtype=np.int8) if err is None else err.copy()
            err[overflow & (err == 0)] = ERROR_INDEX_NUM
        if err is not None and err.any():
            failed = err != 0
            column.kind[rows[failed]] = ERROR
            column.num[rows[failed]] = 0.0
            for row, code in zip(rows[failed].tolist(), err[failed].tolist()):
                column.other[row] = ExcelError(ERROR_BY_INDEX[code])

    def _cell(self, block: Block, row: int) -> None:
        key = (block.id, row)
        self.computing.add(key)
        try:
            value = self.fallback.evaluate(block.text(row), block.sheet, row, block.col,
                                           intersect=self._intersects(block), fills=block.array_ref,
                                           operands=self.result.package.legacy_formulas)
        except CellFailure as exc:
            self._give_up(block, row, str(exc))
            return
        finally:
            self.computing.discard(key)
        self.result.stats["cell"] += 1
        self.done[block.id][row - block.first] = True
        if isinstance(value, InCircle) or (isinstance(value, ExcelError) and value.code == CIRCULAR.code):
            self._in_circle(block, row)
        elif isinstance(value, NotComputed):
            block.sheet.set(row, block.col, value)
            self.not_computed.append((block.sheet.name.upper(), row, block.col, row, block.col))
            self._warn(block.where(row), value.reason)
        elif isinstance(value, np.ndarray) or (block.array_ref is not None and block.array_ref != (1, 1)):
            self._spill(block, row, value if isinstance(value, np.ndarray) else _single(value))
        else:
            block.sheet.set(row, block.col, value)

    def _intersects(self, block: Block) -> bool:
        """An ordinary formula (not an array formula) that Excel computes as a legacy formula, with
        implicit intersection: one of references, operators and functions of single values
        (``=B1:B9``, ``=B:B*2``, ``=CONVERT(C16:Q16,"C","F")``). Formulas with a dynamic-array
        function (SEQUENCE, FILTER ...) spill instead, unless the workbook was saved by Excel (or
        LibreOffice): Excel saves every formula it computes as a dynamic array as an array formula
        (``t="array"``, marked dynamic by ``cm``), so an ordinary one there is a legacy formula, which
        shows the first value of an array (``=@SEQUENCE(3)`` in Excel's formula bar). Formulas with
        one of xlrating's functions always spill: ours take a range for a single value on purpose,
        to fill a column from one formula."""
        if block.array_ref is not None or block.tree is None:
            return False
        legacy = self.result.package.legacy_formulas
        return not any(isinstance(node, Call) and ((not legacy and builtin_name(node.name) in ARRAY_FUNCTIONS)
                                                   or our_function(node.name) is not None)
                       for node in walk(block.tree))

    def demand(self, sheet: str, r1: int, c1: int, r2: int, c2: int) -> None:
        """Compute the formula cells of an area that are not computed yet (read through a reference
        known only when computed, or one the schedule could not see); a cell already being
        computed is a circular reference and keeps its current value, as Excel shows it."""
        self._check_time()
        for col in range(c1, c2 + 1):
            found = self._columns.get((sheet, col))
            if found is None:
                continue
            for block in found[1]:
                if block.last < r1 or block.first > r2:
                    continue
                lo, hi = max(r1, block.first), min(r2, block.last)
                pending = np.flatnonzero(~self.done[block.id][lo - block.first:hi - block.first + 1])
                for offset in pending.tolist():
                    row = lo + offset
                    if (block.id, row) in self.computing:
                        if not self._quiet:
                            self._warn(block.where(row), "circular reference: the formula depends on its own "
                                       "value; Excel shows 0 unless iterative calculation is enabled")
                        continue
                    if len(self.computing) > MAX_DEMAND_DEPTH:
                        raise CellFailure(f"a chain of more than {MAX_DEMAND_DEPTH} cells computed on demand")
                    self._compile(block)
                    if block.data_table is not None and row == block.first and self._data_table(block):
                        continue
                    if block.problem:
                        self._give_up(block, row, block.problem)
                    else:
                        self._cell(block, row)

    def _cycle(self, cycle: Cycle) -> None:
        """Cells whose formulas read each other: iterated as Excel does when the workbook enables
        iterative calculation (at most ``count`` rounds, until no value changes by more than
        ``delta``). Otherwise each is computed once, on demand, and a cell still being computed
        reads as the error :data:`CIRCULAR`: a loop an IF steps out of (``IF(A6, B6, 1)`` with A6
        FALSE) gets its values, while a cell whose value does depend on itself is a circular
        reference, which Excel leaves uncalculated: it and the cells reading it show 0
        (:class:`~.grid.InCircle`), with a warning."""
        settings = self.result.package.calc
        self.current = cycle.where()
        if not settings.iterate:
            circled = list(cycle.cells)
            self._quiet = True
            try:
                for _ in range(len(cycle.cells)):  # again while a pass takes cells out of the circle
                    again = {(block.sheet.name.upper(), row, block.col, row, block.col) for block, row in circled}
                    self.circled = [position for position in self.circled if position not in again]
                    for block, row in circled:
                        block.sheet.set(row, block.col, CIRCULAR)
                        self.done[block.id][row - block.first] = False
                    for block, row in circled:
                        if not self.done[block.id][row - block.first]:
                            self._cell(block, row)
                    still = [(block, row) for block, row in circled
                             if isinstance(block.sheet.get(row, block.col), InCircle)]
                    if len(still) == len(circled):
                        break
                    circled = still
            finally:
                self._quiet = False
            if circled:
                block, row = circled[0]
                self._warn(block.where(row), f"circular reference through {len(circled)} cell(s): Excel leaves them "
                           "uncalculated and shows 0 (the workbook does not enable iterative calculation)")
            return
        for block, row in cycle.cells:  # the cells start empty (0) and are read as they are, never demanded
            self.done[block.id][row - block.first] = True
        for _ in range(settings.count):
            self._check_time()
            change = 0.0
            for block, row in cycle.cells:
                before = block.sheet.get(row, block.col)
                self._cell(block, row)
                after = block.sheet.get(row, block.col)
                if isinstance(before, float) and isinstance(after, float):
                    change = max(change, abs(after - before))
                elif before != after:
                    change = math.inf
            if change <= settings.delta:
                break

    def _in_circle(self, block: Block, row: int) -> None:
        block.sheet.set(row, block.col, InCircle())
        position = (block.sheet.name.upper(), row, block.col, row, block.col)
        if position not in self.circled:
            self.circled.append(position)

    def _spill(self, block: Block, row: int, values: np.ndarray) -> None:
        """An array result (2-D, of the formula's own values, :func:`.fallback.result_value`) laid
        from the formula's cell down and right, column by column: first its size against the
        workbook's cell limit, then whether it lands on other cells (#SPILL!), then its values made
        cell values as they are stored, the time limit and Ctrl-C looked at every
        :data:`SPILL_STEP` of them."""
        sheet = block.sheet
        height, width = values.shape
        if block.array_ref is not None:  # a legacy array formula fills exactly its range (see _fill)
            height, width = block.array_ref
        cells = height * width
        if self.spilled + cells > self.room:
            self._give_up(block, row, f"its array of {height:,} x {width:,} = {cells:,} values would take the "
                          f"workbook past its limit of {describe('max_cells', self.max_cells)} cells")
            return
        if block.array_ref is not None:
            values = _fill(values, height, width)
        elif row + height - 1 > MAX_ROW or block.col + width - 1 > MAX_COL or self._lands_on_cells(block, row, height, width):  # past the sheet's edge
            sheet.set(row, block.col, ExcelError("#SPILL!"))
            return
        self.spilled += cells
        from .fallback import cell_value

        sheet.ensure_rows(row + height - 1)
        step = max(1, SPILL_STEP // max(height, 1))
        for j in range(width):
            if j % step == 0:
                guard.check(self.deadline)
            for top in range(0, height, SPILL_STEP):
                if top:
                    guard.check(self.deadline)
                part = values[top:top + SPILL_STEP, j].tolist()
                sheet.set_many([(row + top + i, block.col + j, cell_value(value)) for i, value in enumerate(part)])
        self.result.spills[(sheet.name.upper(), row, block.col)] = (height, width)

    def _lands_on_cells(self, block: Block, row: int, height: int, width: int) -> bool:
        """Whether an array spilled from ``row`` would cover a cell holding a value or a formula
        (the formula's own cell aside): Excel's #SPILL!."""
        sheet, name = block.sheet, block.sheet.name.upper()
        bottom = row + height - 1
        for j in range(width):
            col = block.col + j
            top = row + 1 if j == 0 else row
            if top > bottom:
                continue
            column = sheet.columns.get(col)
            if column is not None and column.kind[top:bottom + 1].any():
                return True
            found = self._columns.get((name, col))
            if found is not None and any(other.first <= bottom and other.last >= top for other in found[1]):
                return True
        return False


def _single(value: Any) -> np.ndarray:
    """One value as a 1 x 1 array result."""
    array = np.empty((1, 1), dtype=object)
    array[0, 0] = value
    return array


def _fill(values: np.ndarray, height: int, width: int) -> np.ndarray:
    """An array result laid over a legacy array formula's range: a single row or column (or value)
    repeats across it, as Excel does; cells beyond a larger array are #N/A."""
    rows, cols = values.shape
    filled = np.empty((height, width), dtype=object)
    filled[...] = ExcelError("#N/A")
    source = values
    if rows == 1:
        source = np.repeat(source, height, axis=0)
    if cols == 1:
        source = np.repeat(source, width, axis=1)
    h, w = min(height, source.shape[0]), min(width, source.shape[1])
    filled[:h, :w] = source[:h, :w]
    return filled


# values of a spill stored at a time, between two looks at the time limit and Ctrl-C
SPILL_STEP = 1 << 16
MAX_DEMAND_DEPTH = 2_000
# what a cell of a loop reads of a cell of the loop still being computed (Excel has no such error:
# a formula ending with it depends on its own value)
CIRCULAR = ExcelError("#CIRCULAR!", "circular reference")
ERROR_INDEX_NUM = next(i for i, code in ERROR_BY_INDEX.items() if code == "#NUM!")

__all__ = ["ConversionError", "Evaluated", "Interrupted", "TimeLimit", "evaluate_workbook"]
