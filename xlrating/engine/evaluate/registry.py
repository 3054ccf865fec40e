"""Our Excel functions inside a function registry the engine owns.

``formulas`` looks functions up in one process-wide dict (``formulas.get_functions()``). We never
mutate it: the engine's registry is ``formulas``' functions, with ours (:mod:`.builtins`, the
modules of :mod:`.functions`, xlrating's rating functions) in their place under every name Excel may
store them as. :func:`lookup` resolves one name in it, importing only the module of ``formulas``'
library that defines it (:mod:`.library`); :func:`registry` is the whole of it as a dict (it
imports all of ``formulas``' library, scipy included). :class:`EngineParser` is a ``formulas`` parser
whose function tokens compile against :func:`lookup`; its operator tokens compile against
:mod:`.operators` (``&``) and then ``formulas``' own table. The adapter only converts values (``XlError`` <-> :class:`ExcelError`,
``formulas``' empty <-> ``None``, numpy scalars <-> Python) and calls :func:`xlrating.functions.call`.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, Any

import numpy as np
import schedula as sh
from formulas.builder import AstBuilder
from formulas.functions import Array, wrap_func
from formulas.parser import Parser
from formulas.tokens.function import Function
from formulas.tokens.operand import Empty, XlError
from formulas.tokens.operand import Error as ErrorToken
from formulas.tokens.operator import OperatorToken

from xlrating.core.dates import to_excel_serial
from xlrating.excel_errors import ExcelError

from ..formula.function_names import BUILTIN_PREFIXES, PREFIXES, _ours_by_name, builtin_name, our_function
from ..formula.values import OMITTED, is_omitted
from ..functions import library

if TYPE_CHECKING:
    from xlrating.functions import ExcelFunction

# --- value conversion between formulas and xlrating.functions ------------------------------------

def to_host(value: Any) -> Any:
    """A ``formulas`` cell value as a host-neutral value of :mod:`xlrating.functions`."""
    if isinstance(value, XlError):
        return ExcelError(str(value))
    if value is sh.EMPTY or value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return value


def argument_to_host(value: Any) -> Any:
    """A ``formulas`` argument (a scalar or a 2-D array) as a host-neutral value or list of rows; an
    argument left empty between commas is None, the default, as Excel passes it to an add-in."""
    if is_omitted(value):
        return None
    if isinstance(value, np.ndarray):
        if value.size == 1:
            return to_host(value.ravel()[0])
        grid = value if value.ndim == 2 else np.atleast_2d(value)
        return [[to_host(v) for v in row] for row in grid.tolist()]
    return to_host(value)


def from_host(value: Any) -> Any:
    """A host-neutral value as a ``formulas`` value."""
    if isinstance(value, ExcelError):
        return ErrorToken.errors.get(value.code, XlError(value.code))
    if value is None:
        return sh.EMPTY
    if isinstance(value, dt.date):  # a datetime too
        return excel_serial(value)
    return value


def excel_serial(moment: dt.date) -> float:
    """A date (and a datetime's time of day, as the fraction) as Excel's 1900-system serial number."""
    if isinstance(moment, dt.datetime):
        since_midnight = moment - dt.datetime.combine(moment.date(), dt.time(), moment.tzinfo)
        return float(to_excel_serial(moment.date())) + since_midnight.total_seconds() / 86400.0
    return float(to_excel_serial(moment))


@functools.cache
def _adapter(fn: ExcelFunction) -> Any:
    from xlrating.functions import call

    def evaluate(*args: Any) -> Any:
        result = call(fn, [argument_to_host(a) for a in args])
        if isinstance(result, list):
            return np.asarray([[from_host(v) for v in row] for row in result], object).view(Array)
        return from_host(result)

    evaluate.__name__ = fn.name
    return wrap_func(evaluate)


@functools.lru_cache(maxsize=1)
def _engine_functions() -> dict[str, Any]:
    """Every entry of the registry that is not ``formulas``' own function: the corrected built-ins
    (:mod:`.builtins`) under their plain name and each storage prefix ``formulas`` knows the name
    under, and xlrating's functions under every stored name (these last win). Knowing which
    prefixed names ``formulas`` has imports none of its library (:func:`.library.names`)."""
    from xlrating.functions import BY_NAME

    from ..functions.builtins import overrides

    known = library.names()
    functions: dict[str, Any] = {}
    for name, implementation in overrides().items():
        for prefix in ("", *BUILTIN_PREFIXES):
            if prefix + name in known or not prefix:
                functions[prefix + name] = implementation
    for fn in BY_NAME.values():
        adapter = _adapter(fn)
        for prefix in PREFIXES:
            functions[prefix + fn.name] = adapter
    return functions


def _engine_function(name: str) -> Any | None:
    """``_engine_functions().get(name)``, importing only the module of :mod:`.functions` that defines
    it (tests/engine/test_engine_registry.py checks the two agree on every name)."""
    for prefix in PREFIXES:  # xlrating's functions, under every stored name, win
        if name.startswith(prefix):
            fn = _ours_by_name(name[len(prefix):])
            if fn is not None:
                return _adapter(fn)
    from ..functions.builtins import override

    found = override(name)
    if found is not None:
        return found
    for prefix in BUILTIN_PREFIXES:  # a correction under the prefixed name formulas knows it by
        if name.startswith(prefix) and name in library.names():
            found = override(name[len(prefix):])
            if found is not None:
                return found
    return None


@functools.lru_cache(maxsize=4096)
def lookup(name: str) -> Any | None:
    """``registry().get(name)`` for a stored name (upper case), importing only what it needs: ours
    first, then the one module of ``formulas``' library that defines the name; None if neither does."""
    found = _engine_function(name)
    return found if found is not None else library.function(name)


@functools.lru_cache(maxsize=1)
def registry() -> dict[str, Any]:
    """``formulas``' built-in functions, corrected where they differ from Excel (:mod:`.builtins`),
    plus ours under every stored name; a private copy. Imports the whole of ``formulas``' library
    (``get_functions()``): the engine resolves one name at a time with :func:`lookup` instead."""
    from formulas.functions import get_functions

    functions: dict[str, Any] = dict(get_functions())
    functions.update(_engine_functions())
    return functions


# Built-ins the vectorised path implements itself; knowing them needs no import of formulas' library.
VECTOR_BUILTINS = frozenset(("IF", "IFERROR", "SUM", "AVERAGE", "MIN", "MAX", "COUNT", "RANK", "RANK.EQ",
                             "ROUND", "ROUNDUP", "ROUNDDOWN", "ABS", "AND", "OR"))


def is_known_function(name: str) -> bool:
    upper = name.upper()
    if our_function(upper) is not None or builtin_name(upper) in VECTOR_BUILTINS:
        return True
    return lookup(upper) is not None or lookup(builtin_name(upper)) is not None


class EngineFunction(Function):
    """A function token that compiles against the engine's registry (:func:`lookup`) instead of the
    global one."""

    def compile(self) -> Any:
        if self.attr.get("func_token"):
            return super().compile()
        name = self.name.upper()
        found = lookup(name)
        if found is None:
            found = lookup(builtin_name(name))
        if found is not None:
            return found
        if is_excel_function(name):
            raise UnknownFunction(self.name)  # Excel computes it; the engine does not (yet)
        return _NAME_ERROR  # Excel does not know it either: #NAME? in the cell, as Excel shows


def _name_error(*_: Any) -> Any:
    return ErrorToken.errors["#NAME?"]


_NAME_ERROR = wrap_func(_name_error)


@functools.lru_cache(maxsize=1)
def excel_functions() -> frozenset[str]:
    """Every function name Excel knows (``data/excel_functions.txt``, from Microsoft's reference)."""
    from importlib.resources import files

    text = files("xlrating.engine.data").joinpath("excel_functions.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#"))


