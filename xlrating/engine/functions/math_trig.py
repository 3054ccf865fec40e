"""Excel's math and trigonometry functions where the engine computes them itself (see
:mod:`xlrating.engine.functions`).

What ``formulas`` 1.3 gets wrong here, and the rule followed instead (Microsoft's function pages):

- Extreme arguments. TRUNC(x, 1E+100) never returned (``10 ** int(1E+100)``); TRUNC(1.5, 400),
  INT(1E+300), EVEN(1E+308), CEILING(1E+300, 1E-300) and FLOOR.MATH of such gave #VALUE!; FACT(1E+8)
  and FACTDOUBLE(1E+9) would compute for minutes or exhaust memory, FACTDOUBLE(40) and up wrapped
  around 64-bit integers (FACTDOUBLE(400) was 0), PRODUCT(1E+200, 1E+200) was ``inf``. Here every
  result is a finite double or the error Excel gives: #NUM! when the result (or the quotient of
  CEILING & co.) is beyond the doubles' range, FACT above 170 and FACTDOUBLE above 300 included.
- TRUNC is ROUNDDOWN: it truncates the number as Excel shows it (15 significant digits), so
  TRUNC(1.23456789, 10) is 1.23456789, not 1.2345678899 (:mod:`xlrating.engine.maths.rounding`).
- MROUND rounds half away from zero ("rounds up, away from zero, if the remainder ... is greater
  than or equal to half the value of multiple"): MROUND(1.3, 0.2) is 1.4, MROUND(7.05, 0.1) is 7.1
  (``formulas`` rounded half to even: 1.2 and 7.0). MROUND(6.05, 0.1) stays 6.0, as Microsoft notes.
- CEILING.MATH, FLOOR.MATH, CEILING.PRECISE, FLOOR.PRECISE, ISO.CEILING without a significance
  dropped the sign of a negative number: CEILING.PRECISE(-4.3) was 5 (Excel: -4).
- CEILING, FLOOR and the five above took the double quotient as it came (FLOOR(7.1, 0.1) was 7.0;
  Excel: 7.1000000000000005, the quotient at 15 digits, 71, times 0.1), gave FLOOR(0, 0) #DIV/0!
  (Excel: 0), answered the second argument's error before the first's unreadable text
  (FLOOR("eight", 1/0): Excel #VALUE!) and read " 2024-01-10 " and "--8" as dates (Excel: #VALUE!).
  The rules, with the workbook Excel saved that shows them, are at "CEILING & FLOOR" below.
- BASE was missing. DECIMAL read " 11", "1_1", "-11" and "0x1F" as numbers (Python's ``int``), took
  radix 0, and read a number from a cell as "111.0" (#NUM!).
- RANDBETWEEN returned fractions (``bottom + (top - bottom) * rand()``); Excel returns a whole number.
- PRODUCT and SUMSQ count what Excel counts (:mod:`.number_lists`): ``formulas`` multiplied the
  text "8" and TRUE of a cell, and PRODUCT of no numbers was 1 (Excel: 0). ATAN2 of arrays of
  different sizes could not be computed; Excel's result has #N/A past the shorter one.
- ROMAN took FALSE as the classic form (Excel: the most concise, form 4): ROMAN(499, FALSE) is ID.
- SUMIF, SUMIFS: Excel's criteria (:mod:`.criteria`); ``formulas`` matched "*a" anywhere in a text,
  took TRUE as 1 for ">0", and its SUMIFS answered ranges of different shapes.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from decimal import ROUND_DOWN
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array, wrap_func, wrap_ufunc
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted
from ..maths.plain_numbers import WHOLE, integer
from ..maths.rounding import excel_round
from . import criteria
from .arguments import as_objects, elementwise, number, quiet, scalar, text_number
from .dynamic_arrays import check_size
from .library import formulas_function
from .lifting import pairwise
from .number_lists import Rejected, numbers, single

_NUM: XlError = Error.errors["#NUM!"]
_VALUE: XlError = Error.errors["#VALUE!"]
_NA: XlError = Error.errors["#N/A"]
_DIV0: XlError = Error.errors["#DIV/0!"]

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# --- arguments ----------------------------------------------------------------------------------

def _shown(number: float) -> float:
    """A multiple as the decimal it is (15 significant digits, Excel's precision): 7 * 0.2 is 1.4,
    not the double product 1.4000000000000001."""
    return float(f"{number:.15g}")


# --- INT, TRUNC, EVEN, ODD, MROUND ------------------------------------------------------------

def _trunc(number: float, num_digits: float | None = None) -> Any:
    """TRUNC: ``number`` truncated to ``num_digits`` decimals (0 if omitted), the same as ROUNDDOWN
    (Microsoft, "TRUNC function"): on the number as Excel shows it, any digit count allowed."""
    return excel_round(number, 0.0 if num_digits is None else num_digits, ROUND_DOWN)


def _even(number: float) -> float:
    """EVEN: ``number`` rounded away from zero to the nearest even integer (Microsoft, "EVEN function")."""
    magnitude = 2.0 * math.ceil(abs(number) / 2)
    return -magnitude if number < 0 else magnitude


def _odd(number: float) -> float:
    """ODD: ``number`` rounded away from zero to the nearest odd integer; ODD(0) is 1 (Microsoft, "ODD function")."""
    whole = math.ceil(abs(number))
    magnitude = float(whole if whole % 2 else whole + 1)
    return -magnitude if number < 0 else magnitude


def _mround(number: float, multiple: float) -> Any:
    """MROUND: ``number`` rounded to the nearest multiple of ``multiple``, a half away from zero; #NUM!
    when the two have different signs (Microsoft, "MROUND function"). The halfway test is on the
    quotient as a double, which is why Microsoft notes MROUND(6.05, 0.1) = 6.0 but MROUND(7.05, 0.1) = 7.1."""
    if number == 0 or multiple == 0:
        return 0.0
    if (number < 0) != (multiple < 0):
        return _NUM
    quotient = number / multiple
    if not math.isfinite(quotient):
        return _NUM
    return _shown(math.floor(quotient + 0.5) * multiple) if quotient < WHOLE else number


# --- CEILING & FLOOR --------------------------------------------------------------------------------
#
# What Excel does, found in the workbook Excel saved for IronCalc's tests
# (calc_tests/MATH_AND_TRIGONOMETRY_FLOOR_CEILING.xlsx: a grid of numbers x significances for each of
# the seven functions, 11,201 cells); every rule below reproduces all of its cached values:
#
# - The quotient number / significance is taken at Excel's precision, 15 significant digits, before
#   it is rounded up or down, and the result is that whole quotient times the significance, the
#   double product, not rounded again: FLOOR(7.1, 0.1) is 71 * 0.1 = 7.1000000000000005 (7.1 / 0.1
#   is the double 70.99999999999999, whose floor would give 7.0); FLOOR(-7.9, 1E-12) is
#   -7.8999999999999995 (the quotient -7900000000000.001 is -7900000000000 at 15 digits);
#   CEILING(7.1, 1E-307) is 7.099999999999999 (quotient 7.1E+307 times 1E-307: a quotient beyond
#   2^52 is rounded and multiplied all the same, not answered with the number).
# - FLOOR of 0 is 0 whatever the significance, 0 included (FLOOR(0, 0), FLOOR(FALSE, 0), FLOOR("0", 0),
#   FLOOR(<empty>, 0): 0); FLOOR of another number with significance 0 stays #DIV/0! (Microsoft,
#   "FLOOR function").
# - The arguments are read in order, and the first that is an error or text that is no number stops
#   the function with that: FLOOR("eight", 1/0), FLOOR("", NA()) are #VALUE!, not the second
#   argument's error.
# - Text is a number when it reads as one, spaces around it allowed (" 10 " is 10, "7.0e0" is 7), or
#   when it is a date as typed ("2024-01-10" is 45301); a date text with spaces around it
#   (" 2024-01-10 ") or text starting with a sign or separator that is no number ("--8") is #VALUE!
#   (the same in that workbook's neighbours: EXP, SIGN, GCD, LCM, MROUND, TRUNC, INT, COT of
#   " 2024-01-10 " and "--8" are #VALUE!, of " 10 " a number). ``formulas``' date reader took both as
#   dates ("--8" as 8 January of the current year).


def _rounding_argument(value: Any) -> Any:
    """One argument of CEILING & co. as a number, or the error it stops the function with (above)."""
    value = scalar(value)
    if isinstance(value, XlError):
        return value
    if isinstance(value, str) and value is not sh.EMPTY:  # an empty cell (a str too) is 0
        return _text_argument(value)
    read = number(value)
    if read is None:
        return _VALUE
    return read if math.isfinite(read) else _NUM


def _text_argument(text: str) -> Any:
    """Text as CEILING & co. read it: a number written out, spaces around it allowed (" 10 ", "-8",
    "7.0e0"; not Python's "1_000", "inf"), or a date typed as text that starts and ends with a letter
    or digit ("2024-01-10", not " 2024-01-10 " or "--8"); anything else #VALUE!."""
    if "_" in text:
        return _VALUE
    try:
        read = float(text)
    except ValueError:
        if not (text[:1].isalnum() and text[-1:].isalnum()):
            return _VALUE
        date = text_number(text)
        return _VALUE if date is None else date
    return read if math.isfinite(read) else _VALUE


def _in_order(func: Callable[..., Any], logical: bool = True, left_out: XlError | None = None) -> Any:
    """``func`` of numbers as a ``formulas`` implementation, entry by entry over arrays, its arguments
    read one after the other: the first error or unreadable argument is the answer (without
    ``logical``, TRUE or FALSE is one: #VALUE!; with ``left_out``, an argument left out between
    commas is that error)."""
    def call(*args: Any) -> Any:
        numbers = []
        for arg in args:
            if left_out is not None and is_omitted(scalar(arg)):
                return left_out
            if not logical and isinstance(scalar(arg), (bool, np.bool_)):
                return _VALUE
            read = _rounding_argument(arg)
            if isinstance(read, XlError):
                return read
            numbers.append(read)
        return func(*numbers)
    call.__name__ = func.__name__
    return quiet(wrap_ufunc(call, input_parser=lambda *a: a, args_parser=as_objects, check_error=lambda *a: None))


def _to_multiple(number: float, significance: float, up: bool) -> Any:
    """``number`` rounded up (towards +infinity) or down to a multiple of ``significance`` (> 0 or < 0):
    the quotient at 15 significant digits rounded, times ``significance``; #NUM! when the quotient
    or the result overflows."""
    quotient = number / significance
    if not math.isfinite(quotient):
        return _NUM
    quotient = _shown(quotient)
    result = (math.ceil(quotient) if up else math.floor(quotient)) * significance
    return result if math.isfinite(result) else _NUM


def _ceiling(number: float, significance: float) -> Any:
    """CEILING: ``number`` rounded up, away from zero, to a multiple of ``significance``; a negative
    number with a positive significance rounds towards zero; a positive number with a negative
    significance is #NUM!; a significance of 0 gives 0 (Microsoft, "CEILING function")."""
    if significance == 0 or number == 0:
        return 0.0
    if significance < 0 < number:
        return _NUM
    return _to_multiple(number, significance, up=True)


def _ecma_ceiling(number: float, significance: float) -> Any:
    """ECMA.CEILING: CEILING as ECMA-376 (1st edition) defines it and Excel 2007 computed it: away
    from zero to a multiple of ``significance``, #NUM! when the two have different signs (CEILING
    since Excel 2010 rounds a negative number with a positive significance towards zero); 0 when
    either is 0."""
    if significance == 0 or number == 0:
        return 0.0
    if (number < 0) != (significance < 0):
        return _NUM
    return _to_multiple(number, significance, up=True)


def _floor(number: float, significance: float) -> Any:
    """FLOOR: ``number`` rounded down, towards zero, to a multiple of ``significance``; a negative number
    with a positive significance rounds away from zero; a positive number with a negative
    significance is #NUM!; a significance of 0 is #DIV/0! (Microsoft, "FLOOR function") unless the
    number is 0: FLOOR(0, 0) is 0 (the workbook above)."""
    if number == 0:
        return 0.0
    if significance == 0:
        return _DIV0
    if significance < 0 < number:
        return _NUM
    return _to_multiple(number, significance, up=False)


def _math_rounding(up: bool) -> Callable[..., Any]:
    """CEILING.MATH (``up``) and FLOOR.MATH: to a multiple of |significance| (1 if omitted), up or down
    (towards +infinity or -infinity); a nonzero ``mode`` makes a negative number go the other way
    (away from zero for CEILING.MATH, towards zero for FLOOR.MATH) (Microsoft, "CEILING.MATH function",
    "FLOOR.MATH function")."""
    def rounded(number: float, significance: float | None = None, mode: float | None = None) -> Any:
        step = 1.0 if significance is None else abs(significance)
        if step == 0:
            return 0.0
        direction = up != bool(mode and number < 0)
        return _to_multiple(number, step, up=direction)
    rounded.__name__ = "ceiling_math" if up else "floor_math"
    return rounded


def _precise_rounding(up: bool) -> Callable[..., Any]:
    """CEILING.PRECISE and ISO.CEILING (``up``), FLOOR.PRECISE: to a multiple of |significance| (1 if
    omitted), towards +infinity or -infinity whatever the signs (Microsoft, "CEILING.PRECISE function",
    "ISO.CEILING function", "FLOOR.PRECISE function": CEILING.PRECISE(-4.3) is -4)."""
    def rounded(number: float, significance: float | None = None) -> Any:
        step = 1.0 if significance is None else abs(significance)
        return 0.0 if step == 0 else _to_multiple(number, step, up=up)
    rounded.__name__ = "ceiling_precise" if up else "floor_precise"
    return rounded


# --- FACT, FACTDOUBLE ----------------------------------------------------------------------------

_FACT_LIMIT = 170  # 171! is beyond the doubles' range
_FACTDOUBLE_LIMIT = 300  # 301!! likewise


def _fact(number: float) -> Any:
    """FACT: the factorial of ``number`` truncated; negative: #NUM! (Microsoft, "FACT function"); past
    170 the result is beyond Excel's numbers: #NUM!."""
    if number < 0 or number >= _FACT_LIMIT + 1:
        return _NUM
    return float(math.factorial(int(number)))


def _factdouble(number: float) -> Any:
    """FACTDOUBLE: n!! = n(n-2)(n-4)... of ``number`` truncated (Microsoft, "FACTDOUBLE function");
    -1 and 0 give 1 (as ``formulas``), below -1 and past 300 (beyond the doubles' range): #NUM!."""
    if number < -1 or number >= _FACTDOUBLE_LIMIT + 1:
        return _NUM
    return float(math.prod(range(int(number), 0, -2)))


# --- COMBIN, COMBINA, QUOTIENT ----------------------------------------------------------------------
# (``formulas`` has none of the three.) COMBIN(number, number_chosen): the number of combinations,
# both truncated; #NUM! when either is negative or number < number_chosen (Microsoft, "COMBIN
# function"). COMBINA: combinations with repetitions, COMBIN(number + number_chosen - 1,
# number_chosen); #NUM! for a negative argument, and (Excel's cached values: COMBINA(0, 5),
# COMBINA(FALSE, 3)) for number 0 with number_chosen above 0; COMBINA(0, 0) is 1. Both read their
# arguments as CEILING & co. do, a logical value as 1 or 0 (COMBIN(20, TRUE) is 20). QUOTIENT: the
# integer part of the division, towards zero (QUOTIENT(-5.3, 2) is -2); #DIV/0! for a 0 or empty
# denominator; TRUE or FALSE is #VALUE! (QUOTIENT(TRUE, TRUE) in Excel's cached values).

_LOG_MAX = math.log(1.7976931348623157e308)  # the largest double's natural logarithm


def _binomial(n: int, k: int) -> Any:
    """C(n, k) as the nearest double, #NUM! beyond the doubles' range (estimated with lgamma first,
    so that a huge n never builds a huge integer)."""
    k = min(k, n - k)
    if k > 0 and math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) > _LOG_MAX + 1:
        return _NUM
    try:
        return float(math.comb(n, k))
    except OverflowError:
        return _NUM


def _combin(number: float, chosen: float) -> Any:
    n, k = math.trunc(number), math.trunc(chosen)
    if n < 0 or k < 0 or n < k:
        return _NUM
    return _binomial(n, k)


def _combina(number: float, chosen: float) -> Any:
    n, k = math.trunc(number), math.trunc(chosen)
    if n < 0 or k < 0 or (n == 0 and k > 0):
        return _NUM
    return _binomial(n + k - 1, k) if k else 1.0


def _quotient(numerator: float, denominator: float) -> Any:
    if denominator == 0:
        return _DIV0
    quotient = numerator / denominator
    return float(math.trunc(quotient)) if math.isfinite(quotient) else _NUM


# --- BASE, DECIMAL ---------------------------------------------------------------------------------

_BASE_LIMIT = 2.0 ** 53  # "Number must be ... less than 2^53"
_MAX_LENGTH = 255  # BASE's min_length and DECIMAL's text


def _radix(value: float) -> int | None:
    """A radix: truncated, 2 to 36, else None (#NUM!)."""
    return int(value) if 2 <= value < 37 else None


def _base(number: float, radix: float, min_length: float | None = None) -> Any:
    """BASE: ``number`` (truncated, 0 <= number < 2^53) written in ``radix`` (2-36), zero-padded to
    ``min_length`` (0-255); outside these limits #NUM! (Microsoft, "BASE function")."""
    length = 0.0 if min_length is None else min_length
    base = _radix(radix)
    if base is None or not 0 <= number < _BASE_LIMIT or not 0 <= length < _MAX_LENGTH + 1:
        return _NUM
    return np.base_repr(int(number), base).zfill(int(length))


def _decimal_text(value: Any) -> str | None:
    """DECIMAL's ``text``: text as it is, a number as Excel writes it (DECIMAL(111, 2) reads "111"),
    an empty cell as ""; None for TRUE/FALSE (#VALUE!)."""
    if value is sh.EMPTY:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return f"{float(value):.15g}"
    return str(value)


def _decimal(text: Any, radix: Any) -> Any:
    """DECIMAL: ``text``, digits of ``radix`` (2-36, truncated; either case), as a number; text longer
    than 255 characters, a digit the radix does not have or a radix outside 2-36: #NUM!; a radix
    that is not a number: #VALUE! (Microsoft, "DECIMAL function")."""
    digits, radix_number = _decimal_text(text), number(radix)
    if digits is None or radix_number is None:
        return _VALUE
    base = _radix(radix_number)
    if base is None or len(digits) > _MAX_LENGTH or any(_DIGITS.find(c) not in range(base) for c in digits.upper()):
        return _NUM
    try:
        return float(int(digits, base)) if digits else 0.0
    except OverflowError:
        return _NUM


# --- RANDBETWEEN ------------------------------------------------------------------------------------

def _randbetween(bottom: float, top: float) -> Any:
    """RANDBETWEEN: a random whole number from ``bottom`` to ``top``, both included (a fractional bound
    is rounded inwards); #NUM! when there is none (Microsoft, "RANDBETWEEN function")."""
    low, high = math.ceil(bottom), math.floor(top)
    return _NUM if low > high else float(random.randint(low, high))


# --- results beyond the doubles' range ----------------------------------------------------------

def _overflow_as_num(value: Any) -> Any:
    """A value, or each entry of an array, with inf and nan replaced by #NUM!."""
    if isinstance(value, np.ndarray):
        out = value.astype(object, copy=True)
        flat = out.ravel()
        for i, entry in enumerate(flat.tolist()):
            flat[i] = _overflow_as_num(entry)
        return out.reshape(value.shape).view(type(value))
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):
        return _NUM
    return value


