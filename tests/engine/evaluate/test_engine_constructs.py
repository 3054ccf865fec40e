"""What Excel workbooks really contain, computed as Excel does: references known only when
computed (OFFSET, INDIRECT), structured references to tables, defined names holding formulas and
LAMBDAs, the functions that ask about cells and sheets, and cells the engine leaves to Excel."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.table import Table

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import NotComputed
from xlrating.functions import ExcelError


def _values(path: Path, sheet: str, cells: list[str]) -> list[object]:
    evaluated = evaluate_workbook(str(path))
    grid = evaluated.grid.sheet(sheet)
    assert grid is not None
    result = []
    for cell in cells:
        column, row = openpyxl.utils.cell.coordinate_from_string(cell)
        result.append(grid.get(row, openpyxl.utils.cell.column_index_from_string(column)))
    return result


def _numbers_book(path: Path, formulas: dict[str, str]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 6):
        ws.cell(row, 2, row * 10)  # B1:B5 = 10..50
    for cell, formula in formulas.items():
        ws[cell] = formula
    wb.save(path)
    return path


def test_offset_moves_and_resizes_its_reference(tmp_path: Path) -> None:
    book = _numbers_book(tmp_path / "offset.xlsx", {
        "A1": "=SUM(OFFSET(B1,1,0,3,1))", "A2": "=OFFSET(B1,4,0)", "A3": "=OFFSET(B1,-1,0)",
        "A4": "=ROWS(OFFSET(B1,0,0,4))", "A5": "=SUM(OFFSET(B5,0,0,-2,1))"})
    assert _values(book, "Sheet", ["A1", "A2", "A3", "A4", "A5"]) == [90.0, 50.0, ExcelError("#REF!"), 4.0, 90.0]


def test_offset_reads_formula_cells_computed_on_demand(tmp_path: Path) -> None:
    # which cell A1 reads is known only once C1 is computed; D1..D3 are formulas themselves
    book = _numbers_book(tmp_path / "demand.xlsx", {
        "A1": "=OFFSET(D1,C1,0)", "C1": "=1+1", "D1": "=B1*2", "D2": "=B2*2", "D3": "=B3*2"})
    assert _values(book, "Sheet", ["A1"]) == [60.0]


def test_indirect_reads_a1_and_r1c1_texts_sheets_and_names(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    other = wb.create_sheet("Bob data")
    other["A1"] = 7
    for row in range(1, 4):
        ws.cell(row, 2, row * 10)
    wb.defined_names["Scores"] = DefinedName("Scores", attr_text="Sheet!$B$1:$B$3")
    ws["A1"] = '=INDIRECT("B2")'
    ws["A2"] = '=INDIRECT("\'Bob data\'!A"&1)*2'
    ws["A3"] = '=INDIRECT("R1C2",FALSE)+INDIRECT("R[1]C[1]",FALSE)'  # B1 + B4? no: A3 -> R4C2 is empty
    ws["A4"] = '=SUM(INDIRECT("Scores"))'
    ws["A5"] = '=INDIRECT("not a reference")'
    wb.save(tmp_path / "indirect.xlsx")
    assert _values(tmp_path / "indirect.xlsx", "Sheet", ["A1", "A2", "A3", "A4", "A5"]) == [
        20.0, 14.0, 10.0, 60.0, ExcelError("#REF!")]


def test_indirect_reads_row_numbers_written_with_leading_zeros(tmp_path: Path) -> None:
    # as a workbook Excel saved has them (IronCalc's LOOKUP_AND_REFERENCE_ROW_COLUM.xlsx: "A01",
    # "05:05", "SS077:SW090"); a sheet name's digits stay as they are
    wb = openpyxl.Workbook()
    ws = wb.active
    wb.create_sheet("Q007")["B5"] = 9
    ws["B1"], ws["C5"] = 4, 6
    ws["D1"], ws["D2"], ws["D3"], ws["D4"] = "B01", "05:05", "SS077:SW090", "Q007!B005"
    ws["A1"] = "=INDIRECT(D1)"
    ws["A2"] = "=SUM(INDIRECT(D2))"
    ws["A3"] = "=ROW(INDIRECT(D3))"
    ws["A6"] = "=COLUMN(INDIRECT(D3))"
    ws["A4"] = "=INDIRECT(D4)"
    wb.save(tmp_path / "zeros.xlsx")
    assert _values(tmp_path / "zeros.xlsx", "Sheet", ["A1", "A2", "A3", "A4", "A6"]) == [4.0, 6.0, 77.0, 9.0, 513.0]


def test_structured_references_read_the_workbooks_tables(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Qty", "Price", "Total"])
    for i in range(1, 5):
        ws.append([f"n{i}", i, 10 * i, "=Sales[[#This Row],[Qty]]*Sales[[#This Row],[Price]]"])
    ws.add_table(Table(displayName="Sales", ref="A1:D5"))
    ws["F1"] = "=SUM(Sales[Total])"
    ws["F2"] = "=COUNTA(Sales[#All])"
    ws["F3"] = "=SUM(Sales[])"
    ws["F4"] = "=SUM(Nope[Total])"
    wb.save(tmp_path / "table.xlsx")
    assert _values(tmp_path / "table.xlsx", "Sheet", ["D2", "D5", "F1", "F2", "F3", "F4"]) == [
        10.0, 160.0, 300.0, 20.0, 410.0, ExcelError("#REF!")]


def test_defined_names_holding_formulas_and_lambdas_are_computed_where_used(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 4):
        ws.cell(row, 2, row)  # B1:B3 = 1, 2, 3
    wb.defined_names["Total"] = DefinedName("Total", attr_text="SUM(Sheet!$B$1:$B$3)")
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="0.5")
    wb.defined_names["Twice"] = DefinedName("Twice", attr_text="_xlfn.LAMBDA(_xlpm.x,_xlpm.x*2)")
    ws["A1"] = "=Total*Rate"
    ws["A2"] = "=Twice(B3)+1E+1"
    wb.save(tmp_path / "names.xlsx")
    assert _values(tmp_path / "names.xlsx", "Sheet", ["A1", "A2"]) == [3.0, 16.0]


def test_functions_about_cells_and_sheets(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    wb.create_sheet("Second")
    ws["B2"] = 5
    ws["D1"] = "=B2+1"
    ws["A1"] = "=FORMULATEXT(D1)"
    ws["A2"] = "=ISFORMULA(D1)"
    ws["A3"] = "=ISFORMULA(B2)"
    ws["A4"] = "=SHEET()"
    ws["A5"] = '=SHEET("Second")'
    ws["A6"] = "=SHEETS()"
    ws["A7"] = '=CELL("address",B2)'
    ws["A8"] = '=CELL("contents",B2)'
    ws["A9"] = '=ADDRESS(2,3,4,FALSE)'
    ws["A10"] = '=ADDRESS(1,1,1,TRUE,"My sheet")'
    wb.save(tmp_path / "info.xlsx")
    assert _values(tmp_path / "info.xlsx", "Sheet", [f"A{r}" for r in range(1, 11)]) == [
        "=B2+1", True, False, 1.0, 2.0, 2.0, "$B$2", 5.0, "R[2]C[3]", "'My sheet'!$A$1"]


def test_what_only_excel_knows_is_left_not_computed_never_invented(tmp_path: Path) -> None:
    book = _numbers_book(tmp_path / "format.xlsx", {"A1": '=INFO("osversion")', "A2": "=IFERROR(A1,0)",
                                                      "A3": "=B1*2"})
    evaluated = evaluate_workbook(str(book))
    sheet = evaluated.grid.sheet("Sheet")
    assert isinstance(sheet.get(1, 1), NotComputed) and isinstance(sheet.get(2, 1), NotComputed)
    assert sheet.get(3, 1) == 20.0
    assert [w.split(":")[0] for w in evaluated.warnings] == ["Sheet!A1", "Sheet!A2"]


@pytest.mark.parametrize("formula", ["=1E+300*1E+300", "=EXP(1000)", "=10^400"])
def test_overflow_is_num_error_never_infinity(tmp_path: Path, formula: str) -> None:
    book = _numbers_book(tmp_path / "overflow.xlsx", {"A1": formula})
    assert _values(book, "Sheet", ["A1"]) == [ExcelError("#NUM!")]


def test_whole_row_and_column_references_cost_the_used_range(tmp_path: Path) -> None:
    book = _numbers_book(tmp_path / "whole.xlsx", {"A1": "=SUM(B:B)", "E8": "=SUM(2:2)", "E9": "=COUNT(3:3)"})
    assert _values(book, "Sheet", ["A1", "E8", "E9"]) == [150.0, 20.0, 1.0]


def test_a_reference_in_an_ordinary_formula_is_implicitly_intersected_as_excel_does(tmp_path: Path) -> None:
    # Excel stores =B1:B5 typed in an ordinary cell as the legacy formula it shows as =@B1:B5
    book = _numbers_book(tmp_path / "intersect.xlsx", {"A3": "=B1:B5", "A7": "=B1:B5", "D4": "=B:B*2",
                                                         "E1": "=B1:C2"})
    assert _values(book, "Sheet", ["A3", "A7", "D4", "E1"]) == [30.0, ExcelError("#VALUE!"), 80.0,
                                                                ExcelError("#VALUE!")]


def test_double_negation_is_a_number_and_unary_plus_changes_nothing(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = True
    ws["A2"] = '="3"'
    ws["B1"] = '=--("A"="B")'
    ws["B2"] = "=--A1"
    ws["B3"] = "=+A1"
    ws["B4"] = "=--A2+1"
    ws["B5"] = '=SUMPRODUCT(--(C1:C3>1))'
    for row, value in enumerate((1, 2, 3), start=1):
        ws.cell(row, 3, value)
    wb.save(tmp_path / "signs.xlsx")
    assert _values(tmp_path / "signs.xlsx", "Sheet", ["B1", "B2", "B3", "B4", "B5"]) == [0.0, 1.0, True, 4.0, 2.0]


def _with_external_link(path: Path) -> Path:
    """An openpyxl workbook given external workbook [1] with the values Excel cached for it."""
    import zipfile

    link = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<externalBook r:id="rId1"><sheetNames><sheetName val="Prices"/><sheetName val="Other sheet"/></sheetNames>'
            '<sheetDataSet><sheetData sheetId="0"><row r="2"><cell r="B2"><v>21</v></cell></row></sheetData>'
            '<sheetData sheetId="1"><row r="1"><cell r="A1" t="str"><v>kg</v></cell></row></sheetData>'
            '</sheetDataSet></externalBook></externalLink>')
    link_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                 '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                 '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                 'externalLinkPath" Target="prices.xlsx" TargetMode="External"/></Relationships>')
    source = path.with_suffix(".plain.xlsx")
    path.rename(source)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w") as new:
        for item in old.infolist():
            data = old.read(item.filename)
            if item.filename == "xl/workbook.xml":
                data = data.replace(b"</sheets>", b"</sheets><externalReferences><externalReference xmlns:r="
                                    b'"http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
                                    b'r:id="rId99"/></externalReferences>')
            elif item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rId99" Type="http://schemas.openxmlformats'
                                    b'.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/'
                                    b'externalLink1.xml"/></Relationships>')
            new.writestr(item, data)
        new.writestr("xl/externalLinks/externalLink1.xml", link)
        new.writestr("xl/externalLinks/_rels/externalLink1.xml.rels", link_rels)
    return path


def test_references_into_other_workbooks_read_the_values_excel_cached(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "=[1]Prices!B2*2"
    ws["A2"] = "='[1]Other sheet'!A1"
    ws["A3"] = "=[1]Prices!C9"
    ws["A4"] = "=[1]Missing!A1"
    wb.save(tmp_path / "linked.xlsx")
    evaluated = evaluate_workbook(str(_with_external_link(tmp_path / "linked.xlsx")))
    sheet = evaluated.grid.sheet("Sheet")
    assert [sheet.get(row, 1) for row in (1, 2, 3)] == [42.0, "kg", 0.0]
    assert isinstance(sheet.get(4, 1), NotComputed)  # no cached copy: left for Excel, with a warning
    assert [w.split(":")[0] for w in evaluated.warnings] == ["Sheet!A4"]


@pytest.mark.parametrize(("formula", "expected"), [
    ("=SUM(B1:INDEX(B:B,3))", 60.0),
    ("=SUM(INDEX(B1:B5,2):INDEX(B1:B5,4))", 90.0),
    ("=SUM(CHOOSE(2,B1:B2,B3:B5))", 120.0),
    ("=SUM(IF(TRUE,B1:B2,B3:B5))", 30.0),
    ("=SUM(IF(FALSE,B1:B2,B3:B5))", 120.0),
    ("=ROWS(OFFSET(B1,0,0,COUNT(B:B)))", 5.0),
    ('=SUM(INDIRECT(ADDRESS(1,2)&":"&ADDRESS(5,2)))', 150.0),
    ("=ISREF(OFFSET(B1,1,0))", True),
    ('=CELL("row",OFFSET(B1,3,0))', 4.0),
    ("=CHOOSE(3,1,2)", ExcelError("#VALUE!")),
    ('=IF("TRUE",1,2)', 1.0),
    ('=IF("yes",1,2)', ExcelError("#VALUE!")),
])
def test_functions_returning_references_feed_functions_taking_references(tmp_path: Path, formula: str,
                                                                          expected: object) -> None:
    book = _numbers_book(tmp_path / "refs.xlsx", {"A1": formula})
    assert _values(book, "Sheet", ["A1"]) == [expected]


def test_ordinary_formulas_give_a_single_value_as_excel_legacy_formulas_do(tmp_path: Path) -> None:
    # a range where a function takes one value is intersected with the formula's row or column;
    # an array constant shows its first value; a dynamic-array function still spills
    book = _numbers_book(tmp_path / "legacy.xlsx", {
        "A2": "=ABS(B1:B5)*-1", "A7": "=ABS(B1:B5)", "C1": "={7,8;9,10}", "D1": "=_xlfn.SEQUENCE(2)",
        "E1": '=ADDRESS(2,3,4,F1)', "E2": "=N(TRUE)+N(\"x\")", "E3": "=INDEX(B1:B5,0,1)"})
    assert _values(book, "Sheet", ["A2", "A7", "C1", "C2", "D1", "D2", "E1", "E2", "E3"]) == [
        -20.0, ExcelError("#VALUE!"), 7.0, None, 1.0, 2.0, "R[2]C[3]", 1.0, 30.0]


def _written_as(path: Path, formulas: dict[str, str], replacements: dict[bytes, bytes]) -> Path:
    """A workbook whose A1 holds the text "placeholder" and ``formulas``, saved by openpyxl, then with
    each part's bytes replaced as ``replacements`` says (text as another producer writes it)."""
    import zipfile

    wb = openpyxl.Workbook()
    wb.active["A1"] = "placeholder"
    for ref, formula in formulas.items():
        wb.active[ref] = formula
    plain = path.with_name("plain.xlsx")
    wb.save(plain)
    with zipfile.ZipFile(plain) as old, zipfile.ZipFile(path, "w") as new:
        for item in old.infolist():
            data = old.read(item.filename)
            for before, after in replacements.items():
                data = data.replace(before, after)
            new.writestr(item, data)
    return path


