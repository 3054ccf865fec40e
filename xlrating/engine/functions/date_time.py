"""Excel's date and time functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

A date typed as text (``YEAR("7/5/2008")``) is read as Excel reads it: only dates Excel can hold,
1 January 1900 to 31 December 9999, are dates; any other text is #VALUE! (Microsoft's DATEVALUE
page; the workbooks Excel saved show YEAR("7/5/1800") and YEAR("7/5/10000") as #VALUE!).
``formulas`` read any year.
"""

from __future__ import annotations

import functools
from typing import Any

from formulas.functions import wrap_ufunc
from formulas.functions.date import _text2datetime, xdatevalue, xday
from formulas.tokens.operand import Error

FIRST_YEAR, LAST_YEAR = 1900, 9999


def _readable_date(text: str) -> bool:
    try:
        year = _text2datetime(text)[0]
    except Exception:  # noqa: BLE001 - formulas' date parser raises several types for non-dates
        return False
    return FIRST_YEAR <= int(year) <= LAST_YEAR


def day_part(serial_number: Any, part: int) -> Any:
    """DAY, MONTH, YEAR (part 2, 1, 0) of a serial number or of a date typed as text."""
    if isinstance(serial_number, str) and not _readable_date(serial_number):
        return Error.errors["#VALUE!"]
    return xday(serial_number, part)


def datevalue(date_text: Any) -> Any:
    """DATEVALUE(date_text): the serial number of a date written as text, 1900 to 9999."""
    if not isinstance(date_text, str) or not _readable_date(date_text):
        return Error.errors["#VALUE!"]
    return xdatevalue(date_text)


FUNCTIONS: dict[str, Any] = {
    "DAY": wrap_ufunc(functools.partial(day_part, part=2), input_parser=lambda *a: a),
    "MONTH": wrap_ufunc(functools.partial(day_part, part=1), input_parser=lambda *a: a),
    "YEAR": wrap_ufunc(functools.partial(day_part, part=0), input_parser=lambda *a: a),
    "DATEVALUE": wrap_ufunc(datevalue, input_parser=lambda *a: a),
}
