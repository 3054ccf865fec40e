"""LAMBDAs named in the workbook that call themselves, evaluated call by call.

A defined name holding a LAMBDA (``F = LAMBDA(n, IF(n=0, 0, 1+F(n-1)))``) is written out in the text
of the formulas that use it (:func:`..read.names.expand_names`), except one that calls itself,
directly or through other names (:func:`..read.names.recursive_lambdas`): no text however long holds
it. Such a name stays a name; a call of it becomes ``_XLRATING_CALL(F, args)`` (:data:`FUNCTIONS`),
and the name itself, as a formula's input, is a :class:`Lambda` (:meth:`.fallback.Fallback._input`),
so ``MAP(A1:A9, F)`` works too.

A :class:`Lambda` evaluates its body here, node by node of the engine's tree (:func:`definition`):
its parameters bound to the call's values; references read through the cell-by-cell path (cells
not computed yet are computed first); every function and operator the registry's, called as
``formulas`` calls them. Unlike ``formulas``, which computes every argument before calling a
function, IF, IFS, IFERROR, IFNA and CHOOSE compute only the argument they return, and LET a value
only when it is first used: a recursion ends at the branch its IF takes. Names the body uses
(other LAMBDAs, formulas, references) are looked up as the cell's sheet sees them, when used.

Excel stops a recursion too deep with #NUM! ("If you call a LAMBDA function from within itself and
the call is circular, Excel can return a #NUM! error if there are too many recursive calls",
Microsoft's LAMBDA page). How deep: Excel's operand stack holds 1,024 entries and each call of a
LAMBDA takes one per parameter and one more, so a LAMBDA of n parameters recurses about
1024 / (n + 1) calls deep (measurements published on Microsoft's Tech Community: "LAMBDA:
Recursive Lists and Understanding Recursion Limits of LAMBDA", 2021; a four-parameter LAMBDA there
stops at 203 calls, 1024 / 5 = 204.8). :data:`STACK` is that budget: a call that would take more
ends the cell's formula with #NUM!, however the formula would have gone on (an IFERROR around it
does not help: the whole calculation stops). The Python stack has room for the deepest recursion
the budget allows (:mod:`.stack`).
"""

from __future__ import annotations

import contextvars
import functools
import re
from typing import Any

from formulas.functions import COMPILING
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from xlrating.excel_errors import ExcelError

from ..formula.areas import spread_areas
from ..formula.function_names import builtin_name
from ..formula.reader import parse
from ..formula.tree import Call, Const, FormulaSyntaxError, Node, Op, Ref, column_letters
from ..formula.values import OMITTED, if_branch, single, truth
from ..read.grid import NotComputed
from ..read.names import RECURSIVE_CALL as CALL
from ..read.names import call_lambdas, is_lambda, is_reference
from .host_values import from_host
from .position import CURRENT, Abort, Position

STACK = 1_024  # Excel's operand stack: each active LAMBDA call takes its parameters + 1
_LAMBDA, _LET = "_XLRLAMBDA", "_XLRLET"  # LAMBDA and LET as the tree holds them (calls, evaluated here)

_used: contextvars.ContextVar[int] = contextvars.ContextVar("xlrating_lambda_stack", default=0)

_VALUE, _NAME, _NA = Error.errors["#VALUE!"], Error.errors["#NAME?"], Error.errors["#N/A"]
_CALC = XlError("#CALC!")
# LAMBDA( and LET( outside string literals, with or without the file format's _xlfn.
_KEYWORDS = re.compile(r'"(?:[^"]|"")*"|(?<![\w.])(?:_xlfn\.)?(LAMBDA|LET)\s*\(', re.IGNORECASE)


def _not_computed(reason: str) -> Abort:
    return Abort(NotComputed(reason=reason))


@functools.lru_cache(maxsize=1024)
def definition(text: str) -> Node:
    """A defined name's text (or a formula's, without its ``=``) as the engine's tree, each LAMBDA
    and LET read as a call of its own (:data:`_LAMBDA`, :data:`_LET`): their names and parameters
    are the calls' first arguments, as references to names."""
    text = call_lambdas(text.strip().removeprefix("="))
    marked = _KEYWORDS.sub(lambda m: m.group() if m.group(1) is None else f"{'_XLR' + m.group(1).upper()}(", text)
    try:
        return parse("=" + marked)
    except FormulaSyntaxError as exc:
        raise _not_computed(f"a LAMBDA named in the workbook the engine cannot read: {text} ({exc})") from None


class _Lazy:
    """A LET value, computed when first used."""

    __slots__ = ("done", "env", "node", "value")

    def __init__(self, node: Node, env: dict[str, Any]):
        self.node, self.env, self.value, self.done = node, env, None, False

    def force(self, cell: _Cell) -> Any:
        if not self.done:
            self.value, self.done = _evaluate(self.node, self.env, cell), True
        return self.value


