"""Excel's criteria of COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF, AVERAGEIFS, MAXIFS and MINIFS.

A criterion (Microsoft Support, "COUNTIF function" and "SUMIF function") is a value, or a text that
may start with a comparison operator (``=``, ``<>``, ``<``, ``<=``, ``>``, ``>=``). The rules below were
pinned down on the cached values of workbooks saved by Excel (ironcalc's
``calc_tests_STATISTICAL_COUNTIF``/``COUNTIFS``, ``MATH_AND_TRIGONOMETRY_SUMIFS``/``SUMIF_AVERAGE_IF``
and formulas' ``test.xlsx``); tests/engine/functions/test_criteria.py cites the cells.

- The text after the operator (a text without one is an ``=`` criterion) is read as a number (or a
  date written with ``/`` or ``-``), TRUE/FALSE, or an error value when it reads as one, else it is a
  text (:func:`.database._operand`, the database functions' reading).
- A number criterion (or an empty criterion cell, which is the number 0 — not "empty") matches
  number cells; ``=`` also matches text cells that read as that number ("23" for 23), but ``<>``
  excludes only the number cells equal to it; ``<``, ``<=``, ``>``, ``>=`` compare number cells only.
- TRUE/FALSE (typed, or as text in any case: "true") matches TRUE/FALSE cells only, not 1/0 nor the
  text "TRUE"; ordering compares them among themselves.
- An error criterion (#N/A, or the text "#N/A") matches the cells holding that error; text cells
  spelling it do not.
- A text criterion compares with text cells only, case-insensitively: ``=`` the whole text with
  wildcards (``?`` one character, ``*`` any run, ``~`` escapes them), ``<``, ``<=``, ``>``, ``>=`` in text order.
- ``<>`` with an operand matches every cell the ``=`` criterion does not — empty cells and errors
  included — except for the number rule above.
- ``""`` or ``=`` alone matches empty cells and cells holding the empty text; ``<>`` alone every cell
  that is not empty (a formula's "" included); ``<``, ``<=``, ``>``, ``>=`` alone match nothing.
- Error cells match only an error criterion or ``<>``.

The aggregates take the cells of their range (the sum range of SUMIF and AVERAGEIF, from its
top-left cell, in the shape of the criteria range) where every criterion holds: numbers only (text,
TRUE/FALSE and empty cells are skipped); the first error among them is the result. AVERAGEIF(S)
without a number is #DIV/0!, MAXIFS and MINIFS 0. The ranges of the -IFS functions must all have
the same shape (#VALUE! otherwise). A criterion that is an array or a range of several cells gives
an array of results, one per criterion.

Each range is classified once (one Python pass, kept for the following calls with the same range
object, as a column of COUNTIFs over a fixed range makes them); each criterion is then a few numpy
operations over the whole range.
"""

from __future__ import annotations

import math
import operator
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import numpy as np
import schedula as sh
from formulas.errors import FoundError
from formulas.functions import Array
from formulas.tokens.operand import XlError

from ..formula.values import is_omitted
from ..read.date_system import offset
from .arguments import average, text_number
from .database import _DATE, _fail, _operand, _wildcard
from .dynamic_arrays import grid

EMPTY, NUMBER, TEXT, LOGICAL, ERROR = range(5)
_OPERATORS = ("<=", ">=", "<>", "<", ">", "=")
_ORDER: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_WILD = re.compile(r"[?*~]")


# --- the cells of a range -----------------------------------------------------------------------

def _text_number(text: str) -> float:
    """A text cell as the number an ``=`` number criterion matches it with (NaN if none)."""
    try:
        number = float(text)
    except ValueError:
        if not _DATE.fullmatch(text.strip()):
            return math.nan
        read = text_number(text.strip())  # a serial of the workbook's date system, as its cells hold
        number = math.nan if read is None else read
    return number if math.isfinite(number) else math.nan


