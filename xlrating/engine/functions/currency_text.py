"""DOLLAR and BAHTTEXT: a number written as an amount of money (see :mod:`xlrating.engine.functions`).

DOLLAR(number, [decimals]) (Microsoft, "DOLLAR function"): the number rounded to ``decimals``
places (default 2; negative rounds to the left of the point, as ROUND does; a fraction is
truncated) and written with the currency format ``$#,##0.00_);($#,##0.00)`` of the United States
locale the engine computes in: DOLLAR(1234.567, 2) is "$1,234.57", DOLLAR(1234.567, -2) "$1,200",
DOLLAR(-1234.567, 2) "($1,234.57)", DOLLAR(-0.123, 4) "($0.1230)", DOLLAR(99.888) "$99.89" (the
page's examples). The ``_)`` is a cell's alignment space, not part of the text. Decimals above 127
are #VALUE!, as for FIXED. A number that rounds to 0 has no parentheses (ROUND(-0.001, 2) is 0).

BAHTTEXT(number) (Microsoft, "BAHTTEXT function"): the number in Thai words with "บาท" (baht) and
its satang, the number rounded to 2 decimals: whole baht end in "ถ้วน" (exactly), satang are
counted in words before "สตางค์"; no baht and no satang is "ศูนย์บาทถ้วน"; a negative amount
starts with "ลบ". The words count in blocks of six digits joined by "ล้าน" (million); within a
block 10 is "สิบ" (not one-ten), 20 "ยี่สิบ", a final 1 after tens "เอ็ด" (21 "ยี่สิบเอ็ด").
formulas' test.xlsx (saved by Excel) shows 0, 157, 65, 65.8, -1, TRUE and an empty cell; a text
that is no number is #VALUE!, an error the result.
"""

from __future__ import annotations

import math
from typing import Any

from formulas.tokens.operand import Error, XlError

from ..maths.rounding import excel_round
from .arguments import elementwise
from .number_format import format_text

_VALUE: XlError = Error.errors["#VALUE!"]
_MOST_DECIMALS = 127


def _dollar(number: float, decimals: float = 2.0) -> Any:
    places = math.trunc(decimals)
    if places > _MOST_DECIMALS:
        return _VALUE
    rounded = excel_round(number, places)
    code = "$#,##0" + ("." + "0" * places if places > 0 else "")
    text = format_text(abs(rounded), code)
    return f"({text})" if rounded < 0 else text


_DIGITS = ("ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า")
_POWERS = ("", "สิบ", "ร้อย", "พัน", "หมื่น", "แสน")  # 1, 10, 100 ... 100,000
_MILLION, _BAHT, _SATANG, _EXACTLY, _MINUS = "ล้าน", "บาท", "สตางค์", "ถ้วน", "ลบ"
_TEN, _TWENTY, _FINAL_ONE = "สิบ", "ยี่", "เอ็ด"


def _block(value: int) -> str:
    """Thai words of 1 .. 999,999."""
    words = []
    for power in range(5, 1, -1):
        digit = value // 10 ** power % 10
        if digit:
            words.append(_DIGITS[digit] + _POWERS[power])
    tens, ones = value // 10 % 10, value % 10
    if tens:
        words.append(("" if tens == 1 else _TWENTY if tens == 2 else _DIGITS[tens]) + _TEN)
    if ones:
        words.append(_FINAL_ONE if ones == 1 and tens else _DIGITS[ones])
    return "".join(words)


def _thai_number(value: int) -> str:
    """Thai words of a whole number above 0, in blocks of six digits joined by ล้าน."""
    blocks = []
    while value:
        value, block = divmod(value, 10 ** 6)
        blocks.append(block)
    return _MILLION.join(_block(block) if block else "" for block in reversed(blocks))


def _bahttext(number: float) -> Any:
    rounded = excel_round(number, 2)
    cents = round(abs(rounded) * 100)
    baht, satang = divmod(cents, 100)
    text = _MINUS if rounded < 0 else ""
    if baht or not satang:
        text += (_thai_number(baht) if baht else _DIGITS[0]) + _BAHT
    return text + (_thai_number(satang) + _SATANG if satang else _EXACTLY)


FUNCTIONS: dict[str, Any] = {
    "DOLLAR": elementwise(_dollar),
    "BAHTTEXT": elementwise(_bahttext),
}
