"""Excel's functions of single values (text, maths, dates, number bases) filled down a column are
computed a column at a time, one call per distinct row of arguments, by the implementation the
cell-by-cell path calls: every value and error must come out exactly as cell by cell."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate import vector_compile

# Arguments of every kind: numbers (whole, fractional, negative, large), numeric and other text,
# dates, booleans, empty cells, errors, Roman numerals
VALUES = [1999, 4.5, -3, 0, 2024, 1e10, "12", "abc", " Mixed Case ", "MCMXCIX", "mmxxiv", "2024-03-15",
          dt.datetime(2024, 2, 29), True, False, None, "=1/0", "=NA()", "", 0.25, 255, "FF", "1010", 3999, 4000,
          "a\"b", "x" * 40, -0.5, 7, "7"]
SECOND = [0, 1, 2, 3, 4, "2", -1, None, True, 16, "x", 0.5]
FORMULAS = [
    "ROMAN($A{r})", "ROMAN($A{r},B{r})", "_xlfn.ARABIC($A{r})", "LEFT($A{r},2)", "RIGHT($A{r},B{r})", "MID($A{r},2,3)",
    "LEN($A{r})", "UPPER($A{r})", "LOWER($A{r})", "PROPER($A{r})", "TRIM($A{r})", "SUBSTITUTE($A{r},\"a\",\"o\")",
    "REPT($A{r},2)", "FIND(\"a\",$A{r})", "SEARCH(\"C\",$A{r})", "TEXT($A{r},\"0.00\")", "VALUE($A{r})",
    "SQRT($A{r})", "EXP($B{r})", "LN($A{r})", "LOG($A{r},B{r})", "POWER($A{r},B{r})", "SIGN($A{r})",
    "TRUNC($A{r},B{r})", "EVEN($A{r})", "FACT($B{r})", "COMBIN($A{r},B{r})", "QUOTIENT($A{r},B{r})",
    "MROUND($A{r},B{r})", "FLOOR($A{r},B{r})", "CEILING.MATH($A{r})", "_xlfn.BASE($A{r},B{r}+2)",
    "DEGREES($A{r})", "SIN($A{r})", "ATAN2($A{r},B{r})", "EDATE($A{r},B{r})", "EOMONTH($A{r},B{r})",
    "WEEKDAY($A{r})", "WEEKNUM($A{r},B{r})", "DATEVALUE($A{r})", "HOUR($A{r})", "DAYS($A{r},B{r})",
    "DATEDIF(B{r},$A{r},\"d\")", "YEARFRAC(B{r},$A{r})", "DEC2BIN($B{r})", "HEX2DEC($A{r})", "DEC2HEX($A{r},4)",
    "CHAR($A{r})", "CODE($A{r})", "CONCATENATE($A{r},B{r})", "LEFT(\"fixed\",B{r})",
]


def _book(path: Path) -> tuple[Path, int]:
    book = openpyxl.Workbook()
    sheet = book.active
    rows = [(a, SECOND[i % len(SECOND)]) for i, a in enumerate(VALUES * 2)]  # each value with 2 second arguments
    for r, (a, b) in enumerate(rows, start=1):
        sheet.cell(r, 1, a)
        sheet.cell(r, 2, b)
        for j, text in enumerate(FORMULAS):
            sheet.cell(r, 10 + j, "=" + text.format(r=r))
    book.save(path)
    return path, len(rows)


def _values(path: Path, rows: int) -> tuple[dict[tuple[int, int], str], dict[str, int], list[str]]:
    evaluated = evaluate_workbook(str(path))
    sheet = evaluated.grid.order[0]
    values = {(r, c): repr(sheet.get(r, c)) for r in range(1, rows + 1) for c in range(10, 10 + len(FORMULAS))}
    return values, evaluated.stats, evaluated.warnings


def test_a_column_at_a_time_gives_what_cell_by_cell_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, rows = _book(tmp_path / "scalars.xlsx")
    vectorised, stats, warnings = _values(path, rows)
    monkeypatch.setattr(vector_compile, "SCALAR", frozenset())  # every such formula cell by cell
    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    cell_by_cell, cell_stats, cell_warnings = _values(path, rows)
    differing = {k: (vectorised[k], cell_by_cell[k]) for k in vectorised if vectorised[k] != cell_by_cell[k]}
    assert differing == {}
    assert warnings == cell_warnings
    assert stats["vector"] > cell_stats["vector"] + rows * len(FORMULAS) // 2  # most went a column at a time
    assert vectorised[(1, 10)] == repr("MCMXCIX")  # ROMAN(1999)


def test_a_filled_down_column_is_one_call_per_distinct_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlrating.engine import REGISTRY

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["B1"] = 0
    for r in range(2, 402):
        sheet.cell(r, 1, 1 + r % 5)
        sheet.cell(r, 3, f"=ROMAN($A{r},B$1)")
    book.save(tmp_path / "roman.xlsx")
    calls = []
    found = REGISTRY.lookup("ROMAN")
    assert found is not None

    def counted(*args: object) -> object:
        calls.append(args)
        return found(*args)

    monkeypatch.setattr(REGISTRY, "lookup", lambda name: counted if name == "ROMAN" else None)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    evaluated = evaluate_workbook(str(tmp_path / "roman.xlsx"))
    values = evaluated.grid.order[0]
    assert [values.get(r, 3) for r in (2, 3, 4, 5, 6)] == ["III", "IV", "V", "I", "II"]
    assert len(calls) == 5 and evaluated.stats["vector"] == 400
