"""Numbers as Excel writes them in text: :func:`number_text` (``=A1&""``, CONCATENATE, LEN ...) and
:func:`general_text` (the General format of a default-width cell, TEXT's ``General``); and the
decimal rounding both use, half away from zero from the number's 15 significant digits."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

TEXT_WIDTH = 20  # the most characters (sign aside) a number is written with in decimal notation
_SMALLEST_NORMAL = 2.2250738585072014e-308


def number_text(number: float, width: int = TEXT_WIDTH) -> str:
    """``number`` as Excel writes it when it turns a number into text (``=A1&""``, CONCATENATE,
    LEN ...): the number as a General cell shows it when the column is wide enough.

    The rule (Apache POI's ``NumberToTextConverter`` documents it with the texts Excel produced for
    some fifty doubles; the examples below are among them):

    - the number is rounded to 15 significant digits, half away from zero, from its exact binary
      value (14 digits when its decimal exponent is 99 or more in absolute value, the exponent
      then taking three characters); trailing zeros are dropped: 0.1+0.2 -> "0.3",
      1/3 -> "0.333333333333333", 123.45678901234568 -> "123.456789012346",
      999999.9999999999 -> "1000000";
    - it is written in decimal notation when that takes at most ``width`` (20) characters, sign
      aside: 1.2345678901234567E19 -> "12345678901234600000", 123456789012345678 ->
      "123456789012346000", 1E-05 -> "0.00001", 1E-10 -> "0.0000000001",
      1.2345678901234567E-4 -> "0.000123456789012346" (exactly 20), 1E-18 ->
      "0.000000000000000001";
    - otherwise in scientific notation, the mantissa's digits, ``E``, the exponent's sign and at
      least two digits: 1E+20 -> "1E+20", 1.2345678901234568E20 -> "1.23456789012346E+20",
      1.2345678901234568E-5 -> "1.23456789012346E-05" (21 characters in decimal), 1E-19 -> "1E-19",
      1.7976931348623157E308 -> "1.7976931348623E+308";
    - zero, -0 and the denormal numbers (below 2.2250738585072014E-308) are "0".

    Not the 11-character cell of a default column (that shows 123456789012 as 1.23457E+11), nor
    Python's ``g`` format (which switches to 1e-05 from 1E-05 down and to 1e+15 from 1E+15 up).
    Raises ValueError for an infinity or a nan, which Excel never holds.
    """
    if not math.isfinite(number):
        raise ValueError(f"{number} has no text in Excel")
    magnitude = abs(number)
    if magnitude < _SMALLEST_NORMAL:
        return "0"
    exact = Decimal(magnitude)
    exponent = exact.adjusted()
    significant = 14 if abs(exponent) >= 99 else 15
    rounded = exact.quantize(Decimal(1).scaleb(exponent - significant + 1), rounding=ROUND_HALF_UP)
    digits = "".join(map(str, rounded.as_tuple().digits)).rstrip("0")
    exponent = rounded.adjusted()  # one more when rounding carried (9.99...95 -> 10)
    if exponent >= 0:
        whole = exponent + 1
        decimal = digits.ljust(whole, "0") if len(digits) <= whole else f"{digits[:whole]}.{digits[whole:]}"
    else:
        decimal = "0." + "0" * (-exponent - 1) + digits
    if len(decimal) <= width:
        text = decimal
    else:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        text = f"{mantissa}E{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"
    return "-" + text if number < 0 else text



GENERAL_WIDTH = 11  # the characters (sign aside) of a General cell of the default column width


def general_text(number: float) -> str:
    """``number`` as the General format shows it in a cell of the default width, which is what
    TEXT's ``General`` writes: at most 11 characters, sign aside (workbooks Excel saved:
    TEXT(1/3,"General") is "0.333333333", 123456789012 "1.23457E+11", 25000000000 as it is,
    -0.00000001 as it is, -0.0000000025 "-2.5E-09", 1.2E-16 "1.2E-16").

    The number (rounded to Excel's 15 significant digits) is written as :func:`number_text` writes
    it when that fits; else rounded, half away from zero, to the decimals that fit (a whole part of
    up to 11 digits), or in scientific notation with the mantissa that fits (6 significant digits,
    5 with a three-digit exponent), whichever shows more significant digits (decimal on a tie)."""
    text = number_text(number)
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    if len(text) <= GENERAL_WIDTH and "E" not in text:
        return sign + text
    value = significant(abs(number))
    exponent = value.adjusted()
    candidates = []
    if exponent < GENERAL_WIDTH:
        places = max(GENERAL_WIDTH - (exponent + 1 if exponent >= 0 else 1) - 1, 0)
        decimal = f"{half_up(value, places):f}"
        if "." in decimal:
            decimal = decimal.rstrip("0").rstrip(".")
        if len(decimal) <= GENERAL_WIDTH:
            candidates.append((len(decimal.replace(".", "").lstrip("0")), 1, decimal))
    for digits in (6, 5):
        mantissa = value.scaleb(-exponent)
        rounded = half_up(mantissa, digits - 1)
        shift = exponent + (1 if rounded >= 10 else 0)
        if rounded >= 10:
            rounded = half_up(mantissa / 10, digits - 1)
        written = f"{rounded:f}".rstrip("0").rstrip(".")
        scientific = f"{written}E{'+' if shift >= 0 else '-'}{abs(shift):02d}"
        if len(scientific) <= GENERAL_WIDTH:
            candidates.append((len(written.replace(".", "")), 0, scientific))
            break
    return sign + max(candidates)[2]


def half_up(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def significant(number: float) -> Decimal:
    """``number`` (not negative) rounded to Excel's 15 significant digits."""
    if number == 0:
        return Decimal(0)
    exact = Decimal(number)
    return exact.quantize(Decimal(1).scaleb(exact.adjusted() - 14), rounding=ROUND_HALF_UP)

