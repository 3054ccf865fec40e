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
import functools
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import RangeValueError
from formulas.functions import (
    COMPILING,
    get_error,
    parse_ranges,
    replace_empty,
    wrap_func,
    wrap_impure_func,
    wrap_ufunc,
)
from formulas.functions import text as formulas_text
from formulas.functions.date import _text2datetime
from formulas.tokens.operand import Error, XlError

from ..formula.limits import MAX_TEXT_CHARACTERS as MAX_TEXT
from ..formula.values import is_omitted
from ..read.character_set import CHARACTER_SET, MAC, WINDOWS
from ..read.date_system import offset
from .arguments import elementwise, number, text_number, wildcard_source
from .currency_text import FUNCTIONS as _CURRENCY_FUNCTIONS
from .number_format import BadFormat, format_text
from .number_text import GENERAL_WIDTH, TEXT_WIDTH, general_text, number_text  # noqa: F401 - the module's public names

_VALUE: XlError = Error.errors["#VALUE!"]
_NUM: XlError = Error.errors["#NUM!"]


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


def _numbers(value: Any) -> Any:
    """A number argument of a text function with every text in it that reads as a number (or a date)
    made that number, as Excel reads LEFT's num_chars or REPLACE's start_num: REPLACE("ABCDEF","3.9",
    "40","x") is "ABx" (POI's FormulaEvalTestData, saved by Excel), LEFT(A1,B1) with B1 holding the
    text "2.99999" takes 2 characters; ``formulas`` answered #VALUE! for any text. Other text is kept
    (still #VALUE!)."""
    def read(entry: Any) -> Any:
        entry = _scalar(entry)
        if isinstance(entry, str):
            found = text_number(entry)
            return entry if found is None else found
        return entry

    if isinstance(value, np.ndarray) and value.ndim:
        if value.dtype != object:
            return value
        converted = np.empty(value.shape, dtype=object)
        converted.flat = [read(v) for v in value.flat]
        return converted.view(type(value))
    return read(value)


def with_text_arguments(implementation: Callable[..., Any], is_text: Callable[[int], bool],
                        blank: Callable[[int], bool] = lambda _: False) -> Any:
    """``implementation`` (``formulas``' own) called with its arguments at the positions ``is_text``
    accepts (0 is the first) holding numbers and logical values written as Excel writes them, at
    the other positions (numbers) text that reads as a number as that number (:func:`_numbers`), and
    at the positions ``blank`` accepts an empty cell as the empty text (``formulas`` would write
    its placeholder's name, "empty")."""

    def call(*args: Any) -> Any:
        try:
            values, _ = parse_ranges(*args)  # references arrive as formulas' Ranges
        except RangeValueError:
            return implementation(*args)  # formulas' answer to a reference it cannot read
        return implementation(*(_texts(a, blank(i)) if is_text(i) else _numbers(a) for i, a in enumerate(values)))

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


def _substitute(text: Any, old_text: Any, new_text: Any, instance_num: Any = None) -> Any:
    """SUBSTITUTE(text, old_text, new_text, [instance_num]): ``formulas``' own, but an empty
    ``old_text`` finds nothing to replace, so the text comes back as it is, as Excel answers
    (POI's FormulaEvalTestData: SUBSTITUTE("testblankmatch","","!",1)); ``formulas`` answered
    #VALUE! with an instance_num and put new_text between every two characters without one."""
    if formulas_text._str(old_text) == "":
        if instance_num is not None and (isinstance(instance_num, (bool, np.bool_, str)) or instance_num < 1):
            return _VALUE
        return formulas_text._str(text)
    return formulas_text.xsubstitute(text, old_text, new_text, instance_num)


def _text_functions() -> dict[str, Any]:
    builtin = dict(formulas_text.FUNCTIONS)
    builtin["SUBSTITUTE"] = wrap_ufunc(_substitute, input_parser=lambda *a: a,
                                       args_parser=lambda *a: (replace_empty(v, "") for v in a))
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


# --- Excel's longest text ---------------------------------------------------------------------------
# A text value holds at most 32,767 characters ("Total number of characters that a cell can contain",
# Microsoft's "Excel specifications and limits"); a function whose text would be longer is #VALUE!,
# as Microsoft's pages say of REPT ("If the result of the REPT function is longer than 32,767
# characters, REPT returns the #VALUE! error"), CONCAT and TEXTJOIN ("If the resulting string exceeds
# 32767 characters (cell limit), ... returns the #VALUE! error"). The same holds here for the other
# functions and the operator that make text longer than what they are given: ``&``, CONCATENATE,
# SUBSTITUTE, REPLACE, ARRAYTOTEXT. TEXTJOIN and CONCAT stop writing once past the limit (a
# million numbers joined is a moment, not the seconds of writing every one); REPT never builds the
# text it would refuse.


