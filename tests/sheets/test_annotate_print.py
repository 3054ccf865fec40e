"""The annotated copy as real LibreOffice prints it: no value shown as ``###``, no label cut by the
value beside it, the submitted sheet one page wide, and the Findings page starting with the file,
the time of the check and the counts."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path

import pytest

from xlrating.engine.libreoffice import convert, make_profile
from xlrating.sheets.validate.annotate import annotate_workbook
from xlrating.sheets.validate.ema.sheet import validate_file

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                                 reason="LibreOffice (soffice) and pdftotext (poppler) are needed")]

FAULTY = Path(__file__).resolve().parents[2] / "examples" / "06_paris_winter_open_2025_with_mistakes.xlsx"


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The faulty example's annotated copy printed to PDF by LibreOffice: the text of each page."""
    folder = tmp_path_factory.mktemp("annotate-print")
    annotated = annotate_workbook(FAULTY, validate_file(FAULTY).findings, folder / "annotated.xlsx",
                                  checked_at=dt.datetime(2026, 12, 1, 21, 30, tzinfo=dt.UTC))
    pdf = convert(annotated, folder, make_profile(folder / "profile"), fmt="pdf", timeout=180)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return [page for page in text.split("\f") if page.strip()]


def test_no_value_is_shown_as_hashes_and_the_dates_show_whole(printed: list[str]) -> None:
    everything = "\n".join(printed)
    assert "###" not in everything
    results = next(page for page in printed if "Tournament name" in page)
    assert "2025-01-18" in results and "2025-01-17" in results  # start and (flagged) end date


def test_labels_are_not_cut_by_the_values_beside_them(printed: list[str]) -> None:
    results = next(page for page in printed if "Tournament name" in page)
    for label, value in (("Tournament name", "Paris Winter Open 2025"), ("MERS weight", "2"),
                         ("Qualification required", "No"), ("Start date", "2025-01-18")):
        line = next(line for line in results.splitlines() if line.strip().startswith(label))
        assert line.split(label, 1)[1].strip() == value, line


def test_the_results_sheet_prints_one_page_wide(printed: list[str]) -> None:
    results = [page for page in printed if "Wolf" in page or "Score" in page]
    assert len(results) == 1  # the whole sheet, every column, on one page
    header = next(line for line in results[0].splitlines() if "Position" in line)
    assert header.split() == ["Position", "EMA", "ID", "Last", "name", "First", "name", "Country", "Table",
                              "points", "Score"]


def test_the_findings_page_starts_with_the_file_the_time_and_the_counts(printed: list[str]) -> None:
    first = [line.strip() for line in printed[0].splitlines() if line.strip()]
    assert first[0] == f"Findings of xlrating validate: {FAULTY.name}"
    assert first[1] == "Checked 2026-12-01 21:30 UTC. INVALID: 6 errors, 1 warning"
    assert first[2].split()[0] == "error" and first[3].split()[0] == "warning"  # the legend
    assert first[4].split() == ["Severity", "Code", "Sheet", "Cell", "Message"]
