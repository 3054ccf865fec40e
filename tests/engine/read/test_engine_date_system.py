"""The 1904 date system (``<workbookPr date1904="1"/>``): serial numbers count days from 1 January
1904 (serial 0), with no 29 February 1900, and every date function, TEXT's date codes and the date
cells of CSV and JSON outputs count them so.

Microsoft's "Date systems in Excel": 5 July 2011 is 40729 in the 1900 date system and 39267 in the
1904 one; the 1904 system's first date, 1 January 1904, is serial 0 and its last, 31 December 9999,
2957003. The same day is 1462 more in the 1900 system.
"""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from xlrating.cli import main

JULY_5_2011 = 39267  # in the 1904 system (Microsoft's example)
OCTOBER_11_1952 = (dt.date(1952, 10, 11) - dt.date(1904, 1, 1)).days  # the TEXT example


def _book(path: Path, formulas: dict[str, Any], *, mac: bool = True, values: dict[str, Any] | None = None) -> Path:
    wb = openpyxl.Workbook()
    if mac:
        wb.epoch = CALENDAR_MAC_1904  # openpyxl writes <workbookPr date1904="1"/>
    ws = wb.active
    ws.title = "Dates"
    for cell, value in (values or {}).items():
        ws[cell] = value
    for cell, formula in formulas.items():
        ws[cell] = formula
    wb.save(path)
    return path


def _convert(*args: str) -> None:
    result = CliRunner().invoke(main, ["convert", *args])
    assert result.exit_code == 0, result.output


def _values(path: Path) -> dict[str, Any]:
    ws = openpyxl.load_workbook(path, data_only=True)["Dates"]
    return {cell.coordinate: cell.value for row in ws.iter_rows() for cell in row}


def _computed(tmp_path: Path, formulas: dict[str, str], **options: Any) -> dict[str, Any]:
    source = _book(tmp_path / "in.xlsx", formulas, **options)
    _convert(str(source), "-o", str(tmp_path / "out.xlsx"))
    return _values(tmp_path / "out.xlsx")


def test_text_shows_a_serial_as_the_1904_date_it_is(tmp_path: Path) -> None:
    formulas = {"B2": '=TEXT(C2,"dd-mm-yy")', "B3": '=TEXT(C2,"dddd d mmmm yyyy")'}
    mac = _computed(tmp_path, formulas, values={"C2": OCTOBER_11_1952})
    assert (mac["B2"], mac["B3"]) == ("11-10-52", "Saturday 11 October 1952")
    windows = _computed(tmp_path, formulas, mac=False, values={"C2": OCTOBER_11_1952})
    assert windows["B2"] == "10-10-48"  # the same number in the 1900 system


def test_dates_are_the_serials_of_the_1904_system(tmp_path: Path) -> None:
    values = _computed(tmp_path, {
        "A1": "=DATE(2011,7,5)", "A2": '=DATEVALUE("2011-07-05")', "A3": "=DATE(1904,1,1)",
        "A4": "=DATE(9999,12,31)", "A5": "=EDATE(39267,1)", "A6": "=EOMONTH(39267,0)",
        "A7": "=WORKDAY(39267,1)", "A8": "=DATE(1903,12,31)", "A9": '=DATEVALUE("1903-12-31")',
    })
    assert [values[f"A{r}"] for r in range(1, 8)] == [JULY_5_2011, JULY_5_2011, 0, 2957003,
                                                      JULY_5_2011 + 31, JULY_5_2011 + 26, JULY_5_2011 + 1]
    assert (values["A8"], values["A9"]) == ("#NUM!", "#VALUE!")  # before the 1904 system's first day


def test_the_parts_of_a_1904_serial(tmp_path: Path) -> None:
    values = _computed(tmp_path, {
        "A1": "=YEAR(0)", "A2": "=MONTH(0)", "A3": "=DAY(0)", "A4": "=WEEKDAY(0)",  # Friday 1 January 1904
        "B1": "=YEAR(39267)", "B2": "=MONTH(39267)", "B3": "=DAY(39267)", "B4": "=WEEKDAY(39267,2)",  # a Tuesday
        "C1": "=ISOWEEKNUM(39267)", "C2": '=DATEDIF(0,39267,"md")', "C3": "=YEAR(-1)", "C4": "=DAY(59)",
        "D1": "=NETWORKDAYS(39263,39269,39267)", "D2": "=YEARFRAC(0,366,1)", "D3": "=NETWORKDAYS(39263,39264)",
    })
    assert [values[c] for c in ("A1", "A2", "A3", "A4")] == [1904, 1, 1, 6]
    assert [values[c] for c in ("B1", "B2", "B3", "B4")] == [2011, 7, 5, 2]
    assert [values[c] for c in ("C1", "C2", "C3", "C4")] == [27, 4, "#NUM!", 29]  # 29 February 1904 exists
    assert values["D1"] == 4  # Fri 1 .. Thu 7 July 2011: five working days, the 5th a holiday
    assert values["D3"] == 1  # Friday 1 and Saturday 2 July 2011
    assert values["D2"] == 1  # 1904 is a leap year of 366 days


def test_today_is_todays_date_in_the_1904_system(tmp_path: Path) -> None:
    before = dt.date.today()
    values = _computed(tmp_path, {"A1": '=TEXT(TODAY(),"yyyy-mm-dd")', "A2": "=TODAY()", "A3": "=INT(NOW())"})
    days = {(day - dt.date(1904, 1, 1)).days for day in (before, dt.date.today())}
    assert values["A1"] in {day.isoformat() for day in (before, dt.date.today())}
    assert values["A2"] in days and values["A3"] in days


