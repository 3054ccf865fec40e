"""What CELL tells about a cell's formatting, from the workbook's styles (:mod:`..read.cell_formats`):
"format", "color", "parentheses", "prefix", "protect" and "width", as Microsoft's CELL page
defines them.

- "format": a code for the number format's first section: G (General, fractions, text), F0/F2
  (fixed decimals), ,0/,2 (thousands separators), C0/C2 (currency), P0/P2 (percent), S2
  (scientific), D1-D9 (dates and times: d-mmm-yy D1, d-mmm D2, mmm-yy D3, m/d/yy D4, mm/dd D5,
  h:mm:ss AM/PM D6, h:mm AM/PM D7, h:mm:ss D8, h:mm D9); "-" is appended when negative numbers are
  shown in colour, "()" when positive numbers are shown in parentheses.
- "color": 1 when negative numbers are shown in colour; "parentheses": 1 when positive (or all)
  numbers are shown in parentheses.
- "prefix": for a text, its label prefix by alignment: ' (left or general), " (right), ^ (centred),
  \\ (fill); "" for anything else.
- "protect": 1 when the cell is locked (every cell is, unless its style unlocks it).
- "width": {the column's width rounded to a whole number of characters, whether it is the sheet's
  default width}; a legacy formula shows the first.
"""

from __future__ import annotations

import math
import re

import numpy as np
import schedula as sh
from formulas.functions import Array
from formulas.tokens.operand import XlError

from ..read.cell_formats import CellStyle

_QUOTED = re.compile(r'"[^"]*"|\\.|_.|\*.')
_BRACKET = re.compile(r"\[[^\]]*\]")
_COLOURS = re.compile(r"\[(?:black|blue|cyan|green|magenta|red|white|yellow|colou?r\s*\d+)\]", re.IGNORECASE)


def _sections(code: str) -> list[str]:
    """The ``;``-separated sections of a number format, a ``;`` inside quotes or brackets kept."""
    sections, current, quoted, bracket = [], "", False, False
    index = 0
    while index < len(code):
        char = code[index]
        if char == "\\" and not quoted and index + 1 < len(code):
            current += code[index:index + 2]
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == "[" and not quoted:
            bracket = True
        elif char == "]" and not quoted:
            bracket = False
        if char == ";" and not quoted and not bracket:
            sections.append(current)
            current = ""
        else:
            current += char
        index += 1
    sections.append(current)
    return sections


def _bare(section: str) -> str:
    """A section without its literal text, escapes and padding (what says what kind it is)."""
    return _QUOTED.sub("", section)


def _date_code(bare: str) -> str | None:
    """The D code of a date or time format, None when it shows no date or time."""
    plain = _BRACKET.sub(lambda m: m.group(0) if re.fullmatch(r"\[(h+|m+|s+)\]", m.group(0), re.IGNORECASE) else "", bare)
    lower = plain.lower()
    if not re.search(r"[dymhs]", lower):
        return None
    am_pm = "am/pm" in lower or "a/p" in lower
    lower = lower.replace("am/pm", "").replace("a/p", "")
    has_day, has_year = "d" in lower, "y" in lower
    has_month_name = "mmm" in lower
    if has_day or has_year or (re.search(r"m", lower) and not re.search(r"[hs]", lower)):
        if has_day and has_year:
            return "D1" if has_month_name else "D4"
        if has_day and has_month_name:
            return "D2"
        if has_year and has_month_name:
            return "D3"
        if has_day:
            return "D5"
        return "D4"
    seconds = "s" in lower
    if am_pm:
        return "D6" if seconds else "D7"
    return "D8" if seconds else "D9"


def _decimals(bare: str) -> int:
    number = re.split(r"[eE][+-]", bare)[0]
    if "." not in number:
        return 0
    return len(re.findall(r"[0#?]", number.split(".", 1)[1]))


def negative_in_colour(code: str) -> bool:
    """Whether negative numbers are shown in a colour: the second section's, or the only one's."""
    sections = _sections(code)
    return _COLOURS.search(sections[1] if len(sections) > 1 else sections[0]) is not None


def positive_in_parentheses(code: str) -> bool:
    return "(" in _BRACKET.sub("", _bare(_sections(code)[0]))


def format_code(code: str) -> str:
    """CELL("format") of a number format code (see the module's docstring)."""
    first = _bare(_sections(code)[0])
    suffix = ("-" if negative_in_colour(code) else "") + ("()" if positive_in_parentheses(code) else "")
    without_brackets = _BRACKET.sub("", first)
    if not without_brackets.strip() or without_brackets.strip().lower() == "general" or "@" in without_brackets \
            or "/" in without_brackets and "?" in without_brackets:
        return "G" + suffix
    currency = re.search(r"\[\$[^\]]*\]", first) is not None or re.search(r"[$€£¥]", _sections(code)[0]) is not None
    date = _date_code(first) if not re.search(r"[0#?]", without_brackets) else None
    if date is not None:
        return date + suffix
    if "/" in without_brackets and re.search(r"[0#?]\s*/", without_brackets):
        return "G" + suffix  # a fraction
    decimals = min(_decimals(without_brackets), 15)
    if "%" in without_brackets:
        kind = "P"
    elif re.search(r"[eE][+-]", without_brackets):
        kind = "S"
    elif currency:
        kind = "C"
    elif re.search(r"[0#?],[0#?]", without_brackets):
        kind = ","
    else:
        kind = "F"
    return f"{kind}{decimals}{suffix}"


def prefix(style: CellStyle, value: object) -> str:
    """CELL("prefix"): a text's label prefix by its alignment, "" for anything that is no text."""
    if not isinstance(value, str) or isinstance(value, XlError) or value is sh.EMPTY:  # both are str too
        return ""
    return {"right": '"', "center": "^", "centerContinuous": "^", "fill": "\\"}.get(style.horizontal, "'")


def width(shown: float, default: bool) -> Array:
    """CELL("width"): {the shown width rounded to whole characters, whether it is the default}."""
    return np.asarray([[float(math.floor(shown + 0.5)), default]], dtype=object).view(Array)
