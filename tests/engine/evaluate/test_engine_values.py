"""The engine's values: equal to plain ``formulas``, to functions.call, whichever path computes them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from tests.engine.engine_books import differences, engine_values, formulas_values, native_book, same
from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.evaluate import vector_compile
from xlrating.engine.evaluate.vector import Context, Unsupported
from xlrating.engine.evaluate.vector_compile import KERNELS
from xlrating.engine.read.grid import ERROR_BY_INDEX, Grid, NotComputed
from xlrating.functions import BY_NAME, ExcelError, call


def test_native_formulas_equal_plain_formulas(tmp_path: Path) -> None:
    book = native_book(tmp_path / "native.xlsx")
    ours = engine_values(book)
    assert len(ours) > 90
    assert differences(ours, formulas_values(book)) == {}


def test_fast_path_and_cell_by_cell_path_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = native_book(tmp_path / "native.xlsx")
    fast = engine_values(book)

    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    assert differences(fast, engine_values(book)) == {}


def test_filled_down_columns_take_the_vectorised_path(tmp_path: Path) -> None:
    evaluated = evaluate_workbook(str(native_book(tmp_path / "native.xlsx", rows=40)))
    assert evaluated.stats["vector"] > 5 * 40
    assert evaluated.stats["cell"] < 60


def _our_book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["players", "place", "rounds", "rating", "pct", "value", "new", "p_dci", "delta", "base", "weight"])
    cases = [(20, 1, 1, 40), (20, 20, 3, 55.5), (7, 3, 2, 0), (12, 13, 1, 40), (0, 1, 1, 40), (9, 2.5, 2, 101),
             (15, None, 2, 40), (30, 4, 5, "x")]
    for i, (players, place, rounds, rating) in enumerate(cases, start=2):
        ws.append([players, place, rounds, rating])
        ws[f"E{i}"] = f"=DIPPOUCH_PERCENTILE(A{i},B{i})"
        ws[f"F{i}"] = f"=_xldudf_DIPPOUCH_VALUE(A{i},C{i})"
        ws[f"G{i}"] = f"=_xll.DIPPOUCH_NEW_RATING(D{i},E{i},F{i})"
        ws[f"H{i}"] = f'=xlrating.DCI_WIN_PROBABILITY(1600+A{i},1600,"table")'
        ws[f"I{i}"] = f'=DCI_DELTA(1600,1500+B{i}*10,"W","competitive")'
        ws[f"J{i}"] = f'=MERS_BASE_RANK(A{i},B{i},"round")'
        ws[f"K{i}"] = f"=MERS_WEIGHT(C{i},A{i},3,TRUE)"
    wb.save(path)
    return path


def test_our_functions_equal_functions_call_under_every_stored_name(tmp_path: Path) -> None:
    book = _our_book(tmp_path / "ours.xlsx")
    values = engine_values(book)
    ws = openpyxl.load_workbook(book).active
    for r in range(2, ws.max_row + 1):
        a, b, c, d = (ws.cell(r, k).value for k in range(1, 5))
        a, b, c, d = (float(v) if isinstance(v, (int, float)) else v for v in (a, b, c, d))
        pct = call("DIPPOUCH_PERCENTILE", [a, b])
        value = call("DIPPOUCH_VALUE", [a, c])
        expected = {
            "E": pct, "F": value, "G": call("DIPPOUCH_NEW_RATING", [d, pct, value]),
            "H": call("DCI_WIN_PROBABILITY", [1600 + a, 1600.0, "table"]),
            "I": call("DCI_DELTA", [1600.0, 1500 + (b or 0) * 10, "W", "competitive"]),
            "J": call("MERS_BASE_RANK", [a, b, "round"]), "K": call("MERS_WEIGHT", [c, a, 3.0, True]),
        }
        for column, want in expected.items():
            got = values[("Sheet", f"{column}{r}")]
            assert same(got, want), (f"{column}{r}", got, want)


@pytest.mark.parametrize("name", sorted({k[0] for k in KERNELS}))
def test_numpy_kernels_equal_functions_call(name: str) -> None:
    rng = random.Random(5)
    arity = next(k[1] for k in KERNELS if k[0] == name)
    special = [0.0, 1.0, 2.5, -1.0, 100.0, 100.5, 1e300, 7.0, 60.0]
    rows = [[rng.choice(special) if rng.random() < 0.3 else float(rng.randint(0, 70)) for _ in range(arity)]
            for _ in range(400)]
    grid = Grid()
    sheet = grid.add("S", len(rows))
    for r, args in enumerate(rows, start=1):
        for c, v in enumerate(args, start=1):
            sheet.set(r, c, v)
    from xlrating.engine.formula.reader import parse

    tree = parse(f"={name}(" + ",".join(f"{chr(65 + c)}1" for c in range(arity)) + ")")
    ctx = Context(grid, sheet, np.arange(1, len(rows) + 1), 1)
    result = vector_compile.compile_tree(tree, REGISTRY.lookup)(ctx)
    for i, args in enumerate(rows):
        want = call(BY_NAME[name], args)
        got = ExcelError(ERROR_BY_INDEX[int(result.err[i])]) if result.err is not None and result.err[i] \
            else float(result.num[i])
        assert same(got, want) and (isinstance(got, ExcelError) or got == want), (args, got, want)


def _recurrence_book(path: Path) -> Path:
    """Rating before (C) = previous rating after (D); after = DIPPOUCH_NEW_RATING(before, pct, value)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["pct", "value", "before", "after"])
    for r in range(2, 12):
        ws.cell(r, 1, 100 - r * 7)
        ws.cell(r, 2, 5 + r)
        ws[f"C{r}"] = "=40" if r == 2 else f"=D{r - 1}"
        ws[f"D{r}"] = f"=DIPPOUCH_NEW_RATING(C{r},A{r},B{r})"
    wb.save(path)
    return path


