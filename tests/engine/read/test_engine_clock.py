"""The clock of a conversion: ``xlrating convert --now DATE[THH:MM[:SS]]|saved``.

Excel computes TODAY() and NOW() from the computer's clock when it calculates, and saves those
values: a Gantt chart or a timesheet saved on 23 July 2026 holds 46226 for TODAY(). Without
``--now`` the engine does the same with the computer's clock; ``--now 2026-07-23T18:00`` names the
moment; ``--now saved`` takes each workbook's save time, ``dcterms:modified`` of its core
properties (docProps/core.xml, W3CDTF, UTC). Serial numbers: 23 July 2026 is 46226 in the 1900 date
system (days since 30 December 1899) and 46226 - 1462 = 44764 in the 1904 one; NOW's time of day
is the fraction (18:00 is .75). DATEDIF reads its unit in any case (Microsoft's DATEDIF page:
1 June 2001 to 15 August 2002 is 440 days, 1 year, 14 months, 2 months and 14 days beyond the
months, 75 days beyond the years).
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from xlrating.cli import main
from xlrating.engine import evaluate_workbook
from xlrating.engine.read import clock
from xlrating.engine.read.package import read_package

JULY_23_2026 = 46226  # in the 1900 date system
JULY_23_2026_1904 = JULY_23_2026 - 1462
CORE = "docProps/core.xml"
CORE_PROPERTIES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>someone</dc:creator>
<dcterms:created xsi:type="dcterms:W3CDTF">2026-07-20T15:36:23Z</dcterms:created>{modified}</cp:coreProperties>"""

CLOCK_FORMULAS = {"A1": "=TODAY()", "A2": "=NOW()", "A3": "=YEAR(TODAY())", "A4": "=HOUR(NOW())",
                  "A5": "=MINUTE(NOW())", "A6": "=SECOND(NOW())", "A7": '=TEXT(TODAY(),"yyyy-mm-dd")',
                  "A8": "=TODAY()-DATE(2026,1,1)"}


