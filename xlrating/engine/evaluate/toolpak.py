"""The functions that came from Excel's Analysis ToolPak refuse a reference to several cells where
they take one value.

EDATE, EOMONTH, YEARFRAC, WORKDAY, NETWORKDAYS, MROUND, QUOTIENT, the engineering and the securities
functions ... were an add-in's before Excel 2007 took them in, and they still read a parameter that
takes one value as a reference, not as an array: given a range of several cells there, in an array
formula or a dynamic-array one, the whole result is #VALUE! (``=EDATE(A2:A10,1)`` is #VALUE!, where
``=EDATE(+A2:A10,1)``, an array, gives a date for each row, and ``=COS(A2:A10)`` a cosine for each).
Excel's saved values show it: ``{=MROUND(C45:G45,2)}`` over five cells, ``{=FACTDOUBLE(C31:Q31)}``,
``{=HEX2DEC(C27:J27)}``, ``{=YEARFRAC(C27:E27,D27:F27,E27:G27)}`` are #VALUE! in every cell.

An ordinary (legacy) formula intersects such a range with its own row or column first, as it does
for every function (:mod:`.legacy_values`), and is left as it is here.

:data:`SCALAR_PARAMETERS` names, per function, the positions of the parameters that take one value
(None: all of them); the others take a range (GCD's numbers, XNPV's values and dates, WORKDAY's
holidays, SERIESSUM's coefficients).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..formula import declared
from .wrappers import at_parameters

SCALAR_PARAMETERS: dict[str, tuple[int, ...] | None] = declared.toolpak_parameters()


def _several_cells(value: Any) -> bool:
    """Whether ``value`` is a reference to more than one cell (or to several areas)."""
    from formulas.ranges import Ranges

    if not isinstance(value, Ranges) or not value.ranges:
        return False
    if len(value.ranges) > 1:
        return True
    area = value.ranges[0]
    return int(area["r1"]) != int(area["r2"]) or int(area["n1"]) != int(area["n2"])


def _legacy() -> bool:
    from .position import CURRENT

    position = CURRENT.get(None)
    return position is not None and position.intersect


def _refusing(implementation: Callable[..., Any], taking: frozenset[int] | None, extra: int) -> Callable[..., Any]:
    @functools.wraps(implementation)
    def computed(*args: Any, **kwargs: Any) -> Any:
        scalars = args[extra:] if taking is None else [a for i, a in enumerate(args) if i in taking]
        if any(_several_cells(a) for a in scalars) and not _legacy():
            from formulas.tokens.operand import Error

            return Error.errors["#VALUE!"]
        return implementation(*args, **kwargs)

    return computed


# ``references_refused(name, implementation)``: the implementation of the Excel function ``name``,
# giving #VALUE! for a reference to several cells in a parameter that takes one value (the
# implementation itself for other functions)
references_refused = at_parameters(SCALAR_PARAMETERS, "references_refused", _refusing)


__all__ = ["SCALAR_PARAMETERS", "references_refused"]