class Cells:
    """A range's values, classified: kind (EMPTY, NUMBER, TEXT, LOGICAL, ERROR) and number of each cell,
    the texts (case-folded) and error codes on demand."""

    def __init__(self, values: np.ndarray):
        self.shape: tuple[int, ...] = values.shape
        self.values: list[Any] = values.ravel().tolist()
        kinds = bytearray(len(self.values))
        numbers = [math.nan] * len(self.values)
        for i, value in enumerate(self.values):
            kind = type(value)
            if kind is float or kind is int:
                kinds[i], numbers[i] = NUMBER, value
            elif kind is str:
                kinds[i] = TEXT
            elif value is sh.EMPTY or value is None:
                pass
            elif isinstance(value, XlError):
                kinds[i] = ERROR
            elif isinstance(value, (bool, np.bool_)):
                kinds[i], numbers[i] = LOGICAL, float(value)
            elif isinstance(value, (int, float, np.integer, np.floating)):
                kinds[i], numbers[i] = NUMBER, float(value)
            else:
                kinds[i] = TEXT
        self.kinds = np.frombuffer(bytes(kinds), dtype=np.uint8)
        self.numbers = np.asarray(numbers, dtype=float)

    @cached_property
    def texts(self) -> np.ndarray:
        """The indices of the text cells."""
        return np.flatnonzero(self.kinds == TEXT)

    @cached_property
    def folded(self) -> np.ndarray:
        """Each cell's text, case-folded ("" for the cells that are not text)."""
        folded = np.full(len(self.values), "", dtype=object)
        folded[self.texts] = [str(self.values[i]).casefold() for i in self.texts.tolist()]
        return folded

    @cached_property
    def text_codes(self) -> tuple[dict[str, int], np.ndarray]:
        """Each distinct case-folded text's code, and each cell's code (-1 for the cells that are not
        text): an equality with a text is then one comparison of integers over the range."""
        codes: dict[str, int] = {}
        cell_codes = np.full(len(self.values), -1, dtype=np.int32)
        cell_codes[self.texts] = [codes.setdefault(text, len(codes)) for text in self.folded[self.texts].tolist()]
        return codes, cell_codes

    @cached_property
    def text_numbers(self) -> np.ndarray:
        """The number each text cell reads as (NaN for the others)."""
        numbers = np.full(len(self.values), math.nan)
        numbers[self.texts] = [_text_number(str(self.values[i])) for i in self.texts.tolist()]
        return numbers

    @cached_property
    def errors(self) -> np.ndarray:
        """Each error cell's code ("" for the others)."""
        codes = np.full(len(self.values), "", dtype=object)
        where = np.flatnonzero(self.kinds == ERROR)
        codes[where] = [str(self.values[i]) for i in where.tolist()]
        return codes

    def kind(self, kind: int) -> np.ndarray:
        mask: np.ndarray = self.kinds == kind
        return mask


_CELLS: OrderedDict[int, tuple[np.ndarray, Cells]] = OrderedDict()
_KEPT = 16


def cells(values: Any) -> Cells:
    """The classified cells of a range or array argument (a scalar as a 1x1 range); the same range
    object again gives the same :class:`Cells` (the ``formulas`` range of a fixed reference is
    handed over as the same array at each call)."""
    if not isinstance(values, np.ndarray):
        values = np.asarray([[values]], dtype=object)
    found = _CELLS.get(id(values))
    if found is not None and found[0] is values:
        _CELLS.move_to_end(id(values))
        return found[1]
    classified = Cells(values if values.ndim == 2 else values.reshape(1, -1))
    _CELLS[id(values)] = (values, classified)  # the array is kept, so its id is not reused meanwhile
    if len(_CELLS) > _KEPT:
        _CELLS.popitem(last=False)
    return classified


# --- criteria -----------------------------------------------------------------------------------

class Criterion(NamedTuple):
    """A parsed criterion: the operator, the kind of the operand (EMPTY for none) and the operand
    (a float, a bool, an error code, or a text)."""
    operator: str
    kind: int
    operand: Any


def _parse_text(text: str) -> Criterion:
    """A criterion typed as text; remembered per date system, in which a date in it is a serial."""
    return _parse_in_system(text, offset())