def _checked(name: str) -> Callable[..., Any]:
    """``formulas``' ``name`` with a result beyond the doubles' range as #NUM!, Excel's error for it
    (``formulas`` returns inf, e.g. PRODUCT(1E+200, 1E+200))."""
    def checked(*args: Any) -> Any:
        return _overflow_as_num(formulas_function(name)(*args))
    checked.__name__ = name.lower()
    return quiet(checked)


def _whole_numbers(args: tuple[Any, ...]) -> list[int] | XlError:
    """GCD's and LCM's numbers, truncated, as the workbooks Excel saved read them (IronCalc's
    GCD_LCM and LCM_GCD books, formulas' test.xlsx): an argument left out is #N/A; TRUE/FALSE, and
    text that is no number as CEILING & co. read it (" 2024-01-10 ", "eight"), are #VALUE!, before any
    negative number (or one of 2^53 and more) makes it #NUM!; an empty cell is 0 in a range of
    several cells and left out as an argument of its own; no number at all is #VALUE!."""
    numbers: list[int] = []
    out_of_range = False
    for arg in args:
        if is_omitted(arg):
            return _NA
        cells = arg.ravel().tolist() if isinstance(arg, np.ndarray) else [arg]
        for value in cells:
            value = scalar(value)
            if value is sh.EMPTY or value is None:
                if len(cells) > 1:
                    numbers.append(0)
                continue
            if isinstance(value, XlError):
                return value
            if isinstance(value, (bool, np.bool_)):
                return _VALUE
            read = _text_argument(value) if isinstance(value, str) else number(value)
            if read is None or isinstance(read, XlError):
                return _VALUE
            if read < 0 or read >= WHOLE * 2:
                out_of_range = True
                continue
            numbers.append(int(read))
    if out_of_range:
        return _NUM
    return numbers if numbers else _VALUE


