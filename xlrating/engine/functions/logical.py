"""Excel's logical functions where the engine computes them itself (see :mod:`xlrating.engine.functions`).

IF with a single condition returns the branch it takes as it is: a reference stays a reference, so
``SUM(IF(A1, B1:B2, B3:B5))`` adds the range IF chose (Microsoft's IF page: the value_if_true or
value_if_false argument is returned), and branches of different sizes are fine. ``formulas``
broadcasts the condition over both branches first, which makes that #VALUE!. A condition that is
itself an array still works element by element, by ``formulas``' own IF.

AND, OR and XOR read their arguments as Microsoft's pages and Excel's saved values say: in a
reference or an array only TRUE/FALSE and numbers count (text and empty cells are left out); a value
given directly counts as a logical value, a number (0 is FALSE) or the text "TRUE" or "FALSE" (any
case: ``=AND("FALSE")`` is FALSE, IronCalc's LOGICAL_AND_OR_XOR book saved by Excel; ``formulas``
left such text out), and any other text given so is left out too (``=AND(TRUE,"0")`` is TRUE,
``=OR("",FALSE)`` FALSE, ``=AND("1")`` #VALUE!, in that book and formulas' test.xlsx). No logical
value at all is #VALUE!; the first error, in argument order, is the result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array, replace_empty, wrap_func
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..formula.values import if_branch, single
from .dynamic_arrays import check_size
from .library import formulas_function


def _formulas(name: str) -> Any:
    found = formulas_function(name)
    return found["function"] if isinstance(found, dict) else found


def excel_if(condition: Any, if_true: Any = True, if_false: Any = False) -> Any:
    """IF(logical_test, [value_if_true], [value_if_false])."""
    branch = if_branch(condition)
    if branch is None:
        parsed = [a.value if isinstance(a, Ranges) else a for a in (condition, if_true, if_false)]
        return _formulas("IF")(*parsed)
    if isinstance(branch, XlError):
        return branch
    return if_true if branch == 1 else if_false


def _first(value: Any) -> Any:
    return value.ravel()[0] if isinstance(value, np.ndarray) else value


def _cells(values: list[Any], shape: tuple[int, ...]) -> Any:
    """Values as an array of cells, errors kept as errors (a plain ``np.asarray`` would turn an
    error value into its text, so ``SCAN`` showed the text "#N/A" where Excel shows the error)."""
    cells = np.empty(len(values), dtype=object)
    cells[:] = values
    return cells.reshape(shape).view(Array)


def scan(initial_value: Any, array: Any, function: Any) -> Any:
    """SCAN(initial_value, array, lambda): each step's accumulated value, in the array's shape."""
    values = np.atleast_2d(array)
    total = replace_empty(initial_value)
    out = []
    for item in values.ravel().tolist():
        total = function(total, item)
        out.append(_first(total))
    return _cells(out, values.shape)


def map_(array: Any, *more: Any) -> Any:
    """MAP(array1, [array2, ...], lambda): the lambda applied to the arrays' cells one by one; arrays
    of different shapes are #VALUE!."""
    *others, function = more
    arrays = [np.atleast_2d(array), *(np.atleast_2d(a) for a in others)]
    if any(a.shape != arrays[0].shape for a in arrays):
        return Error.errors["#VALUE!"]
    out = [_first(function(*items)) for items in zip(*(a.ravel().tolist() for a in arrays))]
    return _cells(out, arrays[0].shape)


def _same(left: Any, right: Any) -> bool:
    """Excel's ``=`` on two values: texts ignore case; a number never equals a text or TRUE/FALSE;
    an empty cell equals 0 and the empty text."""
    if left is sh.EMPTY or left is None:
        left = "" if isinstance(right, str) and right is not sh.EMPTY else 0.0
    if right is sh.EMPTY or right is None:
        right = "" if isinstance(left, str) else 0.0
    if isinstance(left, str) and isinstance(right, str):
        return left.casefold() == right.casefold()
    if isinstance(left, (bool, np.bool_)) or isinstance(right, (bool, np.bool_)):
        return isinstance(left, (bool, np.bool_)) and isinstance(right, (bool, np.bool_)) and bool(left) == bool(right)
    if isinstance(left, str) or isinstance(right, str):
        return False
    return bool(left == right)