class Lambda:
    """A LAMBDA as a value: its parameters (upper case, as the body names them), its body, the
    variables it closes over, and the defined name it is, if any. Callable as ``formulas``' LAMBDAs
    are (MAP, MAKEARRAY, REDUCE ... call it with their values)."""

    def __init__(self, parameters: tuple[str, ...], body: Node, env: dict[str, Any], name: str | None = None):
        self.parameters, self.body, self.env, self.name = parameters, body, env, name

    def __repr__(self) -> str:
        return f"Lambda({self.name or ', '.join(self.parameters)})"

    def __call__(self, *args: Any) -> Any:
        return self.call(args, _Cell.current())

    def call(self, args: tuple[Any, ...] | list[Any], cell: _Cell) -> Any:
        if len(args) != len(self.parameters):
            return _VALUE  # the wrong number of arguments (Microsoft's LAMBDA page)
        used = _used.get() + len(self.parameters) + 1
        if used > STACK:
            raise Abort(ExcelError("#NUM!", "a LAMBDA recursing deeper than Excel's stack"))
        token = _used.set(used)
        try:
            env = dict(self.env)
            env.update(zip(self.parameters, args))
            return _evaluate(self.body, env, cell)
        finally:
            _used.reset(token)


def named(name: str, text: str) -> Any:
    """The value of the defined name ``name`` whose text is a LAMBDA: a :class:`Lambda`."""
    tree = definition(text)
    if isinstance(tree, Call) and tree.name == _LAMBDA:
        made = _lambda(tree, {})
        if isinstance(made, Lambda):
            made.name = name
        return made
    raise _not_computed(f"the name {name} is no LAMBDA the engine can read: {text}")


class _Cell:
    """Where a LAMBDA is being evaluated: the cell computing, its workbook and its functions."""

    __slots__ = ("names", "position", "registry")

    def __init__(self, position: Position):
        self.position = position
        self.registry: Any = position.fallback.registry  # type: ignore[attr-defined]  # a FunctionRegistry
        self.names = position.fallback.names_for(position.sheet)

    @staticmethod
    def current() -> _Cell:
        position = CURRENT.get(None)
        if position is None:
            raise _not_computed("a LAMBDA named in the workbook, called outside a cell")
        return _Cell(position)


# --- evaluating a tree --------------------------------------------------------------------------

def _evaluate(node: Node, env: dict[str, Any], cell: _Cell) -> Any:
    if isinstance(node, Const):
        return OMITTED if node.value is None else from_host(node.value)
    if isinstance(node, Ref):
        return _name(node.name, env, cell) if node.name else _read(node, cell)
    if isinstance(node, Op):
        operands = [_evaluate(a, env, cell) for a in node.args]
        return _operator(node.op, cell.registry)(*operands)
    if isinstance(node, Call):
        return _call(node, env, cell)
    raise _not_computed(f"a LAMBDA named in the workbook holds {node!r}, which the engine does not evaluate")


def _name(name: str, env: dict[str, Any], cell: _Cell) -> Any:
    if name in env:
        value = env[name]
        return value.force(cell) if isinstance(value, _Lazy) else value
    text = cell.names.get(name)
    if text is None:
        return _NAME
    if is_lambda(text):
        return named(name, text)
    tree = definition(spread_areas(text, cell.position.fallback.sheet_order))  # type: ignore[attr-defined]
    if is_reference(text) and isinstance(tree, Ref):
        return _read(tree, cell)
    return _evaluate(tree, {}, cell)  # a name's formula sees no LAMBDA's variables


def _read(ref: Ref, cell: _Cell) -> Any:
    fallback = cell.position.fallback
    sheet = fallback.grid.sheet(ref.sheet) if ref.sheet else cell.position.sheet
    if sheet is None:
        return Error.errors["#REF!"]
    return fallback.read(sheet, ref.r1, ref.c1, ref.r2, ref.c2, cell.position.sheet)


@functools.lru_cache(maxsize=64)
def _operator_of(name: str, registry: Any) -> Any:
    from formulas.functions.operators import OPERATORS

    found = registry.operator(name)
    return found if found is not None else OPERATORS[name]


def _operator(op: str, registry: Any) -> Any:
    return _operator_of(op.upper(), registry)


def _arguments(nodes: tuple[Node, ...], env: dict[str, Any], cell: _Cell) -> list[Any]:
    return [_evaluate(a, env, cell) for a in nodes]


def _call(node: Call, env: dict[str, Any], cell: _Cell) -> Any:
    name = node.name.upper()
    bound = env.get(name)
    if bound is not None:
        bound = bound.force(cell) if isinstance(bound, _Lazy) else bound
        if isinstance(bound, Lambda):
            return bound.call(_arguments(node.args, env, cell), cell)
    if name == _LAMBDA:
        return _lambda(node, env)
    if name == _LET:
        return _let(node, env, cell)
    special = _LAZY.get(builtin_name(name))
    if special is not None:
        return special(node.args, env, cell)
    return _function(name, _arguments(node.args, env, cell), cell)


