"""Every CSV the command line writes is inert: no cell a spreadsheet would execute.

Player names and cell texts come from strangers' files. Each CSV writer is run through the real
CLI on input holding formula-like names, and every cell of its output is checked with
:func:`xlrating.gate.csv_safety.needs_neutralising`.
"""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from xlrating.gate.csv_safety import needs_neutralising

HOSTILE_NAMES = ["=HYPERLINK(\"http://127.0.0.1/?\"&A1,\"x\")", "+SUM(1,2)", "-2+3+cmd|' /C calc'!A0",
                 "@SUM(1;2)", "\t=1+1", "Ada"]


def _xlrating(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, check=False)


def _live_cells(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [cell for row in csv.reader(handle) for cell in row if needs_neutralising(cell)]


def _hostile_results(folder: Path) -> Path:
    """A MERS results table of two events whose players have the hostile names."""
    table = folder / "results.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["tournament", "date", "players", "weight", "player", "place"])
        for event, day in (("Spring", "2024-03-01"), ("Summer", "2024-06-01")):
            for place, name in enumerate(HOSTILE_NAMES, start=1):
                writer.writerow([event, day, len(HOSTILE_NAMES), 1, name, place])
    return table


def test_rank_writes_formula_like_player_names_inert(tmp_path: Path) -> None:
    table = _hostile_results(tmp_path)
    board = tmp_path / "board.csv"
    done = _xlrating("rank", "mers", str(table), "--as-of", "2024-07-01", "-o", str(board), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = board.read_text(encoding="utf-8")
    assert "'=HYPERLINK" in text  # the names are there, quoted, not dropped
    assert _live_cells(board) == []


@pytest.mark.skipif(importlib.util.find_spec("xlrating.cli.convert") is None, reason="convert not in checkout")
def test_convert_to_csv_writes_formula_like_texts_inert(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    for row, name in enumerate(HOSTILE_NAMES, start=1):
        cell = sheet.cell(row, 1, name)
        cell.data_type = "s"  # a text that only looks like a formula, as a submitter could type it
        sheet.cell(row, 2, -row)
    source = tmp_path / "names.xlsx"
    book.save(source)
    out = tmp_path / "names.csv"
    done = _xlrating("convert", str(source), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _live_cells(out) == []


def test_rank_to_xlsx_keeps_formula_like_player_names_as_text(tmp_path: Path) -> None:
    """openpyxl stores a text starting with '=' as a formula unless told otherwise: the .xlsx a
    ranking officer opens must hold the names as the texts they are, with no formula cell."""
    table = _hostile_results(tmp_path)
    board = tmp_path / "board.xlsx"
    done = _xlrating("rank", "mers", str(table), "--as-of", "2024-07-01", "-o", str(board), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    book = openpyxl.load_workbook(board)
    cells = [cell for ws in book for row in ws.iter_rows() for cell in row if cell.value is not None]
    assert [c.coordinate for c in cells if c.data_type == "f"] == []
    names = {c.value for c in cells if isinstance(c.value, str)}
    assert {n.strip() for n in HOSTILE_NAMES} <= {n.strip() for n in names}
