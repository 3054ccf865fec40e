"""A damaged sheet is refused with a sentence naming it, never a traceback; a bug of ours is never
mistaken for "openpyxl changed" and hidden behind the fallback reader."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlrating.gate import safe_open
from xlrating.gate.package_guard import PackageReport
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.read import xlsx as reader

SHEET = "xl/worksheets/sheet1.xml"


def workbook_with_sheet_xml(tmp_path: Path, edit) -> Path:
    """A one-sheet workbook ('Results', A1:A3 = 1, 2, 3) whose sheet XML went through ``edit``."""
    book = openpyxl.Workbook()
    book.active.title = "Results"
    for row in (1, 2, 3):
        book.active.cell(row, 1, row)
    buffer = io.BytesIO()
    book.save(buffer)
    path = tmp_path / "damaged.xlsx"
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info.filename, edit(data.decode()).encode() if info.filename == SHEET else data)
    return path


def row_zero(xml: str) -> str:
    return xml.replace('<row r="1"', '<row r="0"', 1).replace('<c r="A1"', '<c r="A0"', 1)


@pytest.fixture
def no_package_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let every package through, to test the reader's own defences behind the package check."""
    monkeypatch.setattr(safe_open, "check_package", lambda data, limits: PackageReport())


def test_a_row_numbered_zero_is_refused_by_the_package_check_naming_sheet_and_row(tmp_path):
    with pytest.raises(UnreadableWorkbook, match=r"sheet 'Results' .* is damaged: a <row> element .* r='0'"):
        reader.read_workbook(workbook_with_sheet_xml(tmp_path, row_zero))


def test_a_cell_reference_in_row_zero_is_refused_by_the_package_check_naming_the_cell(tmp_path):
    path = workbook_with_sheet_xml(tmp_path, lambda xml: xml.replace('<c r="A2"', '<c r="A0"', 1))
    with pytest.raises(UnreadableWorkbook, match=r"sheet 'Results' .* is damaged: a <c> element in row 2 has r='A0'"):
        reader.read_workbook(path)


def test_behind_the_package_check_a_row_zero_is_still_unreadable_not_an_index_error(tmp_path, no_package_check):
    with pytest.raises(UnreadableWorkbook, match="sheet 'Results' is damaged: a row is numbered 0"):
        reader.read_workbook(workbook_with_sheet_xml(tmp_path, row_zero))


def test_an_error_raised_by_openpyxl_while_a_sheet_streams_is_unreadable(tmp_path, no_package_check):
    # openpyxl int()s the style index while streaming: a ValueError from inside openpyxl.
    path = workbook_with_sheet_xml(tmp_path, lambda xml: xml.replace('<c r="A2"', '<c r="A2" s="x7"', 1))
    with pytest.raises(UnreadableWorkbook, match=r"damaged\.xlsx: damaged worksheet content \(ValueError"):
        reader.read_workbook(path)


def test_a_bug_in_our_parsing_propagates_instead_of_falling_back_to_the_public_api(tmp_path, monkeypatch):
    class BuggyParser(reader._value_and_formula_parser()):  # type: ignore[misc]
        def parse_cell(self, element):
            raise TypeError("a bug of ours")

    monkeypatch.setattr(reader, "_value_and_formula_parser", lambda: BuggyParser)
    with pytest.raises(TypeError, match="a bug of ours"):
        reader.read_workbook(workbook_with_sheet_xml(tmp_path, lambda xml: xml))


def test_without_openpyxl_internals_the_public_api_reads_the_same_values(tmp_path, monkeypatch):
    path = workbook_with_sheet_xml(tmp_path, lambda xml: xml)
    monkeypatch.setattr(reader, "_value_and_formula_parser", lambda: None)
    [grid] = reader.read_workbook(path)
    assert (grid.name, [row[:1] for row in grid.rows]) == ("Results", [[1], [2], [3]])
