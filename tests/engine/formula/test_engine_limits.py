"""Excel's limits, and work beyond them ending fast: formulas deeper or longer than Excel takes, deep
formulas within them, text results past 32,767 characters, arrays past Excel's sizes, large arrays
within them, and LAMBDAs named in the workbook calling themselves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
from click.testing import CliRunner
from openpyxl.workbook.defined_name import DefinedName

from xlrating.cli import main
from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import NotComputed
from xlrating.functions import ExcelError


def _book(path: Path, cells: dict[str, Any], names: dict[str, str] | None = None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for cell, value in cells.items():
        ws[cell] = value
    for name, text in (names or {}).items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    wb.save(path)
    return path


def _computed(tmp_path: Path, cells: dict[str, Any], names: dict[str, str] | None = None) -> tuple[dict[str, Any],
                                                                                                   list[str]]:
    """Every cell's value after evaluating, and the warnings."""
    evaluated = evaluate_workbook(str(_book(tmp_path / "book.xlsx", cells, names)))
    sheet = evaluated.grid.sheet("Sheet")
    values = {}
    for cell in cells:
        column, row = openpyxl.utils.cell.coordinate_from_string(cell)
        values[cell] = sheet.get(row, openpyxl.utils.cell.column_index_from_string(column))
    return values, evaluated.warnings


def _nested(levels: int, inner: str = "A1") -> str:
    return "=" + "ABS(" * levels + inner + ")" * levels


# --- one formula beyond Excel's limits: that cell's warning, never the workbook's failure ----------

def test_a_formula_nesting_functions_deeper_than_excel_allows_is_that_cells_warning(tmp_path: Path) -> None:
    source = _book(tmp_path / "deep.xlsx", {"A1": -2, "B1": _nested(64), "B2": _nested(65), "B3": _nested(3000),
                                            "B4": "=B2+1", "B5": "=A1*3"})
    result = CliRunner().invoke(main, ["convert", str(source), "-o", str(tmp_path / "out.xlsx")])
    assert result.exit_code == 0, result.output
    ws = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert (ws["B1"].value, ws["B5"].value) == (2, -6)  # 64 levels is within Excel's limit
    assert (ws["B2"].value, ws["B3"].value, ws["B4"].value) == (None, None, None)  # left for Excel, with warnings
    for cell in ("B2", "B3"):
        assert f"Sheet!{cell}: the formula nests functions" in result.output
    assert "Sheet!B4: reads Sheet!B2, which was not computed" in result.output


def test_a_formula_longer_than_excel_allows_is_that_cells_warning(tmp_path: Path) -> None:
    longest = "=" + "+".join(["1"] * 4096)  # 8,191 characters after the "="
    values, warnings = _computed(tmp_path, {"A1": longest, "A2": longest + "+1", "A3": "=2*3"})
    assert values["A1"] == 4096.0 and values["A3"] == 6.0
    assert isinstance(values["A2"], NotComputed)
    assert warnings == [("Sheet!A2: the formula is 8,193 characters long, more than the 8,192 Excel allows (Excel "
                         "does not take such a formula, so it has no value of Excel's)")]


def test_deep_formulas_within_excel_limits_are_computed(tmp_path: Path) -> None:
    cells = {"A1": 2, "B1": "=" + "(" * 4000 + "A1" + ")" * 4000,  # 8,002 characters, no function
             "B2": "=" + "+".join(["A1"] * 2730), "B3": "=" + "-" * 4000 + "A1", "B4": _nested(64, "-A1")}
    values, warnings = _computed(tmp_path, cells)
    assert (values["B1"], values["B2"], values["B3"], values["B4"]) == (2.0, 5460.0, 2.0, 2.0)
    assert warnings == []


# --- text: 32,767 characters at most ---------------------------------------------------------------

VALUE = ExcelError("#VALUE!")


def test_text_results_longer_than_excel_holds_are_value_errors(tmp_path: Path) -> None:
    cells = {"A1": '=LEN(TEXTJOIN(",",TRUE,SEQUENCE(10000)))',  # 48,893 characters
             "A2": '=LEN(TEXTJOIN(",",TRUE,SEQUENCE(1000000)))', "A3": '=LEN(TEXTJOIN(",",TRUE,SEQUENCE(5000)))',
             "A4": '=LEN(REPT("ab",16383))', "A5": '=REPT("ab",16384)', "A6": '=REPT("x",1E+15)',
             "A7": '=LEN(REPT("a",20000)&REPT("b",12767))', "A8": '=REPT("a",20000)&REPT("b",12768)',
             "A9": '=SUBSTITUTE(REPT("a",20000),"a","bb")', "A10": '=CONCAT(REPT("a",32767),"b")',
             "A11": '=LEN(CONCATENATE(REPT("a",32767)))', "A12": '=CONCATENATE(REPT("a",32767),"b")',
             "A13": '=ARRAYTOTEXT(SEQUENCE(10000))', "A14": '=IFERROR(LEN(CONCAT(SEQUENCE(100000))),-1)',
             "A15": '=TEXTJOIN(",",TRUE,NA(),REPT("a",32767),"b")'}  # an error argument is that error
    values, warnings = _computed(tmp_path, cells)
    assert [values[f"A{row}"] for row in range(1, 16)] == [
        VALUE, VALUE, 23892.0, 32766.0, VALUE, VALUE, 32767.0, VALUE, VALUE, VALUE, 32767.0, VALUE, VALUE, -1.0,
        ExcelError("#N/A")]
    assert warnings == []