def _too_long(value: Any) -> Any:
    return _VALUE if isinstance(value, str) and not isinstance(value, XlError) and len(value) > MAX_TEXT else value


def within_text_limit(implementation: Callable[..., Any]) -> Callable[..., Any]:
    """``implementation`` whose text results (a single one, or each entry of an array) longer than
    Excel's 32,767 characters are #VALUE!."""

    def call(*args: Any) -> Any:
        result = implementation(*args)
        if isinstance(result, np.ndarray):
            if result.dtype == object and any(_too_long(v) is _VALUE for v in result.ravel().tolist()):
                checked = np.empty(result.shape, dtype=object)
                checked.flat = [_too_long(v) for v in result.ravel().tolist()]
                return checked.view(type(result))
            return result
        return _too_long(result)

    call.__name__ = getattr(implementation, "__name__", "text_function")
    return call


def _first_error(values: tuple[Any, ...]) -> XlError | None:
    """The first error value among ``values`` (scalars and arrays of them), in argument order."""
    for value in values:
        if isinstance(value, np.ndarray):
            if value.dtype == object:
                for entry in value.ravel().tolist():
                    if isinstance(entry, XlError):
                        return entry
        elif isinstance(value, XlError):
            return value
    return None


def _entries(value: Any) -> Any:
    """The values of an argument one by one (an array's in row order), as they are needed."""
    if isinstance(value, np.ndarray):
        return (_scalar(v) for v in value.flat)
    return (_scalar(value),)


def _joined(delimiter: str, items: Any, skip_empty: bool) -> Any:
    """``items`` written as Excel writes them and joined with ``delimiter``; #VALUE! as soon as the
    text is longer than Excel's longest."""
    pieces: list[str] = []
    size = -len(delimiter)
    for item in items:
        if item is sh.EMPTY or (isinstance(item, str) and not item):
            if skip_empty:
                continue
            item = ""
        piece = value_text(item)
        if isinstance(piece, XlError):
            return piece
        piece = formulas_text._str(piece)
        size += len(delimiter) + len(piece)
        if size > MAX_TEXT:
            return _VALUE
        pieces.append(piece)
    return delimiter.join(pieces)


def _textjoin(delimiter: Any, ignore_empty: Any, text: Any, *texts: Any) -> Any:
    """TEXTJOIN(delimiter, ignore_empty, text1, [text2], ...): ``formulas``' TEXTJOIN (the first error
    of any argument; the first delimiter) with numbers written as Excel writes them, an empty
    delimiter cell joining with nothing, #VALUE! past 32,767 characters, and with ``ignore_empty``
    empty texts left out as empty cells are (``formulas`` kept them: the common
    ``TEXTJOIN(",",TRUE,IF(A1:A9>3,A1:A9,""))`` joined every row)."""
    args, _ = parse_ranges(delimiter, ignore_empty, text, *texts)
    error = _first_error(args)
    if error is not None:
        return error
    first = next(iter(_entries(args[0])), "")
    separator = "" if first is sh.EMPTY else value_text(first)
    if isinstance(separator, XlError):
        return separator
    skip = bool(_scalar(args[1])) if args[1] is not sh.EMPTY else False
    return _joined(formulas_text._str(separator), (v for a in args[2:] for v in _entries(a)), skip)


def _concat(text: Any, *texts: Any) -> Any:
    """CONCAT(text1, [text2], ...): the texts of every value, empty cells left out (``formulas``'
    CONCAT, numbers written as Excel writes them), #VALUE! past 32,767 characters."""
    args, _ = parse_ranges(text, *texts)
    error = _first_error(args)
    if error is not None:
        return error
    return _joined("", (v for a in args for v in _entries(a)), True)


def _rept(text: Any, number_times: Any) -> Any:
    """REPT(text, number_times): ``text`` repeated (``number_times`` truncated); negative #VALUE!, as
    is a result longer than 32,767 characters (never built)."""
    times = int(float(replace_empty(number_times)))
    written = formulas_text._str(text)
    if times < 0 or len(written) * times > MAX_TEXT:
        return _VALUE
    return written * times


def _limited_text_functions() -> dict[str, Any]:
    functions = _text_functions()
    functions["TEXTJOIN"] = wrap_func(_textjoin)
    functions["CONCAT"] = wrap_func(_concat)
    functions["REPT"] = with_text_arguments(wrap_ufunc(_rept, input_parser=lambda *a: a,
                                                       args_parser=lambda *a: (replace_empty(v, "") for v in a)),
                                            _TEXT_ARGUMENTS["REPT"])
    for name in ("CONCATENATE", "SUBSTITUTE", "REPLACE", "REPLACEB"):
        functions[name] = within_text_limit(functions[name])
    functions["ARRAYTOTEXT"] = within_text_limit(formulas_text.FUNCTIONS["ARRAYTOTEXT"])
    return functions


