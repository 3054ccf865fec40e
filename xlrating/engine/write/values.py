"""A recalculated workbook's values alone: CSV (one file per sheet) and JSON (one document), from
the evaluated grid; errors as their code, date cells as ISO dates, a text a spreadsheet would run as a
formula written inert."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from xlrating.excel_errors import ExcelError
from xlrating.gate.limits import Limits, describe

from ..evaluate.model import Evaluated
from ..formula.tree import column_letters
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


def used_range(evaluated: Evaluated, name: str) -> tuple[int, int]:
    """The last row and column holding a value in a sheet (0, 0 when it holds none): its used range
    is A1 to there, what Excel and LibreOffice write to a CSV of it."""
    sheet = evaluated.grid.sheet(name)
    last_row = last_col = 0
    for col, column in (sheet.columns.items() if sheet is not None else ()):
        used = np.flatnonzero(column.kind)
        if len(used):
            last_row, last_col = max(last_row, int(used[-1])), max(last_col, col)
    return last_row, last_col


def check_output(evaluated: Evaluated, names: list[str], limit: int, fmt: str) -> None:
    """Refuse, before anything is written, a sheet whose used range holds more than ``limit`` cells
    (:attr:`~xlrating.gate.limits.Limits.max_output_cells`): a CSV or JSON output writes every cell
    of it, empty ones too, so a sheet with one value in A1 and one in XFD1048576 would be 17 billion."""
    from ..evaluate.model import ConversionError

    for name in names:
        rows, cols = used_range(evaluated, name)
        if rows * cols > limit:
            raise ConversionError(
                f"{name}: its used range A1:{column_letters(cols)}{rows} is {rows:,} rows x {cols:,} columns = "
                f"{rows * cols:,} cells, more than the {describe('max_output_cells', limit)} a {fmt.upper()} "
                "output writes (every cell of the used range, empty ones too); convert it to .xlsx, which "
                "writes only the cells that hold something, or raise the limit")


def sheet_rows(evaluated: Evaluated, name: str, dates: set[tuple[int, int]] | None = None) -> Iterator[list[Any]]:
    """A sheet's values from A1 to its last used cell, a row at a time, as plain JSON-able values
    (None for an empty cell); the cells in ``dates`` (styled as dates, see :mod:`.date_cells`) as ISO
    dates. Only the cells holding something are looked at: an empty row costs one list."""
    from ..read.date_cells import as_date

    sheet = evaluated.grid.sheet(name)
    last_row, last_col = used_range(evaluated, name)
    if sheet is None or not last_row:
        return
    positions = [(np.flatnonzero(column.kind), col) for col, column in sheet.columns.items()]
    rows = np.concatenate([used for used, _ in positions])
    cols = np.concatenate([np.full(len(used), col, dtype=np.int64) for used, col in positions])
    order = np.lexsort((cols, rows))
    rows, cols = rows[order], cols[order]
    starts = np.searchsorted(rows, np.arange(1, last_row + 2))
    dated = dates or set()
    system = evaluated.package.date_system
    for row in range(1, last_row + 1):
        line: list[Any] = [None] * last_col
        for col in cols[starts[row - 1]:starts[row]].tolist():
            value = _plain(sheet.get(row, col))
            line[col - 1] = as_date(value, system) if (row, col) in dated else value
        yield line


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


def write_csv(evaluated: Evaluated, target: Path, limit: int = Limits.max_output_cells) -> list[Path]:
    """One CSV per sheet (:func:`csv_targets`), every row as wide as the sheet's used range, as Excel
    and LibreOffice write it; a sheet past ``limit`` refused before any file is written."""
    import csv  # csv, json and the date styles only for these outputs: not imported for an .xlsx

    from ..read.date_cells import date_cells

    targets = csv_targets(evaluated, target)
    check_output(evaluated, [name for name, _ in targets], limit, "csv")
    written = []
    dates = date_cells(evaluated.package)
    for name, path in targets:
        with open(path, "w", newline="", encoding="utf-8") as stream:
            writer = csv.writer(stream)
            for row in sheet_rows(evaluated, name, dates.get(name)):
                writer.writerow([_csv_text(v) for v in row] if any(v is not None for v in row) else [""] * len(row))
        written.append(path)
    return written


def write_json(evaluated: Evaluated, target: Path, limit: int = Limits.max_output_cells) -> None:
    """``{"workbook": file name, "sheets": [{"name": ..., "rows": [[...], ...]}]}``; errors as their code,
    date cells as ISO dates; written a row at a time (laid out as ``json.dump`` with ``indent=1``
    lays out the whole document); a sheet past ``limit`` refused before the file is written."""
    import json

    from ..read.date_cells import date_cells

    names = [s.name for s in evaluated.package.sheets]
    check_output(evaluated, names, limit, "json")
    dates = date_cells(evaluated.package)
    with open(target, "w", encoding="utf-8") as stream:
        stream.write('{\n "workbook": ' + json.dumps(Path(evaluated.package.path).name, ensure_ascii=False) +
                     ',\n "sheets": [')
        if not names:
            stream.write("]\n}")
            return
        for number, name in enumerate(names):
            stream.write(("," if number else "") + '\n  {\n   "name": ' + json.dumps(name, ensure_ascii=False) +
                         ',\n   "rows": [')
            first = True
            for row in sheet_rows(evaluated, name, dates.get(name)):
                text = json.dumps(row, ensure_ascii=False, indent=1).replace("\n", "\n    ") if row else "[]"
                stream.write(("\n    " if first else ",\n    ") + text)
                first = False
            stream.write("]\n  }" if first else "\n   ]\n  }")
        stream.write("\n ]\n}")