def _gcd(*args: Any) -> Any:
    """GCD(number1, ...): the greatest common divisor of the numbers, truncated (Microsoft's GCD page)."""
    numbers = _whole_numbers(args)
    return numbers if isinstance(numbers, XlError) else float(functools.reduce(math.gcd, numbers, 0))


def _lcm(*args: Any) -> Any:
    """LCM(number1, ...): the least common multiple of the numbers, truncated; 0 if one is 0."""
    numbers = _whole_numbers(args)
    if isinstance(numbers, XlError):
        return numbers
    result = float(functools.reduce(math.lcm, numbers, 1)) if numbers else 0.0
    return result if math.isfinite(result) and result < 2.0 ** 53 else _NUM


def _of_numbers(reduce: Callable[[list[float]], float]) -> Any:
    """PRODUCT or SUMSQ of the numbers Excel counts (:mod:`.number_lists`: in a reference only
    numbers; IronCalc's PRODUCT and SUMSQ books: PRODUCT(G20:G22) over three texts is 0, as is
    SUMSQ of a cell holding ="8"); #NUM! beyond the doubles' range (SUMSQ(2E+154))."""
    def of_numbers(*args: Any) -> Any:
        try:
            values = numbers(args)
        except Rejected as rejected:
            return single(rejected.error)
        result = reduce(values) if values else 0.0
        return single(result if math.isfinite(result) else _NUM)
    return quiet(wrap_func(of_numbers))


