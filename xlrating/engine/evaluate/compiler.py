"""Formula text compiled by ``formulas`` against a :class:`~.registry.FunctionRegistry`.

:func:`parser_for` is ``formulas``' parser with its function tokens compiled against the registry's
:meth:`~.registry.FunctionRegistry.lookup` instead of ``formulas``' global table, its operator tokens
against the registry's operators (``:``, ``&``) and then ``formulas``' own, and an argument left out
between commas read as :data:`~..formula.values.OMITTED`, and a line break inside a text of the
formula kept (``formulas``' parser drops every line break of a formula before reading it, so a
text typed with one, as with Alt+Enter, lost it; Excel keeps it). :func:`compile_formula` compiles
each distinct formula text once per registry.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Self

from formulas.builder import AstBuilder
from formulas.cell import CELL
from formulas.functions import wrap_func
from formulas.parser import Parser
from formulas.ranges import Ranges
from formulas.tokens.function import Function, Lambda, LetaFunction
from formulas.tokens.operand import Empty, String
from formulas.tokens.operand import Error as ErrorToken
from formulas.tokens.operator import OperatorToken

from ..formula.function_names import builtin_name
from ..formula.values import OMITTED, Abort
from ..read.date_system import DATE_SYSTEM
from ..read.grid import CellFailure, NotComputed
from .legacy_values import operands_intersected
from .registry import FunctionRegistry, UnknownFunction, is_excel_function


class EngineFunction(Function):
    """A function token that compiles against the engine's registry (:meth:`~.registry.FunctionRegistry.lookup`)
    instead of the global one; :func:`parser_for` binds ``registry``."""

    registry: FunctionRegistry

    def compile(self) -> Any:
        if self.attr.get("func_token"):
            return super().compile()
        name = self.name.upper()
        found = self.registry.lookup(name)
        if found is None:
            found = self.registry.lookup(builtin_name(name))
        if found is not None:
            return found
        if is_excel_function(name):
            raise UnknownFunction(self.name)  # Excel computes it; the engine does not (yet)
        return _NAME_ERROR  # Excel does not know it either: #NAME? in the cell, as Excel shows


class EtaFunction(LetaFunction):
    """An Excel function named as a value (``_xleta.SUM`` in ``GROUPBY(A2:A9, B2:B9, SUM)``): callable
    like a LAMBDA of the engine's implementation, and ``eta_name`` tells the functions that take one
    (GROUPBY, PIVOTBY) which it is."""

    eta_name: str

    def __new__(cls, name: str, implementation: Any) -> Self:
        made: Self = super().__new__(cls, implementation)
        made.eta_name = name
        return made


class EngineLambda(Lambda):
    """``formulas``' LAMBDA token; an eta-reduced function (``_xleta.NAME``) compiles against the
    engine's registry, as :class:`EtaFunction` (``formulas`` looked it up in its global table)."""

    registry: FunctionRegistry

    def compile(self) -> Any:
        if not self.has_leta:
            return super().compile()
        name = self.get_leta.upper()
        found = self.registry.lookup(name) or self.registry.lookup(builtin_name(name))
        if found is None:
            raise UnknownFunction(name)
        if isinstance(found, dict):
            found = dict(found, function=functools.partial(EtaFunction, name, found["function"]))
            return found
        return functools.partial(EtaFunction, name, found)


def _name_error(*_: Any) -> Any:
    return ErrorToken.errors["#NAME?"]


_NAME_ERROR = wrap_func(_name_error)

# operators of references, which intersect nothing: the range, the union and the intersection
_REFERENCE_OPERATORS = frozenset({":", ",", " ", "@"})


class EngineOperator(OperatorToken):
    """An operator token that compiles against the registry's operators where the engine has its own
    implementation (``:``, ``&``, ``^``), and as ``formulas`` does otherwise; :func:`parser_for` binds
    ``registry``. Signs that cancel out (``--x``), which ``formulas`` folds into a unary plus that
    changes nothing, turn their operand into a number, as Excel's two negations do
    (:data:`.arithmetic.NEGATED_TWICE`)."""

    registry: FunctionRegistry

    def compile(self) -> Any:
        name = self.name.upper()
        if name == "U+" and "-" in self.attr.get("sum_minus", ""):  # --x: signs that cancel out
            from .arithmetic import NEGATED_TWICE

            return operands_intersected(NEGATED_TWICE, "--")
        implementation = self.registry.operator(name)
        if implementation is None:
            implementation = super().compile()
        if name in _REFERENCE_OPERATORS:
            return implementation
        return operands_intersected(implementation, self.name)


class EngineAstBuilder(AstBuilder):
    """``formulas``' AST builder, but an argument left out between commas is :data:`OMITTED` (a 0 the
    functions can tell from a typed 0) instead of the plain integer 0."""

    def get_node_id(self, token: Any) -> Any:
        if type(token) is Empty and token not in self.nodes:
            self.missing_operands.discard(token)
            token.set_expr()
            node_id = self.dsp.add_data(data_id=token.node_id, default_value=OMITTED)
            self.nodes[token] = node_id
            return node_id
        return super().get_node_id(token)


