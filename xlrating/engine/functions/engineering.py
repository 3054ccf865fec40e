"""Excel's engineering functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

What ``formulas`` 1.3 gets wrong here, and the rule followed instead (Microsoft's function pages):

- The base conversions (BIN2DEC, BIN2OCT, BIN2HEX, OCT2BIN, OCT2DEC, OCT2HEX, DEC2BIN, DEC2OCT,
  DEC2HEX, HEX2BIN, HEX2DEC, HEX2OCT): ``formulas`` gave ``#VALUE!`` whenever ``places`` came from a
  cell, read ``"-A"``, ``" 1F"``, ``"0x1F"`` or ``"1_0"`` as numbers (Python's ``int``), refused a
  negative result when ``places`` was given, and padded to more than 10 places. Excel: a number in
  base 2, 8 or 16 has at most 10 digits, the 10th being the sign bit of a two's complement; a
  negative result is always those 10 characters (``places`` is then ignored, though still checked);
  ``places`` is truncated and must be 1 to 10, and at least the digits the result needs (#NUM!).
- BITAND, BITOR, BITXOR, BITLSHIFT, BITRSHIFT: ``formulas`` refused (2^48)-1 itself, which Excel
  allows ("greater than (2^48)-1" is the #NUM! case), and cut BITLSHIFT's result to 48 bits, while
  Excel shifts in zeros ("a 2-bit shift to the left ... of 4 ... 16").
- DELTA: ``formulas`` used ``numpy.isclose``, so DELTA(1, 1.000001) was 1; Excel's numbers must be
  equal (compared as Excel shows them, to 15 significant digits).
- CONVERT: ``formulas``' unit table computes the binary prefixes with XOR (``Gibyte`` is 224 bits,
  not 2^30 bytes) and multiplies factors in floating point (CONVERT(6,"ft","in") = 72.00000000000001,
  CONVERT(68,"F","C") = 20.000000000000057). Here each conversion is computed exactly from the
  decimal unit factors and rounded once, so the documented CONVERT(68,"F","C") is 20.
- BESSELI, BESSELK: ``formulas`` computed the functions exactly (scipy); Excel computes Abramowitz and
  Stegun's approximations, different from the eighth digit on (:mod:`.bessel`).
"""

from __future__ import annotations

import cmath
import functools
import json
import math
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from importlib.resources import files
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import wrap_func
from formulas.tokens.operand import Error, XlError

from .arguments import elementwise, scalar
from .text import number_text

_NUM: XlError = Error.errors["#NUM!"]
_VALUE: XlError = Error.errors["#VALUE!"]
_NA: XlError = Error.errors["#N/A"]

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_WIDTH = 10  # BIN, OCT and HEX numbers have at most 10 digits
_NUMBER_TEXT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


# --- arguments ----------------------------------------------------------------------------------

def _elementwise(func: Callable[..., Any]) -> Any:
    """``func`` of scalars applied entry by entry to array arguments (:func:`.arguments.elementwise`;
    the functions here read their numbers themselves, by their own rules)."""
    return elementwise(func, numbers=False)


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not _is_bool(value)


def _text_number(text: str) -> float | None:
    """Text that reads as a decimal number (``" 9"``, ``"-1.5e3"``), as that number; else None."""
    return float(text) if _NUMBER_TEXT.fullmatch(text) else None


def _number(value: Any) -> float | XlError:
    """A numeric argument: a number, an empty cell (0) or text that reads as a number; TRUE/FALSE
    and other text are ``#VALUE!`` (the base conversions' and DELTA's rule)."""
    if value is sh.EMPTY:
        return 0.0
    if _is_number(value):
        return float(value)
    if isinstance(value, str) and not _is_bool(value):
        number = _text_number(value)
        if number is not None:
            return number
    return _VALUE


# --- BIN, OCT and HEX numbers ------------------------------------------------------------------

def _digits_text(value: Any) -> str | XlError:
    """The text of a BIN/OCT/HEX ``number`` argument: a whole non-negative number is written out
    (BIN2DEC(1010) reads "1010"); any other number cannot be one (#NUM!); an empty cell or "" is "0"."""
    if _is_bool(value):
        return _VALUE
    if value is sh.EMPTY:
        return "0"
    if _is_number(value):
        number = float(value)
        if not (number >= 0 and number.is_integer() and number < 1e15):
            return _NUM
        return str(int(number))
    return str(value) or "0"


