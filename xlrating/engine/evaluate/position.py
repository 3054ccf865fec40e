"""The cell a formula is being computed in, for the functions that need the workbook around it
(OFFSET, INDIRECT, CELL ...: :mod:`.references`), and the way such a function stops the formula.

:meth:`.fallback.Fallback.evaluate` sets :data:`CURRENT` while ``formulas`` runs a formula; what the
functions read through it is the :class:`CellReader` protocol, which the fallback implements.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from formulas.ranges import Ranges

from ..formula.values import Abort
from ..read.grid import Grid, Sheet
from ..read.row_visibility import Rows


class CellReader(Protocol):
    """What a function computing a reference reads the workbook through (:class:`.fallback.Fallback`)."""

    grid: Grid
    package: Any
    formula_text: Callable[[str, int, int], str | None]
    spill_size: Callable[[str, int, int], tuple[int, int] | None]

    def read(self, target: Sheet, r1: int, c1: int, r2: int, c2: int, seen_from: Sheet) -> Ranges: ...

    def names_for(self, sheet: Sheet) -> dict[str, str]: ...

    def rows_of(self, sheet: Sheet) -> Rows: ...


@dataclass
class Position:
    """The cell a formula is being computed in: what OFFSET, INDIRECT, CELL ... are relative to."""

    fallback: CellReader
    sheet: Sheet
    row: int
    col: int
    # an ordinary formula Excel computes as a legacy one: a range given for a single value is the
    # cell in the formula's row or column (implicit intersection), #VALUE! when there is none
    intersect: bool = False
    # ... and, in a workbook a spreadsheet saved (so a legacy formula for certain), an operator's
    # operand given as a range is that cell too (``=SUM(B1:B3*C1:C3)`` in row 2 is ``B2*C2``), and
    # so is a range given to a function's parameter that takes one value (``=SUM(ABS(A1:A9))``)
    operands: bool = False


def area_sheet(grid: Grid, area: dict[str, Any], default: Sheet) -> Sheet | None:
    """The sheet of one area of a ``formulas`` reference: its ``sheet``, else its ``sheet_id`` (the
    upper-case name, quoted when it has a space: what INDEX and OFFSET of a reference to another
    sheet carry), else ``default`` (the formula's own sheet); None for a sheet the workbook lacks."""
    name = area.get("sheet")
    if not name:
        name = area.get("sheet_id") or ""
        if len(name) > 1 and name.startswith("'") and name.endswith("'"):
            name = name[1:-1]
    return grid.sheet(name) if name else default


CURRENT: contextvars.ContextVar[Position] = contextvars.ContextVar("xlrating_engine_position")


__all__ = ["CURRENT", "Abort", "CellReader", "Position", "area_sheet"]
