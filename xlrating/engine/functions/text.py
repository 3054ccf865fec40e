"""Excel's text functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

Numbers turned into text. Wherever Excel needs the text of a number (the ``&`` operator,
CONCATENATE, CONCAT, TEXTJOIN, LEN, LEFT, RIGHT, MID, REPT, FIND, SEARCH, EXACT, SUBSTITUTE,
REPLACE, UPPER, LOWER, PROPER, TRIM, CLEAN, VALUETOTEXT) it writes it as :func:`number_text` does,
TRUE and FALSE as "TRUE" and "FALSE". ``formulas`` 1.3 wrote whole numbers with ``%d`` and the
others with Python's ``str``: 0.1+0.2 gave "0.30000000000000004", 1/3 "0.3333333333333333",
1E+20 a 21-digit number and 1E-05 "1e-05" (so LEN(0.1+0.2) was 19, not 3), and SEARCH looked
into "10.0" for the number 10. Here those functions are ``formulas``' own, given the arguments
that are text to Excel (not LEFT's ``num_chars`` nor TEXTJOIN's ``ignore_empty``) already
written as Excel writes them; nothing else about them changes.

VALUETOTEXT (Microsoft, "VALUETOTEXT function"): the text of any value. ``format`` 0 (default) is
concise, "the same as the text rendered in a cell that has general formatting applied"; 1 is
strict, text that parses back in the formula bar: text in quotes (a quote inside doubled), TRUE,
numbers and errors as they are. Any other format is #VALUE! (a fraction is truncated, as
``formulas`` does). ``formulas`` left quotes inside a strict text unescaped.
"""

from __future__ import annotations

import collections
import datetime
import functools
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import RangeValueError
from formulas.functions import COMPILING, get_error, parse_ranges, replace_empty, wrap_impure_func, wrap_ufunc
from formulas.functions import text as formulas_text
from formulas.functions.date import _text2datetime
from formulas.tokens.operand import Error, XlError

from ..character_set import CHARACTER_SET, MAC, WINDOWS
from .arguments import elementwise, is_omitted, number, wildcard_source

_VALUE: XlError = Error.errors["#VALUE!"]
_NUM: XlError = Error.errors["#NUM!"]

# --- numbers as text --------------------------------------------------------------------------------

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
    value = _significant(abs(number))
    exponent = value.adjusted()
    candidates = []
    if exponent < GENERAL_WIDTH:
        places = max(GENERAL_WIDTH - (exponent + 1 if exponent >= 0 else 1) - 1, 0)
        decimal = f"{_round(value, places):f}"
        if "." in decimal:
            decimal = decimal.rstrip("0").rstrip(".")
        if len(decimal) <= GENERAL_WIDTH:
            candidates.append((len(decimal.replace(".", "").lstrip("0")), 1, decimal))
    for digits in (6, 5):
        mantissa = value.scaleb(-exponent)
        rounded = _round(mantissa, digits - 1)
        shift = exponent + (1 if rounded >= 10 else 0)
        if rounded >= 10:
            rounded = _round(mantissa / 10, digits - 1)
        written = f"{rounded:f}".rstrip("0").rstrip(".")
        scientific = f"{written}E{'+' if shift >= 0 else '-'}{abs(shift):02d}"
        if len(scientific) <= GENERAL_WIDTH:
            candidates.append((len(written.replace(".", "")), 0, scientific))
            break
    return sign + max(candidates)[2]


def _scalar(value: Any) -> Any:
    """An array entry as a plain value (``formulas`` nests a 0-d array for ``-1`` in ``{1,-1}``)."""
    while isinstance(value, np.ndarray) and value.size == 1:
        value = value.ravel()[0]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def value_text(value: Any) -> Any:
    """A scalar as the text Excel makes of it: a number by :func:`number_text`, TRUE/FALSE in capitals;
    text, errors and empty cells (``formulas``' EMPTY) are returned as they are."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if _is_number(value):
        try:
            return number_text(float(value))
        except ValueError:
            return _NUM
    return value


def _texts(value: Any, blank: bool = False) -> Any:
    """An argument with every number and logical value in it (a scalar or each entry of an array)
    turned into text as Excel does, and with ``blank`` an empty cell into the empty text; anything
    else is kept, as is the array's class."""
    def text(entry: Any) -> Any:
        written = value_text(entry)
        return "" if blank and written is sh.EMPTY else written

    if isinstance(value, np.ndarray) and value.ndim:
        converted = np.empty(value.shape, dtype=object)
        converted.flat = [text(v) for v in value.flat]
        return converted.view(type(value))
    return text(value)


