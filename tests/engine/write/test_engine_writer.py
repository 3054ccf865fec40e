"""What ``convert`` writes: the same workbook with fresh cached values, values only, CSV, JSON."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import openpyxl
import pytest
from openpyxl.styles import Font, PatternFill

from tests.engine.engine_books import engine_values, native_book, same
from xlrating.engine import convert_file
from xlrating.engine.evaluate.host_values import excel_serial
from xlrating.engine.read.date_cells import as_date
from xlrating.engine.read.sheet_cells import ooxml_text


def test_output_keeps_the_formulas_and_caches_every_value(tmp_path: Path) -> None:
    book = native_book(tmp_path / "book.xlsx")
    out = tmp_path / "out.xlsx"
    convert_file(book, out)
    expected = engine_values(book)
    formulas_wb = openpyxl.load_workbook(out)
    values_wb = openpyxl.load_workbook(out, data_only=True)
    source_wb = openpyxl.load_workbook(book)
    for (sheet, cell), want in expected.items():
        assert formulas_wb[sheet][cell].value == source_wb[sheet][cell].value  # formula text unchanged
        got = values_wb[sheet][cell].value
        if got is None and want == "":  # openpyxl reads an empty text result (<v></v>) as no value
            got = ""
        if want is not None and hasattr(want, "code"):
            assert got == want.code, cell
        else:
            assert same(got, want), (cell, got, want)


def test_text_boolean_and_error_results_are_typed_cells(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = '="a"&"<b>"'
    ws["A2"] = "=1>0"
    ws["A3"] = "=NA()"
    wb.save(tmp_path / "types.xlsx")
    convert_file(tmp_path / "types.xlsx", tmp_path / "out.xlsx")
    sheet_xml = zipfile.ZipFile(tmp_path / "out.xlsx").read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="A1" t="str"><f>"a"&amp;"&lt;b&gt;"</f><v>a&lt;b&gt;</v></c>' in sheet_xml
    assert '<c r="A2" t="b"><f>1&gt;0</f><v>1</v></c>' in sheet_xml
    assert '<c r="A3" t="e"><f>NA()</f><v>#N/A</v></c>' in sheet_xml


def test_a_carriage_return_in_a_text_is_written_as_excel_writes_it_and_reads_back(tmp_path: Path) -> None:
    # XML reads a raw CR back as a line feed; Excel stores CHAR(13) as _x000D_
    wb = openpyxl.Workbook()
    wb.active["A1"] = '="a"&CHAR(13)&"b"&CHAR(10)&"c"'
    wb.save(tmp_path / "cr.xlsx")
    convert_file(tmp_path / "cr.xlsx", tmp_path / "out.xlsx")
    sheet_xml = zipfile.ZipFile(tmp_path / "out.xlsx").read("xl/worksheets/sheet1.xml").decode()
    assert "<v>a_x000D_b\nc</v>" in sheet_xml
    cached = ElementTree.fromstring(sheet_xml).findtext(".//{*}c[@r='A1']/{*}v")
    assert cached is not None and ooxml_text(cached) == "a\rb\nc"  # a raw CR would have come back as "\n"


def test_styles_defined_names_and_other_sheets_pass_through(tmp_path: Path) -> None:
    book = native_book(tmp_path / "book.xlsx")
    wb = openpyxl.load_workbook(book)
    wb["Results"]["D2"].font = Font(bold=True, color="FF0000")
    wb["Results"]["D2"].fill = PatternFill("solid", fgColor="FFFF00")
    wb["Results"]["D2"].number_format = "0.00"
    notes = wb.create_sheet("Notes")
    notes["A1"] = "kept as is"
    wb.save(book)
    convert_file(book, tmp_path / "out.xlsx")
    out = openpyxl.load_workbook(tmp_path / "out.xlsx")
    assert out["Results"]["D2"].font.bold and out["Results"]["D2"].fill.fgColor.rgb == "00FFFF00"
    assert out["Results"]["D2"].number_format == "0.00"
    assert out.sheetnames == ["Results", "Other", "Notes"]
    assert out["Notes"]["A1"].value == "kept as is"
    assert out.defined_names["Scores"].attr_text == "Results!$C$2:$C$13"


def _xlsm(path: Path) -> Path:
    """An .xlsm: openpyxl's .xlsx plus a VBA project part, as Excel lays it out."""
    wb = openpyxl.Workbook()
    wb.active["A1"] = 2
    wb.active["B1"] = "=A1*DIPPOUCH_PERCENTILE(10,1)"
    wb.save(path.with_suffix(".tmp.xlsx"))
    with zipfile.ZipFile(path.with_suffix(".tmp.xlsx")) as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "[Content_Types].xml":
                data = data.replace(b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                                    b"application/vnd.ms-excel.sheet.macroEnabled.main+xml")
                data = data.replace(b"</Types>", b'<Default Extension="bin" '
                                    b'ContentType="application/vnd.ms-office.vbaProject"/></Types>')
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdVba" Type="http://schemas.'
                                    b'microsoft.com/office/2006/relationships/vbaProject" '
                                    b'Target="vbaProject.bin"/></Relationships>')
            out.writestr(info, data)
        out.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 pretend VBA project")
    return path


