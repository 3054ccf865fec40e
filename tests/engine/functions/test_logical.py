"""IF, SCAN and MAP as Excel computes them (Microsoft's IF, SCAN and MAP pages)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import schedula as sh
from formulas.tokens.operand import XlError
from function_books import recalculated

from xlrating.engine import REGISTRY
from xlrating.engine.evaluate.compiler import compile_formula
from xlrating.functions import ExcelError


def _value(formula: str) -> list[object]:
    """The formula's values, an error written "error #N/A" (an error is text-like in formulas)."""
    return [f"error {v}" if isinstance(v, XlError) else v
            for v in np.asarray(compile_formula(REGISTRY, formula)(), dtype=object).ravel().tolist()]


def test_scan_keeps_errors_as_errors_not_their_text() -> None:
    result = _value("=_xlfn.SCAN(1/0, {1;3}, _xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a+_xlpm.b^2))")
    assert result == ["error #DIV/0!"] * 2


def test_scan_accumulates_in_the_arrays_shape() -> None:
    assert _value("=_xlfn.SCAN(2, {1;3}, _xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a+_xlpm.b^2))") == [3.0, 12.0]


def test_map_applies_the_lambda_cell_by_cell_and_refuses_other_shapes() -> None:
    assert _value("=_xlfn.MAP({1,2;3,3}, _xlfn.LAMBDA(_xlpm.a,_xlpm.a+1))") == [2.0, 3.0, 4.0, 4.0]
    assert _value("=_xlfn.MAP({1,2}, {1;2}, _xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a+_xlpm.b))") == ["error #VALUE!"]
    assert _value("=_xlfn.MAP({1,2}, _xlfn.LAMBDA(_xlpm.a,1/0))") == ["error #DIV/0!"] * 2


def test_if_with_an_error_condition_is_that_error_and_a_missing_branch_is_false() -> None:
    assert _value("=IF(1/0,1,2)") == ["error #DIV/0!"]
    assert _value("=IF(1>2,1)") == [False]


def test_switch_compares_as_equals_does_texts_without_case() -> None:
    assert _value('=_xlfn.SWITCH("UPPER","Upper","match")') == ["match"]
    assert _value('=_xlfn.SWITCH(3,1,"a",2,"b")') == ["error #N/A"]
    assert _value('=_xlfn.SWITCH(3,1,"a",2,"b","none")') == ["none"]
    assert _value('=_xlfn.SWITCH(1,"1","text","no")') == ["no"]  # the number 1 is not the text "1"


def test_isnumber_is_true_for_numbers_only_not_for_texts_that_read_as_numbers() -> None:
    assert _value('=ISNUMBER("1")') == [False]
    assert _value("=ISNUMBER(TRUE)") == [False]
    assert _value("=ISNUMBER(1.5)") == [True]


def test_switch_an_empty_expression_matches_a_value_left_out() -> None:
    function = compile_formula(REGISTRY, '=_xlfn.SWITCH(H25,2,0,1,3,TRUE,2,,3,"ciao",99,7)')
    assert np.asarray(function(sh.EMPTY), dtype=object).ravel().tolist() == [3]  # H25 empty


def _sheet_values(tmp_path: Path, rows: list[list[object]], formulas: list[str]) -> list[object]:
    """The values of ``formulas``, in column C of a workbook holding ``rows`` from A1; errors as "error #X"."""
    sheet = recalculated(tmp_path, rows, {f"C{row}": formula for row, formula in enumerate(formulas, start=1)})
    values = [sheet.get(row, 3) for row in range(1, len(formulas) + 1)]
    return [f"error {v.code}" if isinstance(v, ExcelError) else v for v in values]


def test_and_or_xor_read_typed_true_and_false_and_leave_other_text_out(tmp_path: Path) -> None:
    # IronCalc's LOGICAL_AND_OR_XOR book, saved by Excel: AND("TRUE") TRUE, OR("FALSE") FALSE,
    # AND("1") and AND("") #VALUE! (no logical value), OR("",TRUE) TRUE; formulas' test.xlsx:
    # AND(TRUE,"0") TRUE, AND(TRUE,"0",#REF!) #REF!; POI's FormulaEvalTestData: AND(E15,G13) over the
    # text "1" and an empty cell #VALUE!, AND(E15:E17,C13:C15,B9:B10) TRUE (text in references left out)
    rows: list[list[object]] = [["1", 2], ["TRUE", True], ["x", None], [False, 3]]
    assert _sheet_values(tmp_path, rows, [
        '=AND("1")', '=AND("TRUE",1)', '=OR("false")', '=AND("true","FALSE")', "=AND(A1,B3)",
        "=AND(A1:A3,B1:B2)", "=AND(A1:B4)", "=OR(A1:A3)", "=XOR(TRUE,1,A2)", "=XOR(B1:B2,1)",
        '=OR(1/0,"x")', '=AND(TRUE,"0",#REF!)', "=AND(A2&\"\")", "=AND(B2,)", "=AND({1,\"x\"})",
        '=AND(TRUE,"0")', '=OR("",FALSE)', '=XOR("",TRUE)', '=AND("","")',
    ]) == [
        "error #VALUE!", True, False, False, "error #VALUE!",
        True, False, "error #VALUE!", False, True,
        "error #DIV/0!", "error #REF!", True, False, True,
        True, False, True, "error #VALUE!",
    ]
