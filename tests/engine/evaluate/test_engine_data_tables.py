"""Data tables (What-If Analysis > Data Table): each cell the table's formula recomputed with its
input cell(s) holding the row's or column's value, through the formulas between them; the inputs
as they were afterwards; what reads the table computed after it; the output keeps the table and
stores its values. The workbook is written by openpyxl and given the ``<f t="dataTable" ...>``
elements Excel writes (ECMA-376 Part 1, 18.3.1.40), the table's cells holding a stale 0."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import convert_file, evaluate_workbook
from xlrating.engine.read.grid import NotComputed, Sheet
from xlrating.excel_errors import ExcelError

RATES, YEARS = [0.01, 0.02, 0.03], [1, 2, 3]
TABLES = {  # first cell -> the attributes Excel writes
    "C6": 'ref="C6:E8" dt2D="1" dtr="1" r1="A1" r2="A2"',  # two variables: rate along the row, years down
    "G6": 'ref="G6:H8" dt2D="0" dtr="0" r1="A1"',  # one variable down a column, two formulas
    "K11": 'ref="K11:M11" dt2D="0" dtr="1" r1="A2"',  # one variable along a row
    "P6": 'ref="P6:P7" dt2D="0" dtr="0" r1="A1"',  # its formula reads through OFFSET
}


def _book(path: Path, tables: dict[str, str] = TABLES) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "What if"
    sheet["A1"], sheet["A2"], sheet["A3"], sheet["A4"] = 0.05, 10, 1000, "=A1*2"  # rate, years, amount, doubled
    sheet["B5"] = "=A3*(1+A4)^A2"
    for j, rate in enumerate(RATES):
        sheet.cell(5, 3 + j, rate)
    for i, years in enumerate(YEARS):
        sheet.cell(6 + i, 2, years)
    sheet["G5"], sheet["H5"] = "=A3*A4", "=A4+A2"
    for i, rate in enumerate([0.1, 0.2, 0.3]):
        sheet.cell(6 + i, 6, rate)
    sheet["J11"] = "=A3*A2+A4"
    for j, years in enumerate(YEARS):
        sheet.cell(10, 11 + j, years)
    sheet["P5"] = "=OFFSET(A1,0,0)*2"
    sheet["O6"], sheet["O7"] = 0.5, 0.6
    for row, col in [(r, c) for r in range(6, 9) for c in range(3, 6)] + [(r, c) for r in range(6, 9) for c in (7, 8)] + \
            [(11, c) for c in range(11, 14)] + [(6, 16), (7, 16)]:
        sheet.cell(row, col, 0)
    sheet["N1"] = "=SUM(C6:E8)"  # reads the table
    sheet["N2"] = "=C6+1"
    book.save(path)
    patched = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(patched, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                xml = data.decode()
                for cell, attributes in tables.items():
                    xml, count = re.subn(rf'<c r="{cell}"([^>]*)><v>0</v></c>',
                                         rf'<c r="{cell}"\1><f t="dataTable" {attributes}/><v>0</v></c>', xml)
                    assert count == 1
                data = xml.encode()
            target.writestr(item, data)
    shutil.move(patched, path)
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _book(tmp_path_factory.mktemp("data_tables") / "what_if.xlsx")


@pytest.fixture(scope="module")
def evaluated(book: Path) -> tuple[Sheet, list[str]]:
    result = evaluate_workbook(str(book))
    return result.grid.order[0], result.warnings


def test_two_variables(evaluated: tuple[Sheet, list[str]]) -> None:
    sheet, _ = evaluated
    for i, years in enumerate(YEARS):
        for j, rate in enumerate(RATES):
            assert sheet.get(6 + i, 3 + j) == pytest.approx(1000 * (1 + 2 * rate) ** years, rel=1e-12)


def test_one_variable_in_a_column_and_in_a_row(evaluated: tuple[Sheet, list[str]]) -> None:
    sheet, _ = evaluated
    for i, rate in enumerate([0.1, 0.2, 0.3]):
        assert sheet.get(6 + i, 7) == pytest.approx(1000 * 2 * rate)  # =A3*A4, A4 =A1*2 computed again
        assert sheet.get(6 + i, 8) == pytest.approx(2 * rate + 10)
    assert [sheet.get(11, c) for c in range(11, 14)] == pytest.approx([1000 * y + 0.1 for y in YEARS])


def test_inputs_and_formulas_keep_their_own_values(evaluated: tuple[Sheet, list[str]]) -> None:
    sheet, _ = evaluated
    assert [sheet.get(r, 1) for r in range(1, 5)] == [0.05, 10.0, 1000.0, 0.1]
    assert sheet.get(5, 2) == pytest.approx(1000 * 1.1 ** 10)
    assert sheet.get(11, 10) == pytest.approx(10000.1)


def test_what_reads_the_table_reads_its_values(evaluated: tuple[Sheet, list[str]]) -> None:
    sheet, _ = evaluated
    table = sum(1000 * (1 + 2 * rate) ** years for rate in RATES for years in YEARS)
    assert sheet.get(1, 14) == pytest.approx(table, rel=1e-12)
    assert sheet.get(2, 14) == pytest.approx(1021.0)


def test_a_table_through_offset_is_left_to_excel_with_a_warning(evaluated: tuple[Sheet, list[str]]) -> None:
    sheet, warnings = evaluated
    assert isinstance(sheet.get(6, 16), NotComputed)
    assert [w for w in warnings if "data table" in w] == [
        "What if!P6: a data table (What-If analysis) the engine cannot compute as Excel would"]


def test_the_output_keeps_the_table_and_stores_its_values(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    convert_file(str(book), str(out))
    with zipfile.ZipFile(out) as package:
        xml = package.read("xl/worksheets/sheet1.xml").decode()
    assert '<f t="dataTable" ref="C6:E8" dt2D="1" dtr="1" r1="A1" r2="A2"/><v>1020</v>' in xml
    values = openpyxl.load_workbook(out, data_only=True)["What if"]
    assert values["E8"].value == pytest.approx(1000 * 1.06 ** 3)
    assert values["M11"].value == pytest.approx(3000.1)


def test_a_table_whose_input_cell_was_deleted_is_ref_in_every_cell(tmp_path: Path) -> None:
    # Excel marks the table del1="1" (del2="1": the second input of a two-variable table) and shows
    # #REF! in each of its cells (ClosedXML's DataTableFormula-Excel-Input.xlsx, saved by Excel)
    deleted = {**TABLES, "C6": 'ref="C6:E8" dt2D="1" dtr="1" del2="1" r1="A1" r2="A2"',
               "G6": 'ref="G6:H8" dt2D="0" dtr="0" del1="1" r1="A1"'}
    sheet = evaluate_workbook(str(_book(tmp_path / "deleted.xlsx", deleted))).grid.order[0]
    cells = [(r, c) for r in range(6, 9) for c in range(3, 6)] + [(r, c) for r in range(6, 9) for c in (7, 8)]
    assert {sheet.get(r, c) for r, c in cells} == {ExcelError("#REF!")}
    assert [sheet.get(11, c) for c in range(11, 14)] == pytest.approx([1000 * y + 0.1 for y in YEARS])  # intact
    assert sheet.get(1, 14) == ExcelError("#REF!")  # =SUM(C6:E8) reads the errors
