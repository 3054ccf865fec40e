"""The FORECAST.ETS family (FORECAST.ETS, .CONFINT, .SEASONALITY, .STAT), computed where Excel's value
is certain and otherwise left not computed, with a warning naming the cell.

Excel forecasts with the additive (AAA) version of exponential triple smoothing, its smoothing
constants alpha, beta and gamma fitted to the history by a procedure Microsoft does not publish
(nor how it detects the length of a season). So the engine computes:

- every error Excel gives for the arguments (Microsoft's pages for the four functions, and the
  values Excel saved in formulas' test.xlsx): values and timeline of different sizes #N/A; an
  error argument that error; seasonality below 0 or above 8760, data_completion other than 0 or
  1, aggregation outside 1-7, confidence_level outside [0, 1), statistic_type outside 1-8, a
  timeline without a constant step: #NUM!; a target more than one step before the timeline's
  start: #NUM!;
- the timeline as Excel prepares it: points sorted by date, the values of one date aggregated
  (1 AVERAGE, 2 COUNT, 3 COUNTA, 4 MAX, 5 MEDIAN, 6 MIN, 7 SUM), the step the smallest distance
  between dates, one missing point completed as the mean of its neighbours (data_completion 1)
  or as 0 (0); FORECAST.ETS.STAT's step size (8);
- the history that the model fits exactly: a line plus a repeating season of the given length
  (every value minus the one a season before it the same), where the one-step errors are 0 for any
  smoothing constants and the forecast is the pattern continued. There FORECAST.ETS is the pattern
  (for a target inside the history, Excel's interpolation: the value of the step at or before the
  target plus the fraction of a step times the rise to the next; so one step before the start is
  already outside), FORECAST.ETS.CONFINT 0, and the error statistics (MASE, SMAPE, MAE, RMSE) 0.

Everything else (a season to detect, alpha, beta and gamma, a history the model does not fit
exactly, a target between two future steps, longer gaps) is not computed, never approximated.
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted, not_computed
from .arguments import number

_NUM, _NA, _VALUE = Error.errors["#NUM!"], Error.errors["#N/A"], Error.errors["#VALUE!"]
_MAX_SEASON = 8760
_AUTO_SEASON = 1
_STEP_STATISTIC = 8
_ERROR_STATISTICS = frozenset({4, 5, 6, 7})  # MASE, SMAPE, MAE, RMSE
_EXACT = 1e-12  # relative: a history fitted within this is fitted exactly

_AGGREGATIONS: dict[int, Callable[[list[float]], float]] = {
    1: statistics.fmean, 2: lambda v: float(len(v)), 3: lambda v: float(len(v)), 4: max,
    5: statistics.median, 6: min, 7: math.fsum,
}


class _Answer(Exception):
    """The cell's value is decided (an error) before the model is needed."""

    def __init__(self, value: Any):
        self.value = value


def _cells(value: Any) -> list[Any]:
    return np.asarray(value, dtype=object).ravel().tolist()


def _scalar_argument(value: Any, default: float | None = None) -> float:
    """An optional number argument: left out -> ``default``; an error -> that error; TRUE/FALSE 1/0,
    an empty cell 0, text read as a number or a date; other text #VALUE!."""
    if default is not None and is_omitted(value):
        return default
    cells = _cells(value)
    if len(cells) != 1:
        raise _Answer(_VALUE)
    cell = cells[0]
    if isinstance(cell, XlError):
        raise _Answer(cell)
    read = number(cell)
    if read is None:
        raise _Answer(_VALUE)
    return read


