"""Rules of CSV export safety: no cell a spreadsheet would execute, no number changed."""

from __future__ import annotations

import csv
import datetime as dt
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrating.gate.csv_safety import FORMULA_TRIGGERS, needs_neutralising, neutralise_cell, neutralise_row

PAYLOADS = [
    "=1+1",
    "=HYPERLINK(\"http://127.0.0.1/?\"&A1,\"click\")",
    "+SUM(1,2)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1;2)",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "\uff1d1+1",  # full-width equals sign
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_text_starting_with_a_formula_trigger_gets_a_leading_quote(payload: str) -> None:
    assert neutralise_cell(payload) == "'" + payload


@pytest.mark.parametrize("number", [-5, 5, -2.5, 0, 1e-9])
def test_numbers_stay_numbers(number: float) -> None:
    assert neutralise_cell(number) is number


@pytest.mark.parametrize("text", ["-5", "+3.5", "-1e3", "-.5", "42"])
def test_text_that_is_exactly_a_plain_number_is_left_alone(text: str) -> None:
    assert neutralise_cell(text) == text


@pytest.mark.parametrize("value", [None, True, "Ada Lovelace", "Jean-Luc", "a=b", "", dt.date(2024, 5, 1), "'=1"])
def test_everything_else_passes_through_unchanged(value: object) -> None:
    assert neutralise_cell(value) == value


@pytest.mark.parametrize("sign", ["-", "+"])
def test_a_lone_sign_such_as_the_no_ema_id_dash_is_left_alone(sign: str) -> None:
    assert neutralise_cell(sign) == sign


def test_a_row_is_neutralised_cell_by_cell() -> None:
    assert neutralise_row(["=1", -1, "-1", "Ada"]) == ["'=1", -1, "-1", "Ada"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text())
def test_no_neutralised_text_starts_with_a_trigger_unless_it_is_a_plain_number(text: str) -> None:
    safe = neutralise_cell(text)
    assert not needs_neutralising(safe)
    if safe[:1] in FORMULA_TRIGGERS and safe not in ("-", "+"):
        float(safe)  # only a plain number (or a lone sign) may keep its sign
    assert safe in (text, "'" + text)  # reversible: the original is the text after the quote


def _write_csv(path: Path, rows: list[list[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


def _cell_types(csv_path: Path, out: Path) -> list[tuple[object, str]]:
    """Open a CSV in a real spreadsheet (LibreOffice, default import) and list (value, type) per cell."""
    # A private profile: two LibreOffice runs sharing the default one (parallel test workers) can hang.
    profile = (out / "lo-profile").resolve().as_uri()
    subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to", "xlsx",
                    "--outdir", str(out), str(csv_path)],
                   check=True, capture_output=True, timeout=120)
    sheet = openpyxl.load_workbook(out / (csv_path.stem + ".xlsx")).active
    return [(cell.value, cell.data_type) for row in sheet.iter_rows() for cell in row]


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="needs LibreOffice (soffice)")
def test_a_real_spreadsheet_opens_the_neutralised_csv_without_any_formula(tmp_path: Path) -> None:
    rows: list[list[object]] = [["player", "total"], *([p, 1] for p in PAYLOADS), ["-5", -5], ["-", 2], ["+", 3]]
    raw, safe = tmp_path / "raw.csv", tmp_path / "safe.csv"
    _write_csv(raw, rows)
    _write_csv(safe, [neutralise_row(r) for r in rows])
    # Control: the same names unprotected do become formulas, so this test can fail.
    assert any(kind == "f" for _, kind in _cell_types(raw, tmp_path))
    cells = _cell_types(safe, tmp_path)
    assert not [value for value, kind in cells if kind == "f"]
    assert (-5, "n") in cells  # numbers still arrive as numbers
