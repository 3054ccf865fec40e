"""DATE, YEAR, MONTH, DAY, MOD and INT over a filled-down column are computed a column at a time
(one parse, one compile) by the same implementation the cell-by-cell path calls: every value,
error and edge (years 0-1899, month and day overflow, the 1900 leap day, 9999-12-31, text, empty
and boolean arguments, errors in arguments) must come out exactly as cell by cell."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate import vector_compile

EDGES = [(2024, 2, 1), (1900, 1, 1), (1900, 2, 29), (1900, 3, 1), (1899, 12, 31), (0, 1, 1), (-1, 1, 1),
         (2024, 13, 0), (2024, 1, -5), (10000, 1, 1), (9999, 12, 31), (2024.7, 2.9, 3.5), ("x", 1, 1),
         (None, 1, 1), (True, 1, 1), ("2024", 1, 1), (2024, 0, 0), (1904, 2, 29), (2023, -11, 400)]


def _book(path: Path, seed: int) -> Path:
    rng = random.Random(seed)
    rows = EDGES + [(rng.randint(-5, 10500), rng.randint(-30, 30), rng.randint(-400, 400)) for _ in range(200)]
    book = openpyxl.Workbook()
    sheet = book.active
    for r, (y, m, d) in enumerate(rows, start=1):
        sheet.cell(r, 1, y)
        sheet.cell(r, 2, m)
        sheet.cell(r, 3, d)
        sheet.cell(r, 4, f"=DATE(A{r},B{r},C{r})")
        sheet.cell(r, 5, f"=YEAR(D{r})*10000+MONTH(D{r})*100+DAY(D{r})")
        sheet.cell(r, 6, f"=MOD(A{r},B{r})")
        sheet.cell(r, 7, f"=INT(C{r}/7)+MOD(C{r},-3.5)")
        sheet.cell(r, 8, f"=IFERROR(DATE(2000,B{r},C{r}),-1)")
    sheet["J1"] = "=MOD(1/0,2)"
    sheet["J2"] = "=YEAR(NA())"
    book.save(path)
    return path


def _values(path: Path) -> dict[tuple[int, int], object]:
    sheet = evaluate_workbook(str(path)).grid.order[0]
    return {(r, c): sheet.get(r, c) for r in range(1, len(EDGES) + 201) for c in range(4, 11)}


@pytest.mark.parametrize("seed", [1, 2])
def test_a_column_at_a_time_gives_what_cell_by_cell_gives(tmp_path: Path, seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = _book(tmp_path / "dates.xlsx", seed)
    vectorised = _values(path)
    monkeypatch.setattr(vector_compile, "ELEMENTWISE", {})  # every such formula cell by cell
    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    cell_by_cell = _values(path)
    differing = {k: (vectorised[k], cell_by_cell[k]) for k in vectorised if repr(vectorised[k]) != repr(cell_by_cell[k])}
    assert differing == {}
    assert vectorised[(1, 4)] == 45323.0 and vectorised[(3, 4)] == 60.0  # 2024-02-01; Excel's 1900-02-29


def test_a_filled_down_date_column_is_compiled_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlrating.engine.evaluate import fallback

    book = openpyxl.Workbook()
    for r in range(1, 101):
        book.active.cell(r, 1, 2000 + r)
        book.active.cell(r, 2, f"=DATE(A{r},MOD(A{r},12)+1,1)")
    book.save(tmp_path / "column.xlsx")
    compiled: list[str] = []
    original = fallback.compile_formula
    monkeypatch.setattr(fallback, "compile_formula", lambda *a: compiled.append(a[1]) or original(*a))
    sheet = evaluate_workbook(str(tmp_path / "column.xlsx")).grid.order[0]
    assert compiled == []  # nothing went cell by cell
    assert sheet.get(1, 2) == 37165.0  # DATE(2001, 10, 1)


@pytest.mark.parametrize(("arguments", "expected"), [
    ((2008, 14, 2), 39846.0),  # Microsoft's example: month 14 of 2008 is February 2009
    ((2008, 1, -15), 39432.0),  # 16 December 2007: days before the first count back
    ((108, 1, 2), 39449.0),  # a year 0..1899 is 1900 more: 2 January 2008
    ((1900, 3, 0), 60.0),  # the day before 1 March 1900 is Excel's 29 February 1900
    ((1900, 1, 0), 0.0),  # 0 January 1900, the serial 0
    ((9999, 12, 31), 2958465.0),
    ((1900, 1, -1), "#NUM!"),  # before serial 0
    ((-1, 1, 1), "#NUM!"),  # Microsoft: a year below 0 is #NUM!, whatever the months add
    ((-100, 2000, 1), "#NUM!"),
    ((10000, 1, 1), "#NUM!"),
    ((9999, 13, 1), "#NUM!"),
])
def test_date_follows_excels_rules_in_both_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 arguments: tuple[int, int, int], expected: object) -> None:
    book = openpyxl.Workbook()
    for r in (1, 2):
        book.active.append([*arguments, f"=DATE(A{r},B{r},C{r})"])
    book.save(tmp_path / "date.xlsx")
    for elementwise in (vector_compile.ELEMENTWISE, {}):  # a column at a time, then cell by cell
        monkeypatch.setattr(vector_compile, "ELEMENTWISE", elementwise)
        monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
        value = evaluate_workbook(str(tmp_path / "date.xlsx")).grid.order[0].get(1, 4)
        assert (value if isinstance(value, float) else value.code) == expected


def test_a_column_of_dates_at_once_is_each_rows_date_in_either_date_system() -> None:
    """The DATE of many rows at once (vector_builtins.dates) against the DATE of one row, on whole
    and fractional arguments around every edge and far past them (where doubles are no longer
    whole numbers), in the 1900 and the 1904 date systems."""
    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from xlrating.engine.evaluate.vector_builtins import _date, dates
    from xlrating.engine.read.date_system import SYSTEM_1900, SYSTEM_1904, using

    edges = [-1e300, -2.0 ** 53, -1e6, -400, -13, -12, -11, -1, -0.5, 0, 0.5, 1, 11, 12, 13, 28, 29, 30, 31, 59, 60,
             61, 366, 1461, 1462, 1899, 1899.9, 1900, 1904, 2024, 9999, 10000, 2.0 ** 52, 2.0 ** 53, 1e300]
    argument = st.one_of(st.sampled_from(edges), st.floats(-20000, 20000), st.integers(-20000, 20000).map(float))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.tuples(argument, argument, argument), min_size=1, max_size=40),
           st.sampled_from([SYSTEM_1900, SYSTEM_1904]))
    def check(rows: list[tuple[float, float, float]], system: int) -> None:
        with using(system):
            num, err = dates(*(np.array(column) for column in zip(*rows)))
            for i, row in enumerate(rows):
                want = _date(*row)
                assert (err[i] != 0, 0.0 if err[i] else num[i]) == ((True, 0.0) if isinstance(want, str) else
                                                                   (False, want)), row

    check()