def with_text_arguments(implementation: Callable[..., Any], is_text: Callable[[int], bool],
                        blank: Callable[[int], bool] = lambda _: False) -> Any:
    """``implementation`` (``formulas``' own) called with its arguments at the positions ``is_text``
    accepts (0 is the first) holding numbers and logical values written as Excel writes them, and
    at the positions ``blank`` accepts an empty cell as the empty text (``formulas`` would write
    its placeholder's name, "empty")."""

    def call(*args: Any) -> Any:
        try:
            values, _ = parse_ranges(*args)  # references arrive as formulas' Ranges
        except RangeValueError:
            return implementation(*args)  # formulas' answer to a reference it cannot read
        return implementation(*(_texts(a, blank(i)) if is_text(i) else a for i, a in enumerate(values)))

    call.__name__ = getattr(implementation, "__name__", "text_function")
    return call


def _positions(*positions: int) -> Callable[[int], bool]:
    return frozenset(positions).__contains__


# Excel's text functions -> which of their arguments are text (LEFT's num_chars, TEXTJOIN's
# ignore_empty, FIND's start_num ... are numbers); the B twins count bytes the same way here.
_TEXT_ARGUMENTS: dict[str, Callable[[int], bool]] = {
    "CONCATENATE": lambda _: True, "CONCAT": lambda _: True, "TEXTJOIN": lambda position: position != 1,
    **dict.fromkeys(("LEN", "LENB", "LEFT", "LEFTB", "RIGHT", "RIGHTB", "MID", "MIDB", "REPT",
                     "UPPER", "LOWER", "PROPER", "TRIM", "CLEAN"), _positions(0)),
    **dict.fromkeys(("FIND", "FINDB", "SEARCH", "SEARCHB", "EXACT"), _positions(0, 1)),
    "SUBSTITUTE": _positions(0, 1, 2), "REPLACE": _positions(0, 3), "REPLACEB": _positions(0, 3),
}


# TEXTJOIN's delimiter from an empty cell joins with nothing between (a workbook Excel saved:
# IronCalc's TEXT_TEXTJOIN.xlsx, TEXTJOIN(A12,B12,C12:F12) with A12 empty is "MondayTuesday...")
_BLANK_ARGUMENTS: dict[str, Callable[[int], bool]] = {"TEXTJOIN": _positions(0)}


def _search(find_text: Any, within_text: Any, start_num: Any = 1) -> Any:
    """SEARCH (Microsoft, "SEARCH function"): where ``find_text`` first is in ``within_text`` from
    ``start_num`` on, case-insensitive, ``?`` any one character, ``*`` any run, ``~`` the next
    character itself (a last lone ``~`` matches nothing: SEARCH("~","Hello") is 1); ``start_num``
    below 1 or past the text, or no match, #VALUE!. The wildcards are those of the values Excel
    saved in IronCalc's TEXT_FIND_SEARCH workbook; ``formulas`` searched for them as characters."""
    try:
        start = int(float(start_num))
    except (TypeError, ValueError):
        return Error.errors["#VALUE!"]
    within = str(within_text)
    if start < 1 or start > len(within) + (find_text == ""):
        return Error.errors["#VALUE!"]
    pattern = re.compile(wildcard_source(str(find_text), lone_tilde=""), re.IGNORECASE | re.DOTALL)
    found = pattern.search(within, start - 1)
    return float(found.start() + 1) if found else Error.errors["#VALUE!"]


def _text_functions() -> dict[str, Any]:
    builtin = dict(formulas_text.FUNCTIONS)
    builtin["SEARCH"] = builtin["SEARCHB"] = wrap_ufunc(
        _search, input_parser=lambda *a: a, args_parser=lambda *a: (replace_empty(v, "") for v in a))
    return {name: with_text_arguments(builtin[name], is_text, _BLANK_ARGUMENTS.get(name, lambda _: False))
            for name, is_text in _TEXT_ARGUMENTS.items()}


# --- VALUETOTEXT ------------------------------------------------------------------------------------

def _as_objects(*args: Any) -> tuple[np.ndarray, ...]:
    """Arguments as object arrays (numpy would turn errors and empty cells, ``str`` subclasses, into text)."""
    return tuple(a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object) for a in args)


def _text(value: Any, strict: bool) -> str:
    """One value as VALUETOTEXT writes it."""
    if value is sh.EMPTY or value is None:
        return ""
    if isinstance(value, XlError):
        return str(value)
    if isinstance(value, (bool, np.bool_)) or _is_number(value):
        return str(value_text(value))  # #NUM! for an infinity
    text = str(value)
    return '"' + text.replace('"', '""') + '"' if strict else text


def _format(value: Any) -> int | XlError:
    """VALUETOTEXT's ``format``: 0 or 1 (truncated; TRUE is 1), else #VALUE!."""
    if value is sh.EMPTY:
        return 0
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        number = math.trunc(float(value))
    except (TypeError, ValueError, OverflowError):
        return _VALUE
    return number if number in (0, 1) else _VALUE


