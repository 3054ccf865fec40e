"""Validate an EMA results reporting sheet in one pass: every finding, and what the sheet says.

Order of work: read the workbook once (:mod:`reader`), discover the layout (:mod:`layout`), then
apply the rules (tournament block, player rows, placements, sheet hygiene), each adding findings
to one collector. Nothing stops at the first problem.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xlrating.core import countries
from xlrating.sheets.read.cells import a1
from xlrating.sheets.read.submitted import SubmittedFile, open_submission, read_grids
from xlrating.sheets.read.xlsx import SheetGrid, read_workbook
from xlrating.sheets.validate.ema.layout import (
    REQUIRED_COLUMNS,
    TABLE_COLUMNS,
    Layout,
    find_block,
    find_table,
)
from xlrating.sheets.validate.ema.places import check_places
from xlrating.sheets.validate.ema.players import read_players
from xlrating.sheets.validate.ema.submission import Submission
from xlrating.sheets.validate.ema.tournament import check_tournament
from xlrating.sheets.validate.findings import Collector, Finding, has_errors
from xlrating.sheets.validate.registry import Registry


@dataclass
class Validation:
    """The findings (reading order) and the sheet's content; store it only when ``valid``."""

    findings: list[Finding]
    submission: Submission

    @property
    def valid(self) -> bool:
        return not has_errors(self.findings)


def validate_file(path: str | os.PathLike[str], registry: Registry | None = None, *,
                  checked: bytes | None = None, submission: SubmittedFile | None = None) -> Validation:
    """Validate a submitted file (.xlsx, .xlsm, .xls, .ods or .csv; see
    :mod:`~xlrating.sheets.read.submitted`), or the ``submission`` already opened from it, or the
    ``checked`` bytes ``safe_open.read_package`` read from an .xlsx; raises ``UnreadableWorkbook``
    when it cannot be opened."""
    if submission is None:
        if checked is not None:  # an .xlsx read and checked by read_package
            return validate_grids(read_workbook(path, checked=checked), registry)
        submission = open_submission(path)
    return validate_grids(read_grids(submission), registry)


def validate_grids(grids: list[SheetGrid], registry: Registry | None = None) -> Validation:
    out = Collector()
    layout = find_table(grids)
    block = find_block(grids, layout)
    first_sheet = grids[0].name if grids else "(none)"
    anchor = (layout.grid.name, 1, 1) if layout is not None else (first_sheet, 1, 1)
    tournament = check_tournament(block, out, anchor)
    submission = Submission(tournament)
    if layout is None:
        out.add("NO_RESULTS_TABLE", first_sheet, 1, 1)
    else:
        submission.results_sheet = layout.grid.name
        _check_table(layout, out, registry, submission, block)
    return Validation(out.sorted([g.name for g in grids]), submission)


def _check_table(layout: Layout, out: Collector, registry: Registry | None, submission: Submission,
                 block: dict) -> None:  # type: ignore[type-arg]
    grid = layout.grid
    for role in REQUIRED_COLUMNS:
        if role not in layout.columns:
            standard, synonyms = TABLE_COLUMNS[role]
            out.add("COLUMN_MISSING", grid.name, layout.header_row, layout.first_column, column=standard,
                    synonyms=", ".join(repr(s.title() if len(s) > 3 else s.upper()) for s in synonyms[:4]))
    for r in layout.rows_after:
        out.add("ROWS_AFTER_TABLE", grid.name, r, layout.first_column, row=r)
    for min_row, min_col, max_row, max_col in grid.merged:
        if (min_row <= layout.last_row and max_row >= layout.header_row
                and min_col <= layout.last_column and max_col >= layout.first_column):
            out.add("MERGED_CELLS_IN_TABLE", grid.name, min_row, min_col,
                    range=f"{a1(min_row, min_col)}:{a1(max_row, max_col)}")
    rows = read_players(layout, out, registry)
    check_places(layout, out, rows, submission.tournament.players, block.get("players"))
    submission.players = [row for row, _ in rows]
    _countries(layout, out, submission, block)


def _countries(layout: Layout, out: Collector, submission: Submission, block: dict) -> None:  # type: ignore[type-arg]
    declared = submission.tournament.countries
    if declared is None or "country" not in layout.columns:
        return
    codes = sorted({countries.country_code(p.country) for p in submission.players if p.country is not None})
    if codes and len(codes) != declared:
        cell = block["countries"]
        out.add("COUNTRIES_MISMATCH", cell.grid.name, cell.row, cell.column, declared=declared,
                found=len(codes), codes=", ".join(codes))
