"""Against LibreOffice headless: the same values on native formulas, and our output opens there."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from tests.engine.engine_books import differences, engine_values, native_book, rules_book
from xlrating.engine import convert_file
from xlrating.engine.libreoffice import convert as lo_convert
from xlrating.engine.libreoffice import make_profile
from xlrating.functions import ExcelError

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")]

TEMPLATES = Path(__file__).resolve().parents[2] / "workbook_templates"


def _values(path: Path, cells: list[tuple[str, str]]) -> dict[tuple[str, str], object]:
    wb = openpyxl.load_workbook(path, data_only=True)
    out = {}
    for sheet, cell in cells:
        value = wb[sheet][cell].value
        if value is None:  # a formula's empty text result reads back as an empty cell
            value = ""
        if isinstance(value, str) and value.startswith("#"):
            value = ExcelError(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        out[(sheet, cell)] = value
    return out


def test_native_formulas_equal_libreoffice_recalculating_on_load(tmp_path: Path) -> None:
    book = native_book(tmp_path / "native.xlsx")
    ours = engine_values(book)
    recalculated = lo_convert(book, tmp_path / "lo", make_profile(tmp_path / "profile"))
    theirs = _values(recalculated, list(ours))
    assert len(ours) > 90
    assert differences(ours, theirs) == {}


def test_rounding_text_in_ranges_error_order_and_local_names_equal_libreoffice(tmp_path: Path) -> None:
    book = rules_book(tmp_path / "rules.xlsx")
    ours = engine_values(book)
    recalculated = lo_convert(book, tmp_path / "lo", make_profile(tmp_path / "profile"))
    assert len(ours) > 20
    # MAX(1, #N/A cell, #DIV/0! cell): Excel's first error in argument order, #N/A (LibreOffice 7.4
    # too); LibreOffice 25.2 answers #DIV/0!, so that cell is held to Excel's value only.
    assert ours.pop(("S", "B19")) == ExcelError("#N/A")
    assert differences(ours, _values(recalculated, list(ours))) == {}


def test_the_libreoffice_peer_recomputes_instead_of_trusting_cached_values(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = 2
    wb.active["B1"] = "=A1*21"
    wb.save(tmp_path / "plain.xlsx")
    convert_file(tmp_path / "plain.xlsx", tmp_path / "cached.xlsx")
    with zipfile.ZipFile(tmp_path / "cached.xlsx") as src, zipfile.ZipFile(tmp_path / "stale.xlsx", "w") as out:
        for info in src.infolist():
            out.writestr(info, re.sub(rb"<v>42(\.0)?</v>", b"<v>5</v>", src.read(info.filename)))
    assert b"<v>5</v>" in zipfile.ZipFile(tmp_path / "stale.xlsx").read("xl/worksheets/sheet1.xml")
    trusting = lo_convert(tmp_path / "stale.xlsx", tmp_path / "t", make_profile(tmp_path / "p1", False), "csv")
    forced = lo_convert(tmp_path / "stale.xlsx", tmp_path / "f", make_profile(tmp_path / "p2"), "csv")
    assert trusting.read_text().strip() == "2,5"
    assert forced.read_text().strip() == "2,42"


def test_output_opens_in_libreoffice_showing_our_cached_values(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 6):
        ws[f"A{r}"] = r
        ws[f"B{r}"] = f"=_xldudf_DIPPOUCH_PERCENTILE(5,A{r})"
    wb.save(tmp_path / "ours.xlsx")
    convert_file(tmp_path / "ours.xlsx", tmp_path / "out.xlsx")
    shown = lo_convert(tmp_path / "out.xlsx", tmp_path / "lo", make_profile(tmp_path / "p", recalculate=False), "csv")
    assert shown.read_text().splitlines() == ["1,90", "2,70", "3,50", "4,30", "5,10"]


@pytest.mark.skipif(not any(TEMPLATES.glob("*.xls[xm]")), reason="workbook_templates/ is empty")
def test_every_template_converts_and_the_output_opens_in_libreoffice(tmp_path: Path) -> None:
    profile = make_profile(tmp_path / "profile", recalculate=False)
    for template in sorted(TEMPLATES.glob("*.xls[xm]")):
        out = tmp_path / template.name
        convert_file(template, out)
        reopened = lo_convert(out, tmp_path / "lo" / template.stem, profile, "xlsx")
        assert openpyxl.load_workbook(reopened).sheetnames, template.name


def test_cells_left_for_excel_are_computed_by_libreoffice_on_open_and_nothing_needs_repair(tmp_path: Path) -> None:
    # LibreOffice as a user's would open it (no forced recalculation): it still computes the cell we
    # left without a value, because the output asks for a full recalculation on load
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = 4
    ws["B1"] = '=INFO("osversion")'  # not computed by the engine: Excel and LibreOffice know it
    ws["C1"] = "=A1*2"
    ws["D1"] = "=1E+300*1E+300"  # overflow: #NUM!, never 'inf'
    ws["E1"] = '="a"&CHAR(1)&"b"'  # a control character XML cannot hold as it is
    wb.save(tmp_path / "book.xlsx")
    convert_file(tmp_path / "book.xlsx", tmp_path / "out.xlsx")
    assert openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["Sheet"]["B1"].value is None
    shown = lo_convert(tmp_path / "out.xlsx", tmp_path / "lo", make_profile(tmp_path / "p", recalculate=False), "csv")
    system, double, overflow, text = shown.read_text(encoding="utf-8").splitlines()[0].split(",")[1:5]
    assert system.strip('"') != ""
    assert (double, overflow) == ("8", "#NUM!")
    # written as Excel itself writes CHAR(1) in a cached text (its own saved files hold <v>_x0001_</v>);
    # LibreOffice opens it and shows the escape as it does for Excel's files
    assert text.strip('"') in ("a\x01b", "a_x0001_b")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as package:
        assert b"<v>a_x0001_b</v>" in package.read("xl/worksheets/sheet1.xml")
