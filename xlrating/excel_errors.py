"""Excel's error values as they cross between hosts and the function table.

A module of its own so that a host can hold and compare error values (the formula engine does in
every cell it computes) without loading the function table and the rating maths behind it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExcelError:
    """An Excel error value (``#VALUE!``, ``#NUM!``, ``#N/A`` ...) with the reason, when known."""

    code: str
    reason: str = ""

    def __str__(self) -> str:
        return self.code


ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!",
               "#CALC!")