def _atan2(x: Any, y: Any) -> Any:
    """ATAN2(x_num, y_num): the angle of the point (x, y), -pi excluded to pi; #DIV/0! at (0, 0);
    an argument's error is the result, one that is no number #VALUE!."""
    for value in (x, y):
        if isinstance(value, XlError):
            return value
    x_, y_ = number(x), number(y)
    if x_ is None or y_ is None:
        return _VALUE
    return _DIV0 if x_ == 0 and y_ == 0 else math.atan2(y_, x_)


_NUMBER_TYPES = frozenset((float, int, bool, np.float64, np.int64, np.bool_))


def _matrix(values: Any) -> np.ndarray | None:
    """An MMULT argument as a 2-D array of floats; None when an entry is no number (text, an empty
    cell), which is #VALUE!. TRUE and FALSE count as 1 and 0, as ``formulas``' MMULT had them."""
    table = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    table = table.reshape(1, 1) if table.ndim == 0 else table.reshape(1, -1) if table.ndim == 1 else table
    if table.dtype.kind in "fiub":
        return table.astype(float)
    entries = table.ravel().tolist()
    if not set(map(type, entries)) <= _NUMBER_TYPES:
        entries = [scalar(v) for v in entries]
        if not all(type(v) in _NUMBER_TYPES for v in entries):
            return None
    return np.array(entries, dtype=float).reshape(table.shape)


