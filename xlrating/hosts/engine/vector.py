"""The column-vectorised fast path: one formula shape evaluated for many rows at once with numpy.

A block is one formula filled down a column. :func:`compile_tree` turns its expression tree into a
program that takes the rows to evaluate and returns one :class:`Vec` (numbers, error codes, which
rows were empty references, whether the values are booleans). The program covers the formulas
rating sheets are made of: numbers, cell references (relative or absolute), arithmetic and
comparison, IF/IFERROR, SUM/AVERAGE/MIN/MAX/COUNT over ranges or per-row windows, RANK, ROUND,
ABS, and xlrating's broadcasting functions (called per row through :func:`xlrating.functions.call`,
memoised on the argument tuple: rating columns repeat the same arguments). Anything else raises
:class:`Unsupported` at compile time and the block goes cell by cell through ``formulas``
(:mod:`.fallback`). Rows whose inputs hold text or booleans are marked *deferred* and also go to
the fallback, so the fast path never has to guess Excel's coercions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from formulas.functions.math import xround

from xlrating.functions import ExcelError, ExcelFunction, call

from .formula import Call, Const, Node, Op, Ref
from .grid import BOOL, EMPTY, ERROR, ERROR_BY_INDEX, NUMBER, TEXT, Grid, Sheet, error_index
from .registry import builtin_name, our_function

DIV0 = error_index("#DIV/0!")
NUM = error_index("#NUM!")
VALUE = error_index("#VALUE!")
NA = error_index("#N/A")
MAX_WINDOW = 512  # cells in a per-row window (e.g. B5:K5) gathered into a matrix


class Unsupported(Exception):
    """The shape uses something the fast path does not cover; evaluate it cell by cell."""


@dataclass
class Vec:
    num: np.ndarray
    err: np.ndarray | None = None  # int8 error index per row, 0 = no error
    empty: np.ndarray | None = None  # rows that are a reference to an empty cell
    is_bool: bool = False
    text: np.ndarray | None = None  # object array: the text of rows whose value is text, else None


def _text_mask(v: Vec) -> np.ndarray | None:
    if v.text is None:
        return None
    mask = np.not_equal(v.text, None)
    return mask if mask.any() else None


def _numeric(ctx: Context, v: Vec) -> Vec:
    """``v`` used as a number: rows holding text go to the cell-by-cell path (Excel may coerce "3")."""
    mask = _text_mask(v)
    if mask is not None:
        ctx.defer |= mask
    return v


class Context:
    """One evaluation: the rows, the sheet holding the formula, the rows to defer."""

    def __init__(self, grid: Grid, sheet: Sheet, rows: np.ndarray, anchor_row: int):
        self.grid = grid
        self.sheet = sheet
        self.rows = rows
        self.n = len(rows)
        self.shift = rows - anchor_row  # how far each row is from the row the tree was parsed at
        self.defer = np.zeros(self.n, dtype=bool)


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


def _rows_of(ref_row: int, relative: bool, ctx: Context) -> np.ndarray | int:
    return ref_row + ctx.shift if relative else ref_row


# --- references ---------------------------------------------------------------------------------

def _read_cell(ctx: Context, ref: Ref) -> Vec:
    sheet = _resolve_sheet(ctx, ref.sheet)
    if sheet is None:
        return Vec(np.zeros(ctx.n), np.full(ctx.n, error_index("#REF!"), dtype=np.int8))
    column = sheet.columns.get(ref.c1)
    src = _rows_of(ref.r1, ref.rel_r1, ctx)
    if column is None:
        return Vec(np.zeros(ctx.n), None, np.ones(ctx.n, dtype=bool))
    src_rows = np.broadcast_to(np.asarray(src), (ctx.n,))
    inside = src_rows < len(column.kind)
    clipped = np.where(inside, src_rows, 0)
    kinds = np.where(inside, column.kind[clipped], EMPTY)
    num = np.where(kinds == NUMBER, column.num[clipped], 0.0)
    empty = kinds == EMPTY
    err = None
    text = None
    if kinds.max(initial=0) > NUMBER:
        ctx.defer |= kinds == BOOL
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
    return Vec(num, err, empty, text=text)


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
        parts_v, parts_k, parts_e = [], [], []
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
        first = 0
        errors = np.flatnonzero(kinds == ERROR)
        if len(errors):
            pos = int(errors[0])
            c = columns[pos % len(columns)]
            first = error_index(sheet.columns[c].other[top + pos // len(columns)].code)
        return _Area(values, (kinds == NUMBER).reshape(1, -1), np.array([first], dtype=np.int8))
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
                num = np.power(a.num, b.num)
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
        a = value(ctx)
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


def _aggregate(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    areas = [a for a in args if isinstance(a, Ref)]
    if any(a.name for a in areas):
        raise Unsupported("defined name")
    scalars = [compile_node(a) for a in args if not isinstance(a, Ref)]

    def run(ctx: Context) -> Vec:
        total = np.zeros(ctx.n)
        count = np.zeros(ctx.n)
        low = np.full(ctx.n, np.inf)
        high = np.full(ctx.n, -np.inf)
        err = np.zeros(ctx.n, dtype=np.int8)
        for ref in areas:
            area = _read_area(ctx, ref)
            if name != "COUNT":
                err = np.where(err != 0, err, area.first_error).astype(np.int8)
            masked = np.where(area.numeric, area.values, 0.0)
            total = total + masked.sum(axis=1)
            count = count + area.numeric.sum(axis=1)
            if name in ("MIN", "MAX") and area.values.shape[1]:
                low = np.minimum(low, np.where(area.numeric, area.values, np.inf).min(axis=1))
                high = np.maximum(high, np.where(area.numeric, area.values, -np.inf).max(axis=1))
        for program in scalars:
            v = _numeric(ctx, program(ctx))
            if v.err is not None:
                if name == "COUNT":
                    count = count - (v.err != 0)
                else:
                    err = np.where(err != 0, err, v.err).astype(np.int8)
            total, count = total + v.num, count + 1
            low, high = np.minimum(low, v.num), np.maximum(high, v.num)
        if name == "SUM":
            return Vec(total, err)
        if name == "COUNT":
            return Vec(count)
        if name == "AVERAGE":
            none = count == 0
            return Vec(np.where(none, 0.0, total / np.where(none, 1, count)), _with_error(err, none, DIV0))
        result = low if name == "MIN" else high
        return Vec(np.where(count == 0, 0.0, result), err)
    return run


def _rank(args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) not in (2, 3) or not isinstance(args[1], Ref) or args[1].rel_r1 or args[1].rel_r2 or args[1].name:
        raise Unsupported("RANK over a moving range")
    number = compile_node(args[0])
    if len(args) == 3 and not isinstance(args[2], Const):
        raise Unsupported("RANK with a computed order")
    ascending = len(args) == 3 and float(args[2].value or 0) != 0  # type: ignore[union-attr]
    ref = args[1]

    def run(ctx: Context) -> Vec:
        x = _numeric(ctx, number(ctx))
        area = _read_area(ctx, ref)
        if area.first_error[0]:
            ctx.defer[:] = True
        values = np.sort(area.values[0][area.numeric[0]])
        if ascending:
            better = np.searchsorted(values, x.num, side="left")
        else:
            better = len(values) - np.searchsorted(values, x.num, side="right")
        present = np.zeros(ctx.n, dtype=bool)
        if len(values):
            at = np.clip(np.searchsorted(values, x.num, side="left"), 0, len(values) - 1)
            present = values[at] == x.num
        return Vec((better + 1).astype(np.float64), _merge(x.err, _with_error(None, ~present, NA)))
    return run


def _round(args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) != 2 or not isinstance(args[1], Const) or isinstance(args[1].value, (str, ExcelError)):
        raise Unsupported("ROUND with computed digits")
    number = compile_node(args[0])
    digits = int(float(args[1].value))
    # formulas' own rounding (decimal half-up), so both engines agree to the last bit
    rounding = np.vectorize(lambda x: xround(x, digits), otypes=[np.float64])

    def run(ctx: Context) -> Vec:
        x = _numeric(ctx, number(ctx))
        return Vec(rounding(x.num) if ctx.n else x.num, x.err)
    return run


def _abs(args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) != 1:
        raise Unsupported("ABS arity")
    number = compile_node(args[0])
    return lambda ctx: (lambda v: Vec(np.abs(v.num), v.err))(_numeric(ctx, number(ctx)))


def _whole(x: np.ndarray) -> np.ndarray:
    return np.isfinite(x) & (np.floor(x) == x)


# Numpy kernels for the hottest broadcasting functions, only on the rows where the core's checks
# would pass (so they compute the same IEEE operations in the same order); every other row goes
# through functions.call, which owns validation and error messages. Key: (name, argument count).
KERNELS: dict[tuple[str, int], tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]] = {
    ("DIPPOUCH_PERCENTILE", 2): (
        lambda n, p: _whole(n) & (n >= 1) & _whole(p) & (p >= 1) & (p <= n),
        lambda n, p: (n + 0.5 - p) / n * 100.0),
    ("DIPPOUCH_NEW_RATING", 3): (
        lambda r, p, v: np.isfinite(r) & np.isfinite(p) & np.isfinite(v) & (r >= 0) & (r <= 100) & (p >= 0) &
        (p <= 100) & (v >= 0) & (v <= 100),
        lambda r, p, v: r + v / 100.0 * (p - r)),
}


def _ours(fn: ExcelFunction, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if not fn.broadcasts:
        raise Unsupported(f"{fn.name} takes ranges")
    if len(args) > len(fn.arguments):
        raise Unsupported("too many arguments")
    parts: list[Any] = []
    for arg in args:
        if isinstance(arg, Const) and (isinstance(arg.value, str) or arg.value is None):
            parts.append(arg.value)
        elif isinstance(arg, Ref) and not arg.is_cell:
            raise Unsupported("a range argument (the result spills)")
        else:
            parts.append(compile_node(arg))
    memo: dict[tuple[Any, ...], Any] = {}
    kernel = KERNELS.get((fn.name, len(parts))) if all(callable(p) for p in parts) else None

    def run(ctx: Context) -> Vec:
        if kernel is not None:
            return _run_kernel(ctx)
        return _run_calls(ctx, np.ones(ctx.n, dtype=bool), None)

    def _run_kernel(ctx: Context) -> Vec:
        vecs = [part(ctx) for part in parts]
        plain = np.ones(ctx.n, dtype=bool)
        for v in vecs:
            if v.is_bool:
                plain[:] = False
            if v.text is not None:
                plain &= np.equal(v.text, None)
            if v.err is not None:
                plain &= v.err == 0
            if v.empty is not None:
                plain &= ~v.empty
        with np.errstate(all="ignore"):
            plain &= kernel[0](*(v.num for v in vecs))
            num = np.where(plain, kernel[1](*(v.num for v in vecs)), 0.0)
        if plain.all():
            return Vec(num)
        return _run_calls(ctx, ~plain, (num, vecs))

    def _run_calls(ctx: Context, todo: np.ndarray, done: Any) -> Vec:
        columns: list[Any] = []
        for part in parts:
            if part is None or isinstance(part, str):  # a text constant, or an omitted argument (default)
                columns.append([part] * ctx.n)
                continue
            v = done[1][len(columns)] if done is not None else part(ctx)
            if v.is_bool:
                values: list[Any] = [x != 0 for x in v.num.tolist()]
            else:
                values = v.num.tolist()
            if v.empty is not None and v.empty.any():
                for i in np.flatnonzero(v.empty):
                    values[i] = None
            text = _text_mask(v)
            if text is not None:
                for i in np.flatnonzero(text):
                    values[i] = v.text[i]  # type: ignore[index]
            if v.err is not None and v.err.any():
                for i in np.flatnonzero(v.err):
                    values[i] = ExcelError(ERROR_BY_INDEX[int(v.err[i])])
            columns.append(values)
        num = np.zeros(ctx.n) if done is None else done[0].copy()
        err = np.zeros(ctx.n, dtype=np.int8)
        # TRUE == 1.0 as a dict key: memoise only when no argument is boolean
        cache = memo if not any(isinstance(c[0], bool) for c in columns if c) else {}
        for i, key in enumerate(zip(*columns)) if columns else enumerate([()] * ctx.n):
            if not todo[i]:
                continue
            result = cache.get(key)
            if result is None:
                result = cache[key] = call(fn, list(key))
            if isinstance(result, ExcelError):
                err[i] = error_index(result.code)
            elif isinstance(result, (int, float)) and not isinstance(result, bool):
                num[i] = result
            else:
                ctx.defer[i] = True
        return Vec(num, err if err.any() else None)
    return run


def compile_tree(tree: Node) -> Program:
    """A program evaluating ``tree`` for many rows; raises :class:`Unsupported`."""

    def compile_node(node: Node) -> Program:
        if isinstance(node, Const):
            return _const(node.value)
        if isinstance(node, Ref):
            if node.name:
                raise Unsupported("defined name")
            if not node.is_cell:
                raise Unsupported("a range outside an aggregate (the result would spill)")
            return lambda ctx: _read_cell(ctx, node)
        if isinstance(node, Op):
            if node.op in ("+", "-", "*", "/", "^") and len(node.args) == 2:
                return _arith(node.op, compile_node(node.args[0]), compile_node(node.args[1]))
            if node.op in ("=", "<>") and len(node.args) == 2 and Const("") in node.args:
                other = node.args[1] if node.args[0] == Const("") else node.args[0]
                return _blank_test(compile_node(other), node.op == "=")
            if node.op in _COMPARE and len(node.args) == 2:
                if any(isinstance(a, Const) and isinstance(a.value, str) for a in node.args):
                    raise Unsupported("comparison with text")
                return _compare(node.op, compile_node(node.args[0]), compile_node(node.args[1]))
            if node.op in ("u-", "u+", "%") and len(node.args) == 1:
                return _unary(node.op, compile_node(node.args[0]))
            raise Unsupported(f"operator {node.op}")
        if isinstance(node, Call):
            fn = our_function(node.name)
            if fn is not None:
                return _ours(fn, node.args, compile_node)
            name = builtin_name(node.name)
            if name == "IF" and len(node.args) in (2, 3):
                return _if(*[compile_node(a) for a in node.args[:2]],
                           compile_node(node.args[2]) if len(node.args) == 3 else None)
            if name == "IFERROR" and len(node.args) == 2:
                return _iferror(compile_node(node.args[0]), compile_node(node.args[1]))
            if name in ("AND", "OR") and node.args and not any(isinstance(a, Ref) for a in node.args):
                return _logical(name, [compile_node(a) for a in node.args])
            if name in ("SUM", "AVERAGE", "MIN", "MAX", "COUNT") and node.args:
                return _aggregate(name, node.args, compile_node)
            if name in ("RANK", "RANK.EQ"):
                return _rank(node.args, compile_node)
            if name == "ROUND":
                return _round(node.args, compile_node)
            if name == "ABS":
                return _abs(node.args, compile_node)
            raise Unsupported(f"function {name}")
        raise Unsupported(type(node).__name__)

    return compile_node(tree)
