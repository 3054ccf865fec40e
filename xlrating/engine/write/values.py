"""A recalculated workbook's values alone: CSV (one file per sheet) and JSON (one document), from
the evaluated grid; errors as their code, date cells as ISO dates, a text a spreadsheet would run as a
formula written inert."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from xlrating.excel_errors import ExcelError

from ..evaluate.model import Evaluated
from ..read.grid import NotComputed
from .sheet_xml import number_text


def _plain(value: Any) -> Any:
    if isinstance(value, NotComputed):
        return None
    if isinstance(value, ExcelError):
        return value.code
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


def sheet_rows(evaluated: Evaluated, name: str, dates: set[tuple[int, int]] | None = None) -> list[list[Any]]:
    """A sheet's values from A1 to its last used cell, as plain JSON-able values; the cells in
    ``dates`` (styled as dates, see :mod:`.date_cells`) as ISO dates."""
    from ..read.date_cells import as_date

    sheet = evaluated.grid.sheet(name)
    if sheet is None or not sheet.columns:
        return []
    last_col = max(sheet.columns)
    last_row = 0
    for column in sheet.columns.values():
        used = (column.kind != 0).nonzero()[0]
        if len(used):
            last_row = max(last_row, int(used[-1]))
    dated = dates or set()
    system = evaluated.package.date_system
    return [[as_date(_plain(sheet.get(r, c)), system) if (r, c) in dated else _plain(sheet.get(r, c))
             for c in range(1, last_col + 1)] for r in range(1, last_row + 1)]


def _csv_text(value: Any) -> Any:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return number_text(value)
    from xlrating.gate.csv_safety import neutralise_cell

    # A text a spreadsheet would run as a formula (=, +, -, @ ...) is written inert.
    return "" if value is None else neutralise_cell(value)


def csv_targets(evaluated: Evaluated, target: Path) -> list[tuple[str, Path]]:
    """One file per sheet: ``target`` itself for a one-sheet workbook, else ``stem.<sheet>.csv``."""
    names = [s.name for s in evaluated.package.sheets]
    if len(names) == 1:
        return [(names[0], target)]
    safe = [re.sub(r'[\\/:*?"<>|\s]+', "_", n) for n in names]
    return [(n, target.with_name(f"{target.stem}.{s}{target.suffix}")) for n, s in zip(names, safe)]


def write_csv(evaluated: Evaluated, target: Path) -> list[Path]:
    import csv  # csv, json and the date styles only for these outputs: not imported for an .xlsx

    from ..read.date_cells import date_cells

    written = []
    dates = date_cells(evaluated.package)
    for name, path in csv_targets(evaluated, target):
        with open(path, "w", newline="", encoding="utf-8") as stream:
            writer = csv.writer(stream)
            for row in sheet_rows(evaluated, name, dates.get(name)):
                writer.writerow([_csv_text(v) for v in row])
        written.append(path)
    return written


def write_json(evaluated: Evaluated, target: Path) -> None:
    """``{"workbook": file name, "sheets": [{"name": ..., "rows": [[...], ...]}]}``; errors as their code,
    date cells as ISO dates."""
    import json

    from ..read.date_cells import date_cells

    dates = date_cells(evaluated.package)
    document = {"workbook": Path(evaluated.package.path).name,
                "sheets": [{"name": s.name, "rows": sheet_rows(evaluated, s.name, dates.get(s.name))}
                           for s in evaluated.package.sheets]}
    with open(target, "w", encoding="utf-8") as stream:
        json.dump(document, stream, ensure_ascii=False, indent=1)
