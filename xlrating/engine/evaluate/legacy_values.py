"""The IS functions (ISERROR, ISNUMBER ...) in a legacy formula, where a range given for their one
value is first intersected with the formula's row or column.

An ordinary formula cell (no array formula, no dynamic-array function) is computed by Excel as a
legacy formula: a range given where a function takes one value is the cell of the range in the
formula's own row (a column of cells) or column (a row of cells), and #VALUE! when there is none
(Microsoft's "Implicit intersection operator: @" page). So ``=ISERROR(C10:C13)`` in E11 tests C11,
and in E20 tests #VALUE!: TRUE; ``=ISNUMBER(G7:J7)`` in K7 is ISNUMBER(#VALUE!), FALSE. Intersecting
the result instead (ISERROR of every cell, then the one in the formula's row) gives the same where
the row meets the range but #VALUE! where it does not, which no IS function returns.

Inside a function whose parameter takes an array (SUMPRODUCT, INDEX, MATCH, LOOKUP, LARGE ...), a
legacy formula evaluates the nested expression as an array: ``SUMPRODUCT(--ISNUMBER(A1:A9))``
counts every number. A formula holding such a function keeps the elementwise IS functions
(:func:`takes_arrays`), as does an array or dynamic-array formula.

An operator takes single values too: in a legacy formula each operand given as a range of several
cells (``+ - * / ^ % &``, the comparisons, a sign) is first the cell of the range in the formula's
row or column (:func:`operands_intersected`), so ``=SUM(B1:B3*C1:C3)`` in row 2 is ``B2*C2`` and in
row 9 #VALUE!, and ``=MAX(B:B*2)`` is twice the B of its own row; a formula with SUMPRODUCT, INDEX
... multiplies the ranges entry by entry, as above.

So does a parameter of a function that takes one value (declared ``"scalars"``, or a ToolPak
function's ``"toolpak"`` ones: :func:`..formula.declared.scalar_parameters`): a range given there is
the cell of it in the formula's row or column (:func:`parameters_intersected`), so
``=SUM(ABS(A1:A9))`` in row 3 is ABS(A3), ``=ATAN2(I167:I169,I11:K11)`` in J168 is ATAN2(I168,J11)
and ``=ATAN2(K7:K8,J9:K9)`` in K168 #VALUE! (row 168 is not in 7:8), as Excel saved them.
A parameter that takes a range or an array (SUM's numbers, COUNTIF's range, ROWS, OFFSET ...)
keeps the range whole.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import COMPILING, Array, wrap_func, wrap_impure_func
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..formula import declared
from ..formula.reader import parse
from ..formula.tree import Call, FormulaSyntaxError, walk
from .arithmetic import check_operands
from .position import CURRENT
from .wrappers import at_parameters

# Functions whose parameters of type array make a legacy formula evaluate what is nested in them as
# an array (Microsoft's function reference: "array" arguments)
ARRAY_PARAMETERS = declared.having("arrays")


@functools.lru_cache(maxsize=4096)
def takes_arrays(formula: str) -> bool:
    """Whether ``formula`` calls a function with an array parameter (or cannot be read here)."""
    try:
        tree = parse(formula)
    except FormulaSyntaxError:
        return True
    return any(isinstance(node, Call) and node.name.upper().removeprefix("_XLFN.").removeprefix("_XLWS.")
               in ARRAY_PARAMETERS for node in walk(tree))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and not isinstance(value, XlError) and value is not sh.EMPTY  # both str


TESTS: dict[str, Callable[[Any], bool]] = {
    "ISERROR": lambda v: isinstance(v, XlError),
    "ISERR": lambda v: isinstance(v, XlError) and str(v) != "#N/A",
    "ISNA": lambda v: isinstance(v, XlError) and str(v) == "#N/A",
    "ISNUMBER": _is_number,
    "ISTEXT": _is_text,
    "ISNONTEXT": lambda v: not _is_text(v),
    "ISLOGICAL": lambda v: isinstance(v, (bool, np.bool_)),
    "ISBLANK": lambda v: v is sh.EMPTY,
}


def _entry(value: Any) -> Any:
    while isinstance(value, np.ndarray) and value.size == 1:  # formulas nests -1 of {1,-1}
        value = value.ravel()[0]
    return value


def _intersected(value: Ranges) -> Any:
    """The value of the cell of a one-area range in the formula's row or column, else #VALUE!. An
    area read only as far as its sheet is used (a whole column, :class:`..formula.values.Area`)
    spans what the formula asked for: a row past the used part is an empty cell."""
    position = CURRENT.get()
    area = value.ranges[0]
    r1, r2, c1, c2 = int(area["r1"]), int(area["r2"]), int(area["n1"]), int(area["n2"])
    size = getattr(value, "size", None)
    if size is not None:  # the extent asked for, of which r1:r2 and c1:c2 is the used part
        r2, c2 = max(r2, r1 + int(size[0]) - 1), max(c2, c1 + int(size[1]) - 1)
    cells = np.atleast_2d(np.asarray(value.value, dtype=object))
    if c1 == c2 and r1 <= position.row <= r2:
        return _entry(cells[position.row - r1, 0]) if cells.shape[0] > position.row - r1 else sh.EMPTY
    if r1 == r2 and c1 <= position.col <= c2:
        return _entry(cells[0, position.col - c1]) if cells.shape[1] > position.col - c1 else sh.EMPTY
    return Error.errors["#VALUE!"]


def _legacy(position: Any, value: Any) -> bool:
    return (position is not None and position.intersect and isinstance(value, Ranges) and len(value.ranges) == 1
            and np.size(value.value) > 1)


def _operand(value: Any) -> Any:
    """An operand of an operator as a legacy formula reads it (:func:`operands_intersected`)."""
    if _legacy(CURRENT.get(None), value):
        return _intersected(value)
    return value


def operands_intersected(implementation: Any, name: str) -> Any:
    """``implementation`` of the operator ``name`` (a function of its operands, or ``formulas``' dict
    of one with extra inputs first), whose operands are first intersected with the formula's row or
    column when the formula is a legacy one of a workbook a spreadsheet saved
    (:class:`.position.Position` ``operands``): an operator takes
    single values, so ``B1:B3*C1:C3`` in row 2 multiplies B2 by C2. Elsewhere (an array or
    dynamic-array formula, one with SUMPRODUCT, INDEX ...) the operands are as they are, and the
    array they make is checked against the array limits first (:func:`.arithmetic.check_operands`)."""
    function = implementation["function"] if isinstance(implementation, dict) else implementation
    extra = len(implementation.get("extra_inputs", ())) if isinstance(implementation, dict) else 0

    @functools.wraps(function)
    def legacy(*args: Any) -> Any:
        position = CURRENT.get(None)
        operands = args[extra:]
        if position is not None and position.operands and any(isinstance(a, Ranges) for a in operands):
            operands = tuple(_operand(a) for a in operands)
        check_operands(name, operands)
        return function(*args[:extra], *operands)

    if isinstance(implementation, dict):
        return {**implementation, "function": legacy}
    return legacy


# Function -> the positions of its parameters that take one value (None: all of them)
SCALAR_PARAMETERS: dict[str, tuple[int, ...] | None] = declared.scalar_parameters()


def _extent(value: Ranges) -> tuple[int, int, int, int]:
    """(r1, r2, c1, c2) of a one-area reference as the formula asked for it: a whole column (row) read
    only as far as its sheet is used (:class:`..formula.values.Area`) reaches as far as asked."""
    area = value.ranges[0]
    r1, r2, c1, c2 = int(area["r1"]), int(area["r2"]), int(area["n1"]), int(area["n2"])
    size = getattr(value, "size", None)
    if size is not None:
        r2, c2 = max(r2, r1 + int(size[0]) - 1), max(c2, c1 + int(size[1]) - 1)
    return r1, r2, c1, c2


def _parameter(value: Any) -> Any:
    """A range of several cells given for one value in a legacy formula: a reference to its cell in
    the formula's row (a column of cells) or column (a row of cells), as ``=ABS(A3)`` hands it over
    (an empty cell is one); #VALUE! where there is none. Anything else as it is."""
    if not isinstance(value, Ranges) or len(value.ranges) != 1:
        return value
    r1, r2, c1, c2 = _extent(value)
    if r1 == r2 and c1 == c2:
        return value
    position = CURRENT.get()
    if c1 == c2 and r1 <= position.row <= r2:
        row, col = position.row, c1
    elif r1 == r2 and c1 <= position.col <= c2:
        row, col = r1, position.col
    else:
        return Error.errors["#VALUE!"]
    cells = np.atleast_2d(np.asarray(value.value, dtype=object))
    inside = row - r1 < cells.shape[0] and col - c1 < cells.shape[1]
    area = value.ranges[0]
    one = Ranges.format_range(("name", "n1", "n2"), sheet_id=area.get("sheet_id", ""), n1=col, n2=col,
                              r1=str(row), r2=str(row))
    if "sheet" in area:
        one["sheet"] = area["sheet"]
    cell = _entry(cells[row - r1, col - c1]) if inside else sh.EMPTY
    return Ranges().set_value(one, np.array([[cell]], dtype=object))


