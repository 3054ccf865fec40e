"""What a process keeps from one workbook for the next (the blocks a sheet's formulas make, the
evaluation thread) never carries one workbook's values, date system or failure into another."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from xlrating.engine import evaluate_workbook


def _book(path: Path, prices: list[float], mac_1904: bool = False) -> Path:
    wb = openpyxl.Workbook()
    if mac_1904:
        wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    for row, price in enumerate(prices, start=2):
        ws[f"A{row}"] = price
        ws[f"B{row}"] = f"=ROUND(A{row}*1.07,2)"
        ws[f"C{row}"] = f"=SUM($A$2:A{row})"
        ws[f"D{row}"] = f'=IF(A{row}>{10 + row},"big","small")'  # literals changing by row: one shape
        ws[f"E{row}"] = "=DATE(2024,1,1)"
    wb.save(path)
    return path


def _column(evaluated, col: int, rows: range) -> list:
    return [evaluated.grid.sheet("Sheet").get(r, col) for r in rows]


def test_workbooks_of_one_template_are_each_computed_from_their_own_values(tmp_path: Path) -> None:
    first = evaluate_workbook(str(_book(tmp_path / "a.xlsx", [10, 20, 30])))
    second = evaluate_workbook(str(_book(tmp_path / "b.xlsx", [1, 2, 40])))
    assert _column(first, 2, range(2, 5)) == [10.7, 21.4, 32.1]
    assert _column(second, 2, range(2, 5)) == [1.07, 2.14, 42.8]
    assert _column(first, 3, range(2, 5)) == [10, 30, 60]
    assert _column(second, 3, range(2, 5)) == [1, 3, 43]
    assert _column(first, 4, range(2, 5)) == ["small", "big", "big"]
    assert _column(second, 4, range(2, 5)) == ["small", "small", "big"]


def test_the_next_workbook_counts_dates_in_its_own_system(tmp_path: Path) -> None:
    plain = evaluate_workbook(str(_book(tmp_path / "a.xlsx", [1, 2])))
    mac = evaluate_workbook(str(_book(tmp_path / "b.xlsx", [1, 2], mac_1904=True)))
    again = evaluate_workbook(str(_book(tmp_path / "c.xlsx", [1, 2])))
    assert _column(plain, 5, range(2, 4)) == [45292, 45292]  # 1 January 2024, counted from 1900
    assert _column(mac, 5, range(2, 4)) == [43830, 43830]  # 1,462 days fewer from 1904
    assert _column(again, 5, range(2, 4)) == [45292, 45292]


def test_a_failed_evaluation_leaves_the_next_one_unharmed(tmp_path: Path) -> None:
    from xlrating.engine.evaluate.stack import with_deep_stack

    def fails() -> None:
        raise ValueError("this workbook's bug")

    try:
        with_deep_stack(fails)
    except ValueError as exc:
        assert str(exc) == "this workbook's bug"
    else:
        raise AssertionError("the error was not handed back")
    evaluated = evaluate_workbook(str(_book(tmp_path / "a.xlsx", [5])))
    assert _column(evaluated, 2, range(2, 3)) == [5.35]


def test_the_next_workbook_of_a_template_compiles_none_of_its_formulas_again(tmp_path: Path,
                                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from xlrating.engine.evaluate import model

    compiled = []

    def counted(tree, lookup):  # type: ignore[no-untyped-def]
        compiled.append(tree)
        return original(tree, lookup)

    original = model.compile_tree
    monkeypatch.setattr(model, "compile_tree", counted)
    monkeypatch.setattr(model, "_PROGRAMS", {})
    first = evaluate_workbook(str(_book(tmp_path / "a.xlsx", [10, 20, 30])))
    made = len(compiled)
    assert made >= 4  # ROUND, SUM, IF, DATE: one program per shape
    second = evaluate_workbook(str(_book(tmp_path / "b.xlsx", [1, 2, 40, 50], mac_1904=True)))
    assert len(compiled) == made
    assert _column(first, 2, range(2, 5)) == [10.7, 21.4, 32.1]
    assert _column(second, 2, range(2, 6)) == [1.07, 2.14, 42.8, 53.5]
    assert _column(second, 5, range(2, 4)) == [43830, 43830]  # the program's DATE in the second's own system
    assert _column(second, 4, range(2, 6)) == ["small", "small", "big", "big"]