def _valuetotext(value: Any, format_type: Any = 0) -> Any:
    """VALUETOTEXT: ``value`` as text; an error ``value`` is written out, an error ``format`` returned."""
    mode = _format(_scalar(format_type))
    if isinstance(mode, XlError):
        return mode
    return _text(_scalar(value), strict=mode == 1)


FUNCTIONS: dict[str, Any] = {
    "VALUETOTEXT": wrap_ufunc(_valuetotext, input_parser=lambda *a: a, args_parser=_as_objects,
                              check_error=lambda value, format_type=0: get_error(format_type), check_nan=False),
    **_text_functions(),
}


# --- TEXTBEFORE and TEXTAFTER ------------------------------------------------------------------------
# TEXTBEFORE/TEXTAFTER(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found])
# (Microsoft, "TEXTAFTER function"), with what a workbook Excel saved shows (IronCalc's
# TEXT_TEXTBEFORE_TEXTAFTER.xlsx): the text before or after the instance_num-th delimiter (any of an
# array of delimiters), counted from the end when negative (-1: the last); instance_num is rounded
# down (-1.2 is -2), a logical value is the default 1, 0 or more than the text's length is #VALUE!;
# match_mode 0 matches case, any other number (or a text, ignored) does not; match_end 1 (or TRUE)
# counts the end of the text as a delimiter (the start, counting from the end), any number but 0 and
# 1 (and FALSE) is #VALUE!; too few instances give if_not_found (default #N/A; an empty cell the empty
# text). That workbook shows one more rule: with instance_num given, a delimiter longer than the text
# is #VALUE! (TEXTAFTER("del","deli",1); without instance_num it is #N/A). Numbers and logical values
# are searched as their text; an error in any argument but if_not_found is the result. ``formulas``
# raised #VALUE! for a match_mode other than 0 and 1 and returned if_not_found as an array.

_NOT_FOUND: XlError = Error.errors["#N/A"]


def _number_argument(value: Any, default: float) -> Any:
    """An optional numeric argument: the default when empty or logical, an error as it is, else the
    number it reads as (:func:`.arguments.number`) or #VALUE!."""
    value = _scalar(value)
    if value is None or value is sh.EMPTY or isinstance(value, (bool, np.bool_)):
        return default
    if isinstance(value, XlError):
        return value
    read = number(value)
    return _VALUE if read is None else read


def _occurrences(text: str, delimiters: list[str], ignore_case: bool, from_end: bool) -> list[tuple[int, int]]:
    """(start, length) of the delimiters in ``text``, not overlapping, taken from the start or the end."""
    pattern = re.compile("(?=(" + "|".join(map(re.escape, delimiters)) + "))", re.IGNORECASE if ignore_case else 0)
    found = [(m.start(), len(m.group(1))) for m in pattern.finditer(text)]
    taken: list[tuple[int, int]] = []
    if from_end:
        limit = len(text)
        for start, length in reversed(found):
            if start + length <= limit:
                taken.append((start, length))
                limit = start
    else:
        limit = 0
        for start, length in found:
            if start >= limit:
                taken.append((start, length))
                limit = start + length
    return taken


def _text_around(after: bool, text: Any, delimiter: Any, instance_num: Any = None, match_mode: Any = 0,
                 match_end: Any = 0, if_not_found: Any = _NOT_FOUND) -> Any:
    text = value_text(_scalar(text))
    if isinstance(text, XlError):
        return text
    text = "" if text is sh.EMPTY or text is None else str(text)
    delimiters = []
    for entry in np.asarray(delimiter, dtype=object).ravel().tolist():
        written = value_text(entry)
        if isinstance(written, XlError):
            return written
        delimiters.append("" if written is sh.EMPTY or written is None else str(written))
    instance, mode, end = (_number_argument(instance_num, 1),
                           _number_argument(match_mode, 0),
                           _number_argument(match_end, 0))
    for argument in (instance, mode, end):
        if isinstance(argument, XlError):
            return argument
    if isinstance(_scalar(match_mode), str):
        mode = 0
    if isinstance(_scalar(match_end), (bool, np.bool_)):
        end = 1 if _scalar(match_end) else -1
    instance = math.floor(instance)
    if not delimiters or "" in delimiters or instance == 0 or abs(instance) > len(text) or end not in (0, 1):
        return _VALUE
    if not is_omitted(instance_num) and max(map(len, delimiters)) > len(text):
        return _VALUE
    found = _occurrences(text, delimiters, mode != 0, instance < 0)
    if end:
        found.append((0, 0) if instance < 0 else (len(text), 0))
    if abs(instance) > len(found):
        missing = _scalar(if_not_found)
        return "" if missing is sh.EMPTY or missing is None else missing
    start, length = found[abs(instance) - 1]
    return text[start + length:] if after else text[:start]