def switch(expression: Any, *cases: Any) -> Any:
    """SWITCH(expression, value1, result1, ..., [default]): the result of the first value equal to
    the expression, compared as ``=`` compares (texts without regard to case: "UPPER" matches
    "Upper"); no match and no default is #N/A; an error in the expression is that error."""
    scalar, value = single(expression)
    if not scalar:
        return _formulas("SWITCH")(expression, *cases)
    if isinstance(value, XlError):
        return value
    pairs, default = (cases[:-1], cases[-1]) if len(cases) % 2 else (cases, None)
    if not pairs:
        return Error.errors["#VALUE!"]
    for candidate, result in zip(pairs[::2], pairs[1::2]):
        ok, match = single(candidate)
        if not ok:
            return Error.errors["#VALUE!"]
        if isinstance(match, XlError):
            return match
        if _same(value, match):
            return result
    return Error.errors["#N/A"] if default is None else default


def _count(value: Any) -> int | None:
    scalar, value = single(value)
    if not scalar or isinstance(value, (bool, np.bool_, str)):
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _logical_values(args: tuple[Any, ...]) -> list[bool] | XlError:
    """The logical values AND, OR and XOR take from ``args``, or the error they make."""
    found: list[bool] = []
    for argument in args:
        if isinstance(argument, np.ndarray) and (type(argument) is np.ndarray or argument.size > 1):
            for value in argument.ravel().tolist():  # a reference or an array: text and empty cells left out
                value = _first(value)
                if isinstance(value, XlError):
                    return value
                if isinstance(value, (bool, np.bool_, int, float, np.integer, np.floating)):
                    found.append(bool(value))
            continue
        value = _first(argument)
        if isinstance(value, XlError):
            return value
        if value is sh.EMPTY or isinstance(value, np.ndarray):
            continue
        if isinstance(value, str):  # typed text: "TRUE" and "FALSE" are logical values, other text is left out
            if value.upper() in ("TRUE", "FALSE"):
                found.append(value.upper() == "TRUE")
            continue
        found.append(bool(value))
    return found


def _logical(reduce: Any) -> Any:
    def logical(*args: Any) -> Any:
        found = _logical_values(args)
        if isinstance(found, XlError):
            return found
        return bool(reduce(found)) if found else Error.errors["#VALUE!"]
    return logical


def makearray(rows: Any, columns: Any, function: Any) -> Any:
    """MAKEARRAY(rows, columns, lambda): ``formulas``' MAKEARRAY (the lambda called for each row and
    column), once the array's size is checked as the dynamic arrays' are: MAKEARRAY(20000, 20000, ...)
    would call the lambda 400 million times for an array Excel cannot hold."""
    height, width = _count(rows), _count(columns)
    if height is not None and width is not None and height >= 1 and width >= 1:
        check_size(height, width, "MAKEARRAY")
    return _formulas("MAKEARRAY")(rows, columns, function)


FUNCTIONS: dict[str, Any] = {
    "MAKEARRAY": wrap_func(makearray),
    "IF": wrap_func(excel_if, ranges=True),
    "SWITCH": wrap_func(switch),
    "SCAN": wrap_func(scan),
    "MAP": wrap_func(map_),
    "AND": wrap_func(_logical(all)),
    "OR": wrap_func(_logical(any)),
    "XOR": wrap_func(_logical(lambda found: sum(found) % 2 == 1)),
}


# Excel's facts about this module's functions (each name its ``FUNCTIONS`` defines), one line each;
# read without importing this module (:mod:`xlrating.engine.formula.declared`, which says what each
# fact means). A function with none is declared {}.
DECLARED: dict[str, dict[str, object]] = {
    "AND": {"one_value": True, "vector": True},
    "IF": {"vector": True},
    "MAKEARRAY": {"spills": True},
    "MAP": {"spills": True},
    "OR": {"one_value": True, "vector": True},
    "SCAN": {"spills": True},
    "SWITCH": {},
    "XOR": {"one_value": True},
}