def _mmult(array1: Any, array2: Any) -> Any:
    """MMULT(array1, array2): the matrix product (Microsoft, "MMULT function"): the first error of
    either array; #VALUE! if an entry is no number or array1's columns are not array2's rows.
    Computed by numpy in floating point (``formulas`` multiplied Python objects one by one: 3000 x 3000
    took hours); the result's size is checked as the dynamic arrays' are."""
    for argument in (array1, array2):
        entries = np.asarray(argument, dtype=object).ravel().tolist()
        if any(issubclass(kind, XlError) for kind in set(map(type, entries))):
            return next(v for v in entries if isinstance(v, XlError))
    left, right = _matrix(array1), _matrix(array2)
    if left is None or right is None or left.shape[1] != right.shape[0]:
        return _VALUE
    check_size(left.shape[0], right.shape[1], "MMULT")
    with np.errstate(all="ignore"):
        return (left @ right).view(Array)


def _munit(dimension: Any) -> Any:
    """MUNIT(dimension): ``formulas``' MUNIT, once the identity matrix's size is checked as the
    dynamic arrays' are (MUNIT(100000) would be 80 GB of zeros)."""
    try:
        size = int(float(scalar(dimension)))
    except (TypeError, ValueError, OverflowError):
        size = 0
    if size > 1:
        check_size(size, size, "MUNIT")
    return formulas_function("MUNIT")(dimension)