def test_characters_excel_escapes_in_the_file_are_read_back(tmp_path: Path) -> None:
    # what Excel writes for CHAR(1)&CHAR(2)&"a_x0041_" (a shared or an inline string)
    book = _written_as(tmp_path / "escaped.xlsx", {"B1": "=CODE(A1)", "B2": "=LEN(A1)-LEN(CLEAN(A1))"},
                       {b">placeholder<": b">_x0001__x0002_a_x005F_x0041_<"})
    assert _values(book, "Sheet", ["A1", "B1", "B2"]) == ["\x01\x02a_x0041_", 1.0, 2.0]


def test_xml_references_in_texts_and_formulas_are_read_as_xml_defines_them(tmp_path: Path) -> None:
    # &#128; is the character U+0080 (HTML would read the euro sign); the five entities; hexadecimal
    book = _written_as(tmp_path / "refs.xlsx", {"B1": '=UNICODE(MID(A1,2,1))+0*LEN("x")', "B2": "=LEN(A1)"},
                       {b">placeholder<": b">a&#128;&amp;&lt;&gt;&quot;&apos;&#x41;&#66;<",
                        b'LEN("x")': b"LEN(&quot;&#x78;&quot;)"})
    assert _values(book, "Sheet", ["A1", "B1", "B2"]) == ["a\x80&<>\"'AB", 128.0, 9.0]