for _name, _after in (("TEXTAFTER", True), ("TEXTBEFORE", False)):
    FUNCTIONS[_name] = wrap_ufunc(functools.partial(_text_around, _after), input_parser=lambda *a: a,
                                  args_parser=lambda *a: a, excluded={1, 5}, check_nan=False,
                                  check_error=lambda *a: None)


# --- CHAR and CODE ----------------------------------------------------------------------------------
# CHAR(number) and CODE(text) (Microsoft, "CHAR function", "CODE function") number characters by "the
# character set used by your computer": ANSI on Windows (code page 1252 for Western languages), the
# Macintosh character set on the Mac (Mac OS Roman). A workbook is computed with the character set
# of the Excel that saved it (:mod:`xlrating.engine.character_set`, from its docProps/app.xml),
# Windows' when that is not known. Workbooks each saved show every number 1 to 255 (IronCalc's
# TEXT_CHAR.xlsx, Excel for Windows: CHAR(128) is "€", and 129, 141, 143, 144 and 157, which 1252
# leaves unassigned, give the control character of the same number; formulas' test.xlsx, Excel for
# the Mac: CHAR(128) is "Ä", CHAR(219) "€", CHAR(240) the Apple logo U+F8FF); Python's cp1252 and
# mac_roman codecs give exactly those. CHAR takes 1 to 255, a fraction truncated, its argument read
# as any numeric one (:func:`.arguments.number`; test.xlsx: CHAR(65.8) "A", CHAR(TRUE) CHAR(1), 0, -1,
# an empty cell and "ciao" #VALUE!); anything else is #VALUE!. CODE is the inverse for the first
# character of the text, a number or logical value read as the text Excel makes of it (test.xlsx:
# CODE(-1) 45, CODE(1.9) 49, CODE(TRUE) 84, an empty cell #VALUE!); an empty text is #VALUE!; a
# character the set lacks is 63, the "?" it becomes (reported of Excel for Windows; no workbook here
# shows it). ``formulas`` numbered both by Mac OS Roman only.


def _character(number: int, character_set: str) -> str:
    try:
        return bytes([number]).decode(character_set)
    except UnicodeDecodeError:  # unassigned in 1252: the control character of that number
        return chr(number)


_CHARACTERS = {name: {number: _character(number, name) for number in range(1, 256)} for name in (WINDOWS, MAC)}
_CODES = {name: {character: number for number, character in table.items()} for name, table in _CHARACTERS.items()}
_LACKING = 63  # "?"


def _char(number: float) -> Any:
    return _CHARACTERS[CHARACTER_SET.get()].get(math.trunc(number), _VALUE)


def _code(text: Any) -> Any:
    written = value_text(text)
    if isinstance(written, XlError):  # #NUM! for an infinity
        return written
    if isinstance(written, sh.Token) or not isinstance(written, str) or not written:  # an empty cell or text
        return _VALUE
    return _CODES[CHARACTER_SET.get()].get(written[0], _LACKING)


def _per_workbook(implementation: Any) -> dict[str, Any]:
    """``implementation`` as a function ``formulas`` never computes while compiling a formula (its
    "impure" functions, RAND's kind). ``formulas`` computes a formula of constants as it compiles it,
    and the engine keeps compiled formulas for every workbook it computes (:func:`.fallback.
    compile_formula`): CHAR(128) would be the answer for the first workbook in every later one."""
    return {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
            "function": wrap_impure_func(implementation)}


FUNCTIONS["CHAR"] = _per_workbook(elementwise(_char))
FUNCTIONS["CODE"] = _per_workbook(elementwise(_code, numbers=False))


# --- TEXT -------------------------------------------------------------------------------------------
# TEXT(value, format_text) (Microsoft, "TEXT function" and "Number format codes"): ``value`` written
# with Excel's number-format language. A format has up to four sections ``positive;negative;zero;
# text``; one section serves every number (a negative one written with a minus sign), two sections
# split at zero (the second for negatives, written without a sign unless the section writes one),
# three give zero its own; a section holding ``@`` is the text section and must be the last. A text
# value uses the text section or comes back as it is; a text that reads as a number (or a date or
# time) is formatted as that number. Conditions ``[>100]`` pick sections by value; colours and
# locale tags are ignored. Digit placeholders ``0 # ?``, the decimal point (a later point is
# written as it is), ``,`` between placeholders groups thousands, commas after the last placeholder
# divide by 1000 each, ``%`` multiplies by 100, ``E+``/``E-`` is scientific notation, ``?/?`` or
# ``?/8`` a fraction; ``"..."``, ``\x``, ``_x`` (a space), ``*x`` (nothing) and any other character
# are written as they are. Date and time codes (y m d h s AM/PM A/P, fractional seconds, elapsed
# [h] [m] [s]) read the number as a serial date of the 1900 system (1900-02-29 is serial 60);
# outside 0 .. 9999-12-31 only elapsed codes may show it. Digits are rounded half away from zero
# from the number's 15 significant digits. A format Excel would refuse (dates mixed with digit
# placeholders, ``@`` beside a number, a text section that is not the last) is #VALUE!.

