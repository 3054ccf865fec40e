"""The annotated copy's Findings sheet is what organisers read and print: in real LibreOffice it
prints one page wide (every column on the first page) with no message cut at the page edge."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from xlrating.engine.libreoffice import make_profile
from xlrating.sheets.validate.annotate import annotate_workbook
from xlrating.sheets.validate.ema.sheet import validate_file

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                                 reason="LibreOffice (soffice) and pdftotext (poppler) are needed")]

FAULTY = Path(__file__).resolve().parents[2] / "examples" / "06_paris_winter_open_2025_with_mistakes.xlsx"


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_findings_sheet_prints_one_page_wide_with_every_message_whole(tmp_path: Path) -> None:
    findings = validate_file(FAULTY).findings
    assert len(findings) >= 5
    annotated = tmp_path / "annotated.xlsx"
    annotate_workbook(FAULTY, findings, annotated)
    profile = make_profile(tmp_path / "profile")
    subprocess.run(["soffice", f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(annotated)],
                   capture_output=True, timeout=180, check=True)
    pdf = str(tmp_path / "annotated.pdf")
    laid_out = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                              check=True).stdout.split("\f")
    header = next(line for line in laid_out[0].splitlines() if "Severity" in line)
    assert re.search(r"Severity\s+Code\s+Sheet\s+Cell\s+Message", header)  # every column on the first page
    assert "Findings" in laid_out[0] and "Page 1 of" in laid_out[0]
    # the Findings sheet comes first; in reading order its pages hold every message whole (wrapped lines)
    pages = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True, check=True).stdout.split("\f")
    findings_pages = [page for page in pages if "Findings" in page]
    printed = _words(" ".join(findings_pages))
    for finding in findings:
        assert _words(finding.message) in printed, finding.message
