"""A number-format section without date codes applied to a number (not negative): digit
placeholders, thousands separators and scaling, percent, scientific notation, fractions, General.
See :mod:`.number_format`."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .number_text import general_text, half_up, significant


def _integer_text(digits: str, places: list[str], grouping: bool) -> list[str]:
    """Whole-number ``digits`` ("" for zero) spread over the integer placeholders ``places``: one
    text per placeholder, the leftmost taking every digit left over, with ``grouping`` a separator
    every three digits, written as the place before it shows: a comma after a digit or a 0
    placeholder, a space after a ? that shows a space, nothing after a # that shows nothing."""
    count = len(places)
    total = max(len(digits), count)
    chunks = []
    for j in range(total):  # j: position from the right
        if j < len(digits):
            char = digits[-1 - j]
        else:
            kind = places[count - 1 - j]
            char = {"0": "0", "?": " ", "#": ""}[kind]
        if grouping and j and j % 3 == 0:  # the separator shows as the place before it does:
            char += "," if char.strip() else char  # a comma after a digit, a space after a ? ("0,????": 0    1)
        chunks.append(char)
    if not count:
        return ["".join(reversed(chunks))]
    texts = chunks[:count - 1] + ["".join(reversed(chunks[count - 1:]))]
    return list(reversed(texts))


def _decimal_text(digits: str, places: list[str]) -> list[str]:
    """Decimal ``digits`` over the decimal placeholders: within the trailing zeros a # shows nothing and
    a ? a space, a 0 placeholder between them included (workbooks Excel saved: TEXT(890123.456789,
    "#.#####00#0") is "890123.45678900", pycel's text.xlsx; TEXT(1.000000001,"00###.##.0000.00") is
    "001..0000.00", formulas' test.xlsx)."""
    texts = list(digits)
    significant = len(digits.rstrip("0"))
    for k in range(significant, len(places)):
        if places[k] != "0":
            texts[k] = "" if places[k] == "#" else " "
    return texts


def _layout(section: list[tuple[str, Any]]) -> tuple[list[int], int, int, bool, int]:
    """Where the number goes: roles of the commas and the decimal point.
    Returns (indices of dropped/handled tokens, point index or -1, scaling, grouping, percent count).

    A run of commas right after a digit placeholder (or a digit written as a literal, "01,", or the
    point after a placeholder, "0.,") is the number's: after the last placeholder, or just before the
    point, each comma divides by 1000 ("0,": 1235; "0.,": 1235.; "01,": 12351); between integer
    placeholders it groups thousands ("0,0", "0,,0"); elsewhere it is dropped ("0,x0": 123456x8,
    "0.0,0": 1234567.89). Any other comma is written as it is, and a comma right after such a one
    is dropped ("0 ,,": 1234568 ,). (numfmt's Excel-checked cases.)"""
    point = next((k for k, (kind, _) in enumerate(section) if kind == "point"), -1)
    digit_at = [k for k, (kind, _) in enumerate(section) if kind == "digit"]
    last_digit = digit_at[-1] if digit_at else -1
    handled, scaling, grouping = [], 0, False
    k = 0
    while k < len(section):
        if section[k][0] != "comma":
            k += 1
            continue
        end = k
        while end < len(section) and section[end][0] == "comma":
            end += 1
        before = section[k - 1] if k else ("", "")
        anchored = before[0] == "digit" or before[0] == "lit" and before[1] in "123456789" and len(before[1]) == 1 \
            or before[0] == "point" and k >= 2 and section[k - 2][0] == "digit"
        run = list(range(k, end))
        if not anchored:
            handled.extend(run[1:])  # the first is written, the rest dropped
        else:
            handled.extend(run)
            at_end = k > last_digit or (end < len(section) and section[end][0] == "point" and end == point)
            if at_end:
                scaling += len(run)
            elif (point < 0 or k < point) and end < len(section) and section[end][0] == "digit":
                grouping = True
        k = end
    percent = sum(kind == "percent" for kind, _ in section)
    return handled, point, scaling, grouping, percent


