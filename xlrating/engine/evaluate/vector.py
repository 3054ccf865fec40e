"""The column-vectorised fast path: one formula shape evaluated for many rows at once with numpy.

A block is one formula filled down a column. Its compiled program (:mod:`.vector_compile`) takes
the rows to evaluate and returns one :class:`Vec` per node: numbers, error codes, which rows were
empty references, text where a row's value is text, whether the values are booleans. This module
holds the values and the operators: cell and range reads (relative or absolute), arithmetic,
comparison, blank tests (``X=""``), AND/OR, IF/IFERROR. ``+ - * /`` and comparisons are numpy's, which
IEEE 754 makes the same double as one cell at a time; ``^`` is Python's float power per row
(:func:`xlrating.core.powers.powers`), as the cell-by-cell path computes it, because numpy's own
power differs from it in the last place on some processors. Rows whose inputs would need one of
Excel's coercions (text used as a number, booleans from cells) are marked *deferred* and go cell
by cell through ``formulas`` (:mod:`.fallback`), so the fast path never has to guess them; IF
defers a row only for the branch that row takes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from xlrating.core.powers import powers
from xlrating.excel_errors import ExcelError

from ..formula.tree import Ref
from ..read.grid import BOOL, EMPTY, ERROR, NUMBER, TEXT, Grid, Sheet, error_index

DIV0 = error_index("#DIV/0!")
NUM = error_index("#NUM!")
VALUE = error_index("#VALUE!")
NA = error_index("#N/A")
MAX_WINDOW = 512  # cells in a per-row window (e.g. B5:K5) gathered into a matrix
MAX_RUNNING_CELLS = 1 << 20  # cells of the rows x window matrix of running totals after different sums


class Unsupported(Exception):
    """The shape uses something the fast path does not cover; evaluate it cell by cell."""


@dataclass
class Vec:
    """The values of a column of rows: numbers, with errors, empty cells, text and logical values
    marked where there are any."""

    num: np.ndarray
    err: np.ndarray | None = None  # int8 error index per row, 0 = no error
    empty: np.ndarray | None = None  # rows that are a reference to an empty cell
    is_bool: bool = False
    text: np.ndarray | None = None  # object array: the text of rows whose value is text, else None


def _text_mask(v: Vec) -> np.ndarray | None:
    if v.text is None:
        return None
    mask = is_text(v.text)
    return mask if mask.any() else None


def is_text(text: np.ndarray) -> np.ndarray:
    """Which entries of an object array of texts-or-None hold a text."""
    return np.fromiter((t is not None for t in text), dtype=bool, count=len(text))


def _numeric(ctx: Context, v: Vec) -> Vec:
    """``v`` used as a number: rows holding text go to the cell-by-cell path (Excel may coerce "3")."""
    mask = _text_mask(v)
    if mask is not None:
        ctx.defer |= mask
    return v


class Context:
    """One evaluation: the rows, the sheet holding the formula, the rows to defer."""

    def __init__(self, grid: Grid, sheet: Sheet, rows: np.ndarray, anchor_row: int,
                 cell_path: Callable[[], Any] | None = None, params: dict[int, np.ndarray] | None = None,
                 first: int = 0):
        self.grid = grid
        self.sheet = sheet
        self.rows = rows
        self.n = len(rows)
        self.shift = rows - anchor_row  # how far each row is from the row the tree was parsed at
        self.defer = np.zeros(self.n, dtype=bool)
        self._cell_path = cell_path
        self.params = params  # the block's literals that change from row to row, per row from ``first``
        self.first = first

    def subset(self, rows: np.ndarray) -> Context:
        """The same evaluation for some of its rows (indices into :attr:`rows`), nothing deferred yet."""
        anchor = int(self.rows[0] - self.shift[0])
        return Context(self.grid, self.sheet, self.rows[rows], anchor, self._cell_path, self.params, self.first)

    def param(self, index: int) -> np.ndarray:
        """The value of the block's literal ``index`` (a :class:`~.formula.tree.Param`) in each row."""
        if self.params is None or index not in self.params:
            raise Unsupported("a literal without its values")
        return self.params[index][self.rows - self.first]

    @property
    def fallback(self) -> Any:
        """The cell-by-cell path (:class:`.fallback.Fallback`), whose reads the memoised built-ins
        share; None where there is none. Made on first use (it loads ``formulas``)."""
        return None if self._cell_path is None else self._cell_path()


Program = Callable[[Context], Any]


