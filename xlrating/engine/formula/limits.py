"""Excel's limits on one formula's text: its length and how deeply its functions nest.

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


__all__ = ["MAX_FORMULA_CHARACTERS", "MAX_NESTED_FUNCTIONS", "MAX_TEXT_CHARACTERS", "beyond_excel", "function_depth"]