class _BadFormat(Exception):
    """The format is not one Excel accepts."""


_COLOURS = {"black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"}
_CONDITION = re.compile(r"^(<=|>=|<>|<|>|=)\s*(-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")



# single characters of a number format with a meaning of their own
_MARKS = {".": "point", ",": "comma", "%": "percent", "/": "slash", "@": "at"}

def _format_tokens(code: str) -> list[list[tuple[str, Any]]]:
    """``code`` split into sections of (kind, value) tokens."""
    sections: list[list[tuple[str, Any]]] = [[]]
    tokens = sections[0]
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        low = code[i:].lower()
        if c == ";":
            tokens = []
            sections.append(tokens)
            i += 1
        elif c == '"':
            end = code.find('"', i + 1)
            if end < 0:
                raise _BadFormat(code)
            tokens.append(("lit", code[i + 1:end]))
            i = end + 1
        elif c == "\\":
            if i + 1 < n:
                tokens.append(("lit", code[i + 1]))
            i += 2
        elif c == "_":
            tokens.append(("lit", " "))
            i += 2
        elif c == "*":
            i += 2
        elif c == "[":
            end = code.find("]", i + 1)
            if end < 0:
                raise _BadFormat(code)
            inner = code[i + 1:end]
            i = end + 1
            elapsed = inner.lower()
            if elapsed and len(set(elapsed)) == 1 and elapsed[0] in "hms":
                tokens.append(("elapsed", elapsed[0] * min(len(elapsed), 2)))
            elif match := _CONDITION.match(inner.strip()):
                tokens.append(("cond", (match.group(1), float(match.group(2)))))
            elif inner.startswith("$"):
                tokens.append(("lit", inner[1:].split("-")[0]))
            elif elapsed in _COLOURS or elapsed.startswith("color"):
                pass
            else:
                raise _BadFormat(code)
        elif c in "0#?":
            tokens.append(("digit", c))
            i += 1
        elif c in _MARKS:
            tokens.append((_MARKS[c], c))
            i += 1
        elif c in "eE" and i + 1 < n and code[i + 1] in "+-":
            tokens.append(("exp", code[i + 1]))
            i += 2
        elif low.startswith("general"):
            tokens.append(("general", ""))
            i += 7
        elif low.startswith("am/pm"):
            tokens.append(("ampm", None))
            i += 5
        elif low.startswith("a/p"):
            tokens.append(("ap", (code[i], code[i + 2])))
            i += 3
        elif c.lower() in "ymdhse":
            j = i
            while j < n and code[j].lower() == c.lower():
                j += 1
            letter = "y" if c.lower() == "e" else c.lower()
            tokens.append(("date", letter * (j - i) if c.lower() != "e" else "yyyy"))
            i = j
        else:
            tokens.append(("lit", c))
            i += 1
    return sections


_DATE_KINDS = {"date", "elapsed", "ampm", "ap"}


def _is_date(section: list[tuple[str, Any]]) -> bool:
    return any(kind in _DATE_KINDS for kind, _ in section)


def _check(section: list[tuple[str, Any]]) -> None:
    kinds = {kind for kind, _ in section}
    if "at" in kinds and kinds & ({"digit", "general", "exp"} | _DATE_KINDS):
        raise _BadFormat("@ beside a number")
    if kinds & _DATE_KINDS and kinds & {"exp", "general"}:
        raise _BadFormat("a date beside a number")