def _parse_digits(value: Any, radix: int) -> int | XlError:
    """A BIN/OCT/HEX ``number`` argument as the signed number it means: at most 10 digits of
    ``radix`` (either case), the 10th digit's top bit being the sign of a two's complement
    ("BIN2DEC: the most significant bit of number is the sign bit"). Anything else is #NUM!."""
    text = _digits_text(value)
    if isinstance(text, XlError):
        return text
    if len(text) > _WIDTH or any(_DIGITS.find(ch) not in range(radix) for ch in text.upper()):
        return _NUM
    number, full = int(text, radix), radix ** _WIDTH
    return number - full if number >= full // 2 else number


def _parse_places(value: Any) -> int | XlError:
    """``places``: truncated to a whole number, which must be 1 to 10 (#NUM!); not a number: #VALUE!."""
    places = _number(value)
    if isinstance(places, XlError):
        return places
    return int(places) if 1 <= places < _WIDTH + 1 else _NUM


def _format_digits(number: int, radix: int, width: int | None) -> str | XlError:
    """``number`` written in ``radix`` as Excel writes it: a negative number as the 10-digit two's
    complement (``width`` ignored); otherwise the fewest digits, or zero-padded to ``width``; #NUM!
    when the number needs more than 10 digits (with the sign bit) or more than ``width``."""
    full = radix ** _WIDTH
    if not -full // 2 <= number < full // 2:
        return _NUM
    text = np.base_repr(number + full if number < 0 else number, radix)
    if number < 0 or width is None:
        return text
    return text.zfill(width) if len(text) <= width else _NUM


def _parse_decimal(value: Any, radix: int) -> int | XlError:
    """DEC2BIN/DEC2OCT/DEC2HEX's ``number``: a number (text that reads as one too), truncated, within
    the range 10 digits of ``radix`` hold, e.g. -512 to 511 for DEC2BIN (#NUM! outside). Excel
    truncates first: the workbooks it saved have DEC2BIN(511.5) = "111111111" and DEC2BIN(-512.5) =
    "1000000000"."""
    number = _number(value)
    if isinstance(number, XlError):
        return number
    half = radix ** _WIDTH // 2
    whole = math.trunc(number) if math.isfinite(number) else None
    return whole if whole is not None and -half <= whole <= half - 1 else _NUM


def _from_digits(source: int) -> Callable[[Any], Any]:
    """BIN2DEC, OCT2DEC, HEX2DEC."""
    def to_decimal(number: Any) -> Any:
        value = _parse_digits(number, source)
        return value if isinstance(value, XlError) else float(value)
    return to_decimal


def _converter(parse: Callable[[Any], int | XlError], target: int) -> Callable[..., Any]:
    """A conversion to BIN/OCT/HEX of the number ``parse`` reads; ``places`` is checked first (Excel
    answers DEC2BIN("E", 0) with #NUM!, DEC2BIN("E", 1) with #VALUE!)."""
    def convert(number: Any, places: Any = None) -> Any:
        width = None if places is None else _parse_places(places)
        if isinstance(width, XlError):
            return width
        value = parse(number)
        return value if isinstance(value, XlError) else _format_digits(value, target, width)
    return convert


_BASES = {"BIN": 2, "OCT": 8, "HEX": 16}


def _base_conversions() -> dict[str, Callable[..., Any]]:
    conversions: dict[str, Callable[..., Any]] = {}
    for source_name, source in _BASES.items():
        conversions[f"{source_name}2DEC"] = _from_digits(source)
        conversions[f"DEC2{source_name}"] = _converter(
            functools.partial(_parse_decimal, radix=source), source)
        for target_name, target in _BASES.items():
            if target != source:
                conversions[f"{source_name}2{target_name}"] = _converter(
                    functools.partial(_parse_digits, radix=source), target)
    return conversions


# --- BITAND & co. -------------------------------------------------------------------------------

