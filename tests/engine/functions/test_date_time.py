"""Dates typed as text, read as Excel reads them (Microsoft's DATEVALUE, YEAR, MONTH, DAY pages)."""

from __future__ import annotations

import numpy as np
import pytest
from formulas.tokens.operand import XlError

from xlrating.engine import REGISTRY
from xlrating.engine.evaluate.compiler import compile_formula


def _value(formula: str) -> object:
    value = np.asarray(compile_formula(REGISTRY, formula)(), dtype=object).ravel()[0]
    return f"error {value}" if isinstance(value, XlError) else value


@pytest.mark.parametrize(("formula", "expected"), [
    ('=YEAR("7/5/1800")', "error #VALUE!"),  # before 1900: no date Excel can hold (its saved value)
    ('=YEAR("7/5/10000")', "error #VALUE!"),  # after 9999
    ('=YEAR("7/5/2008")', 2008),
    ('=MONTH("2008-05-07")', 5),
    ('=DAY("not a date")', "error #VALUE!"),
    ('=DATEVALUE("1/1/2008")', 39448),
    ('=DATEVALUE("1/1/1899")', "error #VALUE!"),
    ('=DAY("600")', 22),  # text that reads as a number is that serial number
    ("=YEAR(39575)", 2008),
])
def test_dates_as_text_are_dates_only_from_1900_to_9999(formula: str, expected: object) -> None:
    assert _value(formula) == expected
