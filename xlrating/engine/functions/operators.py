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

(``:`` between references needs the workbook: the registry takes it from
:mod:`..evaluate.references`.)
"""

from __future__ import annotations

from typing import Any

from formulas.functions import replace_empty, wrap_ufunc

from ..formula.limits import MAX_TEXT_CHARACTERS as MAX_TEXT
from .arguments import VALUE
from .text import value_text


def _join(left: str, right: str) -> Any:
    """The two texts joined; #VALUE! when longer than Excel's 32,767 characters (:mod:`.text`)."""
    if len(left) + len(right) > MAX_TEXT:
        return VALUE
    return left + right


OPERATORS: dict[str, Any] = {
    "&": wrap_ufunc(_join, input_parser=lambda *operands: map(value_text, operands),
                    args_parser=lambda *operands: (replace_empty(v, "") for v in operands)),
}
