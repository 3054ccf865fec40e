"""The engine reads each worksheet once: the pass that reads its cells stands for the package scan
(xlrating.gate.part_quick), and wherever that pass cannot prove a rule the full scan runs.
Whatever the path, ``xlrating convert`` must refuse exactly what every other reader refuses, with
the same message, and accept the rest."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from package_bytes import SHEET, SHEET_OPEN, rezip, sheet_xml

from xlrating.engine.read.package import read_package as engine_read
from xlrating.engine.read.sheet_cells import SheetCells
from xlrating.gate import package_guard, part_quick
from xlrating.gate.limits import Limits
from xlrating.gate.part_quick import SheetFacts
from xlrating.gate.part_scan import WorkbookScan
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.gate.safe_open import read_package as full_scan

SMALL = Limits(max_rows=50, max_columns=10, max_cells=100, max_records=40)
ROW = '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>A1*2</f><v>2</v></c></row>'


def _two_sheets() -> bytes:
    book = openpyxl.Workbook()
    book.active.title = "First"
    book.create_sheet("Second")
    for sheet in book.worksheets:
        sheet["A1"] = 1
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


BASE = _two_sheets()
SECOND = "xl/worksheets/sheet2.xml"


def _grid(rows: int, columns: int) -> str:
    letters = "ABCDEFGHIJ"
    return "".join(f'<row r="{r}">' + "".join(f'<c r="{letters[c]}{r}"><v>{r}</v></c>' for c in range(columns))
                   + "</row>" for r in range(1, rows + 1))


def _whole(xml: str) -> bytes:
    return f"{SHEET_OPEN}{xml}</worksheet>".encode()


SHEETS: dict[str, bytes] = {
    "plain numbers and formulas": sheet_xml(ROW),
    "Excel's layout (styles, shared formulas, text results)": sheet_xml(
        '<row r="1" spans="1:3" x14ac:dyDescent="0.25"><c r="A1" s="1"><v>1</v></c>'
        '<c r="B1" s="2"><f t="shared" ref="B1:B2" si="0">A1*2</f><v>2</v></c>'
        '<c r="C1" t="str"><f>"x"&amp;A1</f><v>x1</v></c></row>'
        '<row r="2"><c r="A2"><v>3</v></c><c r="B2" s="2"><f t="shared" si="0"/><v>6</v></c></row>'
    ).replace(b'xmlns="http', b'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" '
                               b'xmlns="http'),
    "a style index not a number": sheet_xml('<row r="1"><c r="A1" s="A7"><v>1</v></c></row>'),
    "a style index after another attribute": sheet_xml('<row r="1"><c r="A1" t="n" s="x"><v>1</v></c></row>'),
    "an unknown cell type": sheet_xml('<row r="1"><c r="A1" t="zz"><v>1</v></c></row>'),
    "a formula type as a cell type": sheet_xml('<row r="1"><c r="A1" t="shared"><v>1</v></c></row>'),
    "a cell reference backwards": sheet_xml('<row r="1"><c r="1A"><v>1</v></c></row>'),
    "a row numbered 0": sheet_xml('<row r="0"><c r="A1"><v>1</v></c></row>'),
    "a cell in row 0": sheet_xml('<row r="1"><c r="A0"><v>1</v></c></row>'),
    "an empty cell in row 0": sheet_xml('<row r="1"><c r="A0" s="1"/><c r="A1"><v>1</v></c></row>'),
    "a number with a comma": sheet_xml('<row r="1"><c r="A1"><v>12,5</v></c></row>'),
    "a number that is infinite": sheet_xml('<row r="1"><c r="A1"><v>inf</v></c></row>'),
    "a styled number that is infinite": sheet_xml('<row r="1"><c r="A1" s="1" t="b"><v>1</v></c>'
                                                  '<c r="B1" s="1"><v>inf</v></c></row>'),
    "a missing shared string": sheet_xml('<row r="1"><c r="A1" t="s"><v>99</v></c></row>'),
    "a negative shared string index": sheet_xml('<row r="1"><c r="A1" s="1" t="s"><v>-1</v></c></row>'),
    "a boolean written true": sheet_xml('<row r="1"><c r="A1" t="b"><v>true</v></c></row>'),
    "a date that is not one": sheet_xml('<row r="1"><c r="A1" t="d"><v>yesterday</v></c></row>'),
    "a date": sheet_xml('<row r="1"><c r="A1" t="d"><v>2024-05-01T00:00:00</v></c></row>'),
    "a row beyond the limit": sheet_xml('<row r="51"><c r="A51"><v>1</v></c></row>'),
    "an empty row beyond the limit": sheet_xml(ROW + '<row r="60"/>'),
    "a column beyond the limit": sheet_xml('<row r="1"><c r="K1"><v>1</v></c></row>'),
    "an empty styled cell beyond the limit": sheet_xml('<row r="1"><c r="Z1" s="1"/></row>'),
    "a used range beyond the limit": sheet_xml(ROW, dimension="A1:A99"),
    "cells over the limit": sheet_xml(_grid(11, 10)),
    "cells at the limit less the other sheet's": sheet_xml(_grid(10, 10)),
    "records over the limit": _whole("<cols>" + '<col min="1" max="1" width="9"/>' * 41 + "</cols><sheetData/>"),
    "a merged range over the limit": _whole("<sheetData/><mergeCells><mergeCell ref=\"A1:J11\"/></mergeCells>"),
    "a merged range within it": _whole("<sheetData/><mergeCells><mergeCell ref=\"A1:B2\"/></mergeCells>"),
    "a hyperlink beyond reach": _whole('<sheetData/><hyperlinks><hyperlink ref="A70" r:id="rId1" '
                                       'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
                                       '/></hyperlinks>'),
    "a DTD": b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "b">]>' + sheet_xml(ROW)[55:],
    "a comment": sheet_xml(ROW + "<!-- a note -->"),
    "a tab inside a tag": sheet_xml('<row r="1"><c\tr="A1" s="A7"><v>1</v></c></row>'),
    "line breaks between cells": sheet_xml('<row r="1">\n<c r="A1"><v>1</v></c>\n<c r="B1" t="str"><v>x</v></c></row>'),
    "UTF-16": sheet_xml(ROW).decode().replace("UTF-8", "UTF-16").encode("utf-16"),
    "prefixed elements": sheet_xml(ROW).replace(b"<row", b"<x:row").replace(b"</row", b"</x:row").replace(
        b"<c ", b"<x:c ").replace(b"</c>", b"</x:c>").replace(
        b'xmlns="http', b'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns="http'),
    "not well-formed": sheet_xml('<row r="1"><c r="A1"><v>1</v></row>'),
    "a cell without its address": sheet_xml('<row r="1"><c><v>1</v></c><c s="Q"><v>2</v></c></row>'),
    "a row number written 7.0": sheet_xml('<row r="7.0"><c r="A7"><v>1</v></c></row>'),
}


def _outcome(read: object, path: Path) -> str:
    try:
        read(path)  # type: ignore[operator]
    except UnreadableWorkbook as refused:
        return refused.reason
    return "accepted"


# A cell whose value its type cannot hold: the other readers refuse the file (openpyxl cannot read
# it); convert reads the cell as LibreOffice does and names it, the rest of the workbook computes
# (a workbook LibreOffice opens never fails whole). A boolean written "true" is read as TRUE.
READ_AS_DAMAGED = {
    "a number with a comma": "cell A1 holds '12,5' where a number belongs: read as 0",
    "a number that is infinite": "cell A1 holds 'inf' where a number belongs: read as 0",
    "a styled number that is infinite": "cell B1 holds 'inf' where a number belongs: read as 0",
    "a missing shared string": "cell A1 holds '99' where a shared-string index belongs: read as an empty cell",
    "a negative shared string index": "cell A1 holds '-1' where a shared-string index belongs: read as an empty cell",
    "a date that is not one": "cell A1 holds 'yesterday' where an ISO 8601 date belongs: read as an empty cell",
    "a boolean written true": None,
}


@pytest.mark.parametrize("case", [case for case in SHEETS if case not in READ_AS_DAMAGED])
def test_convert_refuses_what_the_package_scan_refuses_with_the_same_message(case: str, tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS[case]}))
    scan = _outcome(lambda p: full_scan(p, SMALL), path)
    assert _outcome(lambda p: engine_read(str(p), limits=SMALL), path) == scan


@pytest.mark.parametrize("case", READ_AS_DAMAGED)
def test_convert_reads_a_damaged_cell_the_package_scan_refuses_and_names_it(case: str, tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS[case]}))
    assert _outcome(lambda p: full_scan(p, SMALL), path) != "accepted"
    package = engine_read(str(path), limits=SMALL)
    damaged = [what for sheet in package.sheets for what in sheet.damaged]
    expected = READ_AS_DAMAGED[case]
    assert damaged == ([] if expected is None else [expected])


def test_the_cell_limit_counts_the_cells_of_every_sheet_on_either_path(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: sheet_xml(_grid(6, 10)), SECOND: sheet_xml(_grid(5, 10))}))
    reason = _outcome(lambda p: engine_read(str(p), limits=SMALL), path)
    assert "more than 100 cells" in reason and "'Second'" in reason
    assert reason == _outcome(lambda p: full_scan(p, SMALL), path)


def _full_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    scanned: list[str] = []
    original = package_guard.PackageCheck.scan_part

    def scan_part(self: package_guard.PackageCheck, name: str) -> None:
        scanned.append(name)
        original(self, name)

    monkeypatch.setattr(package_guard.PackageCheck, "scan_part", scan_part)
    return scanned


@pytest.mark.parametrize("case", ["plain numbers and formulas", "Excel's layout (styles, shared formulas, text results)"])
def test_a_sheet_as_spreadsheet_programs_write_it_is_parsed_once(case: str, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS[case]}))
    scanned = _full_scans(monkeypatch)
    package = engine_read(str(path), limits=SMALL)
    assert scanned == []  # no second parse of either sheet
    first = package.sheets[0]
    assert first.max_row in (1, 2) and first.max_col in (2, 3)


def test_a_sheet_only_the_full_scan_can_judge_is_scanned_then_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS["line breaks between cells"]}))
    scanned = _full_scans(monkeypatch)
    package = engine_read(str(path), limits=SMALL)
    assert scanned == [SHEET]
    assert _cells(package.sheets[0]) == [(1, 1, 1.0), (1, 2, "x")]


def test_a_sheet_in_another_encoding_is_read_as_declared(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS["UTF-16"]}))
    assert _cells(engine_read(str(path), limits=SMALL).sheets[0]) == [(1, 1, 1.0)]


def _cells(sheet: SheetCells) -> list[tuple[int, int, object]]:
    numbers = zip(*sheet.numbers) if sheet.numbers is not None else ()
    texts = zip(*sheet.texts) if sheet.texts is not None else ()
    return sorted([(int(r), int(c), float(v)) for r, c, v in numbers] + [(int(r), int(c), v) for r, c, v in texts]
                  + sheet.values)


def test_a_worksheet_part_no_sheet_names_is_still_scanned(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    orphan = "xl/worksheets/sheet9.xml"
    path.write_bytes(rezip(BASE, add={orphan: SHEETS["a style index not a number"]}))
    reason = _outcome(lambda p: engine_read(str(p), limits=SMALL), path)
    assert orphan in reason and "s='A7'" in reason


def test_the_bytes_read_are_the_bytes_checked(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: sheet_xml(ROW)}))
    package = engine_read(str(path), limits=SMALL)
    with zipfile.ZipFile(io.BytesIO(package.data)) as archive:
        assert archive.read(SHEET) == sheet_xml(ROW)
    assert package.data == path.read_bytes()


# -- before_read's sweep finds what the expressions it stands for find, anywhere in the part

_ROW_NUMBER = re.compile(rb'<row r="([0-9]{1,9})"')
_TYPE = re.compile(rb' t="([^"]*)"')
_RECORD = re.compile(rb"<(?:dataValidation|cfRule|col)[ />]")
_PREFIXED = re.compile(rb":(?:c|row|mergeCell|hyperlink|dataValidation|cfRule|col|dimension|sheetData)[ />]")


def _by_expressions(raw: bytes, limits: Limits = SMALL) -> SheetFacts | None:
    """before_read as first written, one expression (or bytes search) per rule."""
    body = part_quick.utf8_body(raw, b"worksheet")
    if body is None or _PREFIXED.search(raw) or raw[body - 1:body] not in (b" ", b">"):
        return None
    if any(raw.find(byte, body) >= 0 for byte in (b"\n", b"\r", b"\t")):
        return None
    if any(text in raw for text in (b"<mergeCell", b"<hyperlink", b"<c>", b"<c/>")):
        return None
    rows = _ROW_NUMBER.findall(raw)
    if (len(rows) != raw.count(b"<row ") + raw.count(b"<row>") + raw.count(b"<row/>")
            or re.search(rb'<row r="0+"', raw) or re.search(rb' s="(?:[0-9]*[^0-9"]|")', raw)
            or not set(_TYPE.findall(raw)) <= part_quick._TYPES):
        return None
    cells, records, highest = raw.count(b"<c "), len(_RECORD.findall(raw)), max(map(int, rows), default=0)
    dimension = part_quick._DIMENSION.search(raw)
    if (cells > limits.max_cells or records > limits.max_records or highest > limits.max_rows
            or dimension is not None and (int(dimension.group(2)) > limits.max_rows
                                          or part_quick._column(dimension.group(1)) > limits.max_columns)):
        return None
    return SheetFacts(cells, records, highest)


def _before_read(raw: bytes, limits: Limits = SMALL) -> SheetFacts | None:
    return part_quick.before_read(WorkbookScan(limits), SHEET, raw)


PIECES = {  # each added to a plain sheet, in its data and after it, and cut at its end
    "a comment": "<!-- a note -->",
    "a bare <!": "<!",
    "a cell written <c>": "<c><v>1</v></c>",
    "an empty cell written <c/>": "<c/>",
    "an empty cell with its address": '<c r="C1"/>',
    "a prefixed cell": '<x:c r="D1"/>',
    "a prefix in a text": '<c r="D1" t="inlineStr"><is><t>x:c y</t></is></c>',
    "a row prefix in a text": '<c r="D1" t="inlineStr"><is><t>a:row/b</t></is></c>',
    "Excel's row attribute": '<x14ac:dyDescent/>',
    "a merged range": '<mergeCells><mergeCell ref="A1:B2"/></mergeCells>',
    "a hyperlink": '<hyperlinks/>',
    "a row without a number": "<row><c r=\"A2\"><v>1</v></c></row>",
    "an empty row": "<row/>",
    "a row numbered 0": '<row r="0"/>',
    "a row numbered 000": '<row r="000"/>',
    "a row number of ten digits": '<row r="1234567890"/>',
    "a row number of nine digits": '<row r="000000009"/>',
    "a row number with leading zeros": '<row r="007" spans="1:2"/>',
    "a row number with a letter": '<row r="7a"/>',
    "a row number in single quotes": "<row r='7'/>",
    "a row with two spaces": '<row  r="7"/>',
    "a row without its r first": '<row spans="1:2" r="7"/>',
    "a style of many digits": '<c r="E1" s="0000000000000000000001"/>',
    "a style of many digits then a letter": '<c r="E1" s="000000000000000000000x"/>',
    "an empty style": '<c r="E1" s=""/>',
    "a style with a letter": '<c r="E1" s="1x"/>',
    "a style negative": '<c r="E1" s="-1"/>',
    "a type of every kind": "".join(f'<c r="F{n}" s="1" t="{t.decode()}"/>'
                                    for n, t in enumerate(sorted(part_quick._TYPES), 1)),
    "an empty type": '<c r="F1" t=""/>',
    "a type one letter short": '<c r="F1" t="inlineSt"/>',
    "a type one letter long": '<c r="F1" t="inlineStrs"/>',
    "a type in capitals": '<c r="F1" t="S"/>',
    "a type of ten letters": '<c r="F1" t="abcdefghij"/>',
    "a type holding a t attribute": '<c r="F1" t="x t="/>',
    "records of each kind": '<cols><col min="1"/><col>x</col></cols><cfRule type="x"><cfRule/>'
                            '<dataValidations count="1"><dataValidation sqref="A1"/></dataValidations>',
    "names that are not records": "<colBreaks/><cfRules/><dataValidations/><collection/>",
    "a second used range (the first counts)": '<dimension ref="A1:B99"/><dimension ref="A1:K2"/>',
    "a used range not read as one": '<dimension ref="AAAA1"/>',
    "a tab in a text": '<c r="G1" t="inlineStr"><is><t>a\tb</t></is></c>',
    "a line break in a text": '<c r="G1" t="inlineStr"><is><t>a\nb</t></is></c>',
}


@pytest.mark.parametrize("piece", PIECES)
@pytest.mark.parametrize("sweep", [(1 << 20, 1 << 16, 0), (5, 1, 0), (64, 3, 0), None],
                         ids=["swept", "swept 5 bytes at a time", "swept 64 bytes at a time", "small part"])
def test_the_sweep_finds_what_the_expressions_find(piece: str, sweep: tuple[int, int, int] | None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if sweep is not None:  # else a part this small is read by the expressions
        for name, value in zip(("_CHUNK", "_BATCH", "_SWEPT"), sweep, strict=True):
            monkeypatch.setattr(part_quick, name, value)
    text = PIECES[piece]
    whole = sheet_xml(ROW.replace("</row>", text + "</row>"))
    parts = [whole, whole.replace(b'<dimension ref="A1"/>', b""), sheet_xml(ROW)[:-len("</worksheet>")] + text.encode() + b"</worksheet>",
             sheet_xml(ROW)[:-len("</sheetData></worksheet>")] + text.encode()]
    parts += [parts[-1][:-cut] for cut in range(1, min(len(text), 12))]  # the part ends inside the piece
    for raw in parts:
        assert _before_read(raw) == _by_expressions(raw), raw[-120:]


@pytest.fixture(params=["swept", "small part"])
def either_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """before_read sweeps the part in numpy, or (a small part, as by default here) runs the expressions."""
    if request.param == "swept":
        monkeypatch.setattr(part_quick, "_SWEPT", 0)


@pytest.mark.usefixtures("either_path")
def test_every_cell_record_and_row_is_counted_exactly() -> None:
    rows = "".join(f'<row r="{r}" spans="1:3">' + "".join(f'<c r="{c}{r}" s="{r % 7}"><v>{r}</v></c>' for c in "ABC")
                   + "</row>" for r in range(1, 41))
    raw = sheet_xml(rows + '<row r="45"/>', dimension="A1:C45").replace(
        b"<sheetData>", b'<cols><col min="1"/><col min="2"/></cols><sheetData>').replace(
        b"</worksheet>", b'<conditionalFormatting><cfRule type="x"/></conditionalFormatting></worksheet>')
    at_the_limits = Limits(max_rows=45, max_columns=3, max_cells=120, max_records=3)
    assert _before_read(raw, at_the_limits) == SheetFacts(cells=120, records=3, rows=45)
    for over in ({"max_cells": 119}, {"max_records": 2}, {"max_rows": 44}, {"max_columns": 2}):
        assert _before_read(raw, dataclasses.replace(at_the_limits, **over)) is None


@pytest.mark.usefixtures("either_path")
def test_the_cells_and_records_of_the_other_parts_count() -> None:
    raw = sheet_xml(_grid(5, 10))
    scan = WorkbookScan(SMALL)
    scan.cells, scan.records = 50, 40
    assert part_quick.before_read(scan, SHEET, raw) == SheetFacts(cells=50, records=0, rows=5)
    scan.cells = 51
    assert part_quick.before_read(scan, SHEET, raw) is None
    scan.cells, scan.records = 0, 41
    assert part_quick.before_read(scan, SHEET, raw) is None


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("piece", ["<!-- x -->", "<c>", "<c/>", "<mergeCell", "<hyperlink", "a:row>", "<row>"])
def test_a_piece_at_the_very_end_or_the_very_start_of_the_data_is_seen(piece: str) -> None:
    plain = sheet_xml(ROW)
    assert _before_read(plain) == SheetFacts(cells=2, records=0, rows=1)
    assert _before_read(plain + piece.encode()) is None
    assert _before_read(plain.replace(b"<sheetData>", b"<sheetData>" + piece.encode())) is None


@pytest.mark.usefixtures("either_path")
def test_line_breaks_before_the_root_are_those_of_the_declaration() -> None:
    raw = sheet_xml(ROW)
    assert _before_read(raw.replace(b"?><worksheet", b"?>\r\n<worksheet")) == SheetFacts(cells=2, records=0, rows=1)
    assert _before_read(raw.replace(b"?><worksheet", b"?><worksheet\n", 1)) is None
    assert _before_read(raw + b"\n") is None


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("name", ["c", "row", "mergeCell", "hyperlink", "dataValidation", "cfRule", "col", "dimension",
                                  "sheetData", "cols", "rows"])
@pytest.mark.parametrize("end", [" ", "/", ">", "s"])
def test_a_prefixed_element_among_many_colons_is_seen(name: str, end: str) -> None:
    ranges = "".join(f'<c r="B{r}"><f>SUM(A1:A{r})</f><v>1</v></c>' for r in range(1, 200))  # a colon each
    raw = sheet_xml(f'<row r="1">{ranges}<x:{name}{end}/></row>')
    assert _before_read(raw, Limits()) == _by_expressions(raw, Limits())
    assert (_before_read(raw, Limits()) is None) == (end != "s" and name not in ("cols", "rows"))
