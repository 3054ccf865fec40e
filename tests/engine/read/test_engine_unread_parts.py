"""Workbooks whose parts the engine does not read as sheets never fail whole: a workbook written in
the namespace of a pre-release of Excel 2007 (LibreOffice opens it as one empty sheet) is read as
LibreOffice reads it, with a warning naming its workbook part; a worksheet part no sheet names is
checked against the limits, but a value its cell's type cannot hold there fails nothing."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PRE_RELEASE = "http://schemas.microsoft.com/office/excel/2006/2"


def _rewritten(path: Path, change: dict[str, str | None], add: dict[str, str] | None = None) -> None:
    """``path`` with the parts of ``change`` replaced (None: left out) and those of ``add`` added."""
    with zipfile.ZipFile(path) as package:
        parts = {name: package.read(name) for name in package.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            if name in change:
                if change[name] is not None:
                    package.writestr(name, str(change[name]))
            else:
                package.writestr(name, data)
        for name, text in (add or {}).items():
            package.writestr(name, text)


def _pre_release_book(path: Path) -> Path:
    """A sheet of a text (a shared string) and three numbers with their SUM, written as a pre-release
    of Excel 2007 wrote it: every part in its namespace, the shared strings as <sstItem>."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    for row, value in enumerate([111, 222, 333], start=1):
        sheet.cell(row, 2, value)
    sheet["B4"] = "=SUM(B1:B3)"
    book.save(path)
    with zipfile.ZipFile(path) as package:
        parts = {name: package.read(name).decode() for name in
                 ("xl/workbook.xml", "xl/worksheets/sheet1.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml")}
    worksheet = parts["xl/worksheets/sheet1.xml"].replace("<f>SUM(B1:B3)</f><v></v>", "<f>SUM(B1:B3)</f><v>666</v>")
    worksheet = worksheet.replace('<c r="B1"', '<c r="A1" t="s"><v>0</v></c><c r="B1"')
    strings = f'<sst xmlns="{PRE_RELEASE}" count="1" uniqueCount="1"><sstItem><t>Lorem</t></sstItem></sst>'
    _rewritten(path, {
        "xl/workbook.xml": parts["xl/workbook.xml"].replace(MAIN, PRE_RELEASE),
        "xl/worksheets/sheet1.xml": worksheet.replace(MAIN, PRE_RELEASE),
        "xl/_rels/workbook.xml.rels": parts["xl/_rels/workbook.xml.rels"].replace("</Relationships>", (
            '<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')),
        "[Content_Types].xml": parts["[Content_Types].xml"].replace("</Types>", (
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'))},
        {"xl/sharedStrings.xml": strings})
    return path


def test_a_pre_release_excel_2007_workbook_is_read_as_libreoffice_reads_it_with_a_warning(tmp_path: Path) -> None:
    path = _pre_release_book(tmp_path / "beta.xlsx")
    evaluated = evaluate_workbook(str(path), limits=convert_limits())
    assert evaluated.grid.order == []  # no sheet read, nothing made up
    assert evaluated.notes == [
        f"xl/workbook.xml is written in the namespace '{PRE_RELEASE}', a pre-release of Excel 2007's format: no "
        "sheet of it is read and no formula computed (LibreOffice too opens it as one empty sheet)"]
    result = CliRunner().invoke(main, ["convert", str(path), "-o", str(tmp_path / "out.xlsx")])
    assert result.exit_code == 0, result.output
    assert "beta.xlsx: xl/workbook.xml is written in the namespace" in result.output
    assert CliRunner().invoke(main, ["convert", str(path), "-o", str(tmp_path / "strict.xlsx"),
                                     "--strict"]).exit_code == 1


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_a_pre_release_workbook_as_one_empty_sheet(tmp_path: Path) -> None:
    from xlrating.engine.libreoffice import convert, make_profile

    path = _pre_release_book(tmp_path / "beta.xlsx")
    theirs = openpyxl.load_workbook(convert(path, tmp_path / "lo", make_profile(tmp_path / "profile")))
    assert len(theirs.worksheets) == 1
    assert [cell.value for row in theirs.active.iter_rows() for cell in row if cell.value is not None] == []


def test_a_damaged_cell_of_a_worksheet_part_no_sheet_names_fails_nothing(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active["A1"], book.active["A2"] = 5, "=A1*2"
    book.save(tmp_path / "orphan.xlsx")
    orphan = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{MAIN}"><sheetData>'
              '<row r="1"><c r="A1" t="s"><v>7</v></c></row></sheetData></worksheet>')
    _rewritten(tmp_path / "orphan.xlsx", {}, {"xl/worksheets/sheet9.xml": orphan})
    evaluated = evaluate_workbook(str(tmp_path / "orphan.xlsx"), limits=convert_limits())
    sheet = evaluated.grid.sheet("Sheet")
    assert sheet is not None and sheet.get(2, 1) == 10.0
    assert evaluated.notes == [] and evaluated.warnings == []
