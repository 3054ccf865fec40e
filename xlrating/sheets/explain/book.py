"""The explanation workbook: a sheet "Explanation" with the player, the settings, the rule in words
and the rows; laid out by the system's module (:attr:`~xlrating.systems.base.RatingSystem.explain_sheet`)
in live formulas, else (:func:`values_layout`) the rows as values."""

from __future__ import annotations

import datetime as dt
import importlib
from typing import Any

from openpyxl.utils import get_column_letter
from openpyxl.workbook import Workbook

from xlrating.core.explanation import Explanation
from xlrating.sheets.explain.cells import (
    FINE_FORMAT,
    LABEL_FONT,
    NOTE_FONT,
    RESULT_FONT,
    TITLE_FONT,
    Cells,
    with_values,
)

SHEET = "Explanation"
LIVE_NOTE = ("Yellow cells are what the results say; grey cells are plain spreadsheet formulas (no add-in needed) "
             "that compute the rating from them, as xlrating does: change a yellow cell and they follow.")
VALUES_NOTE = "The rows as xlrating computed them (this system declares no formulas for its rating)."


def workbook(explanation: Explanation, layout: str | None) -> bytes:
    """The .xlsx of ``explanation``; ``layout`` the module (``xlrating.sheets.explain.mers``) whose
    ``write(cells, explanation)`` lays it out in formulas, or None for the rows as values."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = SHEET
    cells = Cells(ws)
    sheets = [cells]
    title(cells, explanation, LIVE_NOTE if layout else VALUES_NOTE)
    if layout is None:
        values_layout(cells, explanation)
    else:
        sheets += importlib.import_module(layout).write(cells, explanation, wb)
    ws.freeze_panes = None
    return with_values(wb, sheets)


def title(cells: Cells, explanation: Explanation, note: str) -> None:
    """Row 1 the title, row 2 what the colours mean, row 3 the rule in words."""
    who = explanation.player + (f" ({explanation.name})" if explanation.name else "")
    cells.text("A1", f"{explanation.title} {explanation.value_name} of {who}: how it comes about", TITLE_FONT)
    cells.text("A2", note, NOTE_FONT)
    cells.text("A3", explanation.rule, NOTE_FONT)


def settings(cells: Cells, explanation: Explanation, first_row: int,
             given: dict[str, str | None] | None = None) -> dict[str, str]:
    """The player and the settings, a label in A and the value in B from ``first_row``; ``given``
    says which settings are typed in (their value, or None for a blank cell) rather than shown;
    the cell of each setting by its key (``player`` too)."""
    at: dict[str, str] = {}
    row = first_row
    cells.text(f"A{row}", "Player", LABEL_FONT)
    cells.given(f"B{row}", explanation.player)
    at["player"] = f"$B${row}"
    if explanation.name:
        cells.text(f"C{row}", explanation.name)
    for key, label, value in explanation.settings:
        row += 1
        cells.text(f"A{row}", label, LABEL_FONT)
        shown = value if isinstance(value, (int, float, dt.date)) else "" if value is None else str(value)
        if given is not None and key in given:
            cells.given(f"B{row}", given[key] if given[key] is not None else shown)
        else:
            cells.given(f"B{row}", shown)
        at[key] = f"$B${row}"
    return at


def values_layout(cells: Cells, explanation: Explanation) -> None:
    at = settings(cells, explanation, 5)
    row = int(at[list(at)[-1]].split("$")[-1]) + 2
    cells.text(f"A{row}", explanation.value_name.capitalize(), LABEL_FONT)
    cells.text(f"B{row}", explanation.rating if explanation.rating is not None else explanation.not_ranked,
               RESULT_FONT)
    cells.ws[f"B{row}"].number_format = FINE_FORMAT
    row += 2
    cells.header(row, [column.title for column in explanation.columns])
    for i, values in enumerate(explanation.rows, start=row + 1):
        for j, column in enumerate(explanation.columns, start=1):
            cells.given(f"{get_column_letter(j)}{i}", _shown(values.get(column.key)))
    widths(cells, [max(10, min(len(column.title) + 2, 30)) for column in explanation.columns])


def widths(cells: Cells, columns: list[float]) -> None:
    for index, width in enumerate(columns, start=1):
        cells.ws.column_dimensions[get_column_letter(index)].width = width


def _shown(value: Any) -> Any:
    return value if value is None or isinstance(value, (int, float, str, dt.date)) else str(value)
