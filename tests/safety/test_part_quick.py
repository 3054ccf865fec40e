"""The engine reads each worksheet once: the pass that reads its cells stands for the package scan
(xlrating.sheets.part_quick), and wherever that pass cannot prove a rule the full scan runs.
Whatever the path, ``xlrating convert`` must refuse exactly what every other reader refuses, with
the same message, and accept the rest."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from package_bytes import SHEET, SHEET_OPEN, rezip, sheet_xml

from xlrating.engine.package import SheetCells
from xlrating.engine.package import read_package as engine_read
from xlrating.sheets import package_guard
from xlrating.sheets.limits import Limits
from xlrating.sheets.safe_open import UnreadableWorkbook
from xlrating.sheets.safe_open import read_package as full_scan

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


@pytest.mark.parametrize("case", SHEETS)
def test_convert_refuses_what_the_package_scan_refuses_with_the_same_message(case: str, tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    path.write_bytes(rezip(BASE, replace={SHEET: SHEETS[case]}))
    scan = _outcome(lambda p: full_scan(p, SMALL), path)
    assert _outcome(lambda p: engine_read(str(p), limits=SMALL), path) == scan


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