def test_subtotal_leaves_out_other_subtotals_as_in_a_tables_totals_row(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Item", "Qty"])
    for i in range(1, 4):
        ws.append([f"i{i}", i * 2])  # B2:B4 = 2, 4, 6
    ws.append(["Total", "=SUBTOTAL(109,Sales[Qty])"])  # a totals row
    ws.add_table(Table(displayName="Sales", ref="A1:B5", totalsRowCount=1))
    ws["D1"] = "=SUBTOTAL(9,B2:B5)"  # the totals row's own SUBTOTAL is not counted again
    ws["D2"] = "=SUBTOTAL(1,B2:B4)"
    ws["D3"] = "=SUBTOTAL(3,A1:A5)"
    ws["D4"] = "=SUBTOTAL(7,B2:B4)"
    ws["D5"] = "=SUBTOTAL(12,B2:B4)"
    wb.save(tmp_path / "subtotal.xlsx")
    assert _values(tmp_path / "subtotal.xlsx", "Sheet", ["B5", "D1", "D2", "D3", "D4", "D5"]) == [
        12.0, 12.0, 4.0, 5.0, 2.0, ExcelError("#VALUE!")]


@pytest.mark.parametrize(("formula", "expected"), [
    ('=_xlfn.XLOOKUP(99,{1;2;3},{"a";"b";"c"},,1)', ExcelError("#N/A")),  # if_not_found left out
    ('=_xlfn.XLOOKUP(99,{1;2;3},{"a";"b";"c"},0,1)', 0.0),  # a typed 0 is 0
    ("=SUM(_xlfn.SEQUENCE(3,1,,2))", 9.0),  # start left out: 1, 3, 5
    ("=IF(1>2,,)", 0.0),
    ("=ROUND(2.5,)", 3.0),
    ("=INDEX(_xlfn.LINEST({2;4;6},{1;2;3},,TRUE),1,1)", 2.0),  # const left out: TRUE
])
def test_an_argument_left_out_between_commas_is_what_excel_reads_there(tmp_path: Path, formula: str,
                                                                       expected: object) -> None:
    book = _numbers_book(tmp_path / "omitted.xlsx", {"A1": formula})
    assert _values(book, "Sheet", ["A1"]) == [expected]


def test_spill_references_and_array_formulas_filled_as_excel_fills_them(tmp_path: Path) -> None:
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 5):
        ws.cell(row, 1, row * 10)  # A1:A4 = 10..40
    ws["C1"] = ArrayFormula("C1:C4", "=123")  # one value over a range: repeated in every cell
    ws["D1"] = ArrayFormula("D1:E2", "={1,2}")  # one row: repeated on every row
    ws["F1"] = "=SUM(_xlfn.ANCHORARRAY(C1))"  # C1#: the whole array C1 fills
    ws["F2"] = "=SUM(_xlfn.ANCHORARRAY(A1))"  # A1 holds no formula: #REF!
    ws["F3"] = '=REPT("x",40000)'  # longer than a cell holds: #VALUE!
    wb.save(tmp_path / "spill.xlsx")
    assert _values(tmp_path / "spill.xlsx", "Sheet", ["C4", "D2", "E2", "F1", "F2", "F3"]) == [
        123.0, 1.0, 2.0, 492.0, ExcelError("#REF!"), ExcelError("#VALUE!")]


