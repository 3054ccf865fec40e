"""Excel's operators where the engine computes them itself, for the registry's operator tokens
(:class:`..evaluate.compiler.EngineOperator`).

``formulas`` compiles each operator of a formula against its own table
(``formulas.functions.operators.OPERATORS``); the engine's parser looks in :data:`OPERATORS` first
and takes ``formulas``' for every operator not here, so they compute exactly as before.

- ``&`` joins the text of its operands. A number becomes the text Excel writes for it
  (:func:`.functions.text.number_text`: 15 significant digits, "1E+20"), TRUE and FALSE become
  "TRUE" and "FALSE", an empty cell "". ``formulas`` wrote Python's ``str`` of a number, so
  ``=0.1+0.2&""`` was "0.30000000000000004" where Excel shows "0.3", and ``=1E+20&""`` was 21
  digits. Either operand's error is the result (the first one's if both are errors); arrays
  are joined entry by entry, as ``formulas`` broadcasts them.
- ``=``, ``<>``, ``<``, ``>``, ``<=``, ``>=`` compare as ``formulas`` does (numbers < texts <
  booleans, texts without case), but an empty cell takes the kind of the other operand: "" beside
  a text, FALSE beside a boolean (Excel: ``=FALSE=A1`` is TRUE and ``=TRUE>A1`` TRUE for an empty
  A1), 0 otherwise; ``formulas`` made it 0 beside a boolean, so ``=FALSE=A1`` was FALSE.

- ``+``, ``-``, ``*``, ``/``, the unary ``-`` and ``%`` compute as ``formulas``' own, but read a
  text operand as Excel does (:func:`..formula.text_operands.texts_read`: ``="$1,000"*1`` is 1000,
  ``="12:00"*1`` 0.5, ``="(5)"+0`` -5, ``="1 1/2"+0`` 1.5), text Excel reads no number in
  (``="1_000"*1``, ``="inf"+0``, ``=""+1``) #VALUE!, after an error among the operands
  (``="a"+NA()`` is #N/A, as ``formulas`` and LibreOffice have it); ``formulas`` read text with
  Python's ``float``, which took "1_000" and "inf" and refused "$1,000" and "12:00".

(``:`` between references needs the workbook: the registry takes it from
:mod:`..evaluate.references`.)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import replace_empty, wrap_ufunc
from formulas.functions.operators import LOGIC_OPERATORS, logic_input_parser
from formulas.functions.operators import OPERATORS as FORMULAS_OPERATORS

from ..formula.limits import MAX_TEXT_CHARACTERS as MAX_TEXT
from ..formula.text_operands import texts_read
from .arguments import VALUE
from .text import value_text


def _join(left: str, right: str) -> Any:
    """The two texts joined; #VALUE! when longer than Excel's 32,767 characters (:mod:`.text`)."""
    if len(left) + len(right) > MAX_TEXT:
        return VALUE
    return left + right


def _as_other(value: Any, other: Any) -> Any:
    """An empty cell as Excel compares it with ``other``: "" beside a text, FALSE beside a boolean, else 0."""
    if value is not sh.EMPTY:
        return value
    if isinstance(other, str):
        return ""
    return False if isinstance(other, bool | np.bool_) else 0


def _compared(left: Any, right: Any) -> Any:
    """The operands as ``formulas`` compares them (kind first, then value), an empty one made the other's kind."""
    return logic_input_parser(_as_other(left, right), _as_other(right, left))


def _reading_text(operator: Any) -> Any:
    """``formulas``' arithmetic ``operator`` with its text operands read as Excel reads them."""
    @functools.wraps(operator)
    def computed(*operands: Any) -> Any:
        return operator(*map(texts_read, operands))
    return computed


OPERATORS: dict[str, Any] = {
    **{op: _reading_text(FORMULAS_OPERATORS[op]) for op in ("+", "-", "*", "/", "U-", "%")},
    "&": wrap_ufunc(_join, input_parser=lambda *operands: map(value_text, operands),
                    args_parser=lambda *operands: (replace_empty(v, "") for v in operands)),
    **{op: wrap_ufunc(compare, input_parser=_compared, args_parser=lambda *operands: operands)
       for op, compare in LOGIC_OPERATORS.items()},
}