def test_textjoin_ignoring_empties_leaves_out_empty_texts_too(tmp_path: Path) -> None:
    # the common TEXTJOIN(",",TRUE,IF(range>3,range,"")): the rows IF turned into "" are left out
    cells = {"A1": 1, "A2": 5, "A3": 7, "A4": 2, "B1": '=TEXTJOIN(",",TRUE,IF(A1:A4>3,A1:A4,""))',
             "B2": '=TEXTJOIN("-",FALSE,1,"",2.5)', "B3": '=TEXTJOIN("-",TRUE,A5,1,"",TRUE)'}
    values, _ = _computed(tmp_path, cells)
    assert (values["B1"], values["B2"], values["B3"]) == ("5,7", "1--2.5", "1-TRUE")


# --- arrays: Excel's sizes, and what is within them computed -----------------------------------------

def test_arrays_past_excels_sizes_end_at_once_with_what_excel_shows(tmp_path: Path) -> None:
    cells = {"A1": "=SUM(MAKEARRAY(20000,20000,LAMBDA(r,c,r*c)))",  # 400 million values
             "A2": "=COUNT(SEQUENCE(33284,1613))",  # 53,687,092 values: Excel runs out of resources
             "A3": "=SUM(MUNIT(100000))", "A4": "=SEQUENCE(2^20+1)", "A5": "=SUM(SEQUENCE(,2^20+1))",
             "A6": "=SUM(MAKEARRAY(2^20+1,1,LAMBDA(r,c,r)))", "A7": "=IFERROR(A1,0)",
             "A8": "=SUM(SEQUENCE(,2^20))",  # an array may be wider than the sheet
             "A9": "=SEQUENCE(1,20000)",  # but spills only as far as the sheet's edge
             "A10": "=SUM(MAKEARRAY(3,4,LAMBDA(r,c,r*c)))"}
    values, warnings = _computed(tmp_path, cells)
    for cell in ("A1", "A2", "A3", "A7"):
        assert isinstance(values[cell], NotComputed), cell
    assert (values["A4"], values["A5"], values["A6"]) == (VALUE, VALUE, VALUE)
    assert values["A8"] == 2.0 ** 20 * (2.0 ** 20 + 1) / 2
    assert values["A9"] == ExcelError("#SPILL!")
    assert values["A10"] == 60.0
    assert warnings[0] == ("Sheet!A1: MAKEARRAY: an array of 20,000 x 20,000 = 400,000,000 values, more than the "
                           "53,687,091 Excel holds in one array (Excel stops with \"Excel ran out of resources\" and "
                           "shows no value)")
    assert [w.split(":")[0] for w in warnings] == ["Sheet!A1", "Sheet!A2", "Sheet!A3", "Sheet!A7"]


def test_large_arrays_within_excels_limits_are_computed(tmp_path: Path) -> None:
    cells = {"A1": "=SUM(MMULT(SEQUENCE(3000,3000,1,0),SEQUENCE(3000,3000,1,0)))",  # every entry is 3000
             "A2": "=INDEX(MMULT(SEQUENCE(2,3),SEQUENCE(3,2)),2,2)",  # 4*2 + 5*4 + 6*6
             "A3": "=SUM(SEQUENCE(2500,2500))",  # more than the 4,000,000 values the engine held before
             "A4": '=MMULT({1,2},{1;"a"})', "A5": "=MMULT({1,2},{1,2})",
             "A6": "=MMULT({1,2},{1;NA()})", "A7": "=INDEX(MMULT({1,2;3,4},{5;6}),2,1)"}
    values, warnings = _computed(tmp_path, cells)
    assert values["A1"] == 27_000_000_000.0
    assert values["A2"] == 64.0
    assert values["A3"] == 6_250_000 * 6_250_001 / 2
    assert (values["A4"], values["A5"], values["A6"], values["A7"]) == (VALUE, VALUE, ExcelError("#N/A"), 39.0)
    assert warnings == []


# --- LAMBDAs named in the workbook that call themselves -------------------------------------------