def test_let_whose_variables_use_each_other_is_computed(tmp_path: Path) -> None:
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = 2026
    # a calendar's first week: anchor is used only by first_mon, which only d uses
    ws["B1"] = ArrayFormula("B1:H1", "=_xlfn.LET(_xlpm.mo,3,_xlpm.anchor,DATE(A1,_xlpm.mo,1),"
                                     "_xlpm.first_mon,_xlpm.anchor-(WEEKDAY(_xlpm.anchor,2)-1),"
                                     "_xlpm.d,_xlpm.first_mon+_xlfn.SEQUENCE(1,7,0),"
                                     'IF(MONTH(_xlpm.d)=_xlpm.mo,DAY(_xlpm.d),""))')
    ws["A2"] = '=_xlfn.LET(_xlpm.x,"a,b",_xlpm.y,LEN(_xlpm.x),_xlpm.y*2)'
    wb.save(tmp_path / "let.xlsx")
    # 1 March 2026 is a Sunday: the week starting Monday 23 February shows only the 1st
    assert _values(tmp_path / "let.xlsx", "Sheet", ["B1", "G1", "H1", "A2"]) == ["", "", 1.0, 6.0]


def test_an_argument_left_empty_between_commas_is_our_functions_default(tmp_path: Path) -> None:
    # DCI_RATINGS(matches, [category], [method]): `,,` leaves the category out (every match), as
    # Excel passes it to an add-in; it is not a category named 0, which would list nobody.
    import datetime as dt

    from openpyxl.worksheet.formula import ArrayFormula

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["date", "round", "player", "opponent", "result"])
    sheet.append([dt.date(2024, 1, 1), 1, "ann", "bob", 1])
    sheet.append([dt.date(2024, 1, 1), 2, "bob", "cy", 0.5])
    sheet["H1"] = ArrayFormula("H1:J4", '=DCI_RATINGS(A1:E3,,"table")')
    sheet["L1"] = '=DCI_RATINGS(A1:E3,,"table")'
    sheet["P1"] = '=DCI_RATINGS(A1:E3,"Vintage","table")'  # a category no match has: nobody
    book.save(tmp_path / "book.xlsx")
    values = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert values is not None
    for col in (8, 12):
        assert [values.get(r, col) for r in range(1, 5)] == ["player", "ann", "cy", "bob"]
        assert values.get(2, col + 1) == 1608.0
    assert [values.get(r, 16) for r in range(1, 3)] == ["player", None]
