"""The annotated copy marks each finding at its cell and lists them on a Findings sheet that
starts with the file, the time of the check and the counts; errors and warnings are told apart by
their fill (with a legend), and the submitted sheets' columns are wide enough for their values."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from ema_sheets import ROWS, rows_with, validate

from xlrating.sheets.validate.annotate import (
    FILLS,
    LEGEND,
    TABLE_HEADER,
    TABLE_HEADER_ROW,
    annotate_workbook,
    listed_findings,
)
from xlrating.sheets.validate.column_widths import date_text, number_text, shown_text, text_width

FAULTY = Path(__file__).resolve().parents[2] / "examples" / "06_paris_winter_open_2025_with_mistakes.xlsx"
CHECKED = dt.datetime(2026, 12, 1, 21, 30, tzinfo=dt.UTC)


def fill_of(cell) -> str:
    return cell.fill.start_color.rgb[-6:] if cell.fill.fill_type == "solid" else ""


def annotated(path: Path, tmp_path: Path, **kwargs):
    findings = validate(path).findings
    out = annotate_workbook(path, findings, tmp_path / "annotated.xlsx", checked_at=CHECKED, **kwargs)
    return findings, openpyxl.load_workbook(out)


def test_each_finding_is_marked_at_its_cell_with_fill_and_comment(make_sheet, tmp_path):
    rows = [list(r) for r in ROWS]
    rows[0][1] = 4060059
    rows[1][1] = "04060059"
    findings, wb = annotated(make_sheet(rows=rows), tmp_path)
    ws = wb["Results"]
    assert "EMA_ID_LOST_LEADING_ZERO" in ws["B14"].comment.text
    assert fill_of(ws["B14"]) == FILLS["error"]
    assert "EMA_ID_DUPLICATE" in ws["B15"].comment.text
    assert [(r[1], r[3]) for r in listed_findings(wb["Findings"])] == [(f.code, f.cell) for f in findings]
    assert ws["A14"].value == 1  # the submitted content itself is unchanged


def test_a_finding_inside_a_merged_range_is_marked_on_its_top_left_cell(make_sheet, tmp_path):
    def merge(wb):
        wb["Results"].merge_cells("C15:D15")

    _, wb = annotated(make_sheet(edit=merge), tmp_path)
    assert "MERGED_CELLS_IN_TABLE" in wb["Results"]["C15"].comment.text


def test_errors_and_warnings_have_fills_of_their_own_and_a_cell_with_both_shows_the_error(make_sheet, tmp_path):
    assert FILLS["error"] != FILLS["warning"]
    findings, wb = annotated(FAULTY, tmp_path)
    ws = wb["Results"]
    severities: dict[str, set[str]] = {}
    for f in findings:
        severities.setdefault(f.cell, set()).add(f.severity)
    for cell, found in severities.items():
        assert fill_of(ws[cell]) == FILLS["error" if "error" in found else "warning"], cell
    assert severities["B22"] == {"error", "warning"}
    # a warning alone gets the warning fill
    _, wb = annotated(make_sheet(rows=rows_with(1, {"EMA ID": "04010001"})), tmp_path)  # a French ID, GER
    (warning,) = listed_findings(wb["Findings"])
    assert warning[0] == "warning" and fill_of(wb["Results"][warning[3]]) == FILLS["warning"]


def test_the_findings_sheet_starts_with_the_file_the_time_of_the_check_and_the_counts(tmp_path):
    findings, wb = annotated(FAULTY, tmp_path)
    assert wb.sheetnames[0] == "Findings"
    ws = wb["Findings"]
    assert ws["A1"].value == f"Findings of xlrating validate: {FAULTY.name}"
    assert ws["A2"].value == "Checked 2026-12-01 21:30 UTC. INVALID: 6 errors, 1 warning"
    assert sum(f.severity == "error" for f in findings) == 6 and len(findings) == 7
    # the legend: each severity in its fill, with what it means
    legend = {ws.cell(r, 1).value: (fill_of(ws.cell(r, 1)), ws.cell(r, 2).value) for r in (3, 4)}
    assert legend == {s: (FILLS[s], LEGEND[s]) for s in ("error", "warning")}
    # then the table, its header repeated on every printed page and frozen on screen
    assert tuple(c.value for c in ws[TABLE_HEADER_ROW]) == TABLE_HEADER
    assert ws.print_title_rows == f"${TABLE_HEADER_ROW}:${TABLE_HEADER_ROW}"
    assert ws.freeze_panes == f"A{TABLE_HEADER_ROW + 1}"
    for row in range(TABLE_HEADER_ROW + 1, TABLE_HEADER_ROW + 1 + len(findings)):
        assert fill_of(ws.cell(row, 1)) == FILLS[ws.cell(row, 1).value]


def test_a_valid_sheet_says_so_under_its_title(make_sheet, tmp_path):
    findings, wb = annotated(make_sheet(), tmp_path)
    ws = wb["Findings"]
    assert findings == [] and listed_findings(ws) == []
    assert ws["A2"].value == "Checked 2026-12-01 21:30 UTC. valid: 0 errors, 0 warnings"
    assert ws.cell(TABLE_HEADER_ROW + 1, 5).value == "No findings: the sheet is valid."


def test_a_file_named_like_a_formula_is_named_as_text(make_sheet, tmp_path):
    path = make_sheet(name="=1+1.xlsx")
    _, wb = annotated(path, tmp_path)
    cell = wb["Findings"]["A1"]
    assert cell.data_type == "s" and cell.value.endswith("=1+1.xlsx")


def test_columns_are_widened_to_show_labels_numbers_and_dates_whole(tmp_path):
    source = openpyxl.load_workbook(FAULTY)["Results"]
    assert "A" not in source.column_dimensions and "B" not in source.column_dimensions  # the default 8.43
    _, wb = annotated(FAULTY, tmp_path)
    ws = wb["Results"]
    width = {letter: ws.column_dimensions[letter].width for letter in "ABF"}
    assert shown_text(ws["B6"]) == "2025-01-17"  # the flagged end date, as its yyyy-mm-dd format shows it
    assert width["B"] >= text_width("2025-01-17") > 8.43
    for label in ("Tournament name", "MERS weight", "Qualification required", "Position"):  # cut by column B's values
        assert width["A"] >= text_width(label), label
    assert width["F"] >= text_width("Table points")  # cut by the Score column beside it
    assert "G" not in ws.column_dimensions  # "Score" and -254 fit already


def test_widths_are_only_ever_widened_and_text_running_into_empty_cells_is_left_alone(make_sheet, tmp_path):
    def edit(wb):
        ws = wb["Results"]
        ws.column_dimensions["C"].width = 40  # wider than needed: kept
        ws.column_dimensions.group("E", "H", outline_level=0)
        ws.column_dimensions["E"].width = 6  # E:H share one width; H, empty, does not need more
        ws["E20"] = "a note written below the table, running on into the empty cells to its right"

    _, wb = annotated(make_sheet(edit=edit), tmp_path)
    ws = wb["Results"]
    assert ws.column_dimensions["C"].width == 40
    widths = {}
    for dimension in ws.column_dimensions.values():
        for column in range(dimension.min, dimension.max + 1):
            widths[column] = dimension.width
    assert widths[5] >= text_width("Country")  # E: the header beside "Table points"
    assert widths[5] < text_width("a note written below the table")  # the note overflows, as it did
    assert widths[6] >= text_width("Table points") and widths[8] == 6  # H kept its share of the group


def test_a_number_format_decides_the_width(make_sheet, tmp_path):
    def edit(wb):
        ws = wb["Results"]
        ws["H1"], ws["I1"] = dt.date(2024, 3, 2), 1
        ws["H1"].number_format = "dddd d mmmm yyyy"

    _, wb = annotated(make_sheet(edit=edit), tmp_path)
    ws = wb["Results"]
    assert shown_text(ws["H1"]) == "Saturday 2 March 2024"
    assert ws.column_dimensions["H"].width >= text_width("Saturday 2 March 2024")


def test_a_submitted_sheet_prints_one_page_wide_unless_it_says_otherwise(make_sheet, tmp_path):
    def scaled(wb):
        wb["Results"].page_setup.scale = 70

    _, wb = annotated(make_sheet(), tmp_path)
    assert wb["Results"].sheet_properties.pageSetUpPr.fitToPage and wb["Results"].page_setup.fitToWidth == 1
    _, wb = annotated(make_sheet(edit=scaled), tmp_path)
    assert wb["Results"].page_setup.scale == 70 and not wb["Results"].sheet_properties.pageSetUpPr.fitToPage


@pytest.mark.parametrize("value, code, shown", [
    (dt.date(2025, 1, 17), "yyyy-mm-dd", "2025-01-17"),
    (dt.datetime(2024, 3, 2, 14, 5, 9), "yyyy-mm-dd hh:mm:ss", "2024-03-02 14:05:09"),
    (dt.datetime(2024, 3, 2, 14, 5), "d.m.yy h:mm AM/PM", "2.3.24 2:05 PM"),
    (dt.date(2024, 3, 2), '[$-409]mmm d, yyyy;@', "Mar 2, 2024"),
    (dt.date(2024, 3, 2), "General", "45353"),  # a date cell formatted as a number shows its serial
])
def test_a_date_is_measured_as_its_format_shows_it(value, code, shown):
    assert date_text(value, code) == shown


@pytest.mark.parametrize("value, code, length", [
    (3.14159, "0.00", len("3.14")), (1234567, "#,##0", len("1,234,567")), (0.25, "0%", len("25%")),
    (-5.5, "0.0;(0.0)", len("(5.5)")), (-5.5, "0.0", len("-5.5")), (1 / 3, "General", len("0.333333333")),
    (1e20, "General", len("1E+20")), (12345.678, "0.00E+00", len("1.23E+04")), (5, '0 "pts"', len("5 pts")),
    (-1234567.891, "General", len("-1234567.89")),  # General never shows more than 11 characters
])
def test_a_number_is_measured_to_the_length_its_format_shows(value, code, length):
    assert len(number_text(value, code)) == length


def test_a_formula_is_not_measured_by_its_text(make_sheet, tmp_path):
    def edit(wb):
        ws = wb["Results"]
        ws["H14"], ws["I14"] = "=ROUND((4-A14)/(4-1)*1000,0)+0*LEN(\"a long formula text\")", "x"

    _, wb = annotated(make_sheet(edit=edit), tmp_path)
    assert "H" not in wb["Results"].column_dimensions
