"""Excel's limits on one formula: its text's length, how deeply its functions nest, and how large
an array it computes may be (:func:`check_size`).

Microsoft's "Excel specifications and limits": "Length of formula contents: 8,192 characters" (the
file format's ``ST_Formula`` holds "at most 8192 characters", [MS-OI29500] 2.1.1085) and "Nested
levels of functions: 64". Excel does not take a longer or deeper formula (it refuses to enter it),
so no value of Excel's exists for a file that holds one: such a cell is left not computed, with a
warning saying which limit it passes (:func:`beyond_excel`), rather than computed into a value
Excel never shows. Levels count as Microsoft's help on nested functions counts them: a function
used as an argument of another is at the second level, one inside that at the third, and so on.
"""

from __future__ import annotations

import re

MAX_FORMULA_CHARACTERS = 8_192
MAX_NESTED_FUNCTIONS = 64
MAX_TEXT_CHARACTERS = 32_767  # in one text value, a cell's limit
# string literals and quoted sheet names (skipped whole), and parentheses
_MARKS = re.compile(r"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'|[()]")


def function_depth(formula: str) -> int:
    """How many levels deep the functions of ``formula`` nest (``=ABS(ABS(1))`` is 2): the most
    parentheses opened right after a function's name around one place, outside string literals
    and quoted sheet names; parentheses that only group (``(A1+1)*2``) are no level."""
    depth = deepest = 0
    opened: list[bool] = []  # for each open parenthesis: whether it is a function's
    for match in _MARKS.finditer(formula):
        char = match.group()
        if char == "(":
            at = match.start()
            called = at > 0 and (formula[at - 1].isalnum() or formula[at - 1] in "_.")
            opened.append(called)
            if called:
                depth += 1
                deepest = max(deepest, depth)
        elif char == ")" and opened:
            depth -= 1 if opened.pop() else 0
    return deepest


def beyond_excel(formula: str) -> str | None:
    """Why Excel would not take ``formula`` (text as stored, with or without its ``=``), or None."""
    text = formula.removeprefix("=")
    if "(" in text and len(text) > 2 * MAX_NESTED_FUNCTIONS:  # a shorter formula cannot nest 65 levels
        depth = function_depth(text)
        if depth > MAX_NESTED_FUNCTIONS:
            return (f"the formula nests functions {depth:,} levels deep, more than the {MAX_NESTED_FUNCTIONS} "
                    "levels Excel allows (Excel does not take such a formula, so it has no value of Excel's)")
    if len(text) > MAX_FORMULA_CHARACTERS:
        return (f"the formula is {len(text):,} characters long, more than the {MAX_FORMULA_CHARACTERS:,} Excel "
                "allows (Excel does not take such a formula, so it has no value of Excel's)")
    return None


# How large an array may be. Excel's arrays inside a formula have at most 1,048,576 rows and as
# many columns (wider than the sheet's 16,384 is fine until it spills): SUM(SEQUENCE(,2^20)) is
# computed, SEQUENCE(,2^20+1) is #VALUE!. One array holds at most 53,687,091 values: past that
# Excel stops with "Excel ran out of resources" and shows no value, so such a cell is left not
# computed (measurements published on r/excel: COUNT(SEQUENCE(3741,14351)) is 53,687,091,
# COUNT(SEQUENCE(33284,1613)) runs out of resources). The engine itself holds at most MAX_CELLS
# values in one array (a few hundred megabytes of Python objects); a larger array within Excel's
# limit is left not computed too, with a warning saying so, never made an error Excel would not show.
MAX_ROWS = MAX_COLUMNS = 1_048_576
EXCEL_MAX_VALUES = 53_687_091
MAX_CELLS = 16_777_216


def check_size(rows: int, columns: int, what: str) -> None:
    """That an array of ``rows`` x ``columns`` made by ``what`` (a function's name) can be: more rows
    or columns than Excel's arrays have is #VALUE!; more values than Excel or the engine holds in one
    array leaves the cell not computed (Excel shows no value), with a warning."""
    if rows * columns <= MAX_CELLS and rows <= MAX_ROWS and columns <= MAX_COLUMNS:
        return
    # here, not above: only arrays load formulas; a conversion of plain formulas never does
    from formulas.errors import FoundError
    from formulas.tokens.operand import Error

    from .values import not_computed

    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise FoundError(err=Error.errors["#VALUE!"])
    values = rows * columns
    if values > EXCEL_MAX_VALUES:
        raise not_computed(f"{what}: an array of {rows:,} x {columns:,} = {values:,} values, more than the "
                           f"{EXCEL_MAX_VALUES:,} Excel holds in one array (Excel stops with \"Excel ran out of "
                           "resources\" and shows no value)")
    if values > MAX_CELLS:
        raise not_computed(f"{what}: an array of {rows:,} x {columns:,} = {values:,} values, more than the "
                           f"{MAX_CELLS:,} the engine holds in one array")


__all__ = ["EXCEL_MAX_VALUES", "MAX_CELLS", "MAX_COLUMNS", "MAX_FORMULA_CHARACTERS", "MAX_NESTED_FUNCTIONS", "MAX_ROWS",
           "MAX_TEXT_CHARACTERS", "beyond_excel", "check_size", "function_depth"]
