"""Excel's rules where ``formulas`` or a shortcut of ours once differed: rounding, omitted arguments,
text in ranges, sheet-local names, which error wins. Each rule holds on both evaluation paths."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string
from openpyxl.workbook.defined_name import DefinedName

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.vector import Unsupported
from xlrating.engine.maths.rounding import excel_round
from xlrating.functions import ExcelError


@pytest.fixture(params=["fast", "cell by cell"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test on the vectorised path (where it covers the formula) and on ``formulas``."""
    if request.param == "cell by cell":
        def refuse(tree: Any, lookup: Any) -> Any:
            raise Unsupported("test: everything cell by cell")

        monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

        monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    return str(request.param)


def evaluate(tmp_path: Path, sheets: dict[str, dict[str, Any]]) -> Any:
    """Build a workbook from {sheet: {cell: value or formula}} and evaluate it."""
    wb = openpyxl.Workbook()
    for index, (name, cells) in enumerate(sheets.items()):
        ws = wb.active if index == 0 else wb.create_sheet()
        ws.title = name
        for address, value in cells.items():
            ws[address] = value
    wb.save(tmp_path / "book.xlsx")
    return evaluate_workbook(str(tmp_path / "book.xlsx"))


def value(evaluated: Any, sheet: str, address: str) -> Any:
    letters, row = coordinate_from_string(address)
    return evaluated.grid.sheet(sheet).get(row, column_index_from_string(letters))


# --- ROUND, ROUNDUP, ROUNDDOWN ----------------------------------------------------------------------

ROUNDED = {  # formula -> Excel's (and LibreOffice's) value
    "=ROUND(A1,2)": 1.01, "=ROUND(A2,2)": 0.29, "=ROUND(A3,2)": 2.68, "=ROUND(-A1,2)": -1.01,
    "=ROUND(A4,0)": -3.0, "=ROUND(A5,-1)": 1230.0, "=ROUNDUP(A6,1)": 0.3, "=ROUNDDOWN(A7,2)": 4.35,
    "=ROUNDUP(-A8,2)": -1.01, "=ROUNDDOWN(-A9,2)": -1.0, "=ROUND(A1,1.9)": 1.0,
}
ROUND_INPUTS = {"A1": 1.005, "A2": 0.285, "A3": 2.675, "A4": -2.5, "A5": 1234.5, "A6": "=0.1+0.2", "A7": 4.35,
                "A8": 1.001, "A9": 1.009}


def test_round_goes_half_away_from_zero_on_the_number_as_shown(tmp_path: Path, path: str) -> None:
    cells = dict(ROUND_INPUTS)
    cells.update({f"B{i}": formula for i, formula in enumerate(ROUNDED, 1)})
    evaluated = evaluate(tmp_path, {"S": cells})
    got = {formula: value(evaluated, "S", f"B{i}") for i, formula in enumerate(ROUNDED, 1)}
    assert got == ROUNDED


def test_round_with_an_omitted_digits_argument_rounds_to_whole_numbers(tmp_path: Path, path: str) -> None:
    evaluated = evaluate(tmp_path, {"S": {"A1": 9, "A2": 10, "B1": "=ROUND(A1/3,)", "B2": "=ROUND(A2/4,)",
                                          "B3": "=ROUNDUP(A2/4,)", "B4": "=ROUNDDOWN(A2/4,)"}})
    assert [value(evaluated, "S", f"B{r}") for r in range(1, 5)] == [3.0, 3.0, 3.0, 2.0]


@pytest.mark.parametrize(("number", "digits", "expected"), [
    (0.0, 2, 0.0), (-0.001, 2, 0.0), (1e300, 2, 1e300), (5.0, -400, 0.0), (2.5, 0, 3.0), (-2.5, 0, -3.0),
    (123456789012345678.0, 0, 123456789012346000.0), (float("inf"), 2, float("inf")),
])
def test_round_edges(number: float, digits: int, expected: float) -> None:
    result = excel_round(number, digits)
    assert result == expected
    assert str(result) != "-0.0"


def test_rank_with_a_text_or_error_order_gives_excels_value_not_an_internal_error(tmp_path: Path, path: str) -> None:
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 6)}
    cells.update({"B1": '=RANK(A1,$A$1:$A$5,"x")', "B2": '=RANK(A2,$A$1:$A$5,"1")', "B3": "=RANK(A3,$A$1:$A$5,#N/A)"})
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"B{r}") for r in (1, 2, 3)] == [ExcelError("#VALUE!"), 2.0, ExcelError("#N/A")]


# --- numbers stored as text, and TRUE/FALSE, inside ranges --------------------------------------------

TEXT_IN_RANGE = {"A1": "x", "A2": 1, "A3": "3", "A4": 5, "A5": "abc"}


