"""Excel's statistical functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

LINEST, TREND, LOGEST and GROWTH fit ``y = m1*x1 + ... + mk*xk + b`` by least squares as
Microsoft's LINEST page describes it:

* known_y's is a single row or a single column; each row (for a row) or column (for a column) of
  known_x's is one variable; omitted known_x's is {1, 2, 3, ...}. Any other shape is #REF!.
* const TRUE or omitted computes b; FALSE forces b = 0.
* collinear x columns (one a linear combination of the others, the constant included) are removed:
  their coefficients and standard errors are 0 and the degrees of freedom count only the columns
  kept — so LINEST of y against a constant x is slope 0, intercept the mean of y.
* the statistics (stats TRUE) are the 5-row array of Microsoft's page: standard errors; r2, sey;
  F, df; ssreg, ssresid; #N/A elsewhere.

TREND's new_x's must have one row (or column) per variable like known_x's (#REF! otherwise); with
a single variable any shape is taken value by value.

``formulas`` solves with a minimum-norm least-squares solution (LINEST of y against a constant x
gives slope and intercept mean/2 each), reads an omitted const as FALSE, and answers shape errors
with #VALUE!.

STDEV, VAR, MEDIAN, MODE, LARGE, SMALL and the other functions of a list of numbers take the
numbers Excel counts (:mod:`.number_lists`; the rules at ``_OF_NUMBERS`` below).

COUNTIF, COUNTIFS, AVERAGEIF, AVERAGEIFS, MAXIFS and MINIFS follow Excel's criteria (:mod:`.criteria`);
``formulas``' missed "<>x" on empty cells and errors, matched "*a" anywhere in a text, and its MAXIFS
and MINIFS answered #VALUE!.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import RangeValueError
from formulas.functions import Array, parse_ranges, wrap_func
from formulas.tokens.operand import Error, XlError

from ..formula.values import Area, is_omitted
from . import criteria
from .arguments import reference_values
from .library import formulas_function
from .number_lists import Rejected, as_reference, count_values, numbers, single, values_a

NA, NUM, REF, VALUE = (Error.errors[e] for e in ("#N/A", "#NUM!", "#REF!", "#VALUE!"))

# A column is collinear with those before it when less than this share of its norm is left once
# projected on them.
COLLINEAR = 1e-12


class _Failure(Exception):
    def __init__(self, error: Any) -> None:
        super().__init__(str(error))
        self.error = error


def _cells(values: Any) -> np.ndarray:
    array = np.asarray(values, dtype=object)
    return array.reshape(1, 1) if array.ndim == 0 else np.atleast_2d(array)


def _matrix(values: Any) -> np.ndarray:
    """A reference, array or single value as a 2-D float array; anything but numbers in it, an error
    value too, is #VALUE! (the workbooks Excel saved answer LINEST, LOGEST, TREND and GROWTH over
    data holding #N/A, #DIV/0! ... with #VALUE!)."""
    array = _cells(values)
    for value in array.ravel():
        if isinstance(value, (bool, np.bool_, str)) or value is None:  # text, logical, empty cell, error
            raise _Failure(VALUE)
    try:
        return array.astype(float)
    except (TypeError, ValueError):
        raise _Failure(VALUE) from None


def _omitted(value: Any) -> bool:
    """An argument left out (``TREND(y,,new_x)``), or an empty cell."""
    return value is sh.EMPTY or is_omitted(value)


def _flag(value: Any, omitted: bool) -> bool:
    """const or stats: a logical value or number; omitted (or an empty cell) is ``omitted``.

    An argument left out (``LINEST(y,x,,TRUE)``) is :data:`.arguments.OMITTED`; a typed 0 or a cell
    holding 0 is FALSE.
    """
    if _omitted(value):
        return omitted
    while isinstance(value, np.ndarray):
        if value.size != 1:
            raise _Failure(VALUE)
        value = value.ravel()[0]
    if value is None or value is sh.EMPTY:
        return omitted
    if isinstance(value, XlError):
        raise _Failure(VALUE)  # as Excel saved LINEST(y, x, #N/A, 0)
    if isinstance(value, str):
        upper = value.strip().upper()
        if upper in ("TRUE", "FALSE"):
            return upper == "TRUE"
        try:
            return float(value) != 0
        except ValueError:
            raise _Failure(VALUE) from None
    return bool(value)