def test_columns_that_feed_each_other_are_evaluated_row_by_row(tmp_path: Path) -> None:
    values = engine_values(_recurrence_book(tmp_path / "chain.xlsx"))
    rating = 40.0
    for r in range(2, 12):
        assert values[("Sheet", f"C{r}")] == rating
        rating = call("DIPPOUCH_NEW_RATING", [rating, float(100 - r * 7), float(5 + r)])
        assert values[("Sheet", f"D{r}")] == rating


def test_circular_reference_without_iteration_is_0_as_excel_shows_it_with_a_warning(tmp_path: Path) -> None:
    # Excel leaves a circular reference uncalculated: its cells and the cells reading them show 0
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=B1+1"
    wb.active["B1"] = "=A1*2"
    wb.active["C1"] = "=A1+10"
    wb.active["D1"] = "=5"
    wb.save(tmp_path / "loop.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "loop.xlsx"))
    sheet = evaluated.grid.sheet("Sheet")
    assert [sheet.get(1, col) for col in range(1, 5)] == [0.0, 0.0, 0.0, 5.0]
    assert len(evaluated.warnings) == 1
    assert re.match(r"Sheet!(A1|B1): circular reference through 2 cell\(s\): Excel leaves them uncalculated",
                    evaluated.warnings[0])


def test_a_loop_an_if_steps_out_of_is_computed_as_excel_does(tmp_path: Path) -> None:
    # the cells read each other only through an IF branch not taken: Excel computes them (1, 1, 1)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([False, "=C1", "=D1", "=IF(IF(A1,B1,TRUE),1,B1)", "=B1+1"])
    ws.append([False, "=_xlfn.IFS(NOT(A2),1,TRUE,C2)", "=D2", "=B2", "=B2+1"])
    wb.save(tmp_path / "branch.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "branch.xlsx"))
    sheet = evaluated.grid.sheet("Sheet")
    assert [sheet.get(1, col) for col in range(2, 6)] == [1.0, 1.0, 1.0, 2.0]
    assert [sheet.get(2, col) for col in range(2, 6)] == [1.0, 1.0, 1.0, 2.0]
    assert evaluated.warnings == []


def test_circular_reference_iterates_when_the_workbook_enables_iterative_calculation(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.calculation.iterate = True
    wb.calculation.iterateCount = 100
    wb.calculation.iterateDelta = 0.000001
    wb.active["A1"] = "=B1/2+1"  # A = A/4 + 1: converges to 4/3
    wb.active["B1"] = "=A1/2"
    wb.save(tmp_path / "iterate.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "iterate.xlsx"))
    sheet = evaluated.grid.sheet("Sheet")
    assert sheet.get(1, 1) == pytest.approx(4 / 3, abs=1e-5)
    assert sheet.get(1, 2) == pytest.approx(2 / 3, abs=1e-5)
    assert evaluated.warnings == []


def test_a_function_excel_does_not_know_is_name_error_in_its_cell_only(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.title = "Board"
    wb.active.append([1, 2, 3])
    wb.active["C7"] = "=NOT_A_FUNCTION(1)"
    wb.active["C8"] = '=IFERROR(SUMM(A1:C1), "x")'
    wb.active["C9"] = "=ISERROR(C7)"
    wb.active["C10"] = "=SUM(A1:C1)"
    wb.save(tmp_path / "unknown.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "unknown.xlsx"))
    sheet = evaluated.grid.sheet("Board")
    assert sheet.get(7, 3) == ExcelError("#NAME?")
    assert (sheet.get(8, 3), sheet.get(9, 3), sheet.get(10, 3)) == ("x", True, 6.0)
    assert evaluated.warnings == []


def test_indirect_of_constant_text_is_a_plain_reference(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.append([None, 1])
    wb.active.append([None, 2])
    wb.active["A1"] = '=SUM(INDIRECT("B1:B3"))'
    wb.save(tmp_path / "indirect.xlsx")
    assert engine_values(tmp_path / "indirect.xlsx") == {("Sheet", "A1"): 3.0}


def test_indirect_of_a_computed_text_reads_the_cells_it_names(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=SUM(INDIRECT(B1))"
    wb.active["B1"] = '="C1:C"&D1'
    wb.active["D1"] = 3
    for row in (1, 2, 3, 4):
        wb.active.cell(row, 3, row * 10)
    wb.save(tmp_path / "dynamic.xlsx")
    assert evaluate_workbook(str(tmp_path / "dynamic.xlsx")).grid.sheet("Sheet").get(1, 1) == 60.0


def test_an_error_in_an_input_cell_propagates(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 5):
        ws[f"A{r}"] = "=1/0" if r == 3 else r
        ws[f"B{r}"] = f"=DIPPOUCH_PERCENTILE(10,A{r})"
        ws[f"C{r}"] = f"=B{r}*2"
    wb.save(tmp_path / "errors.xlsx")
    values = engine_values(tmp_path / "errors.xlsx")
    assert values[("Sheet", "B3")] == ExcelError("#DIV/0!")
    assert values[("Sheet", "C3")] == ExcelError("#DIV/0!")
    assert values[("Sheet", "C4")] == 2 * call("DIPPOUCH_PERCENTILE", [10.0, 4.0])


def _table_book(path: Path, blocker: bool = False) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    table = [["event", "date", "players", "rounds", "player", "place"], ["Open", 45000, 10, 3, "ann", 1],
             ["Open", 45000, 10, 3, "bob", 2], ["Cup", 45100, 8, 1, "bob", 1]]
    for row in table:
        ws.append(row)
    ws["H1"] = "=DIPPOUCH_RATINGS(A1:F4)"
    if blocker:
        ws["I3"] = "in the way"
    wb.save(path)
    return path


def test_table_function_spills_down_and_right(tmp_path: Path) -> None:
    evaluated = evaluate_workbook(str(_table_book(tmp_path / "table.xlsx")))
    sheet = evaluated.grid.sheet("Sheet")
    expected = call("DIPPOUCH_RATINGS", [[[sheet.get(r, c) for c in range(1, 7)] for r in range(1, 5)]])
    assert [[sheet.get(r, c) for c in range(8, 11)] for r in range(1, 4)] == expected
    assert evaluated.spills[("SHEET", 1, 8)] == (3, 3)


def test_spill_onto_a_filled_cell_is_a_spill_error(tmp_path: Path) -> None:
    evaluated = evaluate_workbook(str(_table_book(tmp_path / "blocked.xlsx", blocker=True)))
    assert evaluated.grid.sheet("Sheet").get(1, 8) == ExcelError("#SPILL!")


def test_spill_onto_a_filled_down_formula_is_a_spill_error(tmp_path: Path) -> None:
    path = _table_book(tmp_path / "onto_formulas.xlsx")
    wb = openpyxl.load_workbook(path)
    for r in range(2, 6):
        wb.active[f"J{r}"] = f"=A{r}&\"!\""
    wb.save(path)
    evaluated = evaluate_workbook(str(path))
    assert evaluated.grid.sheet("Sheet").get(1, 8) == ExcelError("#SPILL!")
    assert evaluated.grid.sheet("Sheet").get(3, 10) == "Open!"


def test_every_block_of_every_sheet_is_evaluated(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    for name in ("One", "Two", "Three"):
        ws = wb.create_sheet(name)
        for r in range(1, 6):
            ws[f"A{r}"] = r
            ws[f"B{r}"] = f"=A{r}*2"
            ws[f"C{r}"] = f'=LEN("x"&A{r})'  # cell by cell
            ws[f"D{r}"] = f"=B{r}+C{r}"
    wb.save(tmp_path / "sheets.xlsx")
    values = engine_values(tmp_path / "sheets.xlsx")
    assert len(values) == 3 * 15 and None not in values.values()
    assert values[("Three", "D5")] == 12.0


def _guarded_book(path: Path) -> Path:
    """The shape of the rating templates: every formula guarded by IF(OR(x="",y=""),"",...)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["B1"], ws["B2"] = 20, 3
    for r in range(5, 45):
        if r % 7:  # some rows left blank, as in a template not yet filled in
            ws[f"B{r}"] = r % 20 + 1
            ws[f"C{r}"] = None if r % 5 == 0 else 30 + r % 11
        ws[f"D{r}"] = f'=IF(OR($B{r}="",$B$1=""),"",DIPPOUCH_PERCENTILE($B$1,$B{r}))'
        ws[f"E{r}"] = f'=IF(D{r}="","",DIPPOUCH_NEW_RATING(IF($C{r}="",40,$C{r}),D{r},DIPPOUCH_VALUE($B$1,$B$2)))'
        ws[f"F{r}"] = f'=IF($E{r}="","",$E{r}-IF($C{r}="",40,$C{r}))'
    wb.save(path)
    return path


def test_guarded_template_formulas_take_the_fast_path_and_agree_with_the_cell_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = _guarded_book(tmp_path / "guarded.xlsx")
    evaluated = evaluate_workbook(str(book))
    assert evaluated.stats["cell"] == 0
    fast = engine_values(book)
    assert fast[("Sheet", "D7")] == "" and fast[("Sheet", "F7")] == ""  # a blank row stays blank
    assert fast[("Sheet", "E10")] == call("DIPPOUCH_NEW_RATING", [40.0, fast[("Sheet", "D10")],
                                                                  call("DIPPOUCH_VALUE", [20.0, 3.0])])

    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    assert differences(fast, engine_values(book)) == {}


def test_let_is_left_to_formulas_with_its_inputs_as_dependencies(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "=2*2"
    ws["B1"] = "=_xlfn.LET(_xlpm.x,A1,_xlpm.x*2)"
    ws["C1"] = "=B1+1"
    wb.save(tmp_path / "let.xlsx")
    assert engine_values(tmp_path / "let.xlsx") == {("Sheet", "A1"): 4.0, ("Sheet", "B1"): 8.0, ("Sheet", "C1"): 9.0}


def test_row_and_column_read_their_own_cell(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    for r in range(1, 4):
        wb.active[f"B{r}"] = "=ROW()*10+COLUMN()"
    wb.save(tmp_path / "row.xlsx")
    assert list(engine_values(tmp_path / "row.xlsx").values()) == [12.0, 22.0, 32.0]


def test_a_long_running_total_is_ordered_without_a_cell_graph(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 3001):
        ws.cell(r, 1, r % 7)
        ws.cell(r, 2, "=A1" if r == 1 else f"=B{r - 1}+A{r}")
    wb.save(tmp_path / "total.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "total.xlsx"))
    assert evaluated.grid.sheet("Sheet").get(3000, 2) == float(sum(r % 7 for r in range(1, 3001)))


def test_a_reference_into_another_workbook_is_left_for_excel_with_a_warning(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=[1]Sheet1!A1*2"
    wb.active["A2"] = "=A1+1"
    wb.active["A3"] = "=5*2"
    wb.save(tmp_path / "linked.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "linked.xlsx"))
    sheet = evaluated.grid.sheet("Sheet")
    assert isinstance(sheet.get(1, 1), NotComputed) and isinstance(sheet.get(2, 1), NotComputed)
    assert sheet.get(3, 1) == 10.0
    assert evaluated.warnings[0] == "Sheet!A1: [1]Sheet1!A1 refers to another workbook, which convert cannot read"
    assert evaluated.warnings[1].startswith("Sheet!A2: reads Sheet!A1, which was not computed")


def test_odd_sheet_names_and_undefined_names_behave_as_in_excel(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    wb.active.title = "Data"
    wb.create_sheet('!"')['A1'] = 5
    wb["Data"]["A1"] = "=SUM('!\"'!A1,IFERROR(NOT_DEFINED,0),1)"
    wb["Data"]["A2"] = "=NOT_DEFINED"
    wb.save(tmp_path / "odd.xlsx")
    values = engine_values(tmp_path / "odd.xlsx")
    assert values[("Data", "A1")] == 6.0
    assert values[("Data", "A2")] == ExcelError("#NAME?")


def test_a_column_of_flags_is_read_as_booleans_on_the_fast_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in range(1, 13):
        ws[f"A{r}"] = 10 + r
        ws[f"B{r}"] = [True, False, None][r % 3]  # world_championship: TRUE, FALSE or blank
        ws[f"C{r}"] = f"=DIPPOUCH_VALUE(A{r},2,B{r})"
        ws[f"D{r}"] = f"=B{r}"
        ws[f"E{r}"] = f"=B{r}+1"
        ws[f"F{r}"] = f"=IF(B{r},1,2)"
    wb.save(tmp_path / "flags.xlsx")
    evaluated = evaluate_workbook(str(tmp_path / "flags.xlsx"))
    assert evaluated.stats["cell"] == 0
    fast = engine_values(tmp_path / "flags.xlsx")
    assert fast[("Sheet", "D1")] is False and fast[("Sheet", "D2")] == 0.0 and fast[("Sheet", "D3")] is True
    assert fast[("Sheet", "C3")] == call("DIPPOUCH_VALUE", [13.0, 2.0, True])
    assert fast[("Sheet", "C2")] == call("DIPPOUCH_VALUE", [12.0, 2.0, None])

    def refuse(tree, lookup):  # type: ignore[no-untyped-def]
        raise Unsupported("test: everything cell by cell")

    monkeypatch.setattr("xlrating.engine.evaluate.model.compile_tree", refuse)

    monkeypatch.setattr("xlrating.engine.evaluate.model._PROGRAMS", {})  # none of the programs made before
    assert differences(fast, engine_values(tmp_path / "flags.xlsx")) == {}


def test_a_doubled_quote_in_a_text_literal_is_one_quote_in_a_filled_down_column(tmp_path: Path) -> None:
    # Excel writes a quote inside a string literal doubled; the value has one. A filled-down IF
    # (computed a column at a time) and a lone cell (cell by cell) must agree: a"b, never a""b.
    book = openpyxl.Workbook()
    sheet = book.active
    for r in range(1, 6):
        sheet.cell(r, 1, r)
        sheet.cell(r, 2, f'=IF(A{r}>1,"a""b","c""""")')
        sheet.cell(r, 3, f'=LEN("q""")+A{r}')
    sheet["E1"] = '=IF(A2>1,"a""b","c")'
    path = tmp_path / "quotes.xlsx"
    book.save(path)
    values = evaluate_workbook(str(path)).grid.order[0]
    assert [values.get(r, 2) for r in range(1, 6)] == ['c""', 'a"b', 'a"b', 'a"b', 'a"b']
    assert [values.get(r, 3) for r in range(1, 6)] == [3.0, 4.0, 5.0, 6.0, 7.0]
    assert values.get(1, 5) == 'a"b'
