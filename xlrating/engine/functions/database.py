"""Excel's database functions (DSUM & co.), which ``formulas`` does not have.

Each takes ``(database, field, criteria)`` (Microsoft Support, "Database functions (reference)" and
each function's page, e.g. "DAVERAGE function",
https://support.microsoft.com/en-us/office/daverage-function-a6a2d5ac-4b4b-48cd-a1d8-7b37834e5aee):

- ``database``: a range whose first row holds the column labels; each row below is a record.
- ``field``: the column the function reads, by label (text, case-insensitive) or 1-based position.
  DCOUNT and DCOUNTA may omit it: they then count the matching records.
- ``criteria``: a range whose first row holds column labels and whose rows below hold conditions.
  The conditions of one row must all hold (AND); a record matches if any row holds (OR). An empty
  condition cell holds for every record, so a blank criteria row selects the whole database.

A condition (Microsoft Support, "Examples of complex criteria"; ECMA-376 Part 1, 18.17.7.77
DAVERAGE) is a value or a text:

- a number, TRUE/FALSE or an error value: the cell equals it;
- a text starting with ``=``, ``<>``, ``<``, ``<=``, ``>``, ``>=``: the comparison with the rest, which is read
  as a number (or a date) when it reads as one; ``=`` with text is an exact, case-insensitive match with
  wildcards (``?`` one character, ``*`` any run, ``~`` escapes them); ``=`` alone matches empty cells and
  ``<>`` alone non-empty ones;
- any other text: the cell's text *begins with* it ("Pea" matches Pea, Pear and Peach), wildcards allowed.

A condition under a label that is no column of the database (or under no label) is Excel's computed
criterion: a formula Excel evaluates for each record, selecting the records where it is TRUE. A text,
number, FALSE or error there selects no record (a criteria row holding one matches nothing: Excel's
values in IronCalc's database workbooks); a TRUE may hold for some records only, which the engine cannot
tell from the one value it has, and gives ``#VALUE!``.

A database of its header row alone is ``#VALUE!``; so is a ``field`` of 0 (a typed 0 is no omitted
field).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import schedula as sh
from formulas.errors import FoundError
from formulas.functions import Array, wrap_func
from formulas.tokens.operand import Error, XlError

from ..formula.values import is_omitted
from .arguments import text_number, wildcard_source

_OPERATORS = ("<=", ">=", "<>", "<", ">", "=")
# A date written in a condition (">12/19/2017"): compared as its serial number.
_DATE = re.compile(r"\d{1,4}[/-]\d{1,2}[/-]\d{1,4}")


def _fail(code: str) -> FoundError:
    """The exception ``formulas.functions.wrap_func`` turns into the error value ``code``."""
    return FoundError(err=Error.errors[code])


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _grid(value: Any) -> np.ndarray:
    """A range or array argument as a 2-D object array."""
    array = np.asarray(value, dtype=object)
    return array.reshape(1, -1) if array.ndim < 2 else array


def _single(value: Any) -> Any:
    """The one value of a scalar argument (a one-cell range or array gives its value)."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise _fail("#VALUE!")
        return value.ravel()[0]
    return value


def _label(value: Any) -> str | None:
    """A header cell as the label criteria and ``field`` are compared with: its text, case-insensitive,
    so the label "true" names a column headed by the logical TRUE, and "1" one headed by the number 1
    (the first such column: in IronCalc's database workbooks, a criteria label "true" picks the TRUE
    column before a later "true" one, and a field "true" the same)."""
    if value is sh.EMPTY or isinstance(value, XlError):
        return None
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if _is_number(value):
        return f"{float(value):.15g}"
    return str(value).casefold()


def _labels(header: Sequence[Any]) -> dict[str, int]:
    """Column label -> 0-based column of the database (the first column of a repeated label)."""
    found: dict[str, int] = {}
    for column, value in enumerate(header):
        label = _label(value)
        if label is not None:
            found.setdefault(label, column)
    return found


def _field(header: Sequence[Any], field: Any, optional: bool) -> int | None:
    """The 0-based column ``field`` names: a label or a 1-based position (truncated: 6.5 is the 6th
    column; TRUE is 1); None when omitted and ``optional`` (DCOUNT, DCOUNTA). An unknown label or a
    position outside the database (0 included): #VALUE!."""
    if is_omitted(field):
        if optional:
            return None
        raise _fail("#VALUE!")
    value = _single(field)
    if isinstance(value, XlError):
        raise FoundError(err=value)
    if isinstance(value, (bool, np.bool_)):
        value = float(value)
    if _is_number(value):
        column = int(value) - 1
        if 0 <= column < len(header):
            return column
        raise _fail("#VALUE!")
    if isinstance(value, str):
        labelled = _labels(header).get(value.casefold())
        if labelled is not None:
            return labelled
    raise _fail("#VALUE!")