def _observations(known_y: Any, known_x: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """y as a vector, x as an (observations x variables) matrix, and whether y is a row.

    Shapes are checked before values: mismatched ranges are #REF! whatever they hold (as Excel saved
    LINEST(B2:B14,A2:A13^{1,2}))."""
    y_cells = _cells(known_y)
    if y_cells.shape[0] != 1 and y_cells.shape[1] != 1:
        raise _Failure(REF)
    by_row = y_cells.shape[0] == 1 and y_cells.shape[1] > 1
    omitted_x = _omitted(known_x)
    if not omitted_x:
        x_cells = _cells(known_x)
        if (x_cells.shape[1] if by_row else x_cells.shape[0]) != y_cells.size:
            raise _Failure(REF)
    y = _matrix(y_cells).ravel()
    if omitted_x:
        return y, np.arange(1, y.size + 1, dtype=float).reshape(-1, 1), by_row
    x = _matrix(x_cells)
    return y, (x.T if by_row else x), by_row


def _kept_columns(design: np.ndarray) -> list[int]:
    """The columns of ``design``, left to right, that are not linear combinations of those kept before."""
    kept: list[int] = []
    basis: list[np.ndarray] = []
    for j in range(design.shape[1]):
        column = design[:, j]
        norm = np.linalg.norm(column)
        residual = column.copy()
        for q in basis:
            residual -= (q @ residual) * q
        left = np.linalg.norm(residual)
        if norm > 0 and left > COLLINEAR * norm * max(1, design.shape[0]):
            kept.append(j)
            basis.append(residual / left)
    return kept


def _fit(y: np.ndarray, x: np.ndarray, const: bool, stats: bool) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients (intercept first, then one per variable) and LINEST's result array."""
    n, k = x.shape
    design = np.column_stack([np.ones(n), x]) if const else x
    kept = _kept_columns(design)
    coefficients = np.zeros(design.shape[1])
    if kept:
        coefficients[kept] = np.linalg.lstsq(design[:, kept], y, rcond=None)[0]
    coefficients = coefficients if const else np.concatenate([[0.0], coefficients])
    result = np.empty((5 if stats else 1, k + 1), dtype=object)
    result.fill(NA)  # np.full would turn the error, a str subclass, into plain text
    result[0, :] = [float(v) for v in coefficients[::-1]]  # m_k ... m_1, b
    if stats:
        _statistics(y, design, kept, coefficients[0 if const else 1:], const, result)
    return coefficients, result


def _ratio(numerator: float, denominator: float) -> Any:
    return NUM if denominator == 0 else float(numerator / denominator)


def _statistics(y: np.ndarray, design: np.ndarray, kept: list[int], coefficients: np.ndarray, const: bool,
                result: np.ndarray) -> None:
    n = y.size
    fitted = design @ coefficients
    ssresid = float(np.sum((y - fitted) ** 2))
    sstotal = float(np.sum((y - y.mean()) ** 2)) if const else float(np.sum(y ** 2))
    ssreg = sstotal - ssresid
    df = n - len(kept)
    variables = len(kept) - (1 if const and 0 in kept else 0)
    errors = np.zeros(design.shape[1])
    if df > 0 and kept:
        sigma2 = ssresid / df
        covariance = np.linalg.pinv(design[:, kept].T @ design[:, kept])
        errors[kept] = np.sqrt(np.maximum(0.0, np.diag(covariance) * sigma2))
    standard = [float(e) for e in errors[::-1]]  # se_k ... se_1, then se_b when const
    result[1, :len(standard)] = standard  # without const, se_b stays #N/A
    result[2, 0] = _ratio(ssreg, sstotal)
    result[2, 1] = NUM if df <= 0 else float(np.sqrt(ssresid / df))
    result[3, 0] = NUM if df <= 0 or variables == 0 else _ratio(ssreg / variables, ssresid / df)
    result[3, 1] = df
    result[4, 0], result[4, 1] = ssreg, ssresid


def _linest(known_y: Any, known_x: Any = None, const: Any = sh.EMPTY, stats: Any = sh.EMPTY,
            logarithmic: bool = False) -> Any:
    try:
        y, x, _ = _observations(known_y, known_x)
        const_, stats_ = _flag(const, True), _flag(stats, False)
        if logarithmic:
            if np.any(y <= 0):
                return NUM
            y = np.log(y)
        result = _fit(y, x, const_, stats_)[1]
    except _Failure as failure:
        return failure.error
    if logarithmic:
        result[0, :] = [float(v) for v in np.exp(result[0, :].astype(float))]
    return result.view(Array)


def linest(known_y: Any, known_x: Any = None, const: Any = sh.EMPTY, stats: Any = sh.EMPTY) -> Any:
    """LINEST(known_y's, [known_x's], [const], [stats]): the coefficients m_k ... m_1, b (and statistics)."""
    return _linest(known_y, known_x, const, stats)


def logest(known_y: Any, known_x: Any = None, const: Any = sh.EMPTY, stats: Any = sh.EMPTY) -> Any:
    """LOGEST: LINEST of ln(y), the coefficients as e**m and e**b (y <= 0 is #NUM!)."""
    return _linest(known_y, known_x, const, stats, logarithmic=True)


def _trend(known_y: Any, known_x: Any = None, new_x: Any = None, const: Any = sh.EMPTY,
           exponential: bool = False) -> Any:
    try:
        y, x, by_row = _observations(known_y, known_x)
        const_ = _flag(const, True)
        if exponential:
            if np.any(y <= 0):
                return NUM
            y = np.log(y)
        if _omitted(new_x):
            new = x.T if by_row else x
        else:
            new = _matrix(new_x)
        coefficients = _fit(y, x, const_, False)[0]
    except _Failure as failure:
        return failure.error
    k = x.shape[1]
    if k == 1:  # one variable: each new x value on its own, in new_x's shape
        fitted = coefficients[0] + coefficients[1] * new
    elif by_row:
        if new.shape[0] != k:
            return REF
        fitted = (coefficients[0] + coefficients[1:] @ new).reshape(1, -1)
    else:
        if new.shape[1] != k:
            return REF
        fitted = (coefficients[0] + new @ coefficients[1:]).reshape(-1, 1)
    if exponential:
        fitted = np.exp(fitted)
    return np.vectorize(float, otypes=[object])(fitted).view(Array)


def trend(known_y: Any, known_x: Any = None, new_x: Any = None, const: Any = sh.EMPTY) -> Any:
    """TREND(known_y's, [known_x's], [new_x's], [const]): the fitted line's values at new_x's."""
    return _trend(known_y, known_x, new_x, const)


def growth(known_y: Any, known_x: Any = None, new_x: Any = None, const: Any = sh.EMPTY) -> Any:
    """GROWTH: TREND's values of the exponential curve LOGEST fits (y <= 0 is #NUM!)."""
    return _trend(known_y, known_x, new_x, const, exponential=True)


def _asked(argument: Any, value: Any) -> tuple[int, ...]:
    """The (rows, columns) a range argument asks for: a whole column is 1,048,576 rows though the
    engine reads it only as far as the sheet is used (:class:`~..fallback.Area`); else its shape."""
    if isinstance(argument, Area) and len(argument.ranges) == 1:
        return tuple(argument.size)
    return tuple(criteria.grid(value).shape)


def _whole_ranges(count: Any, ranges: slice) -> Any:
    """COUNTIF or COUNTIFS given its ranges as references: Excel counts every cell of a whole column
    or row (COUNTIF(G:G,"<>x") is 1048575 when one cell holds x, as the workbooks Excel saved show),
    so the cells past the part read are counted as empty cells (``beyond``). Ranges asking for
    different sizes, or a range of several areas (a union ``(A1,B1)``), are #VALUE!, as in Excel."""
    def counted(*arguments: Any) -> Any:
        if any(len(getattr(a, "ranges", ())) > 1 for a in arguments[ranges]):
            return VALUE
        try:
            values, _ = parse_ranges(*arguments)
        except RangeValueError:
            return sh.bypass(sh.NONE)
        asked = [_asked(a, v) for a, v in zip(arguments[ranges], values[ranges])]
        if any(size != asked[0] for size in asked):
            return VALUE
        beyond = math.prod(asked[0]) - criteria.grid(values[ranges][0]).size if asked else 0
        return count(*values, beyond=beyond)

    counted.__name__ = count.__name__
    return wrap_func(counted, ranges=True)


# The functions of a list of numbers (:mod:`.number_lists`): ``formulas`` computes them from exactly
# the numbers Excel counts. It read text and TRUE/FALSE in references (STDEV(A1:A7) over 1, "2",
# TRUE, 4 was #VALUE!, MEDIAN too; MODE(B1,B1,1) with B1 holding "2" was 0). MODE, MODE.SNGL and
# MODE.MULT leave typed text that is no number out and answer an argument left out with #VALUE!
# (formulas' test.xlsx, saved by Excel: MODE.MULT(H69:J69,D69:I69,E69:G69,F69:H69,) is #VALUE!).
# LARGE and SMALL read a single typed value as the others do: SMALL(TRUE,1) is 1, SMALL("3.4",1)
# 3.4, SMALL("Hello",1) #VALUE! (IronCalc's SMALL_LARGE book); formulas' answer was #NUM!.
_OF_NUMBERS = ("AVEDEV", "DEVSQ", "GEOMEAN", "HARMEAN", "KURT", "MEDIAN", "SKEW", "SKEW.P", "STDEV", "STDEV.S",
               "STDEV.P", "STDEVP", "VAR", "VAR.S", "VAR.P", "VARP")
_MODES = ("MODE.SNGL", "MODE.MULT")
# their first argument read the same way; PERCENTILE and QUARTILE over a reference holding text were #VALUE!
_RANKED = ("LARGE", "SMALL", "PERCENTILE", "PERCENTILE.INC", "PERCENTILE.EXC", "QUARTILE", "QUARTILE.INC",
           "QUARTILE.EXC", "TRIMMEAN")


def _of_numbers(name: str, typed_text: str = "error", omitted: Any = None) -> Any:
    def of_numbers(*args: Any) -> Any:
        try:
            values = numbers(args, typed_text, omitted)
        except Rejected as rejected:
            return rejected.error
        return _vertical(formulas_function(name)(as_reference(values)))

    of_numbers.__name__ = name.lower()
    return wrap_func(of_numbers)


def _single_numbers(args: tuple[Any, ...]) -> XlError | None:
    """MODE's (the legacy one's) stricter reading, from the values Excel saved in POI's
    FormulaEvalTestData (Excel 2013): a value given directly or a reference to one cell must be a
    number; typed text, even "1", and a one-cell reference to an empty cell or text are #VALUE!
    (MODE(B8,"1",2,3), MODE(B9,2,D7) with D7 empty), while a range leaves them out
    (MODE(C16:E16,-1.1) is -1.1). The first error, in argument order, is the result. MODE.SNGL and
    MODE.MULT leave them out (formulas' test.xlsx: MODE.SNGL(I71,G71) over text is #N/A)."""
    for argument in args:
        if isinstance(argument, np.ndarray) and argument.size != 1:
            errors = [v for v in argument.ravel().tolist() if isinstance(v, XlError)]
            if errors:
                return errors[0]
            continue
        value = argument.ravel()[0] if isinstance(argument, np.ndarray) else argument
        if isinstance(value, XlError):
            return value
        if is_omitted(value) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or isinstance(value, (bool, np.bool_)):
            return VALUE
    return None


def _legacy_mode(*args: Any) -> Any:
    error = _single_numbers(args)
    if error is not None:
        return error
    try:
        values = numbers(args, "skip", VALUE)
    except Rejected as rejected:
        return rejected.error
    return formulas_function("MODE")(as_reference(values))


def _vertical(result: Any) -> Any:
    """A list of values (``formulas``' MODE.MULT answers its modes so) as the vertical array Excel's
    MODE.MULT returns: it spills down an array formula's range, and SUM, INDEX and ROWS read it as
    one (a Python list was stored as its text in the cell, and read by them as one value)."""
    if isinstance(result, list):
        column = np.empty((len(result), 1), dtype=object)
        column[:, 0] = result
        return column.view(Array)
    return result


def _ranked(name: str) -> Any:
    """LARGE, SMALL, PERCENTILE, QUARTILE or TRIMMEAN(array, k) with the numbers of ``array`` as
    Excel counts them; an error ``k`` comes before one in ``array`` (formulas' test.xlsx:
    LARGE($C57:$K57,L57) over #VALUE! is L57's #N/A)."""
    def ranked(array: Any, k: Any) -> Any:
        try:
            array, k = reference_values(array), reference_values(k)  # LARGE((A1:A3,C1:C3),2): both areas
        except RangeValueError:  # while formulas compiles: a reference not read yet
            return sh.NONE
        try:
            values = numbers((array,))
        except Rejected as rejected:
            k_value = np.asarray(k, dtype=object).ravel()[0] if np.size(k) == 1 else None
            return k_value if isinstance(k_value, XlError) else rejected.error
        return formulas_function(name)(as_reference(values), k)

    ranked.__name__ = name.lower()
    return wrap_func(ranked, ranges=True)


def counta(*args: Any) -> Any:
    return single(count_values(args))


def averagea(*args: Any) -> Any:
    try:
        values = values_a(args)
    except Rejected as rejected:
        return rejected.error
    return single(math.fsum(values) / len(values) if values else Error.errors["#DIV/0!"])


def _truncated(value: Any) -> Any:
    """A number (or text reading as one) not below 0 truncated to a whole number; anything else as
    it is: a negative x is #NUM! however near 0 (Excel's POISSON.DIST(-1E-06,5,TRUE) is #NUM!, not
    the value of 0 its truncation would give; IronCalc's POISSON book, saved by Excel)."""
    if isinstance(value, (bool, np.bool_, XlError)) or value is sh.EMPTY:
        return value
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return value
    if isinstance(value, (int, float, np.integer, np.floating)) and math.isfinite(value) and value >= 0:
        return float(math.trunc(value))
    return value


def poisson_dist(x: Any, mean: Any, cumulative: Any) -> Any:
    """POISSON.DIST (and POISSON) of x truncated, as Excel takes it (Microsoft, "POISSON.DIST
    function": "If x is not an integer, it is truncated"); formulas' gave 0 for a fractional x."""
    if isinstance(x, np.ndarray):
        x = np.vectorize(_truncated, otypes=[object])(x).view(Array)
    else:
        x = _truncated(x)
    return formulas_function("POISSON.DIST")(x, mean, cumulative)


FUNCTIONS: dict[str, Any] = {
    **{name: _of_numbers(name) for name in _OF_NUMBERS},
    "COUNTA": wrap_func(counta),
    "AVERAGEA": wrap_func(averagea),
    **{name: _of_numbers(name, "skip", VALUE) for name in _MODES},
    "MODE": wrap_func(_legacy_mode),
    **{name: _ranked(name) for name in _RANKED},
    "LINEST": wrap_func(linest),
    "LOGEST": wrap_func(logest),
    "TREND": wrap_func(trend),
    "GROWTH": wrap_func(growth),
    "COUNTIF": _whole_ranges(criteria.countif, slice(0, 1)),
    "COUNTIFS": _whole_ranges(criteria.countifs, slice(0, None, 2)),
    "AVERAGEIF": wrap_func(criteria.averageif),
    "AVERAGEIFS": wrap_func(criteria.averageifs),
    "MAXIFS": wrap_func(criteria.maxifs),
    "MINIFS": wrap_func(criteria.minifs),
    "POISSON.DIST": wrap_func(poisson_dist),
    "POISSON": wrap_func(poisson_dist),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "AVEDEV": {},
    "AVERAGEA": {"one_value": True},
    "AVERAGEIF": {"one_value": True, "arrays": True},
    "AVERAGEIFS": {"one_value": True, "arrays": True},
    "COUNTA": {"one_value": True},
    "COUNTIF": {"one_value": True, "arrays": True, "memoised": True},
    "COUNTIFS": {"one_value": True, "arrays": True, "memoised": True},
    "DEVSQ": {},
    "GEOMEAN": {},
    "GROWTH": {"spills": True, "arrays": True},
    "HARMEAN": {},
    "KURT": {},
    "LARGE": {"one_value": True, "arrays": True},
    "LINEST": {"spills": True, "arrays": True},
    "LOGEST": {"spills": True, "arrays": True},
    "MAXIFS": {"arrays": True},
    "MEDIAN": {"one_value": True},
    "MINIFS": {"arrays": True},
    "MODE": {"one_value": True},
    "MODE.MULT": {"spills": True},
    "MODE.SNGL": {},
    "PERCENTILE": {"one_value": True, "arrays": True},
    "PERCENTILE.EXC": {"arrays": True},
    "PERCENTILE.INC": {"arrays": True},
    "POISSON": {"scalars": "all"},
    "POISSON.DIST": {"scalars": "all"},
    "QUARTILE": {"one_value": True, "arrays": True},
    "QUARTILE.EXC": {"arrays": True},
    "QUARTILE.INC": {"arrays": True},
    "SKEW": {},
    "SKEW.P": {},
    "SMALL": {"one_value": True, "arrays": True},
    "STDEV": {"one_value": True},
    "STDEV.P": {"one_value": True},
    "STDEV.S": {"one_value": True},
    "STDEVP": {},
    "TREND": {"spills": True, "arrays": True},
    "TRIMMEAN": {"arrays": True},
    "VAR": {"one_value": True},
    "VAR.P": {"one_value": True},
    "VAR.S": {"one_value": True},
    "VARP": {},
}
