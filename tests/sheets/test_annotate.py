"""The annotated copy marks each finding at its cell and lists them on a Findings sheet."""

from __future__ import annotations

import openpyxl
from ema_sheets import ROWS, validate

from xlrating.sheets.annotate import FILLS, annotate_workbook


def test_each_finding_is_marked_at_its_cell_with_fill_and_comment(make_sheet, tmp_path):
    rows = [list(r) for r in ROWS]
    rows[0][1] = 4060059
    rows[1][1] = "04060059"
    path = make_sheet(rows=rows)
    findings = validate(path).findings
    out = annotate_workbook(path, findings, tmp_path / "annotated.xlsx")
    wb = openpyxl.load_workbook(out)
    ws = wb["Results"]
    assert "EMA_ID_LOST_LEADING_ZERO" in ws["B14"].comment.text
    assert ws["B14"].fill.start_color.rgb.endswith(FILLS["error"])
    assert "EMA_ID_DUPLICATE" in ws["B15"].comment.text
    sheet = wb["Findings"]
    listed = [row for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert [(r[1], r[3]) for r in listed] == [(f.code, f.cell) for f in findings]
    assert ws["A14"].value == 1  # the submitted content itself is unchanged


def test_a_finding_inside_a_merged_range_is_marked_on_its_top_left_cell(make_sheet, tmp_path):
    def merge(wb):
        wb["Results"].merge_cells("C15:D15")

    path = make_sheet(edit=merge)
    findings = validate(path).findings
    wb = openpyxl.load_workbook(annotate_workbook(path, findings, tmp_path / "a.xlsx"))
    assert "MERGED_CELLS_IN_TABLE" in wb["Results"]["C15"].comment.text