# --- conditions ---------------------------------------------------------------------------------

Test = Callable[[Any], bool]


def _wildcard(pattern: str, begins: bool) -> re.Pattern[str]:
    """Excel's wildcard pattern (``?``, ``*``, ``~`` escape; a last lone ``~`` is itself) as a
    case-insensitive regex matching the whole text, or its beginning when ``begins``."""
    return re.compile(wildcard_source(pattern, lone_tilde="~") + (".*" if begins else ""),
                      re.IGNORECASE | re.DOTALL)


def _operand(text: str) -> Any:
    """The value after a comparison operator: a number, or a date written with ``/`` or ``-`` (as its
    serial number), TRUE/FALSE, an error value, else the text itself."""
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    if text.upper() in Error.errors:
        return Error.errors[text.upper()]
    try:
        return float(text)
    except ValueError:
        pass
    if _DATE.fullmatch(text.strip()):
        number = text_number(text.strip())  # a serial of the workbook's date system, as its cells hold
        return text if number is None else number
    return text


def _same_kind(cell: Any, operand: Any) -> bool:
    """Whether ``cell`` and ``operand`` can be compared: both numbers, both texts, both logical."""
    if isinstance(operand, XlError) or isinstance(cell, XlError):
        return False
    if isinstance(operand, bool):
        return isinstance(cell, (bool, np.bool_))
    if _is_number(operand):
        return _is_number(cell)
    return isinstance(cell, str)


def _equals(operand: Any) -> Test:
    """The cell equals ``operand``: numbers numerically, text exactly (case-insensitive, wildcards)."""
    if isinstance(operand, XlError):
        return lambda cell: isinstance(cell, XlError) and str(cell) == str(operand)
    if isinstance(operand, str):
        pattern = _wildcard(operand, begins=False)
        return lambda cell: _same_kind(cell, operand) and pattern.fullmatch(cell) is not None
    return lambda cell: _same_kind(cell, operand) and cell == operand


