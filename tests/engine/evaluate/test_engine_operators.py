"""The engine's own operators: ``&`` writes numbers as Excel turns them into text, ``^`` gives
Excel's errors for 0^0, 0^-1, a negative base to a fraction and an overflow; ``+ - * / %`` and the
unary minus compute as ``formulas``' own after reading text operands as Excel does; every other
operator compiles to ``formulas``' implementation, unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from formulas.functions.operators import OPERATORS as FORMULAS_OPERATORS
from formulas.tokens.operand import Error, XlError

from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.evaluate.arithmetic import POWER_OPERATOR
from xlrating.engine.evaluate.compiler import EngineOperator, parser_for
from xlrating.engine.functions.operators import OPERATORS
from xlrating.functions import ExcelError


def _operators(formula: str) -> list[EngineOperator]:
    tokens, _ = parser_for(REGISTRY)().ast(formula)
    return [token for token in tokens if isinstance(token, EngineOperator)]


def _join(left: Any, right: Any) -> Any:
    value = np.asarray(OPERATORS["&"](left, right), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_the_parser_compiles_ampersand_against_the_engine() -> None:
    (operator,) = _operators('=A1&"x"')
    # wrapped to intersect a range operand in a legacy formula (legacy_values.operands_intersected)
    assert operator.compile().__wrapped__ is OPERATORS["&"]
    assert operator.compile().__wrapped__ is not FORMULAS_OPERATORS["&"]


@pytest.mark.parametrize(("formula", "name"), [
    ("=A1+B1", "+"), ("=A1-B1", "-"), ("=A1*B1", "*"), ("=A1/B1", "/"), ("=-A1", "U-"), ("=A1%", "%"),
])
def test_arithmetic_operators_compute_as_formulas_does_after_reading_text(formula: str, name: str) -> None:
    (operator,) = _operators(formula)
    assert operator.compile().__wrapped__ is OPERATORS[name]
    assert OPERATORS[name].__wrapped__ is FORMULAS_OPERATORS[name]  # the arithmetic itself is formulas'


def test_unary_plus_compiles_as_formulas_does() -> None:
    (operator,) = _operators("=+A1")
    assert operator.compile().__wrapped__ is FORMULAS_OPERATORS["U+"]


def test_an_empty_cell_compares_as_the_other_operands_kind(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: =FALSE=D7 is TRUE for an empty D7, as are =""=D7 and =0=D7
    wb = openpyxl.Workbook()
    formulas = ["=FALSE=D7", "=D7=FALSE", "=TRUE>D7", "=D7<>FALSE", '=""=D7', "=0=D7", "=D7=D8", "=D7<TRUE",
                '=D7<"a"', "=TRUE=D7", "=D7>-1", '="A"="a"', "=1<\"1\"", "=FALSE>1"]
    for col, formula in enumerate(formulas, start=1):
        wb.active.cell(1, col, formula)
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(1, col) for col in range(1, len(formulas) + 1)] == [
        True, True, True, False, True, True, True, True, True, False, True, True, True, True]


def test_ampersand_writes_numbers_with_15_significant_digits() -> None:
    # formulas wrote Python's str(): "0.30000000000000004", "0.3333333333333333", 21 digits, "1e-05"
    assert _join(0.1 + 0.2, "") == "0.3"
    assert _join("n=", 1 / 3) == "n=0.333333333333333"
    assert _join(1e20, "") == "1E+20"
    assert _join(123456789012345678, "") == "123456789012346000"
    assert _join(1e-05, "") == "0.00001"
    assert _join(1, 2) == "12"  # a literal number reaches the operator as an int
    assert _join(-0.0, "") == "0"


def test_ampersand_writes_logical_values_empty_cells_and_errors_as_excel() -> None:
    assert _join(True, False) == "TRUEFALSE"
    assert _join(np.bool_(True), "") == "TRUE"  # formulas wrote numpy's "True"
    assert _join(sh.EMPTY, "x") == "x"
    assert _join(Error.errors["#N/A"], "x") == ExcelError("#N/A")
    assert _join("x", Error.errors["#DIV/0!"]) == ExcelError("#DIV/0!")


def test_ampersand_joins_arrays_entry_by_entry() -> None:
    joined = OPERATORS["&"](np.array([[0.1 + 0.2, 1e20]], dtype=object), "!")
    assert np.asarray(joined).tolist() == [["0.3!", "1E+20!"]]


def test_ampersand_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([0.1, 0.2, True, None, 1e20, 1e-10])
    formulas = ['=A1+B1&""', '="n="&1/3', "=C1&D1", '=E1&""', '=F1&""', '=123456789012345678&""',
                '="x"&NA()', '=(A1+B1)&""="0.3"', '="1"=1', "=A1+B1*2"]
    for column, formula in enumerate(formulas, start=1):
        ws.cell(2, column, formula)
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(2, column) for column in range(1, len(formulas) + 1)] == [
        "0.3", "n=0.333333333333333", "TRUE", "1E+20", "0.0000000001", "123456789012346000",
        ExcelError("#N/A"), True, False, 0.5]


def test_the_parser_compiles_the_power_operator_against_the_engine() -> None:
    (operator,) = _operators("=A1^B1")
    assert operator.compile().__wrapped__ is POWER_OPERATOR


# Computed cell by cell (inside IF, over array constants, into INDEX), where formulas' own ``**``
# gave 1 for 0^0, #VALUE! for 0^-1 and 10^400, and a complex number for (-8)^(1/3)
POWERS_CELL_BY_CELL = [
    ("=IF(TRUE,0^0)", ExcelError("#NUM!")), ("=IF(TRUE,0^-1)", ExcelError("#DIV/0!")),
    ("=IF(TRUE,(-8)^(1/3))", ExcelError("#NUM!")), ("=IF(TRUE,10^400)", ExcelError("#NUM!")),
    ("=IF(TRUE,(-2)^3)", -8.0), ("=IF(TRUE,A1^0.5)", 2.0), ('=IF(TRUE,"3"^2)', 9.0),
    ("=IF(TRUE,TRUE^2)", 1.0), ("=IF(TRUE,B1^2)", 0.0), ("=IF(TRUE,0^B1)", ExcelError("#NUM!")),
    ('=IF(TRUE,"a"^2)', ExcelError("#VALUE!")), ('=IF(TRUE,NA()^"a")', ExcelError("#N/A")),
    ("=SUM(0^{0,1})", ExcelError("#NUM!")), ("=INDEX(0^{1,-1},1,2)", ExcelError("#DIV/0!")),
    ("=INDEX((-8)^{2,0.5},1,2)", ExcelError("#NUM!")), ("=SUM({2,3}^{2;3})", 48.0),
]


def test_the_power_operator_gives_excels_errors_cell_by_cell(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([4, None])
    for row, (formula, _) in enumerate(POWERS_CELL_BY_CELL, start=2):
        ws.cell(row, 3, formula)
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    got = [(formula, sheet.get(row, 3)) for row, (formula, _) in enumerate(POWERS_CELL_BY_CELL, start=2)]
    assert got == [(formula, expected) for formula, expected in POWERS_CELL_BY_CELL]
