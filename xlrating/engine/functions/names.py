"""The Excel functions each category module of this package defines, from the modules' declarations
(:mod:`xlrating.engine.formula.declared` reads them without importing the modules), so that looking up
one name imports one module (:func:`xlrating.engine.functions.implementation`)."""

from __future__ import annotations

from ..formula import declared

# Excel's function categories that have functions here (module names): those declaring functions
MODULES = declared.MODULES
NAMES: dict[str, frozenset[str]] = {module: declared.defined_by(module) for module in MODULES}

__all__ = ["MODULES", "NAMES"]