def test_elapsed_time_codes_count_the_number_itself(tmp_path: Path) -> None:
    values = _computed(tmp_path, {"A1": '=TEXT(1.5,"[h]")', "A2": '=TEXT(0.75,"h:mm")',
                                  "A3": '=TEXT("2011-07-05","d/m/yyyy")', "A4": '=TEXT(1.75,"d/m/yyyy h:mm")'})
    assert (values["A1"], values["A2"], values["A3"]) == ("36", "18:00", "5/7/2011")  # a date typed as text
    assert values["A4"] == "2/1/1904 18:00"


def test_a_filled_down_column_computes_in_the_1904_system(tmp_path: Path) -> None:
    # many rows of the same formulas: the vectorised path, not the cell-by-cell one
    rows = {f"B{r}": f"=YEAR(A{r})" for r in range(1, 201)}
    rows |= {f"C{r}": f"=DATE(2000+B{r}-B{r},1,A{r}-A{r}+1)" for r in range(1, 201)}
    rows |= {f"D{r}": f'=TEXT(A{r},"yyyy-mm-dd")' for r in range(1, 201)}
    values = _computed(tmp_path, rows, values={f"A{r}": 366 * r for r in range(1, 201)})
    assert [values[f"B{r}"] for r in (1, 100, 200)] == [1905, 2004, 2104]
    assert {values[f"C{r}"] for r in range(1, 201)} == {(dt.date(2000, 1, 1) - dt.date(1904, 1, 1)).days}
    assert values["D100"] == (dt.date(1904, 1, 1) + dt.timedelta(days=36600)).isoformat()


def test_the_written_workbook_keeps_the_1904_date_system(tmp_path: Path) -> None:
    source = _book(tmp_path / "in.xlsx", {"B1": "=YEAR(A1)"}, values={"A1": dt.date(2011, 7, 5)})
    _convert(str(source), "-o", str(tmp_path / "out.xlsx"))
    with zipfile.ZipFile(tmp_path / "out.xlsx") as archive:
        assert b'date1904="1"' in archive.read("xl/workbook.xml")
    wb = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)
    assert wb.epoch == CALENDAR_MAC_1904 and wb.active["A1"].value.date() == dt.date(2011, 7, 5)
    assert wb.active["B1"].value == 2011


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_date_cells_are_written_as_the_dates_they_show(tmp_path: Path, fmt: str) -> None:
    source = _book(tmp_path / "in.xlsx", {"B1": "=A1+1"}, values={"A1": dt.date(2011, 7, 5)})
    openpyxl_book = openpyxl.load_workbook(source)
    openpyxl_book.active["B1"].number_format = "yyyy-mm-dd"
    openpyxl_book.save(source)
    target = tmp_path / f"out.{fmt}"
    _convert(str(source), "-o", str(target))
    if fmt == "csv":
        assert target.read_text(encoding="utf-8").splitlines()[0] == "2011-07-05,2011-07-06"
    else:
        assert json.loads(target.read_text(encoding="utf-8"))["sheets"][0]["rows"][0] == ["2011-07-05", "2011-07-06"]


def test_each_workbook_of_a_batch_keeps_its_own_date_system(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    formulas = {"A1": "=YEAR(0)", "A2": "=DATE(2011,7,5)", "A3": '=TEXT(39267,"yyyy-mm-dd")'}
    _book(tmp_path / "in" / "a_mac.xlsx", formulas)
    _book(tmp_path / "in" / "b_windows.xlsx", formulas, mac=False)
    _book(tmp_path / "in" / "c_mac.xlsx", formulas)
    _convert(str(tmp_path / "in"), "-o", str(tmp_path / "out"))
    found = {name: [_values(tmp_path / "out" / name)[c] for c in ("A1", "A2", "A3")]
             for name in ("a_mac.xlsx", "b_windows.xlsx", "c_mac.xlsx")}
    assert found == {"a_mac.xlsx": [1904, 39267, "2011-07-05"], "b_windows.xlsx": [1900, 40729, "2007-07-04"],
                     "c_mac.xlsx": [1904, 39267, "2011-07-05"]}


def test_xlratings_own_functions_read_dates_in_the_1904_system(tmp_path: Path) -> None:
    # MERS: a result dated 29 February 2020 is over two years old on 1 March 2022 (the 2005 rules
    # then halve its weight); read in the wrong date system, its day would be 28 February 2016 and
    # 1 March 2022 would be 28 February 2018, not over two years after it
    values = {"A1": 900, "B1": 1, "C1": dt.date(2020, 2, 29), "A2": 500, "B2": 2, "C2": dt.date(2021, 6, 1),
              "A3": 750, "B3": 1.5, "C3": dt.date(2021, 9, 1), "D1": dt.date(2022, 3, 1)}
    formulas = {"E1": '=MERS_RANKING(A1:A3,B1:B3,C1:C3,D1,"2005")',
                "E2": '=MERS_RANKING(A1:A3,B1:B3,C1:C3,DATE(2022,3,1),"2005")'}
    (tmp_path / "windows").mkdir()
    (tmp_path / "mac").mkdir()
    windows = _computed(tmp_path / "windows", formulas, mac=False, values=values)
    mac = _computed(tmp_path / "mac", formulas, values=values)
    assert isinstance(windows["E1"], float) and windows["E1"] == windows["E2"]
    assert (mac["E1"], mac["E2"]) == (windows["E1"], windows["E2"])
