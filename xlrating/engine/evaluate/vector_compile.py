"""The fast path's functions and its compiler: expression tree -> program over many rows.

:func:`compile_tree` maps each node of a block's tree to a program from :mod:`.vector` (values,
operators, IF) or from here: SUM/AVERAGE/MIN/MAX/COUNT over ranges and per-row windows, RANK,
ROUND/ROUNDUP/ROUNDDOWN (:mod:`xlrating.engine.maths.rounding`), ABS, DATE/YEAR/MONTH/DAY/MOD/INT and the lookups and
conditional counts over fixed ranges (each distinct row once: by :mod:`.vector_builtins` where its
cases cover the row, else by the cell-by-cell path's own implementation), and xlrating's broadcasting functions (numpy
kernels where the core's checks pass, otherwise :func:`xlrating.functions.call` per row, memoised
on the argument tuple since rating columns repeat the same arguments). Anything else raises :class:`~.vector.Unsupported` and the
block goes cell by cell through ``formulas``.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from xlrating.excel_errors import ExcelError

from ..formula import declared
from ..formula.function_names import builtin_name, our_function
from ..formula.tree import Call, Const, Node, Op, Param, Ref
from ..maths.rounding import MODES, round_many
from ..read.grid import ERROR_BY_INDEX, error_index
from .vector import (
    _COMPARE,
    DIV0,
    NA,
    Context,
    Program,
    Unsupported,
    Vec,
    _add_in_order,
    _arith,
    _blank_test,
    _compare,
    _const,
    _Growing,
    _if,
    _iferror,
    _logical,
    _merge,
    _numeric,
    _param,
    _read_area,
    _read_cell,
    _resolve_sheet,
    _text_mask,
    _unary,
    _with_error,
    growing,
    is_text,
)
from .vector_builtins import COLUMNS, NUMERIC, fixed_range

if TYPE_CHECKING:
    from xlrating.functions import ExcelFunction

__all__ = ["KERNELS", "Context", "Unsupported", "compile_tree"]


def _aggregate(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if any(isinstance(a, Ref) and a.name for a in args):
        raise Unsupported("defined name")
    # in the order written: the first error in argument order is the one Excel shows
    parts: list[Ref | Program] = [a if isinstance(a, Ref) else compile_node(a) for a in args]

    def run(ctx: Context) -> Vec:
        total = np.zeros(ctx.n)
        count = np.zeros(ctx.n)
        low = np.full(ctx.n, np.inf)
        high = np.full(ctx.n, -np.inf)
        err = np.zeros(ctx.n, dtype=np.int8)
        for part in parts:
            if isinstance(part, Ref) and ctx.n > 1 and growing(part):
                window = _Growing(ctx, part)
                if name != "COUNT":
                    err = np.where(err != 0, err, window.first_error).astype(np.int8)
                total = window.add_to(total)
                count = count + window.count()
                if name in ("MIN", "MAX"):
                    low, high = np.minimum(low, window.low()), np.maximum(high, window.high())
                continue
            if isinstance(part, Ref):
                area = _read_area(ctx, part)
                if name != "COUNT":
                    err = np.where(err != 0, err, area.first_error).astype(np.int8)
                total = _add_in_order(total, area)
                count = count + area.numeric.sum(axis=1)
                if name in ("MIN", "MAX") and area.values.shape[1]:
                    low = np.minimum(low, np.where(area.numeric, area.values, np.inf).min(axis=1))
                    high = np.maximum(high, np.where(area.numeric, area.values, -np.inf).max(axis=1))
                continue
            v = _numeric(ctx, part(ctx))
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
    if len(args) == 3 and (not isinstance(args[2], Const) or isinstance(args[2].value, (str, ExcelError))):
        raise Unsupported("RANK with a computed or text order")
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


def _dimension(name: str, args: tuple[Node, ...]) -> Program:
    """ROWS or COLUMNS of a reference: its shape alone, never its cells (ROWS(A:XFD) is 1048576
    without reading 17 billion cells)."""
    if len(args) != 1 or not isinstance(args[0], Ref) or args[0].name:
        raise Unsupported(f"{name} of anything but a reference")
    ref = args[0]
    if name == "ROWS" and ref.rel_r1 != ref.rel_r2:
        raise Unsupported("ROWS of a reference whose height changes from row to row")
    return _const(float(ref.r2 - ref.r1 + 1 if name == "ROWS" else ref.c2 - ref.c1 + 1))


def _round(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) != 2 or not isinstance(args[1], Const) or isinstance(args[1].value, (str, ExcelError)):
        raise Unsupported(f"{name} with computed digits")
    number = compile_node(args[0])
    # an omitted digits argument (=ROUND(A1,)) is 0, as in Excel
    digits = 0.0 if args[1].value is None else float(args[1].value)
    mode = MODES[name]

    def run(ctx: Context) -> Vec:
        x = _numeric(ctx, number(ctx))
        return Vec(round_many(x.num, digits, mode), x.err)
    return run


def _abs(args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) != 1:
        raise Unsupported("ABS arity")
    number = compile_node(args[0])
    def run(ctx: Context) -> Vec:
        v = _numeric(ctx, number(ctx))
        return Vec(np.abs(v.num), v.err)
    return run


# Excel's elementwise built-ins of numbers that filled-down columns use most (dates and integer
# arithmetic). Each row is computed by :data:`.vector_builtins.NUMERIC` (the cores the cell-by-cell
# path wraps too; no ``formulas``), once per distinct row of arguments: a column of DATE(A2,B2,1) is
# one parse and one compile, not one per cell. Rows with a text, empty or boolean argument go cell by cell.
ELEMENTWISE = declared.elementwise()


# Rows from which an elementwise function with a column kernel (.vector_builtins.COLUMNS) computes
# them at once: its few dozen array operations cost what about 30 rows one by one do
_AT_ONCE = 32


def _elementwise(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Program:
    if len(args) != ELEMENTWISE[name] or any(isinstance(a, Const) and a.value is None for a in args):
        raise Unsupported(f"{name} arguments")
    value_of, kernel = NUMERIC[name], COLUMNS.get(name)
    parts = [compile_node(a) for a in args]

    def run(ctx: Context) -> Vec:
        memo: dict[tuple[float, ...], tuple[float, int]] = {}  # of this run: DATE counts in its workbook's system
        vecs = [_numeric(ctx, part(ctx)) for part in parts]
        num = np.zeros(ctx.n)
        err = np.zeros(ctx.n, dtype=np.int8)
        todo = ~ctx.defer.copy()
        for v in vecs:
            if v.is_bool:
                ctx.defer[:] = True
                return Vec(num)
            if v.empty is not None:
                ctx.defer |= v.empty & todo
                todo &= ~v.empty
            text = _text_mask(v)
            if text is not None:
                todo &= ~text
            if v.err is not None:  # the first argument holding an error gives the result
                failed = todo & (v.err != 0)
                err[failed] = v.err[failed]
                todo &= ~failed
        rows = np.flatnonzero(todo)
        if kernel is not None and len(rows) >= _AT_ONCE:  # every finite row at once; the others row by row
            arguments = [v.num[rows] for v in vecs]
            finite = np.logical_and.reduce([np.isfinite(a) for a in arguments])
            num[rows[finite]], err[rows[finite]] = (found[finite] for found in kernel(*arguments))
            rows = rows[~finite]
        if len(rows):
            picked = rows.tolist()
            keys = zip(*([column[i] for i in picked] for column in (v.num.tolist() for v in vecs)))
            found = [memo[key] if key in memo else memo.setdefault(key, value_of(*key)) for key in keys]
            num[rows] = [value for value, _ in found]
            err[rows] = [code for _, code in found]
        return Vec(num, err if err.any() else None)
    return run


# Excel's built-ins that give one value per row from fixed ranges: lookups, conditional counts and
# sums, SUMPRODUCT. Each row is computed by the implementation the cell-by-cell path calls, with
# the arguments that path hands it (a reference as the same ``formulas`` range, read by
# :meth:`.fallback.Fallback.read`; a constant as ``formulas``' tokenizer compiles it), once per
# distinct row of values of its moving cell arguments (a column of VLOOKUP(A2,$F$2:$H$99,3,FALSE)
# is one parse and one call per distinct key). Arguments must be references or constants; a result
# that is not one number, text or error (an array, an empty cell, TRUE/FALSE) sends the row cell by cell.
# VLOOKUP, HLOOKUP, MATCH, COUNTIF and SUMPRODUCT first try :func:`.vector_builtins.fixed_range`,
# which computes their common cases without ``formulas`` and hands this path only the other rows.
MEMOISED = declared.having("memoised")
# Excel's functions of single values (text, numbers, dates) with one result that depends on nothing
# but the arguments (not the cell's position, the time or chance), computed the same way: a column of
# ROMAN($A2,J$1) or LEFT(B2,3) is one call per distinct row of arguments instead of one parse,
# compile and dispatch per cell through formulas (40,000 cells of ROMAN and ARABIC: 100 s -> seconds).
SCALAR = declared.having("pure")


def _token_value(value: Any) -> Any:
    """A constant as ``formulas``' tokens compile it: whole numbers as ``int`` (Excel stores 3.0 as
    3), errors as its error tokens (text is already unescaped by the parser)."""
    if isinstance(value, ExcelError):
        from formulas.tokens.operand import Error as ErrorToken

        if value.code not in ErrorToken.errors:
            raise Unsupported(f"error constant {value.code}")
        return ErrorToken.errors[value.code]
    if isinstance(value, str | bool):
        return value
    number = float(value)
    return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number


def _one_value(result: Any) -> tuple[float, int, str | None] | None:
    """(number, error index, text) of an implementation's result, as the cell path would store it;
    None for anything else (arrays, references, empty, booleans, infinities, overlong text)."""
    from formulas.ranges import Ranges

    from ..read.grid import ERROR_INDEX
    from .fallback import MAX_TEXT
    from .host_values import to_host

    if isinstance(result, np.ndarray):
        if result.size != 1:
            return None
        result = result.ravel()[0]
    if isinstance(result, Ranges):
        return None
    value = to_host(result)
    if isinstance(value, ExcelError):
        return (0.0, ERROR_INDEX[value.code], None) if value.code in ERROR_INDEX else None
    if isinstance(value, float):
        return (value, 0, None) if np.isfinite(value) else None
    if isinstance(value, str):
        return (0.0, 0, value) if len(value) <= MAX_TEXT else None
    return None


def _memoised(name: str, written: str, args: tuple[Node, ...], lookup: Callable[[str], Any]) -> Program:
    if not args or any(not isinstance(a, (Ref, Const, Param)) for a in args):
        raise Unsupported(f"{name} of a computed argument")
    if any(isinstance(a, Ref) and a.name for a in args):
        raise Unsupported("defined name")
    if any(isinstance(a, Const) and a.value is None for a in args):
        raise Unsupported("an omitted argument")
    if name in SCALAR and any(isinstance(a, Ref) and not a.is_cell for a in args):
        # a range where one value is taken: the cell path intersects it with the formula's row or
        # column (a legacy formula) or refuses it (.toolpak)
        raise Unsupported(f"{name} of a range")
    implementation = lookup(written)  # as EngineFunction.compile resolves it
    if implementation is None:
        implementation = lookup(name)
    if implementation is None:
        raise Unsupported(f"function {name}")
    constants = [_token_value(a.value) if isinstance(a, Const) else None for a in args]

    def run(ctx: Context) -> Vec:
        from ..read.grid import InCircle, NotComputed
        from .position import Abort

        fallback = getattr(ctx, "fallback", None)
        if fallback is None:
            raise Unsupported("no cell-by-cell path to read references with")
        fixed: list[Any] = list(constants)
        moving: list[tuple[int, Any, Ref]] = []  # (argument, sheet, reference) of cells moving with the row
        try:
            for i, a in enumerate(args):
                if not isinstance(a, Ref):
                    continue
                sheet = _resolve_sheet(ctx, a.sheet)
                if sheet is None:
                    raise Unsupported("reference to a missing sheet")
                if (a.rel_r1 or a.rel_r2) and ctx.n > 1:
                    if not a.is_cell:
                        raise Unsupported("a range moving with the row")
                    moving.append((i, sheet, a))
                    continue
                shift = int(ctx.shift[0]) if ctx.n == 1 else 0
                r1, r2 = a.r1 + (shift if a.rel_r1 else 0), a.r2 + (shift if a.rel_r2 else 0)
                if r1 < 1:
                    raise Unsupported("a reference above the first row")
                fixed[i] = fallback.read(sheet, r1, a.c1, r2, a.c2, ctx.sheet)
        except Abort:  # a cell read was not computed: cell by cell, which says so
            ctx.defer[:] = True
            return Vec(np.zeros(ctx.n))
        num = np.zeros(ctx.n)
        err = np.zeros(ctx.n, dtype=np.int8)
        text: np.ndarray | None = None
        memo: dict[tuple[Any, ...], tuple[float, int, str | None] | None] = {}
        literals = [(i, ctx.param(a.index).tolist()) for i, a in enumerate(args) if isinstance(a, Param)]
        for row in np.flatnonzero(~ctx.defer).tolist():
            sources = [(i, sheet, a.r1 + int(ctx.shift[row]), a.c1) for i, sheet, a in moving]
            values = [sheet.get(r, c) for _, sheet, r, c in sources] + [column[row] for _, column in literals]
            if any(isinstance(v, (InCircle, NotComputed)) for v in values):
                ctx.defer[row] = True
                continue
            key = tuple((type(v), v) for v in values)  # TRUE and 1 are different keys
            if key not in memo:
                call_args = list(fixed)
                for i, column in literals:  # a literal changing from row to row, as the tokenizer makes it
                    call_args[i] = _token_value(column[row])
                try:
                    for i, sheet, r, c in sources:
                        if r < 1:
                            raise Unsupported("a reference above the first row")
                        call_args[i] = fallback.read(sheet, r, c, r, c, ctx.sheet)
                    memo[key] = _one_value(implementation(*call_args))
                except Unsupported:
                    memo[key] = None
                except Exception:  # noqa: BLE001 - the cell path reports what it raises
                    memo[key] = None
            found = memo[key]
            if found is None:
                ctx.defer[row] = True
                continue
            num[row], err[row], value = found
            if value is not None:
                if text is None:
                    text = np.full(ctx.n, None, dtype=object)
                text[row] = value
        return Vec(num, err if err.any() else None, text=text)
    return run


def _whole(x: np.ndarray) -> np.ndarray:
    whole: np.ndarray = np.isfinite(x) & (np.floor(x) == x)
    return whole


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
    from xlrating.functions import call  # loaded with the function itself (registry.our_function)

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
                plain &= ~is_text(v.text)
            if v.err is not None:
                plain &= v.err == 0
            if v.empty is not None:
                plain &= ~v.empty
        valid, formula = kernel  # type: ignore[misc]  # set whenever this runs
        with np.errstate(all="ignore"):
            plain &= valid(*(v.num for v in vecs))
            num = np.where(plain, formula(*(v.num for v in vecs)), 0.0)
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
                    values[i] = v.text[i] if v.text is not None else None
            if v.err is not None and v.err.any():
                for i in np.flatnonzero(v.err):
                    values[i] = ExcelError(ERROR_BY_INDEX[int(v.err[i])])
            columns.append(values)
        num = np.zeros(ctx.n) if done is None else done[0].copy()
        err = np.zeros(ctx.n, dtype=np.int8)
        # one memo per run: a date means a day of its own workbook's system, and a column is either
        # boolean or not in one run (as dict keys TRUE == 1.0)
        cache: dict[tuple[Any, ...], Any] = {}
        rows = np.flatnonzero(todo).tolist()  # the rows the kernel left (often few)
        if not columns:
            keys: Any = [()] * len(rows)
        elif len(rows) == ctx.n:
            keys = zip(*columns)
        else:
            pick = itemgetter(*rows) if len(rows) > 1 else (lambda column: (column[rows[0]],))
            keys = zip(*map(pick, columns)) if rows else []
        results = []
        for key in keys:
            result = cache.get(key)
            if result is None:
                result = cache[key] = call(fn, list(key))
            results.append(result)
        if all(map(float.__instancecheck__, results)):  # the common case: every result a number
            num[rows] = results
            return Vec(num, None)
        for row, result in zip(rows, results):
            if isinstance(result, ExcelError):
                err[row] = error_index(result.code)
            elif isinstance(result, (int, float)) and not isinstance(result, bool):
                num[row] = result
            else:
                ctx.defer[row] = True
        return Vec(num, err if err.any() else None)
    return run


def compile_tree(tree: Node, lookup: Callable[[str], Any]) -> Program:
    """A program evaluating ``tree`` for many rows; raises :class:`Unsupported`. ``lookup``: the
    engine's registry (:meth:`.registry.FunctionRegistry.lookup`), for the built-ins computed
    through it once per distinct row."""

    def compile_node(node: Node) -> Program:
        if isinstance(node, Const):
            return _const(node.value)
        if isinstance(node, Param):
            return _param(node.index, node.kind)
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
                if any(isinstance(a, Const) and isinstance(a.value, str) or isinstance(a, Param) and a.kind == "s"
                       for a in node.args):
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
                return _if(compile_node(node.args[0]), compile_node(node.args[1]),
                           compile_node(node.args[2]) if len(node.args) == 3 else None)
            if name == "IFERROR" and len(node.args) == 2:
                return _iferror(compile_node(node.args[0]), compile_node(node.args[1]))
            if name in ("AND", "OR") and node.args and not any(isinstance(a, Ref) for a in node.args):
                return _logical(name, [compile_node(a) for a in node.args])
            if name in ("SUM", "AVERAGE", "MIN", "MAX", "COUNT") and node.args:
                return _aggregate(name, node.args, compile_node)
            if name in ("RANK", "RANK.EQ"):
                return _rank(node.args, compile_node)
            if name in ("ROWS", "COLUMNS"):
                return _dimension(name, node.args)
            if name in MODES:
                return _round(name, node.args, compile_node)
            if name == "ABS":
                return _abs(node.args, compile_node)
            if name in ELEMENTWISE:
                return _elementwise(name, node.args, compile_node)
            if name in MEMOISED or name in SCALAR:
                def memoised(name: str = name, node: Call = node) -> Program:
                    return _memoised(name, node.name, node.args, lookup)
                try:
                    return fixed_range(name, node.args, compile_node, memoised)
                except Unsupported:
                    return memoised()
            raise Unsupported(f"function {name}")
        raise Unsupported(type(node).__name__)

    return compile_node(tree)