def test_xlsm_keeps_its_vba_project_byte_for_byte(tmp_path: Path) -> None:
    book = _xlsm(tmp_path / "macro.xlsm")
    convert_file(book, tmp_path / "out.xlsm")
    with zipfile.ZipFile(tmp_path / "out.xlsm") as out:
        assert out.read("xl/vbaProject.bin") == b"\xd0\xcf\x11\xe0 pretend VBA project"
        assert b"macroEnabled" in out.read("[Content_Types].xml")
    assert openpyxl.load_workbook(tmp_path / "out.xlsm", data_only=True).active["B1"].value == 2 * 95.0


def test_values_only_writes_values_and_drops_formulas_and_macros(tmp_path: Path) -> None:
    book = _xlsm(tmp_path / "macro.xlsm")
    convert_file(book, tmp_path / "values.xlsx", values_only=True)
    with zipfile.ZipFile(tmp_path / "values.xlsx") as out:
        assert "xl/vbaProject.bin" not in out.namelist()
        assert b"macroEnabled" not in out.read("[Content_Types].xml")
        assert b"<f>" not in out.read("xl/worksheets/sheet1.xml")
    assert openpyxl.load_workbook(tmp_path / "values.xlsx").active["B1"].value == 190


def test_csv_is_one_file_per_sheet(tmp_path: Path) -> None:
    book = native_book(tmp_path / "book.xlsx")
    written = convert_file(book, tmp_path / "book.csv", fmt="csv")
    assert [p.name for p in written] == ["book.Results.csv", "book.Other.csv"]
    other = (tmp_path / "book.Other.csv").read_text().splitlines()
    assert other == ["weight,", "3,36"]  # B2 = A2 * Results!A2 = 3 * 12


def test_json_is_one_document_with_every_sheet(tmp_path: Path) -> None:
    book = native_book(tmp_path / "book.xlsx")
    convert_file(book, tmp_path / "book.json", fmt="json")
    document = json.loads((tmp_path / "book.json").read_text())
    assert document["workbook"] == "book.xlsx"
    assert [s["name"] for s in document["sheets"]] == ["Results", "Other"]
    rows = document["sheets"][0]["rows"]
    assert rows[0][:3] == ["players", "place", "score"] and rows[14][5] == "#DIV/0!"


