"""Excel's database functions (DSUM & co.): Microsoft's orchard example, directly and in a workbook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from formulas.tokens.operand import XlError
from function_books import assert_excel_value, recalculated

from xlrating.engine import evaluate_workbook
from xlrating.engine.formula.values import OMITTED
from xlrating.engine.functions.database import FUNCTIONS
from xlrating.functions import ExcelError

# Microsoft's example (the DAVERAGE, DCOUNT, ... DVARP pages): criteria in A1:F3, the database in A5:E11.
CRITERIA = [["Tree", "Height", "Age", "Yield", "Profit", "Height"],
            ["=Apple", ">10", None, None, None, "<16"],
            ["=Pear", None, None, None, None, None]]
DATABASE = [["Tree", "Height", "Age", "Yield", "Profit"],
            ["Apple", 18, 20, 14, 105],
            ["Pear", 12, 12, 10, 96],
            ["Cherry", 13, 14, 9, 105],
            ["Apple", 14, 15, 10, 75],
            ["Pear", 9, 8, 8, 76.8],
            ["Apple", 8, 9, 6, 45]]

# (formula as in Microsoft's table, its documented result)
EXAMPLES = [
    ('=DCOUNT(A5:E11,"Age",A1:F2)', 1.0),  # apple trees between 10 and 16 high with a number of years
    ('=DCOUNTA(A5:E11,"Profit",A1:F2)', 1.0),
    ('=DMAX(A5:E11,"Profit",A1:A3)', 105.0),  # apple or pear
    ('=DMIN(A5:E11,"Profit",A1:B2)', 75.0),  # apple over 10
    ('=DSUM(A5:E11,"Profit",A1:A2)', 225.0),  # apple
    ('=DSUM(A5:E11,"Profit",A1:F2)', 75.0),
    ('=DPRODUCT(A5:E11,"Yield",A1:F2)', 10.0),
    ('=DAVERAGE(A5:E11,"Yield",A1:B2)', 12.0),
    ('=DAVERAGE(A5:E11,3,A5:E11)', 13.0),  # the database as its own criteria: every record
    ('=DSTDEV(A5:E11,"Yield",A1:A3)', 2.96647939483827),
    ('=DSTDEVP(A5:E11,"Yield",A1:A3)', 2.65329983228432),
    ('=DVAR(A5:E11,"Yield",A1:A3)', 8.8),
    ('=DVARP(A5:E11,"Yield",A1:A3)', 7.04),
    ('=DGET(A5:E11,"Yield",A1:A3)', ExcelError("#NUM!")),  # more than one record matches
]


def _table(rows: list[list[Any]]) -> np.ndarray:
    """Rows of cell values as a reference reaches a function (floats, blanks as ``sh.EMPTY``)."""
    return np.array([[sh.EMPTY if v is None else v if isinstance(v, bool) else float(v) if isinstance(v, (int, float))
                      else v for v in row]
                     for row in rows], dtype=object)


def _call(name: str, *args: Any) -> Any:
    """The single value ``name`` returns, errors as their code."""
    value = np.asarray(FUNCTIONS[name](*args), dtype=object).ravel()[0]
    return str(value) if isinstance(value, XlError) else value


def _orchard_book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r, row in enumerate(CRITERIA, 1):
        for c, value in enumerate(row, 1):
            # a criterion starting with "=" is typed as Excel's page shows it: ="=Apple"
            ws.cell(r, c, f'="{value}"' if isinstance(value, str) and value.startswith("=") else value)
    for r, row in enumerate(DATABASE, 5):
        for c, value in enumerate(row, 1):
            ws.cell(r, c, value)
    for r, (formula, _) in enumerate(EXAMPLES, 1):
        ws.cell(r, 8, formula)
    wb.save(path)
    return path


def test_microsoft_orchard_example_in_a_workbook(tmp_path: Path) -> None:
    sheet = evaluate_workbook(str(_orchard_book(tmp_path / "orchard.xlsx"))).grid.sheet("Sheet")
    for row, (formula, expected) in enumerate(EXAMPLES, 1):
        assert sheet.get(row, 8) == pytest.approx(expected), formula


@pytest.mark.parametrize(("formula", "expected"), EXAMPLES, ids=[f for f, _ in EXAMPLES])
def test_microsoft_orchard_example_directly(formula: str, expected: Any) -> None:
    name, _, rest = formula[1:].partition("(")
    _, field, criteria = rest.rstrip(")").split(",")
    criteria_rows = {"A1:F2": CRITERIA[:2], "A1:A3": [r[:1] for r in CRITERIA], "A1:A2": [r[:1] for r in CRITERIA[:2]],
                     "A1:B2": [r[:2] for r in CRITERIA[:2]], "A5:E11": DATABASE}[criteria]
    result = _call(name, _table(DATABASE), float(field) if field.isdigit() else field.strip('"'),
                   _table(criteria_rows))
    assert result == (expected.code if isinstance(expected, ExcelError) else pytest.approx(expected))


def _select(criteria: list[list[Any]], field: Any = "Profit", name: str = "DSUM") -> Any:
    return _call(name, _table(DATABASE), field, _table(criteria))


def test_text_criterion_matches_the_beginning_of_the_text_and_equals_sign_the_whole() -> None:
    assert _select([["Tree"], ["Pe"]]) == pytest.approx(96 + 76.8)  # Pear begins with "Pe"
    assert _select([["Tree"], ["=Pe"]]) == 0.0
    assert _select([["Tree"], ["=pear"]]) == pytest.approx(96 + 76.8)  # case-insensitive


def test_wildcards_and_escaped_wildcards() -> None:
    assert _select([["Tree"], ["=?pple"]]) == 225.0
    assert _select([["Tree"], ["*rr"]]) == 105.0  # Cherry: anything, then "rr"
    assert _select([["Tree"], ["=App~*"]]) == 0.0  # a literal asterisk


def test_rows_are_alternatives_and_a_blank_row_selects_everything() -> None:
    assert _select([["Tree", "Age"], ["=Cherry", None], [None, "<9"]]) == pytest.approx(105 + 76.8)
    assert _select([["Tree"], [None]]) == pytest.approx(502.8)
    assert _select([["Height"], ["<>18"]]) == pytest.approx(502.8 - 105)


def test_number_criteria_compare_numbers() -> None:
    assert _select([["Profit"], [105]], name="DCOUNT") == 2.0
    assert _select([["Height"], [">=13"]], field="Tree", name="DCOUNTA") == 3.0


def test_field_by_position_or_label_in_any_case_and_unknown_field_is_value_error() -> None:
    assert _select([["Tree"], ["=Cherry"]], field=4) == 9.0
    assert _select([["Tree"], ["=Cherry"]], field="yIELD") == 9.0
    assert _select([["Tree"], ["=Cherry"]], field="Weight") == "#VALUE!"
    assert _select([["Tree"], ["=Cherry"]], field=6) == "#VALUE!"


def test_dcount_without_field_counts_matching_records() -> None:
    assert _select([["Tree"], ["=Apple"]], field=OMITTED, name="DCOUNT") == 3.0
    assert _select([["Tree"], ["=Apple"]], field=OMITTED, name="DCOUNTA") == 3.0


def test_field_zero_is_no_column_and_true_is_the_first(tmp_path: Path) -> None:
    # Excel (IronCalc's DCOUNT workbook): DCOUNT(db,0,crit) is #VALUE!, a typed 0 is no omitted field;
    # DCOUNT(db,,crit) counts the matching records; TRUE is position 1; 6.5 is truncated to 6.
    assert _select([["Tree"], ["=Apple"]], field=0.0, name="DCOUNT") == "#VALUE!"
    assert _select([["Tree"], ["=Apple"]], field=True, name="DCOUNTA") == 3.0
    assert _select([["Tree"], ["=Apple"]], field=4.5, name="DSUM") == 30.0
    sheet = recalculated(tmp_path, [row + [None, None] for row in DATABASE] + [["Tree"], ["Apple"]],
                         {"H1": "=DCOUNT(A1:E7,,A8:A9)", "H2": "=DCOUNT(A1:E7,0,A8:A9)"})
    assert sheet.get(1, 8) == 3.0
    assert_excel_value(sheet.get(2, 8), "#VALUE!")


def test_a_database_of_its_header_alone_is_value_error() -> None:
    assert _call("DSUM", _table(DATABASE[:1]), "Profit", _table([["Tree"], ["Apple"]])) == "#VALUE!"
    assert _call("DCOUNTA", _table(DATABASE[:1]), OMITTED, _table([["Tree"], [None]])) == "#VALUE!"


def test_labels_compare_as_text_so_true_names_the_logical_true_column() -> None:
    # a header TRUE (logical) and a later header "true" (text): the label "true" is the first one
    database = _table([["Name", True, "true", 1.0], ["a", "x", "y", 5.0], ["b", "y", "x", 7.0]])
    assert _call("DSUM", database, 4.0, _table([["true"], ["x"]])) == 5.0
    assert _call("DSUM", database, 4.0, _table([["TRUE"], ["<>x"]])) == 7.0
    assert _call("DCOUNTA", database, "True", _table([["Name"], ["b"]])) == 1.0
    assert _call("DSUM", database, "1", _table([["1"], [">6"]])) == 7.0  # a number header is its text


def test_dget_returns_the_one_match_or_value_error_when_none() -> None:
    assert _select([["Tree", "Height"], ["=Apple", 14]], field="Age", name="DGET") == 15.0
    assert _select([["Tree"], ["=Plum"]], field="Age", name="DGET") == "#VALUE!"


def test_blank_and_non_blank_criteria() -> None:
    database = _table([["Name", "Score"], ["a", 1], [None, 2], ["c", 4]])
    assert _call("DSUM", database, "Score", _table([["Name"], ["="]])) == 2.0
    assert _call("DSUM", database, "Score", _table([["Name"], ["<>"]])) == 5.0


def test_an_error_among_the_selected_values_is_the_result_but_dcount_skips_it() -> None:
    database = _table([["Name", "Score"], ["a", 1], ["a", XlError("#DIV/0!")]])
    criteria = _table([["Name"], ["a"]])
    assert _call("DSUM", database, "Score", criteria) == "#DIV/0!"
    assert _call("DCOUNT", database, "Score", criteria) == 1.0
    assert _call("DCOUNTA", database, "Score", criteria) == 2.0


def test_computed_criterion_is_not_supported_and_says_value_error() -> None:
    # Excel evaluates a formula under a label that is no column for each record; we do not.
    assert _select([["Big profit"], [True]]) == "#VALUE!"


def test_a_condition_under_an_unknown_or_blank_label_selects_no_record() -> None:
    # Excel (IronCalc's database workbooks): "North-East" under "Rgn", ="East" under a blank label or
    # under the text "#VALUE!" select nothing: DSUM 0, DAVERAGE #DIV/0!, DCOUNT 0
    assert _select([["Rgn"], ["Apple"]]) == 0.0
    assert _select([[None], ["Apple"]], name="DAVERAGE") == "#DIV/0!"
    assert _select([["#VALUE!"], ["Apple"]], field="Tree", name="DCOUNTA") == 0.0
    # ... in that criteria row only: another row still selects its records
    assert _select([["Rgn", "Tree"], ["x", None], [None, "=Cherry"]]) == 105.0
    # an empty condition under an unknown label holds for every record
    assert _select([["Rgn"], [None]], name="DCOUNT") == 6.0


def test_empty_selection_averages_to_div0_and_sums_to_zero() -> None:
    criteria = [["Tree"], ["=Plum"]]
    assert _select(criteria, name="DAVERAGE") == "#DIV/0!"
    assert _select(criteria, name="DSUM") == 0.0
    assert _select(criteria, name="DSTDEV") == "#DIV/0!"
