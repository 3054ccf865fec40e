"""The engine's function registry: Excel's functions as the evaluator computes them, an object the
evaluator owns.

``formulas`` looks functions up in one process-wide dict (``formulas.get_functions()``). We never
mutate it: a :class:`FunctionRegistry` is ``formulas``' functions with ours in their place under
every name Excel may store them as: the Excel functions we compute (a :class:`Catalogue`, which
:mod:`xlrating.engine.functions` is, handed in by whoever makes the registry), the functions that
need the workbook (:mod:`.references`) and xlrating's rating functions. :meth:`~FunctionRegistry.lookup`
resolves one name in it, importing only the module that defines it;
:meth:`~FunctionRegistry.registry` is the whole of it as a dict (it imports all of ``formulas``'
library, scipy included). Formulas compile against it with :mod:`.compiler`'s parser. Nothing here
imports ``formulas`` until a name is looked up.
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from ..formula import declared
from ..formula.function_names import BUILTIN_PREFIXES, PREFIXES, _ours_by_name, builtin_name, our_function
from ..read.names import RECURSIVE_CALL


class Library(Protocol):
    """``formulas``' own functions, one category module loaded at a time."""

    def names(self) -> frozenset[str]:
        """Every name the library defines, importing none of it."""
        ...

    def function(self, name: str) -> Any | None:
        """The implementation of ``name``, importing only its module; None if not defined."""
        ...


class Catalogue(Protocol):
    """Excel's functions and operators the engine computes itself where ``formulas``' own are missing
    or differ from Excel, and ``formulas``' library behind them."""

    library: Library

    def implementation(self, name: str) -> Any | None:
        """Ours for ``name`` (upper case, without ``_xlfn.``), importing only its module; or None."""
        ...

    def implementations(self) -> dict[str, Any]:
        """Every one of ours, by name."""
        ...

    def operator(self, name: str) -> Any | None:
        """Our implementation of an operator (``&``), or None to take ``formulas``' own."""
        ...


