"""Constructs of real company workbooks around references and names, computed as Excel computes
them: a range built with the range operator from a defined name (a name ending in another name,
``Deals!$C$2:EndOfDeals``) or from reference functions (``INDEX(L,1,1):INDEX(L,1,n)``, on another
sheet too). Each workbook is built here and recalculated as ``xlrating convert`` does; the expected
values are Excel's, reasoned from Microsoft's documentation of the functions and operators."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
from click.testing import CliRunner
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table

from xlrating.cli import main
from xlrating.engine import evaluate_workbook
from xlrating.engine.batch import convert_limits
from xlrating.engine.formula.reader import parse
from xlrating.engine.read.grid import NotComputed
from xlrating.engine.read.tables import Table as TableArea
from xlrating.engine.read.tables import resolve_structured
from xlrating.functions import ExcelError


def _values(path: Path, sheet: str, cells: list[str]) -> tuple[list[object], list[str]]:
    """The values of ``cells`` on ``sheet`` and the workbook's warnings."""
    evaluated = evaluate_workbook(str(path), limits=convert_limits())
    grid = evaluated.grid.sheet(sheet)
    assert grid is not None
    values = []
    for cell in cells:
        column, row = openpyxl.utils.cell.coordinate_from_string(cell)
        values.append(grid.get(row, openpyxl.utils.cell.column_index_from_string(column)))
    return values, evaluated.warnings


def _deals_book(path: Path) -> Path:
    """A sheet of deals (C: kind, F:H: three monthly amounts) whose extent is a name ending in
    another name: ``DelPoint = Deals!$C$2:EndofDPoint``, ``EndofDPoint = Deals!$C$6``."""
    wb = openpyxl.Workbook()
    deals = wb.active
    deals.title = "Deals"
    rows = [("PV", 1, -2, 3), ("Wind", -1, 2, -3), ("PV", 5, 6, -7), ("PV", 1, 1, 1), ("PV", -4, -4, 0)]
    for row, (kind, *amounts) in enumerate(rows, start=2):
        deals.cell(row, 3, kind)
        for col, amount in enumerate(amounts, start=6):
            deals.cell(row, col, amount)
    wb.defined_names["EndofDPoint"] = DefinedName("EndofDPoint", attr_text="Deals!$C$6")
    wb.defined_names["DelPoint"] = DefinedName("DelPoint", attr_text="Deals!$C$2:EndofDPoint")
    report = wb.create_sheet("Report")
    # PV rows with a negative month: the array formula of the workbook the issue names
    report["A1"] = ArrayFormula("A1", '=SUM(IF((DelPoint="PV")*(OFFSET(DelPoint,0,3,ROWS(DelPoint),3)<0),1,0))')
    report["A2"] = "=ROWS(DelPoint)"
    report["A3"] = '=COUNTIF(DelPoint,"PV")'
    report["A4"] = "=SUM(Deals!$F$2:EndofDPoint)"  # C2:F6 spans C6 too: F2:F6 widened to C2:F6, texts skipped
    report["A5"] = "=SUMPRODUCT((DelPoint=\"PV\")*OFFSET(DelPoint,0,3))"  # the PV rows' first month
    report["A6"] = "=SUM(EndofDPoint:INDEX(Deals!$H:$H,6))"  # C6:H6
    wb.save(path)
    return path


def test_a_name_ending_in_another_name_is_the_range_between_them(tmp_path: Path) -> None:
    values, warnings = _values(_deals_book(tmp_path / "deals.xlsx"), "Report", ["A1", "A2", "A3", "A4", "A5", "A6"])
    assert values == [4.0, 5.0, 4.0, 2.0, 3.0, -8.0]
    assert warnings == []