# A text of a formula, and its line breaks as characters no formula holds (an XML file cannot)
_TEXT = re.compile(r'"(?:[^"]|"")*"')
_HIDDEN = str.maketrans({"\n": "\x00", "\r": "\x01"})
_SHOWN = str.maketrans({"\x00": "\n", "\x01": "\r"})


class EngineString(String):
    """A text of the formula with its line breaks back (:class:`BreaksKeptParser` hid them)."""

    def compile(self) -> Any:
        return super().compile().translate(_SHOWN)


class BreaksKeptParser(Parser):
    """``formulas``' parser, but the line breaks inside the formula's texts are kept; those between
    its tokens are dropped, as ``formulas`` drops them."""

    def ast(self, expression: str, context: Any = None) -> Any:
        if "\n" in expression or "\r" in expression:
            expression = _TEXT.sub(lambda text: text.group().translate(_HIDDEN), expression)
        return super().ast(expression, context)


@functools.cache
def parser_for(registry: FunctionRegistry) -> type[Parser]:
    """``formulas``' parser with function and operator tokens bound to ``registry``."""
    bound = {"registry": registry}
    tokens = {Function: type("EngineFunction", (EngineFunction,), bound),
              Lambda: type("EngineLambda", (EngineLambda,), bound),
              OperatorToken: type("EngineOperator", (EngineOperator,), bound),
              String: EngineString}
    return type("EngineParser", (BreaksKeptParser,), {"filters": [tokens.get(f, f) for f in Parser.filters],
                                            "ast_builder": EngineAstBuilder})


def _parsed(registry: FunctionRegistry, formula: str) -> tuple[bool, Any, str | None]:
    """One parse of ``formula``: whether it reads its own position (``ROW()``: compiled per cell by
    :func:`compile_formula`), else its compiled function or why it cannot be compiled.

    Remembered per date system: ``formulas`` computes a formula of constants as it compiles it, so
    the compiled ``=DATE(2022,3,1)`` holds the serial of the date system it was compiled in."""
    return _parsed_in(registry, formula, DATE_SYSTEM.get())


@functools.lru_cache(maxsize=4096)
def _parsed_in(registry: FunctionRegistry, formula: str, system: int) -> tuple[bool, Any, str | None]:
    try:
        _, builder = parser_for(registry)().ast(formula)
    except RecursionError:
        raise  # the stack was deep here; not remembered, another cell may parse it
    except Exception as exc:  # noqa: BLE001 - formulas raises many types for a formula it cannot parse
        return False, None, _why(formula, exc)
    if CELL in builder.dsp.data_nodes:
        return True, None, None
    try:
        return False, builder.compile(), None
    except RecursionError:
        raise
    except Exception as exc:  # noqa: BLE001 - as above
        return False, None, _why(formula, exc)


def _why(formula: str, exc: Exception) -> str:
    if isinstance(exc, UnknownFunction):
        return str(exc)
    stop = _not_computed_in(exc)
    if stop is not None:  # a function stopped while formulas computed a constant formula at compile time
        return stop.reason
    return f"cannot parse the formula {formula} ({type(exc).__name__})"


def _not_computed_in(exc: BaseException | None) -> NotComputed | None:
    """The :class:`NotComputed` a function raised (as :class:`Abort`) behind ``exc``, if any."""
    for _ in range(16):
        if exc is None:
            return None
        if isinstance(exc, Abort) and isinstance(exc.reason, NotComputed):
            return exc.reason
        exc = exc.__cause__ or exc.__context__
    return None


def compile_formula(registry: FunctionRegistry, formula: str, cell: str | None = None) -> Any:
    """``formula`` compiled by ``formulas`` with ``registry``'s functions; raises :class:`CellFailure`.

    Formulas reading their own position (``ROW()``, ``COLUMN()``) are compiled for one ``cell``
    (A1 address): ``formulas`` binds the position at compile time. Remembered per date system, as
    :func:`_parsed` is.
    """
    return _compiled(registry, formula, cell, DATE_SYSTEM.get())


@functools.lru_cache(maxsize=4096)
def _compiled(registry: FunctionRegistry, formula: str, cell: str | None, system: int) -> Any:
    try:
        needs, function, why = _parsed(registry, formula)
        if needs:
            _, builder = parser_for(registry)().ast(formula)
            return builder.compile(**{CELL: Ranges().push(cell)}) if cell is not None else builder.compile()
    except Exception as exc:  # noqa: BLE001 - formulas raises many types for a formula it cannot parse
        raise CellFailure(_why(formula, exc)) from None
    if why is not None:
        raise CellFailure(why)
    return function


def needs_cell(registry: FunctionRegistry, formula: str) -> bool:
    try:
        return _parsed(registry, formula)[0]
    except Exception:  # noqa: BLE001 - compile_formula reports it with the reason
        return False


def input_areas(registry: FunctionRegistry, formula: str) -> list[tuple[str | None, int, int, int, int]]:
    """What ``formula`` reads, from its compiled inputs: (sheet or None, r1, c1, r2, c2)."""
    areas = []
    for ranges in compile_formula(registry, formula).inputs.values():
        for area in getattr(ranges, "ranges", None) or ():
            areas.append((area.get("sheet") or None, max(int(area["r1"]), 1), max(int(area["n1"]), 1),
                          int(area["r2"]), int(area["n2"])))
    return areas
