"""Standard test data for EMA results sheets and a maker that saves them (layouts: xlrating.sheets.examples.builders)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

from xlrating.sheets.examples.builders import build_workbook

BLOCK: list[tuple[str, Any]] = [
    ("Tournament name", "Test Open"),
    ("Ruleset", "MCR"),
    ("City", "Lyon"),
    ("Country", "FRA"),
    ("Start date", dt.date(2024, 3, 2)),
    ("End date", dt.date(2024, 3, 3)),
    ("Days", 2),
    ("Players", 4),
    ("Countries", 3),
    ("MERS weight", 2),
    ("Qualification required", "No"),
]
HEADER = ["Position", "EMA ID", "Last name", "First name", "Country", "Table points", "Score"]
ROWS: list[list[Any]] = [
    [1, "04060059", "Dupont", "Jean", "FRA", 12, 110.5],
    [2, "05010001", "Müller", "Hans", "GER", 10, 50],
    [3, "08000123", "de Vries", "Anna", "NED", 6, -20],
    [4, "04060060", "Martin", "Luc", "FRA", 2, -140.5],
]


def sheet_maker(tmp_path: Path) -> Callable[..., Path]:
    """``make(block=..., rows=..., layout=..., edit=fn)`` saves a workbook and returns its path;
    ``edit(wb)`` changes it before saving."""
    counter = iter(range(1000))

    def make(*, edit: Callable[[openpyxl.Workbook], None] | None = None, name: str | None = None,
             block: list[tuple[str, Any]] | None = None, header: list[str] | None = None,
             rows: list[list[Any]] | None = None, layout: str = "template") -> Path:
        wb = build_workbook(BLOCK if block is None else block, HEADER if header is None else header,
                            ROWS if rows is None else rows, layout)
        if edit is not None:
            edit(wb)
        path = tmp_path / (name or f"sheet{next(counter)}.xlsx")
        wb.save(path)
        return path

    return make


DROP = object()


def block_with(changes: dict[str, Any]) -> list[tuple[str, Any]]:
    """The standard block with some values changed (by label) or removed (value ``DROP``)."""
    return [(label, changes.get(label, value)) for label, value in BLOCK if changes.get(label) is not DROP]


def rows_with(index: int, changes: dict[str, Any]) -> list[list[Any]]:
    """The standard rows with row ``index`` (0-based) changed, keyed by HEADER column name."""
    rows = [list(r) for r in ROWS]
    for column, value in changes.items():
        rows[index][HEADER.index(column)] = value
    return rows


def validate(path: Path, registry: Any = None) -> Any:
    from xlrating.sheets.validate.ema.sheet import validate_file

    return validate_file(path, registry)


def codes(validation: Any) -> list[str]:
    return [f.code for f in validation.findings]


def only(validation: Any, code: str) -> Any:
    """The single finding with ``code`` (fails when there is none or several)."""
    found = [f for f in validation.findings if f.code == code]
    assert len(found) == 1, f"expected one {code}, got {[(f.code, f.cell) for f in validation.findings]}"
    return found[0]
