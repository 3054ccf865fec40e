"""Excel's financial functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

VDB (Microsoft, "VDB function"): the depreciation of an asset between two points of its life, by
declining balance at ``factor`` / ``life`` per period (DDB's rule: never below ``salvage``), switching
to straight line over the remaining life once that depreciates more, unless ``no_switch``; fractions
of a period depreciate pro rata. Where the periods fall matters: when ``start_period`` is
fractional, Excel's periods start at its fraction (0, 0.5, 1.5, 2.5 ... for a start of 3.5), so
VDB(1, 0, 14, 3.5, 4.5, 1.25) is the straight line of the book value at 3.5 over the 10.5 periods
left (0.0687263), not the mean of the 4th and 5th whole periods (0.0686679). These are the values
Excel saved in xlcalculator's VDB test workbook.

``formulas`` 1.3 failed there: #VALUE! for the last periods (VDB(575000, 5000, 10, 9, 10, 1.5)), the
whole-period schedule for fractional starts, and no #NUM! for an end period after the life.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from formulas.tokens.operand import Error, XlError

from .arguments import elementwise

_NUM: XlError = Error.errors["#NUM!"]
_VALUE: XlError = Error.errors["#VALUE!"]


# --- arguments ----------------------------------------------------------------------------------

# --- VDB ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _State:
    """Where a depreciation schedule stands: the book value at time ``at``, and the straight-line
    amount per period once the schedule has switched to it."""
    book: float
    at: float
    straight: float | None = None


@dataclass(frozen=True)
class _Asset:
    cost: float
    salvage: float
    life: float
    rate: float  # declining balance per period: factor / life
    switch: bool  # to straight line when it depreciates more (no_switch FALSE)

    def period(self, book: float, start: float) -> tuple[float, bool]:
        """The depreciation of a whole period from time ``start`` at book value ``book``, and whether
        it is the straight line (which then holds to the end of the life)."""
        declining = max(min(self.rate * book, book - self.salvage), 0.0)
        if self.switch and self.life > start:
            straight = (book - self.salvage) / (self.life - start)
            if straight > declining:
                return straight, True
        return declining, False

    def declining_run(self, book: float, start: float, end: float) -> int:
        """How many whole periods from ``start`` (before ``end``, all inside the life) depreciate by the
        plain declining balance: neither capped at the salvage nor overtaken by the straight line.
        Each condition, once met, stays met, so the count is found by bisection (a life of 10^9
        periods takes no 10^9 steps)."""
        if self.rate >= 1:  # the first period takes all down to the salvage
            return 0

        def plain(k: int) -> bool:
            at, value = start + k, book * (1.0 - self.rate) ** k
            return (at + 1 <= end and self.life - at >= 1 and self.rate * value <= value - self.salvage
                    and not (self.switch and value - self.salvage > self.rate * value * (self.life - at)))
        low, high = 0, max(int(end - start), 0)  # plain(high) is false: its period passes the end
        while low < high:
            middle = (low + high) // 2
            if plain(middle):
                low = middle + 1
            else:
                high = middle
        return low

    def declined(self, book: float, periods: int) -> float:
        """The depreciation of ``periods`` plain declining-balance periods from book value ``book``:
        book * (1 - (1 - rate)^periods), computed without cancellation."""
        if periods == 0:
            return 0.0
        return -book * math.expm1(periods * math.log1p(-self.rate))

    def first_fraction(self, offset: float) -> _State:
        """The state at ``offset``, after the fraction of the first period that puts the periods'
        starts at ``offset``, ``offset`` + 1, ..."""
        amount, switched = self.period(self.cost, 0.0)
        return _State(self.cost - amount * offset, offset, amount if switched else None)

    def advance(self, state: _State, end: float) -> tuple[_State, float]:
        """The state at ``end`` and the depreciation from ``state`` to it; a fraction of a period
        depreciates pro rata."""
        book, at, straight, spent = state.book, state.at, state.straight, 0.0
        while at < end and book > self.salvage:
            if straight is not None:
                amount = straight * (end - at)
                return _State(book - amount, end, straight), spent + amount
            run = self.declining_run(book, at, end)
            amount = self.declined(book, run)
            book, at, spent = book - amount, at + run, spent + amount
            if at >= end:
                break
            amount, switched = self.period(book, at)
            portion = min(1.0, end - at)
            book, at, spent = book - amount * portion, at + portion, spent + amount * portion
            straight = amount if switched else None
        return _State(book, max(at, end), straight), spent

    def depreciation(self, start: float, end: float) -> float:
        """The depreciation from ``start`` to ``end``: periods start at the fraction of ``start``."""
        offset = start - math.floor(start)
        state = self.first_fraction(offset) if offset > 0 else _State(self.cost, 0.0)
        state, _ = self.advance(state, start)
        return self.advance(state, end)[1]


def _vdb(cost: float, salvage: float, life: float, start_period: float, end_period: float,
         factor: float = 2.0, no_switch: float = 0.0) -> Any:
    """VDB: the depreciation from ``start_period`` to ``end_period`` (Microsoft, "VDB function").
    #NUM! for a negative cost, salvage, start or factor, a life not above 0, a start after the end
    or an end after the life."""
    if (min(cost, salvage, start_period, factor) < 0 or life <= 0 or start_period > end_period
            or end_period > life):
        return _NUM
    asset = _Asset(cost, salvage, life, factor / life, switch=not no_switch)
    return asset.depreciation(start_period, end_period)


FUNCTIONS: dict[str, Any] = {
    "VDB": elementwise(_vdb),
}
