"""SERIESSUM, ECMA.CEILING and POISSON.DIST of a fractional x, as Microsoft's pages define them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from function_books import assert_excel_value, recalculated

QUARTER_PI = math.pi / 4
# Microsoft's SERIESSUM example: cos(pi/4) by the first four terms of its power series
COSINE = 1 - QUARTER_PI ** 2 / 2 + QUARTER_PI ** 4 / 24 - QUARTER_PI ** 6 / 720
POISSON_2 = math.exp(-3) * 3 ** 2 / 2  # P(X = 2), mean 3
POISSON_UP_TO_2 = math.exp(-3) * (1 + 3 + 4.5)


@pytest.mark.parametrize(("formula", "expected"), [
    ("=SERIESSUM(PI()/4,0,2,{1,-0.5,0.0416666666666667,-0.00138888888888889})", COSINE),
    ("=SERIESSUM(2,1,1,{1,2,3})", 34.0),
    ("=SERIESSUM(2,1,1,A1:A3)", 26.0),  # the empty A2 a coefficient 0: 1*2 + 3*2^3
    ("=SERIESSUM(2,0.5,1.5,{1,2})", 2 ** 0.5 + 2 * 2 ** 2),
    ("=SERIESSUM(\"2\",1,1,{1})", 2.0),
    ("=SERIESSUM(0,0,1,{5,2})", "#NUM!"),  # 0 to the power 0, as Excel's saved SERIESSUM(0,0,2,{1,2,3})
    ("=SERIESSUM(0,1,1,{5,2})", 0.0),
    ("=SERIESSUM(2,1,1,B1:B3)", "#VALUE!"),  # a text coefficient is nonnumeric
    ("=SERIESSUM(2,1,1,{1,TRUE})", "#VALUE!"),
    ("=SERIESSUM(\"two\",1,1,{1})", "#VALUE!"),
    ("=SERIESSUM(2,1,1,C1:C2)", "#N/A"),
    ("=SERIESSUM(0,-1,1,{1,2})", "#DIV/0!"),  # 0 to a negative power, as Excel's ^
    ("=SERIESSUM(-2,0.5,1,{1})", "#NUM!"),  # a negative number to a fractional power
    ("=_xlfn.ECMA.CEILING(4.3,2)", 6.0), ("=_xlfn.ECMA.CEILING(-4.3,-2)", -6.0),
    ("=_xlfn.ECMA.CEILING(6,2)", 6.0), ("=_xlfn.ECMA.CEILING(4.42,0.05)", 4.45),
    ("=_xlfn.ECMA.CEILING(-4.3,2)", "#NUM!"),  # CEILING gives -4 here since Excel 2010
    ("=_xlfn.ECMA.CEILING(4.3,-2)", "#NUM!"),
    ("=_xlfn.ECMA.CEILING(0,-2)", 0.0), ("=_xlfn.ECMA.CEILING(4.3,0)", 0.0),
    ("=_xlfn.ECMA.CEILING(\"x\",1)", "#VALUE!"),
    ("=_xlfn.POISSON.DIST(2.7,3,FALSE)", POISSON_2),  # x truncated to 2
    ("=_xlfn.POISSON.DIST(2,3,FALSE)", POISSON_2),
    ("=_xlfn.POISSON.DIST(2.999,3,TRUE)", POISSON_UP_TO_2),
    ("=POISSON(2.5,3,FALSE)", POISSON_2),
    ("=_xlfn.POISSON.DIST(\"2.5\",3,FALSE)", POISSON_2),
    ("=_xlfn.POISSON.DIST(-1,3,FALSE)", "#NUM!"),
    ("=_xlfn.POISSON.DIST(-0.5,3,TRUE)", "#NUM!"),  # below 0 however near: not truncated to 0
    ("=SUM(_xlfn.POISSON.DIST({2.2,2.8},3,FALSE))", 2 * POISSON_2),
])
def test_value(tmp_path: Path, formula: str, expected: Any) -> None:
    rows: list[list[Any]] = [[1, 1, "=NA()"], [None, "t", 2], [3, 2]]
    sheet = recalculated(tmp_path, rows, {"E1": formula})
    assert_excel_value(sheet.get(1, 5), expected, rel=1e-12)