_BIT_LIMIT = 2 ** 48 - 1  # "If either number is greater than (2^48)-1, BITAND returns #NUM!"
_SHIFT_LIMIT = 53  # "If the absolute value of Shift_amount is greater than 53 ... #NUM!"


def _loose_number(value: Any) -> float | XlError:
    """A numeric argument where TRUE/FALSE count as 1/0 (as ``formulas`` reads the BIT* arguments)."""
    return float(value) if _is_bool(value) else _number(value)


def _bit_operand(value: Any) -> int | XlError:
    """A BIT* number: a whole number from 0 to (2^48)-1, else #NUM!; not a number: #VALUE!."""
    number = _loose_number(value)
    if isinstance(number, XlError):
        return number
    if not (number.is_integer() and 0 <= number <= _BIT_LIMIT):
        return _NUM
    return int(number)


def _bitwise(operation: Callable[[int, int], int]) -> Callable[[Any, Any], Any]:
    """BITAND, BITOR, BITXOR."""
    def apply(number1: Any, number2: Any) -> Any:
        a, b = _bit_operand(number1), _bit_operand(number2)
        if isinstance(a, XlError):
            return a
        return b if isinstance(b, XlError) else float(operation(a, b))
    return apply


def _shift(direction: int) -> Callable[[Any, Any], Any]:
    """BITLSHIFT (``direction`` 1) and BITRSHIFT (-1): zeros shifted in on the right, bits dropped on
    the right; a negative ``shift_amount`` shifts the other way; |shift_amount| above 53 is #NUM!."""
    def apply(number: Any, shift_amount: Any) -> Any:
        value = _bit_operand(number)
        if isinstance(value, XlError):
            return value
        amount = _loose_number(shift_amount)
        if isinstance(amount, XlError):
            return amount
        if abs(amount) >= _SHIFT_LIMIT + 1:
            return _NUM
        shift = int(amount) * direction
        return float(value << shift if shift >= 0 else value >> -shift)
    return apply


# --- DELTA ----------------------------------------------------------------------------------------

def _shown(number: float) -> float:
    """``number`` as Excel shows it: 15 significant digits."""
    return float(f"{number:.15g}")


def _delta(number1: Any, number2: Any = 0.0) -> Any:
    """DELTA: 1 if the two numbers are equal, else 0 (Microsoft, "DELTA function"); not numbers: #VALUE!."""
    a, b = _number(number1), _number(number2)
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    return 1.0 if _shown(a) == _shown(b) else 0.0


# --- CONVERT --------------------------------------------------------------------------------------

