"""Conditional formats with our functions in real LibreOffice, seen on the page it prints.

What docs/functions.md says: a conditional format from an .xlsx that calls one of the functions does not
apply in LibreOffice (neither 25.2 with the plain name nor 7.4 with the name `prepare` writes),
while one that refers to a cell computing the function does. Each workbook is exported to PDF by
LibreOffice with the add-in installed (a private profile) and the page rendered by poppler; the
cell a format applies to is filled red, so the page holds red pixels exactly when it applied.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import PatternFill
from shared_session import MISSING_74, install_addin, libreoffice_74, shared_session

from xlrating.cli import main
from xlrating.hosts.libreoffice_install import office_environment

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed"),
              pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler (pdftoppm) is not installed")]

K_CASUAL = 8  # DCI_K("casual")
FORMATS = {"through a cell": "A1=A3", "calling the function": 'A1=DCI_K("casual")'}


def book(path: Path, condition: str) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = K_CASUAL
    ws["A3"] = '=DCI_K("casual")'
    red = PatternFill("solid", fgColor="FF0000", bgColor="FF0000")
    ws.conditional_formatting.add("A1", FormulaRule(formula=[condition], fill=red))
    wb.save(path)
    return path


def red_pixels(office: Any, profile: Path, books: dict[str, Path], folder: Path) -> dict[str, int]:
    """How many red pixels the first page of each workbook printed by that LibreOffice holds (one
    LibreOffice run prints them all; in LibreOffice's own environment, as xlrating runs it)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(office.soffice), f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless",
                    "--convert-to", "pdf", "--outdir", str(folder), *map(str, books.values())], capture_output=True,
                   timeout=300, check=True, env=office_environment(office))
    found = {}
    for label, xlsx in books.items():
        page = folder / xlsx.stem
        subprocess.run(["pdftoppm", "-r", "30", "-f", "1", "-l", "1", "-singlefile", str(folder / f"{xlsx.stem}.pdf"),
                        str(page)], capture_output=True, timeout=60, check=True)
        magic, size, depth, pixels = page.with_suffix(".ppm").read_bytes().split(b"\n", 3)
        assert magic == b"P6" and depth == b"255", (magic, size, depth)
        found[label] = sum(1 for i in range(0, len(pixels) - 2, 3)
                           if pixels[i] > 200 and pixels[i + 1] < 80 and pixels[i + 2] < 80)
    return found


def run_session(folder: Path) -> dict[str, Any]:
    office = install_addin(folder)
    plain, prepared = {}, {}
    for label, condition in FORMATS.items():
        plain[label] = book(folder / f"{label}.xlsx", condition)
        prepared[f"{label}, prepared"] = folder / f"{label} prepared.xlsx"
        done = CliRunner().invoke(main, ["libreoffice", "prepare", str(plain[label]), "-o",
                                         str(prepared[f"{label}, prepared"])])
        assert done.exit_code == 0, done.output
    found: dict[str, Any] = {"25": red_pixels(office, folder / "profile", plain | prepared, folder / "pdf25"),
                             "74": {}}
    soffice_74 = libreoffice_74()
    if soffice_74 is not None:
        old = install_addin(folder, soffice_74, "profile74")
        found["74"] = red_pixels(old, folder / "profile74", prepared, folder / "pdf74")
    return found


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Any]:
    return shared_session(tmp_path_factory, worker_id, "libreoffice_conditional_formats", run_session)


def test_in_libreoffice_25_a_format_applies_through_a_cell_not_by_calling_the_function(session: dict[str, Any]) -> None:
    found = session["25"]
    assert found["through a cell"] > 0 and found["through a cell, prepared"] > 0
    assert found["calling the function"] == 0 and found["calling the function, prepared"] == 0


def test_in_libreoffice_74_a_format_applies_through_a_cell_not_by_calling_the_function(session: dict[str, Any]) -> None:
    found = session["74"]
    if not found:
        pytest.skip(MISSING_74)
    assert found["through a cell, prepared"] > 0
    assert found["calling the function, prepared"] == 0