class _History:
    """The values on a timeline as the ETS functions prepare them (sorted, aggregated, completed)."""

    def __init__(self, values: Any, timeline: Any, completion: float, aggregation: float, name: str):
        self.name = name
        if completion not in (0.0, 1.0) or not 1 <= aggregation < 8:
            raise _Answer(_NUM)
        value_cells, date_cells = _cells(values), _cells(timeline)
        for cell in (*value_cells, *date_cells):
            if isinstance(cell, XlError):
                raise _Answer(cell)
        if len(value_cells) != len(date_cells):
            raise _Answer(_NA)
        pairs = []
        for value, date in zip(value_cells, date_cells):
            if not _is_number(value) or not _is_number(date):
                raise not_computed(f"{name}: a value or date that is not a number (empty cells, text) in "
                                   "the history is read by Excel in ways the engine does not know")
            pairs.append((float(date), float(value)))
        if len(pairs) < 3:
            raise not_computed(f"{name}: a history of fewer than 3 points")
        by_date: dict[float, list[float]] = {}
        for date, value in sorted(pairs):
            by_date.setdefault(date, []).append(value)
        aggregate = _AGGREGATIONS[int(aggregation)]
        dates = sorted(by_date)
        if len(dates) < 2:
            raise _Answer(_NUM)
        self.step = min(b - a for a, b in itertools.pairwise(dates))
        self.start = dates[0]
        self.values: list[float] = []
        for date in dates:
            offset = (date - self.start) / self.step
            index = round(offset)
            if abs(offset - index) > 1e-9 * max(1.0, abs(offset)):
                raise _Answer(_NUM)  # no constant step
            gap = index - len(self.values)
            if gap > 1:
                raise not_computed(f"{name}: more than one point missing in a row on the timeline")
            if gap == 1:
                previous = self.values[-1]
                self.values.append((previous + aggregate(by_date[date])) / 2 if completion else 0.0)
            self.values.append(float(aggregate(by_date[date])))

    def exact_pattern(self, season: int) -> tuple[float, list[float]] | None:
        """(trend per step, the season's offsets) when the history is a line plus a repeating season
        of ``season`` points exactly (0: no season, a line); None otherwise."""
        values = self.values
        lag = max(1, season)
        if len(values) < 2 * lag + 1:
            return None
        differences = [b - a for a, b in zip(values, values[lag:])]
        scale = max(1.0, max(abs(v) for v in values))
        if max(differences) - min(differences) > _EXACT * scale:
            return None
        trend = math.fsum(differences) / len(differences) / lag
        return trend, [values[k] - trend * k for k in range(lag)]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)) \
        and math.isfinite(float(value))


def _season(seasonality: float, name: str, needed: bool = True) -> int:
    """The season's length asked for (0: none); 1 (the default, detect it) is not computed when
    ``needed``."""
    if seasonality < 0 or seasonality > _MAX_SEASON:
        raise _Answer(_NUM)
    season = int(seasonality)
    if season == _AUTO_SEASON and needed:
        raise not_computed(f"{name}: the season's length is detected by Excel in a way Microsoft does not "
                           "publish (give seasonality explicitly)")
    return season


def _fitted(history: _History, season: int, name: str) -> tuple[float, list[float]]:
    pattern = history.exact_pattern(season)
    if pattern is None:
        raise not_computed(f"{name}: the history is not fitted exactly, and Excel's fitting of the "
                           "smoothing constants is not published")
    return pattern


def _forecast_at(history: _History, target: float, season: int, name: str) -> float:
    position = (target - history.start) / history.step
    whole = math.trunc(position)
    fraction = position - whole
    if whole < 0:
        raise _Answer(_NUM)
    trend, offsets = _fitted(history, season, name)
    lag = len(offsets)

    def pattern(index: int) -> float:
        return offsets[index % lag] + trend * index

    last = len(history.values) - 1
    if whole < last or (whole == last and fraction == 0):
        value = history.values[whole]
        return value + fraction * (pattern(whole + 1) - value) if fraction else value
    if fraction:
        raise not_computed(f"{name}: a target between two future steps of the timeline")
    return pattern(whole)


def _each_target(target: Any, compute: Callable[[Any], Any]) -> Any:
    """``compute`` for each entry of ``target`` (an array or range of targets gives an array)."""
    cells = np.asarray(target, dtype=object)
    if cells.size == 1:
        return _answer(lambda: compute(cells.ravel()[0]))
    out = np.empty(cells.shape, dtype=object)
    for index, cell in np.ndenumerate(cells):
        out[index] = _answer(functools.partial(compute, cell))
    return out.view(Array)


def _answer(compute: Callable[[], Any]) -> Any:
    try:
        return compute()
    except _Answer as answer:
        return answer.value