def _intersecting(function: Callable[..., Any], taking: frozenset[int] | None, extra: int) -> Callable[..., Any]:
    @functools.wraps(function)
    def legacy(*args: Any, **kwargs: Any) -> Any:
        position = CURRENT.get(None)
        if position is None or not position.operands:
            return function(*args, **kwargs)
        return function(*args[:extra], *(_parameter(a) if taking is None or i in taking else a
                                         for i, a in enumerate(args[extra:], start=extra)), **kwargs)

    return legacy


# ``parameters_intersected(name, implementation)``: the implementation of the Excel function
# ``name``, whose parameters that take one value (:data:`SCALAR_PARAMETERS`) are each, when given a
# range of several cells in a legacy formula of a workbook a spreadsheet saved
# (:class:`.position.Position` ``operands``), the cell of the range in the formula's row or column,
# #VALUE! where there is none; the implementation itself for a function of no such parameter.
# Elsewhere (an array or dynamic-array formula, one with SUMPRODUCT, INDEX ..., a workbook no
# spreadsheet saved) the wrapper only calls it.
parameters_intersected = at_parameters(SCALAR_PARAMETERS, "parameters_intersected", _intersecting)


def _is_function(name: str) -> Any:
    test = TESTS[name]

    def evaluate(value: Any) -> Any:
        position = CURRENT.get(None)
        if _legacy(position, value):
            return bool(test(_intersected(value)))
        if isinstance(value, Ranges):
            value = value.value
        if isinstance(value, np.ndarray):
            return np.vectorize(lambda v: bool(test(_entry(v))), otypes=[object])(value).view(Array)
        return bool(test(value))

    evaluate.__name__ = name.lower()
    return {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
            "function": wrap_impure_func(wrap_func(evaluate, ranges=True))}


FUNCTIONS: dict[str, Any] = {name: _is_function(name) for name in TESTS}

__all__ = ["ARRAY_PARAMETERS", "FUNCTIONS", "SCALAR_PARAMETERS", "operands_intersected", "parameters_intersected",
           "takes_arrays"]
