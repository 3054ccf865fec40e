"""Sheets laid out the way new submitters make them, not like the template."""

from __future__ import annotations

import datetime as dt

import openpyxl
from ema_sheets import ROWS, codes, validate

ROW_VALUES = [r[:5] for r in ROWS]


def _save(wb, tmp_path, name="variant.xlsx"):
    path = tmp_path / name
    wb.save(path)
    return path


def test_tournament_labels_across_a_row_with_values_below(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Tournament", "Rules", "From", "To", "Days", "Participants", "Countries", "MERS"])
    ws.append(["Row Cup", "Riichi", dt.date(2024, 5, 4), dt.date(2024, 5, 5), 2, 4, 3, 2])
    ws.append([])
    ws.append(["Rank", "EMA ID", "Name", "First name", "Nationality"])
    for row in ROW_VALUES:
        ws.append(row)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    t = result.submission.tournament
    assert (t.name, t.ruleset, t.players, t.weight) == ("Row Cup", "Riichi", 4, 2.0)


def test_a_label_merged_across_two_cells_has_its_value_after_the_merge(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    labels = [("Name of tournament:", "Merged Open"), ("Ruleset:", "MCR"), ("Date from:", dt.date(2024, 1, 6)),
              ("Date to:", dt.date(2024, 1, 7)), ("Number of days:", 2), ("Number of players:", 4),
              ("Number of countries:", 3), ("MERS weight:", 2)]
    for r, (label, value) in enumerate(labels, start=1):
        ws.cell(r, 1, label)
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=2)
        ws.cell(r, 3, value)
    start = len(labels) + 2
    for c, title in enumerate(["Place", "EMA no.", "Surname", "Forename", "Country"], start=1):
        ws.cell(start, c, title)
    for r, row in enumerate(ROW_VALUES, start=start + 1):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.tournament.name == "Merged Open"


def test_german_headers_and_a_table_that_does_not_start_in_column_a(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Ergebnisse"
    block = [("Turnier", None), ("Tournament", "Deutsche Meisterschaft"), ("Ruleset", "MCR"),
             ("Start date", "2024-11-02"), ("End date", "03.11.2024"), ("Days", 2), ("Players", 4),
             ("Countries", 3), ("MERS weight", 2)]
    for label, value in block[1:]:
        ws.append([None, label, value])
    ws.append([])
    ws.append([None, "#", "Platz", "EMA-Nr.", "Nachname", "Vorname", "Land"])
    for i, row in enumerate(ROW_VALUES, start=1):
        ws.append([None, i, *row])
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.players[0].ema_id == "04060059"


def test_one_full_name_column_is_read_as_the_name(tmp_path):
    wb = openpyxl.Workbook()
    info = wb.active
    info.title = "Info"
    for label, value in [("Event", "Name Cup"), ("Ruleset", "MCR"), ("Date", dt.date(2024, 2, 3)),
                         ("Days", 1), ("Players", 4), ("Countries", 3), ("Weight", 1)]:
        info.append([label, value])
    ws = wb.create_sheet("Standings")
    ws.append(["Pos", "Player", "EMA#", "Nat"])
    for place, ema_id, last, first, country in ROW_VALUES:
        ws.append([place, f"{first} {last}", ema_id, country])
    result = validate(_save(wb, tmp_path))
    assert result.findings == []
    assert result.submission.players[1].last_name == "Hans Müller"


def test_findings_point_into_the_variant_layout(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Tournament", "Rules", "From", "To", "Participants", "MERS"])
    ws.append(["Row Cup", "Riichi", dt.date(2024, 5, 5), dt.date(2024, 5, 4), 4, 2])
    ws.append([])
    ws.append(["Rank", "EMA ID", "Name", "First name", "Nationality"])
    for row in ROW_VALUES:
        ws.append(row)
    ws["B5"] = 4060059
    result = validate(_save(wb, tmp_path))
    assert [(f.code, f.cell) for f in result.findings] == [("END_BEFORE_START", "D2"),
                                                           ("EMA_ID_LOST_LEADING_ZERO", "B5")]
    assert "WEIGHT_MISSING" not in codes(result)
