"""Formulas filled down a column that differ only in their literals (a number or a string changing
from row to row: ``VLOOKUP("item3",...)``, ``"item4"`` ...; ``DATE(2024,MOD(7,12)+1,D7)``) are one
block: read once, compiled once, evaluated a column at a time with each row's literal. Every row
must get the value the cell-by-cell path gives its own text: keys and criteria of every kind,
wildcards, quotes, a literal in a place that takes only a constant (ROUND's digits), text
compared, and formulas the reader rewrites (``--``), which stay one block per text."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.evaluate.vector import Unsupported
from xlrating.engine.formula.filled_down import literal_shape

ROWS = 40
KEYS = ["apple", "Banana", "zzz", "a*", "", 'a"b', "APPLE", "cherry", "x?z", "3"]
CRITERIA = [">5", "a*", "<>", "", "apple", "=3", "<=0", ">=b", "banana", "~*"]


def _formulas(r: int, rng: random.Random) -> list[str]:
    key = KEYS[r % len(KEYS)].replace('"', '""')
    crit = CRITERIA[(r * 7) % len(CRITERIA)]
    x = rng.choice([0, 1, 2.5, 0.125, 100, 7, 1e-3])
    return [
        f'=VLOOKUP("{key}",$K$1:$M$12,2,FALSE)',
        f"=MATCH({rng.choice([0, 1, 2.5, 3, 8, 99])},$P$1:$P$8,1)+MATCH(-{r},$P$1:$P$8,1)",
        f'=COUNTIF($K$1:$K$12,"{crit}")',
        f'=SUMIF($K$1:$K$12,"{crit}",$L$1:$L$12)',
        f'=LEFT("{key}",{r % 4})',
        f"=ROUND(A{r}*{x},{r % 3})",
        f'=IF(A{r}>{x},"{key}","low{r}")',
        f'=A{r}="{key}"',
        f"=DATE(2024,{r % 14},{r * 3 % 40})",
        f"=MOD({r},7)+{r}%",
        f"=--A{r}+{x}",
        f"={x}*1E+3+SUM(A{r},{x})",
        f'=IFERROR(1/{x},"div")',
        f'=CONCATENATE("{key}",A{r})',
    ]


def _book(path: Path) -> Path:
    rng = random.Random(3)
    book = openpyxl.Workbook()
    sheet = book.active
    for r, (k, v, w) in enumerate([("apple", 1, "a"), ("Banana", 2.5, "b"), ("cherry", "t", None), (3, 4, 5),
                                   ("a*c", None, "c"), ("", 6, True), ("abc", -1, "d"), ("APPLE", 8, "e"),
                                   ('a"b', 9, 10), ("x" * 5, 11, "f"), (True, 12, "g"), ("3", 13, "h")], start=1):
        sheet.cell(r, 11, k)
        sheet.cell(r, 12, v)
        sheet.cell(r, 13, w)
    for r, p in enumerate([-3, 0, 1, 2.5, 7, 8, 20, 1e9], start=1):
        sheet.cell(r, 16, p)
    for r in range(2, ROWS + 2):
        sheet.cell(r, 1, rng.choice([rng.uniform(-10, 200), 0, 3, "apple", True, None]))
        for j, formula in enumerate(_formulas(r, rng)):
            sheet.cell(r, 2 + j if j < 9 else 8 + j, formula)  # B..J, then Q onwards (clear of K:P)
    book.save(path)
    return path


def _values(path: Path) -> tuple[dict[tuple[int, int], str], object]:
    evaluated = evaluate_workbook(str(path))
    sheet = evaluated.grid.order[0]
    return {(r, c): repr(sheet.get(r, c)) for r in range(1, ROWS + 2) for c in range(1, 24)}, evaluated


def test_literals_changing_by_row_give_the_cell_by_cell_values(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = _book(tmp_path / "literals.xlsx")
    vectorised, evaluated = _values(path)
    blocks: dict[int, int] = {}
    for block in evaluated.blocks:  # type: ignore[attr-defined]
        blocks[block.col] = blocks.get(block.col, 0) + 1
    # one block per column (but the -- column: the reader reads it 0+A2, so its texts stay apart)
    assert {col for col, n in blocks.items() if n != 1} == {18} and blocks[18] > ROWS // 2
    assert evaluated.stats["vector"] >= 6 * ROWS  # type: ignore[attr-defined]

    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    cell_by_cell, _ = _values(path)
    assert {k: (v, cell_by_cell[k]) for k, v in vectorised.items() if v != cell_by_cell[k]} == {}


def test_the_shape_of_a_formula_leaves_out_its_literals_and_relative_rows() -> None:
    a = literal_shape('=VLOOKUP("it""em3",$A$2:$C$9,3,FALSE)+B7*1.5E+3', 7)
    b = literal_shape('=VLOOKUP("x",$A$2:$C$9,4,FALSE)+B8*2', 8)
    assert a is not None and b is not None and a[0] == b[0]
    assert a[1] == ('it"em3', 3.0, 1500.0) and b[1] == ("x", 4.0, 2.0)
    # names, functions, sheets and whole rows holding digits are not literals; absolute rows stay
    assert literal_shape("=LOG10(A7)+Sheet2!B7+SUM(3:5)+'Q 4'!C$9", 7)[1] == ()  # type: ignore[index]
    assert literal_shape("=A$7+1", 7)[0] != literal_shape("=A$8+1", 8)[0]  # type: ignore[index]
    assert literal_shape("={1,2}+A1", 1) is None
