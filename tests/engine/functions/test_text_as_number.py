"""Text read as a number the same way wherever Excel needs one: VALUE, the arithmetic operators
(``+ - * / ^ %``, the unary minus, ``--``) and a function's number arguments (the engine's own,
ABS and ``formulas``' other functions declared ``"numbers"``, SUM's typed arguments, DATE's), as
Excel documents it for VALUE and for text in formulas ("$1,000", "10%", "(5)", "1 1/2", "12:00",
"6:30 PM", "1/15/2024"); text Excel reads no number in ("1_000", "inf", "0x10", "") is #VALUE!. A
time alone is a fraction of a day, never today's date plus it; a date is a serial of the workbook's
date system; a date typed without its year takes the year of the conversion's clock. Each workbook
is built here and recalculated as ``xlrating convert`` does; real LibreOffice recalculates the same
formulas (its conversion of text depends on its settings: the defaults convert "unambiguous" text).
Where LibreOffice differs from Excel: ``SUM("3",1)`` is #VALUE! there (Excel counts a number typed
as text among SUM's arguments: 4), so that cell is not compared."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from xlrating.engine import evaluate_workbook
from xlrating.engine.libreoffice import convert as lo_convert
from xlrating.engine.libreoffice import make_profile
from xlrating.functions import ExcelError

VALUE = ExcelError("#VALUE!")
TEXTS = ["$1,000", "12:00", "(5)", "1_000"]  # A1:A4, typed as text

# formula -> Excel's value (Microsoft's VALUE page and "Calculation operators and precedence")
CASES: dict[str, object] = {
    '=VALUE("12:00")': 0.5,
    '=VALUE("6:30 PM")': 18.5 / 24,
    '=VALUE("$1,000")': 1000.0,
    '=VALUE("1 1/2")': 1.5,
    '=VALUE("2024-01-15")': 45306.0,
    '=VALUE("1_000")': VALUE,
    '=VALUE("inf")': VALUE,
    '="12:00"*1': 0.5,
    '="$1,000"*1': 1000.0,
    '="(5)"+0': -5.0,
    '="10%"*2': 0.2,
    '="1 1/2"+0': 1.5,
    '="1/15/2024"-"1/1/2024"': 14.0,
    '=-"$5"': -5.0,
    '="12:00"^1': 0.5,
    '=--"10%"': 0.1,
    '="5$"/2': 2.5,
    '="  7 "+0': 7.0,
    '="1e3"+0': 1000.0,
    '="15-Jan-2024"+0': 45306.0,
    '="January 15, 2024"+0': 45306.0,
    '="1/15/2024 6:30 PM"+0': 45306 + 18.5 / 24,
    '="12:00:30.5"+0': (43200 + 30.5) / 86400,
    "=A1*1": 1000.0,
    "=A2+A3": -4.5,
    "=A4+0": VALUE,
    '=""+1': VALUE,
    '="0x10"+0': VALUE,
    '="1,00"+0': VALUE,
    '="inf"%': VALUE,
    '=ABS("-$2")': 2.0,
    "=ABS(A3)": 5.0,
    '=SQRT("$4")': 2.0,
    '=ROUND("$1,234.567",1)': 1234.6,
    '=DATE("2024",1,1)': 45292.0,
    '=DATE("1_000",1,1)': VALUE,
    '=DOLLAR("$1.00")': "$1.00",
    '="a"+NA()': ExcelError("#N/A"),
    '=SUM("3",1)': 4.0,
}
LIBREOFFICE_DIFFERS = {'=SUM("3",1)'}  # LibreOffice: #VALUE!


def _book(path: Path, formulas: list[str], mac: bool = False) -> Path:
    wb = openpyxl.Workbook()
    if mac:
        wb.epoch = CALENDAR_MAC_1904  # <workbookPr date1904="1"/>
    sheet = wb.active
    for row, text in enumerate(TEXTS, start=1):
        sheet.cell(row, 1, text)
    for row, formula in enumerate(formulas, start=1):
        sheet.cell(row, 3, formula)
    wb.save(path)
    return path


def _ours(path: Path, count: int, now: dt.datetime | None = None) -> list[object]:
    sheet = evaluate_workbook(str(path), now=now).grid.sheet("Sheet")
    assert sheet is not None
    return [sheet.get(row, 3) for row in range(1, count + 1)]


def _same(got: object, expected: object) -> bool:
    if isinstance(expected, float) and isinstance(got, (int, float)):
        return got == pytest.approx(expected, rel=1e-14)
    return got == expected


def test_values_operators_and_number_arguments_read_text_as_excel_does(tmp_path: Path) -> None:
    formulas = list(CASES)
    got = _ours(_book(tmp_path / "book.xlsx", formulas), len(formulas))
    wrong = {f: (g, CASES[f]) for f, g in zip(formulas, got, strict=True) if not _same(g, CASES[f])}
    assert wrong == {}


def test_a_date_typed_as_text_is_a_serial_of_the_workbooks_date_system(tmp_path: Path) -> None:
    formulas = ['="2024-01-15"+0', '=VALUE("1/15/2024 12:00")', '="12:00"*1', '=ABS("1/1/1904")', '=VALUE("12/31/1903")']
    got = _ours(_book(tmp_path / "mac.xlsx", formulas, mac=True), len(formulas))
    assert got == [45306.0 - 1462, 45306.5 - 1462, 0.5, 0.0, VALUE]


def test_a_date_typed_without_its_year_takes_the_year_of_the_conversions_clock(tmp_path: Path) -> None:
    formulas = ['="1/15"+0', '=VALUE("Jan 15")', '="12:00"+0']
    got = _ours(_book(tmp_path / "book.xlsx", formulas), len(formulas), now=dt.datetime(2030, 6, 1, 9, 0))
    assert got == [47498.0, 47498.0, 0.5]  # 15 January 2030; a time alone is no date at all


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_reads_the_same_texts_as_numbers(tmp_path: Path) -> None:
    formulas = [f for f in CASES if f not in LIBREOFFICE_DIFFERS]
    book = _book(tmp_path / "book.xlsx", formulas)
    recalculated = lo_convert(book, tmp_path / "lo", make_profile(tmp_path / "profile"))
    sheet = openpyxl.load_workbook(recalculated, data_only=True)["Sheet"]
    theirs: dict[str, object] = {}
    for row, formula in enumerate(formulas, start=1):
        value = sheet.cell(row, 3).value
        if isinstance(value, dt.datetime):  # LibreOffice formats DATE's result as a date
            value = float((value - dt.datetime(1899, 12, 30)).days)
        theirs[formula] = ExcelError(value) if isinstance(value, str) and value.startswith("#") else value
    ours = dict(zip(formulas, _ours(book, len(formulas)), strict=True))
    differing = {f: (ours[f], theirs[f]) for f in formulas if not _same(theirs[f], ours[f])}
    assert differing == {}


def test_a_filled_down_column_reads_its_text_cells_as_the_operators_and_functions_do(tmp_path: Path) -> None:
    # the vectorised path computes the rows of numbers, the rows of text go cell by cell: the same reading
    column = [1, "$2", " 4 ", "12:00", "x", None, "1,000", -5, "(6)", "1_000"] * 4
    wb = openpyxl.Workbook()
    sheet = wb.active
    for row, value in enumerate(column, start=1):
        sheet.cell(row, 1, value)
        sheet.cell(row, 2, f"=ABS(A{row})")
        sheet.cell(row, 3, f"=A{row}*2")
        sheet.cell(row, 4, f"=VALUE(A{row})")
    wb.save(tmp_path / "column.xlsx")
    grid = evaluate_workbook(str(tmp_path / "column.xlsx")).grid.sheet("Sheet")
    assert grid is not None
    read = {1: 1.0, "$2": 2.0, " 4 ": 4.0, "12:00": 0.5, None: 0.0, "1,000": 1000.0, -5: -5.0, "(6)": -6.0}
    for row, value in enumerate(column, start=1):
        number = read.get(value)
        if number is None:  # "x", "1_000": no number
            assert [grid.get(row, col) for col in (2, 3, 4)] == [VALUE] * 3
        else:
            assert [grid.get(row, col) for col in (2, 3, 4)] == [abs(number), number * 2, number], value


@pytest.mark.parametrize("systems", [(False, True), (True, False)])
def test_dates_typed_in_datedif_and_in_criteria_are_days_of_each_workbooks_date_system(
        tmp_path: Path, systems: tuple[bool, bool]) -> None:
    # one workbook after the other in the same process: a criterion's date is not remembered across systems
    for index, mac in enumerate(systems):
        wb = openpyxl.Workbook()
        if mac:
            wb.epoch = CALENDAR_MAC_1904
        sheet = wb.active
        sheet["B1"] = 45306 - (1462 if mac else 0)  # 15 January 2024 as a number
        sheet["B2"] = "2024-01-15"  # and typed as text
        sheet["A1"] = '=DATEDIF("2024-01-15","3/1/2024","d")'
        sheet["A2"] = '=DATEDIF(B1,"3/1/2024","D")'
        sheet["A3"] = '=COUNTIF(B1:B2,">=1/15/2024")'  # the number only: a text is no date to >=
        sheet["A4"] = '=COUNTIF(B1:B2,"1/15/2024")'  # the number and the text that reads as that date
        sheet["A5"] = '=DATEDIF("1_000",1,"d")'
        path = tmp_path / f"book{index}.xlsx"
        wb.save(path)
        assert _ours_column(path, 1, 5) == [46.0, 46.0, 1.0, 2.0, VALUE], mac


def _ours_column(path: Path, column: int, count: int) -> list[object]:
    sheet = evaluate_workbook(str(path)).grid.sheet("Sheet")
    assert sheet is not None
    return [sheet.get(row, column) for row in range(1, count + 1)]
