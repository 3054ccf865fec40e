"""GETPIVOTDATA computed from the pivot table's cache, as Microsoft's GETPIVOTDATA page describes it:
a data field by caption or source field, field/item pairs, the grand total without pairs, #REF! for
what the table does not show, a named warning for what the cache alone cannot say."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest
from function_books import assert_excel_value

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import NotComputed

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"

# Region (shared items), Product (shared items), Sales (numbers): the cache's records
RECORDS = [("East", "Pens", 10.0), ("East", "Ink", 4.0), ("West", "Pens", 7.0), ("West", "Ink", 1.0),
           ("East", "Pens", 5.0), ("North", "Ink", 3.0)]
REGIONS, PRODUCTS = ["East", "West", "North"], ["Pens", "Ink"]


def _cache_definition() -> str:
    regions = "".join(f'<s v="{r}"/>' for r in REGIONS)
    products = "".join(f'<s v="{p}"/>' for p in PRODUCTS)
    return (f'<pivotCacheDefinition xmlns="{MAIN}" xmlns:r="{REL}" r:id="rId1" recordCount="{len(RECORDS)}">'
            '<cacheSource type="worksheet"><worksheetSource ref="A1:C7" sheet="Data"/></cacheSource>'
            f'<cacheFields count="3"><cacheField name="Region" numFmtId="0"><sharedItems count="3">{regions}'
            f'</sharedItems></cacheField><cacheField name="Product" numFmtId="0"><sharedItems count="2">{products}'
            '</sharedItems></cacheField><cacheField name="Sales" numFmtId="0"><sharedItems containsNumber="1"/>'
            '</cacheField></cacheFields></pivotCacheDefinition>')


def _records() -> str:
    rows = "".join(f'<r><x v="{REGIONS.index(r)}"/><x v="{PRODUCTS.index(p)}"/><n v="{s}"/></r>' for r, p, s in RECORDS)
    return f'<pivotCacheRecords xmlns="{MAIN}" count="{len(RECORDS)}">{rows}</pivotCacheRecords>'


def _pivot_table(hide_north: bool, shown_as: str) -> str:
    north = ' h="1"' if hide_north else ""
    shown = f' showDataAs="{shown_as}"' if shown_as else ""
    return (f'<pivotTableDefinition xmlns="{MAIN}" name="PivotTable1" cacheId="1" dataCaption="Values">'
            '<location ref="A3:D7" firstHeaderRow="1" firstDataRow="2" firstDataCol="1"/>'
            '<pivotFields count="3">'
            f'<pivotField axis="axisRow" showAll="0"><items count="4"><item x="0"/><item x="1"/><item x="2"{north}/>'
            '<item t="default"/></items></pivotField>'
            '<pivotField axis="axisCol" showAll="0"><items count="3"><item x="0"/><item x="1"/><item t="default"/>'
            '</items></pivotField><pivotField dataField="1" showAll="0"/></pivotFields>'
            '<rowFields count="1"><field x="0"/></rowFields><colFields count="1"><field x="1"/></colFields>'
            f'<dataFields count="1"><dataField name="Sum of Sales" fld="2" baseField="0" baseItem="0"{shown}/>'
            '</dataFields></pivotTableDefinition>')


def _book(tmp_path: Path, formulas: dict[str, str], hide_north: bool = False, shown_as: str = "") -> Path:
    """A workbook with sheet "Data" and sheet "Report" holding a pivot table at A3:D7 (Region down,
    Product across, Sum of Sales), its cache parts written as Excel writes them."""
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    data.append(["Region", "Product", "Sales"])
    for record in RECORDS:
        data.append(list(record))
    report = wb.create_sheet("Report")
    for ref, formula in formulas.items():
        report[ref] = formula
    plain = tmp_path / "plain.xlsx"
    wb.save(plain)
    path = tmp_path / "pivot.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/workbook.xml":
                content = content.replace(b"</workbook>", f'<pivotCaches><pivotCache xmlns:r="{REL}" cacheId="1" '
                                          'r:id="rIdPivot"/></pivotCaches></workbook>'.encode())
            elif item.filename == "xl/_rels/workbook.xml.rels":
                content = content.replace(b"</Relationships>", (
                    f'<Relationship Id="rIdPivot" Type="{REL}/pivotCacheDefinition" '
                    'Target="pivotCache/pivotCacheDefinition1.xml"/></Relationships>').encode())
            elif item.filename == "[Content_Types].xml":
                content = content.replace(b"</Types>", (
                    b'<Override PartName="/xl/pivotCache/pivotCacheDefinition1.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheDefinition+xml"/>'
                    b'<Override PartName="/xl/pivotCache/pivotCacheRecords1.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.spreadsheetml.pivotCacheRecords+xml"/>'
                    b'<Override PartName="/xl/pivotTables/pivotTable1.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.spreadsheetml.pivotTable+xml"/></Types>'))
            target.writestr(item, content)
        target.writestr("xl/pivotCache/pivotCacheDefinition1.xml", _cache_definition())
        target.writestr("xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels", (
            f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/pivotCacheRecords" '
            'Target="pivotCacheRecords1.xml"/></Relationships>'))
        target.writestr("xl/pivotCache/pivotCacheRecords1.xml", _records())
        target.writestr("xl/pivotTables/pivotTable1.xml", _pivot_table(hide_north, shown_as))
        target.writestr("xl/pivotTables/_rels/pivotTable1.xml.rels", (
            f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/pivotCacheDefinition" '
            'Target="../pivotCache/pivotCacheDefinition1.xml"/></Relationships>'))
        target.writestr("xl/worksheets/_rels/sheet2.xml.rels", (
            f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/pivotTable" '
            'Target="../pivotTables/pivotTable1.xml"/></Relationships>'))
    return path


FORMS = [
    ('GETPIVOTDATA("Sum of Sales",$A$3)', 30.0),  # the grand total
    ('GETPIVOTDATA("Sales",$A$3,"Region","East")', 19.0),  # by the source field's name
    ('GETPIVOTDATA("sum of sales",B5,"Region","west","Product","Ink")', 1.0),  # any cell, any case
    ('GETPIVOTDATA("Sales",$A$3,"Product","Pens")', 22.0),
    ('GETPIVOTDATA("Sales",$A$3,"Region","South")', "#REF!"),  # no such item
    ('GETPIVOTDATA("Sales",$A$3,"Colour","Red")', "#REF!"),  # no such field
    ('GETPIVOTDATA("Profit",$A$3)', "#REF!"),  # no such data field
    ('GETPIVOTDATA("Sales",$A$3,"Sales",10)', "#REF!"),  # a field not on the table
    ('GETPIVOTDATA("Sales",$A$3,"Region","North","Product","Pens")', "#REF!"),  # no records there
    ('GETPIVOTDATA("Sales",$F$1)', "#REF!"),  # not a cell of the pivot table
]


def test_getpivotdata_reads_the_pivot_tables_cache(tmp_path: Path) -> None:
    book = _book(tmp_path, {f"F{row}": "=" + formula for row, (formula, _) in enumerate(FORMS, start=10)})
    sheet = evaluate_workbook(str(book)).grid.sheet("Report")
    assert sheet is not None
    for row, (_, expected) in enumerate(FORMS, start=10):
        assert_excel_value(sheet.get(row, 6), expected)


def test_getpivotdata_leaves_out_hidden_items(tmp_path: Path) -> None:
    book = _book(tmp_path, {"F1": '=GETPIVOTDATA("Sales",$A$3)', "F2": '=GETPIVOTDATA("Sales",$A$3,"Region","North")'},
                 hide_north=True)
    sheet = evaluate_workbook(str(book)).grid.sheet("Report")
    assert sheet is not None
    assert sheet.get(1, 6) == 27.0
    assert_excel_value(sheet.get(2, 6), "#REF!")


@pytest.mark.parametrize("shown_as", ["percentOfTotal", "runTotal"])
def test_a_value_shown_as_a_percentage_or_running_total_is_a_named_warning(tmp_path: Path, shown_as: str) -> None:
    book = _book(tmp_path, {"F1": '=GETPIVOTDATA("Sum of Sales",$A$3)'}, shown_as=shown_as)
    evaluated = evaluate_workbook(str(book))
    sheet = evaluated.grid.sheet("Report")
    assert sheet is not None and isinstance(sheet.get(1, 6), NotComputed)
    assert any("GETPIVOTDATA" in warning and shown_as in warning for warning in evaluated.warnings)
