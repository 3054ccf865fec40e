"""Column widths that show a sheet's values whole: what the annotated copy of a submission needs
so that a date is not ``###`` and a label is not cut by the value beside it.

A width is estimated from the text a spreadsheet shows for the cell (:func:`shown_text`: the
value in its number format, to the length that matters here, not an exact rendering) and the
widths of its characters (:func:`text_width`). Columns are only ever widened.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import math
import re
from typing import Any

WIDEST_COLUMN = 60.0  # a column is widened to fit its cells, up to this width

# A character's width in units of a column width (the width of "0" in the body font), generous
# enough for the substitutes spreadsheets use where Calibri is missing (DejaVu Sans is wider).
_NARROW, _WIDE = set("iljtfrI.,;:'!|()[] -/"), set("MWmw@%")


@functools.lru_cache(maxsize=4096)
def text_width(text: str, *, bold: bool = False, size: float = 11.0) -> float:
    """The column width that shows ``text`` whole in a font of ``size`` points, with a margin."""
    units = sum(0.55 if ch in _NARROW else 1.6 if ch in _WIDE else 1.25 if ch.isupper() else 1.05
                for ch in text)
    return math.ceil(units * (1.1 if bold else 1.0) * size / 11.0 * 10) / 10 + 2.0  # tenths: as saved


def shown_text(cell: Any, code: str | None = None) -> str:
    """The text a spreadsheet shows for ``cell``: TRUE/FALSE, a text as it is, a number or a date
    in the cell's number format (or ``code``; General: at most 11 characters, as Excel shows it)."""
    value = cell.value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    code = code or cell.number_format or "General"
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return date_text(value, code)
    if isinstance(value, (int, float)):
        return number_text(float(value), code)
    return str(value)


_LITERAL = re.compile(r'"([^"]*)"|\\(.)|\[[^\]]*\]|_.|\*.')


def _section(code: str, negative: bool) -> tuple[str, bool]:
    """The section of ``code`` a number is shown with, and whether it is the negative numbers' own
    (which shows the number without its sign: ``0.0;(0.0)``)."""
    sections = re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', code)
    if negative and len(sections) > 1:
        return sections[1], True
    return sections[0], False


def number_text(value: float, code: str) -> str:
    """``value`` in the number format ``code``, to its length: its decimals, thousands separators,
    percent sign, exponent and literal text; General as Excel's General. The characters may come
    in another order than the spreadsheet's (``(5.5)`` as ``5.5()``): only the width is wanted."""
    value = float(value)
    section, own_negative = _section(code, value < 0)
    if own_negative:
        value = abs(value)
    literals = "".join(m.group(1) or m.group(2) or "" for m in _LITERAL.finditer(section))
    pattern = _LITERAL.sub("", section)
    if "general" in pattern.lower() or not re.search(r"[0#?]", pattern):
        return general_text(value) + literals + re.sub(r"(?i)general|@", "", pattern)
    mantissa, exponent = (re.split(r"[eE][+-]", pattern, maxsplit=1) + [""])[:2]
    if "%" in mantissa:
        value *= 100
    decimals = len(re.findall(r"[0#?]", mantissa.split(".", 1)[1])) if "." in mantissa else 0
    if exponent:
        digits = f"{value:.{decimals}E}"
    else:
        digits = f"{value:{',' if ',' in mantissa.split('.')[0] else ''}.{decimals}f}"
    others = re.sub(r"[0#?.,%]", "", mantissa)
    return digits + "%" * mantissa.count("%") + literals + others


