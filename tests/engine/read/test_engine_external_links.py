"""Names of other workbooks read from what the workbook's link parts record, as Excel shows them
while those workbooks are closed: a name local to a sheet of the linked workbook
(``[1]Defines!NR_To_A1``), a workbook name written with a sheet (``[1]Sheet1!FromF2``), one in an
array formula (``{=[1]!CellH5}``), names Excel recorded as ``#REF!`` (one of a formula), a table of
the other workbook (``[1]!Table1[c]``, #REF! while it is closed), and the items of DDE and OLE links
(``[2]!'ES #F'``: the values the link caches, else #REF!). A name whose value needs the other
workbook (one of a formula the link records) is still left for Excel, with a warning."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.engine.read.grid import NotComputed
from xlrating.functions import ExcelError

NS = ('xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
BOOK = (f'<externalLink {NS}><externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/>'
        '<sheetName val="Defines"/></sheetNames><definedNames>'
        '<definedName name="CellH5" refersTo="=\'Sheet1\'!$H$5"/>'
        '<definedName name="Formula_Name" refersTo="#REF!"/>'
        '<definedName name="Local" refersTo="=\'Defines\'!$A$1" sheetId="1"/>'
        '<definedName name="Local" refersTo="=\'Sheet1\'!$F$2" sheetId="0"/>'
        '<definedName name="FromF2" refersTo="=\'Sheet1\'!$F$2"/>'
        '<definedName name="Doubled" refersTo="=\'Sheet1\'!$F$2*2"/>'
        '</definedNames><sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="F2"><v>111</v></cell></row>'
        '<row r="5"><cell r="H5"><v>20</v></cell></row></sheetData><sheetData sheetId="1"><row r="1">'
        '<cell r="A1" t="str"><v>Test A1</v></cell></row></sheetData></sheetDataSet></externalBook></externalLink>')
DDE = (f'<externalLink {NS}><ddeLink ddeService="WINROS" ddeTopic="LAST"><ddeItems>'
       '<ddeItem name="ES #F" advise="1"/>'
       '<ddeItem name="Price"><values rows="1" cols="1"><value><val>12.5</val></value></values></ddeItem>'
       '<ddeItem name="Pair"><values rows="1" cols="2"><value><val>3</val></value>'
       '<value t="str"><val>up</val></value></values></ddeItem>'
       '<ddeItem name="StdDocumentName" ole="1" advise="1"/></ddeItems></ddeLink></externalLink>')
OLE = (f'<externalLink {NS}><oleLink r:id="rId1" progId="Excel.Sheet.12"><oleItems>'
       '<oleItem name="!Quotes!A5" advise="1"/></oleItems></oleLink></externalLink>')
# (formula, array formula?, the value Excel shows)
CELLS: list[tuple[str, bool, object]] = [
    ("[1]Defines!Local", True, "Test A1"),  # the name local to Defines, not Sheet1's of the same name
    ("[1]Sheet1!Local", True, 111.0),
    ("[1]Sheet1!FromF2", True, 111.0),  # the workbook's name, written with a sheet
    ("[1]!CellH5", True, 20.0),
    ("[1]!CellH5+1", False, 21.0),
    ("[1]!Formula_Name", True, ExcelError("#REF!")),
    ("1+SUM([1]!Table1[c])", False, ExcelError("#REF!")),
    ("[1]Sheet1!$F$2", False, 111.0),
    ("[2]!'ES #F'", True, ExcelError("#REF!")),
    ("[2]!Price*2", False, 25.0),
    ("INDEX([2]!Pair,1,2)", False, "up"),
    ("[3]!'!Quotes!A5'", True, ExcelError("#REF!")),
]


def _linked_book(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Calc"
    for row in range(1, len(CELLS) + 2):
        sheet.cell(row, 1, "=0")
    book.save(path)
    with zipfile.ZipFile(path) as package:
        parts = {name: package.read(name).decode() for name in package.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"]
    for row, (formula, array, _) in enumerate([*CELLS, ("[1]!Doubled", False, None)], start=1):
        escaped = formula.replace("&", "&amp;").replace("<", "&lt;")
        f = f'<f t="array" ref="A{row}">{escaped}</f>' if array else f"<f>{escaped}</f>"
        found = re.search(rf'<c r="A{row}"([^>]*)><f>0</f>(<v>[^<]*</v>)?</c>', xml)
        assert found is not None
        xml = xml.replace(found.group(0), f'<c r="A{row}"{found.group(1)}>{f}</c>')
    parts["xl/worksheets/sheet1.xml"] = xml
    links = {1: BOOK, 2: DDE, 3: OLE}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace("</sheets>", "</sheets><externalReferences>" + "".join(
        f'<externalReference xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
        f'r:id="rIdLink{n}"/>' for n in links) + "</externalReferences>")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace("</Relationships>", "".join(
        f'<Relationship Id="rIdLink{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        f'externalLink" Target="externalLinks/externalLink{n}.xml"/>' for n in links) + "</Relationships>")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace("</Types>", "".join(
        f'<Override PartName="/xl/externalLinks/externalLink{n}.xml" ContentType="application/'
        f'vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/>' for n in links) + "</Types>")
    for n, text in links.items():
        parts[f"xl/externalLinks/externalLink{n}.xml"] = '<?xml version="1.0" encoding="UTF-8"?>\n' + text
        if n != 2:  # a DDE link names a service, not a file
            parts[f"xl/externalLinks/_rels/externalLink{n}.xml.rels"] = (
                '<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/'
                'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                'officeDocument/2006/relationships/externalLinkPath" Target="other.xlsx" TargetMode="External"/>'
                '</Relationships>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in parts.items():
            package.writestr(name, text)
    return path


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[object], list[str]]:
    result = evaluate_workbook(str(_linked_book(tmp_path_factory.mktemp("links") / "linked.xlsx")),
                               limits=convert_limits())
    sheet = result.grid.sheet("Calc")
    assert sheet is not None
    return [sheet.get(row, 1) for row in range(1, len(CELLS) + 2)], result.warnings


@pytest.mark.parametrize(("row", "formula", "expected"),
                         [(row, formula, expected) for row, (formula, _, expected) in enumerate(CELLS, start=1)])
def test_a_name_of_a_linked_workbook_shows_what_excel_shows_while_that_workbook_is_closed(
        evaluated: tuple[list[object], list[str]], row: int, formula: str, expected: object) -> None:
    assert evaluated[0][row - 1] == expected, formula


def test_a_name_whose_value_needs_the_linked_workbook_is_left_for_excel_with_a_warning(
        evaluated: tuple[list[object], list[str]]) -> None:
    values, warnings = evaluated
    assert isinstance(values[len(CELLS)], NotComputed)
    assert len(warnings) == 1 and warnings[0].startswith(f"Calc!A{len(CELLS) + 1}: ") and "[1]!DOUBLED" in warnings[0]
