"""Layout discovery: the same results in the layouts submitters send are all read the same way."""

from __future__ import annotations

import datetime as dt

import pytest
from ema_sheets import BLOCK, HEADER, ROWS, block_with, codes, only, validate


@pytest.mark.parametrize("layout", ["template", "beside", "own_sheet"])
def test_a_clean_sheet_yields_no_findings_in_every_layout(make_sheet, layout):
    result = validate(make_sheet(layout=layout))
    assert result.findings == []
    assert result.valid
    t = result.submission.tournament
    assert (t.name, t.ruleset, t.start_date, t.end_date, t.players, t.weight) == (
        "Test Open", "MCR", dt.date(2024, 3, 2), dt.date(2024, 3, 3), 4, 2.0)
    assert [(p.place, p.ema_id, p.last_name) for p in result.submission.players] == [
        (r[0], r[1], r[2]) for r in ROWS]


def test_reordered_and_renamed_columns_are_mapped_by_synonym(make_sheet):
    header = ["Surname", "Given name", "EMA number", "Nat", "MJ points", "TP", "Rank"]
    order = [2, 3, 1, 4, 6, 5, 0]
    rows = [[r[i] for i in order] for r in ROWS]
    result = validate(make_sheet(header=header, rows=rows, layout="beside"))
    assert result.findings == []
    assert next((p.place, p.ema_id, p.first_name, p.score) for p in result.submission.players) == (
        1, "04060059", "Jean", 110.5)


def test_header_labels_ignore_case_accents_punctuation_and_notes(make_sheet):
    header = ["POS.", "EMA #", "Family name", "Forename", "Nationality", "Points", "Mini-points"]
    block = [(label.upper() + ":", value) for label, value in BLOCK]
    block[-2] = ("Coefficient (MERS)", 2)
    result = validate(make_sheet(header=header, block=block))
    assert result.findings == []
    assert result.submission.tournament.weight == 2


def test_a_single_date_label_is_a_one_day_event(make_sheet):
    block = [
        (label, value) for label, value in block_with({"Days": 1, "MERS weight": 1}) if label != "Start date"]
    block = [("Date", v) if label == "End date" else (label, v) for label, v in block]
    result = validate(make_sheet(block=block))
    assert result.findings == []
    assert result.submission.tournament.start_date == result.submission.tournament.end_date == dt.date(2024, 3, 3)


def test_a_workbook_without_a_results_header_is_reported(make_sheet):
    result = validate(make_sheet(header=["A", "B", "C", "D", "E", "F", "G"]))
    finding = only(result, "NO_RESULTS_TABLE")
    assert (finding.sheet, finding.cell, finding.severity) == ("Results", "A1", "error")


def test_a_missing_required_column_is_reported_at_the_header(make_sheet):
    header = HEADER[:4] + ["Remarks"] + HEADER[5:]
    finding = only(validate(make_sheet(header=header)), "COLUMN_MISSING")
    assert finding.cell == "A13" and "Country" in finding.message


def test_player_rows_after_a_blank_row_are_reported_not_silently_dropped(make_sheet):
    rows = [list(r) for r in ROWS[:3]] + [[None] * 7] + [list(ROWS[3])]
    result = validate(make_sheet(rows=rows))
    assert only(result, "ROWS_AFTER_TABLE").cell == "A18"
    assert "ROW_COUNT_MISMATCH" in codes(result)


def test_an_unread_formula_column_without_stored_values_is_not_reported(make_sheet):
    def add_base_rank(wb):
        ws = wb["Results"]
        ws.cell(13, 8, "Base rank")
        for r in range(14, 18):
            ws.cell(r, 8, f"=(4-A{r})/3*1000")  # openpyxl stores no result for it

    assert validate(make_sheet(edit=add_base_rank)).findings == []


def test_a_thousand_player_sheet_is_read_completely_without_findings(make_sheet):
    rows = [[i, f"04{i:06d}", f"Last{i}", f"First{i}", "FRA", 2000 - i, 0] for i in range(1, 1001)]
    block = [(label, 1000 if label == "Players" else 1 if label == "Countries" else value)
             for label, value in BLOCK]
    block = [(label, 3.0 if label == "MERS weight" else value) for label, value in block]
    result = validate(make_sheet(rows=rows, block=block))
    assert result.findings == []
    assert len(result.submission.players) == 1000 and result.submission.players[-1].ema_id == "04001000"