@lru_cache(maxsize=4096)
def _parse_in_system(text: str, days: int) -> Criterion:
    """:func:`_parse_text` in the date system whose serials are ``days`` fewer than the 1900 system's."""
    op = "="
    for candidate in _OPERATORS:
        if text.startswith(candidate):
            op, text = candidate, text[len(candidate):]
            break
    if text == "":
        return Criterion(op, EMPTY, "")
    operand = _operand(text)
    if isinstance(operand, XlError):
        return Criterion(op, ERROR, str(operand))
    if isinstance(operand, bool):
        return Criterion(op, LOGICAL, float(operand))
    if isinstance(operand, float) and math.isfinite(operand):
        return Criterion(op, NUMBER, operand)
    return Criterion(op, TEXT, text)


def criterion(value: Any) -> Criterion:
    """A criterion argument's value (a scalar) as a :class:`Criterion`."""
    if value is sh.EMPTY or value is None:
        return Criterion("=", NUMBER, 0.0)  # an empty criterion cell is 0
    if isinstance(value, XlError):
        return Criterion("=", ERROR, str(value))
    if isinstance(value, (bool, np.bool_)):
        return Criterion("=", LOGICAL, float(value))
    if isinstance(value, str):
        return _parse_text(value)
    return Criterion("=", NUMBER, float(value))


def _equal(found: Cells, test: Criterion) -> np.ndarray:
    """The cells an ``=`` criterion with an operand matches."""
    mask: np.ndarray
    if test.kind in (NUMBER, LOGICAL):
        mask = found.kind(test.kind) & (found.numbers == test.operand)
    elif test.kind == ERROR:
        mask = found.errors == test.operand
    elif _WILD.search(test.operand):
        pattern = _wildcard(test.operand, begins=False)
        mask = np.zeros(len(found.values), dtype=bool)
        mask[found.texts] = [pattern.fullmatch(str(found.values[i])) is not None for i in found.texts.tolist()]
    else:
        codes, cell_codes = found.text_codes
        code = codes.get(test.operand.casefold())
        mask = cell_codes == code if code is not None else np.zeros(len(found.values), dtype=bool)
    return mask


def matches(found: Cells, test: Criterion) -> np.ndarray:
    """Which cells (flat, row by row) ``test`` matches."""
    op, kind = test.operator, test.kind
    mask: np.ndarray
    if kind == EMPTY:
        if op == "=":
            mask = found.kind(EMPTY) | (found.kind(TEXT) & (found.folded == ""))
        elif op == "<>":
            mask = ~found.kind(EMPTY)
        else:
            mask = np.zeros(len(found.values), dtype=bool)
    elif op == "=":
        mask = _equal(found, test)
        if kind == NUMBER:  # text that reads as the number matches too, for "=" only
            mask = mask | (found.text_numbers == test.operand)
    elif op == "<>":
        mask = ~_equal(found, test)
    elif kind in (NUMBER, LOGICAL):
        mask = found.kind(kind) & _ORDER[op](found.numbers, test.operand)
    else:
        mask = np.zeros(len(found.values), dtype=bool)
        if kind == TEXT and found.texts.size:
            mask[found.texts] = _ORDER[op](found.folded[found.texts], test.operand.casefold()).astype(bool)
    return mask


# --- arguments ----------------------------------------------------------------------------------

def _each(criteria: Sequence[Any], one: Callable[[list[Any]], Any]) -> Any:
    """``one`` of each combination of criteria (one value per criterion argument): a single value for
    single criteria, else an array in the criteria's (broadcast) shape."""
    arrays = [grid(c) for c in criteria]
    if all(a.size == 1 for a in arrays):
        result = one([a.ravel()[0] for a in arrays])
        return np.asarray([[result]], dtype=object).view(Array)
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        raise _fail("#VALUE!") from None
    spread = [np.broadcast_to(a, shape).ravel().tolist() for a in arrays]
    results = [one(list(values)) for values in zip(*spread)]
    out = np.empty(len(results), dtype=object)
    out[:] = results
    return out.reshape(shape).view(Array)


def _mask(tests: Sequence[Cells], values: Sequence[Any]) -> np.ndarray:
    mask = matches(tests[0], criterion(values[0]))
    for found, value in zip(tests[1:], values[1:]):
        mask = mask & matches(found, criterion(value))
    return mask


