"""Excel tables and structured references: xlrating.engine.read.tables."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from lxml import etree
from openpyxl.worksheet.table import Table as XlTable
from openpyxl.worksheet.table import TableColumn, TableStyleInfo

from xlrating.engine.formula.reader import parse
from xlrating.engine.formula.tree import Call, Const, Op, Ref
from xlrating.engine.read.sheet_cells import cell_position
from xlrating.engine.read.tables import Table, quote_sheet, read_tables, resolve_structured, table_at

# Table1 on sheet "Bob's Sales": header row 2, data rows 3..11, totals row 12, columns B..I
SHEET = "Bob's Sales"
Q = "'Bob''s Sales'!"
TABLE1 = Table("Table1", SHEET, 2, 2, 12, 9, header_rows=1, totals_rows=1,
               columns=("Region", "Qty", "Price", "Sales", "Jan", "Feb", "Mar", "Sales Amount"))
# Weird: column names that need escapes, no totals row, on sheet "Data"
WEIRD = Table("Weird", "Data", 1, 1, 5, 4, header_rows=1, totals_rows=0,
              columns=("#Items", "a]b", "It's", "x[1]"))
# NoHead: no header row, on "Data" columns F..G rows 1..4
NOHEAD = Table("NoHead", "Data", 1, 6, 4, 7, header_rows=0, totals_rows=0, columns=("Column1", "Column2"))
TABLES = [TABLE1, WEIRD, NOHEAD]


def resolve(formula: str, sheet: str = "Other", row: int = 1, col: int = 1) -> str:
    return resolve_structured(formula, sheet, row, col, TABLES)


# --- qualified references, as Excel writes them in the file ----------------------------------------

@pytest.mark.parametrize(("formula", "expected"), [
    ("=SUM(Table1[Sales])", f"=SUM({Q}$E$3:$E$11)"),
    ("=COUNTA(Table1[#All])", f"=COUNTA({Q}$B$2:$I$12)"),
    ("=SUM(Table1[])", f"=SUM({Q}$B$3:$I$11)"),
    ("=SUM(Table1[#Data])", f"=SUM({Q}$B$3:$I$11)"),
    ("=SUM(Table1[[Jan]:[Mar]])", f"=SUM({Q}$F$3:$H$11)"),
    ("=SUM(Table1[[Mar]:[Jan]])", f"=SUM({Q}$F$3:$H$11)"),
    ("=Table1[[#Headers],[Qty]]", f"={Q}$C$2"),
    ("=Table1[[#Totals],[Sales]]", f"={Q}$E$12"),
    ("=SUM(Table1[#Totals])", f"=SUM({Q}$B$12:$I$12)"),
    ("=COUNTA(Table1[#Headers])", f"=COUNTA({Q}$B$2:$I$2)"),
    ("=SUM(Table1[[#Data],[#Totals],[Sales]])", f"=SUM({Q}$E$3:$E$12)"),
    ("=COUNTA(Table1[[#Headers],[#Data],[Region]])", f"=COUNTA({Q}$B$2:$B$11)"),
    ("=SUM(Table1[[#All],[Jan]:[Feb]])", f"=SUM({Q}$F$2:$G$12)"),
    ("=SUM(Table1[Sales Amount])", f"=SUM({Q}$I$3:$I$11)"),
    ("=SUM(Table1[[Sales Amount]])", f"=SUM({Q}$I$3:$I$11)"),
    # case-insensitive table, column and special item names
    ("=SUM(table1[SALES])", f"=SUM({Q}$E$3:$E$11)"),
    ("=TABLE1[[#totals],[sales]]", f"={Q}$E$12"),
    # spaces for readability around the specifiers
    ("=SUM(Table1[ [#Data], [Jan]:[Mar] ])", f"=SUM({Q}$F$3:$H$11)"),
    ("=SUM(Table1[ [Jan] : [Mar] ])", f"=SUM({Q}$F$3:$H$11)"),
    # reference operators between structured references are kept
    ("=SUM(Table1[Jan]:Table1[Mar])", f"=SUM({Q}$F$3:$F$11:{Q}$H$3:$H$11)"),
    ("=Table1[#Totals] Table1[Sales]", f"={Q}$B$12:$I$12 {Q}$E$3:$E$11"),
])
def test_qualified_references(formula: str, expected: str) -> None:
    assert resolve(formula) == expected


def test_this_row_multiplication_on_a_data_row() -> None:
    formula = "=Table1[[#This Row],[Qty]]*Table1[[#This Row],[Price]]"
    assert resolve(formula, SHEET, 5, 10) == f"={Q}$C$5*{Q}$D$5"
    # the formula bar's @ form, also read
    assert resolve("=Table1[@Qty]*Table1[@[Price]]", SHEET, 5, 10) == f"={Q}$C$5*{Q}$D$5"
    # implicit intersection works from another sheet too, on the same row
    assert resolve("=Table1[[#This Row],[Qty]]", "Other", 11, 1) == f"={Q}$C$11"
    # the whole row
    assert resolve("=COUNTA(Table1[#This Row])", "Other", 3) == f"=COUNTA({Q}$B$3:$I$3)"
    assert resolve("=SUM(Table1[@[Jan]:[Mar]])", "Other", 4) == f"=SUM({Q}$F$4:$H$4)"


@pytest.mark.parametrize("row", [1, 2, 12, 13, 500])
def test_this_row_off_the_data_rows_is_value_error(row: int) -> None:
    assert resolve("=Table1[[#This Row],[Qty]]*2", SHEET, row, 3) == "=#VALUE!*2"


def test_subtotal_in_the_totals_row() -> None:
    # Excel writes the table name in the totals row's cells ...
    assert resolve("=SUBTOTAL(109,Table1[Sales])", SHEET, 12, 5) == f"=SUBTOTAL(109,{Q}$E$3:$E$11)"
    # ... and may leave it out, as in the table part's totalsRowFormula
    assert resolve("=SUBTOTAL(109,[Sales])", SHEET, 12, 5) == f"=SUBTOTAL(109,{Q}$E$3:$E$11)"


def test_unqualified_references_in_a_calculated_column() -> None:
    assert resolve("=[@Qty]*[@Price]", SHEET, 7, 5) == f"={Q}$C$7*{Q}$D$7"
    assert resolve("=[[#This Row],[Qty]]*[[#This Row],[Price]]", SHEET, 7, 5) == f"={Q}$C$7*{Q}$D$7"
    assert resolve("=[@Sales]/SUM([Sales])", SHEET, 7, 5) == f"={Q}$E$7/SUM({Q}$E$3:$E$11)"
    assert resolve("=[@[Sales Amount]]*2", SHEET, 7, 5) == f"={Q}$I$7*2"
    # sheet names compare case-insensitively
    assert resolve("=[@Qty]", "BOB'S SALES", 7, 5) == f"={Q}$C$7"
    # outside every table an unqualified reference points nowhere
    assert resolve("=[@Qty]*2", SHEET, 7, 20) == "=#REF!*2"
    assert resolve("=SUM([Sales])", "Other", 7, 5) == "=SUM(#REF!)"


def test_escaped_column_names() -> None:
    assert resolve("=SUM(Weird['#Items])") == "=SUM(Data!$A$2:$A$5)"
    assert resolve("=SUM(Weird[['#Items]])") == "=SUM(Data!$A$2:$A$5)"
    assert resolve("=SUM(Weird[[a']b]])") == "=SUM(Data!$B$2:$B$5)"
    assert resolve("=SUM(Weird[[It''s]])") == "=SUM(Data!$C$2:$C$5)"
    assert resolve("=SUM(Weird[[x'[1']]])") == "=SUM(Data!$D$2:$D$5)"
    assert resolve("=Weird[[#Headers],['#Items]:[It''s]]") == "=Data!$A$1:$C$1"
    assert resolve("=Weird[[#This Row],[a']b]]", "Data", 4) == "=Data!$B$4"
    # an unescaped # starts a special item, and #Items is none
    assert resolve("=SUM(Weird[#Items])") == "=SUM(#REF!)"


def test_string_literals_and_quoted_sheet_names_are_untouched() -> None:
    formula = '="[x]"&Table1[[#This Row],[Region]]&"Table1[Sales]"&\'[Odd] sheet\'!A1'
    assert resolve(formula, SHEET, 4) == f'="[x]"&{Q}$B$4&"Table1[Sales]"&\'[Odd] sheet\'!A1'
    # a doubled quote inside a string does not end it
    assert resolve('="say ""[x]"" "&Table1[Qty]') == f'="say ""[x]"" "&{Q}$C$3:$C$11'


@pytest.mark.parametrize(("formula", "expected"), [
    ("=SUM(Unknown[Sales])", "=SUM(#REF!)"),
    ("=SUM(Table1[Nope])", "=SUM(#REF!)"),
    ("=SUM(Table1[[Jan]:[Nope]])", "=SUM(#REF!)"),
    ("=SUM(Weird[#Totals])", "=SUM(#REF!)"),  # no totals row
    ("=Weird[[#Totals],[It''s]]", "=#REF!"),
    ("=NoHead[#Headers]", "=#REF!"),  # no header row
    ("=NoHead[[#Headers],[Column1]]", "=#REF!"),
    ("=SUM(Table1[[#Headers],[#Totals]])", "=SUM(#REF!)"),  # not a combination Excel accepts
    ("=SUM(Table1[[#All],[#Data]])", "=SUM(#REF!)"),
    ("=SUM(Table1[[Jan],[Mar]])", "=SUM(#REF!)"),  # columns only as a range
    ("=SUM(Table1[[Jan]:[Feb]:[Mar]])", "=SUM(#REF!)"),
    ("=SUM(Table1[#Bogus])", "=SUM(#REF!)"),
])
def test_references_to_nothing_are_ref_errors(formula: str, expected: str) -> None:
    assert resolve(formula) == expected


def test_no_header_row_table() -> None:
    assert resolve("=SUM(NoHead[Column2])") == "=SUM(Data!$G$1:$G$4)"
    assert resolve("=COUNT(NoHead[#All])") == "=COUNT(Data!$F$1:$G$4)"
    assert resolve("=COUNT(NoHead[[#Headers],[#Data]])") == "=COUNT(Data!$F$1:$G$4)"
    assert resolve("=NoHead[@Column1]", "Data", 1) == "=Data!$F$1"


def test_everything_else_is_kept_byte_for_byte() -> None:
    plain = "=IF(A1>0,  SUM( B1:B9 ),\"[none]\")"
    assert resolve(plain) is plain
    assert resolve("=  SUM( Table1[Qty] ) +\tA1") == f"=  SUM( {Q}$C$3:$C$11 ) +\tA1"
    # references into other workbooks and sheet-qualified names are left to the parser
    external = "=[1]Sheet1!A1+[1]!Table1[Sales]+'[2]My Sheet'!B2+SUM([3]Data!C:C)"
    assert resolve(external, SHEET, 5, 5) == external
    assert resolve('=MATCH("[a]",{"[a]","b"},0)') == '=MATCH("[a]",{"[a]","b"},0)'
    # an unbalanced bracket is left as it is
    assert resolve("=SUM(Table1[Sales)") == "=SUM(Table1[Sales)"


def test_table_at() -> None:
    assert table_at(TABLES, SHEET, 2, 2) is TABLE1
    assert table_at(TABLES, SHEET, 12, 9) is TABLE1
    assert table_at(TABLES, SHEET, 13, 9) is None
    assert table_at(TABLES, "data", 3, 7) is NOHEAD


@pytest.mark.parametrize(("sheet", "quoted"), [
    ("Sheet1", "Sheet1"), ("Data", "Data"), ("My Sheet", "'My Sheet'"), ("Bob's", "'Bob''s'"),
    ("A1", "'A1'"), ("R1C1", "'R1C1'"), ("2024", "'2024'"), ("Übersicht", "'Übersicht'"),
    ("TRUE", "'TRUE'"),
])
def test_quote_sheet(sheet: str, quoted: str) -> None:
    assert quote_sheet(sheet) == quoted


def test_resolved_formulas_parse_to_references() -> None:
    tables = [Table("Sales", "Sales 2024", 1, 1, 10, 3, columns=("Region", "Qty", "Price"), totals_rows=1)]
    tree = parse(resolve_structured("=Sales[[#This Row],[Qty]]", "Sales 2024", 4, 4, tables))
    assert tree == Ref("Sales 2024", 4, 2, 4, 2)
    tree = parse(resolve_structured("=Sales[[Qty]:[Price]]", "Sales 2024", 4, 4, tables))
    assert tree == Ref("Sales 2024", 2, 2, 9, 3)
    tree = parse(resolve_structured("=SUM(Sales[Qty])", "Other", 1, 1, tables))
    assert tree.args == (Ref("Sales 2024", 2, 2, 9, 2),)  # type: ignore[union-attr]


# --- reading tables from a package -----------------------------------------------------------------

def _sheet_parts(path: Path) -> dict[str, str]:
    """Worksheet part -> sheet name: openpyxl writes sheet1.xml, sheet2.xml, ... in sheet order."""
    names = openpyxl.load_workbook(path).sheetnames
    return {f"xl/worksheets/sheet{i}.xml": name for i, name in enumerate(names, 1)}


def _book(path: Path) -> Path:
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Notes"
    first["A1"] = "no tables here"
    sales = book.create_sheet("Bob's Sales")
    sales.append([])
    sales.append([None, "Region", "Qty", "Price", "Sales Amount", "#Items"])
    for i in range(8):
        sales.append([None, f"R{i}", i, 2.5, "=Table1[[#This Row],[Qty]]*Table1[[#This Row],[Price]]", i])
    sales.append([None, "Total", None, None, "=SUBTOTAL(109,Table1[Sales Amount])", None])
    table = XlTable(displayName="Table1", ref="B2:F11", totalsRowCount=1)
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium9", showRowStripes=True)
    sales.add_table(table)
    other = XlTable(displayName="Lookup", ref="H2:I4")
    sales["H2"], sales["I2"] = "Key", "Value"
    sales.add_table(other)
    data = book.create_sheet("Data")
    bare = XlTable(displayName="NoHead", ref="A1:B3", headerRowCount=0,
                   tableColumns=[TableColumn(id=1, name="Column1"), TableColumn(id=2, name="Column2")])
    data.add_table(bare)
    book.save(path)
    return path


def test_read_tables_from_an_openpyxl_workbook(tmp_path: Path) -> None:
    path = _book(tmp_path / "tables.xlsx")
    parts = _sheet_parts(path)
    with zipfile.ZipFile(path) as archive:
        assert any(name.startswith("xl/tables/") for name in archive.namelist())
        tables = read_tables(archive, parts)
    by_name = {table.name: table for table in tables}
    assert set(by_name) == {"Table1", "Lookup", "NoHead"}
    assert by_name["Table1"] == Table("Table1", "Bob's Sales", 2, 2, 11, 6, header_rows=1, totals_rows=1,
                                      columns=("Region", "Qty", "Price", "Sales Amount", "#Items"))
    assert by_name["Lookup"] == Table("Lookup", "Bob's Sales", 2, 8, 4, 9, columns=("Key", "Value"))
    assert by_name["NoHead"] == Table("NoHead", "Data", 1, 1, 3, 2, header_rows=0, totals_rows=0,
                                      columns=("Column1", "Column2"))
    # and the formulas in the book resolve against them
    assert resolve_structured("=SUBTOTAL(109,Table1[Sales Amount])", "Bob's Sales", 11, 5, tables) == \
        "=SUBTOTAL(109,'Bob''s Sales'!$E$3:$E$10)"
    assert resolve_structured("=SUM(Table1['#Items])", "Notes", 1, 1, tables) == \
        "=SUM('Bob''s Sales'!$F$3:$F$10)"


def test_formulas_of_a_real_workbook_resolve_and_parse(tmp_path: Path) -> None:
    path = _book(tmp_path / "tables.xlsx")
    parts = _sheet_parts(path)
    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    with zipfile.ZipFile(path) as archive:
        tables = read_tables(archive, parts)
        root = etree.fromstring(archive.read("xl/worksheets/sheet2.xml"),
                                etree.XMLParser(resolve_entities=False, no_network=True))
    trees = {}
    for cell in root.iter(f"{main}c"):
        formula = cell.find(f"{main}f")
        if formula is not None:
            row, col = cell_position(cell.get("r"))
            trees[cell.get("r")] = parse(resolve_structured("=" + formula.text, "Bob's Sales", row, col, tables))
    assert len(trees) == 9
    # formula.parse currently keeps the quote doubled in Ref.sheet ("Bob''s Sales"): accept either
    e5, e11 = trees["E5"], trees["E11"]
    assert isinstance(e5, Op) and isinstance(e11, Call)
    sheet = e5.args[0].sheet
    assert sheet is not None and sheet.replace("''", "'") == "Bob's Sales"
    assert e5 == Op("*", (Ref(sheet, 5, 3, 5, 3), Ref(sheet, 5, 4, 5, 4)))
    assert e11 == Call("SUBTOTAL", (Const(109.0), Ref(sheet, 3, 5, 10, 5)))


def _zip(files: dict[str, str]) -> zipfile.ZipFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return zipfile.ZipFile(io.BytesIO(buffer.getvalue()))


_RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{}'
         '</Relationships>')
_REL = ('<Relationship Id="rId{0}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/table" Target="{1}"/>')
_TABLE = ('<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="1" name="{0}" '
          'displayName="{0}" ref="{1}"{2}><tableColumns count="2">'
          '<tableColumn id="1" name="{3}"/><tableColumn id="2" name="B"/></tableColumns></table>')


def test_read_tables_is_robust_to_missing_and_damaged_parts() -> None:
    rels = _RELS.format(_REL.format(1, "../tables/table1.xml") + _REL.format(2, "../tables/missing.xml")
                        + _REL.format(3, "../tables/table3.xml") + _REL.format(4, "/xl/tables/table4.xml")
                        + _REL.format(5, "../tables/table5.xml"))
    archive = _zip({
        "xl/worksheets/_rels/sheet1.xml.rels": rels,
        "xl/worksheets/_rels/sheet2.xml.rels": "<Relationships><broken",
        "xl/tables/table1.xml": _TABLE.format("Good", "C3:D7", ' totalsRowShown="0"', "Line_x000a_Feed"),
        "xl/tables/table3.xml": "<table not xml",
        "xl/tables/table4.xml": _TABLE.format("Absolute", "$A$1:$B$2", ' totalsRowCount="1"', "A"),
        "xl/tables/table5.xml": _TABLE.format("NoRef", "", "", "A"),
    })
    tables = read_tables(archive, {"xl/worksheets/sheet1.xml": "S1", "xl/worksheets/sheet2.xml": "S2",
                                   "xl/worksheets/sheet3.xml": "S3"})
    assert tables == [Table("Good", "S1", 3, 3, 7, 4, columns=("Line\nFeed", "B")),
                      Table("Absolute", "S1", 1, 1, 2, 2, totals_rows=1, columns=("A", "B"))]
    assert read_tables(archive, {}) == []


def test_read_tables_refuses_entities() -> None:
    evil = ('<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            + _TABLE.format("Evil", "A1:B2", "", "&x;"))
    archive = _zip({"xl/worksheets/_rels/sheet1.xml.rels": _RELS.format(_REL.format(1, "../tables/t.xml")),
                    "xl/tables/t.xml": evil})
    # lxml refuses an external entity in an attribute: the part is skipped, nothing is read from disk
    assert read_tables(archive, {"xl/worksheets/sheet1.xml": "S1"}) == []
