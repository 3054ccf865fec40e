"""A function of two single values applied over arrays and references as Excel applies it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import Error, XlError

from .arguments import quiet, scalar

_NA: XlError = Error.errors["#N/A"]


def pairwise(func: Callable[[Any, Any], Any]) -> Any:
    """``func`` of two values applied entry by entry as Excel lifts a function of single values over
    arrays: the result has the most rows and the most columns of the two; an argument of one row
    (column) serves every row (column), and past the end of a longer one the entry is #N/A
    (ATAN2({1,2,3},{1,2}) is {0.785, 0.785, #N/A}; ``formulas`` could not compute it). An
    entry is handed over as a plain value; ``func`` reads it and answers its errors."""
    def lifted(x: Any, y: Any) -> Any:
        if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
            return func(x, y)
        grids = [np.atleast_2d(np.asarray(a, dtype=object)) for a in (x, y)]
        rows, cols = max(g.shape[0] for g in grids), max(g.shape[1] for g in grids)

        def entry(grid: np.ndarray, i: int, j: int) -> Any:
            r = 0 if grid.shape[0] == 1 else i
            c = 0 if grid.shape[1] == 1 else j
            return scalar(grid[r, c]) if r < grid.shape[0] and c < grid.shape[1] else _NA

        out = np.empty((rows, cols), dtype=object)
        for i in range(rows):
            for j in range(cols):
                out[i, j] = func(*(entry(g, i, j) for g in grids))
        return out.view(Array)
    return quiet(wrap_func(lifted))