def number_section(section: list[tuple[str, Any]], number: float) -> str:
    """``number`` (not negative) written by a section without date codes."""
    if any(kind == "general" for kind, _ in section):
        general = general_text(number)
        return "".join(general if kind == "general" else str(value) if kind in ("lit", "percent", "comma", "point")
                       else "" for kind, value in section if kind not in ("cond",))
    if not any(kind == "digit" for kind, _ in section):
        return "".join(str(value) for kind, value in section if kind in ("lit", "percent", "comma", "point", "slash"))
    if any(kind == "slash" for kind, _ in section) and _fraction_parts(section):
        return _fraction(section, number)
    exp_at = next((k for k, (kind, _) in enumerate(section) if kind == "exp"), -1)
    mantissa = section if exp_at < 0 else section[:exp_at]
    handled, point, scaling, grouping, percent = _layout(mantissa)
    value = significant(number) * Decimal(100) ** percent / Decimal(1000) ** scaling
    int_places = [v for k, (kind, v) in enumerate(mantissa) if kind == "digit" and (point < 0 or k < point)]
    dec_places = [v for k, (kind, v) in enumerate(mantissa) if kind == "digit" and point >= 0 and k > point]
    exponent_sign = ""
    if exp_at >= 0:
        value, exponent = _scientific(value, int_places, len(dec_places))
        # the exponent's digit placeholders, as an integer's: a 0 is a digit always shown, a # none
        # and a ? a space where the exponent has no digit, literals between them where they stand
        # ("0.00E+##" writes 1.22E+7, "0.00E+00" 1.22E+07, "0.00E+0x0" 1.23E+0x8)
        exp_places = [value for kind, value in section[exp_at + 1:] if kind == "digit"]
        exp_texts = _integer_text(str(abs(exponent)), exp_places, False)
        exponent_sign = "-" if exponent < 0 else ("+" if section[exp_at][1] == "+" else "")
    rounded = half_up(value, len(dec_places))
    whole, _, fraction = f"{rounded:f}".partition(".")
    whole = whole.lstrip("0")
    ints = _integer_text(whole, int_places, grouping and exp_at < 0)
    decs = _decimal_text(fraction.ljust(len(dec_places), "0")[:len(dec_places)], dec_places)
    out: list[str] = []
    int_index = dec_index = 0
    if not int_places and whole:
        if point >= 0:
            ints = [whole]
        else:
            out.append(whole)
    for k, (kind, value_) in enumerate(mantissa):
        if kind == "digit":
            if point < 0 or k < point:
                out.append(ints[int_index])
                int_index += 1
            else:
                out.append(decs[dec_index])
                dec_index += 1
        elif kind == "point":
            if k == point and not int_places and whole:
                out.append(ints[0])
            out.append(".")
        elif kind == "comma":
            if k not in handled:
                out.append(",")
        elif kind in ("lit", "percent", "slash"):
            out.append(str(value_))
    if exp_at >= 0:  # the exponent's sign goes before its first digit, after spaces between ("0 E+ 0": 1 E +7)
        out.append("E")
        places = iter(exp_texts)
        for kind, v in section[exp_at + 1:]:
            if kind == "digit":
                out.append(exponent_sign + next(places))
                exponent_sign = ""
            elif kind in ("lit", "percent", "point", "comma", "slash"):
                out.append(str(v))
    return "".join(out)


