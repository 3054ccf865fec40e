"""Layout discovery: where on a submitted workbook the results table and the tournament data are.

Submitters rename and reorder columns, put titles above the header, and put the tournament data
in a block above the table, beside it, or on a sheet of its own. Discovery is separate from the
rules: it only says *where* things are (header row, role -> column, label -> value cell); the
rules in ``rules_*`` modules judge the values.

- Results table: the first row (within the first :data:`HEADER_SEARCH_ROWS` rows of any sheet)
  whose cells name a Position column, an EMA ID or Last name column, and at least three known
  columns in all. The table runs down to the first row whose table cells are all empty.
- Tournament block: cells outside the table whose text is a known label; the value is in the next
  column of the same row (or, for labels across a row, the cell below). A label that heads another
  table (``Name | Country | Club`` over rows of data) is not a tournament label. When a label
  occurs more than once, an occurrence with a value beats an empty one, then labels in a block
  (another label within two cells down the column or along the row) beat lone ones, then the
  results sheet beats other sheets, then reading order; two different values are a conflict
  (:attr:`BlockCell.conflict`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import chain
from typing import Any

from xlrating.core import countries
from xlrating.core.names import fold
from xlrating.core.tables import is_blank
from xlrating.sheets.read import cells as cv
from xlrating.sheets.read.xlsx import SheetGrid

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
    # fold() drops accents and case; labels then keep only ASCII letters and digits.
    folded = fold(re.sub(r"\([^)]*\)", " ", text).replace("#", " no "))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())


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

    conflict: BlockCell | None = None  # another occurrence of the field with a different value

    @property
    def value(self) -> Any:
        return self.grid.value(self.row, self.column)

    @property
    def filled(self) -> bool:
        """The value cell holds a value or a formula (whose result may not be stored)."""
        return not _empty_cell(self.grid, self.row, self.column)


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
    # Unread header cells next to the table (e.g. a computed "Base rank") belong to it too, but a
    # tournament block placed right against the table does not.
    while first > 1 and not is_blank(header[first - 2]):
        first -= 1
    while last < len(header) and not is_blank(header[last]) and not _starts_block(grid, header_row, last + 1):
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


def _starts_block(grid: SheetGrid, row: int, column: int) -> bool:
    """Whether the header cell at (row, column) is the top of a tournament block down that column:
    the cell below is a tournament label, or the cell is a label with nothing below it. A player
    column headed "City" has players' cities below, so it stays part of the table."""
    below = grid.value(row + 1, column)
    if _is_label(below):
        return True
    return _is_label(grid.value(row, column)) and _empty_cell(grid, row + 1, column)


def _blank(grid: SheetGrid, row: int, columns: list[int]) -> bool:
    cells = grid.rows[row - 1]
    if any(not is_blank(cells[c - 1]) for c in columns if c <= len(cells)):
        return False
    # A formula whose result was never stored still means the row is in use.
    return not any((row, c) in grid.formulas for c in columns)


def _is_label(value: Any) -> bool:
    return _role(value, _FIELD_INDEX) is not None


def find_block(grids: list[SheetGrid], layout: Layout | None) -> dict[str, BlockCell]:
    """Tournament fields found outside the results table: the best occurrence of each label."""
    found: dict[str, list[BlockCell]] = {}
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
                if role is None or _heads_a_table(grid, r, c, table):
                    continue
                where = _value_cell(grid, r, c, table)
                if where is not None:
                    found.setdefault(role, []).append(BlockCell(grid, r, c, str(value), *where))
    return {role: _choose(role, cells, layout) for role, cells in found.items()}


def _choose(role: str, occurrences: list[BlockCell], layout: Layout | None) -> BlockCell:
    """The occurrence to read (see the module docstring), with the first other occurrence whose
    value differs as its ``conflict``. ``occurrences`` are in reading order; sorting is stable."""
    results = layout.grid if layout is not None else None
    ranked = sorted(occurrences, key=lambda o: (not o.filled, not _in_block(o.grid, o.label_row, o.label_column),
                                                o.grid is not results))
    chosen = ranked[0]
    if is_blank(chosen.value):
        return chosen
    for other in ranked[1:]:
        if not is_blank(other.value) and _comparable(role, other.value) != _comparable(role, chosen.value):
            return replace(chosen, conflict=other)
    return chosen


