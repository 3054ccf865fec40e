"""A real spreadsheet program opens every template: LibreOffice converts each one to PDF.

LibreOffice does not know xlrating's functions; the calculators guard every call with ``IF`` so that
an empty template prints blanks, not ``#NAME?`` (checked here on the PDF's text). The EMA results
template uses none of them (tests/sheets/test_ema_template_native.py fills it in).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from xlrating.sheets.templates import TEMPLATES, build_all, ema_results, plain_calculators

pytestmark = [
    pytest.mark.libreoffice,
    pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed"),
]


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("lo")
    sources = build_all(work / "xlsx")
    profile = (work / "profile").as_uri()  # a private profile: no clash with a running LibreOffice
    done = subprocess.run(
        ["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to", "pdf",
         "--outdir", str(work / "pdf"), *map(str, sources)],
        capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    return {name: work / "pdf" / (Path(name).stem + ".pdf") for name in TEMPLATES}


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_libreoffice_converts_the_template_to_a_pdf_with_pages(pdfs: dict[str, Path], name: str) -> None:
    pdf = pdfs[name].read_bytes()
    assert pdf.startswith(b"%PDF")
    assert _pages(pdf) >= 1


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler) is not installed")
@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_printed_template_shows_its_labels_and_no_error_values(pdfs: dict[str, Path], name: str) -> None:
    text = subprocess.run(["pdftotext", "-layout", str(pdfs[name]), "-"], capture_output=True, text=True,
                          check=True).stdout
    if name != ema_results.FILE_NAME and name not in plain_calculators.TEMPLATES:
        assert "UDF Modules" in text  # the xlwings.conf sheet prints too (not in the add-in-free templates)
    for error in ("#NAME?", "#VALUE!", "Err:", "#REF!"):
        assert error not in text, f"{name} prints {error}"
    if name.startswith("ema_results"):
        for label in ("Tournament name", "Qualification required", "EMA ID", "Base rank"):
            assert label in text