def _scientific(value: Decimal, int_places: list[str], decimals: int) -> tuple[Decimal, int]:
    """The mantissa and exponent of ``value`` for ``len(int_places)`` integer placeholders: with two or
    more, the exponent is a multiple of their count ("##0.0E+0" is engineering notation, 12.3E+3;
    "00.E+00" writes 9 as 09.E+00 and 100 as 01.E+02), with one the mantissa has one digit."""
    count = len(int_places)
    if value == 0:
        return value, 0
    magnitude = value.adjusted()
    step = count if count > 1 else 0
    for _ in range(2):
        if step:
            exponent = (magnitude // step) * step
        else:
            exponent = magnitude - (count - 1) if count else magnitude + 1
        mantissa = half_up(value.scaleb(-exponent), decimals)
        width = max(count, 1) if not step else step
        if mantissa.adjusted() < width:
            return mantissa, exponent
        magnitude += 1
    return mantissa, exponent


def _fraction_parts(section: list[tuple[str, Any]]) -> tuple[list[int], list[int], list[int], int] | None:
    """Token indices of a fraction's whole part, numerator and denominator, and its slash."""
    slash = next(k for k, (kind, _) in enumerate(section) if kind == "slash")
    numerator = []
    k = slash - 1
    while k >= 0 and section[k][0] == "digit":
        numerator.insert(0, k)
        k -= 1
    denominator = []
    k = slash + 1
    while k < len(section) and (section[k][0] == "digit" or section[k][0] == "lit" and section[k][1].isdigit()):
        denominator.append(k)
        k += 1
    if not numerator or not denominator:
        return None
    whole = [k for k in range(numerator[0]) if section[k][0] == "digit"]
    return whole, numerator, denominator, slash


def _fraction(section: list[tuple[str, Any]], number: float) -> str:
    whole_at, numerator_at, denominator_at, slash = _fraction_parts(section)
    value = significant(number)
    fixed = "".join(str(section[k][1]) for k in denominator_at)
    whole = int(value) if whole_at else 0
    rest = float(value - whole)
    if any(section[k][0] == "lit" for k in denominator_at):
        denominator = int(fixed.replace("#", "").replace("?", "0"))
        numerator = int(half_up(Decimal(rest) * denominator, 0))
    else:
        limit = 10 ** len(denominator_at) - 1
        best = (2.0, 0, 1)
        for d in range(1, limit + 1):
            n_ = int(half_up(Decimal(rest * d), 0))
            error = abs(rest - n_ / d)
            if error < best[0] - 1e-15:
                best = (error, n_, d)
        _, numerator, denominator = best
    literal_denominator = any(section[k][0] == "lit" for k in denominator_at)
    if whole_at and numerator == denominator and not literal_denominator:
        whole, numerator = whole + 1, 0
    num_places = [section[k][1] for k in numerator_at]
    den_places = [str(section[k][1]) for k in denominator_at]
    # a whole number: a 0 placeholder in the fraction writes it as 0/1 ("0 0/0": 1234 0/1, "00 00/00":
    # 01 00/01); without one the fraction is blank, ? a space and # nothing ("# ?/?": 3 and four
    # spaces, "# #/#": 3), and so is what stands between the whole part and it
    zero_fraction = bool(whole_at) and numerator == 0
    fixed = zero_fraction and "0" in num_places + den_places and not literal_denominator
    blank = zero_fraction and not fixed
    spaced = "?" in num_places + den_places
    # commas between the whole part's placeholders group its thousands ("0,0 0/0": 1,234,567 8/9)
    handled, _, _, grouping, _ = _layout(section[:numerator_at[0]]) if whole_at else ([], -1, 0, False, 0)
    dropped = {k for k in handled if whole_at[0] < k < whole_at[-1]} if grouping else set()
    ints = _integer_text(str(whole) if whole else "", [section[k][1] for k in whole_at], grouping)
    if zero_fraction and whole == 0:
        ints = _integer_text("0", [section[k][1] for k in whole_at], grouping)
    if blank:
        num_text = [" " if p == "?" else "" for p in num_places]
        den_texts = [" " if p == "?" else "" for p in den_places]
    elif fixed:
        num_text = _integer_text("", num_places, False)
        den_texts = [{"0": "0", "?": " ", "#": ""}[p] for p in den_places]
        if den_places[-1] == "0":
            den_texts[-1] = "1"
    else:
        num_text = _integer_text(str(numerator) if numerator else ("0" if not whole_at else ""), num_places, False)
        if literal_denominator:
            den_texts = den_places
        else:
            den = str(denominator)
            den_texts = [den[i] if i < len(den) else {"0": "0", "?": " ", "#": ""}[p] for i, p in enumerate(den_places)]
            if len(den) > len(den_places):
                den_texts[-1] = den[len(den_places) - 1:]
    between = range(whole_at[-1] + 1, numerator_at[0]) if whole_at else range(0)
    out = []
    int_index = 0
    for k, (kind, value_) in enumerate(section):
        if k in whole_at:
            out.append(ints[int_index])
            int_index += 1
        elif k in numerator_at:
            out.append(num_text[numerator_at.index(k)])
        elif k in denominator_at:
            out.append(den_texts[denominator_at.index(k)])
        elif k == slash:
            out.append("/" if not blank else " " if spaced else "")
        elif blank and not spaced and k in between or k in dropped:
            continue
        elif kind == "digit" and k > denominator_at[-1]:  # placeholders after a literal that ends the
            out.append({"0": "0", "?": " ", "#": ""}[value_])  # denominator pad ("0/0z0": 2/3z0)
        elif kind in ("lit", "percent", "point", "comma"):
            out.append(str(value_))
    return "".join(out)


