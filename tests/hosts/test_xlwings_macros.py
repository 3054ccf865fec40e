"""The buttons module and the Python behind it (validate, ingest, ranking from a workbook).

The macros talk to Excel only through a handful of xlwings Book/Sheet/Range calls; a small fake
book standing in for them is filled from a real template workbook, with cell values as xlwings
hands them over (numbers as floats, formulas as text beside their values).
"""

from __future__ import annotations

import datetime as dt
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from xlrating.gate.safe_open import load_workbook
from xlrating.hosts import xlwings_macros as macros
from xlrating.sheets.templates import build, ema_results

REPO = Path(__file__).resolve().parents[2]
BUTTONS = REPO / "macros" / "xlrating_buttons.bas"


def _column(letters: str) -> int:
    number = 0
    for ch in letters:
        number = number * 26 + ord(ch) - 64
    return number


class FakeRange:
    def __init__(self, sheet: FakeSheet, row: int, column: int, rows: int = 1, columns: int = 1):
        self.sheet, self.row, self.column, self.rows, self.columns = sheet, row, column, rows, columns

    def options(self, **options: Any) -> FakeRange:
        assert options == {"ndim": 2}
        return self

    @property
    def value(self) -> list[list[Any]]:
        return [[self.sheet.values.get((r, c)) for c in range(self.column, self.column + self.columns)]
                for r in range(self.row, self.row + self.rows)]

    @value.setter
    def value(self, rows: list[list[Any]]) -> None:
        for r, line in enumerate(rows):
            for c, item in enumerate(line):
                self.sheet.values[(self.row + r, self.column + c)] = item

    @property
    def formula(self) -> Any:
        texts = tuple(tuple(self.sheet.formulas.get((r, c), "" if v is None else str(v)) for c, v in
                            enumerate(line, start=self.column)) for r, line in enumerate(self.value, start=self.row))
        return texts[0][0] if self.rows == self.columns == 1 else texts


class FakeSheet:
    def __init__(self, name: str):
        self.name = name
        self.values: dict[tuple[int, int], Any] = {}
        self.formulas: dict[tuple[int, int], str] = {}
        self.active = False

    @property
    def used_range(self) -> FakeRange:
        cells = set(self.values) | set(self.formulas) or {(1, 1)}
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        bottom, right = max(r for r, _ in cells), max(c for _, c in cells)
        return FakeRange(self, top, left, bottom - top + 1, right - left + 1)

    def range(self, address: str) -> FakeRange:
        letters, digits = re.fullmatch(r"([A-Z]+)(\d+)", address).groups()  # type: ignore[union-attr]
        return FakeRange(self, int(digits), _column(letters))

    def clear_contents(self) -> None:
        self.values.clear()
        self.formulas.clear()

    def activate(self) -> None:
        self.active = True


class FakeSheets(list):  # type: ignore[type-arg]
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return next(sheet for sheet in self if sheet.name == key)
        return super().__getitem__(key)

    def add(self, name: str, after: Any = None) -> FakeSheet:
        sheet = FakeSheet(name)
        self.insert(self.index(after) + 1 if after is not None else 0, sheet)
        return sheet


class FakeBook:
    """An xlwings Book as the macros use it, loaded from a workbook file."""

    def __init__(self, path: Path):
        self.fullname, self.name, self.saved = str(path), path.name, 0
        self.sheets = FakeSheets()
        for ws in load_workbook(path).worksheets:
            sheet = FakeSheet(ws.title)
            for row in ws.iter_rows():
                for cell in row:
                    value = cell.value
                    if isinstance(value, str) and value.startswith("="):
                        sheet.formulas[(cell.row, cell.column)] = value  # no cached value: Excel would have one
                    elif isinstance(value, (int, float)) and not isinstance(value, bool):
                        sheet.values[(cell.row, cell.column)] = float(value)  # COM numbers are doubles
                    elif value is not None:
                        sheet.values[(cell.row, cell.column)] = value
            self.sheets.append(sheet)

    def save(self) -> None:
        self.saved += 1

    def report(self) -> list[list[Any]]:
        return self.sheets[macros.REPORT_SHEET].used_range.value


def _filled(path: Path, name: str, players: list[tuple[Any, ...]], *, start: dt.date = dt.date(2026, 5, 2)) -> Path:
    path.write_bytes(build(ema_results.FILE_NAME))
    wb = load_workbook(path)
    ws = wb["Results"]
    block = {"B4": name, "B5": "Riichi", "B6": "Vienna", "B7": "AUT", "B8": start, "B9": start, "B10": 1,
             "B11": len(players), "B12": 2, "B13": 1, "B14": "No"}
    for ref, value in block.items():
        ws[ref] = value
    for row, line in enumerate(players, start=ema_results.FIRST_ROW):
        for column, value in zip("ABCDE", line):
            ws[f"{column}{row}"] = value
    wb.save(path)
    return path


