"""Which rating system a submitted file is for, judged by its columns, and its validation.

- A header row naming every required column of the Dip Pouch results table or of the DCI matches
  table (``xlrating rank``'s tables) makes it that table; naming both is a doubt the submitter
  settles (``--system``).
- Otherwise an EMA results sheet (``Position``, ``EMA ID``, ``Last name``...) is one.
- Otherwise a header naming all but one of a table's required columns makes it that table (its
  findings then say which column is missing); anything else is validated as an EMA sheet, whose
  findings say what an EMA sheet needs.

:func:`validate_submission` gives either the EMA :class:`~xlrating.sheets.validate.ema.sheet.Validation`
or a :class:`TableValidation`: both have ``findings``, ``valid`` and ``submission`` (what the
store keeps: an EMA :class:`~xlrating.sheets.validate.ema.submission.Submission` or an
:class:`~xlrating.sheets.validate.events.EventTable`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xlrating.core.table_columns import (
    DCI_MATCH_COLUMNS,
    DCI_SHOWN_COLUMNS,
    DIPPOUCH_RESULT_COLUMNS,
    DIPPOUCH_SHOWN_COLUMNS,
)
from xlrating.sheets.read.submitted import SubmittedFile, read_grids
from xlrating.sheets.read.xlsx import SheetGrid
from xlrating.sheets.validate.ema.sheet import Validation, validate_grids
from xlrating.sheets.validate.events import SYSTEM_TITLES, EventTable
from xlrating.sheets.validate.findings import Collector, Finding, has_errors
from xlrating.sheets.validate.registry import Registry
from xlrating.sheets.validate.tables import TableLayout, best_header, missing_columns

SYSTEMS = ("dippouch", "dci", "mers")
TABLE_COLUMNS = {"dippouch": (*DIPPOUCH_RESULT_COLUMNS, *DIPPOUCH_SHOWN_COLUMNS), "dci": (*DCI_MATCH_COLUMNS, *DCI_SHOWN_COLUMNS)}


class SystemUnclear(ValueError):
    """The columns fit more than one system's table; the message says which and how to choose."""


@dataclass
class TableValidation:
    """The findings (reading order) and the table's events; store it only when ``valid``."""

    findings: list[Finding]
    submission: EventTable

    @property
    def valid(self) -> bool:
        return not has_errors(self.findings)


def detect_system(grids: list[SheetGrid], name: str = "the file") -> str:
    """"dippouch", "dci" or "mers" (an EMA results sheet) by the columns; raises SystemUnclear."""
    from xlrating.sheets.validate.ema.layout import find_table

    named = {system: best_header(grids, columns)[0] for system, columns in TABLE_COLUMNS.items()}
    required = {system: sum(c.required for c in columns) for system, columns in TABLE_COLUMNS.items()}
    complete = [s for s in TABLE_COLUMNS if named[s] == required[s]]
    if len(complete) == 1:
        return complete[0]
    if len(complete) > 1:
        raise SystemUnclear(f"{name}: the columns fit both a Dip Pouch results table and a DCI matches table; "
                            f"expected the columns of one of them")
    if find_table(grids) is not None:
        return "mers"
    near = [s for s in TABLE_COLUMNS if named[s] == required[s] - 1]
    return near[0] if len(near) == 1 else "mers"


def validate_submission(path: str | os.PathLike[str], submission: SubmittedFile, registry: Registry | None = None,
                        *, system: str | None = None) -> Validation | TableValidation:
    """Validate the opened ``submission`` as ``system``'s table (judged by its columns when None);
    raises SystemUnclear when the columns leave a doubt."""
    grids = read_grids(submission)
    chosen = system or detect_system(grids, os.fspath(path))
    if chosen == "mers":
        return validate_grids(grids, registry)
    return validate_table(grids, chosen)


def validate_table(grids: list[SheetGrid], system: str) -> TableValidation:
    """Every finding of ``system``'s table (the best-matching header row of any sheet)."""
    columns = TABLE_COLUMNS[system]
    out = Collector()
    named, layout = best_header(grids, columns)
    first_sheet = grids[0].name if grids else "(none)"
    required = ", ".join(repr(c.name) for c in columns if c.required)
    if layout is None or named == 0:
        out.add("TABLE_NOT_FOUND", first_sheet, 1, 1, table=SYSTEM_TITLES[system], columns=required)
        return TableValidation(out.sorted([g.name for g in grids]), EventTable(system))  # type: ignore[arg-type]
    for column in missing_columns(layout, columns):
        out.add("TABLE_COLUMN_MISSING", layout.grid.name, layout.header_row, min(layout.columns.values()),
                table=SYSTEM_TITLES[system], column=column, columns=required)
    table = _validator(system)(layout, out)
    if table.events:
        _rankable(table, layout, out)
    return TableValidation(out.sorted([g.name for g in grids]), table)


def _validator(system: str):  # type: ignore[no-untyped-def]
    if system == "dippouch":
        from xlrating.sheets.validate.dippouch import validate_dippouch

        return validate_dippouch
    from xlrating.sheets.validate.dci import validate_dci

    return validate_dci


def _rankable(table: EventTable, layout: TableLayout, out: Collector) -> None:
    """The last check: ``rank`` computes the ratings from the events (what the rules above are
    meant to guarantee); should it refuse them, that is a finding and nothing is stored."""
    from xlrating.core import dci, dippouch
    from xlrating.core.errors import TableError

    try:
        if table.system == "dippouch":
            dippouch.ratings([r for e in table.events for r in e.results])  # type: ignore[union-attr]
        else:
            dci.ratings([m for e in table.events for m in e.matches])  # type: ignore[union-attr]
    except TableError as exc:
        column = layout.columns.get(exc.column or "", min(layout.columns.values()))
        out.add("TABLE_NOT_RANKABLE", layout.grid.name, exc.row or layout.header_row, column, message=str(exc))
        table.events = []


__all__ = ["SYSTEMS", "SystemUnclear", "TableLayout", "TableValidation", "detect_system", "validate_submission",
           "validate_table"]