def _book(path: Path, formulas: dict[str, str], *, mac: bool = False, modified: str | None = "keep",
          core: bool = True) -> Path:
    """A workbook of ``formulas`` on sheet "Clock"; its core properties' dcterms:modified is
    ``modified`` (None: the property left out; "keep": openpyxl's own), or no core part at all."""
    wb = openpyxl.Workbook()
    if mac:
        wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Clock"
    for cell, formula in formulas.items():
        ws[cell] = formula
    wb.save(path)
    if modified != "keep" or not core:
        _rewrite_core(path, None if not core else CORE_PROPERTIES.format(
            modified="" if modified is None else
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{modified}</dcterms:modified>'))
    return path


def _rewrite_core(path: Path, xml: str | None) -> None:
    """The package with its core properties part replaced by ``xml``, or (None) without the part,
    its relationship and its content type."""
    with zipfile.ZipFile(path) as package:
        members = [(info, package.read(info)) for info in package.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for info, data in members:
            if info.filename == CORE:
                if xml is None:
                    continue
                data = xml.encode()
            elif xml is None and info.filename in ("_rels/.rels", "[Content_Types].xml"):
                text = data.decode()
                text = re.sub(r"<Relationship [^>]*core-properties[^>]*/>", "", text)
                text = re.sub(r'<Override [^>]*PartName="/docProps/core.xml"[^>]*/>', "", text)
                data = text.encode()
            package.writestr(info, data)


def _convert(*args: str) -> Any:
    return CliRunner().invoke(main, ["convert", *args])


def _values(path: Path) -> dict[str, Any]:
    ws = openpyxl.load_workbook(path, data_only=True)["Clock"]
    return {cell.coordinate: cell.value for row in ws.iter_rows() for cell in row if cell.value is not None}


def _computed(tmp_path: Path, *options: str, **book: Any) -> tuple[dict[str, Any], Any]:
    source = _book(tmp_path / "in.xlsx", book.pop("formulas", CLOCK_FORMULAS), **book)
    result = _convert(str(source), "-o", str(tmp_path / "out.xlsx"), *options)
    assert result.exit_code == 0, result.output
    return _values(tmp_path / "out.xlsx"), result


def _serial_today() -> int:
    return (dt.date.today() - dt.date(1899, 12, 30)).days


# --- --now DATE and DATE with a time ------------------------------------------------------------

def test_now_a_date_is_that_day_at_midnight(tmp_path: Path) -> None:
    values, _ = _computed(tmp_path, "--now", "2026-07-23")
    assert (values["A1"], values["A2"], values["A3"], values["A4"]) == (JULY_23_2026, JULY_23_2026, 2026, 0)
    assert (values["A7"], values["A8"]) == ("2026-07-23", 203)


def test_now_a_date_and_time_gives_now_its_time_of_day(tmp_path: Path) -> None:
    values, _ = _computed(tmp_path, "--now", "2026-07-23T18:00")
    assert values["A1"] == JULY_23_2026  # TODAY has no time of day
    assert values["A2"] == JULY_23_2026 + 0.75
    seconds, _ = _computed(tmp_path, "--now", "2026-07-23T14:30:05")
    assert (seconds["A1"], seconds["A4"], seconds["A5"], seconds["A6"]) == (JULY_23_2026, 14, 30, 5)


def test_each_workbook_of_one_process_reads_its_own_clock(tmp_path: Path) -> None:
    """A compiled formula is remembered across workbooks: TODAY() must be computed when it runs."""
    path = _book(tmp_path / "a.xlsx", {"A1": "=TODAY()", "A2": "=TODAY()+1"})
    first = evaluate_workbook(str(path), now=dt.datetime(2026, 7, 23))
    second = evaluate_workbook(str(path), now=dt.datetime(2000, 1, 1))
    assert [first.grid.sheet("Clock").get(r, 1) for r in (1, 2)] == [JULY_23_2026, JULY_23_2026 + 1]
    assert [second.grid.sheet("Clock").get(r, 1) for r in (1, 2)] == [36526, 36527]
    assert clock.CLOCK.get() is None  # the clock ends with its workbook


def test_without_now_the_computer_clock_is_used(tmp_path: Path) -> None:
    before = _serial_today()
    values, _ = _computed(tmp_path)
    assert before <= values["A1"] <= _serial_today()
    assert values["A1"] <= values["A2"] < values["A1"] + 1


# --- --now saved ----------------------------------------------------------------------------------

def test_saved_is_the_workbook_save_time_in_utc(tmp_path: Path) -> None:
    values, result = _computed(tmp_path, "--now", "saved", modified="2026-07-23T10:33:41Z")
    assert (values["A1"], values["A3"], values["A7"]) == (JULY_23_2026, 2026, "2026-07-23")
    assert (values["A4"], values["A5"], values["A6"]) == (10, 33, 41)
    assert "warning" not in result.output


def test_saved_with_a_time_zone_is_its_utc_time(tmp_path: Path) -> None:
    values, _ = _computed(tmp_path, "--now", "saved", modified="2026-07-23T23:30:00-02:00")
    assert (values["A1"], values["A4"], values["A5"]) == (JULY_23_2026 + 1, 1, 30)  # 24 July, 01:30 UTC


def test_the_reader_gives_the_save_time_or_why_there_is_none(tmp_path: Path) -> None:
    saved = read_package(str(_book(tmp_path / "a.xlsx", {}, modified="2026-07-23T10:33:41.25Z")))
    assert saved.saved_at == dt.datetime(2026, 7, 23, 10, 33, 41, 250000)
    no_property = read_package(str(_book(tmp_path / "b.xlsx", {}, modified=None)))
    assert no_property.saved_at is None and "no dcterms:modified" in no_property.no_saved_at
    no_part = read_package(str(_book(tmp_path / "c.xlsx", {}, core=False)))
    assert no_part.saved_at is None and "docProps/core.xml" in no_part.no_saved_at
    not_a_date = read_package(str(_book(tmp_path / "d.xlsx", {}, modified="July 2026")))
    assert not_a_date.saved_at is None and "'July 2026'" in not_a_date.no_saved_at


@pytest.mark.parametrize("core", [False, True], ids=["no core part", "no dcterms:modified"])
def test_saved_without_a_save_time_warns_naming_the_file_and_uses_the_computer_clock(
        tmp_path: Path, core: bool) -> None:
    before = _serial_today()
    values, result = _computed(tmp_path, "--now", "saved", core=core, modified=None)
    assert before <= values["A1"] <= _serial_today()
    warning = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1
    assert str(tmp_path / "in.xlsx") in warning[0] and "no save time" in warning[0]
    assert "computer's clock" in warning[0]
    assert "1 workbook with a warning about the whole workbook" in result.output


def test_saved_without_a_save_time_exits_1_with_strict(tmp_path: Path) -> None:
    source = _book(tmp_path / "in.xlsx", {"A1": "=TODAY()"}, core=False)
    result = _convert(str(source), "-o", str(tmp_path / "out.xlsx"), "--now", "saved", "--strict")
    assert result.exit_code == 1 and "no save time" in result.output


def test_a_workbook_not_reading_the_clock_needs_no_save_time(tmp_path: Path) -> None:
    values, result = _computed(tmp_path, "--now", "saved", core=False, formulas={"A1": "=DATE(2026,7,23)"})
    assert values["A1"] == JULY_23_2026
    assert "warning" not in result.output


def test_saved_gives_each_workbook_of_a_folder_its_own_save_time_in_workers(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    _book(tmp_path / "in" / "a.xlsx", {"A1": "=TODAY()"}, modified="2026-07-23T10:33:41Z")
    _book(tmp_path / "in" / "b.xlsx", {"A1": "=TODAY()"}, modified="2024-02-29T23:59:59Z")
    result = _convert(str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--now", "saved", "-j", "2")
    assert result.exit_code == 0, result.output
    assert _values(tmp_path / "out" / "a.xlsx")["A1"] == JULY_23_2026
    assert _values(tmp_path / "out" / "b.xlsx")["A1"] == 45351  # 29 February 2024


# --- the 1904 date system ----------------------------------------------------------------------------

def test_a_1904_workbook_counts_the_clock_in_its_own_system(tmp_path: Path) -> None:
    values, _ = _computed(tmp_path, "--now", "2026-07-23T18:00", mac=True)
    assert (values["A1"], values["A2"]) == (JULY_23_2026_1904, JULY_23_2026_1904 + 0.75)
    assert (values["A3"], values["A4"], values["A7"], values["A8"]) == (2026, 18, "2026-07-23", 203)
    saved, _ = _computed(tmp_path, "--now", "saved", mac=True, modified="2026-07-23T10:33:41Z")
    assert (saved["A1"], saved["A7"]) == (JULY_23_2026_1904, "2026-07-23")


# --- bad --now values --------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["yesterday", "23/07/2026", "2026-7-23", "2026-02-30", "2026-07-23T25:00",
                                   "2026-07-23T14", "1899-12-31", ""])
def test_a_bad_now_is_a_usage_error_naming_the_option_and_the_form(tmp_path: Path, value: str) -> None:
    source = _book(tmp_path / "in.xlsx", {"A1": "=TODAY()"})
    result = _convert(str(source), "-o", str(tmp_path / "out.xlsx"), "--now", value)
    assert result.exit_code == 2
    assert "--now" in result.output
    assert "DATE[THH:MM[:SS]]" in result.output or "1900" in result.output
    assert not (tmp_path / "out.xlsx").exists()


def test_the_option_reads_saved_in_any_case_and_a_space_for_the_t() -> None:
    assert clock.parse_now("Saved") == clock.SAVED
    assert clock.parse_now("2026-07-23 14:30") == dt.datetime(2026, 7, 23, 14, 30)


# --- DATEDIF's unit in any case --------------------------------------------------------------------------

def test_datedif_reads_its_unit_in_any_case(tmp_path: Path) -> None:
    units = {"D": 440, "M": 14, "Y": 1, "MD": 14, "YM": 2, "YD": 75}
    formulas = {}
    for row, (unit, _) in enumerate(units.items(), start=1):
        formulas[f"A{row}"] = f'=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"{unit}")'
        formulas[f"B{row}"] = f'=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"{unit.lower()}")'
        formulas[f"C{row}"] = f'=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"{unit[0]}{unit[1:].lower()}")'
    formulas["A8"] = '=DATEDIF(DATE(2002,8,15),DATE(2001,6,1),"d")'  # start after end
    formulas["A9"] = '=DATEDIF(DATE(2001,6,1),DATE(2002,8,15),"w")'  # no such unit
    values, _ = _computed(tmp_path, formulas=formulas)
    for row, expected in enumerate(units.values(), start=1):
        assert (values[f"A{row}"], values[f"B{row}"], values[f"C{row}"]) == (expected,) * 3
    assert (values["A8"], values["A9"]) == ("#NUM!", "#NUM!")


def test_datedif_filled_down_a_column_reads_lowercase_units(tmp_path: Path) -> None:
    formulas = {f"C{r}": f"=DATEDIF(A{r},B{r},\"d\")" for r in range(1, 21)}
    source = _book(tmp_path / "in.xlsx", formulas)
    wb = openpyxl.load_workbook(source)
    for r in range(1, 21):
        wb["Clock"][f"A{r}"] = JULY_23_2026
        wb["Clock"][f"B{r}"] = JULY_23_2026 + r
    wb.save(source)
    assert _convert(str(source), "-o", str(tmp_path / "out.xlsx")).exit_code == 0
    values = _values(tmp_path / "out.xlsx")
    assert [values[f"C{r}"] for r in range(1, 21)] == list(range(1, 21))
