"""The EMA results template in workbook_templates/ is read by the validator once filled in."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from ema_sheets import ROWS, codes, validate

TEMPLATE = Path(__file__).resolve().parents[2] / "workbook_templates" / "ema_results_template.xlsx"
pytestmark = pytest.mark.skipif(not TEMPLATE.exists(), reason="template not built yet")

VALUES = {"Tournament name": "Template Open", "Ruleset": "MCR", "City": "Lyon", "Country": "FRA",
          "Start date": dt.date(2024, 3, 2), "End date": dt.date(2024, 3, 3), "Days": 2, "Players": 4,
          "Countries": 3, "MERS weight": 2, "Qualification required": "No"}


def _filled(tmp_path):
    wb = openpyxl.load_workbook(TEMPLATE)
    ws = wb["Results"]
    header_row = None
    for row in ws.iter_rows(min_col=1, max_col=1):
        cell = row[0]
        if cell.value in VALUES:
            ws.cell(cell.row, 2, VALUES[cell.value])
        if cell.value == "Position":
            header_row = cell.row
    assert header_row is not None
    for r, row in enumerate(ROWS, start=header_row + 1):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    path = tmp_path / "filled.xlsx"
    wb.save(path)
    return path


def test_a_filled_in_template_has_no_findings(tmp_path):
    result = validate(_filled(tmp_path))
    assert result.findings == []
    assert len(result.submission.players) == len(ROWS)


def test_the_empty_template_asks_for_the_required_tournament_data():
    assert {"TOURNAMENT_VALUE_EMPTY", "WEIGHT_MISSING"} <= set(codes(validate(TEMPLATE)))
