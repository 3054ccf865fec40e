"""The sheets made from another program's file: our table (or EMA results sheet), cell for cell,
with the place in the file read that each cell came from.

An importer fills a :class:`Produced` sheet; the command line runs the system's own validator over
it (the one ``validate`` and ``ingest`` run) and :meth:`Produced.locate` puts each of that
validator's findings back at the place of the file read, so that every problem of the file is
reported where its author can fix it. Only a sheet without errors is written, as a ``.csv`` or an
``.xlsx`` that ``validate`` and ``ingest`` read as they read any table, in one step: the file is
complete or absent (:func:`write_atomically`), never half-written.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlrating.gate.csv_safety import neutralise_cell
from xlrating.sheets.formats.findings import ImportFinding, Location
from xlrating.sheets.read.cells import position
from xlrating.sheets.read.xlsx import SheetGrid
from xlrating.sheets.validate.findings import Finding

OUTPUT_SUFFIXES = (".csv", ".xlsx")


@dataclass
class Produced:
    """One sheet of ours made from the file read (see the module docstring). ``rows[r - 1][c - 1]``
    is cell (r, c); ``origins`` says where a cell came from, ``default`` where a finding of any other
    cell (the header, a row's missing value) goes."""

    name: str  # the worksheet's name, and the stem of the file written when several are
    system: str  # the key of the rating system whose validator and ingest take it
    label: str  # what it holds, for messages: "Spring Cup (2023-04-16)"
    default: Location
    rows: list[list[Any]] = field(default_factory=list)
    origins: dict[tuple[int, int], Location] = field(default_factory=dict)
    row_origins: dict[int, Location] = field(default_factory=dict)
    text_columns: frozenset[int] = frozenset()  # written as text cells in an .xlsx (EMA IDs)
    table: str = "table"  # what it is, for messages: "Dip Pouch results", "an EMA results sheet"
    header_rows: int = 1  # the rows above the first row of results

    def add_row(self, values: Sequence[Any], origins: Mapping[int, Location] | None = None,
                at: Location | None = None) -> int:
        """Append a row (its cells' ``origins`` by column, from 1; ``at`` for the others); its number."""
        self.rows.append(list(values))
        number = len(self.rows)
        for column, where in (origins or {}).items():
            self.origins[(number, column)] = where
        if at is not None:
            self.row_origins[number] = at
        return number

    def title_line(self) -> str:
        """What was written, for the command line: ``Dip Pouch results, 24 rows: Spring Cup (2023-04-16)``."""
        rows = len(self.rows) - self.header_rows
        return f"{self.table}, {rows} row{'' if rows == 1 else 's'}: {self.label}"

    def grid(self) -> SheetGrid:
        """The sheet as the validator reads a submitted one."""
        return SheetGrid(self.name, [list(row) for row in self.rows])

    def origin(self, row: int, column: int) -> Location:
        return self.origins.get((row, column)) or self.row_origins.get(row) or self.default

    def locate(self, findings: Sequence[Finding]) -> list[ImportFinding]:
        """The validator's findings on :meth:`grid`, each at the place of the file read its cell came from."""
        placed = []
        for f in findings:
            row, column = position(f.cell)
            placed.append(ImportFinding(f.code, f.severity, self.origin(row, column), f.message))
        return placed

    # --- writing ------------------------------------------------------------------------------------

    def csv_bytes(self) -> bytes:
        """The sheet as a UTF-8 CSV (with a byte-order mark, so that Excel reads its accents), its
        text kept inert (:mod:`xlrating.gate.csv_safety`), dates as YYYY-MM-DD."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        for row in self.rows:
            writer.writerow([_csv_text(value) for value in row])
        return out.getvalue().encode("utf-8-sig")

    def xlsx_bytes(self) -> bytes:
        """The sheet as an .xlsx workbook of one worksheet: text as text cells (never a formula),
        numbers as numbers, dates as date cells."""
        from openpyxl import Workbook

        book = Workbook()
        ws = book.active
        ws.title = self.name[:31]
        for r, row in enumerate(self.rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = ws.cell(r, c, value)
                if isinstance(value, str):
                    cell.data_type = "s"  # a name such as "=HYPERLINK(...)" stays text
                    if c in self.text_columns:
                        cell.number_format = "@"
                elif isinstance(value, dt.date):
                    cell.number_format = "yyyy-mm-dd"
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    def content(self, suffix: str) -> bytes:
        return self.xlsx_bytes() if suffix == ".xlsx" else self.csv_bytes()


def _csv_text(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return neutralise_cell(value)


def write_atomically(files: Mapping[Path, bytes]) -> None:
    """Write every file or none: each is written beside its place under a temporary name, then all
    are moved into place; on any failure the temporary files (and any moved already) are removed."""
    staged: list[tuple[Path, Path]] = []
    moved: list[Path] = []
    try:
        for path, data in files.items():
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
            staged.append((Path(temporary), path))
            with os.fdopen(handle, "wb") as out:
                out.write(data)
        for part, target in staged:
            os.replace(part, target)
            moved.append(target)
    except BaseException:
        for part, _ in staged:
            part.unlink(missing_ok=True)
        for target in moved:
            target.unlink(missing_ok=True)
        raise
