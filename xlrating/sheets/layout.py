"""Layout discovery: where on a submitted workbook the results table and the tournament data are.

Submitters rename and reorder columns, put titles above the header, and put the tournament data
in a block above the table, beside it, or on a sheet of its own. Discovery is separate from the
rules: it only says *where* things are (header row, role -> column, label -> value cell); the
rules in ``rules_*`` modules judge the values.

- Results table: the first row (within the first :data:`HEADER_SEARCH_ROWS` rows of any sheet)
  whose cells name a Position column, an EMA ID or Last name column, and at least three known
  columns in all. The table runs down to the first row whose table cells are all empty.
- Tournament block: cells anywhere outside the table whose text is a known label; the value is in
  the next column of the same row. The first occurrence of a label wins.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from typing import Any

from xlrating.sheets.reader import SheetGrid

HEADER_SEARCH_ROWS = 100

# Table columns: role -> (standard header, synonyms). Synonyms are compared after normalise().
TABLE_COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "position": ("Position", ("position", "rank", "place", "pos", "ranking", "final position", "final rank",
                              "platz", "rang", "classement", "posizione", "plaats")),
    "ema_id": ("EMA ID", ("ema id", "ema number", "ema no", "ema nr", "ema", "id", "ema code", "ema no.")),
    "last_name": ("Last name", ("last name", "surname", "family name", "name", "lastname", "player",
                                "player name", "full name", "nachname", "nom", "cognome", "achternaam")),
    "first_name": ("First name", ("first name", "given name", "forename", "firstname", "vorname", "prenom",
                                  "nome", "voornaam")),
    "country": ("Country", ("country", "nationality", "nat", "nation", "ctry", "land", "pays", "paese")),
    "table_points": ("Table points", ("table points", "tp", "points", "table pts", "tps")),
    "score": ("Score", ("score", "mahjong points", "mj points", "minipoints", "mini points", "mp")),
}
REQUIRED_COLUMNS = ("position", "ema_id", "last_name", "country")

# Tournament block: field -> (standard label, synonyms).
BLOCK_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "name": ("Tournament name", ("tournament name", "tournament", "event", "name of tournament", "event name",
                                 "name of the tournament", "tournament title", "name")),
    "ruleset": ("Ruleset", ("ruleset", "rules", "rule set", "game rules")),
    "city": ("City", ("city", "town", "venue", "location")),
    "country": ("Country", ("country", "host country", "tournament country")),
    "start_date": ("Start date", ("start date", "from", "date from", "start", "first day")),
    "end_date": ("End date", ("end date", "to", "date", "date to", "end", "last day")),
    "days": ("Days", ("days", "number of days", "no of days", "nb of days")),
    "players": ("Players", ("players", "number of players", "participants", "no of players", "nb of players",
                            "number of participants")),
    "countries": ("Countries", ("countries", "number of countries", "no of countries", "nb of countries")),
    "weight": ("MERS weight", ("mers weight", "mers", "weight", "coefficient", "mers coefficient", "mers value")),
    "qualification": ("Qualification required", ("qualification required", "qualification", "qualifying",
                                                 "qualification needed")),
    "effective_date": ("Effective date", ("effective date", "mers effective date")),
}


def _index(table: dict[str, tuple[str, tuple[str, ...]]]) -> dict[str, str]:
    return {normalise(s): role for role, (_, synonyms) in table.items() for s in synonyms}


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Lower case, accents and parenthesised notes dropped, ``#``/``No.`` read as "no",
    punctuation removed, spaces collapsed: ``"EMA #:"`` and ``"ema no"`` compare equal."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = re.sub(r"\([^)]*\)", " ", text).replace("#", " no ")
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


_COLUMN_INDEX = _index(TABLE_COLUMNS)
_FIELD_INDEX = _index(BLOCK_FIELDS)
_MAX_LABEL = 40  # longer texts are never labels; skipping them keeps discovery cheap


def _role(value: Any, index: dict[str, str]) -> str | None:
    if isinstance(value, str) and len(value) <= _MAX_LABEL:
        return index.get(normalise(value))
    return None


@dataclass(frozen=True)
class BlockCell:
    """A tournament field: where its label is and which cell holds its value."""

    grid: SheetGrid
    label_row: int
    label_column: int
    label: str
    row: int
    column: int

    @property
    def value(self) -> Any:
        return self.grid.value(self.row, self.column)


@dataclass
class Layout:
    """Where the results table and the tournament fields are."""

    grid: SheetGrid  # the results sheet
    header_row: int
    columns: dict[str, int]  # role -> column number
    first_column: int
    last_column: int
    last_row: int  # last player row (== header_row when the table is empty)
    block: dict[str, BlockCell] = field(default_factory=dict)
    rows_after: list[int] = field(default_factory=list)  # player-like rows below the table's end

    @property
    def player_rows(self) -> range:
        return range(self.header_row + 1, self.last_row + 1)

    def in_table(self, row: int, column: int) -> bool:
        return self.header_row <= row <= self.last_row and self.first_column <= column <= self.last_column


def find_table(grids: list[SheetGrid]) -> Layout | None:
    """The results table of the workbook, or None when no sheet has a recognisable header."""
    for grid in grids:
        for r in range(1, min(grid.max_row, HEADER_SEARCH_ROWS) + 1):
            columns: dict[str, int] = {}
            for c, value in enumerate(grid.rows[r - 1], start=1):
                role = _role(value, _COLUMN_INDEX)
                if role is not None and role not in columns:
                    columns[role] = c
            if "position" in columns and ({"ema_id", "last_name"} & columns.keys()) and len(columns) >= 3:
                return _table_extent(grid, r, columns)
    return None


def _table_extent(grid: SheetGrid, header_row: int, columns: dict[str, int]) -> Layout:
    header = grid.rows[header_row - 1]
    first = min(columns.values())
    last = max(columns.values())
    # Unread header cells next to the table (e.g. a computed "Base rank") belong to it too.
    while first > 1 and header[first - 2] not in (None, ""):
        first -= 1
    while last < len(header) and header[last] not in (None, ""):
        last += 1
    wanted = sorted(columns.values())
    row = header_row
    while row < grid.max_row and not _blank(grid, row + 1, wanted):
        row += 1
    layout = Layout(grid, header_row, columns, first, last, row)
    position, name = columns["position"], columns.get("last_name", columns.get("ema_id", first))
    for r in range(row + 2, grid.max_row + 1):
        if isinstance(grid.value(r, position), (int, float)) and isinstance(grid.value(r, name), str):
            layout.rows_after.append(r)
    return layout


def _blank(grid: SheetGrid, row: int, columns: list[int]) -> bool:
    cells = grid.rows[row - 1]
    for c in columns:
        if c <= len(cells):
            value = cells[c - 1]
            if value is not None and not (isinstance(value, str) and not value.strip()):
                return False
    # A formula whose result was never stored still means the row is in use.
    return not any((row, c) in grid.formulas for c in columns)


def find_block(grids: list[SheetGrid], layout: Layout | None) -> dict[str, BlockCell]:
    """Tournament fields found outside the results table, first occurrence of each label."""
    block: dict[str, BlockCell] = {}
    for grid in grids:
        table = layout if layout is not None and layout.grid is grid else None
        for r, cells in enumerate(grid.rows, start=1):
            candidates: Iterable[tuple[int, Any]] = enumerate(cells, start=1)
            if table is not None and table.header_row <= r <= table.last_row:
                # Skip the table's own cells without touching them: this is the hot loop.
                candidates = chain(enumerate(cells[:table.first_column - 1], start=1),
                                   enumerate(cells[table.last_column:], start=table.last_column + 1))
            for c, value in candidates:
                if value is None:
                    continue
                role = _role(value, _FIELD_INDEX)
                if role is not None and role not in block:
                    block[role] = BlockCell(grid, r, c, str(value), *_value_cell(grid, r, c, table))
    return block


def _value_cell(grid: SheetGrid, row: int, column: int, table: Layout | None) -> tuple[int, int]:
    """Where a label's value is: the next column (after the label's merged range, when the label
    is merged across cells); else, when that cell is empty or another label and the cell below
    holds a value that is not itself a label, the cell below (labels across a row, values under)."""
    right = column + 1
    for min_row, min_col, max_row, max_col in grid.merged:
        if min_row <= row <= max_row and min_col <= column <= max_col:
            right = max_col + 1
    if not _empty_cell(grid, row, right) and _role(grid.value(row, right), _FIELD_INDEX) is None:
        return row, right
    below = grid.value(row + 1, column)
    if (not _empty_cell(grid, row + 1, column) and _role(below, _FIELD_INDEX) is None
            and not (table is not None and table.in_table(row + 1, column))):
        return row + 1, column
    return row, right


def _empty_cell(grid: SheetGrid, row: int, column: int) -> bool:
    value = grid.value(row, column)
    empty = value is None or (isinstance(value, str) and not value.strip())
    return empty and (row, column) not in grid.formulas
