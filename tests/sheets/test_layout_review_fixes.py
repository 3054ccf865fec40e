"""Where the tournament data is when a label occurs more than once, sits in another table's header,
lies between other labels, or stands right against the results table."""

from __future__ import annotations

import datetime as dt

import openpyxl
from ema_sheets import BLOCK, HEADER, ROWS, codes, only, validate

from xlrating.gate.safe_open import load_workbook
from xlrating.sheets.read import cells as cv
from xlrating.sheets.templates import build
from xlrating.sheets.validate.ema.layout import normalise


def _save(wb, tmp_path, name="sheet.xlsx"):
    path = tmp_path / name
    wb.save(path)
    return path


def _put_table(ws, top, left=1):
    for c, title in enumerate(HEADER, start=left):
        ws.cell(top, c, title)
    for r, row in enumerate(ROWS, start=top + 1):
        for c, value in enumerate(row, start=left):
            ws.cell(r, c, value)


def _put_block(ws, top, left, block=BLOCK):
    for r, (label, value) in enumerate(block, start=top):
        ws.cell(r, left, label)
        ws.cell(r, left + 1, value)


def _results_with_block(wb, title="Results"):
    ws = wb.create_sheet(title)
    _put_block(ws, 1, 1)
    _put_table(ws, len(BLOCK) + 2)
    return ws


def test_a_registration_list_before_the_results_sheet_is_not_read_as_tournament_data(tmp_path):
    wb = openpyxl.Workbook()
    registration = wb.active
    registration.title = "Registration"
    registration.append(["Name", "Country", "Club"])
    for _, _, last, _, country, *_ in ROWS:
        registration.append([last, country, "Mahjong Club"])
    _results_with_block(wb)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    t = result.submission.tournament
    assert (t.name, t.country) == ("Test Open", "FRA")


def test_the_templates_lists_sheet_does_not_stand_in_for_a_deleted_country_row(tmp_path):
    template = tmp_path / "template.xlsx"
    template.write_bytes(build("ema_results_template.xlsx"))
    wb = load_workbook(template)
    ws = wb["Results"]
    values = dict(BLOCK)
    labels = {ws.cell(r, 1).value: r for r in range(1, 20) if isinstance(ws.cell(r, 1).value, str)}
    for label, value in values.items():
        ws.cell(labels[label], 2, value)
    ws.cell(labels["Country"], 1).value = None
    ws.cell(labels["Country"], 2).value = None
    for r, row in enumerate(ROWS, start=labels["Position"] + 1):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    result = validate(_save(wb, tmp_path, "filled.xlsx"))
    assert result.submission.tournament.country is None
    assert result.valid, [(f.code, f.sheet, f.cell) for f in result.findings]


def test_a_header_row_of_another_table_is_not_a_tournament_label(tmp_path):
    wb = openpyxl.Workbook()
    lists = wb.active
    lists.title = "Lists"
    lists.append(["Code", "Country", "EMA ID prefix"])
    lists.append(["AUT", "Austria", "01"])
    lists.append(["BEL", "Belgium", "02"])
    ws = _results_with_block(wb)
    ws.delete_rows(4)  # the Country row of the block
    result = validate(_save(wb, tmp_path))
    assert result.submission.tournament.country is None
    assert "TOURNAMENT_FIELD_CONFLICT" not in codes(result)


