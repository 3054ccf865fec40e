"""Excel built-ins where ``formulas``' own version differs from Excel; they replace it in the
engine's private registry (:class:`..evaluate.registry.FunctionRegistry`), never in ``formulas``'
global one.

- ROUND, ROUNDUP, ROUNDDOWN: Excel rounds the number as shown to 15 digits (:mod:`xlrating.engine.maths.rounding`).
- SUM, AVERAGE, MIN, MAX, COUNT, SUMPRODUCT: in a reference or an array (typed ``{1,TRUE}`` or
  computed, ``A1:A9>2``) argument Excel takes only the numbers; text (even "3") and TRUE/FALSE are
  skipped. Typed
  directly as an argument (``=SUM("3", TRUE)``), text that reads as a number and logical values
  count. (Microsoft's SUM/AVERAGE/COUNT pages; SUMPRODUCT treats every non-number as 0.)
  ``formulas`` converts text numbers inside ranges, so ``SUM(A2:A4)`` over 1, "3", 5 gave 9.
  (SUMIF, SUMIFS, AVERAGEIF & co. take the same numbers: :mod:`.functions.criteria`.)

How ``formulas`` hands arguments over tells them apart: a reference arrives as a plain
``ndarray``, a computed value as its ``Array`` subclass (1x1 for a scalar), a constant as itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array, wrap_func, wrap_ufunc
from formulas.tokens.operand import Error, XlError

from ..maths.rounding import MODES, excel_round
from .arguments import average, text_number


def _rounding(name: str) -> Any:
    mode = MODES[name]

    def rounded(number: float, digits: float) -> float:
        return excel_round(number, digits, mode)

    rounded.__name__ = name.lower()
    return wrap_ufunc(rounded)


class _Failed(Exception):
    def __init__(self, error: XlError):
        self.error = error


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _is_reference(arg: Any) -> bool:
    return type(arg) is np.ndarray


def _array_number(value: Any) -> float | None:
    """An entry of a reference or an array (constant or computed) as the number it adds, or None if
    skipped: TRUE/FALSE and text are no numbers there (SUM({1,TRUE,"2"}) is 1, SUMPRODUCT(A2:A9>0)
    is 0); ``--(A2:A9>0)`` makes them numbers first (:data:`..evaluate.arithmetic.NEGATED_TWICE`)."""
    return float(value) if _is_number(value) else None


_PLAIN_NUMBERS = frozenset((float, int, np.float64, np.int64))


def _typed(value: Any) -> float:
    """A value given directly as an argument, as the number Excel reads it as."""
    if isinstance(value, XlError):
        raise _Failed(value)
    if value is sh.EMPTY or value is None:  # an omitted argument: =SUM(,A1)
        return 0.0
    if isinstance(value, (bool, np.bool_)) or _is_number(value):
        return float(value)
    number = text_number(value) if isinstance(value, str) else None
    if number is None:
        raise _Failed(Error.errors["#VALUE!"])
    return number


def _numbers(args: tuple[Any, ...], skip_errors: bool = False) -> list[float]:
    """The numbers the aggregates take from ``args``, in argument order (so the first error in that
    order is the one raised, as Excel reports it); ``skip_errors``: COUNT's rule, errors and
    unreadable typed text are not counted."""
    found: list[float] = []
    for arg in args:
        if isinstance(arg, np.ndarray) and (_is_reference(arg) or arg.size > 1):
            if arg.dtype.kind in "fiub":  # a computed array of numbers (MMULT's): all of them, or no TRUE/FALSE
                if arg.dtype.kind != "b":
                    found.extend(arg.ravel().astype(float).tolist())
                continue
            entries = arg.ravel().tolist()
            if set(map(type, entries)) <= _PLAIN_NUMBERS:  # numbers only (SEQUENCE's): no entry to look at
                found.extend(map(float, entries))
                continue
            for value in entries:
                number = _array_number(value)
                if number is not None:
                    found.append(number)
                elif isinstance(value, XlError) and not skip_errors:
                    raise _Failed(value)
            continue
        value = arg.ravel()[0] if isinstance(arg, np.ndarray) else arg
        try:
            found.append(_typed(value))
        except _Failed:
            if not skip_errors:
                raise
    return found


def _aggregate(reduce: Callable[[list[float]], Any], skip_errors: bool = False) -> Callable[..., Any]:
    def aggregate(*args: Any) -> Any:
        try:
            return reduce(_numbers(args, skip_errors))
        except _Failed as failed:
            return failed.error
    return aggregate


def _sumproduct(*args: Any) -> Any:
    """Excel's SUMPRODUCT: same-shaped arrays, multiplied entry by entry; any non-number is 0. The
    first error, in argument order, is the result even when the shapes differ (formulas' test.xlsx,
    saved by Excel: SUMPRODUCT(P75:Q75,H75:I75,I75:K75) is P75's #NUM!), then #VALUE! for those.
    When every argument is a single value (one cell), a text among them is #VALUE!, not 0: POI's
    FormulaEvalTestData, saved by Excel, has SUMPRODUCT(G1330:G1330,I1330:I1330) over the text "4"
    and 2 as #VALUE!, where the same text in a longer array counts as 0."""
    arrays = [np.atleast_2d(np.asarray(a, dtype=object)) for a in args]
    for array in arrays:
        for value in array.ravel().tolist():
            if isinstance(value, XlError):
                return value
    if not arrays or any(a.shape != arrays[0].shape for a in arrays):
        return Error.errors["#VALUE!"]
    if arrays[0].size == 1 and any(isinstance(a.ravel()[0], str) for a in arrays):
        return Error.errors["#VALUE!"]  # single values: text is no number to multiply
    total = np.ones(arrays[0].size)
    for array in arrays:
        total *= np.array([_array_number(v) or 0.0 for v in array.ravel().tolist()])
    return float(total.sum())


def _scalar(function: Callable[..., Any]) -> Any:
    def evaluate(*args: Any) -> Any:
        return np.asarray([[function(*args)]], object).view(Array)

    evaluate.__name__ = function.__name__ if hasattr(function, "__name__") else "aggregate"
    return wrap_func(evaluate)


@functools.lru_cache(maxsize=1)
def corrections() -> dict[str, Any]:
    """The corrections defined here (rounding, the aggregates, SUMPRODUCT)."""
    functions = {name: _rounding(name) for name in MODES}
    functions.update({
        "SUM": _scalar(_aggregate(sum)),
        "AVERAGE": _scalar(_aggregate(average)),
        "MIN": _scalar(_aggregate(lambda v: min(v, default=0.0))),
        "MAX": _scalar(_aggregate(lambda v: max(v, default=0.0))),
        "COUNT": _scalar(_aggregate(lambda v: float(len(v)), skip_errors=True)),
        "SUMPRODUCT": _scalar(_sumproduct),
    })
    return functions


# Excel's facts about the functions ``formulas`` computes (corrected here or not) and those computed
# elsewhere in the engine (IF, IFERROR ...), one line each; the category modules declare their own.
# Read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each fact means).
DECLARED: dict[str, dict[str, object]] = {
    "ABS": {"vector": True, "scalars": "all", "numbers": "all"},
    "ACCRINTM": {"toolpak": "all"},
    "ACOS": {"pure": True, "scalars": "all", "numbers": "all"},
    "ACOSH": {"scalars": "all", "numbers": "all"},
    "ACOT": {"scalars": "all", "numbers": "all"},
    "ACOTH": {"scalars": "all", "numbers": "all"},
    "AGGREGATE": {"arrays": True},
    "AMORDEGRC": {"toolpak": "all"},
    "AMORLINC": {"toolpak": "all"},
    "ANCHORARRAY": {"spills": True},
    "ARABIC": {"pure": True, "scalars": "all"},
    "ASIN": {"pure": True, "scalars": "all", "numbers": "all"},
    "ASINH": {"scalars": "all", "numbers": "all"},
    "ATAN": {"pure": True, "scalars": "all", "numbers": "all"},
    "ATANH": {"scalars": "all", "numbers": "all"},
    "AVERAGE": {"one_value": True, "vector": True},
    "BETA.DIST": {"scalars": "all"},
    "BETA.INV": {"scalars": "all"},
    "BETADIST": {"scalars": "all"},
    "BETAINV": {"scalars": "all"},
    "BINOM.DIST": {"scalars": "all"},
    "BINOM.INV": {"scalars": "all"},
    "BINOMDIST": {"scalars": "all"},
    "BYCOL": {"spills": True},
    "BYROW": {"spills": True},
    "CHIDIST": {"scalars": "all"},
    "CHIINV": {"scalars": "all"},
    "CHISQ.DIST": {"scalars": "all"},
    "CHISQ.DIST.RT": {"scalars": "all"},
    "CHISQ.INV": {"scalars": "all"},
    "CHISQ.INV.RT": {"scalars": "all"},
    "CHISQ.TEST": {"arrays": True},
    "CHITEST": {"arrays": True},
    "CHOOSECOLS": {"spills": True},
    "CHOOSEROWS": {"spills": True},
    "CONFIDENCE": {"scalars": "all"},
    "CONFIDENCE.NORM": {"scalars": "all"},
    "CONFIDENCE.T": {"scalars": "all"},
    "CORREL": {"arrays": True},
    "COS": {"pure": True, "scalars": "all", "numbers": "all"},
    "COSH": {"pure": True, "scalars": "all", "numbers": "all"},
    "COT": {"scalars": "all", "numbers": "all"},
    "COTH": {"scalars": "all", "numbers": "all"},
    "COUNT": {"one_value": True, "vector": True},
    "COUNTBLANK": {"one_value": True},
    "COUPDAYBS": {"toolpak": "all"},
    "COUPDAYS": {"toolpak": "all"},
    "COUPDAYSNC": {"toolpak": "all"},
    "COUPNCD": {"toolpak": "all"},
    "COUPNUM": {"toolpak": "all"},
    "COUPPCD": {"toolpak": "all"},
    "COVAR": {"arrays": True},
    "COVARIANCE.P": {"arrays": True},
    "COVARIANCE.S": {"arrays": True},
    "CRITBINOM": {"scalars": "all"},
    "CSC": {"scalars": "all", "numbers": "all"},
    "CSCH": {"scalars": "all", "numbers": "all"},
    "CUMIPMT": {"toolpak": "all"},
    "CUMPRINC": {"toolpak": "all"},
    "DAYS": {"pure": True, "scalars": "all"},
    "DAYS360": {"scalars": "all"},
    "DEGREES": {"pure": True, "scalars": "all", "numbers": "all"},
    "DISC": {"toolpak": "all"},
    "DOLLARDE": {"toolpak": "all"},
    "DOLLARFR": {"toolpak": "all"},
    "DURATION": {"toolpak": "all"},
    "EDATE": {"toolpak": "all", "pure": True},
    "EFFECT": {"toolpak": "all"},
    "EOMONTH": {"toolpak": "all", "pure": True},
    "ERF": {"toolpak": "all"},
    "ERFC": {"toolpak": "all"},
    "EXP": {"pure": True, "scalars": "all", "numbers": "all"},
    "EXPON.DIST": {"scalars": "all"},
    "EXPONDIST": {"scalars": "all"},
    "F.DIST": {"scalars": "all"},
    "F.DIST.RT": {"scalars": "all"},
    "F.INV": {"scalars": "all"},
    "F.INV.RT": {"scalars": "all"},
    "F.TEST": {"arrays": True},
    "FDIST": {"scalars": "all"},
    "FINV": {"scalars": "all"},
    "FISHER": {"scalars": "all", "numbers": "all"},
    "FISHERINV": {"scalars": "all", "numbers": "all"},
    "FIXED": {"pure": True, "scalars": "all", "numbers": (0, 1)},
    "FORECAST": {"arrays": True},
    "FORECAST.LINEAR": {"arrays": True},
    "FREQUENCY": {"spills": True, "arrays": True},
    "FTEST": {"arrays": True},
    "FVSCHEDULE": {"toolpak": (0,)},
    "GAMMA": {"scalars": "all", "numbers": "all"},
    "GAMMA.DIST": {"scalars": "all"},
    "GAMMA.INV": {"scalars": "all"},
    "GAMMADIST": {"scalars": "all"},
    "GAMMAINV": {"scalars": "all"},
    "GAMMALN": {"scalars": "all", "numbers": "all"},
    "GAMMALN.PRECISE": {"scalars": "all", "numbers": "all"},
    "GAUSS": {"scalars": "all", "numbers": "all"},
    "GESTEP": {"toolpak": "all"},
    "HOUR": {"pure": True, "scalars": "all"},
    "HSTACK": {"spills": True},
    "HYPGEOM.DIST": {"scalars": "all"},
    "HYPGEOMDIST": {"scalars": "all"},
    "IFERROR": {"vector": True},
    "INTERCEPT": {"arrays": True},
    "INTRATE": {"toolpak": "all"},
    "ISEVEN": {"toolpak": "all"},
    "ISODD": {"toolpak": "all"},
    "ISOWEEKNUM": {"pure": True, "scalars": "all"},
    "ISPMT": {"scalars": "all"},
    "ISREF": {"one_value": True},
    "LN": {"pure": True, "scalars": "all", "numbers": "all"},
    "LOG": {"pure": True, "scalars": "all", "numbers": "all"},
    "LOG10": {"pure": True, "scalars": "all", "numbers": "all"},
    "LOGINV": {"scalars": "all"},
    "LOGNORM.DIST": {"scalars": "all"},
    "LOGNORM.INV": {"scalars": "all"},
    "LOGNORMDIST": {"scalars": "all"},
    "MAX": {"one_value": True, "vector": True},
    "MAXA": {"one_value": True},
    "MDETERM": {"arrays": True},
    "MDURATION": {"toolpak": "all"},
    "MIN": {"one_value": True, "vector": True},
    "MINA": {"one_value": True},
    "MINUTE": {"pure": True, "scalars": "all"},
    "MINVERSE": {"spills": True, "arrays": True},
    "MOD": {"elementwise": 2, "scalars": "all", "numbers": "all"},
    "NEGBINOM.DIST": {"scalars": "all"},
    "NEGBINOMDIST": {"scalars": "all"},
    "NETWORKDAYS": {"toolpak": (0, 1)},
    "NETWORKDAYS.INTL": {"scalars": (0, 1, 2)},
    "NOMINAL": {"toolpak": "all"},
    "NORM.DIST": {"scalars": "all"},
    "NORM.INV": {"scalars": "all"},
    "NORM.S.DIST": {"scalars": "all"},
    "NORM.S.INV": {"scalars": "all", "numbers": "all"},
    "NORMDIST": {"scalars": "all"},
    "NORMINV": {"scalars": "all"},
    "NORMSDIST": {"scalars": "all", "numbers": "all"},
    "NORMSINV": {"scalars": "all", "numbers": "all"},
    "NOT": {"scalars": "all"},
    "NPV": {"one_value": True, "arrays": True},
    "NUMBERVALUE": {"scalars": "all"},
    "ODDFPRICE": {"toolpak": "all"},
    "ODDFYIELD": {"toolpak": "all"},
    "ODDLPRICE": {"toolpak": "all"},
    "ODDLYIELD": {"toolpak": "all"},
    "PDURATION": {"scalars": "all"},
    "PEARSON": {"arrays": True},
    "PERCENTRANK": {"arrays": True},
    "PERCENTRANK.EXC": {"arrays": True},
    "PERCENTRANK.INC": {"arrays": True},
    "PERMUT": {"pure": True, "scalars": "all", "numbers": "all"},
    "PERMUTATIONA": {"scalars": "all", "numbers": "all"},
    "PHI": {"scalars": "all", "numbers": "all"},
    "POWER": {"pure": True, "scalars": "all", "numbers": "all"},
    "PPMT": {"scalars": "all"},
    "PRICE": {"toolpak": "all"},
    "PRICEDISC": {"toolpak": "all"},
    "PRICEMAT": {"toolpak": "all"},
    "PROB": {"arrays": True},
    "RADIANS": {"pure": True, "scalars": "all", "numbers": "all"},
    "RANK": {"one_value": True, "arrays": True, "vector": True},
    "RANK.AVG": {"one_value": True, "arrays": True},
    "RANK.EQ": {"one_value": True, "arrays": True, "vector": True},
    "RECEIVED": {"toolpak": "all"},
    "ROUND": {"vector": True, "scalars": "all", "numbers": "all"},
    "ROUNDDOWN": {"vector": True, "scalars": "all", "numbers": "all"},
    "ROUNDUP": {"vector": True, "scalars": "all", "numbers": "all"},
    "RRI": {"scalars": "all"},
    "RSQ": {"arrays": True},
    "SEC": {"scalars": "all", "numbers": "all"},
    "SECH": {"scalars": "all", "numbers": "all"},
    "SECOND": {"pure": True, "scalars": "all"},
    "SIGN": {"pure": True, "scalars": "all", "numbers": "all"},
    "SIN": {"pure": True, "scalars": "all", "numbers": "all"},
    "SINH": {"pure": True, "scalars": "all", "numbers": "all"},
    "SLN": {"scalars": "all"},
    "SLOPE": {"arrays": True},
    "SQRT": {"pure": True, "scalars": "all", "numbers": "all"},
    "SQRTPI": {"toolpak": "all", "numbers": "all"},
    "STANDARDIZE": {"scalars": "all", "numbers": "all"},
    "STDEVA": {"one_value": True},
    "STEYX": {"arrays": True},
    "SUBTOTAL": {"arrays": True},
    "SUM": {"one_value": True, "vector": True},
    "SUMPRODUCT": {"one_value": True, "arrays": True, "memoised": True},
    "SYD": {"scalars": "all"},
    "T.DIST": {"scalars": "all"},
    "T.DIST.2T": {"scalars": "all"},
    "T.DIST.RT": {"scalars": "all"},
    "T.INV": {"scalars": "all"},
    "T.INV.2T": {"scalars": "all"},
    "T.TEST": {"arrays": True},
    "TAN": {"pure": True, "scalars": "all", "numbers": "all"},
    "TANH": {"pure": True, "scalars": "all", "numbers": "all"},
    "TBILLEQ": {"toolpak": "all"},
    "TBILLPRICE": {"toolpak": "all"},
    "TBILLYIELD": {"toolpak": "all"},
    "TDIST": {"scalars": "all"},
    "TEXTSPLIT": {"spills": True},
    "TIME": {"pure": True, "scalars": "all"},
    "TINV": {"scalars": "all"},
    "TRANSPOSE": {"spills": True, "arrays": True},
    "TTEST": {"arrays": True},
    "UNICHAR": {"pure": True, "scalars": "all"},
    "UNICODE": {"pure": True, "scalars": "all"},
    "VSTACK": {"spills": True},
    "WEEKDAY": {"pure": True, "scalars": "all"},
    "WEEKNUM": {"toolpak": "all", "pure": True},
    "WEIBULL": {"scalars": "all"},
    "WEIBULL.DIST": {"scalars": "all"},
    "YIELD": {"toolpak": "all"},
    "YIELDDISC": {"toolpak": "all"},
    "YIELDMAT": {"toolpak": "all"},
}