_READERS = {"start_date": cv.date, "end_date": cv.date, "effective_date": cv.date, "qualification": cv.flag,
            "days": cv.whole, "players": cv.whole, "countries": cv.whole, "weight": cv.number}


def _comparable(role: str, value: Any) -> Any:
    """A field's value as the validator reads it, to compare two occurrences: a date cell and
    ``02.03.2024`` agree, as do ``No`` and FALSE, ``FRA`` and ``France``, ``"Lyon"`` and ``" lyon"``."""
    reader = _READERS.get(role)
    if reader is not None:
        parsed = reader(value)
        if parsed is not None and parsed is not cv.INVALID:
            return parsed
    if role == "country" and isinstance(value, str):
        return countries.country_code(value)
    if isinstance(value, dt.datetime):
        value = value.date()
    return fold(cv.text(value) or "")


def _in_block(grid: SheetGrid, row: int, column: int) -> bool:
    """Another tournament label within two cells down the column or along the row."""
    return any(_is_label(grid.value(row + d, column)) or _is_label(grid.value(row, column + d))
               for d in (-2, -1, 1, 2))


def _heads_a_table(grid: SheetGrid, row: int, column: int, table: Layout | None) -> bool:
    """Whether the label at (row, column) is one header of another table (a registration list, a
    list of countries): it sits in a run of two or more filled cells along its row, the two rows
    below hold data (no labels) under that run, and no other label is above or below it (a block of
    labels down a column is the tournament block, whatever its neighbours)."""
    if any(_is_label(grid.value(row + d, column)) for d in (-2, -1, 1, 2)):
        return False
    first = last = column
    while first > 1 and not is_blank(grid.value(row, first - 1)):
        first -= 1
    while not is_blank(grid.value(row, last + 1)):
        last += 1
    if last == first:
        return False
    # Four or more tournament fields along one row are the block laid out across (whatever notes
    # follow below it), not the header of a list such as "Name | Country | Club".
    fields = {_role(grid.value(row, c), _FIELD_INDEX) for c in range(first, last + 1)} - {None}
    if len(fields) >= BLOCK_ACROSS_FIELDS:
        return False
    return all(_data_row(grid, row + d, range(first, last + 1), table) for d in (1, 2))


BLOCK_ACROSS_FIELDS = 4


def _data_row(grid: SheetGrid, row: int, columns: range, table: Layout | None) -> bool:
    values = [grid.value(row, c) for c in columns if not (table is not None and table.in_table(row, c))]
    filled = [v for v in values if not is_blank(v)]
    return len(filled) >= min(2, len(columns)) and not any(_is_label(v) for v in filled)


def _value_cell(grid: SheetGrid, row: int, column: int, table: Layout | None) -> tuple[int, int] | None:
    """Where a label's value is: the next column (after the label's merged range, when the label
    is merged across cells); else, when that cell is empty or another label and the cell below
    holds a value that is not itself a label, the cell below (labels across a row, values under).
    A cell holding a label is never a value: an empty value is the empty cell beside (or, between
    labels across a row, below) the label; None when both neighbours are labels."""
    right = column + 1
    for min_row, min_col, max_row, max_col in grid.merged:
        if min_row <= row <= max_row and min_col <= column <= max_col:
            right = max_col + 1
    right_is_label = _is_label(grid.value(row, right))
    if not _empty_cell(grid, row, right) and not right_is_label:
        return row, right
    below_usable = not _is_label(grid.value(row + 1, column)) and not (
        table is not None and table.in_table(row + 1, column))
    if below_usable and (right_is_label or not _empty_cell(grid, row + 1, column)):
        return row + 1, column
    return None if right_is_label else (row, right)


def _empty_cell(grid: SheetGrid, row: int, column: int) -> bool:
    return is_blank(grid.value(row, column)) and (row, column) not in grid.formulas