# --- VALUE ---------------------------------------------------------------------------------------

def _value(text: Any) -> Any:
    """VALUE(text): the number, time or date Excel reads in a text (Microsoft's VALUE page: "any of
    the constant number, date, or time formats recognized by Microsoft Excel"), the same reading as
    the operators' and the number arguments' (:func:`.arguments.text_number`): "$1,000" is 1000
    (POI's FormulaEvalTestData, saved by Excel), "(100)" -100, "10%" 0.1, "12:00" 0.5, "6:30 PM"
    0.7708..., "1/15/2024" 45306; other text ("1_000", "inf", "") is #VALUE!; a number is itself,
    TRUE and FALSE #VALUE!."""
    if isinstance(text, str) and not isinstance(text, sh.Token):  # a text, not an error or an empty cell
        number = text_number(text)
        return _VALUE if number is None else number
    return formulas_text.xvalue(text)


FUNCTIONS: dict[str, Any] = {
    "VALUE": wrap_ufunc(_value, input_parser=lambda *a: a),
    "VALUETOTEXT": wrap_ufunc(_valuetotext, input_parser=lambda *a: a, args_parser=_as_objects,
                              check_error=lambda value, format_type=0: get_error(format_type), check_nan=False),
    **_limited_text_functions(),
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
# of the Excel that saved it (:mod:`xlrating.engine.read.character_set`, from its docProps/app.xml),
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


# ENCODEURL (Excel's Web category): each character but RFC 3986's unreserved ones (letters and digits
# of ASCII, - . _ ~) as its UTF-8 bytes, each %XX in upper-case hexadecimal; Microsoft's example keeps
# the dots of "contoso.sharepoint.com" and makes ":" %3A, "/" %2F and a space %20. A number is encoded
# as the text Excel shows of it, TRUE/FALSE as TRUE/FALSE, an empty cell as the empty text.
_URL_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _encode_url(text: Any) -> Any:
    written = value_text(text)
    if isinstance(written, XlError):
        return written
    if isinstance(written, sh.Token) or not isinstance(written, str):  # an empty cell
        written = ""
    return "".join(char if char in _URL_KEPT else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
                   for char in written)


FUNCTIONS["ENCODEURL"] = within_text_limit(elementwise(_encode_url, numbers=False))



# --- TEXT (the number-format language: :mod:`.number_format`) ------------------------------------

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
        return float(formulas_text.xvalue(text)) - offset()  # a date: its serial in the workbook's system
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
    except (BadFormat, ValueError, OverflowError, IndexError):
        return _VALUE


FUNCTIONS["TEXT"] = wrap_ufunc(_text_function, input_parser=lambda *a: a, args_parser=_as_objects, check_nan=False)
FUNCTIONS.update(_CURRENCY_FUNCTIONS)  # DOLLAR, BAHTTEXT


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "ARRAYTOTEXT": {},
    "BAHTTEXT": {"scalars": "all"},
    "CHAR": {"pure": True, "scalars": "all"},
    "CLEAN": {"pure": True, "scalars": "all"},
    "CODE": {"pure": True, "scalars": "all"},
    "CONCAT": {"one_value": True, "arrays": True},
    "CONCATENATE": {"one_value": True, "pure": True, "scalars": "all"},
    "DOLLAR": {"pure": True, "scalars": "all"},
    "ENCODEURL": {"pure": True, "scalars": "all"},
    "EXACT": {"scalars": "all"},
    "FIND": {"pure": True, "scalars": "all"},
    "FINDB": {"scalars": "all"},
    "LEFT": {"pure": True, "scalars": "all"},
    "LEFTB": {"scalars": "all"},
    "LEN": {"pure": True, "scalars": "all"},
    "LENB": {"scalars": "all"},
    "LOWER": {"pure": True, "scalars": "all"},
    "MID": {"pure": True, "scalars": "all"},
    "MIDB": {"scalars": "all"},
    "PROPER": {"pure": True, "scalars": "all"},
    "REPLACE": {"pure": True, "scalars": "all"},
    "REPLACEB": {"scalars": "all"},
    "REPT": {"pure": True, "scalars": "all"},
    "RIGHT": {"pure": True, "scalars": "all"},
    "RIGHTB": {"scalars": "all"},
    "SEARCH": {"pure": True, "scalars": "all"},
    "SEARCHB": {"scalars": "all"},
    "SUBSTITUTE": {"pure": True, "scalars": "all"},
    "TEXT": {"pure": True, "scalars": "all"},
    "TEXTAFTER": {},
    "TEXTBEFORE": {},
    "TEXTJOIN": {"one_value": True, "arrays": True},
    "TRIM": {"pure": True, "scalars": "all"},
    "UPPER": {"pure": True, "scalars": "all"},
    "VALUE": {"pure": True, "scalars": "all"},
    "VALUETOTEXT": {},
}
