"""VLOOKUP, HLOOKUP, MATCH, COUNTIF(S), SUMIF(S) and SUMPRODUCT over fixed ranges are computed a column
at a time (one parse, one call per distinct key) by the same implementation the cell-by-cell path
calls, with the ranges it would read: every value and error (keys of every type, case, wildcards,
criteria, empty cells, booleans, errors in keys and in tables, other sheets) must come out exactly
as cell by cell."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate import vector_compile

TABLE = ["apple", "Banana", "cherry", 3, 7.5, True, None, "=1/0", "a*c", "", "abc", "APPLE", 0, -2, "=NA()",
         "x" * 300, 1e300, "3", False, "date"]
KEYS = ["apple", "APPLE", "banana", "zzz", 3, 3.0, "3", 7.5, True, False, None, "=1/0", "=NA()", "a*", "a?c",
        "", 0, -2, "x" * 300, 99, "<>", ">5", "<=0", "=apple", "*", "~*"]
FORMULAS = [
    "VLOOKUP(A{r},$K$1:$M$20,2,FALSE)", "VLOOKUP(A{r},$K$1:$M$20,3,0)", "VLOOKUP(A{r},$K$1:$M$20,2,TRUE)",
    "VLOOKUP(A{r},$K$1:$M$20,4,FALSE)", "VLOOKUP(A{r},$K$1:$M$20,0,FALSE)", "VLOOKUP(A{r},$K$1:$M$20,2)",
    "VLOOKUP(A{r},Other!$A$1:$B$5,2,FALSE)", "IFERROR(VLOOKUP(A{r},$K$1:$M$20,3,FALSE),\"none\")",
    "HLOOKUP(A{r},$K$30:$Z$31,2,FALSE)", "MATCH(A{r},$K$1:$K$20,0)", "MATCH(A{r},$L$1:$L$20,1)",
    "MATCH(A{r},$K$1:$K$20)", "MATCH(A{r},$K$1:$L$20,0)", "COUNTIF($K$1:$K$20,A{r})", "COUNTIF($K$1:$M$20,A{r})",
    "COUNTIF($K$1:$K$20,\">5\")", "COUNTIF($K$1:$K$20,\"a*\")", "COUNTIF($K$1:$K$20,\"<>\")",
    "COUNTIF($K$1:$K$20,\"\")", "COUNTIF($K:$K,A{r})", "COUNTIFS($K$1:$K$20,A{r},$L$1:$L$20,\">0\")",
    "SUMIF($K$1:$K$20,A{r},$L$1:$L$20)", "SUMIF($L$1:$L$20,A{r})", "SUMIFS($L$1:$L$20,$K$1:$K$20,A{r})",
    "SUMPRODUCT($L$1:$L$20,$M$1:$M$20)", "SUMPRODUCT($L$1:$L$20)", "SUMPRODUCT($L$1:$L$20,$M$1:$M$19)",
    "IF(COUNTIF($K$1:$K$20,A{r})>1,\"many\",MATCH(A{r},$K$1:$K$20,0))", "VLOOKUP(\"cherry\",$K$1:$M$20,2,FALSE)",
    "VLOOKUP(A{r},$K$1:$M$20,2,FALSE)+1", "COUNTIF(Other!$A$1:$A$5,A{r})", "MATCH(\"a\"\"b\",$K$1:$K$20,0)",
    "COUNTIF(A{r},\">5\")", "SUMPRODUCT(A{r})", "SUMPRODUCT(A{r},A{r})",
    # over ascending numbers (P) and a table of numbers and plain texts only (P:Q)
    "VLOOKUP(A{r},$P$1:$Q$8,2)", "VLOOKUP(A{r},$P$1:$Q$12,2,TRUE)", "MATCH(A{r},$P$1:$P$8,1)",
    "HLOOKUP(A{r},$K$30:$Z$31,2)", "VLOOKUP(A{r},$K:$M,3,FALSE)", "MATCH(A{r}&\"\",$K$1:$K$20,0)",
    "COUNTIF($P$1:$Q$8,A{r})", "COUNTIF($K$1:$K$20,\">=b\")", "COUNTIF($K$1:$K$20,\"<apple\")",
    "COUNTIF($L$1:$L$20,\"<>5\")", "COUNTIF($P$1:$Q$8,\"<>one\")", "COUNTIF($P$1:$Q$8,\"<=2.5\")",
    "COUNTIF($P$1:$P$8,\"=inf\")", "SUMPRODUCT($P$1:$P$8,$P$1:$P$8)", "SUMPRODUCT($K$1:$M$3,$K$4:$M$6)",
]


def _value(sheet: openpyxl.worksheet.worksheet.Worksheet, ref: str, value: object) -> None:
    sheet[ref] = value


def _book(path: Path, seed: int) -> tuple[Path, int]:
    rng = random.Random(seed)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Main"
    for r, key in enumerate(TABLE, start=1):
        sheet.cell(r, 11, key)
        sheet.cell(r, 12, rng.choice([rng.randint(-5, 20), rng.random() * 10, "t", None, True, "=1/0"]))
        sheet.cell(r, 13, rng.choice([rng.randint(-5, 20), "text", None, False, "=NA()", "a\"b"]))
    for r, (p, q) in enumerate([(-3, "minus"), (0, "zero"), (1, "one"), (2.5, "two and a half"), (7, 7), (8, "Eight"),
                                (20, 1e300), (1e9, "big")], start=1):
        sheet.cell(r, 16, p)
        sheet.cell(r, 17, q)
    for j in range(16):  # a table across for HLOOKUP
        sheet.cell(30, 11 + j, TABLE[j])
        sheet.cell(31, 11 + j, f"h{j}")
    keys = KEYS + [rng.choice(TABLE + KEYS) for _ in range(40)]
    for r, key in enumerate(keys, start=1):
        sheet.cell(r, 1, key)
        for j, text in enumerate(FORMULAS):
            sheet.cell(r, 40 + j, "=" + text.format(r=r))
    other = book.create_sheet("Other")
    for r, (a, b) in enumerate([("apple", 1), (3, "three"), (True, "yes"), ("zzz", None), ("=1/0", 5)], start=1):
        other.cell(r, 1, a)
        other.cell(r, 2, b)
    book.save(path)
    return path, len(keys)


def _values(path: Path, rows: int) -> tuple[dict[tuple[int, int], str], dict[str, int], list[str]]:
    evaluated = evaluate_workbook(str(path))
    sheet = evaluated.grid.order[0]
    values = {(r, c): repr(sheet.get(r, c)) for r in range(1, rows + 1) for c in range(40, 40 + len(FORMULAS))}
    return values, evaluated.stats, evaluated.warnings


@pytest.mark.parametrize("seed", [1, 2])
def test_a_column_at_a_time_gives_what_cell_by_cell_gives(tmp_path: Path, seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path, rows = _book(tmp_path / "lookups.xlsx", seed)
    vectorised, stats, warnings = _values(path, rows)
    monkeypatch.setattr(vector_compile, "MEMOISED", frozenset())  # every such formula cell by cell
    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    cell_by_cell, cell_stats, cell_warnings = _values(path, rows)
    differing = {k: (vectorised[k], cell_by_cell[k]) for k in vectorised if vectorised[k] != cell_by_cell[k]}
    assert differing == {}
    assert warnings == cell_warnings
    assert stats["vector"] > cell_stats["vector"] + rows * 20  # most of them went a column at a time
    assert vectorised[(1, 40)] != repr(None)


def test_a_filled_down_lookup_column_is_compiled_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlrating.engine.evaluate import fallback

    book = openpyxl.Workbook()
    sheet = book.active
    for r in range(1, 101):
        sheet.cell(r, 1, f"k{r % 7}")
        sheet.cell(r, 2, f'=VLOOKUP(A{r},$E$1:$F$5,2,FALSE)')
        sheet.cell(r, 3, f'=COUNTIF($A$1:$A$100,A{r})')
    for r in range(1, 6):
        sheet.cell(r, 5, f"k{r}")
        sheet.cell(r, 6, r * 10)
    book.save(tmp_path / "column.xlsx")
    compiled: list[str] = []
    original = fallback.compile_formula
    monkeypatch.setattr(fallback, "compile_formula", lambda *a: compiled.append(a[1]) or original(*a))
    evaluated = evaluate_workbook(str(tmp_path / "column.xlsx"))
    values = evaluated.grid.order[0]
    # rows whose key is missing (k0, k6) give #N/A; a result is never guessed
    assert compiled == []
    assert values.get(1, 2) == 10.0 and values.get(7, 2).code == "#N/A" and values.get(1, 3) == 15.0