def _ordered(operator: str, operand: Any) -> Test:
    """``cell <operator> operand`` for ``<``, ``<=``, ``>``, ``>=``; texts compare case-insensitively."""
    def key(value: Any) -> Any:
        return value.casefold() if isinstance(value, str) else value

    compare: dict[str, Callable[[Any, Any], bool]] = {
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
    check = compare[operator]
    return lambda cell: _same_kind(cell, operand) and check(key(cell), key(operand))


def _comparison(operator: str, text: str) -> Test:
    """A condition written as an operator and a value (``>=10``, ``<>x``, ``=Apple``, ``=``, ``<>``)."""
    if text == "":
        if operator == "=":
            return lambda cell: cell is sh.EMPTY
        if operator == "<>":
            return lambda cell: cell is not sh.EMPTY
    operand = _operand(text)
    if operator == "=":
        return _equals(operand)
    if operator == "<>":
        equal = _equals(operand)
        return lambda cell: not equal(cell)
    return _ordered(operator, operand)


def _condition(value: Any) -> Test | None:
    """The test a criteria cell puts on a database cell; None for an empty cell (no condition)."""
    if value is sh.EMPTY or (isinstance(value, str) and not isinstance(value, XlError) and value == ""):
        return None
    if isinstance(value, XlError) or not isinstance(value, str):
        operand = bool(value) if isinstance(value, (bool, np.bool_)) else value
        return _equals(float(operand) if _is_number(operand) else operand)
    for operator in _OPERATORS:
        if value.startswith(operator):
            return _comparison(operator, value[len(operator):])
    operand = _operand(value)
    if not isinstance(operand, str):  # a number typed as text: equality
        return _equals(operand)
    pattern = _wildcard(value, begins=True)
    return lambda cell: isinstance(cell, str) and not isinstance(cell, XlError) and pattern.match(cell) is not None


@dataclass(frozen=True)
class _Condition:
    column: int
    test: Test


def _criteria(header: Sequence[Any], criteria: np.ndarray) -> list[list[_Condition]]:
    """The criteria range as rows of conditions (AND within a row, OR between rows)."""
    if criteria.shape[0] < 2:
        raise _fail("#VALUE!")
    columns = _labels(header)
    targets = [columns.get(label) if label is not None else None
               for label in map(_label, criteria[0].tolist())]
    rows: list[list[_Condition]] = []
    for values in criteria[1:].tolist():
        row: list[_Condition] | None = []
        for target, value in zip(targets, values):
            test = _condition(value)
            if test is None:
                continue
            if target is None:
                # A label the database does not have (or none): Excel's computed criterion, a formula
                # it evaluates for each record and whose TRUE selects it. Any other value selects no
                # record whatever the record; a TRUE may depend on the record, which is not known here.
                if isinstance(value, (bool, np.bool_)) and value:
                    raise _fail("#VALUE!")
                row = None
                break
            row.append(_Condition(target, test))
        if row is not None:
            rows.append(row)
    return rows


def _selected(database: Any, field: Any, criteria: Any, optional_field: bool = False) -> list[Any]:
    """The ``field`` cells of the records matching ``criteria`` (whole records' first cells when the
    field is omitted)."""
    table, conditions = _grid(database), _grid(criteria)
    if table.shape[0] < 2:  # a database of its header alone: #VALUE!, as Excel saved it
        raise _fail("#VALUE!")
    header = table[0].tolist()
    column = _field(header, field, optional_field)
    rows = _criteria(header, conditions)
    chosen: list[Any] = []
    for record in table[1:].tolist():
        if any(all(c.test(record[c.column]) for c in row) for row in rows):
            chosen.append(record[column] if column is not None else True)
    return chosen


# --- the functions ------------------------------------------------------------------------------

def _numbers(values: list[Any]) -> list[float]:
    """The numbers among ``values`` (text, TRUE/FALSE and blanks are skipped); the first error raises."""
    numbers: list[float] = []
    for value in values:
        if isinstance(value, XlError):
            raise FoundError(err=value)
        if _is_number(value):
            numbers.append(float(value))
    return numbers


def _product(values: list[float]) -> float:
    return math.prod(values) if values else 0.0


def _average(values: list[float]) -> float:
    if not values:
        raise _fail("#DIV/0!")
    return math.fsum(values) / len(values)


def _spread(measure: Callable[[list[float]], float], least: int) -> Callable[[list[float]], float]:
    """A standard deviation or variance, #DIV/0! with fewer than ``least`` numbers."""
    def spread(values: list[float]) -> float:
        if len(values) < least:
            raise _fail("#DIV/0!")
        return float(measure(values))
    return spread


def _numeric(reduce: Callable[[list[float]], float]) -> Callable[[Any, Any, Any], Array]:
    """A database function reducing the numbers of the field over the matching records."""
    def function(database: Any, field: Any, criteria: Any) -> Array:
        return _cell(reduce(_numbers(_selected(database, field, criteria))))
    return function


def _dcount(database: Any, field: Any = None, criteria: Any = None) -> Array:
    """DCOUNT: how many matching records hold a number in ``field`` (errors are not counted); with the
    field omitted, how many records match."""
    if criteria is None:
        raise _fail("#VALUE!")
    values = _selected(database, field, criteria, optional_field=True)
    if is_omitted(field):
        return _cell(float(len(values)))
    return _cell(float(sum(1 for v in values if _is_number(v))))


def _dcounta(database: Any, field: Any = None, criteria: Any = None) -> Array:
    """DCOUNTA: how many matching records have a non-blank ``field`` (text, logical and errors count);
    with the field omitted, how many records match."""
    if criteria is None:
        raise _fail("#VALUE!")
    values = _selected(database, field, criteria, optional_field=True)
    return _cell(float(sum(1 for v in values if v is not sh.EMPTY)))


def _dget(database: Any, field: Any, criteria: Any) -> Array:
    """DGET: the ``field`` of the one matching record; #VALUE! when none matches, #NUM! when several do."""
    values = _selected(database, field, criteria)
    if not values:
        raise _fail("#VALUE!")
    if len(values) > 1:
        raise _fail("#NUM!")
    return _cell(values[0])


def _cell(value: Any) -> Array:
    return np.asarray([[value]], dtype=object).view(Array)


FUNCTIONS: dict[str, Any] = {
    "DAVERAGE": wrap_func(_numeric(_average)),
    "DCOUNT": wrap_func(_dcount),
    "DCOUNTA": wrap_func(_dcounta),
    "DGET": wrap_func(_dget),
    "DMAX": wrap_func(_numeric(lambda values: max(values, default=0.0))),
    "DMIN": wrap_func(_numeric(lambda values: min(values, default=0.0))),
    "DPRODUCT": wrap_func(_numeric(_product)),
    "DSTDEV": wrap_func(_numeric(_spread(statistics.stdev, 2))),
    "DSTDEVP": wrap_func(_numeric(_spread(statistics.pstdev, 1))),
    "DSUM": wrap_func(_numeric(math.fsum)),
    "DVAR": wrap_func(_numeric(_spread(statistics.variance, 2))),
    "DVARP": wrap_func(_numeric(_spread(statistics.pvariance, 1))),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "DAVERAGE": {"one_value": True},
    "DCOUNT": {"one_value": True},
    "DCOUNTA": {"one_value": True},
    "DGET": {"one_value": True},
    "DMAX": {"one_value": True},
    "DMIN": {"one_value": True},
    "DPRODUCT": {"one_value": True},
    "DSTDEV": {"one_value": True},
    "DSTDEVP": {"one_value": True},
    "DSUM": {"one_value": True},
    "DVAR": {"one_value": True},
    "DVARP": {"one_value": True},
}
