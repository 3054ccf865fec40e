"""The templates compute what they promise: filled in, recalculated by xlrating's headless engine
(the same function table the Excel UDFs use), their grey cells hold the right numbers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from xlrating.gate.safe_open import load_workbook
from xlrating.sheets.templates import build, calculators, ema_results

engine = pytest.importorskip("xlrating.engine")


def _computed(tmp_path: Path, name: str, sheet: str, inputs: dict[str, Any]) -> Any:
    source, target = tmp_path / name, tmp_path / f"out-{name}"
    source.write_bytes(build(name))
    wb = load_workbook(source)
    for ref, value in inputs.items():
        wb[sheet][ref] = value
    wb.save(source)
    engine.convert_file(source, target)
    return load_workbook(target, data_only=True)[sheet]


def test_ema_sheet_base_ranks_and_2018_weight(tmp_path: Path) -> None:
    inputs: dict[str, Any] = {"B10": 2, "B11": 48, "B12": 9, "B14": "No"}
    for i in range(3):
        inputs[f"A{ema_results.FIRST_ROW + i}"] = [1, 2, 48][i]
    ws = _computed(tmp_path, ema_results.FILE_NAME, "Results", inputs)
    first = ema_results.FIRST_ROW
    assert [ws[f"H{first + i}"].value for i in range(4)] == [1000, 979, 0, None]  # (48-2)/47*1000 = 978.7
    assert ws["C13"].value == 3  # 2 days + 0.5 (41-80 players) + 0.5 (6-9 countries), shown as "2018 rules: 3"


def test_dippouch_sheet_gives_percentile_and_new_rating(tmp_path: Path) -> None:
    inputs = {"B4": "Example", "B5": dt.date(2010, 6, 1), "B6": 65, "B7": 3, "B8": "No",
              "A12": "Ann", "B12": 8, "C12": 55, "A13": "Newcomer", "B13": 65}
    ws = _computed(tmp_path, calculators.DIPPOUCH_FILE, "Event", inputs)
    assert ws["B9"].value == pytest.approx(15.0)  # 65/3.5 + 2 = 20.57, capped
    assert ws["D12"].value == pytest.approx(88.4615, abs=1e-4)
    assert ws["E12"].value == pytest.approx(60.019, abs=5e-4)  # the example published with the system
    assert ws["E13"].value == pytest.approx(40 + 0.15 * (0.5 / 65 * 100 - 40))  # empty rating: a new player
    assert ws["D14"].value is None


def test_dci_calculator_gives_both_changes(tmp_path: Path) -> None:
    ws = _computed(tmp_path, calculators.DCI_FILE, "Match", {"B4": 1700, "B5": 1600, "B6": "grand prix", "B7": "W"})
    assert ws["B8"].value == 40
    assert ws["B11"].value == pytest.approx(0.64006, abs=1e-5)
    assert ws["B12"].value == pytest.approx(14.3974, abs=1e-4)
    assert ws["C12"].value == pytest.approx(-14.3974, abs=1e-4)
    assert ws["C13"].value == pytest.approx(1585.6026, abs=1e-4)


def test_mers_sheet_gives_a_total_per_rule_era(tmp_path: Path) -> None:
    results = [(dt.date(2023, 6, 4), 100, 1, 1), (dt.date(2024, 3, 10), 34, 9, 2), (dt.date(2024, 9, 1), 11, 6, 1),
               (dt.date(2025, 5, 18), 11, 2, 5)]
    inputs: dict[str, Any] = {"B4": "Anna", "B5": "Riichi", "B6": dt.date(2025, 6, 1)}
    for row, (day, players, place, weight) in enumerate(results, start=10):
        inputs.update({f"A{row}": f"T{row}", f"B{row}": day, f"C{row}": players, f"D{row}": place, f"E{row}": weight})
    ws = _computed(tmp_path, calculators.MERS_FILE, "Ranking", inputs)
    assert [ws[f"F{r}"].value for r in range(10, 14)] == [1000, 758, 500, 900]
    assert ws["I5"].value == pytest.approx(751.6)  # the worked example of docs/functions.md
    assert ws["I6"].value == pytest.approx(812.201, abs=1e-3)
    assert ws["I7"].value == pytest.approx(785.318, abs=1e-3)
    assert ws["I8"].value == 4
