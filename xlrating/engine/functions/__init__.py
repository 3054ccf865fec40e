"""Excel's own functions that the engine computes itself, one module per Excel category.

``formulas`` implements most of Excel's library; where it is missing a function or computes one
differently from Excel, the function lives here, in the module of its Excel category (Microsoft's
function reference groups them the same way). Each module has a ``FUNCTIONS`` dict: Excel name ->
a ``formulas``-compatible implementation (built with ``formulas.functions.wrap_func`` /
``wrap_ufunc``); :mod:`.builtins` corrects a few of ``formulas``' own, :mod:`.operators` the ``&``
operator. This package is the catalogue the engine's registry is made with
(:class:`xlrating.engine.evaluate.registry.FunctionRegistry`, whose :class:`~xlrating.engine.evaluate.registry.Catalogue`
it is: :func:`implementation`, :func:`implementations`, :func:`operator` and ``formulas``' own
:mod:`.library`); ``formulas``' global registry is never touched.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import library

# Excel's function categories that have functions here (module names).
MODULES = ("engineering", "financial", "database", "dynamic_arrays", "math_trig", "text", "information",
           "lookup", "logical", "date_time", "statistical", "forecast_ets", "pivot")


# The names each module's ``FUNCTIONS`` defines, so that looking up one name imports one module
# (:func:`implementation`); tests/engine/test_engine_registry.py checks them against the modules.
NAMES: dict[str, frozenset[str]] = {module: frozenset(names.split()) for module, names in {
    "engineering": "BIN2DEC DEC2BIN BIN2OCT BIN2HEX OCT2DEC DEC2OCT OCT2BIN OCT2HEX HEX2DEC DEC2HEX HEX2BIN HEX2OCT "
                   "BITAND BITOR BITXOR BITLSHIFT BITRSHIFT DELTA CONVERT BESSELI BESSELJ BESSELK BESSELY COMPLEX IMABS IMREAL IMAGINARY IMARGUMENT "
                   "IMCONJUGATE IMSUM IMPRODUCT IMSUB IMDIV IMPOWER IMSQRT IMEXP IMLN IMLOG10 IMLOG2 IMSIN IMCOS "
                   "IMTAN IMCOT IMSEC IMCSC IMSINH IMCOSH IMSECH IMCSCH",
    "financial": "VDB ACCRINT MIRR IPMT XNPV PV FV PMT NPER RATE IRR XIRR DB DDB",
    "database": "DAVERAGE DCOUNT DCOUNTA DGET DMAX DMIN DPRODUCT DSTDEV DSTDEVP DSUM DVAR DVARP",
    "dynamic_arrays": "SEQUENCE RANDARRAY SORT SORTBY UNIQUE FILTER TAKE DROP EXPAND WRAPROWS WRAPCOLS TOCOL TOROW",
    "math_trig": "MMULT MUNIT GCD LCM INT TRUNC EVEN ODD MROUND CEILING ECMA.CEILING FLOOR CEILING.MATH FLOOR.MATH CEILING.PRECISE ISO.CEILING "
                 "FLOOR.PRECISE FACT FACTDOUBLE COMBIN COMBINA QUOTIENT BASE DECIMAL RANDBETWEEN PRODUCT SUMSQ ATAN2 "
                 "SUMX2MY2 SUMX2PY2 SUMXMY2 SUMIF SUMIFS SERIESSUM",
    "text": "VALUETOTEXT CONCATENATE CONCAT TEXTJOIN LEN LENB LEFT LEFTB RIGHT RIGHTB MID MIDB REPT UPPER LOWER PROPER "
            "TRIM CLEAN FIND FINDB SEARCH SEARCHB EXACT SUBSTITUTE REPLACE REPLACEB TEXT TEXTBEFORE TEXTAFTER "
            "CHAR CODE DOLLAR BAHTTEXT ARRAYTOTEXT",
    "information": "N ISNUMBER",
    "lookup": "HYPERLINK INDEX CHOOSE LOOKUP XLOOKUP XMATCH ROW COLUMN ROWS COLUMNS MATCH VLOOKUP HLOOKUP",
    "logical": "IF SWITCH SCAN MAP MAKEARRAY",
    "date_time": "DATE DAY MONTH YEAR DATEVALUE TIMEVALUE YEARFRAC TODAY NOW DATEDIF WORKDAY WORKDAY.INTL",
    "statistical": "COUNTA AVERAGEA LINEST LOGEST TREND GROWTH COUNTIF COUNTIFS AVERAGEIF AVERAGEIFS MAXIFS MINIFS AVEDEV DEVSQ "
                   "GEOMEAN HARMEAN KURT MEDIAN SKEW SKEW.P STDEV STDEV.S STDEV.P STDEVP VAR VAR.S VAR.P VARP MODE "
                   "MODE.SNGL MODE.MULT LARGE SMALL PERCENTILE PERCENTILE.INC PERCENTILE.EXC QUARTILE QUARTILE.INC "
                   "QUARTILE.EXC TRIMMEAN POISSON.DIST POISSON",
    "forecast_ets": "FORECAST.ETS FORECAST.ETS.CONFINT FORECAST.ETS.SEASONALITY FORECAST.ETS.STAT",
    "pivot": "GROUPBY PIVOTBY PERCENTOF",
}.items()}


def implementation(name: str) -> Any | None:
    """``implementations().get(name)``, importing only the module that defines ``name`` (the last
    one in :data:`MODULES` order, as :func:`implementations` merges them; then :mod:`.builtins`)."""
    for module in reversed(MODULES):
        if name in NAMES[module]:
            return importlib.import_module(f"{__name__}.{module}").FUNCTIONS[name]
    from .builtins import corrections

    return corrections().get(name)


def implementations() -> dict[str, Any]:
    """Excel name (upper case, without ``_xlfn.``) -> implementation: :mod:`.builtins`' corrections,
    then every category module's (these win)."""
    from .builtins import corrections

    merged: dict[str, Any] = dict(corrections())
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        merged.update(module.FUNCTIONS)
    return merged


def operator(name: str) -> Any | None:
    """The engine's own implementation of the operator ``name`` (``&``), or None."""
    from .operators import OPERATORS

    return OPERATORS.get(name)


__all__ = ["MODULES", "NAMES", "implementation", "implementations", "library", "operator"]
