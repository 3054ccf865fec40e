r"""TEXT(value, format_text) (Microsoft, "TEXT function" and "Number format codes"): ``value`` written
with Excel's number-format language. A format has up to four sections ``positive;negative;zero;
text``; one section serves every number (a negative one written with a minus sign), two sections
split at zero (the second for negatives, written without a sign unless the section writes one),
three give zero its own; a section holding ``@`` is the text section and must be the last. A text
value uses the text section or comes back as it is; a text that reads as a number (or a date or
time) is formatted as that number. Conditions ``[>100]`` pick sections by value; colours and
locale tags are ignored. Digit placeholders ``0 # ?``, the decimal point (a later point is
written as it is), ``,`` between placeholders groups thousands, commas after the last placeholder
divide by 1000 each, ``%`` multiplies by 100, ``E+``/``E-`` is scientific notation, ``?/?`` or
``?/8`` a fraction; ``"..."``, ``\x``, ``_x`` (a space), ``*x`` (nothing) and any other character
are written as they are. Date and time codes (y m d h s AM/PM A/P, fractional seconds, elapsed
[h] [m] [s]) read the number as a serial date of the workbook's date system (in the 1900 system
1900-02-29 is serial 60; in the 1904 system serial 0 is 1904-01-01: :mod:`..read.date_system`);
outside 0 .. 9999-12-31 only elapsed codes may show it. Digits are rounded half away from zero
from the number's 15 significant digits. A format Excel would refuse (dates mixed with digit
placeholders, ``@`` beside a number, a text section that is not the last) is #VALUE!.

"""

from __future__ import annotations

import re
from typing import Any

from .format_dates import date_section
from .format_numbers import number_section
from .format_tokens import BadFormat, check_section, format_tokens, is_date
from .number_text import number_text

__all__ = ["BadFormat", "format_text"]


def _section_text(section: list[tuple[str, Any]], number: float, negative: bool = False) -> str:
    if is_date(section):
        return date_section(section, number, negative)
    return number_section(section, number)


def _holds(condition: tuple[str, float], number: float) -> bool:
    operator, bound = condition
    return {"<": number < bound, "<=": number <= bound, ">": number > bound, ">=": number >= bound,
            "=": number == bound, "<>": number != bound}[operator]


def format_text(value: Any, code: str) -> str:
    """TEXT(``value``, ``code``) for a number (float) or a text ``value``; raises BadFormat."""
    sections = format_tokens(code)
    for section in sections:
        check_section(section)
    text_section = None
    at = [k for k, section in enumerate(sections) if any(kind == "at" for kind, _ in section)]
    if at:
        if at[0] != len(sections) - 1:
            raise BadFormat("the text section is not the last")
        text_section = sections.pop()
    elif len(sections) == 4:
        text_section = sections.pop()
    if len(sections) > 3:
        raise BadFormat("too many sections")
    if isinstance(value, str):
        if text_section is None:
            return value
        return "".join(value if kind == "at" else str(v) for kind, v in text_section
                       if kind in ("at", "lit", "point", "comma", "percent", "slash"))
    number = float(value)
    if not sections:
        return number_text(number)
    conditions = [next((v for kind, v in s if kind == "cond"), None) for s in sections]
    count = len(sections)
    chosen, signed = 0, False
    if any(conditions):
        defaults = [(">=", 0.0) if count == 2 else (">", 0.0), ("<", 0.0), None]
        for index, section in enumerate(sections):
            condition = conditions[index] or (defaults[index] if index < count - 1 else None)
            if condition is None or _holds(condition, number):
                chosen = index
                break
        else:
            chosen = count - 1
        condition = conditions[chosen]
        signed = number < 0 and not (condition and condition[0] in ("<", "<=") and condition[1] <= 0) \
            and not (condition is None and chosen == 1)
    elif count == 1 or number > 0 or (number == 0 and count == 2):
        chosen, signed = 0, number < 0
    elif number < 0:
        chosen = 1
    else:
        chosen = 2
    section = sections[chosen]
    text = _section_text(section, abs(number), signed)
    if signed and not is_date(section) and any(kind in ("digit", "general") for kind, _ in section) and \
            not _NONZERO.search(number_section([token for token in section if token[0] != "lit"], abs(number))):
        signed = False  # a negative number whose digits show as zero has no minus sign: TEXT(-1/3,"0") is "0"
    return "-" + text if signed else text


_NONZERO = re.compile("[1-9]")