def test_aggregates_skip_numbers_stored_as_text_in_a_reference(tmp_path: Path, path: str) -> None:
    cells = dict(TEXT_IN_RANGE)
    for r in range(2, 5):
        cells.update({f"B{r}": f"=SUM($A$2:A{r})", f"C{r}": f"=MAX($A$2:A{r})", f"D{r}": f"=AVERAGE($A$2:A{r})",
                      f"E{r}": f"=MIN($A$2:A{r})", f"F{r}": f"=COUNT($A$2:A{r})", f"G{r}": "=MAX($A$3,$A$5)"})
    evaluated = evaluate(tmp_path, {"S": cells})
    got = {column: [value(evaluated, "S", f"{column}{r}") for r in range(2, 5)] for column in "BCDEFG"}
    assert got == {"B": [1.0, 1.0, 6.0], "C": [1.0, 1.0, 5.0], "D": [1.0, 1.0, 3.0], "E": [1.0, 1.0, 1.0],
                   "F": [1.0, 1.0, 2.0], "G": [0.0, 0.0, 0.0]}


def test_conditional_sums_and_sumproduct_skip_numbers_stored_as_text(tmp_path: Path, path: str) -> None:
    cells = dict(TEXT_IN_RANGE)
    cells.update({"B1": "=SUMPRODUCT(A2:A4)", "B2": '=SUMIF(A2:A5,">0")', "B3": '=SUMIFS(A2:A5,A2:A5,">0")',
                  "B4": '=AVERAGEIF(A2:A5,">0")', "B5": "=SUMPRODUCT(A2:A4,A2:A4)"})
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"B{r}") for r in range(1, 6)] == [6.0, 6.0, 6.0, 3.0, 26.0]


def test_aggregates_skip_true_and_false_in_a_reference(tmp_path: Path, path: str) -> None:
    cells = {"A1": 1, "A2": True, "A3": False, "A4": 4, "B1": "=SUM(A1:A4)", "B2": "=COUNT(A1:A4)",
             "B3": "=AVERAGE(A1:A4)", "B4": "=MAX(A2:A3)", "B5": "=SUMPRODUCT(A1:A4)"}
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"B{r}") for r in range(1, 6)] == [5.0, 2.0, 2.5, 0.0, 5.0]


def test_text_numbers_and_logical_values_typed_as_arguments_count(tmp_path: Path, path: str) -> None:
    cells = {"A1": 1, "B1": '=SUM("3",TRUE,A1)', "B2": '=COUNT("3",TRUE,"abc",#N/A,A1)', "B3": '=SUM("abc",A1)',
             "B4": '=AVERAGE("3",A1)', "B5": '=MAX("7",A1)'}
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"B{r}") for r in range(1, 6)] == [5.0, 3.0, ExcelError("#VALUE!"), 2.0, 7.0]


def test_sumproduct_of_a_double_negated_condition_counts_the_matches(tmp_path: Path, path: str) -> None:
    cells = dict(TEXT_IN_RANGE)
    cells.update({"B1": "=SUMPRODUCT(--(A2:A4>1))", "B2": "=SUMPRODUCT(--(A2:A4>1),A2:A4)"})
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"B{r}") for r in (1, 2)] == [2.0, 5.0]


def test_sumproduct_gives_the_first_error_before_a_shape_mismatch(tmp_path: Path, path: str) -> None:
    # formulas' test.xlsx, saved by Excel (sheet MATH & TRIG, row 75): SUMPRODUCT(P75:Q75,H75:I75,I75:K75)
    # is P75's #NUM! though I75:K75 has three cells; without an error, different shapes are #VALUE!
    cells = {"A1": "=1/0", "B1": "=NA()", "C1": "ciao", "D1": True, "E1": 2, "F1": 3, "G1": 4,
             "H1": "=SUMPRODUCT(A1:B1,C1:D1,C1:E1)", "H2": "=SUMPRODUCT(E1:F1,C1:E1,B1:C1)",
             "H3": "=SUMPRODUCT(E1:F1,E1:G1)", "H4": "=SUMPRODUCT(E1:G1,E1:G1)"}
    evaluated = evaluate(tmp_path, {"S": cells})
    assert [value(evaluated, "S", f"H{r}") for r in range(1, 5)] == [
        ExcelError("#DIV/0!"), ExcelError("#N/A"), ExcelError("#VALUE!"), 29.0]


# --- defined names ------------------------------------------------------------------------------------