def test_a_section_heading_named_like_a_label_does_not_hide_the_value_below_it(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    ws["A1"] = "Tournament"
    _put_block(ws, 2, 1)
    _put_table(ws, len(BLOCK) + 3)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.tournament.name == "Test Open"


def test_an_empty_occurrence_gives_way_to_one_with_a_value_on_another_sheet(tmp_path):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    ws = _results_with_block(wb)
    ws["B1"] = None
    info = wb.create_sheet("Info")
    info.append(["Tournament name", "Spring Cup"])
    info.append(["City", "Lyon"])
    result = validate(_save(wb, tmp_path))
    assert "TOURNAMENT_VALUE_EMPTY" not in codes(result)
    assert result.submission.tournament.name == "Spring Cup"


def test_two_different_values_for_one_field_are_a_conflict_naming_both_cells(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    info.append(["Tournament name", "Spring Cup"])
    info.append(["City", "Lyon"])
    _results_with_block(wb)
    finding = only(validate(_save(wb, tmp_path)), "TOURNAMENT_FIELD_CONFLICT")
    assert finding.severity == "error"
    assert (finding.sheet, finding.cell) == ("Results", "B1")
    assert "'Test Open' at Results!B1" in finding.message and "'Spring Cup' at Info!B1" in finding.message


def test_a_conflict_between_dates_quotes_them_as_dates(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    info.append(["Start date", dt.datetime(2024, 3, 9)])
    info.append(["End date", dt.date(2024, 3, 3)])
    _results_with_block(wb)
    finding = only(validate(_save(wb, tmp_path)), "TOURNAMENT_FIELD_CONFLICT")
    assert "'2024-03-02' at Results!B5 and '2024-03-09' at Info!B1" in finding.message


def test_the_same_value_given_twice_is_not_a_conflict(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    info.append(["Tournament name", " test open"])
    info.append(["Start date", "2024-03-02"])
    _results_with_block(wb)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []


def test_values_that_read_the_same_are_not_a_conflict(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    info.append(["Start date", "02.03.2024"])  # the date cell of the block, typed as text
    info.append(["Country", "France"])  # FRA
    info.append(["Qualification required", False])  # "No"
    info.append(["MERS weight", "2"])
    _results_with_block(wb)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []


def test_numbers_that_differ_are_a_conflict(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    info.append(["MERS weight", 1.5])
    _results_with_block(wb)
    assert "TOURNAMENT_FIELD_CONFLICT" in codes(validate(_save(wb, tmp_path)))


def _across(tmp_path, empty):
    """Labels across row 1, values under them in row 2 (``empty`` labels without a value)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for c, (label, value) in enumerate(BLOCK, start=1):
        ws.cell(1, c, label)
        if label not in empty:
            ws.cell(2, c, value)
    _put_table(ws, 4)
    return validate(_save(wb, tmp_path))


def test_labels_across_a_row_never_take_the_next_label_as_an_empty_fields_value(tmp_path):
    result = _across(tmp_path, {"City", "Countries"})
    assert result.findings == []
    t = result.submission.tournament
    assert (t.city, t.countries, t.country) == (None, None, "FRA")


def test_an_empty_required_value_across_a_row_is_reported_at_the_cell_below_its_label(tmp_path):
    result = _across(tmp_path, {"Ruleset"})
    assert only(result, "TOURNAMENT_VALUE_EMPTY").cell == "B2"


def test_a_block_directly_right_of_the_table_is_not_swallowed_by_it(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    _put_table(ws, 1)
    _put_block(ws, 1, len(HEADER) + 1)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.tournament.name == "Test Open"


def test_a_player_column_headed_like_a_label_at_the_tables_right_edge_stays_in_the_table(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    block = [item for item in BLOCK if item[0] != "City"]
    _put_block(ws, 1, 1, block)
    top = len(block) + 2
    _put_table(ws, top)
    ws.cell(top, len(HEADER) + 1, "City")
    for r in range(top + 1, top + 1 + len(ROWS)):
        ws.cell(r, len(HEADER) + 1, "Paris")
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.tournament.city is None


def test_missing_dates_name_both_labels_readably(make_sheet):
    block = [item for item in BLOCK if item[0] not in ("Start date", "End date", "Days")]
    finding = only(validate(make_sheet(block=block)), "TOURNAMENT_FIELD_MISSING")
    assert "labelled 'Start date' and 'End date' with" in finding.message


def test_shared_cell_helpers_keep_their_readings():
    assert cv.date(45353) == dt.date(2024, 3, 2)
    assert cv.date(45353.75) == dt.date(2024, 3, 2)
    assert cv.is_empty("  ") and cv.is_empty(None) and not cv.is_empty(0)
    assert normalise("Nb. of Players (total) #:") == "nb of players no"
    assert normalise("Pays / Città") == "pays citta"


def test_a_block_across_a_row_on_its_own_sheet_survives_a_notes_row_below_it(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    for c, (label, value) in enumerate(BLOCK, start=1):
        info.cell(1, c, label)
        info.cell(2, c, value)
    info.cell(3, 1, "note")
    info.cell(3, 2, "see the rules")
    results = wb.create_sheet("Results")
    _put_table(results, 1)
    result = validate(_save(wb, tmp_path))
    assert "TOURNAMENT_FIELD_MISSING" not in codes(result)
    assert result.submission.tournament.name == "Test Open"