def _lines_book(path: Path) -> Path:
    """``L`` names Data!A1:E4 (A1 = 11, B1 = 12 ... E4 = 45); Calc!A1 holds n = 4."""
    wb = openpyxl.Workbook()
    calc = wb.active
    calc.title = "Calc"
    data = wb.create_sheet("Data")
    for row in range(1, 5):
        for col in range(1, 6):
            data.cell(row, col, row * 10 + col)
    wb.defined_names["L"] = DefinedName("L", attr_text="Data!$A$1:$E$4")
    wb.defined_names["Firsts"] = DefinedName("Firsts", attr_text="Data!$A$1:INDEX(Data!$A$1:$E$4,Calc!$A$1,1)")
    calc["A1"] = 4
    formulas = {
        "B1": "=SUM(INDEX(L,1,1):INDEX(L,1,A1-1))",  # A1:C1 of Data: 11+12+13
        "B2": "=SUM(INDEX(L,1,1):INDEX(L,2,2))",  # A1:B2: 11+12+21+22
        "B3": "=SUM(Data!A1:INDEX(L,2,A1))",  # A1:D2
        "B4": "=SUM(INDEX(L,2,A1):Data!A1)",  # the same area, written the other way round
        "B5": "=SUM(Data!A1:OFFSET(Data!A1,1,1))",  # A1:B2
        "B6": "=SUM(Data!A1:Data!B2)",  # both ends with their sheet
        "B7": "=COUNT(INDEX(L,1,1):INDEX(L,1,A1-1))",
        "B8": "=SUM(Firsts)",  # a name built with INDEX: A1:A4 of Data
        "B9": "=ROWS(INDEX(L,2,1):INDEX(L,4,1))",
    }
    for cell, formula in formulas.items():
        calc[cell] = formula
    wb.save(path)
    return path


def test_a_range_between_reference_functions_on_another_sheet_is_that_sheets_area(tmp_path: Path) -> None:
    cells = [f"B{row}" for row in range(1, 10)]
    values, warnings = _values(_lines_book(tmp_path / "lines.xlsx"), "Calc", cells)
    assert values == [36.0, 66.0, 140.0, 140.0, 66.0, 66.0, 3.0, 104.0, 3.0]
    assert warnings == []


