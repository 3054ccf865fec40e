"""A function returning a small array in an array formula ({=...} over a range, ``t="array"``):
each cell of the range holds one value of the array, as in Excel, never the text of the whole array
(MODE.MULT once stored '[np.float64(2.0)]'); a single row or column repeats across a larger range,
the cells past a larger array are #N/A; a function reading the array (SUM, INDEX, ROWS) reads every
value of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.worksheet.formula import ArrayFormula

from xlrating.cli import main
from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.fallback import result_value
from xlrating.functions import ExcelError

NA = ExcelError("#N/A")
# A1:A6 1, 2, 2, 3, 3, 4: two modes, 2 then 3 (in the order met); B1:B4 1, 2, 3, 4: no mode
NUMBERS = [1, 2, 2, 3, 3, 4]
ARRAYS: dict[str, tuple[str, str, list[list[Any]]]] = {
    # cell: (range, formula, the range's values as Excel computes them, row by row)
    "D1": ("D1", "=_xlfn.MODE.MULT(A1:A6)", [[2.0]]),
    "E1": ("E1:E3", "=_xlfn.MODE.MULT(A1:A6)", [[2.0], [3.0], [NA]]),  # a column: past it, #N/A
    "F1": ("F1:G2", "=_xlfn.MODE.MULT(A1:A6)", [[2.0, 2.0], [3.0, 3.0]]),  # a column repeats across
    "H1": ("H1", "=SUM(_xlfn.MODE.MULT(A1:A6))", [[5.0]]),
    "I1": ("I1", "=INDEX(_xlfn.MODE.MULT(A1:A6),2)", [[3.0]]),
    "J1": ("J1", "=ROWS(_xlfn.MODE.MULT(A1:A6))", [[2.0]]),
    "K1": ("K1:L1", "=TRANSPOSE(_xlfn.MODE.MULT(A1:A6))", [[2.0, 3.0]]),
    "M1": ("M1:M4", "=_xlfn.MODE.MULT({1,2,3,4,1,2,3,4})", [[1.0], [2.0], [3.0], [4.0]]),
    "N1": ("N1:N2", "=_xlfn.MODE.MULT(B1:B4)", [[NA], [NA]]),
    "O1": ("O1:O2", "=FREQUENCY(A1:A6,{2})", [[3.0], [3.0]]),
    "P1": ("P1:Q2", "=MMULT({1,2;3,4},{1;1})", [[3.0, 3.0], [7.0, 7.0]]),
    "R1": ("R1:T1", "=LINEST(A1:A6)", [[0.5428571428571433, 0.5999999999999993, NA]]),
}


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, number in enumerate(NUMBERS, start=1):
        ws.cell(row, 1, number)
    for row, number in enumerate([1, 2, 3, 4], start=1):
        ws.cell(row, 2, number)
    for cell, (ref, formula, _) in ARRAYS.items():
        ws[cell] = ArrayFormula(ref, formula)
    wb.save(path)
    return path


def _cells(ref: str) -> list[list[tuple[int, int]]]:
    from openpyxl.utils.cell import range_boundaries

    c1, r1, c2, r2 = range_boundaries(ref if ":" in ref else f"{ref}:{ref}")
    return [[(row, col) for col in range(c1, c2 + 1)] for row in range(r1, r2 + 1)]


@pytest.mark.parametrize("cell", list(ARRAYS))
def test_each_cell_of_an_array_formula_holds_one_value_of_the_array(tmp_path: Path, cell: str) -> None:
    sheet = evaluate_workbook(str(_book(tmp_path / "book.xlsx"))).grid.sheet("Sheet")
    assert sheet is not None
    ref, _, expected = ARRAYS[cell]
    got = [[sheet.get(row, col) for row, col in cells] for cells in _cells(ref)]
    assert got == [[pytest.approx(v, rel=1e-9) if isinstance(v, float) else v for v in row] for row in expected]


def test_converted_workbook_caches_the_numbers_of_mode_mult(tmp_path: Path) -> None:
    """What a user opens: the converted workbook's cached values of the array formulas are numbers."""
    result = CliRunner().invoke(main, ["convert", "-q", str(_book(tmp_path / "book.xlsx")),
                                       "-o", str(tmp_path / "out.xlsx")])
    assert result.exit_code == 0, result.output
    ws = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert [ws["D1"].value, ws["E1"].value, ws["E2"].value, ws["E3"].value] == [2, 2, 3, "#N/A"]
    assert [ws[f"M{r}"].value for r in range(1, 5)] == [1, 2, 3, 4]
    assert ws["H1"].value == 5


def test_a_list_result_is_a_column_of_values_never_its_text() -> None:
    """A function answering a Python list (as formulas' functions sometimes do) gives a column of
    cell values, one per item (a list of lists: rows, padded with #N/A); a single item is a value."""
    column = result_value([np.float64(2.0), np.float64(3.0)])
    assert isinstance(column, np.ndarray) and column.shape == (2, 1)
    assert column[:, 0].tolist() == [2.0, 3.0]
    rows = result_value([[1.0, 2.0], [3.0]])
    assert rows.shape == (2, 2) and rows[1, 1] == NA
    single = np.empty((1, 1), dtype=object)
    single[0, 0] = [np.float64(2.0)]
    assert result_value(single) == 2.0 and not isinstance(result_value(single), (list, str))
