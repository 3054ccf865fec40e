r"""TEXT(value, format_text) (Microsoft, "TEXT function" and "Number format codes"): ``value`` written
with Excel's number-format language. A format has up to four sections ``positive;negative;zero;
text``; one section serves every number (a negative one written with a minus sign), two sections
split at zero (the second for negatives, written without a sign unless the section writes one),
three give zero its own; a section holding ``@`` is the text section and must be the last. A text
value uses the text section or comes back as it is; a text that reads as a number (or a date or
time) is formatted as that number; General in the text section writes the text as ``@`` does.
Conditions ``[>100]`` pick sections by value (:func:`_conditional`: which section, which minus sign;
no section taking the number is #VALUE!, where Excel's cell shows ####); colours and locale tags are
ignored, but for a Hijri calendar's (``[$-060409]``, as ``B2``). Digit placeholders ``0 # ?``, the
decimal point (a later point is written as it is), ``,`` between placeholders groups thousands,
commas after the last placeholder divide by 1000 each (commas elsewhere: :mod:`.format_numbers`),
``%`` multiplies by 100, ``E+``/``E-`` is scientific notation (spaces may stand between it and the
exponent's digits; with two or more integer placeholders the exponent a multiple of their count:
``##0.0E+0`` is engineering notation), ``?/?`` or ``?/8`` a fraction; ``"..."``, ``\x``, ``_x`` (a
space), ``*x`` (nothing) and any other character are written as they are. Date and time codes (y m d
h s AM/PM A/P, fractional seconds ``.00`` with or without ``s`` before them, elapsed [h] [m] [s],
``e`` the year, ``b`` the Buddhist year, ``g`` the era, writing nothing in en-US, ``B2`` the Hijri
calendar with its months' en-US names (Excel writes B2's in Arabic), ``B1`` the Gregorian) read the
number as a serial date of the workbook's date system (in the 1900 system 1900-02-29 is serial 60;
in the 1904 system serial 0 is 1904-01-01: :mod:`..read.date_system`); outside 0 .. 9999-12-31 only
elapsed codes may show it. Digits are rounded half away from zero from the number's 15 significant
digits. A format Excel would refuse (dates mixed with digit placeholders, ``@`` beside a number, a
text section that is not the last) is #VALUE!.

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
        return "".join(value if kind in ("at", "general") else str(v) for kind, v in text_section
                       if kind in ("at", "general", "lit", "point", "comma", "percent", "slash"))
    number = float(value)
    if not sections:
        return number_text(number)
    conditions = [next((v for kind, v in s if kind == "cond"), None) for s in sections]
    if any(conditions):
        sections, chosen, signed = _conditional(sections, conditions, number)
    elif len(sections) == 1 or number > 0 or (number == 0 and len(sections) == 2):
        chosen, signed = 0, number < 0
    elif number < 0:
        chosen, signed = 1, False
    else:
        chosen, signed = 2, False
    section = sections[chosen]
    text = _section_text(section, abs(number), signed)
    if signed and not is_date(section) and any(kind in ("digit", "general") for kind, _ in section) and \
            not _NONZERO.search(number_section([token for token in section if token[0] != "lit"], abs(number))):
        signed = False  # a negative number whose digits show as zero has no minus sign: TEXT(-1/3,"0") is "0"
    return "-" + text if signed else text


_NONZERO = re.compile("[1-9]")


def _purely_negative(condition: tuple[str, float]) -> bool:
    """A condition only negative numbers meet ([<0], [<-5], [<=-1], [=-2]): its section writes a
    negative number without a minus sign, as the negative section of a plain format does."""
    operator, bound = condition
    return bound < 0 and operator in ("<", "<=", "=") or bound == 0 and operator == "<"


def _conditional(sections: list[list[tuple[str, Any]]], conditions: list[tuple[str, float] | None],
                 number: float) -> tuple[list[list[tuple[str, Any]]], int, bool]:
    """The section a number takes in a format with conditions, and whether it writes a minus sign.

    The first section without a condition takes [>0]; a format of one section has a General one
    after it for the numbers its condition leaves. The first section whose condition holds (one
    without a condition always does) writes the number; none holding is an error (Excel shows
    ####). A section writes a negative number with a minus sign unless its condition is met only
    by negative numbers; the second of two sections, without a condition of its own, writes the
    sign when the first's condition is = or > or >= a number not negative. (The rules of the
    workbooks Excel saved, as numfmt's Excel-checked cases record them: '[<=-100]"B"0;"C"0' writes
    -6.3 as C6, '[>6]"A"0;[<-6]"B"0' as B6, '[<=0]"B"0' as -B6, '[=-6]0' writes -5 as -5 and
    '[<>-5]0' as 5.)"""
    first = conditions[0] or (">", 0.0)
    conditions = [first, *conditions[1:]]
    if len(sections) == 1:
        sections = [*sections, [("general", "")]]
        conditions.append(None)
    minus = [not _purely_negative(c) if c is not None else True for c in conditions]
    if len(sections) == 2 and conditions[1] is None:
        minus[1] = first[0] == "=" or (first[1] >= 0 and first[0] in (">", ">="))
    for index, condition in enumerate(conditions):
        if condition is None or _holds(condition, number):
            return sections, index, number < 0 and minus[index]
    raise BadFormat("no section of the format takes the number")
