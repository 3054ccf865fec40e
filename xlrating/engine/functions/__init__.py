"""Excel's own functions that the engine computes itself, one module per Excel category.

``formulas`` implements most of Excel's library; where it is missing a function or computes one
differently from Excel, the function lives here, in the module of its Excel category (Microsoft's
function reference groups them the same way). Each module has a ``FUNCTIONS`` dict: Excel name ->
a ``formulas``-compatible implementation, and ends with a ``DECLARED`` dict of each one's facts
(whether it spills, takes arrays, came from the ToolPak ...: :mod:`xlrating.engine.formula.declared`) (built with ``formulas.functions.wrap_func`` /
``wrap_ufunc``); :mod:`.builtins` corrects a few of ``formulas``' own, :mod:`.operators` the ``&``
operator. This package is the catalogue the engine's registry is made with
(:class:`xlrating.engine.evaluate.registry.FunctionRegistry`, whose :class:`~xlrating.engine.evaluate.registry.Catalogue`
it is: :func:`implementation`, :func:`implementations`, :func:`operator` and ``formulas``' own
:mod:`.library`); ``formulas``' global registry is never touched.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import library
from .names import MODULES, NAMES


def implementation(name: str) -> Any | None:
    """``implementations().get(name)``, importing only the module that defines ``name`` (one at most:
    each name is declared once), else :mod:`.builtins`' correction of ``formulas``' own."""
    for module in MODULES:
        if name in NAMES[module]:
            return importlib.import_module(f"{__name__}.{module}").FUNCTIONS[name]
    from .builtins import corrections

    return corrections().get(name)


def implementations() -> dict[str, Any]:
    """Excel name (upper case, without ``_xlfn.``) -> implementation: :mod:`.builtins`' corrections,
    then every category module's (these win)."""
    from .builtins import corrections

    merged: dict[str, Any] = dict(corrections())
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        merged.update(module.FUNCTIONS)
    return merged


def operator(name: str) -> Any | None:
    """The engine's own implementation of the operator ``name`` (``&``), or None."""
    from .operators import OPERATORS

    return OPERATORS.get(name)


__all__ = ["MODULES", "NAMES", "implementation", "implementations", "library", "operator"]
