"""Excel's own functions that the engine computes itself, one module per Excel category.

``formulas`` implements most of Excel's library; where it is missing a function or computes one
differently from Excel, the function lives here, in the module of its Excel category (Microsoft's
function reference groups them the same way). Each module has a ``FUNCTIONS`` dict: Excel name ->
a ``formulas``-compatible implementation (built with ``formulas.functions.wrap_func`` /
``wrap_ufunc``). :func:`implementations` merges them into the engine's private registry
(:func:`xlrating.engine.registry.registry`); ``formulas``' global registry is never touched.
"""

from __future__ import annotations

import importlib
from typing import Any

# Excel's function categories that have functions here (module names).
MODULES = ("engineering", "financial", "database", "dynamic_arrays", "math_trig", "text", "information",
           "lookup", "logical", "date_time", "statistical")


def implementations() -> dict[str, Any]:
    """Excel name (upper case, without ``_xlfn.``) -> implementation, over every category module."""
    merged: dict[str, Any] = {}
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        merged.update(module.FUNCTIONS)
    return merged
