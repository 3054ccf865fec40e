"""Arithmetic over a filled-down column gives the double the cell-by-cell path gives, on any machine:
``^`` is Python's float power per row (numpy's own power differs from it in the last place on some
processors: on AVX-512 about 5% of ``10^x``, and ``10^-5`` itself), and SUM and AVERAGE add their
cells left to right as the cell path does (numpy's ``sum`` adds pairwise and rounds differently)."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from xlrating.core import powers
from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.vector import Unsupported


def _values(path: Path, columns: range) -> tuple[dict[tuple[int, int], str], dict[str, int]]:
    evaluated = evaluate_workbook(str(path))
    sheet = evaluated.grid.order[0]
    rows = openpyxl.load_workbook(path, read_only=True).active.max_row
    return {(r, c): repr(sheet.get(r, c)) for r in range(1, rows + 1) for c in columns}, evaluated.stats


def _cell_by_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before


def _power_book(path: Path, rows: int = 200) -> Path:
    rng = random.Random(8)
    book = openpyxl.Workbook()
    sheet = book.active
    for r in range(1, rows + 1):
        base = rng.choice([rng.uniform(0, 60), rng.uniform(0, 1), 10, float(rng.randint(-9, 9)) or 2.0])
        exponent = rng.choice([rng.uniform(-6, 6), float(rng.randint(-4, 4)), 0.5, -5.0])
        if base < 0:
            exponent = float(round(exponent))  # a negative base to a fraction is an error either way
        sheet.cell(r, 1, base)
        sheet.cell(r, 2, exponent)
        sheet.cell(r, 3, rng.uniform(1000, 2400))  # two ratings, for the Elo win probability
        sheet.cell(r, 4, rng.uniform(1000, 2400))
        sheet.cell(r, 5, f"=A{r}^B{r}")
        sheet.cell(r, 6, f"=1/(1+10^((D{r}-C{r})/400))")
        sheet.cell(r, 7, f"=A{r}*10^-5+B{r}^2")
    book.save(path)
    return path


def test_a_power_filled_down_is_the_cell_by_cell_double(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _power_book(tmp_path / "powers.xlsx")
    vectorised, stats = _values(path, range(5, 8))
    _cell_by_cell(monkeypatch)
    cell_by_cell, _ = _values(path, range(5, 8))
    assert stats["cell"] == 0
    assert {k: (v, cell_by_cell[k]) for k, v in vectorised.items() if v != cell_by_cell[k]} == {}
    assert vectorised[(1, 7)] == repr(float(openpyxl.load_workbook(path).active["A1"].value) * 10.0 ** -5
                                      + float(openpyxl.load_workbook(path).active["B1"].value) ** 2)


def test_the_vectorised_power_is_the_shared_scalar_power(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the shared power replaced, every vectorised ``^`` follows it: the fast path takes no power
    from numpy, so it agrees with the cell path (Python's float power) on any processor."""
    path = _power_book(tmp_path / "powers.xlsx", rows=50)
    monkeypatch.setattr(powers, "_float_power", lambda base, exponent: -7.0)
    vectorised, stats = _values(path, range(5, 6))
    assert stats["cell"] == 0 and set(vectorised.values()) == {"-7.0"}


def test_the_errors_of_a_power_are_the_same_on_both_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """0^0 #NUM!, 0^-1 #DIV/0!, (-8)^(1/3) #NUM!, an overflow #NUM!: filled down (vectorised) and
    cell by cell alike, as Excel shows them."""
    pairs = [(0, 0), (0, -1), (-8, 1 / 3), (10, 400), (-2, 3), (0, 2), (-8, -1), (2, 0.5), (-1e10, 31)]
    book = openpyxl.Workbook()
    for r, (base, exponent) in enumerate(pairs, start=1):
        book.active.append([base, exponent, f"=A{r}^B{r}"])
    path = tmp_path / "edges.xlsx"
    book.save(path)
    vectorised, stats = _values(path, range(3, 4))
    _cell_by_cell(monkeypatch)
    cell_by_cell, _ = _values(path, range(3, 4))
    assert stats["cell"] == 0
    assert vectorised == cell_by_cell
    assert [vectorised[(r, 3)] for r in range(1, len(pairs) + 1)] == [
        "ExcelError(code='#NUM!', reason='')", "ExcelError(code='#DIV/0!', reason='')",
        "ExcelError(code='#NUM!', reason='')", "ExcelError(code='#NUM!', reason='')", "-8.0", "0.0",
        "-0.125", repr(2 ** 0.5), "ExcelError(code='#NUM!', reason='')"]


def _sum_book(path: Path, rows: int = 80) -> Path:
    rng = random.Random(4)
    book = openpyxl.Workbook()
    sheet = book.active
    for r in range(1, rows + 1):
        for c in range(1, 21):  # numbers of every size, text and blanks in 20 columns
            sheet.cell(r, c, rng.choice([rng.uniform(-1e3, 1e3), rng.random() * 1e-3, rng.uniform(-1e12, 1e12),
                                         "x", None]))
        sheet.cell(r, 22, f"=SUM(A{r}:T{r})")
        sheet.cell(r, 23, f"=AVERAGE(A{r}:T{r})")
        sheet.cell(r, 24, f"=SUM(A{r}:J{r},K{r}:T{r},0.1)")
        sheet.cell(r, 25, f"=SUM($A$1:$T${rows})+A{r}")
        sheet.cell(r, 26, f"=SUM(A{r}:B{r + 1})")
        sheet.cell(r, 27, f"=SUM(0.3,$A$1:$T${rows})")
        sheet.cell(r, 28, f"=SUM(V{r},$A$1:$C$40)")
    book.save(path)
    return path


def test_sums_filled_down_are_the_cell_by_cell_double(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _sum_book(tmp_path / "sums.xlsx")
    vectorised, stats = _values(path, range(22, 29))
    _cell_by_cell(monkeypatch)
    cell_by_cell, _ = _values(path, range(22, 29))
    assert stats["vector"] >= 80 * 6
    assert {k: (v, cell_by_cell[k]) for k, v in vectorised.items() if v != cell_by_cell[k]} == {}
    row = [v for v in (openpyxl.load_workbook(path).active.cell(1, c).value for c in range(1, 21))
           if isinstance(v, float)]
    total = 0.0
    for value in row:  # left to right, as a spreadsheet adds
        total += value
    assert vectorised[(1, 22)] == repr(total)
