"""Workbooks built for the engine tests, and the values other engines give for them."""

from __future__ import annotations

import math
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.workbook.defined_name import DefinedName

from xlrating.engine import evaluate_workbook
from xlrating.engine.formula.tree import column_letters
from xlrating.functions import ExcelError


def native_book(path: Path, rows: int = 12) -> Path:
    """Ordinary Excel formulas of the kinds rating sheets use, over numbers, text, blanks and errors."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    ws.append(["players", "place", "score", "pct", "value", "rating", "flag", "rank", "total", "note"])
    for r in range(2, rows + 2):
        ws.cell(r, 1, 10 + r % 5)
        ws.cell(r, 2, r - 1)
        ws.cell(r, 3, None if r == 5 else (r * 7) % 11)  # one blank score
        ws[f"D{r}"] = f"=(A{r}+0.5-B{r})/A{r}*100"
        ws[f"E{r}"] = f"=MIN(IF(A{r}>12,A{r}/3.5+2,A{r}/7+2),15)"
        ws[f"F{r}"] = f"=ROUND(40+E{r}/100*(D{r}-40),3)"
        ws[f"G{r}"] = f"=D{r}>=50"
        ws[f"H{r}"] = f"=RANK(F{r},F$2:F${rows + 1})"
        ws[f"I{r}"] = f"=C{r}" if r == 2 else f"=I{r - 1}+C{r}"  # running total
        ws[f"J{r}"] = f'=IF(C{r}>5,"high","low")'
        # the guards rating templates put around every formula
        ws[f"K{r}"] = f'=IF(OR(C{r}="",A{r}=""),"",C{r}*2)'
        ws[f"L{r}"] = f'=IF(C{r}<>"",C{r}+K{r},"none")'
        ws[f"M{r}"] = f"=IF(AND(A{r}>10,C{r}>3),1,0)"
        ws[f"N{r}"] = f'=IFERROR(1/C{r},"")'
        ws[f"O{r}"] = f'=IF(J{r}="","?",N{r})'
    last = rows + 1
    ws[f"A{last + 2}"] = f"=SUM(D2:D{last})"
    ws[f"B{last + 2}"] = f"=AVERAGE(C2:C{last})"
    ws[f"C{last + 2}"] = f"=COUNT(C2:C{last})"
    ws[f"D{last + 2}"] = f"=MAX(F2:F{last})-MIN(F2:F{last})"
    ws[f"E{last + 2}"] = f"=ABS(-D{last + 2})"
    ws[f"F{last + 2}"] = "=1/0"
    ws[f"G{last + 2}"] = f"=IFERROR(F{last + 2},-1)"
    ws[f"H{last + 2}"] = f"=F{last + 2}+1"  # error propagates
    ws[f"I{last + 2}"] = f'=CONCATENATE("n=",C{last + 2})'
    ws[f"J{last + 2}"] = f"=VLOOKUP(3,B2:F{last},5,FALSE)"
    ws[f"A{last + 3}"] = "=Other!B2*2"
    ws[f"B{last + 3}"] = "=SUM(Scores)"
    ws[f"C{last + 3}"] = '="5"+1'
    ws[f"D{last + 3}"] = "=SUM(C2:E2)"
    other = wb.create_sheet("Other")
    other["A1"] = "weight"
    other["A2"] = 3
    other["B2"] = "=A2*Results!A2"
    wb.defined_names["Scores"] = DefinedName("Scores", attr_text=f"Results!$C$2:$C${last}")
    wb.save(path)
    return path


def formula_cells(path: Path) -> list[tuple[str, str]]:
    wb = openpyxl.load_workbook(path)
    return [(ws.title, c.coordinate) for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")]


def engine_values(path: Path) -> dict[tuple[str, str], Any]:
    evaluated = evaluate_workbook(str(path))
    values = {}
    for sheet, cell in formula_cells(path):
        col = openpyxl.utils.column_index_from_string("".join(ch for ch in cell if ch.isalpha()))
        row = int("".join(ch for ch in cell if ch.isdigit()))
        values[(sheet, cell)] = evaluated.grid.sheet(sheet).get(row, col)
    return values


def formulas_values(path: Path) -> dict[tuple[str, str], Any]:
    """What plain ``formulas`` computes for every formula cell (no xlrating functions involved)."""
    import formulas

    solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    values = {}
    for sheet, cell in formula_cells(path):
        key = f"'[{path.name}]{sheet.upper()}'!{cell}"
        value = solution[key].value[0][0]
        values[(sheet, cell)] = _plain(value)
    return values


def _plain(value: Any) -> Any:
    from formulas.tokens.operand import XlError

    if isinstance(value, XlError):
        return ExcelError(str(value))
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def same(a: Any, b: Any) -> bool:
    """Equal as Excel shows them: numbers to 12 significant digits, errors by code."""
    if isinstance(a, ExcelError) or isinstance(b, ExcelError):
        return isinstance(a, ExcelError) and isinstance(b, ExcelError) and a.code == b.code
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def differences(ours: dict[Any, Any], theirs: dict[Any, Any]) -> dict[Any, tuple[Any, Any]]:
    return {k: (ours[k], theirs.get(k)) for k in ours if not same(ours[k], theirs.get(k))}


def cell(col: int, row: int) -> str:
    return f"{column_letters(col)}{row}"


def rules_book(path: Path) -> Path:
    """Excel's rules the review found broken: rounding as shown, an omitted argument, text numbers in
    ranges, the first error in argument order, a sheet-local name. (No TRUE/FALSE in ranges here:
    LibreOffice counts them as 1/0, Excel skips them. No ``SUM(error cell, error expression)``:
    LibreOffice lets the error of an expression win over an earlier referenced one.)"""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    inputs = {"A1": 1.005, "A2": 0.285, "A3": 2.675, "A4": -2.5, "A5": 1234.5, "A6": "=0.1+0.2", "A7": 4.35,
              "A8": 1, "A9": "3", "A10": 5, "A11": "abc", "A12": "=NA()", "A13": "=1/0", "A14": 9, "A15": 10}
    for address, value in inputs.items():
        ws[address] = value
    formulas = ["=ROUND(A1,2)", "=ROUND(A2,2)", "=ROUND(A3,2)", "=ROUND(-A1,2)", "=ROUND(A4,0)", "=ROUND(A5,-1)",
                "=ROUNDUP(A6,1)", "=ROUNDDOWN(A7,2)", "=ROUND(A14/3,)", "=SUM($A$8:A10)", "=MAX(A8:A9)",
                "=AVERAGE(A8:A9)", "=MIN(A9:A11)", "=COUNT(A8:A13)", "=SUMPRODUCT(A8:A10)", '=SUMIF(A8:A11,">0")',
                '=AVERAGEIF(A8:A11,">0")', "=SUM(A12*1,A13)", "=MAX(1,A12,A13)", "=SUMPRODUCT(--(A8:A10>1))",
                "=Rate*2"]
    for row, formula in enumerate(formulas, 1):
        ws[f"B{row}"] = formula
    local = wb.create_sheet("T")
    local["A1"] = 20
    local["B1"] = "=Rate*2"
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="S!$A$15")
    local.defined_names["Rate"] = DefinedName("Rate", attr_text="T!$A$1")
    wb.save(path)
    return path


def saved_by_excel(path: Path) -> Path:
    """The workbook at ``path`` marked as Excel marks the workbooks it saves (workbook.xml's
    fileVersion), so the engine computes its ordinary formulas as legacy ones."""
    with zipfile.ZipFile(path) as source:
        parts = {item.filename: source.read(item.filename) for item in source.infolist()}
    parts["xl/workbook.xml"] = re.sub(
        rb"(<workbook[^>]*>)", rb'\1<fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="10212"/>',
        parts["xl/workbook.xml"], count=1)
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    return path
