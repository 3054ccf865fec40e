"""The FORECAST.ETS family against the values Excel saved in formulas' test.xlsx (a history that is a
season of 4 repeated exactly, its timeline unsorted, one date twice and one missing), and the named
warning where Excel's value is not certain (a season to detect, a history not fitted exactly)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from function_books import assert_excel_value, recalculated

from xlrating.engine.read.grid import NotComputed

# values and timeline as in test.xlsx: prepared, the history is 1,2,3,2,1,2,3,2,1 on the dates 1..9
VALUES, TIMELINE = "{3,3,1,2,3,2,1,3,2,1}", "{3,7,5,6,7,8,1,3,4,9}"
HISTORY = f"{VALUES},{TIMELINE}"


@pytest.mark.parametrize(("formula", "expected"), [
    (f"FORECAST.ETS(10,{HISTORY},4)", 2.0),
    (f"FORECAST.ETS(100,{HISTORY},4,1)", 2.0),
    (f'FORECAST.ETS("29/02/1900",{HISTORY},4,1)', 2.0),  # the date 60
    (f"FORECAST.ETS(TRUE,{HISTORY},4,1)", 1.0),
    (f"FORECAST.ETS(0.1,{HISTORY},4,1,4)", 0.09999999999999964),  # inside the step before the start
    (f"FORECAST.ETS(0.7,{HISTORY},4,1)", 0.6999999999999993),
    (f"FORECAST.ETS(0,{HISTORY},4,1)", "#NUM!"),
    (f"FORECAST.ETS(-1,{HISTORY},4,1)", "#NUM!"),
    (f"FORECAST.ETS(10,{VALUES},{{3,7,5}},4)", "#N/A"),
    (f"FORECAST.ETS(10,{HISTORY},-1)", "#NUM!"),
    (f"FORECAST.ETS(10,{HISTORY},4,2)", "#NUM!"),
    (f"FORECAST.ETS(10,{HISTORY},4,1,8)", "#NUM!"),
    (f"FORECAST.ETS(1/0,{HISTORY},4,1)", "#DIV/0!"),
    (f"FORECAST.ETS.CONFINT(50,{HISTORY},0.1,4,1,)", 0.0),
    (f"FORECAST.ETS.CONFINT(50,{HISTORY},0.7,4,1,)", 0.0),
    (f"FORECAST.ETS.CONFINT(50,{HISTORY},10,4,1,)", "#NUM!"),
    (f"FORECAST.ETS.CONFINT(50,{HISTORY},TRUE,4,1,)", "#NUM!"),
    (f"FORECAST.ETS.CONFINT(50,{HISTORY},-1,4,1,)", "#NUM!"),
    (f"FORECAST.ETS.SEASONALITY({HISTORY},2)", "#NUM!"),
    (f"FORECAST.ETS.SEASONALITY({HISTORY},-1)", "#NUM!"),
    (f'FORECAST.ETS.SEASONALITY({HISTORY},"29/02/1900")', "#NUM!"),
    (f"FORECAST.ETS.STAT({HISTORY},4,4,1,)", 0.0),  # MASE
    (f"FORECAST.ETS.STAT({HISTORY},5,4,1,)", 0.0),  # SMAPE
    (f"FORECAST.ETS.STAT({HISTORY},6,4,1,)", 0.0),  # MAE
    (f"FORECAST.ETS.STAT({HISTORY},7,4,1,)", 0.0),  # RMSE
    (f"FORECAST.ETS.STAT({HISTORY},8,4,1,)", 1.0),  # the step
    (f"FORECAST.ETS.STAT({HISTORY},0,4,1,)", "#NUM!"),
    (f"FORECAST.ETS.STAT({HISTORY},9,4,1,)", "#NUM!"),
    (f"FORECAST.ETS.STAT({HISTORY},FALSE,4,1,)", "#NUM!"),
])
def test_forecast_ets_as_excel_saved_it(tmp_path: Path, formula: str, expected: Any) -> None:
    sheet = recalculated(tmp_path, [], {"A1": "=_xlfn." + formula})
    assert_excel_value(sheet.get(1, 1), expected, rel=1e-9)


def test_a_linear_history_without_season_continues_its_line(tmp_path: Path) -> None:
    # 10, 12, 14, ... on the dates 2, 4, 6, ...: a line the model fits exactly, step 2
    rows = [[2 * k, 10 + 2 * k] for k in range(1, 9)]
    sheet = recalculated(tmp_path, rows, {"D1": "=_xlfn.FORECAST.ETS(20,B1:B8,A1:A8,0)",
                                          "D2": "=_xlfn.FORECAST.ETS.STAT(B1:B8,A1:A8,8,0)",
                                          "D3": "=_xlfn.FORECAST.ETS(7,B1:B8,A1:A8,0)"})
    assert_excel_value(sheet.get(1, 4), 30.0)
    assert_excel_value(sheet.get(2, 4), 2.0)
    assert_excel_value(sheet.get(3, 4), 17.0)  # halfway between the dates 6 and 8


@pytest.mark.parametrize("formula", [
    f"FORECAST.ETS(10,{HISTORY})",  # the season to be detected
    f"FORECAST.ETS.SEASONALITY({HISTORY})",
    f"FORECAST.ETS.STAT({HISTORY},1,4)",  # alpha
    "FORECAST.ETS(10,{5,1,4,2,8,3,9,6,7},{1,2,3,4,5,6,7,8,9},0)",  # no exact fit
    f"FORECAST.ETS(10.5,{HISTORY},4)",  # between two future steps
])
def test_what_excel_computes_in_an_unpublished_way_is_a_named_warning(tmp_path: Path, formula: str) -> None:
    sheet = recalculated(tmp_path, [], {"A1": "=_xlfn." + formula})
    got = sheet.get(1, 1)
    assert isinstance(got, NotComputed) and got.reason.startswith("FORECAST.ETS"), got