def is_excel_function(name: str) -> bool:
    """Whether Excel itself has a function of this name (stored with or without ``_xlfn.``)."""
    upper = name.upper()
    if upper.startswith(("_XLUDF.", "_XLDUDF_")):  # Excel's marks for functions it does not know
        return False
    return builtin_name(upper) in excel_functions()


class UnknownFunction(Exception):
    """A formula calls one of Excel's functions that the engine does not compute."""

    def __init__(self, name: str):
        self.name = name
        super().__init__(f"Excel's function {builtin_name(name)} is not computed by xlrating")


class EngineOperator(OperatorToken):
    """An operator token that compiles against the engine's operators (:mod:`.operators`) where it has
    its own implementation (``&``), and as ``formulas`` does otherwise."""

    def compile(self) -> Any:
        from ..functions.operators import OPERATORS

        implementation = OPERATORS.get(self.name.upper())
        return implementation if implementation is not None else super().compile()


_ENGINE_TOKENS = {Function: EngineFunction, OperatorToken: EngineOperator}


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


class EngineParser(Parser):
    """``formulas``' parser with function and operator tokens bound to the engine's implementations."""

    filters = [_ENGINE_TOKENS.get(f, f) for f in Parser.filters]  # noqa: RUF012 - formulas' API
    ast_builder = EngineAstBuilder
