"""Excel built-ins where ``formulas``' own version differs from Excel; they replace it in the
engine's private registry (:func:`.registry.registry`), never in ``formulas``' global one.

- ROUND, ROUNDUP, ROUNDDOWN: Excel rounds the number as shown to 15 digits (:mod:`.rounding`).
"""

from __future__ import annotations

from typing import Any

from formulas.functions import wrap_ufunc

from .rounding import MODES, excel_round


def _rounding(name: str) -> Any:
    mode = MODES[name]

    def rounded(number: float, digits: float) -> float:
        return excel_round(number, digits, mode)

    rounded.__name__ = name.lower()
    return wrap_ufunc(rounded)


def overrides() -> dict[str, Any]:
    """Function name -> ``formulas``-compatible implementation, for the engine's registry."""
    return {name: _rounding(name) for name in MODES}