# --- SERIESSUM ------------------------------------------------------------------------------------
# SERIESSUM(x, n, m, coefficients): a1*x^n + a2*x^(n+m) + a3*x^(n+2m) + ... (Microsoft, "SERIESSUM
# function"), one term per coefficient in reading order. An empty cell among the coefficients is a
# coefficient 0 (its term keeps its power); any nonnumeric argument, a text or a logical value among
# the coefficients too, is #VALUE! ("If any argument is nonnumeric"); an error is itself. A power
# Excel's ^ cannot take is its error: 0 to a negative power #DIV/0!, a negative x to a fractional
# power #NUM!, 0 to the power 0 #NUM! as Excel's POWER(0,0) (Excel's SERIESSUM(0,0,2,{1,2,3}) is #NUM!:
# IronCalc's SERIESSUM book, saved by Excel).


def _series_argument(value: Any) -> Any:
    value = scalar(value)
    if isinstance(value, (bool, np.bool_)):
        return _VALUE
    return _rounding_argument(value)


def _seriessum(x: Any, n: Any, m: Any, coefficients: Any) -> Any:
    read = [_series_argument(v) for v in (x, n, m)]
    for value in read:
        if isinstance(value, XlError):
            return value
    base, first, step = read
    cells = coefficients.ravel().tolist() if isinstance(coefficients, np.ndarray) else [coefficients]
    terms = []
    for i, cell in enumerate(cells):
        a = scalar(cell)
        if isinstance(a, XlError):
            return a
        if a is sh.EMPTY or a is None:
            continue
        if isinstance(a, (bool, np.bool_, str)):
            return _VALUE
        power = first + i * step
        if base == 0:
            if power < 0:
                return _DIV0
            if power == 0:
                return _NUM
            term = 0.0
        elif base < 0 and power != math.floor(power):
            return _NUM
        else:
            try:
                term = float(a) * math.pow(base, power)
            except OverflowError:
                return _NUM
        terms.append(term)
    total = math.fsum(terms)
    return total if math.isfinite(total) else _NUM