def _round(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _significant(number: float) -> Decimal:
    """``number`` (not negative) rounded to Excel's 15 significant digits."""
    if number == 0:
        return Decimal(0)
    exact = Decimal(number)
    return exact.quantize(Decimal(1).scaleb(exact.adjusted() - 14), rounding=ROUND_HALF_UP)


def _integer_text(digits: str, places: list[str], grouping: bool) -> list[str]:
    """Whole-number ``digits`` ("" for zero) spread over the integer placeholders ``places``: one
    text per placeholder, the leftmost taking every digit left over, commas every three digits."""
    count = len(places)
    total = max(len(digits), count)
    chunks = []
    for j in range(total):  # j: position from the right
        if j < len(digits):
            char = digits[-1 - j]
        else:
            kind = places[count - 1 - j]
            char = {"0": "0", "?": " ", "#": ""}[kind]
        if grouping and j and j % 3 == 0 and char.strip() and (j - 1 < len(digits) or places[count - j] == "0"):
            char += ","
        chunks.append(char)
    if not count:
        return ["".join(reversed(chunks))]
    texts = chunks[:count - 1] + ["".join(reversed(chunks[count - 1:]))]
    return list(reversed(texts))


def _decimal_text(digits: str, places: list[str]) -> list[str]:
    """Decimal ``digits`` over the decimal placeholders; trailing zeros at # vanish, at ? turn to spaces."""
    texts = list(digits)
    for k in range(len(places) - 1, -1, -1):
        if texts[k] != "0" or places[k] == "0":
            break
        texts[k] = "" if places[k] == "#" else " "
    return texts


def _layout(section: list[tuple[str, Any]]) -> tuple[list[int], int, int, bool, int]:
    """Where the number goes: roles of the commas and the decimal point.
    Returns (indices of dropped/handled tokens, point index or -1, scaling, grouping, percent count)."""
    point = next((k for k, (kind, _) in enumerate(section) if kind == "point"), -1)
    digit_at = [k for k, (kind, _) in enumerate(section) if kind == "digit"]
    last_digit = digit_at[-1] if digit_at else -1
    handled, scaling, grouping = [], 0, False
    for k, (kind, _) in enumerate(section):
        if kind != "comma" or k == 0:
            continue
        previous = k - 1
        while previous >= 0 and section[previous][0] == "comma" and previous not in handled:
            previous -= 1
        if (previous < 0 or section[previous][0] != "digit" and previous not in handled) and \
                not (previous >= 0 and section[previous][0] == "comma"):
            continue
        if section[k - 1][0] not in ("digit", "comma") or (section[k - 1][0] == "comma" and k - 1 not in handled):
            continue
        following = k + 1
        while following < len(section) and section[following][0] == "comma":
            following += 1
        at_end = k > last_digit or (following < len(section) and section[following][0] == "point"
                                     and (point < 0 or following == point) and k < point)
        handled.append(k)
        if at_end:
            scaling += 1
        elif (point < 0 or k < point) and k + 1 < len(section) and section[k + 1][0] == "digit":
            grouping = True
    percent = sum(kind == "percent" for kind, _ in section)
    return handled, point, scaling, grouping, percent


def _number_section(section: list[tuple[str, Any]], number: float) -> str:
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
    value = _significant(number) * Decimal(100) ** percent / Decimal(1000) ** scaling
    int_places = [v for k, (kind, v) in enumerate(mantissa) if kind == "digit" and (point < 0 or k < point)]
    dec_places = [v for k, (kind, v) in enumerate(mantissa) if kind == "digit" and point >= 0 and k > point]
    exponent_text = ""
    if exp_at >= 0:
        value, exponent = _scientific(value, int_places, len(dec_places))
        # the exponent's digit placeholders: a 0 is a digit always shown, a # or ? one shown only
        # when needed ("0.00E+##" writes 1.22E+7, "0.00E+00" 1.22E+07)
        exp_digits = sum(kind == "digit" and value == "0" for kind, value in section[exp_at + 1:])
        sign = "-" if exponent < 0 else ("+" if section[exp_at][1] == "+" else "")
        exponent_text = "E" + sign + str(abs(exponent)).zfill(exp_digits)
    rounded = _round(value, len(dec_places))
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
    if exp_at >= 0:
        out.append(exponent_text)
        out.extend(str(v) for kind, v in section[exp_at + 1:] if kind in ("lit", "percent", "point", "comma", "slash"))
    return "".join(out)


def _scientific(value: Decimal, int_places: list[str], decimals: int) -> tuple[Decimal, int]:
    """The mantissa and exponent of ``value`` for ``len(int_places)`` integer placeholders."""
    count = len(int_places)
    if value == 0:
        return value, 0
    magnitude = value.adjusted()
    step = count if count > 1 and "#" in int_places else 0
    for _ in range(2):
        if step:
            exponent = (magnitude // step) * step
        else:
            exponent = magnitude - (count - 1) if count else magnitude + 1
        mantissa = _round(value.scaleb(-exponent), decimals)
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
    value = _significant(number)
    fixed = "".join(str(section[k][1]) for k in denominator_at)
    whole = int(value) if whole_at else 0
    rest = float(value - whole)
    if any(section[k][0] == "lit" for k in denominator_at):
        denominator = int(fixed.replace("#", "").replace("?", "0"))
        numerator = int(_round(Decimal(rest) * denominator, 0))
    else:
        limit = 10 ** len(denominator_at) - 1
        best = (2.0, 0, 1)
        for d in range(1, limit + 1):
            n_ = int(_round(Decimal(rest * d), 0))
            error = abs(rest - n_ / d)
            if error < best[0] - 1e-15:
                best = (error, n_, d)
        _, numerator, denominator = best
    if whole_at and numerator == denominator and not any(section[k][0] == "lit" for k in denominator_at):
        whole, numerator = whole + 1, 0
    ints = _integer_text(str(whole) if whole else "", [section[k][1] for k in whole_at], False)
    blank = whole_at and numerator == 0
    if blank and whole == 0:
        ints = _integer_text("0", [section[k][1] for k in whole_at], False)
    num_places = [section[k][1] for k in numerator_at]
    num_text = _integer_text(str(numerator) if numerator else ("0" if not whole_at else ""), num_places, False)
    if any(section[k][0] == "lit" for k in denominator_at):
        den_texts = [str(section[k][1]) for k in denominator_at]
    else:
        den = str(denominator)
        places = [section[k][1] for k in denominator_at]
        den_texts = [den[i] if i < len(den) else {"0": "0", "?": " ", "#": ""}[p] for i, p in enumerate(places)]
        if len(den) > len(places):
            den_texts[-1] = den[len(places) - 1:]
    out = []
    int_index = 0
    for k, (kind, value_) in enumerate(section):
        if k in whole_at:
            out.append(ints[int_index])
            int_index += 1
        elif k in numerator_at:
            text = num_text[numerator_at.index(k)]
            out.append(" " * len(text) if blank else text)
        elif k in denominator_at:
            text = den_texts[denominator_at.index(k)]
            out.append(" " * len(text) if blank else text)
        elif k == slash:
            out.append(" " if blank else "/")
        elif kind in ("lit", "percent", "point", "comma"):
            out.append(str(value_))
    return "".join(out)


def _date_section(section: list[tuple[str, Any]], serial: float, negative: bool = False) -> str:
    """``serial`` written by a section with date or time codes (``negative``: it is minus ``serial``,
    which only elapsed codes can show)."""
    tokens: list[tuple[str, Any]] = []
    k = 0
    seconds_seen = False
    while k < len(section):  # fractional seconds: a point after a seconds code, then 0s
        kind, value = section[k]
        if kind in ("date", "elapsed") and value[0] == "s":
            seconds_seen = True
        if kind == "point" and seconds_seen and k + 1 < len(section) and section[k + 1] == ("digit", "0"):
            j = k + 1
            while j < len(section) and section[j] == ("digit", "0"):
                j += 1
            tokens.append(("fraction", min(j - k - 1, 3)))
            k = j
            continue
        if kind in ("digit", "exp", "general", "percent", "at"):
            raise _BadFormat("a date beside a number")
        tokens.append((kind, value))
        k += 1
    ordinary = any(kind in ("date", "ampm", "ap", "fraction") for kind, _ in tokens)
    if ordinary and (negative or not 0 <= serial < 2958466):
        raise _BadFormat("not a date")
    places = max([v for kind, v in tokens if kind == "fraction"] or [0])
    unit = 86400 * 10 ** places
    total = int(_round(Decimal(serial) * unit, 0))
    days, ticks = divmod(total, unit)
    seconds, fraction_ticks = divmod(ticks, 10 ** places)
    if ordinary and days > 2958465:
        raise _BadFormat("not a date")
    day_serial = days
    if not ordinary or day_serial == 0:
        year, month, day = 1900, 1, 0
    elif day_serial == 60:
        year, month, day = 1900, 2, 29
    else:
        moment = datetime.date(1899, 12, 31 if day_serial < 60 else 30) + datetime.timedelta(days=day_serial)
        year, month, day = moment.year, moment.month, moment.day
    weekday = (day_serial + 6) % 7
    hour, minute, second = seconds // 3600, seconds // 60 % 60, seconds % 60
    twelve = any(kind in ("ampm", "ap") for kind, _ in tokens)
    codes = [k for k, (kind, _) in enumerate(tokens) if kind in ("date", "elapsed")]
    out = []
    for k, (kind, value) in enumerate(tokens):
        if kind == "date":
            letter, width = value[0], len(value)
            if letter == "m":
                position = codes.index(k)
                before = tokens[codes[position - 1]][1][0] if position else ""
                after = tokens[codes[position + 1]][1][0] if position + 1 < len(codes) else ""
                if width <= 2 and (before == "h" or after == "s"):  # mmm and longer are always months
                    letter = "minute"
            if letter == "y":
                out.append(str(year)[-2:] if width <= 2 else str(year))
            elif letter == "m":
                out.append(str(month).zfill(width) if width <= 2 else _MONTHS[month - 1][:3] if width == 3
                           else _MONTHS[month - 1][0] if width == 5 else _MONTHS[month - 1])  # mmmm, 6+: name
            elif letter == "d":
                out.append(str(day).zfill(width) if width <= 2 else _DAYS[weekday][:3] if width == 3
                           else _DAYS[weekday])
            elif letter == "h":
                shown = (hour % 12 or 12) if twelve else hour
                out.append(str(shown).zfill(min(width, 2)))
            elif letter == "minute":
                out.append(str(minute).zfill(min(width, 2)))
            else:
                out.append(str(second).zfill(min(width, 2)))
        elif kind == "elapsed":
            amount = {"h": total // (unit // 24), "m": total // (unit // 1440), "s": total // (unit // 86400)}[value[0]]
            out.append(str(amount).zfill(len(value)))
        elif kind == "fraction":
            out.append("." + str(fraction_ticks).zfill(places)[:value])
        elif kind == "ampm":
            out.append("AM" if hour < 12 else "PM")
        elif kind == "ap":
            out.append(value[0] if hour < 12 else value[1])
        elif kind in ("lit", "point", "comma", "slash"):
            out.append(str(value))
    return "".join(out)


def _section_text(section: list[tuple[str, Any]], number: float, negative: bool = False) -> str:
    if _is_date(section):
        return _date_section(section, number, negative)
    return _number_section(section, number)


def _holds(condition: tuple[str, float], number: float) -> bool:
    operator, bound = condition
    return {"<": number < bound, "<=": number <= bound, ">": number > bound, ">=": number >= bound,
            "=": number == bound, "<>": number != bound}[operator]


def format_text(value: Any, code: str) -> str:
    """TEXT(``value``, ``code``) for a number (float) or a text ``value``; raises _BadFormat."""
    sections = _format_tokens(code)
    for section in sections:
        _check(section)
    text_section = None
    at = [k for k, section in enumerate(sections) if any(kind == "at" for kind, _ in section)]
    if at:
        if at[0] != len(sections) - 1:
            raise _BadFormat("the text section is not the last")
        text_section = sections.pop()
    elif len(sections) == 4:
        text_section = sections.pop()
    if len(sections) > 3:
        raise _BadFormat("too many sections")
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
    if signed and not _is_date(section) and any(kind in ("digit", "general") for kind, _ in section) and \
            not _NONZERO.search(_number_section([token for token in section if token[0] != "lit"], abs(number))):
        signed = False  # a negative number whose digits show as zero has no minus sign: TEXT(-1/3,"0") is "0"
    return "-" + text if signed else text


_NONZERO = re.compile("[1-9]")


def _text_of_format(code: Any) -> str:
    if code is sh.EMPTY or code is None:
        return ""
    if isinstance(code, (bool, np.bool_)):
        return "TRUE" if code else "FALSE"
    if _is_number(code):
        return number_text(float(code))
    return str(code)


_TIME_TEXT = re.compile(
    r"^\s*(\d+):(\d+)(?::(\d+))?(\.\d*)?\s*(am|pm|a|p)?\s*$", re.IGNORECASE)
_TIME_SHAPE = re.compile(r"^[\d:.\s]*(am|pm|a|p)?\s*$", re.IGNORECASE)


def _time_text(text: str) -> float | None:
    """A time typed as text as Excel reads it: ``h:m``, ``h:m:s`` or ``m:s.f`` (a final field
    with decimals is seconds); the last field may be up to 9999, hours before it up to 23 and
    minutes up to 59; an optional AM/PM. None when the text is no such time."""
    match = _TIME_TEXT.match(text)
    if not match:
        return None
    first, second, third, decimals, meridiem = match.groups()
    fraction = float(decimals) if decimals and len(decimals) > 1 else 0.0
    if third is not None:
        hours, minutes, seconds = int(first), int(second), int(third) + fraction
        if hours > 23 or minutes > 59 or int(third) > 9999:
            return None
    elif decimals and len(decimals) > 1:
        hours, minutes, seconds = 0, int(first), int(second) + fraction
        if minutes > 59 or int(second) > 9999:
            return None
    else:
        hours, minutes, seconds = int(first), int(second), 0.0
        if hours > 23 or minutes > 9999:
            return None
    if meridiem:
        if hours > 12:
            return None
        hours = hours % 12 + (12 if meridiem.lower().startswith("p") else 0)
    return (hours * 3600 + minutes * 60 + seconds) / 86400


def _text_number(text: str) -> Any:
    """A text TEXT formats as a number: a number, a time or a date (1900 to 9999) typed as text;
    any other text is returned as it is."""
    try:
        return float(text)
    except ValueError:
        pass
    if _TIME_SHAPE.match(text):
        time = _time_text(text)
        return text if time is None else time
    try:
        if not 1900 <= int(_text2datetime(text)[0]) <= 9999:
            return text
        return float(formulas_text.xvalue(text))
    except Exception:  # noqa: BLE001 - formulas' date parser raises several types for non-dates
        return text


def _text_function(value: Any, format_text_: Any) -> Any:
    """TEXT: ``value`` written with the number format ``format_text``."""
    value, code = _scalar(value), _text_of_format(_scalar(format_text_))
    if value is sh.EMPTY or value is None:
        value = 0.0
    elif isinstance(value, (bool, np.bool_)):
        value = "TRUE" if value else "FALSE"
    elif isinstance(value, str):
        value = _text_number(value)
    elif not _is_number(value):
        return _VALUE
    try:
        return format_text(value, code)
    except (_BadFormat, ValueError, OverflowError, IndexError):
        return _VALUE


FUNCTIONS["TEXT"] = wrap_ufunc(_text_function, input_parser=lambda *a: a, args_parser=_as_objects, check_nan=False)
