"""Leaderboard exports: JSON, CSV, XLSX, or a table on the terminal.

JSON is a list of objects, best first, each with ``rank``, ``player``, ``rating`` (MERS:
``total``) and ``count``. Values are written in full precision unless ``decimals`` is given:
rounding is presentation only. Ranks follow competition ranking (equal values share a rank).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlrating.core.placement import competition_places

FORMATS = ("json", "csv", "xlsx")


@dataclass
class Leaderboard:
    """A ranked list of players plus, optionally, the working behind each line.

    ``value_name`` is ``rating`` or ``total``; ``lines`` hold ``player``, the value, ``count`` and
    any extra columns (e.g. ``category``); ``breakdown`` rows (MERS: one per counted result) go to
    a second sheet of the workbook export; ``about`` (as-of date, rules...) is shown as a header.
    """

    system: str
    value_name: str
    lines: list[dict[str, Any]]
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    about: dict[str, Any] = field(default_factory=dict)
    group: str | None = None  # a column whose values are ranked separately (DCI category)
    empty_reason: str = "No player to rank."  # why there are no lines, in a sentence for people

    @property
    def title(self) -> str:
        return f"{self.system} leaderboard"

    def settings(self) -> str:
        """What the leaderboard was computed with (``as of 2025-06-30, rules 2018, ruleset MCR``)."""
        return ", ".join(f"{k} {v}" for k, v in self.about.items())

    def counted(self) -> str:
        """What the lines are, counting people: ``4 players``, or with a group ``10 ratings of 6
        players in 2 categories`` (a player rated in two categories is one player)."""
        people = _count(len({line["player"] for line in self.lines}), "player")
        if self.group is None:
            return people
        groups = {line.get(self.group) for line in self.lines}
        plural = "categories" if self.group == "category" else f"{self.group}s"
        return (f"{_count(len(self.lines), 'rating')} of {people} in {len(groups)} "
                f"{plural if len(groups) != 1 else self.group}")

    def ranked(self, decimals: int | None = None) -> list[dict[str, Any]]:
        """The lines with ``rank`` first, best first (within each group)."""
        groups: dict[Any, list[dict[str, Any]]] = {}
        for line in self.lines:
            groups.setdefault(line.get(self.group) if self.group else None, []).append(line)
        out = []
        for key in sorted(groups, key=str):
            members = groups[key]
            ranks = competition_places([line[self.value_name] for line in members])
            for rank, line in sorted(zip(ranks, members), key=lambda pair: pair[0]):
                item = {"rank": rank, **line}
                if decimals is not None:
                    item[self.value_name] = round(item[self.value_name], decimals)
                out.append(item)
        return out


def format_for(path: str | Path) -> str:
    """The export format an output file name asks for, from its extension."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{path}: expected an output file ending in .json, .csv or .xlsx, got {suffix or 'none'!r}")
    return suffix


def write_leaderboard(board: Leaderboard, path: str | Path, *, decimals: int | None = None) -> None:
    """Write ``board`` to ``path`` in the format its extension names."""
    kind = format_for(path)
    lines = board.ranked(decimals)
    if kind == "json":
        Path(path).write_text(json.dumps(lines, indent=2, default=str) + "\n", encoding="utf-8")
    elif kind == "csv":
        _write_csv(board, Path(path), lines)
    else:
        _write_xlsx(board, Path(path), lines)