class FunctionRegistry:
    """``formulas``' functions with ours in their place; every lookup remembered."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.library = catalogue.library
        self.lookup = functools.lru_cache(maxsize=4096)(self._lookup)
        self.registry = functools.lru_cache(maxsize=1)(self._registry)
        self._engine_functions = functools.lru_cache(maxsize=1)(self._all_engine_functions)

    def _overrides(self) -> dict[str, Any]:
        """Function name -> ours: the catalogue's, then those that need the workbook (these win)."""
        from .aggregate import FUNCTIONS as AGGREGATES
        from .lambdas import FUNCTIONS as LAMBDA_CALLS
        from .references import FUNCTIONS

        functions = dict(self.catalogue.implementations())
        functions.update(FUNCTIONS)
        functions.update(AGGREGATES)
        functions.update(LAMBDA_CALLS)
        return functions

    def _override(self, name: str) -> Any | None:
        """``_overrides().get(name)``, importing only the module that defines it."""
        from .references import FUNCTIONS

        found = FUNCTIONS.get(name)
        if found is None and name == "AGGREGATE":
            from .aggregate import FUNCTIONS as AGGREGATES

            found = AGGREGATES[name]
        if found is None and name == RECURSIVE_CALL:
            from .lambdas import call

            found = call
        return found if found is not None else self.catalogue.implementation(name)

    def _all_engine_functions(self) -> dict[str, Any]:
        """Every entry of the registry that is not ``formulas``' own function: our Excel functions
        under their plain name and each storage prefix ``formulas`` knows the name under, and
        xlrating's functions under every stored name (these last win). Knowing which prefixed names
        ``formulas`` has imports none of its library (:meth:`Library.names`)."""
        from xlrating.functions import BY_NAME

        from .host_values import adapter

        known = self.library.names()
        functions: dict[str, Any] = {}
        for name, implementation in self._overrides().items():
            for prefix in ("", *BUILTIN_PREFIXES):
                if prefix + name in known or not prefix:
                    functions[prefix + name] = implementation
        for fn in BY_NAME.values():
            ours = adapter(fn)
            for prefix in PREFIXES:
                functions[prefix + fn.name] = ours
        return functions

    def engine_function(self, name: str) -> Any | None:
        """``_engine_functions().get(name)``, importing only the module that defines it
        (tests/engine/evaluate/test_engine_registry.py checks the two agree on every name)."""
        for prefix in PREFIXES:  # xlrating's functions, under every stored name, win
            if name.startswith(prefix):
                fn = _ours_by_name(name[len(prefix):])
                if fn is not None:
                    from .host_values import adapter

                    return adapter(fn)
        found = self._override(name)
        if found is not None:
            return found
        for prefix in BUILTIN_PREFIXES:  # a correction under the prefixed name formulas knows it by
            if name.startswith(prefix) and name in self.library.names():
                found = self._override(name[len(prefix):])
                if found is not None:
                    return found
        return None

    def _lookup(self, name: str) -> Any | None:
        """``registry().get(name)`` for a stored name (upper case), importing only what it needs: ours
        first, then the one module of ``formulas``' library that defines the name; None if neither does."""
        found = self.engine_function(name)
        found = found if found is not None else self.library.function(name)
        return None if found is None else as_excel_computes(name, found)

    def _registry(self) -> dict[str, Any]:
        """``formulas``' built-in functions, corrected where they differ from Excel, plus ours under
        every stored name; a private copy. Imports the whole of ``formulas``' library
        (``get_functions()``): the engine resolves one name at a time with :meth:`lookup` instead."""
        from formulas.functions import get_functions

        functions: dict[str, Any] = dict(get_functions())
        functions.update(self._engine_functions())
        return {name: as_excel_computes(name, function) for name, function in functions.items()}

    def operator(self, name: str) -> Any | None:
        """The engine's own implementation of an operator: ``:`` spans its references through the
        engine (:func:`.references.span`), ``^`` is Excel's power through the one power both paths
        take (:mod:`.arithmetic`), ``&`` is the catalogue's; None for ``formulas``' own."""
        if name == ":":
            from .references import RANGE_OPERATOR

            return RANGE_OPERATOR
        if name == "^":
            from .arithmetic import POWER_OPERATOR

            return POWER_OPERATOR
        return self.catalogue.operator(name)

    def unknown(self, name: str) -> UnknownFunction | None:
        """For a name the registry has no function of: :class:`UnknownFunction` if it is one of
        Excel's functions (the engine does not compute it), None if Excel does not know it either."""
        return UnknownFunction(name) if is_excel_function(name) else None

    def is_known_function(self, name: str) -> bool:
        upper = name.upper()
        if our_function(upper) is not None or builtin_name(upper) in VECTOR_BUILTINS:
            return True
        return self.lookup(upper) is not None or self.lookup(builtin_name(upper)) is not None


def as_excel_computes(name: str, implementation: Any) -> Any:
    """An implementation of the function ``name`` with the rules every function of its kind follows
    in Excel: dates in the workbook's date system (:mod:`.date_system`), a reference to several cells
    refused where the Analysis ToolPak's functions take one value (:mod:`.toolpak`), and intersected
    with the formula's row or column where a parameter takes one value in a legacy formula
    (:func:`.legacy_values.parameters_intersected`), and a text given where it takes a number read as
    Excel reads it (:func:`.number_arguments.numbers_read`)."""
    from .date_system import in_date_system
    from .legacy_values import parameters_intersected
    from .number_arguments import numbers_read
    from .toolpak import references_refused

    return parameters_intersected(name, references_refused(name, numbers_read(name, in_date_system(name, implementation))))


# Built-ins the vectorised path implements itself; knowing them needs no import of formulas' library.
VECTOR_BUILTINS = declared.having("vector")


@functools.lru_cache(maxsize=1)
def excel_functions() -> frozenset[str]:
    """Every function name Excel knows: ``data/excel_functions.txt`` (from Microsoft's reference) and
    every function a category module of :mod:`xlrating.engine.functions` declares."""
    from importlib.resources import files

    text = files("xlrating.engine.data").joinpath("excel_functions.txt").read_text(encoding="utf-8")
    listed = frozenset(line.strip().upper() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return listed.union(*(declared.defined_by(module) for module in declared.MODULES))


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