def test_a_range_between_areas_of_two_sheets_is_an_error(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    calc = wb.active
    calc.title = "Calc"
    data = wb.create_sheet("Data")
    data["A1"], calc["A1"] = 1, 2
    calc["B1"] = "=SUM(INDEX(Data!A1:A2,1,1):INDEX(Calc!A1:A2,1,1))"
    wb.save(tmp_path / "two.xlsx")
    values, _ = _values(tmp_path / "two.xlsx", "Calc", ["B1"])
    assert values == [ExcelError("#VALUE!")]


def test_two_cells_each_with_the_same_sheet_read_as_one_area() -> None:
    assert parse("=SUM(Data!$F$2:data!$C$6)") == parse("=SUM(Data!$C$2:$F$6)")
    assert parse("='My data'!A1:'My data'!B2") == parse("='My data'!A1:B2")
    assert parse("=Data!A1:Other!B2") != parse("=Data!A1:B2")  # two sheets: no area of one sheet


def _relative_names_book(path: Path) -> Path:
    """Names with relative references, stored as Excel stores them: as seen from A1. ``Amount`` is
    column F of the row using it (``Data!$F1``), ``Months`` F:H of that row, ``Left`` the cell to
    the left (made in B1 for A1: seen from A1 it is the sheet's last column, ``Data!XFD1``),
    ``Above`` the cell above (``Data!A1048576``), ``Doubled`` a formula of a relative reference,
    ``Share`` a name using a relative name."""
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    for row in range(2, 7):
        data.cell(row, 6, row * 10)  # F: 20, 30, 40, 50, 60
        data.cell(row, 7, row)  # G: 2 .. 6
        data.cell(row, 8, -1)  # H
    names = {"Amount": "Data!$F1", "Months": "Data!$F1:$H1", "Left": "Data!XFD1", "Above": "Data!A1048576",
             "Doubled": "Data!$F1*2", "Share": "Amount/SUM(Data!$F$2:$F$6)"}
    for name, text in names.items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    for row in range(2, 7):
        data.cell(row, 10, "=Amount*10")  # J: one formula filled down
        data.cell(row, 11, "=SUM(Months)")  # K
        data.cell(row, 12, "=Left+1")  # L: K of the row, plus 1
        data.cell(row, 13, "=Doubled")  # M
        data.cell(row, 14, "=ROUND(Share,2)")  # N
    data["A1"] = 7
    data["A2"] = "=Above*3"  # A1
    wb.save(path)
    return path


def test_a_name_with_a_relative_reference_means_the_cell_relative_to_the_one_using_it(tmp_path: Path) -> None:
    cells = [f"{column}{row}" for row in (2, 4, 6) for column in "JKLMN"] + ["A2"]
    values, warnings = _values(_relative_names_book(tmp_path / "relative.xlsx"), "Data", cells)
    assert values == [200.0, 21.0, 22.0, 40.0, 0.1,
                      400.0, 43.0, 44.0, 80.0, 0.2,
                      600.0, 65.0, 66.0, 120.0, 0.3, 21.0]
    assert warnings == []


def test_a_deleted_reference_is_ref_wherever_it_is_used(tmp_path: Path) -> None:
    # Excel writes #REF! where a reference pointed at cells or a sheet since deleted; the range
    # operator, SUBTOTAL and every other function given one show #REF! (IFERROR catches it)
    wb = openpyxl.Workbook()
    calc = wb.active
    calc.title = "Calc"
    calc["A1"], calc["A2"] = 1, 2
    names = {"Gone": "#REF!", "GoneCells": "Calc!#REF!", "GoneSheet": "#REF!$A$1:$B$5", "GoneEnd": "Calc!$A$1:#REF!"}
    for name, text in names.items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    formulas = ["=SUM(#REF!:A2)", "=SUM(A1:#REF!)", "=SUBTOTAL(9,#REF!)", "=SUBTOTAL(109,A1:A2,#REF!)", "=Gone",
                "=SUM(GoneCells)", "=SUM(GoneSheet)", "=SUM(GoneEnd)", "=SUBTOTAL(9,GoneCells)",
                "=IFERROR(SUBTOTAL(9,#REF!),-1)", "=ISERROR(Gone)", "=SUM(A1:A2)"]
    for row, formula in enumerate(formulas, start=1):
        calc.cell(row, 2, formula)
    wb.save(tmp_path / "gone.xlsx")
    values, warnings = _values(tmp_path / "gone.xlsx", "Calc", [f"B{row}" for row in range(1, len(formulas) + 1)])
    ref = ExcelError("#REF!")
    assert values == [ref] * 9 + [-1.0, True, 3.0]
    assert warnings == []


def _sales_book(path: Path) -> Path:
    """A table ``Sales`` (A1:C4: Item, "Amount<LF>EUR", Qty) as Excel writes it: the header's line
    break escaped as ``_x000a_`` in the table part; the calculated column D a shared formula of
    ``[#This Row]``; E a formula naming the column with a line break written CR LF in the sheet's
    XML (XML reads it as a line feed); names holding structured references."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Sales"
    sheet.append(["Item", "Amount\nEUR", "Qty", "Total", "Double"])
    for row in [("a", 10, 1), ("b", 20, 2), ("c", 30, 3)]:
        sheet.append(row)
    sheet.add_table(Table(displayName="Sales", ref="A1:E4"))
    wb.defined_names["RowQty"] = DefinedName("RowQty", attr_text="Sales[[#This Row],[Qty]]")
    wb.defined_names["AllQty"] = DefinedName("AllQty", attr_text="Sales[Qty]")
    for row in (2, 3, 4):
        sheet.cell(row, 4, "=0")  # placeholders, replaced in the XML below
        sheet.cell(row, 5, "=0")
        sheet.cell(row, 7, "=RowQty*2")
    sheet["H1"] = "=SUM(AllQty)"
    sheet["H2"] = "=SUM(Sales[Amount\nEUR])"
    wb.save(path)
    with zipfile.ZipFile(path) as source:
        parts = {item.filename: source.read(item.filename) for item in source.infolist()}
    table = next(name for name in parts if name.startswith("xl/tables/"))
    parts[table] = parts[table].replace(b"Amount&#10;EUR", b"Amount_x000a_EUR").replace(b"Amount\nEUR",
                                                                                          b"Amount_x000a_EUR")
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    shared = {2: '<f t="shared" ref="D2:D4" si="0">Sales[[#This Row],[Amount\nEUR]]*Sales[[#This Row],[Qty]]</f>',
              3: '<f t="shared" si="0"/>', 4: '<f t="shared" si="0"/>'}
    for row, formula in shared.items():
        xml = re.sub(rf'<c r="D{row}"([^>]*)><f>0</f>(<v>[^<]*</v>)?</c>', rf'<c r="D{row}"\1>{formula}</c>', xml)
        xml = re.sub(rf'<c r="E{row}"([^>]*)><f>0</f>(<v>[^<]*</v>)?</c>',
                     rf'<c r="E{row}"\1><f>Sales[[#This Row],[Amount\r\nEUR]]*2</f></c>', xml)
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    return path


def test_names_and_shared_formulas_of_structured_references_and_a_header_with_a_line_break(tmp_path: Path) -> None:
    path = _sales_book(tmp_path / "sales.xlsx")
    cells = ["D2", "D3", "D4", "E2", "E3", "E4", "G2", "G3", "G4", "H1", "H2"]
    values, warnings = _values(path, "Sales", cells)
    assert values == [10.0, 40.0, 90.0, 20.0, 40.0, 60.0, 2.0, 4.0, 6.0, 6.0, 60.0]
    assert warnings == []


def _rewritten(path: Path, changes: dict[str, Any]) -> None:
    """The package at ``path`` with parts changed: part name -> function of its text."""
    with zipfile.ZipFile(path) as source:
        parts = {item.filename: source.read(item.filename) for item in source.infolist()}
    for name, change in changes.items():
        parts[name] = change(parts[name].decode()).encode()
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)


def _arrays_book(path: Path, saved_by_excel: bool) -> Path:
    """Ordinary (not array) formulas of functions returning arrays, over D1:D3 = 7, 8, 9 and E1:F1 =
    2, 3, with values below and right of them; G1 a dynamic-array formula as Excel saves one."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Calc"
    sheet["D1"], sheet["D2"], sheet["D3"], sheet["E1"], sheet["F1"] = 7, 8, 9, 2, 3
    sheet["A1"] = "=_xlfn.SEQUENCE(3)"
    sheet["A2"], sheet["A3"] = "under", "under"
    sheet["B1"] = "=TRANSPOSE(D1:D3)"
    sheet["B2"] = "=_xlfn._xlws.SORT(D1:D3,1,-1)"  # in row 2: the first value, not the row's
    sheet["B3"] = "=MMULT(D1:D2,E1:F1)"
    sheet["C1"] = "=D1:D3*2"  # a range in arithmetic: intersected with the formula's row
    sheet["C2"] = "=D1:D3*2"
    sheet["G1"] = "=0"
    wb.save(path)

    def dynamic(xml: str) -> str:  # G1: =SEQUENCE(3) spilled over G1:G3, as Excel 365 writes it
        return re.sub(r'<c r="G1"([^>]*)><f>0</f>(<v>[^<]*</v>)?</c>',
                      r'<c r="G1" cm="1"><f t="array" ref="G1:G3">_xlfn.SEQUENCE(3)</f></c>', xml)

    changes: dict[str, Any] = {"xl/worksheets/sheet1.xml": dynamic}
    if saved_by_excel:
        changes["xl/workbook.xml"] = lambda xml: re.sub(
            r"(<workbook[^>]*>)", r'\1<fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="10212"/>',
            xml, count=1)
    _rewritten(path, changes)
    return path


def test_an_ordinary_formula_of_a_workbook_excel_saved_shows_an_arrays_first_value(tmp_path: Path) -> None:
    # Excel saves a formula it computes as a dynamic array as an array formula (t="array", cm), so
    # an ordinary one is a legacy formula: Excel shows it as =@SEQUENCE(3), the first value, and
    # nothing spills over the cells below
    cells = ["A1", "A2", "B1", "B2", "B3", "C1", "C2", "G1", "G2", "G3"]
    values, warnings = _values(_arrays_book(tmp_path / "excel.xlsx", saved_by_excel=True), "Calc", cells)
    assert values == [1.0, "under", 7.0, 9.0, 14.0, 14.0, 16.0, 1.0, 2.0, 3.0]
    assert warnings == []


def test_a_workbook_no_spreadsheet_saved_keeps_dynamic_arrays_spilling(tmp_path: Path) -> None:
    # written by a library (openpyxl: no fileVersion): SEQUENCE is read as a dynamic array, and one
    # that would spill over a value is #SPILL!, as Excel 365 shows a formula typed there
    values, _ = _values(_arrays_book(tmp_path / "library.xlsx", saved_by_excel=False), "Calc", ["A1", "A2", "G2"])
    assert values == [ExcelError("#SPILL!"), "under", 2.0]


def _linked_book(path: Path) -> Path:
    """Formulas reading workbook [1] (prices.xlsx) as Excel saves them, with the link's part
    (xl/externalLinks/externalLink1.xml) holding the cells Excel read there and the names it defines
    (``Rate`` = Prices!$C$1, ``Span`` = Prices!$B$2:$B$3; ``Gone`` recorded without what it refers to)."""
    formulas = ["[1]Prices!B2*2", "SUM([1]Prices!B2:B3)", "[1]!Rate*100", "SUM([1]!Span)", "'[1]Old prices'!A1",
                "[1]!Unknown", "[1]!Gone"]
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Calc"
    for row in range(1, len(formulas) + 1):
        sheet.cell(row, 1, "=0")
    wb.save(path)
    link = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<externalLink '
            'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><externalBook r:id="rId1">'
            '<sheetNames><sheetName val="Prices"/><sheetName val="Old prices"/></sheetNames><definedNames>'
            '<definedName name="Rate" refersTo="=Prices!$C$1"/><definedName name="Span" refersTo="=Prices!$B$2:$B$3"/>'
            '<definedName name="Gone"/>'
            '</definedNames><sheetDataSet><sheetData sheetId="0"><row r="1"><cell r="C1"><v>0.25</v></cell></row>'
            '<row r="2"><cell r="B2"><v>10</v></cell></row><row r="3"><cell r="B3"><v>32</v></cell></row></sheetData>'
            '<sheetData sheetId="1"><row r="1"><cell r="A1" t="str"><v>old</v></cell></row></sheetData>'
            '</sheetDataSet></externalBook></externalLink>')
    link_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
                 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
                 'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" '
                 'Target="prices.xlsx" TargetMode="External"/></Relationships>')

    def cells(xml: str) -> str:
        for row, formula in enumerate(formulas, start=1):
            xml = re.sub(rf'<c r="A{row}"([^>]*)><f>0</f>(<v>[^<]*</v>)?</c>',
                         lambda m, f=formula, r=row: f'<c r="A{r}"{m.group(1)}><f>{f}</f></c>', xml)
        return xml

    _rewritten(path, {
        "xl/worksheets/sheet1.xml": cells,
        "xl/workbook.xml": lambda xml: xml.replace("</sheets>", (
            '</sheets><externalReferences><externalReference xmlns:r="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships" r:id="rIdLink1"/></externalReferences>')),
        "xl/_rels/workbook.xml.rels": lambda xml: xml.replace("</Relationships>", (
            '<Relationship Id="rIdLink1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/externalLink" Target="externalLinks/externalLink1.xml"/></Relationships>')),
        "[Content_Types].xml": lambda xml: xml.replace("</Types>", (
            '<Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/></Types>')),
    })
    with zipfile.ZipFile(path, "a") as package:
        package.writestr("xl/externalLinks/externalLink1.xml", link)
        package.writestr("xl/externalLinks/_rels/externalLink1.xml.rels", link_rels)
    return path