def general_text(value: float) -> str:
    """A number as a General cell shows it: at most 11 characters (sign and point included)."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e11:
        return str(int(value))
    for precision in range(10, 0, -1):
        text = f"{value:.{precision}G}"
        if len(text) <= 11:
            return text
    return f"{value:.0E}"


_DATE_TOKEN = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]|yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM/PM|A/P',
                         re.IGNORECASE)


def date_text(value: dt.datetime | dt.date | dt.time, code: str) -> str:
    """A date or time in the date format ``code`` (English month and day names)."""
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    else:
        moment = dt.datetime.combine(dt.date(1899, 12, 30), value)
    section, _ = _section(code, False)
    if not re.search(r"[ymdhs]", _LITERAL.sub("", section), re.IGNORECASE):  # a date in a number format
        serial = (moment - dt.datetime(1899, 12, 30)).total_seconds() / 86400
        return number_text(serial, code)
    twelve_hours = re.search(r"AM/PM|A/P", section, re.IGNORECASE) is not None
    matches = list(_DATE_TOKEN.finditer(section))
    tokens = [m.group() for m in matches]
    out, position = [], 0
    for index, match in enumerate(matches):
        out.append(section[position:match.start()])
        position = match.end()
        token, low = match.group(), match.group().lower()
        minutes = low in ("m", "mm") and (_after_hour(tokens, index) or _before_second(tokens, index))
        out.append(_date_part(moment, token, low, minutes, twelve_hours))
    out.append(section[position:])
    return "".join(out)


def _after_hour(tokens: list[str], index: int) -> bool:
    earlier = [t.lower() for t in tokens[:index] if t[0] not in '"\\[']
    return bool(earlier) and earlier[-1] in ("h", "hh")


def _before_second(tokens: list[str], index: int) -> bool:
    later = [t.lower() for t in tokens[index + 1:] if t[0] not in '"\\[']
    return bool(later) and later[0] in ("s", "ss")


def _date_part(moment: dt.datetime, token: str, low: str, minutes: bool, twelve_hours: bool) -> str:
    if token.startswith('"'):
        return token[1:-1]
    if token.startswith("\\"):
        return token[1:]
    if token.startswith("["):
        return ""
    hour = moment.hour % 12 or 12 if twelve_hours else moment.hour
    parts = {
        "yyyy": f"{moment.year:04d}", "yy": f"{moment.year % 100:02d}", "mmmmm": moment.strftime("%B")[0],
        "mmmm": moment.strftime("%B"), "mmm": moment.strftime("%b"), "mm": f"{moment.month:02d}",
        "m": str(moment.month), "dddd": moment.strftime("%A"), "ddd": moment.strftime("%a"),
        "dd": f"{moment.day:02d}", "d": str(moment.day), "hh": f"{hour:02d}", "h": str(hour),
        "ss": f"{moment.second:02d}", "s": str(moment.second),
        "am/pm": "AM" if moment.hour < 12 else "PM", "a/p": "A" if moment.hour < 12 else "P",
    }
    if minutes:
        return f"{moment.minute:02d}" if low == "mm" else str(moment.minute)
    return parts[low]


def fit_columns(ws: Any) -> None:
    """Widen ``ws``'s columns (never narrow them) so numbers and dates show whole instead of ``###``
    and a text label is not cut by the value beside it. Merged and wrapped cells and formulas are
    left as they are; a text with an empty cell to its right already shows whole."""
    from openpyxl.cell.cell import MergedCell

    merged_tops = {(m.min_row, m.min_col) for m in ws.merged_cells.ranges}
    styles: dict[int, tuple[bool, bool, float, str]] = {}  # style id -> wrapped, bold, size, number format
    widths: dict[tuple[Any, ...], float] = {}  # (type, value, style) -> width: a column repeats its values
    needed: dict[int, float] = {}
    for row in ws.iter_rows():
        for index, cell in enumerate(row):
            value = cell.value
            if value is None or isinstance(cell, MergedCell) or (cell.row, cell.column) in merged_tops \
                    or cell.data_type == "f":  # a formula's text is not what the cell shows
                continue
            if isinstance(value, str):
                beside = row[index + 1].value if index + 1 < len(row) else None
                if not value.strip() or beside is None:
                    continue  # it runs into the empty cell beside it
            style = styles.get(cell.style_id)
            if style is None:  # reading a cell's style is slow in openpyxl: once per style
                style = styles[cell.style_id] = (bool(cell.alignment.wrap_text), bool(cell.font.b),
                                                 float(cell.font.sz or 11.0), cell.number_format or "General")
            wrapped, bold, size, code = style
            if not wrapped:
                key = (type(value), value, style)
                width = widths.get(key)
                if width is None:
                    width = widths[key] = text_width(shown_text(cell, code), bold=bold, size=size)
                needed[cell.column] = max(needed.get(cell.column, 0.0), width)
    for column, width in sorted(needed.items()):
        current = _covering(ws, column)
        if current is not None and current.hidden:
            continue
        if width > (current.width if current is not None and current.width else default_width(ws)):
            _own_dimension(ws, column, current).width = min(width, WIDEST_COLUMN)


def default_width(ws: Any) -> float:
    """The width of ``ws``'s columns that have none of their own (8.43 unless the sheet says)."""
    return float(ws.sheet_format.defaultColWidth or 8.43)


def _covering(ws: Any, column: int) -> Any:
    """The column dimension (``<col min max>``) that covers ``column``, or None."""
    from openpyxl.utils import column_index_from_string

    for dimension in ws.column_dimensions.values():
        low = dimension.min or column_index_from_string(dimension.index)
        if low <= column <= (dimension.max or low):
            return dimension
    return None


def _own_dimension(ws: Any, column: int, shared: Any) -> Any:
    """The column dimension of ``column`` alone: a dimension shared by a span of columns (``<col
    min="1" max="5">``) is split so that widening one column leaves the others as they were."""
    from openpyxl.utils import get_column_letter

    if shared is not None and (shared.max or 0) > (shared.min or 0):
        del ws.column_dimensions[shared.index]
        for low, high in ((shared.min, column - 1), (column, column), (column + 1, shared.max)):
            if low <= high:
                part = copy.copy(shared)
                part.index = get_column_letter(low)
                part.min, part.max = low, high
                ws.column_dimensions[part.index] = part
    return ws.column_dimensions[get_column_letter(column)]