def _resized(values: Any, shape: tuple[int, ...]) -> np.ndarray:
    """SUMIF's sum_range from its top-left cell in ``shape`` (cells beyond the range given: empty)."""
    array = grid(values)
    rows, cols = shape[0], shape[1]
    if array.shape == (rows, cols):
        return array
    sized = np.full((rows, cols), sh.EMPTY, dtype=object)
    part = array[:rows, :cols]
    sized[:part.shape[0], :part.shape[1]] = part
    return sized


Reduce = Callable[[list[float]], Any]


def _numbers(found: Cells, mask: np.ndarray) -> list[float]:
    """The numbers of the matched cells, in order; the first error among the matched cells raises."""
    errors = mask & found.kind(ERROR)
    if errors.any():
        raise FoundError(err=found.values[int(np.argmax(errors))])
    numbers: list[float] = found.numbers[mask & found.kind(NUMBER)].tolist()
    return numbers


def _value(reduce: Reduce, found: Cells, mask: np.ndarray) -> Any:
    try:
        return reduce(_numbers(found, mask))
    except FoundError as failure:  # an error value among the matched cells
        return failure.err


def _total(values: list[float]) -> float:
    return float(sum(values))


def _most(values: list[float]) -> float:
    return max(values, default=0.0)


def _least(values: list[float]) -> float:
    return min(values, default=0.0)


_EMPTY_CELL = Cells(np.asarray([[sh.EMPTY]], dtype=object))


def _count(tests: Sequence[Cells], values: Sequence[Any], beyond: int) -> float:
    """The cells every criterion matches, plus the ``beyond`` empty cells of whole columns or rows
    past the sheet's used area when every criterion matches an empty cell."""
    count = int(np.count_nonzero(_mask(tests, values)))
    if beyond and all(matches(_EMPTY_CELL, criterion(value))[0] for value in values):
        count += beyond
    return float(count)


def _if(reduce: Reduce | None) -> Callable[..., Any]:
    """COUNTIF (``reduce`` None), SUMIF or AVERAGEIF: (range, criterion, [sum_range]); ``beyond``:
    COUNTIF's empty cells past what was read of a whole column or row (:func:`_count`)."""
    def function(test_range: Any, condition: Any = sh.EMPTY, sum_range: Any = None, *, beyond: int = 0) -> Any:
        tested = cells(test_range)
        if reduce is None:
            return _each([condition], lambda values: _count([tested], values, beyond))
        summed = tested if is_omitted(sum_range) else cells(_same_range(sum_range, tested.shape))
        return _each([condition], lambda values: _value(reduce, summed, _mask([tested], values)))
    return function


def _same_range(sum_range: Any, shape: tuple[int, ...]) -> Any:
    """The sum range as given when it has ``shape`` (its classification is then kept), else resized."""
    if isinstance(sum_range, np.ndarray) and sum_range.shape == shape:
        return sum_range
    return _resized(sum_range, shape)


def _ifs(reduce: Reduce | None) -> Callable[..., Any]:
    """COUNTIFS (``reduce`` None: range, criterion pairs) or SUMIFS & co. (values, then pairs);
    ``beyond`` as for COUNTIF."""
    def function(*args: Any, beyond: int = 0) -> Any:
        summed: Cells | None = None
        if reduce is not None:
            if not args:
                raise _fail("#VALUE!")
            summed, args = cells(args[0]), args[1:]
        if not args or len(args) % 2:
            raise _fail("#VALUE!")
        tests = [cells(r) for r in args[0::2]]
        shape = summed.shape if summed is not None else tests[0].shape
        if any(t.shape != shape for t in tests):
            raise _fail("#VALUE!")
        if summed is None or reduce is None:
            return _each(args[1::2], lambda values: _count(tests, values, beyond))
        total, reducer = summed, reduce
        return _each(args[1::2], lambda values: _value(reducer, total, _mask(tests, values)))
    return function


countif = _if(None)
sumif = _if(_total)
averageif = _if(average)
countifs = _ifs(None)
sumifs = _ifs(_total)
averageifs = _ifs(average)
maxifs = _ifs(_most)
minifs = _ifs(_least)