# Binary prefixes (Microsoft, "CONVERT function": ki = 2^10 ... Yi = 2^80), for "bit" and "byte" only.
_BINARY_PREFIXES = {"ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60, "Zi": 70, "Yi": 80}
_BITS = {"bit": 1, "byte": 8}
# Temperature scales as kelvin = (value + offset) * scale, exact.
_TEMPERATURES: dict[str, tuple[Fraction, Fraction]] = {
    "C": (Fraction("273.15"), Fraction(1)), "cel": (Fraction("273.15"), Fraction(1)),
    "F": (Fraction("459.67"), Fraction(5, 9)), "fah": (Fraction("459.67"), Fraction(5, 9)),
    "Rank": (Fraction(0), Fraction(5, 9)), "Reau": (Fraction("218.52"), Fraction(5, 4)),
}


@functools.lru_cache(maxsize=1)
def _unit_table() -> dict[str, dict[str, float]]:
    """``formulas``' table of Excel's units: unit -> {quantity: factor to the quantity's base unit}."""
    return json.loads(files("formulas.functions").joinpath("units.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _unit(name: str) -> tuple[str, Fraction] | None:
    """A unit of CONVERT as (quantity, exact factor to the quantity's base unit), or None if unknown."""
    for prefix, power in _BINARY_PREFIXES.items():
        for base, bits in _BITS.items():
            if name == prefix + base:
                return "information", Fraction(2 ** power * bits)
    entry = _unit_table().get(name)
    if not entry:
        return None
    quantity, factor = next(iter(entry.items()))
    return quantity, Fraction(repr(float(factor)))  # the decimal the table writes, exactly


def _to_kelvin(number: Fraction, unit: str, factor: Fraction) -> Fraction:
    offset, scale = _TEMPERATURES.get(unit, (Fraction(0), factor))
    return (number + offset) * scale


def _from_kelvin(kelvin: Fraction, unit: str, factor: Fraction) -> Fraction:
    offset, scale = _TEMPERATURES.get(unit, (Fraction(0), factor))
    return kelvin / scale - offset


def _convert(number: Any, from_unit: Any, to_unit: Any) -> Any:
    """CONVERT: ``number`` from one unit to another of the same quantity; an unknown unit or units of
    different quantities: #N/A; a number that is not one: #VALUE! (Microsoft, "CONVERT function")."""
    source = _unit(from_unit) if isinstance(from_unit, str) else None
    target = _unit(to_unit) if isinstance(to_unit, str) else None
    if source is None or target is None or source[0] != target[0]:
        return _NA
    value = _number(number)
    if isinstance(value, XlError):
        return value
    exact = Fraction(repr(value))  # the number as Excel shows it: CONVERT(491.67,"Rank","C") is 0
    if source[0] == "temperature":
        return _rounded(_from_kelvin(_to_kelvin(exact, from_unit, source[1]), to_unit, target[1]))
    return _rounded(exact * source[1] / target[1])


def _rounded(exact: Fraction) -> float | XlError:
    """An exact result as the nearest double; beyond the doubles' range: #NUM!."""
    try:
        return float(exact)
    except OverflowError:
        return _NUM


_BESSEL_DOMAIN = {"BESSELI": lambda x: True, "BESSELJ": lambda x: True, "BESSELK": lambda x: x > 0,
                  "BESSELY": lambda x: x > 0}
# BESSELJ for |x| >= 8: Excel's values are neither J_n(x) nor the published large-argument form the
# other Bessel functions follow (IronCalc's ENGINEERING_BESSEL, saved by Excel: BESSELJ(10, 1) is
# 0.04347224965225415, J1(10) 0.04347274616886144), so such a cell is left not computed.
_J_APPROXIMATED_BELOW = 8.0


def _bessel(name: str) -> Any:
    """BESSELI, BESSELJ, BESSELK or BESSELY(x, n): arguments read as ``formulas`` reads them (n
    truncated, TRUE or FALSE #VALUE!); n below 0, K and Y of x <= 0 and results past the doubles are
    #NUM!; BESSELJ of |x| >= 8 is not computed (a warning names the cell)."""
    from formulas.functions.eng import _parse_x_n

    from . import bessel

    compute = {"BESSELI": bessel.bessel_i, "BESSELJ": bessel.bessel_j, "BESSELK": bessel.bessel_k,
               "BESSELY": bessel.bessel_y}[name]
    in_domain = _BESSEL_DOMAIN[name]

    def bessel_function(x: Any, n: Any) -> Any:
        number, order = _parse_x_n(x, n)
        if order < 0 or not in_domain(number):
            return _NUM
        if name == "BESSELJ" and abs(number) >= _J_APPROXIMATED_BELOW:
            from ..formula.values import not_computed

            raise not_computed(f"BESSELJ({number!r}, {order}): Excel's approximation for |x| >= 8 is not "
                               "known to the engine")
        try:
            value = compute(number, order)
        except OverflowError:
            return _NUM
        return value if math.isfinite(value) else _NUM

    bessel_function.__name__ = name.lower()
    return wrap_func(bessel_function)


FUNCTIONS: dict[str, Any] = {name: _elementwise(func) for name, func in _base_conversions().items()}
FUNCTIONS.update({
    "BITAND": _elementwise(_bitwise(lambda a, b: a & b)),
    "BITOR": _elementwise(_bitwise(lambda a, b: a | b)),
    "BITXOR": _elementwise(_bitwise(lambda a, b: a ^ b)),
    "BITLSHIFT": _elementwise(_shift(1)),
    "BITRSHIFT": _elementwise(_shift(-1)),
    "DELTA": _elementwise(_delta),
    "CONVERT": _elementwise(_convert),
    "BESSELI": _bessel("BESSELI"),
    "BESSELJ": _bessel("BESSELJ"),
    "BESSELK": _bessel("BESSELK"),
    "BESSELY": _bessel("BESSELY"),
})


# --- complex numbers (COMPLEX and the IM functions) ------------------------------------------------
#
# Excel's complex numbers are texts "x+yi" or "x+yj" (Microsoft, "COMPLEX function": "All complex
# number functions accept "i" and "j" for suffix, but neither "I" nor "J"... All functions that
# accept two or more complex numbers require that all suffixes match"). The results are written as
# Excel writes them: each part with 15 significant digits (text.number_text), "i" alone for an
# imaginary part of 1, a zero part left out, so IMSQRT("-4") is "2i" and IMEXP("1+i")
# "1.46869393991589+2.28735528717884i". ``formulas`` 1.3 wrote Python's repr of each part
# ("1.4686939399158851+2.2873552871788423i", "6.924426746138675E-05"), gave a real number's text a
# "j" (IMSQRT("-4") was "2j"), read "3 + 4I", "(3+4j)" or "infj" as complex numbers, and IMARGUMENT
# of a number on the imaginary axis was #DIV/0!. Decimal notation goes up to 21 characters here,
# one more than for ``&``: the workbooks Excel saved write IMTAN("13+5j")'s real part
# 6.92361330972509E-05 as "0.0000692361330972509" and 1.28233995888454E-06 in scientific notation.



_IM_TEXT_WIDTH = 21
_DIV0: XlError = Error.errors["#DIV/0!"]
_COEFFICIENT = r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
# "x", "x+yi" (the imaginary part signed, its coefficient 1 when left out) and "yi" ("i", "-j")
_REAL_ONLY = re.compile(rf"[+-]?{_COEFFICIENT}")
_BOTH_PARTS = re.compile(rf"(?P<real>[+-]?{_COEFFICIENT})(?P<imag>[+-](?:{_COEFFICIENT})?)(?P<suffix>[ij])")
_IMAGINARY_ONLY = re.compile(rf"(?P<imag>[+-]?(?:{_COEFFICIENT})?)(?P<suffix>[ij])")


class _Failed(Exception):
    """An argument that makes the function's result an error."""

    def __init__(self, error: XlError):
        super().__init__(str(error))
        self.error = error


def _single(value: Any) -> Any:
    """A scalar argument's value (a one-cell reference's too); a larger range or array: #VALUE!."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise _Failed(_VALUE)
        value = scalar(value)
    if isinstance(value, XlError):
        raise _Failed(value)
    return value


def _parse_inumber(text: str) -> tuple[complex, str | None]:
    """Text "x+yi", "x-yj", "yi", "i", "-j" or "x" as (the number, its suffix or None); else #NUM!."""
    if _REAL_ONLY.fullmatch(text):
        return complex(float(text), 0.0), None
    match = _BOTH_PARTS.fullmatch(text) or _IMAGINARY_ONLY.fullmatch(text)
    if match is None:
        raise _Failed(_NUM)
    imag = match["imag"]
    coefficient = float(imag + "1") if imag in ("", "+", "-") else float(imag)
    real = float(match["real"]) if "real" in match.groupdict() else 0.0
    return complex(real, coefficient), match["suffix"]


def _inumber(value: Any) -> tuple[complex, str | None]:
    """An ``inumber`` argument: complex text, a number (its real part) or an empty cell (0); TRUE or
    FALSE: #VALUE!; text that is no complex number: #NUM!; an error: that error."""
    value = _single(value)
    if value is sh.EMPTY or value is None:
        return 0j, None
    if _is_bool(value):
        raise _Failed(_VALUE)
    if _is_number(value):
        return complex(float(value), 0.0), None
    if isinstance(value, str):
        return _parse_inumber(value)
    raise _Failed(_VALUE)


def _complex_text(number: complex, suffix: str | None) -> str:
    """``number`` as Excel writes a complex number; an infinite or undefined part: #NUM!."""
    if not (math.isfinite(number.real) and math.isfinite(number.imag)):
        raise _Failed(_NUM)
    real = number_text(number.real, _IM_TEXT_WIDTH)
    imag = number_text(abs(number.imag), _IM_TEXT_WIDTH)
    if imag == "0":
        return real
    imag = ("" if imag == "1" else imag) + (suffix or "i")
    if real == "0":
        return "-" + imag if number.imag < 0 else imag
    return real + ("-" if number.imag < 0 else "+") + imag


def _complex_function(func: Callable[..., Any]) -> Any:
    """``func`` as a ``formulas`` implementation: :class:`_Failed` is its error, an overflow or a
    division by zero #NUM!, another exception #VALUE! (``formulas``' wrapper)."""

    def evaluate(*args: Any) -> Any:
        try:
            return func(*args)
        except _Failed as failed:
            return failed.error
        except (OverflowError, ZeroDivisionError):
            return _NUM

    evaluate.__name__ = func.__name__
    return wrap_func(evaluate)


def _unary(operation: Callable[[complex], complex]) -> Callable[[Any], str]:
    """An IM function of one complex number giving one (IMSQRT, IMEXP ...)."""

    def apply(inumber: Any) -> str:
        number, suffix = _inumber(inumber)
        return _complex_text(operation(number), suffix)

    apply.__name__ = getattr(operation, "__name__", "im")
    return apply


def _part(extract: Callable[[complex], float]) -> Callable[[Any], float]:
    """An IM function of one complex number giving a number (IMABS, IMREAL, IMAGINARY)."""

    def apply(inumber: Any) -> float:
        return extract(_inumber(inumber)[0]) + 0.0  # no -0

    return apply


def _complex(real_num: Any, i_num: Any, suffix: Any = "i") -> str:
    """COMPLEX: the text of real_num + i_num * suffix; a suffix other than "i" or "j" (omitted or
    empty: "i"): #VALUE!; a coefficient that is no number (TRUE, text): #VALUE!."""
    suffix = _single(suffix)
    if suffix is sh.EMPTY or suffix == "":
        suffix = "i"
    if suffix not in ("i", "j"):
        raise _Failed(_VALUE)
    parts = []
    for value in (real_num, i_num):
        number = _number(_single(value))
        if isinstance(number, XlError):
            raise _Failed(number)
        parts.append(number)
    return _complex_text(complex(*parts), suffix)


def _argument(inumber: Any) -> float:
    """IMARGUMENT: the angle theta in radians, -pi < theta <= pi; of 0: #DIV/0!."""
    number = _inumber(inumber)[0]
    if number == 0:
        raise _Failed(_DIV0)
    return math.atan2(number.imag, number.real)


def _pair(operation: Callable[[complex, complex], complex]) -> Callable[[Any, Any], str]:
    """IMSUB and IMDIV: two complex numbers; different suffixes: #NUM!."""

    def apply(inumber1: Any, inumber2: Any) -> str:
        (first, suffix1), (second, suffix2) = _inumber(inumber1), _inumber(inumber2)
        if suffix1 and suffix2 and suffix1 != suffix2:
            raise _Failed(_NUM)
        return _complex_text(operation(first, second), suffix1 or suffix2)

    apply.__name__ = getattr(operation, "__name__", "im")
    return apply


def _values(args: tuple[Any, ...]) -> Iterator[Any]:
    """Every value of the arguments, a range's or an array's cells row by row."""
    for arg in args:
        if isinstance(arg, np.ndarray):
            yield from arg.ravel()
        else:
            yield arg


def _accumulate(operation: Callable[[complex, complex], complex], start: complex) -> Callable[..., str]:
    """IMSUM and IMPRODUCT: every complex number of the arguments (ranges' cells too, an empty one
    being 0), read in order; different suffixes: #VALUE!."""

    def apply(*inumbers: Any) -> str:
        total, suffix = start, None
        for value in _values(inumbers):
            number, its_suffix = _inumber(value)
            if suffix and its_suffix and its_suffix != suffix:
                raise _Failed(_VALUE)
            suffix = suffix or its_suffix
            total = operation(total, number)
        return _complex_text(total, suffix)

    return apply


def _divide(dividend: complex, divisor: complex) -> complex:
    """(a+bi)/(c+di) = ((ac+bd) + (bc-ad)i) / (c²+d²), as Microsoft's IMDIV page writes it:
    IMDIV("-238+240i","10+24i") is exactly 5+12i."""
    a, b, c, d = dividend.real, dividend.imag, divisor.real, divisor.imag
    denominator = c * c + d * d
    if denominator == 0:
        raise _Failed(_NUM)
    return complex((a * c + b * d) / denominator, (b * c - a * d) / denominator)


def _power(inumber: Any, number: Any) -> str:
    """IMPOWER: z^n in polar form, r^n (cos(n theta) + i sin(n theta)) (Microsoft, "IMPOWER
    function"), so IMPOWER("2+3i", 3) is "-46+9.00000000000001i" as Excel shows; 0 to a positive
    power is 0, to another one #NUM!; ``number`` not a number: #VALUE!."""
    base, suffix = _inumber(inumber)
    exponent = _number(_single(number))
    if isinstance(exponent, XlError):
        raise _Failed(exponent)
    if base == 0:
        if exponent > 0:
            return "0"
        raise _Failed(_NUM)
    modulus, theta = abs(base) ** exponent, math.atan2(base.imag, base.real) * exponent
    return _complex_text(complex(modulus * math.cos(theta), modulus * math.sin(theta)), suffix)


def _log(base: float) -> Callable[[complex], complex]:
    """IMLN, IMLOG10, IMLOG2: ln(z) / ln(base); of 0: #NUM!."""
    divisor = math.log(base)

    def logarithm(number: complex) -> complex:
        if number == 0:
            raise _Failed(_NUM)
        return cmath.log(number) / divisor

    return logarithm


# The trigonometric and hyperbolic functions by their real-number formulas, z = x + yi: computed so
# they give the very parts Excel saved for IMTAN, IMCOT, IMSEC ... of "7+25j", "13+5j", "3.1+2j",
# "-3+2i" and "-13+25j" (Python's cmath.tan gives 0.009884375038322495 for IMTAN("-3+2i")'s real
# part, Excel 0.00988437503832249). A zero denominator (IMCOT(0), IMCSC(0)) and an overflow are #NUM!.

def _sin(z: complex) -> complex:
    return complex(math.sin(z.real) * math.cosh(z.imag), math.cos(z.real) * math.sinh(z.imag))


def _cos(z: complex) -> complex:
    return complex(math.cos(z.real) * math.cosh(z.imag), -math.sin(z.real) * math.sinh(z.imag))


def _tan(z: complex) -> complex:
    denominator = math.cos(2 * z.real) + math.cosh(2 * z.imag)
    return complex(math.sin(2 * z.real) / denominator, math.sinh(2 * z.imag) / denominator)


def _cot(z: complex) -> complex:
    denominator = math.cosh(2 * z.imag) - math.cos(2 * z.real)
    return complex(math.sin(2 * z.real) / denominator, -math.sinh(2 * z.imag) / denominator)


def _sec(z: complex) -> complex:
    denominator = math.cosh(2 * z.imag) + math.cos(2 * z.real)
    return complex(2 * math.cos(z.real) * math.cosh(z.imag) / denominator,
                   2 * math.sin(z.real) * math.sinh(z.imag) / denominator)


def _csc(z: complex) -> complex:
    denominator = math.cosh(2 * z.imag) - math.cos(2 * z.real)
    return complex(2 * math.sin(z.real) * math.cosh(z.imag) / denominator,
                   -2 * math.cos(z.real) * math.sinh(z.imag) / denominator)


def _sinh(z: complex) -> complex:
    return complex(math.sinh(z.real) * math.cos(z.imag), math.cosh(z.real) * math.sin(z.imag))


def _cosh(z: complex) -> complex:
    return complex(math.cosh(z.real) * math.cos(z.imag), math.sinh(z.real) * math.sin(z.imag))


def _sech(z: complex) -> complex:
    denominator = math.cosh(2 * z.real) + math.cos(2 * z.imag)
    return complex(2 * math.cosh(z.real) * math.cos(z.imag) / denominator,
                   -2 * math.sinh(z.real) * math.sin(z.imag) / denominator)


def _csch(z: complex) -> complex:
    denominator = math.cosh(2 * z.real) - math.cos(2 * z.imag)
    return complex(2 * math.sinh(z.real) * math.cos(z.imag) / denominator,
                   -2 * math.cosh(z.real) * math.sin(z.imag) / denominator)


_IM_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "COMPLEX": _complex,
    "IMABS": _part(abs),
    "IMREAL": _part(lambda number: number.real),
    "IMAGINARY": _part(lambda number: number.imag),
    "IMARGUMENT": _argument,
    "IMCONJUGATE": _unary(lambda number: number.conjugate()),
    "IMSUM": _accumulate(lambda total, number: total + number, 0j),
    "IMPRODUCT": _accumulate(lambda total, number: total * number, 1 + 0j),
    "IMSUB": _pair(lambda first, second: first - second),
    "IMDIV": _pair(_divide),
    "IMPOWER": _power,
    "IMSQRT": _unary(cmath.sqrt),
    "IMEXP": _unary(cmath.exp),
    "IMLN": _unary(_log(math.e)),  # ln(e) is exactly 1.0
    "IMLOG10": _unary(_log(10.0)),
    "IMLOG2": _unary(_log(2.0)),
    "IMSIN": _unary(_sin),
    "IMCOS": _unary(_cos),
    "IMTAN": _unary(_tan),
    "IMCOT": _unary(_cot),
    "IMSEC": _unary(_sec),
    "IMCSC": _unary(_csc),
    "IMSINH": _unary(_sinh),
    "IMCOSH": _unary(_cosh),
    "IMSECH": _unary(_sech),
    "IMCSCH": _unary(_csch),
}
FUNCTIONS.update({name: _complex_function(func) for name, func in _IM_FUNCTIONS.items()})


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "BESSELI": {"toolpak": "all"},
    "BESSELJ": {"toolpak": "all"},
    "BESSELK": {"toolpak": "all"},
    "BESSELY": {"toolpak": "all"},
    "BIN2DEC": {"toolpak": "all", "pure": True},
    "BIN2HEX": {"toolpak": "all", "pure": True},
    "BIN2OCT": {"toolpak": "all", "pure": True},
    "BITAND": {"scalars": "all"},
    "BITLSHIFT": {"scalars": "all"},
    "BITOR": {"scalars": "all"},
    "BITRSHIFT": {"scalars": "all"},
    "BITXOR": {"scalars": "all"},
    "COMPLEX": {"toolpak": "all"},
    "CONVERT": {"toolpak": "all"},
    "DEC2BIN": {"toolpak": "all", "pure": True},
    "DEC2HEX": {"toolpak": "all", "pure": True},
    "DEC2OCT": {"toolpak": "all", "pure": True},
    "DELTA": {"toolpak": "all"},
    "HEX2BIN": {"toolpak": "all", "pure": True},
    "HEX2DEC": {"toolpak": "all", "pure": True},
    "HEX2OCT": {"toolpak": "all", "pure": True},
    "IMABS": {"toolpak": "all"},
    "IMAGINARY": {"toolpak": "all"},
    "IMARGUMENT": {"toolpak": "all"},
    "IMCONJUGATE": {"toolpak": "all"},
    "IMCOS": {"toolpak": "all"},
    "IMCOSH": {"scalars": "all"},
    "IMCOT": {"scalars": "all"},
    "IMCSC": {"scalars": "all"},
    "IMCSCH": {"scalars": "all"},
    "IMDIV": {"toolpak": "all"},
    "IMEXP": {"toolpak": "all"},
    "IMLN": {"toolpak": "all"},
    "IMLOG10": {"toolpak": "all"},
    "IMLOG2": {"toolpak": "all"},
    "IMPOWER": {"toolpak": "all"},
    "IMPRODUCT": {},
    "IMREAL": {"toolpak": "all"},
    "IMSEC": {"scalars": "all"},
    "IMSECH": {"scalars": "all"},
    "IMSIN": {"toolpak": "all"},
    "IMSINH": {"scalars": "all"},
    "IMSQRT": {"toolpak": "all"},
    "IMSUB": {"toolpak": "all"},
    "IMSUM": {},
    "IMTAN": {"scalars": "all"},
    "OCT2BIN": {"toolpak": "all", "pure": True},
    "OCT2DEC": {"toolpak": "all", "pure": True},
    "OCT2HEX": {"toolpak": "all", "pure": True},
}