def _function(name: str, args: list[Any], cell: _Cell) -> Any:
    """The registry's function ``name`` (or a LAMBDA named so) called with ``args``."""
    registry = cell.registry
    found = registry.lookup(name) or registry.lookup(builtin_name(name))
    if found is None:
        text = cell.names.get(name)
        if text is not None and is_lambda(text):
            return named(name, text).call(args, cell)
        unknown = registry.unknown(name)
        if unknown is not None:  # one of Excel's functions the engine does not compute
            raise _not_computed(str(unknown))
        return _NAME  # Excel does not know it either
    if isinstance(found, dict):
        extra = [_extra(key, cell) for key in found.get("extra_inputs", {})]
        return found["function"](*extra, *args)
    return found(*args)


def _extra(key: Any, cell: _Cell) -> Any:
    """What ``formulas`` feeds a function besides its arguments: not compiling; the cell (ROW())."""
    if key is COMPILING:
        return False
    if isinstance(key, str) and key.upper() == "CELL":
        return Ranges().push(f"{column_letters(cell.position.col)}{cell.position.row}")
    raise _not_computed(f"a LAMBDA named in the workbook calls a function that needs {key!r}")


def _lambda(node: Call, env: dict[str, Any]) -> Any:
    *parameters, body = node.args
    if not all(isinstance(p, Ref) and p.name for p in parameters):
        return _VALUE
    return Lambda(tuple(p.name for p in parameters), body, dict(env))  # type: ignore[union-attr, misc]


def _let(node: Call, env: dict[str, Any], cell: _Cell) -> Any:
    *pairs, calculation = node.args
    if not pairs or len(pairs) % 2 or not all(isinstance(n, Ref) and n.name for n in pairs[::2]):
        return _VALUE
    scope = dict(env)
    for variable, value in zip(pairs[::2], pairs[1::2]):
        scope = {**scope, variable.name: _Lazy(value, scope)}  # type: ignore[union-attr]
    return _evaluate(calculation, scope, cell)


# --- the functions that compute only the argument they return ----------------------------------

def _if(args: tuple[Node, ...], env: dict[str, Any], cell: _Cell) -> Any:
    condition = _evaluate(args[0], env, cell) if args else _VALUE
    branch = if_branch(condition)  # the registry's IF reads it so (only the branch taken is computed here)
    if branch is None:  # an array of conditions: every branch, entry by entry, as the registry's IF does
        return _function("IF", [condition, *_arguments(args[1:], env, cell)], cell)
    if isinstance(branch, XlError):
        return branch
    if branch < len(args):
        return _evaluate(args[branch], env, cell)
    return branch == 1  # IF(TRUE) / IF(FALSE, x): the value_if_* Excel defaults to


def _iferror(args: tuple[Node, ...], env: dict[str, Any], cell: _Cell, only_na: bool = False) -> Any:
    if len(args) != 2:
        return _VALUE
    value = _evaluate(args[0], env, cell)
    scalar, one = single(value)
    if not scalar:
        return _function("IFNA" if only_na else "IFERROR", [value, _evaluate(args[1], env, cell)], cell)
    failed = isinstance(one, XlError) and (not only_na or str(one) == "#N/A")
    return _evaluate(args[1], env, cell) if failed else value


def _ifs(args: tuple[Node, ...], env: dict[str, Any], cell: _Cell) -> Any:
    if not args or len(args) % 2:
        return _VALUE
    for i in range(0, len(args), 2):
        condition = _evaluate(args[i], env, cell)
        scalar, value = single(condition)
        if not scalar:
            return _function("IFS", [condition, *_arguments(args[i + 1:], env, cell)], cell) if i == 0 else \
                _function("IFS", [*_arguments(args[i:], env, cell)], cell)
        chosen = truth(value)
        if isinstance(chosen, XlError):
            return chosen
        if chosen:
            return _evaluate(args[i + 1], env, cell)
    return _NA


def _choose(args: tuple[Node, ...], env: dict[str, Any], cell: _Cell) -> Any:
    if len(args) < 2:
        return _VALUE
    index = _evaluate(args[0], env, cell)
    scalar, value = single(index)
    if not scalar or isinstance(value, str):
        return _function("CHOOSE", [index, *_arguments(args[1:], env, cell)], cell)
    if isinstance(value, XlError):
        return value
    try:
        which = int(float(value))
    except (TypeError, ValueError):
        return _VALUE
    return _evaluate(args[which], env, cell) if 1 <= which < len(args) else _VALUE


_LAZY: dict[str, Any] = {
    "IF": _if,
    "IFERROR": _iferror,
    "IFNA": functools.partial(_iferror, only_na=True),
    "IFS": _ifs,
    "CHOOSE": _choose,
}


# --- the call in a formula's text ---------------------------------------------------------------

def call(function: Any, *args: Any) -> Any:
    """``_XLRATING_CALL(F, args)``: the LAMBDA ``F`` (a :class:`Lambda`, as the name's input is)
    called with ``args`` as given (references stay references, errors are values). A result that is
    itself a LAMBDA is Excel's #CALC!."""
    if not isinstance(function, Lambda):
        return function if isinstance(function, XlError) else _NAME
    result = function(*args)
    return _CALC if isinstance(result, Lambda) else result


FUNCTIONS: dict[str, Any] = {CALL: call}

__all__ = ["CALL", "FUNCTIONS", "STACK", "Lambda", "call", "definition", "named"]