def test_a_sheet_local_name_hides_the_workbook_name_on_its_sheet_only(tmp_path: Path, path: str) -> None:
    wb = openpyxl.Workbook()
    s = wb.active
    s.title = "S"
    t = wb.create_sheet("T")
    s["A1"], t["A1"] = 10, 20
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="S!$A$1")
    t.defined_names["Rate"] = DefinedName("Rate", attr_text="T!$A$1")
    s["B1"] = t["B1"] = "=Rate*2"
    s["B2"] = t["B2"] = "=SUM(Rate,1)"
    wb.save(tmp_path / "names.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "names.xlsx"))
    assert [value(evaluated, "S", "B1"), value(evaluated, "S", "B2")] == [20.0, 11.0]
    assert [value(evaluated, "T", "B1"), value(evaluated, "T", "B2")] == [40.0, 21.0]


# --- which error wins ---------------------------------------------------------------------------------


def test_aggregates_show_the_first_error_in_argument_order(tmp_path: Path, path: str) -> None:
    cells = {"A1": "=NA()", "B1": "=1/0", "C1": "=SUM(A1*1,B1)", "C2": "=SUM(B1,A1*1)", "C3": "=MIN(A1+0,B1:B1)",
             "C4": "=AVERAGE(B1*1,A1)", "C5": "=MAX(1,A1,B1)"}
    evaluated = evaluate(tmp_path, {"S": cells})
    codes = [value(evaluated, "S", f"C{r}").code for r in range(1, 6)]
    assert codes == ["#N/A", "#DIV/0!", "#N/A", "#DIV/0!", "#N/A"]


# --- the Analysis ToolPak's functions and a reference to several cells ---------------------------

def test_toolpak_functions_refuse_a_range_where_they_take_one_value(tmp_path: Path, path: str) -> None:
    """EDATE, MROUND, YEARFRAC, HEX2DEC ... (once the Analysis ToolPak's) given a range of several
    cells for one value, in an array formula, are #VALUE! in every cell (Excel's saved values of
    {=MROUND(C45:G45,2)}); a unary plus makes the range an array they take (=MROUND(+A2:A9,2)), and
    a function of Excel's own core (COS) computes each cell."""
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    for row, number in enumerate([1, 2, 3], start=1):
        ws.cell(row, 1, number)
    ws["B1"], ws["B2"] = 45000, 45031
    ws["D1"] = ArrayFormula("D1:D3", "=MROUND(A1:A3,2)")
    ws["E1"] = ArrayFormula("E1:E3", "=MROUND(+A1:A3,2)")
    ws["F1"] = ArrayFormula("F1:F2", "=EDATE(B1:B2,1)")
    ws["G1"] = ArrayFormula("G1:G3", "=FACTDOUBLE(+A1:A3)")
    ws["H1"] = ArrayFormula("H1:H3", "=COS(A1:A3)")
    ws["I1"] = ArrayFormula("I1", "=SUM(WORKDAY(B1,1,A1:A3))")  # holidays take a range
    ws["J1"] = ArrayFormula("J1", "=GCD(A1:A3)")  # so do GCD's numbers
    wb.save(tmp_path / "book.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "book.xlsx"))
    for cell in ("D1", "D2", "D3", "F1", "F2"):
        assert value(evaluated, "Sheet", cell) == ExcelError("#VALUE!"), cell
    assert [value(evaluated, "Sheet", f"E{r}") for r in (1, 2, 3)] == [2, 2, 4]
    assert [value(evaluated, "Sheet", f"G{r}") for r in (1, 2, 3)] == [1, 2, 3]
    assert value(evaluated, "Sheet", "H2") == pytest.approx(-0.4161468365471424)
    assert value(evaluated, "Sheet", "I1") == 45001
    assert value(evaluated, "Sheet", "J1") == 1


def test_toolpak_range_in_an_ordinary_formula_is_intersected_first(tmp_path: Path, path: str) -> None:
    """An ordinary formula intersects the range with its own row as for any function: MROUND(A1:A3,2)
    in row 2 rounds A2; in row 5, outside the range, it is #VALUE!."""
    evaluated = evaluate(tmp_path, {"Sheet": {"A1": 1, "A2": 3, "A3": 5, "C2": "=MROUND(A1:A3,2)",
                                              "C5": "=MROUND(A1:A3,2)"}})
    assert value(evaluated, "Sheet", "C2") == 4
    assert value(evaluated, "Sheet", "C5") == ExcelError("#VALUE!")


def test_rounding_a_column_at_once_equals_rounding_each_number() -> None:
    """round_many's shortcut (binary arithmetic where the scaled number is clearly away from a half,
    or from a whole for ROUNDUP/ROUNDDOWN) gives exactly what rounding each number's 15 digits in
    decimal gives, the halves that are not halves in binary included (1.005, 2.675, 4.35)."""
    import math

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from xlrating.engine.maths.rounding import MODES, round_many

    tricky = [1.005, 2.675, 4.35, -2.5, 1234.5, 0.1 + 0.2, 0.285, 1.001, 1.009, -0.001, 5e-324, 1e300, 0.0]
    numbers = st.one_of(st.sampled_from(tricky), st.floats(allow_nan=False, allow_infinity=False),
                        st.integers(-10**9, 10**9).map(lambda n: n / 1000), st.integers(-10**6, 10**6).map(lambda n: n + 0.5))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(numbers, min_size=1, max_size=40), st.integers(-25, 25), st.sampled_from(sorted(MODES)))
    def check(values: list[float], digits: int, name: str) -> None:
        at_once = round_many(np.array(values), digits, MODES[name]).tolist()
        one_by_one = [excel_round(v, digits, MODES[name]) for v in values]
        assert [(x, math.copysign(1, x)) for x in at_once] == [(x, math.copysign(1, x)) for x in one_by_one]

    check()
