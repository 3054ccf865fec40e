"""ENCODEURL (Excel's Web category) computed: a text made fit for a URL, each character but letters,
digits and - . _ ~ as the %XX of its UTF-8 bytes. Expected values: Microsoft's example on the
function's page, and LibreOffice recalculating the same workbook for every printable ASCII character
but the two it treats otherwise (it encodes "." and "~", which Microsoft's example keeps)."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from function_books import assert_excel_value, recalculated

MICROSOFT = "http://contoso.sharepoint.com/teams/Finance/Documents/April Reports/Profit and Loss Statement.xlsx"


def test_encodeurl_gives_microsofts_example_and_encodes_each_utf8_byte(tmp_path: Path) -> None:
    sheet = recalculated(tmp_path, [[MICROSOFT], ["&text?"], ["café €😀"], [12.5], [True]], {
        "B1": "=_xlfn.ENCODEURL(A1)", "B2": "=_xlfn.ENCODEURL(A2)", "B3": "=_xlfn.ENCODEURL(A3)",
        "B4": "=_xlfn.ENCODEURL(A4)", "B5": "=_xlfn.ENCODEURL(A5)", "B6": "=_xlfn.ENCODEURL(A9)",
        "B7": "=_xlfn.ENCODEURL(1/0)", "B8": '=_xlfn.ENCODEURL("a-b_c.d~e")'})
    assert sheet.get(1, 2) == ("http%3A%2F%2Fcontoso.sharepoint.com%2Fteams%2FFinance%2FDocuments%2FApril%20Reports"
                               "%2FProfit%20and%20Loss%20Statement.xlsx")
    assert sheet.get(2, 2) == "%26text%3F"
    assert sheet.get(3, 2) == "caf%C3%A9%20%E2%82%AC%F0%9F%98%80"
    assert [sheet.get(row, 2) for row in (4, 5, 6)] == ["12.5", "TRUE", ""]
    assert_excel_value(sheet.get(7, 2), "#DIV/0!")
    assert sheet.get(8, 2) == "a-b_c.d~e"


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_encodeurl_equals_libreoffice_for_every_printable_ascii_character(tmp_path: Path) -> None:
    from xlrating.engine import evaluate_workbook
    from xlrating.engine.libreoffice import convert, make_profile

    characters = [chr(code) for code in range(32, 127) if chr(code) not in ".~"] + ["é", "\t", "Ω"]
    book = openpyxl.Workbook()
    for row, character in enumerate(characters, start=1):
        book.active.append([character, f"=_xlfn.ENCODEURL(A{row})"])
    book.save(tmp_path / "book.xlsx")
    ours = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert ours is not None
    theirs = openpyxl.load_workbook(convert(tmp_path / "book.xlsx", tmp_path / "lo", make_profile(tmp_path / "profile")),
                                    data_only=True).active
    differing = {character: (ours.get(row, 2), theirs.cell(row, 2).value)
                 for row, character in enumerate(characters, start=1) if ours.get(row, 2) != theirs.cell(row, 2).value}
    assert differing == {}
    assert ours.get(1, 2) == "%20"
