"""`xlrating libreoffice prepare`: the workbook's XML after the rewrite (no LibreOffice needed; the
workbook computing in LibreOffice 7.4 and 25.2 is tests/hosts/test_libreoffice_excel_names.py)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from excel_stored import addin_link, dynamic_arrays
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula

from xlrating.cli import main
from xlrating.hosts.libreoffice_prepare import calc_formula, prepare_bytes

XLAM = r"file:///C:\Users\ann\AppData\Roaming\Microsoft\AddIns\xlrating.xlam"


def excel_book(sheet_title: str = "Event", link: str = XLAM, also: str = "") -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet_title
    ws["A1"] = '=DCI_K("grand prix")'
    ws["A2"] = '=IF(A1>0,"DCI_K(" & MERS_BASE_RANK(100,25),"")'
    ws["A3"] = "=GP_K*2"
    ws["A4"] = f"=[1]!DCI_K(\"competitive\"){also}+_xldudf_DIPPOUCH_PERCENTILE(65,8)"
    ws["A5"] = f"=SUM('{sheet_title}'!A1:A2)+'DCI_K(x)'!B1"
    ws["A6"] = "DCI_K(1) typed as text"
    ws["A7"] = "=MYDCI_K(1)+xlrating.DCI_K(\"casual\")+ROUND(2.5,0)"
    ws["C1"] = ArrayFormula("C1:D1", '=DCI_K({"casual","pro tour"})')
    wb.create_sheet("DCI_K(x)")["B1"] = 1
    wb.defined_names["GP_K"] = DefinedName("GP_K", attr_text='DCI_K("grand prix")')
    ws.conditional_formatting.add("B1", FormulaRule(formula=['B1>DCI_K("casual")'], fill=PatternFill("solid", fgColor="FF0000")))
    validation = DataValidation(type="custom", formula1='B2<=MERS_BASE_RANK(100,25)')
    ws.add_data_validation(validation)
    validation.add("B2")
    out = io.BytesIO()
    wb.save(out)
    return addin_link(dynamic_arrays(out.getvalue()), link, ["DCI_K"])


def parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_only_calls_of_our_functions_are_renamed() -> None:
    assert calc_formula('IF(B6="",16,DCI_K(B6))+_xldudf_MERS_BASE_RANK(9,1)') == \
        'IF(B6="",16,xlrating.DCI_K(B6))+xlrating.MERS_BASE_RANK(9,1)'
    assert calc_formula('"DCI_K(" & MYDCI_K(1) & dci_k (2)') == '"DCI_K(" & MYDCI_K(1) & xlrating.DCI_K (2)'
    assert calc_formula("'DCI_K(1)'!A1+Table1[[#This Row],[DCI_K(x)]]+DCI_K") == \
        "'DCI_K(1)'!A1+Table1[[#This Row],[DCI_K(x)]]+DCI_K"
    assert calc_formula("_xll.DCI_K(1)+XLRATING.dci_k(2)+_xlfn.XLOOKUP(1,A:A,B:B)") == \
        "xlrating.DCI_K(1)+xlrating.DCI_K(2)+_xlfn.XLOOKUP(1,A:A,B:B)"
    assert calc_formula("[1]!DCI_K(1)+[2]!DCI_K(1)+[2]Prices!A1", frozenset({1})) == \
        "xlrating.DCI_K(1)+[2]!DCI_K(1)+[2]Prices!A1"


def test_cells_defined_names_conditional_formats_and_validations_are_renamed() -> None:
    prepared, report = prepare_bytes(excel_book())
    sheet = parts(prepared)["xl/worksheets/sheet1.xml"].decode()
    workbook = parts(prepared)["xl/workbook.xml"].decode()
    assert '<f>xlrating.DCI_K("grand prix")</f>' in sheet
    assert '<f>IF(A1&gt;0,"DCI_K(" &amp; xlrating.MERS_BASE_RANK(100,25),"")</f>' in sheet
    assert '<f>xlrating.DCI_K("competitive")+xlrating.DIPPOUCH_PERCENTILE(65,8)</f>' in sheet
    assert '<c r="C1" cm="1"><f t="array" ref="C1:D1">xlrating.DCI_K({"casual","pro tour"})</f>' in sheet
    assert "<f>SUM('Event'!A1:A2)+'DCI_K(x)'!B1</f>" in sheet           # sheet names stay
    assert '<f>MYDCI_K(1)+xlrating.DCI_K("casual")+ROUND(2.5,0)</f>' in sheet
    assert '<formula>B1&gt;xlrating.DCI_K("casual")</formula>' in sheet
    assert "<formula1>B2&lt;=xlrating.MERS_BASE_RANK(100,25)</formula1>" in sheet
    assert '>xlrating.DCI_K("grand prix")</definedName>' in workbook
    assert dict(report.renamed) == {"cells": 4, "defined names": 1, "conditional formats": 1, "data validations": 1}
    assert "DCI_K(1) typed as text" in sheet  # a text cell (openpyxl writes it inline)


def test_a_link_to_the_add_in_is_dropped_with_its_part_and_everything_else_keeps_its_bytes() -> None:
    original = excel_book()
    prepared, report = prepare_bytes(original)
    before, after = parts(original), parts(prepared)
    assert report.links_removed == [XLAM] and report.links_kept == [] and report.other_links == []
    gone = {"xl/externalLinks/externalLink1.xml", "xl/externalLinks/_rels/externalLink1.xml.rels"}
    assert set(after) == set(before) - gone
    assert b"externalReference" not in after["xl/workbook.xml"]
    assert b"externalLink" not in after["xl/_rels/workbook.xml.rels"]
    assert b"externalLink" not in after["[Content_Types].xml"]
    changed = {"xl/workbook.xml", "xl/worksheets/sheet1.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml"}
    assert {name for name in after if after[name] != before[name]} == changed
    assert after["xl/metadata.xml"] == before["xl/metadata.xml"]      # the dynamic arrays' metadata
    openpyxl.load_workbook(io.BytesIO(prepared))                     # still a workbook


def test_a_link_to_an_ordinary_workbook_is_left_as_it_is() -> None:
    book = excel_book(link=XLAM.replace("xlrating.xlam", "prices.xlsx"))
    prepared, report = prepare_bytes(book)
    sheet = parts(prepared)["xl/worksheets/sheet1.xml"].decode()
    assert '<f>[1]!DCI_K("competitive")+xlrating.DIPPOUCH_PERCENTILE(65,8)</f>' in sheet
    assert report.links_removed == [] and report.other_links == ["file:///C:\\Users\\ann\\AppData\\Roaming\\Microsoft\\AddIns\\prices.xlsx"]
    assert "xl/externalLinks/externalLink1.xml" in parts(prepared)


def test_a_link_still_referred_to_elsewhere_stays() -> None:
    book = excel_book(also="+[1]Sheet1!A1")
    prepared, report = prepare_bytes(book)
    assert report.links_removed == [] and report.links_kept == [XLAM]
    assert b"[1]Sheet1!A1" in parts(prepared)["xl/worksheets/sheet1.xml"]
    assert b"externalReference" in parts(prepared)["xl/workbook.xml"]


def test_a_workbook_without_our_functions_is_copied_part_for_part() -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=SUM(1,2)"
    out = io.BytesIO()
    wb.save(out)
    prepared, report = prepare_bytes(out.getvalue())
    assert report.total == 0 and parts(prepared) == parts(out.getvalue())


def test_the_command_writes_the_copy_and_says_what_it_renamed(tmp_path: Path) -> None:
    source = tmp_path / "from excel.xlsx"
    original = excel_book()
    source.write_bytes(original)
    target = tmp_path / "for calc.xlsx"
    result = CliRunner().invoke(main, ["libreoffice", "prepare", str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert "4 cells" in result.output and "1 defined names" in result.output
    assert "removed the link to the add-in" in result.output
    assert b"xlrating.DCI_K" in parts(target.read_bytes())["xl/worksheets/sheet1.xml"]
    assert source.read_bytes() == original  # the input is not changed
    again = CliRunner().invoke(main, ["libreoffice", "prepare", str(source), "-o", str(target)])
    assert again.exit_code == 2 and f"{target}: already exists (give --force" in again.output
    forced = CliRunner().invoke(main, ["libreoffice", "prepare", str(source), "-o", str(target), "--force"])
    assert forced.exit_code == 0, forced.output


@pytest.mark.parametrize(("content", "reason"), [
    (b"players,place\n10,3\n", "not"),
    (b"", "empty"),
])
def test_a_file_that_is_not_a_workbook_is_refused_naming_it(tmp_path: Path, content: bytes, reason: str) -> None:
    source = tmp_path / "results.xlsx"
    source.write_bytes(content)
    target = tmp_path / "out.xlsx"
    result = CliRunner().invoke(main, ["libreoffice", "prepare", str(source), "-o", str(target)])
    assert result.exit_code == 2
    assert f"xlrating: error: {source}: " in result.output and reason in result.output.lower()
    assert not target.exists() and list(tmp_path.iterdir()) == [source]  # nothing half-written


def test_a_missing_input_and_a_missing_output_option_are_errors(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["libreoffice", "prepare", str(tmp_path / "nope.xlsx"), "-o",
                                        str(tmp_path / "out.xlsx")])
    assert missing.exit_code == 2 and "nope.xlsx: no such file" in missing.output
    no_output = CliRunner().invoke(main, ["libreoffice", "prepare", str(tmp_path / "nope.xlsx")])
    assert no_output.exit_code == 2 and "-o" in no_output.output


def test_the_help_says_what_it_is_for() -> None:
    result = CliRunner().invoke(main, ["libreoffice", "prepare", "--help"])
    assert result.exit_code == 0
    assert "LibreOffice 7.x" in result.output and "xlrating.DCI_K" in result.output and "--force" in result.output


def test_the_x14_extensions_excel_writes_for_newer_rules_are_renamed_too() -> None:
    from collections import Counter

    from xlrating.hosts.libreoffice_prepare import Prepared, rewrite_part

    xml = ('<worksheet xmlns:x14="x" xmlns:xm="m"><sheetData><row r="1"><c r="A1"><f>DCI_K("casual")</f></c></row>'
           '</sheetData><extLst><ext><x14:conditionalFormattings><x14:conditionalFormatting><x14:cfRule type="expression">'
           '<xm:f>A1&gt;DCI_K("casual")</xm:f></x14:cfRule><xm:sqref>A1</xm:sqref></x14:conditionalFormatting>'
           '</x14:conditionalFormattings><x14:dataValidations count="1"><x14:dataValidation type="custom">'
           '<x14:formula1><xm:f>B1&lt;=MERS_BASE_RANK(100,25)</xm:f></x14:formula1><xm:sqref>B1</xm:sqref>'
           '</x14:dataValidation></x14:dataValidations></ext></extLst></worksheet>')
    prepared = Prepared()
    out = rewrite_part(xml, frozenset(), prepared, set())
    assert '<xm:f>A1&gt;xlrating.DCI_K("casual")</xm:f>' in out
    assert "<xm:f>B1&lt;=xlrating.MERS_BASE_RANK(100,25)</xm:f>" in out
    assert '<f>xlrating.DCI_K("casual")</f>' in out
    assert prepared.renamed == Counter({"cells": 1, "conditional formats": 1, "data validations": 1})
    assert out.replace("xlrating.", "") == xml  # nothing else changed