def _write_csv(board: Leaderboard, path: Path, lines: Sequence[dict[str, Any]]) -> None:
    from xlrating.gate.csv_safety import neutralise_cell

    columns = list(lines[0]) if lines else ["rank", "player", board.value_name, "count"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for line in lines:
            writer.writerow([neutralise_cell(line.get(c)) for c in columns])


def _write_xlsx(board: Leaderboard, path: Path, lines: Sequence[dict[str, Any]]) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheets: list[tuple[str, Sequence[dict[str, Any]]]] = [("Ranking", lines)]
    if board.breakdown:
        sheets.append(("Breakdown", board.breakdown))
    ws = book.active
    for index, (title, rows) in enumerate(sheets):
        if index:
            ws = book.create_sheet()
        ws.title = title
        start = 1
        if board.about:
            about = "; ".join(f"{k}: {v}" for k, v in board.about.items())
            ws.cell(1, 1, f"{board.system} {title.lower()} ({about})").font = Font(bold=True, size=12)
            start = 3
        columns = list(rows[0]) if rows else ["rank", "player", board.value_name, "count"]
        for j, name in enumerate(columns, start=1):
            header = ws.cell(start, j, name.replace("_", " ").capitalize())
            header.font = Font(bold=True)
            header.alignment = Alignment(horizontal="left" if _is_text_column(rows, name) else "right")
            ws.column_dimensions[get_column_letter(j)].width = _width(name, rows)
        for i, row in enumerate(rows, start=start + 1):
            for j, name in enumerate(columns, start=1):
                cell = ws.cell(i, j, _cell_value(row.get(name)))
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # a player named "=HYPERLINK(...)" stays text, never a formula
                elif isinstance(cell.value, float):
                    cell.number_format = "0.00"
                elif isinstance(cell.value, dt.date):
                    cell.number_format = "yyyy-mm-dd"
        ws.freeze_panes = ws.cell(start + 1, 1)
        ws.auto_filter.ref = f"A{start}:{get_column_letter(len(columns))}{max(start, start + len(rows))}"
        # Printed: every column on the page width, the header row repeated on each page.
        ws.print_title_rows = f"{start}:{start}"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    book.save(path)


def _is_text_column(rows: Sequence[dict[str, Any]], name: str) -> bool:
    return any(isinstance(row.get(name), str) for row in rows)


def _width(name: str, rows: Sequence[dict[str, Any]]) -> float:
    """A column width that shows the header and the longest value (numbers as shown, 2 decimals)."""
    longest = len(name) + 2
    for row in rows:
        value = row.get(name)
        shown = f"{value:.2f}" if isinstance(value, float) else "" if value is None else str(value)
        longest = max(longest, len(shown))
    return min(longest + 2, 60)


def _cell_value(value: Any) -> Any:
    if value is None or isinstance(value, (int, float, str)):
        return value
    return str(value) if not hasattr(value, "isoformat") else value


def print_leaderboard(board: Leaderboard, *, limit: int | None = None, console: Any = None) -> None:
    """Show the leaderboard on the terminal: its title and settings on lines of their own (so
    they wrap, if at all, at the terminal's width, not the table's), then a table (values to 2
    decimals; one table per group, e.g. DCI category, its ranks starting at 1), or why it is empty.
    ``limit``: lines shown per table."""
    from rich.console import Console
    from rich.text import Text

    out = console or Console()
    out.print(Text(board.title, style="bold"))
    if board.settings():
        out.print(Text(board.settings()))
    lines = board.ranked()
    if not lines:
        out.print(Text(board.empty_reason))
        return
    if board.group is None:
        _print_table(out, board, lines, limit)
        return
    out.print(Text(board.counted()))
    groups: dict[Any, list[dict[str, Any]]] = {}
    for line in lines:
        groups.setdefault(line[board.group], []).append(line)
    for key, members in groups.items():
        out.print()
        out.print(Text(f"{board.group.capitalize()} {key}: {_count(len(members), 'player')}", style="bold"))
        _print_table(out, board, [{k: v for k, v in m.items() if k != board.group} for m in members], limit)


def _print_table(out: Any, board: Leaderboard, lines: Sequence[dict[str, Any]], limit: int | None) -> None:
    from rich.table import Table

    columns = list(lines[0])
    rows = [[f"{v:.2f}" if isinstance(v, float) else str(v) for v in (line[c] for c in columns)]
            for line in lines[:limit]]
    # On a narrow terminal names wrap; numbers and headers are never cut.
    table = Table()
    for j, name in enumerate(columns):
        numeric = name in ("rank", board.value_name, "count")
        widest = max([len(name), *(len(row[j]) for row in rows)]) if numeric else len(name)
        table.add_column(name, justify="right" if numeric else "left", min_width=widest,
                         no_wrap=numeric, overflow="fold")
    for row in rows:
        table.add_row(*row)
    out.print(table)
    if limit is not None and len(lines) > limit:
        out.print(f"... {len(lines) - limit} more; write them all with -o FILE.json/.csv/.xlsx")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