# --- ROMAN -------------------------------------------------------------------------------------------
# ROMAN(number, [form]) (Microsoft, "ROMAN function"): form 0 is classic, 1 to 4 ever more concise
# ("Simplified"), TRUE is 0 and FALSE is 4; ROMAN(499, 0..4) is CDXCIX, LDVLIV, XDIX, VDIV, ID. The
# rule of the forms: a numeral may be preceded by a smaller one it is written less (CM is 900); in
# the classic form only by the nearest smaller numeral whose difference is no numeral itself (CM, CD,
# XC, XL, IX, IV: D before M would be 500); form k allows k more of the smaller numerals, the nearest
# first (form 1 adds LM, LD, VC, VL: 499 is LD VL IV); the number is written greedily, the largest
# value that fits first. IronCalc's ARABIC_ROMAN book, which Excel saved, holds all of 1 to 3999 in
# the five forms and the logical ones; this rule gives every cell of it (``formulas`` took FALSE as
# form 0: ROMAN(499, FALSE) was CDXCIX). The number is truncated, 0 to 3999 (0 is ""); the form
# truncated, 0 to 4; outside them, or text that is no number, #VALUE!.

_NUMERALS = ((1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I"))
_NUMERAL_VALUES = frozenset(value for value, _ in _NUMERALS)


@functools.lru_cache(maxsize=None)
def _roman_values(form: int) -> tuple[tuple[int, str], ...]:
    """The values form ``form`` writes with one numeral or one subtractive pair, largest first."""
    values = list(_NUMERALS)
    for i, (value, letter) in enumerate(_NUMERALS):
        pairs = [(value - smaller, before + letter) for smaller, before in _NUMERALS[i + 1:]
                 if value - smaller not in _NUMERAL_VALUES]
        values.extend(pairs[:form + 1])
    return tuple(sorted(values, key=lambda pair: -pair[0]))


def _roman(number_value: Any, form: Any = None) -> Any:
    read_number = number(number_value)
    if is_omitted(form) or scalar(form) is sh.EMPTY:
        read_form: float | None = 0.0
    elif isinstance(scalar(form), (bool, np.bool_)):
        read_form = 0.0 if scalar(form) else 4.0
    else:
        read_form = number(form)
    if read_number is None or read_form is None or not (0 <= read_number < 4000 and 0 <= read_form < 5):
        return _VALUE
    rest, written = int(read_number), []
    for value, letters in _roman_values(int(read_form)):
        count, rest = divmod(rest, value)
        written.append(letters * count)
    return "".join(written)


FUNCTIONS: dict[str, Any] = {
    "MMULT": wrap_func(_mmult),
    "MUNIT": wrap_func(_munit),
    "PRODUCT": _of_numbers(math.prod),
    "SUMSQ": _of_numbers(lambda values: sum(v * v for v in values)),
    "ATAN2": pairwise(_atan2),
    "GCD": wrap_func(_gcd),
    "LCM": wrap_func(_lcm),
    "INT": _in_order(integer),
    "TRUNC": _in_order(_trunc),
    "EVEN": elementwise(_even),
    "ODD": elementwise(_odd),
    # arguments as CEILING & co. read them; TRUE/FALSE #VALUE!, one left out #N/A (IronCalc's MROUND book)
    "MROUND": _in_order(_mround, logical=False, left_out=_NA),
    "CEILING": _in_order(_ceiling),
    "ECMA.CEILING": _in_order(_ecma_ceiling),
    "FLOOR": _in_order(_floor),
    "CEILING.MATH": _in_order(_math_rounding(up=True)),
    "FLOOR.MATH": _in_order(_math_rounding(up=False)),
    "CEILING.PRECISE": _in_order(_precise_rounding(up=True)),
    "ISO.CEILING": _in_order(_precise_rounding(up=True)),
    "FLOOR.PRECISE": _in_order(_precise_rounding(up=False)),
    "FACT": elementwise(_fact),
    "FACTDOUBLE": elementwise(_factdouble),
    "BASE": elementwise(_base),
    "COMBIN": _in_order(_combin),
    "COMBINA": _in_order(_combina),
    "QUOTIENT": _in_order(_quotient, logical=False),
    "DECIMAL": elementwise(_decimal, numbers=False),
    "RANDBETWEEN": elementwise(_randbetween),
    "ROMAN": elementwise(_roman, numbers=False),
    **{name: _checked(name) for name in ("SUMX2MY2", "SUMX2PY2", "SUMXMY2")},
    "SERIESSUM": wrap_func(_seriessum),
    "SUMIF": wrap_func(criteria.sumif),
    "SUMIFS": wrap_func(criteria.sumifs),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "ATAN2": {"pure": True, "scalars": "all"},
    "BASE": {"pure": True, "scalars": "all"},
    "CEILING": {"pure": True, "scalars": "all"},
    "CEILING.MATH": {"pure": True, "scalars": "all"},
    "CEILING.PRECISE": {"pure": True, "scalars": "all"},
    "COMBIN": {"pure": True, "scalars": "all"},
    "COMBINA": {"scalars": "all"},
    "DECIMAL": {"pure": True, "scalars": "all"},
    "ECMA.CEILING": {"scalars": "all"},
    "EVEN": {"pure": True, "scalars": "all"},
    "FACT": {"pure": True, "scalars": "all"},
    "FACTDOUBLE": {"toolpak": "all", "pure": True},
    "FLOOR": {"pure": True, "scalars": "all"},
    "FLOOR.MATH": {"pure": True, "scalars": "all"},
    "FLOOR.PRECISE": {"pure": True, "scalars": "all"},
    "GCD": {},
    "INT": {"elementwise": 1, "scalars": "all"},
    "ISO.CEILING": {"pure": True, "scalars": "all"},
    "LCM": {},
    "MMULT": {"spills": True, "arrays": True},
    "MROUND": {"toolpak": "all", "pure": True},
    "MUNIT": {"spills": True},
    "ODD": {"pure": True, "scalars": "all"},
    "PRODUCT": {"one_value": True},
    "QUOTIENT": {"toolpak": "all", "pure": True},
    "RANDBETWEEN": {"toolpak": "all"},
    "ROMAN": {"pure": True, "scalars": "all"},
    "SERIESSUM": {"toolpak": (0, 1, 2)},
    "SUMIF": {"one_value": True, "arrays": True, "memoised": True},
    "SUMIFS": {"one_value": True, "arrays": True, "memoised": True},
    "SUMSQ": {},
    "SUMX2MY2": {"arrays": True},
    "SUMX2PY2": {"arrays": True},
    "SUMXMY2": {"arrays": True},
    "TRUNC": {"pure": True, "scalars": "all"},
}