def forecast_ets(target_date: Any, values: Any, timeline: Any, seasonality: Any = None,
                 data_completion: Any = None, aggregation: Any = None) -> Any:
    """FORECAST.ETS(target_date, values, timeline, [seasonality], [data_completion], [aggregation])."""
    name = "FORECAST.ETS"

    def one(target_cell: Any) -> Any:
        target = _scalar_argument(target_cell)
        season = _season(_scalar_argument(seasonality, _AUTO_SEASON), name)
        history = _History(values, timeline, _scalar_argument(data_completion, 1.0),
                           _scalar_argument(aggregation, 1.0), name)
        return _forecast_at(history, target, season, name)

    return _each_target(target_date, one)


def forecast_ets_confint(target_date: Any, values: Any, timeline: Any, confidence_level: Any = None,
                         seasonality: Any = None, data_completion: Any = None, aggregation: Any = None) -> Any:
    """FORECAST.ETS.CONFINT(target_date, values, timeline, [confidence_level], [seasonality],
    [data_completion], [aggregation]): 0 where the history is fitted exactly."""
    name = "FORECAST.ETS.CONFINT"

    def one(level_cell: Any) -> Any:
        target = _scalar_argument(target_date)
        level = _scalar_argument(level_cell, 0.95)
        if not 0 <= level < 1:
            raise _Answer(_NUM)
        season = _season(_scalar_argument(seasonality, _AUTO_SEASON), name)
        history = _History(values, timeline, _scalar_argument(data_completion, 1.0),
                           _scalar_argument(aggregation, 1.0), name)
        _forecast_at(history, target, season, name)  # the target's own errors
        _fitted(history, season, name)
        return 0.0

    if confidence_level is None or is_omitted(confidence_level):
        return _answer(lambda: one(None))
    return _each_target(confidence_level, one)


def forecast_ets_seasonality(values: Any, timeline: Any, data_completion: Any = None, aggregation: Any = None) -> Any:
    """FORECAST.ETS.SEASONALITY(values, timeline, [data_completion], [aggregation]): the arguments'
    errors; the season Excel detects is not published, so a valid call is not computed."""
    name = "FORECAST.ETS.SEASONALITY"

    def one(completion_cell: Any) -> Any:
        completion = _scalar_argument(completion_cell, 1.0)
        _History(values, timeline, completion, _scalar_argument(aggregation, 1.0), name)
        raise not_computed(f"{name}: the season's length is detected by Excel in a way Microsoft does not publish")

    if data_completion is None or is_omitted(data_completion):
        return _answer(lambda: one(None))
    return _each_target(data_completion, one)


def forecast_ets_stat(values: Any, timeline: Any, statistic_type: Any, seasonality: Any = None,
                      data_completion: Any = None, aggregation: Any = None) -> Any:
    """FORECAST.ETS.STAT(values, timeline, statistic_type, [seasonality], [data_completion],
    [aggregation]): the step size (8) of any valid history; MASE, SMAPE, MAE and RMSE (4-7) 0 where
    the history is fitted exactly; alpha, beta and gamma (1-3) not computed."""
    name = "FORECAST.ETS.STAT"

    def one(type_cell: Any) -> Any:
        kind = _scalar_argument(type_cell)
        if not 1 <= kind < 9:
            raise _Answer(_NUM)
        kind = int(kind)
        season = _season(_scalar_argument(seasonality, _AUTO_SEASON), name, needed=kind in _ERROR_STATISTICS)
        history = _History(values, timeline, _scalar_argument(data_completion, 1.0),
                           _scalar_argument(aggregation, 1.0), name)
        if kind == _STEP_STATISTIC:
            return history.step
        if kind in _ERROR_STATISTICS:
            _fitted(history, season, name)
            return 0.0
        raise not_computed(f"{name}: alpha, beta and gamma as Excel fits them are not published")

    return _each_target(statistic_type, one)


FUNCTIONS: dict[str, Any] = {
    "FORECAST.ETS": wrap_func(forecast_ets),
    "FORECAST.ETS.CONFINT": wrap_func(forecast_ets_confint),
    "FORECAST.ETS.SEASONALITY": wrap_func(forecast_ets_seasonality),
    "FORECAST.ETS.STAT": wrap_func(forecast_ets_stat),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "FORECAST.ETS": {},
    "FORECAST.ETS.CONFINT": {},
    "FORECAST.ETS.SEASONALITY": {},
    "FORECAST.ETS.STAT": {},
}
