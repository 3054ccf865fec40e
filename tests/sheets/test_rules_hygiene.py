"""Sheet hygiene: formulas without a stored value where values are read, merged cells in the table,
empty names and countries."""

from __future__ import annotations

from ema_sheets import ROWS, only, rows_with, validate


def test_a_formula_without_stored_value_in_a_read_column_is_an_error(make_sheet):
    rows = [list(r) for r in ROWS]
    rows[1][0] = "=A14+1"  # openpyxl writes the formula without a cached result
    finding = only(validate(make_sheet(rows=rows)), "FORMULA_NO_VALUE")
    assert finding.cell == "A15" and "=A14+1" in finding.message


def test_a_formula_without_stored_value_in_the_tournament_block_is_an_error(make_sheet):
    def players_formula(wb):
        wb["Results"]["B8"] = "=COUNTA(C14:C17)"

    assert only(validate(make_sheet(edit=players_formula)), "FORMULA_NO_VALUE").cell == "B8"


def test_merged_cells_in_the_table_are_an_error(make_sheet):
    def merge(wb):
        wb["Results"].merge_cells("C15:D15")

    finding = only(validate(make_sheet(edit=merge)), "MERGED_CELLS_IN_TABLE")
    assert finding.cell == "C15" and "C15:D15" in finding.message


def test_merged_cells_outside_the_table_are_fine(make_sheet):
    def merge_title(wb):
        wb["Results"].merge_cells("D1:G1")

    assert validate(make_sheet(edit=merge_title)).findings == []


def test_an_empty_last_name_is_an_error(make_sheet):
    assert only(validate(make_sheet(rows=rows_with(1, {"Last name": " "}))), "NAME_EMPTY").cell == "C15"


def test_an_empty_first_name_is_a_warning(make_sheet):
    result = validate(make_sheet(rows=rows_with(1, {"First name": None})))
    assert only(result, "FIRST_NAME_EMPTY").severity == "warning" and result.valid


def test_an_empty_country_is_a_warning(make_sheet):
    result = validate(make_sheet(rows=rows_with(1, {"Country": None})))
    assert only(result, "COUNTRY_EMPTY").cell == "E15"