PLAYERS = [(1, "01010001", "Huber", "Anna", "AUT"), (2, "04060059", "Martin", "Paul", "FRA"),
           (3, "-", "Smith", "Jo", "USA")]


def test_buttons_call_functions_that_exist() -> None:
    commands = re.findall(r'RunPython "import ([\w.]+) as m; m\.(\w+)\(\)"', BUTTONS.read_text())
    assert len(commands) == 3
    for module, function in commands:
        assert callable(getattr(importlib.import_module(module), function))


def test_buttons_module_has_windows_line_endings() -> None:
    data = BUTTONS.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")


def test_workbook_values_become_validator_grids_at_their_cells(tmp_path: Path) -> None:
    book = FakeBook(_filled(tmp_path / "open.xlsx", "Vienna Open", PLAYERS))
    [grid, *_] = macros.grids_from_book(book)
    assert grid.value(4, 1) == "Tournament name"
    assert grid.value(ema_results.FIRST_ROW, 1) == 1 and isinstance(grid.value(ema_results.FIRST_ROW, 1), int)
    assert grid.value(ema_results.FIRST_ROW, 2) == "01010001"
    assert grid.formulas[(ema_results.FIRST_ROW, 8)].startswith("=IF(")


def test_validate_writes_every_finding_to_the_report_sheet(tmp_path: Path) -> None:
    broken = [(1, 1010001, "Huber", "Anna", "AUT"), (1, "04060059", "Martin", "Paul", "FRA")]
    book = FakeBook(_filled(tmp_path / "broken.xlsx", "Vienna Open", broken + [(3, "-", "Smith", "Jo", "USA")]))
    macros.validate_active(book)
    report = book.report()
    assert report[0][0].startswith("broken.xlsx: NOT valid")
    assert report[3] == macros.FINDING_COLUMNS
    codes = {line[3] for line in report[4:]}
    assert "EMA_ID_LOST_LEADING_ZERO" in codes
    assert book.sheets[macros.REPORT_SHEET].active


def test_validate_a_good_sheet_says_valid_and_replaces_the_old_report(tmp_path: Path) -> None:
    book = FakeBook(_filled(tmp_path / "good.xlsx", "Vienna Open", PLAYERS))
    macros.validate_active(book)
    macros.validate_active(book)
    assert [s.name for s in book.sheets].count(macros.REPORT_SHEET) == 1
    assert book.report()[0][0].startswith("good.xlsx: valid (0 errors")


def test_ingest_saves_validates_and_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XLRATING_DB", raising=False)
    book = FakeBook(_filled(tmp_path / "good.xlsx", "Vienna Open", PLAYERS))
    macros.ingest_active(book)
    assert book.saved == 1
    assert (tmp_path / "xlrating.db").is_file()
    assert "stored" in book.report()[0][0]


def test_ingest_refuses_an_invalid_sheet_and_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLRATING_DB", str(tmp_path / "ledger.db"))
    book = FakeBook(_filled(tmp_path / "bad.xlsx", "Vienna Open", [(1, 1010001, "Huber", "Anna", "AUT")]))
    macros.ingest_active(book)
    assert "not stored" in book.report()[0][0]
    assert not (tmp_path / "ledger.db").exists()


def test_ingest_of_a_never_saved_workbook_asks_to_save_it_first(tmp_path: Path) -> None:
    book = FakeBook(_filled(tmp_path / "good.xlsx", "Vienna Open", PLAYERS))
    book.fullname, book.name = "Book1", "Book1"
    macros.ingest_active(book)
    assert book.report()[0][0] == "Book1: not stored - save the workbook as an .xlsx file first"


def test_ranking_lists_players_with_two_stored_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLRATING_DB", str(tmp_path / "ledger.db"))
    for name, day in (("Vienna Open", dt.date(2026, 5, 2)), ("Lyon Open", dt.date(2026, 6, 6))):
        book = FakeBook(_filled(tmp_path / f"{name}.xlsx", name, PLAYERS, start=day))
        macros.ingest_active(book)
    macros.recalculate_ratings(book)
    report = book.report()
    assert report[3] == ["Ruleset", "Rank", "Player", "Name", "Total", "Results"]
    ranked = report[4:]
    assert [line[1] for line in ranked] == [1, 2]
    assert ranked[0][0] == "Riichi" and ranked[0][5] == 2 and ranked[0][3]  # the player's name is shown
    # the rules in force today (2018): two results of base rank 1000 padded with three zeros to five;
    # half the average of the best five, half that of the best four
    assert ranked[0][4] == pytest.approx(0.5 * 2000 / 5 + 0.5 * 2000 / 4)


def test_ranking_without_a_store_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLRATING_DB", str(tmp_path / "none.db"))
    book = FakeBook(_filled(tmp_path / "good.xlsx", "Vienna Open", PLAYERS))
    macros.recalculate_ratings(book)
    assert "ingest result sheets first" in book.report()[0][0]
