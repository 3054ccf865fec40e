"""VDB against Microsoft's examples and limits and the values Excel saved in xlcalculator's VDB test
workbook (the switch to straight line, fractional periods), directly and in a workbook."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from formulas.tokens.operand import XlError

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.financial import FUNCTIONS
from xlrating.functions import ExcelError

NUM, VALUE = ExcelError("#NUM!"), ExcelError("#VALUE!")


def _vdb(*args: Any) -> Any:
    """VDB's value for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS["VDB"](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_vdb_microsoft_examples_and_limits() -> None:
    assert _vdb(2400.0, 300.0, 3650.0, 0.0, 1.0) == pytest.approx(1.315068493150685, rel=1e-12)  # $1.32
    assert _vdb(2400.0, 300.0, 120.0, 0.0, 1.0) == pytest.approx(40.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 1.0) == pytest.approx(480.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 120.0, 6.0, 18.0) == pytest.approx(396.306053264751, rel=1e-12)  # $396.31
    assert _vdb(2400.0, 300.0, 120.0, 6.0, 18.0, 1.5) == pytest.approx(311.808936658234, rel=1e-12)  # $311.81
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 0.875, 1.5) == pytest.approx(315.0, rel=1e-12)
    # #NUM! for an end after the life and a negative factor: formulas gave #VALUE!, 1236 and 18
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 11.0) == NUM
    assert _vdb(2400.0, 300.0, 10.0, 2.0, 11.0, 2.0, True) == NUM
    assert _vdb(100.0, 10.0, 5.0, 0.0, 1.0, -1.0) == NUM
    assert _vdb(100.0, 10.0, 5.0, 2.0, 1.0) == NUM
    assert _vdb(-1.0, 0.0, 10.0, 0.0, 1.0) == NUM
    assert _vdb(100.0, 10.0, 0.0, 0.0, 0.0) == NUM
    assert _vdb("cost", 10.0, 5.0, 0.0, 1.0) == VALUE


# Cost 575000, salvage 5000, life 10, factor 1.5, each year: Excel switches to straight line in year 5.
EXCEL_YEARS = [86250, 73312.5, 62315.625, 52968.28125] + [49192.265625] * 6


@pytest.mark.parametrize("no_switch", [None, False])
def test_vdb_switches_to_straight_line_to_the_last_year(no_switch: bool | None) -> None:
    extra = () if no_switch is None else (no_switch,)
    got = [_vdb(575000.0, 5000.0, 10.0, year - 1.0, float(year), 1.5, *extra) for year in range(1, 11)]
    assert got == pytest.approx(EXCEL_YEARS, rel=1e-12)  # formulas: #VALUE! for year 10


def test_vdb_over_the_whole_life_depreciates_down_to_the_salvage() -> None:
    assert _vdb(2400.0, 0.0, 10.0, 0.0, 10.0, 2.0, True) == pytest.approx(2400 * (1 - 0.8 ** 10), rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 10.0, 2.0, True) == pytest.approx(2100.0, rel=1e-12)
    assert _vdb(2400.0, 300.0, 10.0, 0.0, 10.0, 2.0, False) == pytest.approx(2100.0, rel=1e-12)
    assert _vdb(575000.0, 5000.0, 10.0, 9.0, 10.0, 1.5, True) == pytest.approx(575000 * 0.15 * 0.85 ** 9, rel=1e-12)


# Cost 1, salvage 0, life 14, factor 1.25, from each start to one period later: what Excel saved.
EXCEL_FRACTIONAL = {
    (0.0, 0.5): 0.044642857142857144, (0.5, 1.5): 0.08529974489795919, (1.5, 2.5): 0.07768369624635568,
    (2.5, 3.5): 0.07074765193864536, (3.5, 4.5): 0.06872629045468406, (11.5, 12.5): 0.06872629045468406,
    (12.5, 13.5): 0.06872629045468406, (13.5, 14.0): 0.03436314522734203, (11.0, 12.0): 0.06866789938377948,
    (13.0, 14.0): 0.06866789938377948,
}


def test_vdb_periods_start_at_the_fraction_of_a_fractional_start() -> None:
    got = {period: _vdb(1.0, 0.0, 14.0, *period, 1.25, False) for period in EXCEL_FRACTIONAL}
    # formulas: the whole-period schedule pro rata (0.0686679 from 3.5 on), #VALUE! for (13.5, 14)
    assert got == pytest.approx(EXCEL_FRACTIONAL, rel=1e-12)


def test_vdb_over_a_long_life_is_computed_at_once() -> None:
    started = time.perf_counter()
    assert _vdb(1e6, 0.0, 1e6, 0.0, 1e6) == pytest.approx(1e6, rel=1e-12)  # formulas: #VALUE! (recursion)
    assert _vdb(1e6, 0.0, 1e9, 0.0, 1e9) == pytest.approx(1e6, rel=1e-12)
    assert _vdb(1e6, 0.0, 1e9, 0.0, 1.0) == pytest.approx(2e-3, rel=1e-12)
    assert time.perf_counter() - started < 5


def test_vdb_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([575000, 5000, 10, 1, 14, 1.25])
    for year in range(1, 11):
        ws.cell(2, year, f"=VDB($A$1,$B$1,$C$1,{year}-1,{year},1.5)")
    ws["A3"], ws["B3"] = 3.5, "=A3+1"
    ws["C3"] = "=VDB($D$1,0,$E$1,A3,B3,$F$1,FALSE)"
    ws["D3"] = "=VDB($D$1,0,$E$1,13.5,14,$F$1,FALSE)"
    ws["E3"] = "=VDB(2400,300,10,0,11)"
    wb.save(tmp_path / "vdb.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "vdb.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(2, year) for year in range(1, 11)] == pytest.approx(EXCEL_YEARS, rel=1e-12)
    assert sheet.get(3, 3) == pytest.approx(0.06872629045468406, rel=1e-12)
    assert sheet.get(3, 4) == pytest.approx(0.03436314522734203, rel=1e-12)
    assert sheet.get(3, 5) == NUM