def _merge(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """First error wins, as Excel reads operands left to right."""
    if a is None:
        return b
    if b is None:
        return a
    return np.where(a != 0, a, b)


def _with_error(err: np.ndarray | None, mask: np.ndarray, code: int) -> np.ndarray | None:
    if not mask.any():
        return err
    base = np.zeros(len(mask), dtype=np.int8) if err is None else err.copy()
    base[(base == 0) & mask] = code
    return base


def _resolve_sheet(ctx: Context, name: str | None) -> Sheet | None:
    return ctx.sheet if name is None else ctx.grid.sheet(name)



# --- references ---------------------------------------------------------------------------------

def _read_cell(ctx: Context, ref: Ref) -> Vec:
    sheet = _resolve_sheet(ctx, ref.sheet)
    if sheet is None:
        return Vec(np.zeros(ctx.n), np.full(ctx.n, error_index("#REF!"), dtype=np.int8))
    column = sheet.columns.get(ref.c1)
    if column is None:
        return Vec(np.zeros(ctx.n), None, np.ones(ctx.n, dtype=bool))
    if ctx.n == 1:  # one row (cells ordered one by one): skip the array machinery for a plain number
        row = ref.r1 + int(ctx.shift[0]) if ref.rel_r1 else ref.r1
        if row < len(column.kind) and column.kind[row] == NUMBER:
            return Vec(column.num[row:row + 1].copy())
    src_rows = ref.r1 + ctx.shift if ref.rel_r1 else np.full(ctx.n, ref.r1)
    inside = src_rows < len(column.kind)
    if inside.all():  # the rule: every row read inside the column
        clipped = src_rows
        kinds = column.kind[clipped]
    else:
        clipped = np.where(inside, src_rows, 0)
        kinds = np.where(inside, column.kind[clipped], EMPTY)
    num = np.where(kinds == NUMBER, column.num[clipped], 0.0)
    empty: np.ndarray | None = kinds == EMPTY
    if not empty.any():  # type: ignore[union-attr]
        empty = None
    err = None
    text = None
    is_bool = False
    if kinds.max(initial=0) > NUMBER:
        bools = kinds == BOOL
        if bools.any():
            if (kinds == NUMBER).any():  # numbers and booleans in one input: the cell path types each
                ctx.defer |= bools
            else:  # a column of flags (TRUE/FALSE, maybe blanks): booleans as 1/0
                is_bool = True
                for i in np.flatnonzero(bools):
                    num[i] = float(column.other[int(clipped[i])])
        errors = np.flatnonzero(kinds == ERROR)
        if len(errors):
            err = np.zeros(ctx.n, dtype=np.int8)
            for i in errors:
                err[i] = error_index(column.other[int(clipped[i])].code)
        texts = np.flatnonzero(kinds == TEXT)
        if len(texts):
            text = np.full(ctx.n, None, dtype=object)
            for i in texts:
                text[i] = column.other[int(clipped[i])]
    return Vec(num, err, empty, is_bool, text)


@dataclass
class _Area:
    """Numbers of a range, per evaluated row: values (rows x cells), which are numbers, first error."""

    values: np.ndarray
    numeric: np.ndarray
    first_error: np.ndarray  # error index per row, 0 = none


def _area_columns(sheet: Sheet | None, ref: Ref) -> list[int]:
    if sheet is None:
        return []
    return [c for c in range(ref.c1, ref.c2 + 1) if c in sheet.columns] if ref.c2 - ref.c1 < 64 else \
        sorted(c for c in sheet.columns if ref.c1 <= c <= ref.c2)


def _read_area(ctx: Context, ref: Ref) -> _Area:
    sheet = _resolve_sheet(ctx, ref.sheet)
    if sheet is None:
        raise Unsupported("reference to a missing sheet")
    columns = _area_columns(sheet, ref)
    if not ref.rel_r1 and not ref.rel_r2:  # the same range for every row: read once, broadcast
        top, bottom = ref.r1, min(ref.r2, sheet.size - 1)
        parts_v, parts_k = [], []
        for c in columns:
            column = sheet.columns[c]
            kinds = column.kind[top:bottom + 1]
            parts_v.append(column.num[top:bottom + 1])
            parts_k.append(kinds)
        if not parts_v:
            return _Area(np.zeros((1, 0)), np.zeros((1, 0), dtype=bool), np.zeros(1, dtype=np.int8))
        # row-major order (row by row, left to right) so the first error is the one Excel meets
        values = np.stack(parts_v, axis=1).reshape(1, -1)
        kinds = np.stack(parts_k, axis=1).reshape(-1)
        first = np.zeros(1, dtype=np.int8)
        errors = np.flatnonzero(kinds == ERROR)
        if len(errors):
            pos = int(errors[0])
            c = columns[pos % len(columns)]
            first[0] = error_index(sheet.columns[c].other[top + pos // len(columns)].code)
        return _Area(values, (kinds == NUMBER).reshape(1, -1), first)
    if ctx.n == 1:  # one row: the window is just a fixed range
        shift = int(ctx.shift[0])
        return _read_area(ctx, Ref(ref.sheet, ref.r1 + (shift if ref.rel_r1 else 0), ref.c1,
                                   ref.r2 + (shift if ref.rel_r2 else 0), ref.c2))
    if ref.rel_r1 != ref.rel_r2:
        raise Unsupported("a range with one end anchored (a growing window)")
    height = ref.r2 - ref.r1 + 1
    if height * max(len(columns), 1) > MAX_WINDOW:
        raise Unsupported("a moving window too large to gather")
    values = np.zeros((ctx.n, height * len(columns)))
    kinds = np.zeros((ctx.n, height * len(columns)), dtype=np.int8)
    j = 0
    for dr in range(height):
        src = ref.r1 + dr + ctx.shift
        for c in columns:
            column = sheet.columns[c]
            inside = src < len(column.kind)
            clipped = np.where(inside, src, 0)
            kinds[:, j] = np.where(inside, column.kind[clipped], EMPTY)
            values[:, j] = column.num[clipped]
            j += 1
    first = np.zeros(ctx.n, dtype=np.int8)
    if (kinds == ERROR).any():
        for i in np.flatnonzero((kinds == ERROR).any(axis=1)):
            pos = int(np.flatnonzero(kinds[i] == ERROR)[0])
            c = columns[pos % len(columns)]
            first[i] = error_index(sheet.columns[c].other[int(ref.r1 + pos // len(columns) + ctx.shift[i])].code)
    return _Area(values, kinds == NUMBER, first)


class _Growing:
    """A range whose top row is fixed and whose bottom row moves with the formula's row
    (``SUM($E$2:E9)`` filled down: a running total), read once over its largest extent; each
    row's window is a prefix of it in the cell path's order (row by row, left to right)."""

    def __init__(self, ctx: Context, ref: Ref):
        sheet = _resolve_sheet(ctx, ref.sheet)
        if sheet is None:
            raise Unsupported("reference to a missing sheet")
        if ref.rel_r1 or not ref.rel_r2 or ctx.shift.min() < 0:
            raise Unsupported("a window that is not a fixed top and a moving bottom")
        columns = _area_columns(sheet, ref)
        top = ref.r1
        bottoms = ref.r2 + ctx.shift  # >= top: the reference is ordered at the anchor, shifts only grow
        last = min(int(bottoms.max()), sheet.size - 1)
        height = max(last - top + 1, 0)
        width = len(columns)
        if width and height:
            values = np.stack([sheet.columns[c].num[top:top + height] for c in columns], axis=1).reshape(-1)
            kinds = np.stack([sheet.columns[c].kind[top:top + height] for c in columns], axis=1).reshape(-1)
        else:
            values, kinds = np.zeros(0), np.zeros(0, dtype=np.int8)
        # how many cells of the flattened range each row's window holds
        self.ends = np.clip(bottoms - top + 1, 0, height) * width
        self.numeric = kinds == NUMBER
        self.values = np.where(self.numeric, values, 0.0)
        self.first_error = np.zeros(ctx.n, dtype=np.int8)
        errors = np.flatnonzero(kinds == ERROR)
        if len(errors):
            pos = int(errors[0])
            code = error_index(sheet.columns[columns[pos % width]].other[top + pos // width].code)
            self.first_error[self.ends > pos] = code

    def _prefix(self, running: np.ndarray, empty: float) -> np.ndarray:
        picked = np.full(len(self.ends), empty)
        inside = self.ends > 0
        picked[inside] = running[self.ends[inside] - 1]
        return picked

    def add_to(self, total: np.ndarray) -> np.ndarray:
        """``total`` plus each row's window, added one cell at a time after it (as
        :func:`_add_in_order`): a cumulative sum per distinct starting total."""
        if not len(self.values):
            return total
        starts, inverse = np.unique(total, return_inverse=True)
        if len(starts) > 8:  # a sum before the window in each row: one running total per row
            if len(total) * (len(self.values) + 1) > MAX_RUNNING_CELLS:
                raise Unsupported("a running total after many different sums")
            matrix = np.empty((len(total), len(self.values) + 1))
            matrix[:, 0] = total
            matrix[:, 1:] = self.values
            added: np.ndarray = np.cumsum(matrix, axis=1)[np.arange(len(total)), self.ends]
            return added
        out = np.empty(len(total))
        for k, start in enumerate(starts.tolist()):
            running = np.cumsum(np.concatenate(([start], self.values)))[1:]
            rows = inverse.reshape(-1) == k
            out[rows] = np.where(self.ends[rows] > 0, running[np.maximum(self.ends[rows] - 1, 0)], start)
        return out

    def count(self) -> np.ndarray:
        return self._prefix(np.cumsum(self.numeric), 0.0)

    def low(self) -> np.ndarray:
        return self._prefix(np.minimum.accumulate(np.where(self.numeric, self.values, np.inf)), np.inf) \
            if len(self.values) else np.full(len(self.ends), np.inf)

    def high(self) -> np.ndarray:
        return self._prefix(np.maximum.accumulate(np.where(self.numeric, self.values, -np.inf)), -np.inf) \
            if len(self.values) else np.full(len(self.ends), -np.inf)


def growing(ref: Ref) -> bool:
    """A range with its top row fixed and its bottom row moving with the formula (a running total)."""
    return not ref.name and not ref.rel_r1 and ref.rel_r2


def _add_in_order(total: np.ndarray, area: _Area) -> np.ndarray:
    """``total`` plus the numbers of each row's ``area``, added one at a time in the cell path's
    order (row-major, after ``total``), so SUM and AVERAGE give the cell-by-cell double: numpy's
    ``sum`` adds pairwise, which rounds differently. A cumulative sum adds left to right."""
    values = np.where(area.numeric, area.values, 0.0)  # x + 0.0 is x (a running total is never -0.0)
    if values.shape[1] == 0:
        return total
    if len(values) == len(total):  # a window per row
        added: np.ndarray = np.cumsum(np.column_stack([total, values]), axis=1)[:, -1]
        return added
    # one range for every row: once per distinct running total (usually one: nothing before it)
    starts, inverse = np.unique(total, return_inverse=True)
    ends = np.array([np.cumsum(np.concatenate(([start], values[0])))[-1] for start in starts.tolist()])
    summed: np.ndarray = ends[inverse]
    return summed


# --- compilation --------------------------------------------------------------------------------

def _const(value: Any) -> Program:
    if isinstance(value, ExcelError):
        code = error_index(value.code)
        return lambda ctx: Vec(np.zeros(ctx.n), np.full(ctx.n, code, dtype=np.int8))
    if isinstance(value, str):
        return lambda ctx: Vec(np.zeros(ctx.n), text=np.full(ctx.n, value, dtype=object))
    if value is None:
        raise Unsupported("an omitted argument")
    number = float(value)
    is_bool = isinstance(value, bool)
    return lambda ctx: Vec(np.full(ctx.n, number), is_bool=is_bool)


def _param(index: int, kind: str) -> Program:
    """A literal whose value changes from row to row (a number, or a string as text)."""
    if kind == "s":
        return lambda ctx: Vec(np.zeros(ctx.n), text=ctx.param(index))
    return lambda ctx: Vec(ctx.param(index).astype(np.float64))


def _arith(op: str, left: Program, right: Program) -> Program:
    def run(ctx: Context) -> Vec:
        a, b = _numeric(ctx, left(ctx)), _numeric(ctx, right(ctx))
        err = _merge(a.err, b.err)
        with np.errstate(all="ignore"):
            if op == "+":
                num = a.num + b.num
            elif op == "-":
                num = a.num - b.num
            elif op == "*":
                num = a.num * b.num
            elif op == "/":
                zero = b.num == 0
                num = np.divide(a.num, np.where(zero, 1.0, b.num))
                err = _with_error(err, zero, DIV0)
            else:
                num = powers(a.num, b.num)  # the cell path's float power, not numpy's (see core.powers)
                err = _with_error(err, (a.num == 0) & (b.num < 0), DIV0)  # Excel: 0^-1 is #DIV/0!
                err = _with_error(err, (a.num == 0) & (b.num == 0), NUM)  # and 0^0 is #NUM!
        err = _with_error(err, ~np.isfinite(num), NUM)
        return Vec(np.where(np.isfinite(num), num, 0.0), err)
    return run


_COMPARE = {"=": np.equal, "<>": np.not_equal, "<": np.less, ">": np.greater, "<=": np.less_equal,
            ">=": np.greater_equal}


def _compare(op: str, left: Program, right: Program) -> Program:
    def run(ctx: Context) -> Vec:
        a, b = _numeric(ctx, left(ctx)), _numeric(ctx, right(ctx))
        if a.is_bool != b.is_bool:  # TRUE > any number in Excel; leave such rows to the fallback
            ctx.defer[:] = True
        return Vec(_COMPARE[op](a.num, b.num).astype(np.float64), _merge(a.err, b.err), is_bool=True)
    return run


def _unary(op: str, operand: Program) -> Program:
    def run(ctx: Context) -> Vec:
        a = _numeric(ctx, operand(ctx))
        num = -a.num if op == "u-" else a.num / 100.0 if op == "%" else a.num
        return Vec(num, a.err)
    return run


def _branches(ctx: Context, take: np.ndarray, yes: Program, no: Program | None) -> tuple[Vec, Vec]:
    """Evaluate both branches, keeping only the deferrals of the branch each row takes."""
    before = ctx.defer.copy()
    ctx.defer[:] = False
    a = yes(ctx)
    defer_yes = ctx.defer.copy()
    ctx.defer[:] = False
    b = no(ctx) if no is not None else Vec(np.zeros(ctx.n), is_bool=True)
    ctx.defer[:] = before | (take & defer_yes) | (~take & ctx.defer)
    return a, b


def _choose(take: np.ndarray, a: Vec, b: Vec, err: np.ndarray | None, ctx: Context) -> Vec:
    if a.is_bool != b.is_bool:  # booleans in some rows, numbers in others: the cell path keeps both
        ctx.defer[:] = True
    err_a = a.err if a.err is not None else np.zeros(ctx.n, dtype=np.int8)
    err_b = b.err if b.err is not None else np.zeros(ctx.n, dtype=np.int8)
    text = None
    if a.text is not None or b.text is not None:
        text_a = a.text if a.text is not None else np.full(ctx.n, None, dtype=object)
        text_b = b.text if b.text is not None else np.full(ctx.n, None, dtype=object)
        text = np.where(take, text_a, text_b)
    empty = None
    if a.empty is not None or b.empty is not None:
        empty = np.where(take, a.empty if a.empty is not None else False, b.empty if b.empty is not None else False)
    return Vec(np.where(take, a.num, b.num), _merge(err, np.where(take, err_a, err_b)), empty, a.is_bool, text)


def _if(cond: Program, yes: Program, no: Program | None) -> Program:
    def run(ctx: Context) -> Vec:
        c = _numeric(ctx, cond(ctx))
        take = c.num != 0
        a, b = _branches(ctx, take, yes, no)
        return _choose(take, a, b, c.err, ctx)
    return run


def _blank_test(operand: Program, equal: bool) -> Program:
    """``X = ""`` (or ``<>``): true for an empty cell or empty text, false for any number."""
    def run(ctx: Context) -> Vec:
        v = operand(ctx)
        blank = v.empty.copy() if v.empty is not None else np.zeros(ctx.n, dtype=bool)
        if v.text is not None:
            blank |= np.equal(v.text, "")
        return Vec((blank if equal else ~blank).astype(np.float64), v.err, is_bool=True)
    return run


def _logical(name: str, programs: list[Program]) -> Program:
    """AND / OR over conditions (comparisons, numbers): errors propagate, text goes cell by cell."""
    def run(ctx: Context) -> Vec:
        values = [_numeric(ctx, p(ctx)) for p in programs]
        truth = [v.num != 0 for v in values]
        result = np.logical_and.reduce(truth) if name == "AND" else np.logical_or.reduce(truth)
        err = None
        for v in values:
            err = _merge(err, v.err)
        return Vec(result.astype(np.float64), err, is_bool=True)
    return run


def _iferror(value: Program, fallback: Program) -> Program:
    def run(ctx: Context) -> Vec:
        a: Vec = value(ctx)
        if a.err is None or not a.err.any():
            return a
        failed = a.err != 0
        before = ctx.defer.copy()
        ctx.defer[:] = False
        b = fallback(ctx)
        ctx.defer[:] = before | (failed & ctx.defer)
        clean = Vec(a.num, None, a.empty, a.is_bool, a.text)
        return _choose(failed, b, clean, None, ctx)
    return run
