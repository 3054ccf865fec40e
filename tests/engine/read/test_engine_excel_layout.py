"""Workbooks laid out as Excel saves them: shared formulas, shared strings, cached values, arrays.

No Excel runs here, so these packages are written by hand with the XML features Excel uses and
openpyxl does not (``<f t="shared" si=..>`` fill-down, a shared-string table, ``t="e"`` cached
errors, ``t="array"`` ranges, an empty ``<f/>``), each cell carrying the value Excel cached for it.
Recalculating must give back exactly those values.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from xlrating.engine import evaluate_workbook
from xlrating.functions import ExcelError

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
PKG = "http://schemas.openxmlformats.org/package/2006"
OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SML = "application/vnd.openxmlformats-officedocument.spreadsheetml"

STRINGS = ["player", "place", "score", "ann", "bob", "cy"]

# Excel's own cached values are the expectation: (cell, formula XML, cached value XML, cell type)
ROWS = """
<row r="1" spans="1:6"><c r="A1" s="1" t="s"><v>0</v></c><c r="B1" s="1" t="s"><v>1</v></c><c r="C1" s="1" t="s"><v>2</v></c></row>
<row r="2" spans="1:6"><c r="A2" t="s"><v>3</v></c><c r="B2"><v>1</v></c><c r="C2"><f t="shared" ref="C2:C4" si="0">DIPPOUCH_PERCENTILE(3,B2)</f><v>83.333333333333343</v></c><c r="D2"><f t="shared" ref="D2:E4" si="1">C2/$B$6</f><v>0.27777777777777779</v></c><c r="E2"><f t="shared" si="1"/><v>0.000925925925925926</v></c><c r="F2" t="str"><f>A2&amp;"!"</f><v>ann!</v></c></row>
<row r="3" spans="1:6"><c r="A3" t="s"><v>4</v></c><c r="B3"><v>2</v></c><c r="C3"><f t="shared" si="0"/><v>50</v></c><c r="D3"><f t="shared" si="1"/><v>0.16666666666666666</v></c><c r="E3"><f t="shared" si="1"/><v>0.0005555555555555556</v></c><c r="F3" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>
<row r="4" spans="1:6"><c r="A4" t="s"><v>5</v></c><c r="B4"><v>3</v></c><c r="C4"><f t="shared" si="0"/><v>16.666666666666664</v></c><c r="D4"><f t="shared" si="1"/><v>5.5555555555555552E-2</v></c><c r="E4"><f t="shared" si="1"/><v>0.00018518518518518518</v></c><c r="F4" t="b"><f>C4&lt;C3</f><v>1</v></c></row>
<row r="6" spans="1:6"><c r="A6"><f>_xldudf_DIPPOUCH_VALUE(3,1)</f><v>2.4285714285714284</v></c><c r="B6"><f>SUM(B2:B4)*50</f><v>300</v></c><c r="C6"><f t="array" ref="C6:C8">B2:B4*2</f><v>2</v></c><c r="D6"><f ca="1"/><v>7</v></c><c r="E6"><f>ROW()+COLUMN()</f><v>11</v></c></row>
<row r="7" spans="1:6"><c r="C7"><v>4</v></c></row>
<row r="8" spans="1:6"><c r="C8"><v>6</v></c></row>
"""

EXPECTED = {
    "C2": 250 / 3, "C3": 50.0, "C4": 50 / 3, "D2": 250 / 3 / 300, "D3": 50 / 300, "D4": 50 / 3 / 300,
    "E2": 250 / 3 / 300 / 300, "E3": 50 / 300 / 300, "E4": 50 / 3 / 300 / 300, "F2": "ann!", "F3": ExcelError("#DIV/0!"), "F4": True, "A6": 3 / 7 + 2,
    "B6": 300.0, "C6": 2.0, "C7": 4.0, "C8": 6.0, "D6": 7.0, "E6": 11.0,
}


def excel_like_book(path: Path, rows: str = ROWS, prefix: str = "") -> Path:
    strings = "".join(f"<si><t>{s}</t></si>" for s in STRINGS)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   f'<Types xmlns="{PKG}/content-types"><Default Extension="rels" '
                   f'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   f'<Default Extension="xml" ContentType="application/xml"/>'
                   f'<Override PartName="/xl/workbook.xml" ContentType="{SML}.sheet.main+xml"/>'
                   f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SML}.worksheet+xml"/>'
                   f'<Override PartName="/xl/sharedStrings.xml" ContentType="{SML}.sharedStrings+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{PKG}/relationships"><Relationship Id="rId1" '
                                  f'Type="{OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook {NS} {REL_NS}><sheets><sheet name="Ratings" sheetId="1" '
                                      f'r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   f'<Relationships xmlns="{PKG}/relationships">'
                   f'<Relationship Id="rId1" Type="{OFFICE}/worksheet" Target="worksheets/sheet1.xml"/>'
                   f'<Relationship Id="rId2" Type="{OFFICE}/sharedStrings" Target="sharedStrings.xml"/>'
                   f'</Relationships>')
        z.writestr("xl/sharedStrings.xml", f'<sst {NS} count="{len(STRINGS)}" uniqueCount="{len(STRINGS)}">'
                                           f"{strings}</sst>")
        sheet = f'<worksheet {NS}><dimension ref="A1:F8"/><sheetData>{rows.strip()}</sheetData></worksheet>'
        if prefix:  # as the OpenXML SDK writes: every element in a prefixed namespace
            sheet = re.sub(r"<(/?)(\w+)", rf"<\1{prefix}:\2", sheet).replace("xmlns=", f"xmlns:{prefix}=")
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


@pytest.mark.parametrize("cell", sorted(EXPECTED))
def test_recalculation_gives_back_the_values_excel_cached(tmp_path: Path, cell: str) -> None:
    evaluated = evaluate_workbook(str(excel_like_book(tmp_path / "excel.xlsx")))
    row, col = int(cell[1:]), ord(cell[0]) - 64
    got = evaluated.grid.sheet("Ratings").get(row, col)
    want = EXPECTED[cell]
    assert got == pytest.approx(want, rel=1e-15) if isinstance(want, float) else got == want


def test_shared_formula_followers_join_their_masters_block(tmp_path: Path) -> None:
    evaluated = evaluate_workbook(str(excel_like_book(tmp_path / "excel.xlsx")))
    column_c = [b for b in evaluated.blocks if b.col == 3 and b.first == 2]
    assert len(column_c) == 1 and (column_c[0].first, column_c[0].last) == (2, 4)
    assert column_c[0].text(4) == "=DIPPOUCH_PERCENTILE(3,B4)"


def test_every_cached_number_in_the_package_is_what_we_compute(tmp_path: Path) -> None:
    evaluated = evaluate_workbook(str(excel_like_book(tmp_path / "excel.xlsx")))
    cached = re.findall(r'<c r="([A-F])(\d)"(?: t="n")?><f[^>]*(?:/>|>[^<]*</f>)<v>([^<]+)</v>', ROWS)
    assert len(cached) >= 12
    for letter, row, value in cached:
        got = evaluated.grid.sheet("Ratings").get(int(row), ord(letter) - 64)
        assert got == pytest.approx(float(value), rel=1e-15), f"{letter}{row}"


def test_a_sheet_with_namespace_prefixes_is_read_and_written_the_same(tmp_path: Path) -> None:
    from xlrating.engine import convert_file

    book = excel_like_book(tmp_path / "sdk.xlsx", prefix="x")
    assert b"<x:c r=" in zipfile.ZipFile(book).read("xl/worksheets/sheet1.xml")
    evaluated = evaluate_workbook(str(book))
    for cell, want in EXPECTED.items():
        got = evaluated.grid.sheet("Ratings").get(int(cell[1:]), ord(cell[0]) - 64)
        assert got == pytest.approx(want, rel=1e-15) if isinstance(want, float) else got == want, cell
    convert_file(book, tmp_path / "out.xlsx")
    sheet_xml = zipfile.ZipFile(tmp_path / "out.xlsx").read("xl/worksheets/sheet1.xml").decode()
    assert '<x:c r="F2" t="str"><x:f>A2&amp;"!"</x:f><x:v>ann!</x:v></x:c>' in sheet_xml


def test_a_large_sheet_read_in_pieces_gives_every_cell_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Large sheets are matched a piece at a time; a layout the quickest reader does not know, met in
    # a late piece (here the boolean in row 40), must leave no cell of the earlier pieces behind twice.
    from xlrating.engine.read import sheet_cells

    monkeypatch.setattr(sheet_cells, "_CHUNK", 200)
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>{r % 6}</v></c><c r="B{r}"><v>{r}</v></c>'
                   f'<c r="C{r}"><f>B{r}*2</f><v>0</v></c></row>' for r in range(1, 40))
    late = '<row r="40"><c r="A40" t="b"><v>1</v></c><c r="B40"><v>40</v></c></row>'
    for body, flag in ((rows, None), (rows + late, True)):
        evaluated = evaluate_workbook(str(excel_like_book(tmp_path / "large.xlsx", rows=body)))
        sheet = evaluated.grid.sheet("Ratings")
        assert [sheet.get(r, 1) for r in (1, 6, 39)] == [STRINGS[1], STRINGS[0], STRINGS[39 % 6]]
        assert sum(sheet.get(r, 3) for r in range(1, 40)) == 2 * sum(range(1, 40))
        assert sheet.get(40, 1) == flag
        read = evaluated.package.sheets[0]
        assert len(read.values) + (len(read.texts[2]) if read.texts is not None else 0) == 39 + (flag is not None)


@pytest.mark.parametrize("layout", ["plain", "typed", "shared", "mixed"])
def test_a_small_sheet_of_any_formula_layout_is_written_back_with_its_values(tmp_path: Path, layout: str) -> None:
    """A sheet of a few cells is read cell by cell; the writer still rewrites each formula cell
    right, whether its cells are laid out as the bulk reader's or otherwise."""
    import openpyxl

    from xlrating.engine import convert_file

    cells = {"plain": '<c r="B{r}"><f>A{r}*2</f><v>0</v></c><c r="C{r}"><f>IF(A{r}&gt;2,"hi","lo")</f></c>',
             "typed": '<c r="B{r}"><f>A{r}*2</f><v>0</v></c><c r="C{r}" t="str"><f>IF(A{r}&gt;2,"hi","lo")</f>'
                      '<v>old</v></c>',
             "shared": '<c r="B{r}"><f>A{r}*2</f><v>0</v></c><c r="C{r}"><f t="shared" si="0"/></c>',
             "mixed": '<c r="B{r}" t="e"><f>A{r}*2</f><v>#N/A</v></c><c r="C{r}" t="str"><f>IF(A{r}&gt;2,"hi","lo")'
                      '</f><v></v></c>'}[layout]
    rows = "".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c>{cells.format(r=r)}</row>' for r in range(1, 5))
    rows = rows.replace('<c r="C1"><f t="shared" si="0"/>', '<c r="C1"><f t="shared" ref="C1:C4" si="0">'
                                                            'IF(A1&gt;2,"hi","lo")</f>')
    book = excel_like_book(tmp_path / "small.xlsx", rows)
    convert_file(book, tmp_path / "out.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["Ratings"]
    assert [[sheet.cell(r, c).value for c in (2, 3)] for r in range(1, 5)] == [
        [2, "lo"], [4, "lo"], [6, "hi"], [8, "hi"]]