def test_references_and_names_of_a_linked_workbook_read_the_values_excel_cached(tmp_path: Path) -> None:
    values, warnings = _values(_linked_book(tmp_path / "linked.xlsx"), "Calc", [f"A{row}" for row in range(1, 8)])
    assert values[:5] == [20.0, 42.0, 25.0, 42.0, "old"]
    # a name the link records without what it refers to (its workbook missing): #NAME?, as Excel saved it
    assert values[6] == ExcelError("#NAME?")
    # a name the link does not record: not made up, left for Excel to compute, and named
    assert isinstance(values[5], NotComputed)
    assert len(warnings) == 1 and warnings[0].startswith("Calc!A6: ") and "[1]!UNKNOWN" in warnings[0]


def test_a_cell_its_type_cannot_hold_is_a_warning_and_the_rest_computes(tmp_path: Path) -> None:
    # an Excel 2007 beta file: a cell of type "s" holding a number that is no shared-string index;
    # LibreOffice opens it and reads the cell as empty (a number cell holding no number as 0)
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    data["A1"], data["A2"], data["A3"] = "first", "x", "y"
    data["B1"], data["B2"], data["B3"], data["B4"], data["B5"] = '=A1&"!"', "=A2", "=ISTEXT(A2)", "=A3+1", "=ISNUMBER(A3)"
    wb.save(tmp_path / "beta.xlsx")

    def damaged(xml: str) -> str:
        xml = re.sub(r'<c r="A1"[^>]*>.*?</c>', '<c r="A1" t="s"><v>0</v></c>', xml)
        xml = re.sub(r'<c r="A2"[^>]*>.*?</c>', '<c r="A2" t="s"><v>17</v></c>', xml)
        return re.sub(r'<c r="A3"[^>]*>.*?</c>', '<c r="A3"><v>abc</v></c>', xml)

    strings = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/'
               'spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>first</t></si></sst>')
    _rewritten(tmp_path / "beta.xlsx", {
        "xl/worksheets/sheet1.xml": damaged,
        "[Content_Types].xml": lambda xml: xml.replace("</Types>", (
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')),
        "xl/_rels/workbook.xml.rels": lambda xml: xml.replace("</Relationships>", (
            '<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')),
    })
    with zipfile.ZipFile(tmp_path / "beta.xlsx", "a") as package:
        package.writestr("xl/sharedStrings.xml", strings)
    evaluated = evaluate_workbook(str(tmp_path / "beta.xlsx"), limits=convert_limits())
    grid = evaluated.grid.sheet("Data")
    assert grid is not None
    assert [grid.get(row, 2) for row in range(1, 6)] == ["first!", 0.0, False, 1.0, True]
    assert evaluated.warnings == []
    assert evaluated.notes == [
        "sheet 'Data' (xl/worksheets/sheet1.xml) is damaged: cell A2 holds '17' where a shared-string index "
        "belongs: read as an empty cell",
        "sheet 'Data' (xl/worksheets/sheet1.xml) is damaged: cell A3 holds 'abc' where a number belongs: read as 0"]
    result = CliRunner().invoke(main, ["convert", str(tmp_path / "beta.xlsx"), "-o", str(tmp_path / "out.xlsx")])
    assert result.exit_code == 0, result.output
    assert "beta.xlsx: sheet 'Data' (xl/worksheets/sheet1.xml) is damaged: cell A2 holds '17'" in result.output
    strict = CliRunner().invoke(main, ["convert", str(tmp_path / "beta.xlsx"), "-o", str(tmp_path / "strict.xlsx"),
                                       "--strict"])
    assert strict.exit_code == 1


def test_a_column_whose_header_holds_a_line_break_is_found_however_the_break_is_written() -> None:
    # the table part may hold the header's break as CR LF (_x000d__x000a_), the formula as LF, or
    # escaped as ST_Xstring escapes it: the same column
    table = TableArea("Sales", "Sales", 1, 1, 4, 3, columns=("Item", "Amount\r\nEUR", "Qty"))
    for written in ("Sales[Amount\nEUR]", "Sales[Amount_x000a_EUR]", "Sales[amount\r\neur]"):
        assert resolve_structured(f"=SUM({written})", "Sales", 1, 5, [table]) == "=SUM(Sales!$B$2:$B$4)"
    assert resolve_structured("=SUM(Sales[Amount EUR])", "Sales", 1, 5, [table]) == "=SUM(#REF!)"