# as Excel stores them: _xlfn.LAMBDA, the parameters _xlpm.; and plainly, as other programs write them
COUNTDOWN = "_xlfn.LAMBDA(_xlpm.n,IF(_xlpm.n=0,0,1+F(_xlpm.n-1)))"
RECURSIVE = {
    "F": COUNTDOWN,
    "FACTORIAL": "LAMBDA(n, IF(n<=1, 1, n*FACTORIAL(n-1)))",
    "FIB": "_xlfn.LAMBDA(_xlpm.n,IF(_xlpm.n<2,_xlpm.n,FIB(_xlpm.n-1)+FIB(_xlpm.n-2)))",
    "ISEVEN_": "LAMBDA(n, IF(n=0, TRUE, ISODD_(n-1)))",  # a pair calling each other
    "ISODD_": "LAMBDA(n, IF(n=0, FALSE, ISEVEN_(n-1)))",
    "RATIO": "LAMBDA(x, FACTORIAL(x)/FACTORIAL(x-1))",  # a LAMBDA name using a recursive one
    "SIX": "FACTORIAL(3)",  # a formula name using one
    "REVERSED": 'LAMBDA(s, IF(LEN(s)<=1, s, REVERSED(MID(s,2,LEN(s)))&LEFT(s,1)))',
    "HALVINGS": "LAMBDA(n, LET(half, n/2, IF(n<1, 0, 1+HALVINGS(half))))",
    "ADD4": "LAMBDA(total, step, i, n, IF(i<=n, ADD4(total+step, step, i+1, n), total))",
    "DOWNSUM": "LAMBDA(r, IF(r>5, 0, INDEX(Sheet!$B$1:$B$5, r)+DOWNSUM(r+1)))",
}


def test_the_issues_recursive_lambda_is_computed_by_convert(tmp_path: Path) -> None:
    source = _book(tmp_path / "lambda.xlsx", {"A1": "=F(10)"}, {"F": "LAMBDA(n, IF(n=0, 0, 1+F(n-1)))"})
    result = CliRunner().invoke(main, ["convert", str(source), "-o", str(tmp_path / "out.xlsx")])
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    assert openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active["A1"].value == 10


def test_recursive_lambdas_named_in_the_workbook_are_called_call_by_call(tmp_path: Path) -> None:
    cells = {"A1": "=F(10)", "A2": "=F(300)", "A3": "=FACTORIAL(10)", "A4": "=FACTORIAL(20)", "A5": "=FIB(15)",
             "A6": "=ISEVEN_(101)", "A7": "=ISEVEN_(300)", "A8": "=RATIO(12)", "A9": "=SIX*2",
             "A10": '=REVERSED("recursion")', "A11": "=HALVINGS(1000)", "A12": "=LET(k, 5, FACTORIAL(k))",
             "A13": "=DOWNSUM(1)", "A14": "=SUM(MAP(SEQUENCE(4), FACTORIAL))",
             "A15": "=SUM(MAP(SEQUENCE(4), LAMBDA(x, FACTORIAL(x+1))))", "A16": "=F(2, 3)", "A17": "=FACTORIAL",
             "B1": "=ROW()*2", "B2": "=ROW()*2", "B3": "=ROW()*2", "B4": "=ROW()*2", "B5": "=ROW()*2"}
    values, warnings = _computed(tmp_path, cells, RECURSIVE)
    assert [values[f"A{row}"] for row in range(1, 18)] == [
        10.0, 300.0, 3628800.0, 2432902008176640000.0, 610.0, False, True, 12.0, 12.0, "noisrucer", 10.0, 120.0,
        30.0, 33.0, 152.0, VALUE, ExcelError("#CALC!")]
    assert warnings == []


def test_a_recursion_deeper_than_excels_stack_is_num_error(tmp_path: Path) -> None:
    # Excel's operand stack of 1,024 entries, a call taking its parameters + 1: one parameter recurses
    # about 512 deep, four parameters about 204 (published measurements: 203 calls, not 204)
    cells = {"A1": "=F(5000)", "A2": "=IFERROR(F(5000), -1)", "A3": "=ADD4(0, 1, 1, 150)",
             "A4": "=ADD4(0, 1, 1, 250)", "A5": "=F(400)", "A6": "=A1+1"}
    values, warnings = _computed(tmp_path, cells, RECURSIVE)
    num = ExcelError("#NUM!")
    assert [values[f"A{row}"] for row in range(1, 7)] == [num, num, 150.0, num, 400.0, num]
    assert warnings == []


def test_a_sheets_own_recursive_lambda_is_the_one_its_formulas_call(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    other = wb.create_sheet("Other")
    wb.defined_names["G"] = DefinedName("G", attr_text="LAMBDA(n, IF(n=0, 0, 1+G(n-1)))")
    other.defined_names["G"] = DefinedName("G", attr_text="LAMBDA(n, IF(n=0, 0, 2+G(n-1)))")
    ws["A1"] = other["A1"] = "=G(5)"
    wb.save(tmp_path / "scoped.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "scoped.xlsx"))
    assert (evaluated.grid.sheet("Sheet").get(1, 1), evaluated.grid.sheet("Other").get(1, 1)) == (5.0, 10.0)