def test_spilled_table_is_written_as_an_array_formula_with_its_values(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in [["event", "date", "players", "rounds", "player", "place"], ["Open", 45000, 10, 3, "ann", 1],
                ["Open", 45000, 10, 3, "bob", 2]]:
        ws.append(row)
    ws["H1"] = "=DIPPOUCH_RATINGS(A1:F3)"
    wb.save(tmp_path / "table.xlsx")
    convert_file(tmp_path / "table.xlsx", tmp_path / "out.xlsx")
    sheet_xml = zipfile.ZipFile(tmp_path / "out.xlsx").read("xl/worksheets/sheet1.xml").decode()
    assert '<f t="array" ref="H1:J3">DIPPOUCH_RATINGS(A1:F3)</f>' in sheet_xml
    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert [values.cell(r, 8).value for r in range(1, 4)] == ["player", "ann", "bob"]
    assert values["I1"].value == "rating" and values["J3"].value == 1


def test_full_recalculation_on_load_is_not_forced(tmp_path: Path) -> None:
    book = native_book(tmp_path / "book.xlsx")  # openpyxl sets fullCalcOnLoad="1"
    assert b'fullCalcOnLoad="1"' in zipfile.ZipFile(book).read("xl/workbook.xml")
    convert_file(book, tmp_path / "out.xlsx")
    workbook_xml = zipfile.ZipFile(tmp_path / "out.xlsx").read("xl/workbook.xml")
    assert b"fullCalcOnLoad" not in workbook_xml and b"<calcPr" in workbook_xml


def test_the_writer_copies_the_checked_bytes_not_the_file_again(tmp_path: Path) -> None:
    from xlrating.engine import evaluate_workbook
    from xlrating.engine.write.writer import write_xlsx

    book = native_book(tmp_path / "book.xlsx")
    evaluated = evaluate_workbook(str(book))
    book.write_bytes(b"replaced after the checks")  # a file swapped between reading and writing
    write_xlsx(evaluated, tmp_path / "out.xlsx")
    assert openpyxl.load_workbook(tmp_path / "out.xlsx").sheetnames == ["Results", "Other"]


def _dated_book(path: Path) -> Path:
    import datetime as dt

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Events"
    ws.append(["event", "date", "next day", "time stamp", "players"])
    ws.append(["Spring Cup", dt.date(2025, 3, 1), "=B2+1", dt.datetime(2025, 3, 1, 18, 30), 21])
    ws["B2"].number_format = "dd/mm/yyyy"  # a custom date format
    ws["C2"].number_format = "yyyy-mm-dd"
    ws["D2"].number_format = "yyyy-mm-dd hh:mm"
    book.save(path)
    return path


def test_csv_writes_cells_shown_as_dates_as_iso_dates_and_numbers_as_numbers(tmp_path: Path) -> None:
    convert_file(_dated_book(tmp_path / "dated.xlsx"), tmp_path / "dated.csv", fmt="csv")
    assert (tmp_path / "dated.csv").read_text().splitlines()[1] == "Spring Cup,2025-03-01,2025-03-02,2025-03-01T18:30:00,21"


def test_json_writes_cells_shown_as_dates_as_iso_dates(tmp_path: Path) -> None:
    convert_file(_dated_book(tmp_path / "dated.xlsx"), tmp_path / "dated.json", fmt="json")
    row = json.loads((tmp_path / "dated.json").read_text())["sheets"][0]["rows"][1]
    assert row == ["Spring Cup", "2025-03-01", "2025-03-02", "2025-03-01T18:30:00", 21]


@pytest.mark.parametrize(("serial", "shown"), [
    (1, "1900-01-01"), (59, "1900-02-28"), (61, "1900-03-01"), (45717, "2025-03-01"),
    (45717.770833333336, "2025-03-01T18:30:00"), (0.5, "1899-12-31T12:00:00"), (-1, -1), (True, True), ("x", "x"),
])
def test_a_serial_shown_as_a_date_reads_as_excel_shows_it(serial: object, shown: object) -> None:
    assert as_date(serial) == shown


def test_dates_and_times_of_day_become_excel_serials() -> None:
    assert excel_serial(dt.date(2025, 3, 1)) == 45717.0
    assert excel_serial(dt.datetime(2025, 3, 1, 18, 0)) == 45717.75


def test_libreoffices_names_for_our_functions_are_written_as_excel_stores_them(tmp_path: Path) -> None:
    # LibreOffice's add-in saves `xlrating.MERS_BASE_RANK(...)`; the output names it as Excel and the
    # xlwings add-in do, so the workbook works there as written. Text that only looks like the
    # name (a string literal, a text cell, another name ending in it) is left as it is.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"] = "=xlrating.MERS_BASE_RANK(10,3)+XLRATING.DCI_K(\"competitive\")"
    sheet["A2"] = '="xlrating.MERS_BASE_RANK("&A1'
    sheet["A3"] = "xlrating.MERS_BASE_RANK("
    book.save(tmp_path / "lo.xlsx")
    converted = openpyxl.load_workbook(convert_file(tmp_path / "lo.xlsx", tmp_path / "out.xlsx")[0])["Sheet"]
    assert converted["A1"].value == '=MERS_BASE_RANK(10,3)+DCI_K("competitive")'
    assert converted["A2"].value == '="xlrating.MERS_BASE_RANK("&A1'
    assert converted["A3"].value == "xlrating.MERS_BASE_RANK("
    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["Sheet"]
    assert values["A1"].value == pytest.approx(777.7777777777778 + 24)


def test_a_sheet_read_in_bulk_is_written_as_the_cell_by_cell_paths_write_it(tmp_path: Path) -> None:
    """The bulk writer (a sheet of the four common cell layouts: each formula's value written after its
    ``</f>``) gives the same sheet XML as the general paths: numbers, text, booleans, errors, styled
    cells (t inserted after s), a formula with an entity, cells across many rows."""
    from xlrating.engine import evaluate_workbook
    from xlrating.engine.write import sheet_xml

    rows = []
    for r in range(1, 3001):
        rows.append(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" t="inlineStr"><is><t>x{r % 7}</t></is></c>'
                    f'<c r="C{r}" s="1"><f>A{r}*1.1</f><v>0</v></c><c r="D{r}"><f>B{r}&amp;"!"</f></c>'
                    f'<c r="E{r}" s="2"><f>A{r}&gt;1500</f><v/></c><c r="F{r}"><f>1/(A{r}-7)</f><v>1</v></c></row>')
    book = tmp_path / "bulk.xlsx"
    _bulk_book(book, rows)
    evaluated = evaluate_workbook(str(book))
    cells = evaluated.package.sheets[0]
    assert cells.bulk and cells.xml is not None
    bulk = sheet_xml.bulk_chunks(cells.xml, sheet_xml.SheetEdit(evaluated, "S", False), cells)
    assert bulk is not None
    general = sheet_xml.edited_chunks(cells.xml, sheet_xml.SheetEdit(evaluated, "S", False))
    assert general is not None
    written = "".join(bulk)
    assert written == "".join(general)
    assert '<c r="D2" t="str"><f>B2&amp;"!"</f><v>x2!</v></c>' in written
    assert '<c r="E2000" s="2" t="b"><f>A2000&gt;1500</f><v>1</v></c>' in written
    assert '<c r="F7" t="e"><f>1/(A7-7)</f><v>#DIV/0!</v></c>' in written
    assert '<c r="C10" s="1"><f>A10*1.1</f><v>11.0</v></c>' in written


def _bulk_book(path: Path, rows: list[str]) -> None:
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", f'<Types xmlns="{pkg}/content-types"><Default Extension="rels" '
                   'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
                   'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{pkg}/relationships"><Relationship Id="rId1" '
                   f'Type="{office}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook {ns} xmlns:r="{office}"><sheets><sheet name="S" sheetId="1" '
                   'r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{pkg}/relationships"><Relationship '
                   f'Id="rId1" Type="{office}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml", f"<worksheet {ns}><sheetData>{''.join(rows)}</sheetData></worksheet>")


def test_the_bulk_writers_templates_give_the_cell_by_cell_paths_xml(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk writer's "%" templates, piece by piece: pieces whose formula cells all end alike (the
    same old value, one as long as the slot too) and pieces where they differ; "%" in formulas and
    in text results, and pieces without; columns of few distinct numbers (0.0 and -0.0 apart);
    pieces with text, error and not computed results among the numbers, pieces
    of numbers only, pieces without formulas. The same XML as the general paths, with many small
    pieces and with the usual ones, and in the written package."""
    from xlrating.engine import evaluate_workbook
    from xlrating.engine.write import sheet_xml, writer

    rows = []
    for r in range(1, 3001):
        old = "<v>0</v>" if r <= 1200 else "<v>12</v>" if r <= 2000 else "<v/>" if r % 3 == 0 else f"<v>{r}</v>"
        text = f'<c r="F{r}"><f>"p"&amp;MOD(A{r},4)&amp;"%"</f>{old}</c>' if r % 700 < 150 else ""
        error = f'<c r="H{r}"><f>1/(A{r}-7)</f>{old}</c><c r="I{r}"><f>WEBSERVICE("x")</f>{old}</c>' if r < 50 else ""
        plain = f'<c r="A{r}"><v>{r}</v></c><c r="B{r}" t="inlineStr"><is><t>x{"%" if r % 900 < 400 else ""}</t></is></c>'
        if 2500 <= r < 2600:  # no formula
            rows.append(f'<row r="{r}">{plain}</row>')
            continue
        rows.append(f'<row r="{r}">{plain}<c r="C{r}" s="1"><f>A{r}*1.1</f>{old}</c><c r="D{r}"><f>MOD(A{r},3)/7</f>'
                    f'{old}</c><c r="E{r}"><f>-(MOD(A{r},2)*0)</f>{old}</c>{text}<c r="G{r}"><f>A{r}*10%</f>{old}</c>'
                    f"{error}</row>")
    book = tmp_path / "bulk.xlsx"
    _bulk_book(book, rows)
    evaluated = evaluate_workbook(str(book))
    cells = evaluated.package.sheets[0]
    assert cells.bulk and cells.xml is not None
    general = sheet_xml.edited_chunks(cells.xml, sheet_xml.SheetEdit(evaluated, "S", False))
    assert general is not None
    expected = "".join(general)
    for piece in (300, 5000, sheet_xml._PIECE):
        monkeypatch.setattr(sheet_xml, "_PIECE", piece)
        bulk = sheet_xml.bulk_chunks(cells.xml, sheet_xml.SheetEdit(evaluated, "S", False), cells)
        assert bulk is not None
        assert "".join(bulk) == expected
    assert '<c r="F2" t="str"><f>"p"&amp;MOD(A2,4)&amp;"%"</f><v>p2%</v></c>' in expected
    assert '<c r="H7" t="e"><f>1/(A7-7)</f><v>#DIV/0!</v></c>' in expected
    assert '<c r="I7"><f>WEBSERVICE("x")</f></c>' in expected  # not computed: no value
    assert '<c r="E3"><f>-(MOD(A3,2)*0)</f><v>-0.0</v></c>' in expected
    assert '<c r="G1500"><f>A1500*10%</f><v>150.0</v></c>' in expected
    monkeypatch.setattr(writer, "_BATCH", 1000)
    writer.write_xlsx(evaluated, tmp_path / "out.xlsx")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as z:  # deflated by ISA-L, inflated by zlib
        assert z.testzip() is None and z.read("xl/worksheets/sheet1.xml").decode() == expected


def _doubles() -> np.ndarray:
    """Finite doubles of every kind: random bit patterns (subnormals, huge and tiny, both signs),
    short decimals at every scale, and the edges: zero and -0.0, 2**53 and past it, the smallest
    subnormal and normal, the largest double, and each side of repr's and orjson's exponent limits."""
    rng = np.random.default_rng(7)
    bits = rng.integers(-(2**63), 2**63 - 1, size=20_000, dtype=np.int64).view(np.float64)
    scale = 10.0 ** rng.integers(-330, 309, size=5_000).astype(np.float64)
    with np.errstate(over="ignore", under="ignore"):
        decimals = np.round(rng.random(5_000) * 1000, 3) * scale
    edges = [0.0, -0.0, 2.0**53, 2.0**53 + 2, -(2.0**53), 5e-324, -5e-324, 2.2250738585072014e-308,
             1.7976931348623157e308, -1.7976931348623157e308, 1e15, 1e16, 1e-4, 9.999999999999999e-5, 1e-5,
             -1.5e-5, 9.99e-6, 1e-6, 1.2345e-7, -1e-9, 1e-10, 1e21, 1e22, 0.1, 1 / 3, 123456789012345.6]
    values = np.concatenate([bits, decimals, edges])
    return values[np.isfinite(values)]


def _same_double(text: str, value: float) -> bool:
    return np.float64(float(text)).view(np.int64) == np.float64(value).view(np.int64)


def test_numbers_are_written_by_orjson_or_repr_with_the_same_text_that_reads_back_exactly() -> None:
    """A sheet of many formula cells has its numbers formatted by orjson, a small one by repr (orjson's
    import costs more than it saves): the same texts, each the shortest one reading back to the very
    double (-0.0 kept); exponents as orjson writes them ("1e-7", "0.00001", "1e+16"). The cell-by-cell
    paths and CSV write a fraction with the same text (number_text). NaN and infinities, never a
    number cell's value, are never written as orjson's null."""
    from xlrating.engine.write import sheet_xml

    values = _doubles()
    quick, plain = sheet_xml._number_texts(values, True), sheet_xml._number_texts(values, False)
    assert quick == plain
    assert all(_same_double(text, value) for text, value in zip(quick, values.tolist()))
    spelt = dict(zip(values.tolist()[-26:], quick[-26:]))
    assert (spelt[1e-5], spelt[-1.5e-5], spelt[9.99e-6], spelt[1.2345e-7], spelt[1e-10], spelt[1e16]) == (
        "0.00001", "-0.000015", "9.99e-6", "1.2345e-7", "1e-10", "1e+16")
    assert (spelt[2.0**53], spelt[5e-324], spelt[-0.0]) == ("9007199254740992.0", "5e-324", "-0.0")
    fractions = [v for v in values.tolist() if not v.is_integer()]
    assert [sheet_xml.number_text(v) for v in fractions] == sheet_xml._number_texts(np.array(fractions), True)
    assert sheet_xml._number_texts(np.array([1.5, np.nan, -np.inf]), True) == ["1.5", "nan", "-inf"]
    assert sheet_xml._number_texts(np.array([]), True) == sheet_xml._number_texts(np.array([]), False) == []


def test_every_number_written_reads_back_as_the_engines_double(tmp_path: Path) -> None:
    """A sheet of formulas over numbers of every kind (tiny and huge, -0.0, 2**53, subnormals) written
    by the bulk path and the values-only path, with orjson's texts and with repr's: the same sheet
    XML either way, and each formula cell's <v> reads back as the very double the engine computed."""
    import re

    from xlrating.engine import evaluate_workbook
    from xlrating.engine.formula.tree import column_letters
    from xlrating.engine.read.sheet_cells import cell_position
    from xlrating.engine.write import sheet_xml, writer

    values = _doubles()[-3000:]
    rows = [f'<row r="{r}"><c r="A{r}"><v>{v!r}</v></c><c r="B{r}"><f>A{r}*1</f><v>0</v></c>'
            f'<c r="C{r}"><f>-A{r}</f></c></row>' for r, v in enumerate(values.tolist(), start=1)]
    book = tmp_path / "numbers.xlsx"
    _bulk_book(book, rows)
    evaluated = evaluate_workbook(str(book))
    cells = evaluated.package.sheets[0]
    assert cells.bulk and cells.xml is not None
    grid = evaluated.grid.sheet("S")
    assert grid is not None
    written: dict[tuple[bool, bool], str] = {}
    for quick in (True, False):
        for values_only in (False, True):
            edit = sheet_xml.SheetEdit(evaluated, "S", values_only)
            edit.columns = sheet_xml._ColumnValues(edit)
            edit.columns.quick = quick
            chunks = sheet_xml.edited_chunks(cells.xml, edit) if values_only else \
                sheet_xml.bulk_chunks(cells.xml, edit, cells)
            assert chunks is not None
            written[(quick, values_only)] = "".join(chunks)
    assert written[(True, False)] == written[(False, False)] and written[(True, True)] == written[(False, True)]
    for xml in (written[(True, False)], written[(True, True)]):
        found = re.findall(r'<c r="([BC]\d+)">(?:<f>[^<]*</f>)?<v>([^<]*)</v></c>', xml)
        assert len(found) == 2 * len(values)
        for address, text in found:
            assert _same_double(text, grid.get(*cell_position(address))), (address, text)
    assert any("e-" in text for _, text in found) and any("e+" in text for _, text in found)
    zero = len(values) - 24  # the row of -0.0
    assert f'<c r="B{zero}"><f>A{zero}*1</f><v>-0.0</v></c>' in written[(True, False)]
    writer.write_xlsx(evaluated, tmp_path / "out.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    for r, value in enumerate(values.tolist(), start=1):
        for col, want in ((2, value * 1), (3, -value)):
            assert _same_double(str(sheet[f"{column_letters(col)}{r}"].value), want), (r, col)


def test_a_small_workbook_is_written_without_importing_orjson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    book = native_book(tmp_path / "book.xlsx")
    monkeypatch.delitem(sys.modules, "orjson", raising=False)
    convert_file(book, tmp_path / "out.xlsx")
    assert "orjson" not in sys.modules


def test_parts_the_output_keeps_unchanged_are_the_sources_own(tmp_path: Path) -> None:
    """Styles, theme, document properties and shared strings are copied as the source packed them
    (deflated once, never inflated and packed again): the same bytes inside, the same CRC-32, and a
    zip every reader takes; the workbook, its relationships and the sheets carry the new values."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["B1"] = 2, "text kept in the shared strings", "=A1*21"
    ws["A1"].font = Font(bold=True)
    wb.save(tmp_path / "in.xlsx")
    convert_file(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    with zipfile.ZipFile(tmp_path / "in.xlsx") as source, zipfile.ZipFile(tmp_path / "out.xlsx") as out:
        assert out.testzip() is None  # every entry inflates to its CRC-32
        kept = [i.filename for i in source.infolist() if i.filename.endswith(".xml") and "worksheets" not in
                i.filename and i.filename not in ("xl/workbook.xml", "[Content_Types].xml")]
        assert {"xl/styles.xml", "xl/theme/theme1.xml", "docProps/core.xml"} <= set(kept)
        for name in kept:
            assert out.read(name) == source.read(name), name
            assert out.getinfo(name).CRC == source.getinfo(name).CRC
    assert openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active["B1"].value == 42
