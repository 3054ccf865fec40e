"""Excel tables (ListObjects) and the structured references that point into them.

A table lives in its own part, ``xl/tables/tableN.xml``: root ``<table>`` with ``displayName`` (the
name formulas use), ``ref`` (the whole table, header and totals rows included), ``headerRowCount``
(default 1; 0 when the table has no header row), ``totalsRowCount`` (default 0) and the column names
in ``<tableColumns><tableColumn name=..>``. A worksheet links its tables through its relationships
(Type ending in ``/table``), listed again in the sheet's ``<tableParts>``. :func:`read_tables` reads
them; ``totalsRowShown`` is only a flag that the totals row was ever shown, not a count, and is
ignored.

:func:`resolve_structured` rewrites a formula's structured references into A1 references, as
Microsoft's "Using structured references with Excel tables" describes them:

* ``Table1[Col]`` is the column's data rows (header and totals excluded); ``Table1[]`` and
  ``Table1[#Data]`` the whole data area; ``Table1`` alone (no brackets) is a defined-name-like
  reference that this module leaves alone.
* Special item specifiers ``#All``, ``#Data``, ``#Headers``, ``#Totals``, ``#This Row`` pick rows;
  only ``[#Headers],[#Data]`` and ``[#Data],[#Totals]`` may be combined. They come first, then one
  column specifier or a range of adjacent columns ``[Col1]:[Col3]``:
  ``Table1[[#Headers],[#Data],[Col1]:[Col3]]``.
* ``#This Row`` (written ``@`` in the formula bar; Excel stores ``[#This Row]`` in the file, both are
  read) is the table's row on the formula's own row: implicit intersection, so ``#VALUE!`` when that
  row is not one of the table's data rows.
* Inside a table's own cells (calculated columns, the totals row) the table name may be left out:
  ``[@Col]``, ``[[#This Row],[Col]]``, ``[Col]`` refer to the table that holds the cell.
* A column name needs double brackets when it holds special characters (``Table1[[Total $]]``) but
  not for spaces alone (``Table1[Total Amount]``); ``[``, ``]``, ``#``, ``'`` (and ``@``) in a name are
  escaped with a single quote: ``Table1['#Items]``. Spaces may pad the specifiers:
  ``Table1[ [#Headers], [Col] ]``. Table and column names are case-insensitive.
* ``#Headers`` on a table without a header row, ``#Totals`` on one without a totals row, an unknown
  table or column: ``#REF!``, as Excel shows for a reference to a part that is gone.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lxml import etree

from . import xml_parts

__all__ = ["Table", "quote_sheet", "read_tables", "resolve_structured", "table_at"]

_TABLE_REL = "/table"
_REF_ERROR = "#REF!"
_VALUE_ERROR = "#VALUE!"
_ALL, _DATA, _HEADERS, _TOTALS, _THIS_ROW = "#all", "#data", "#headers", "#totals", "#this row"
_SPECIALS = {_ALL, _DATA, _HEADERS, _TOTALS, _THIS_ROW}
# the combinations of special items Excel accepts (beside a single one)
_COMBINATIONS = {frozenset({_HEADERS, _DATA}), frozenset({_DATA, _TOTALS})}


@dataclass(frozen=True)
class Table:
    """One table: its bounds (1-based, header and totals rows included) and its columns in order."""

    name: str  # displayName: the name formulas use
    sheet: str
    r1: int
    c1: int
    r2: int
    c2: int
    header_rows: int = 1
    totals_rows: int = 0
    columns: tuple[str, ...] = ()
    # the rows of its AutoFilter when a filter is applied (a filterColumn): hidden rows there are
    # filtered out, which SUBTOTAL 1-11 leaves out too (:mod:`.row_visibility`)
    filtered_rows: tuple[int, int] | None = None

    @property
    def data_r1(self) -> int:
        """First data row (the row after the header row, if any)."""
        return self.r1 + self.header_rows

    @property
    def data_r2(self) -> int:
        """Last data row (the row before the totals row, if any)."""
        return self.r2 - self.totals_rows

    def contains(self, sheet: str, row: int, col: int) -> bool:
        """Whether the cell (sheet, row, col) lies in the table, header and totals rows included."""
        return (sheet.casefold() == self.sheet.casefold()
                and self.r1 <= row <= self.r2 and self.c1 <= col <= self.c2)

    def column_index(self, name: str) -> int | None:
        """The sheet column of the table column ``name`` (case-insensitive), or None.

        The name as written first; failing that, with surrounding spaces dropped on both sides, since
        Excel lets spaces pad a specifier.
        """
        wanted = name.casefold()
        for offset, column in enumerate(self.columns):
            if column.casefold() == wanted:
                return self.c1 + offset
        wanted = wanted.strip()
        for offset, column in enumerate(self.columns):
            if column.casefold().strip() == wanted:
                return self.c1 + offset
        # a header with a line break: written CR LF in one part and LF in the other, or escaped as
        # ST_Xstring escapes it (``Amount_x000a_EUR``) in the formula
        wanted = _line_ends(_xstring(wanted))
        for offset, column in enumerate(self.columns):
            if _line_ends(column.casefold()).strip() == wanted:
                return self.c1 + offset
        return None


def _line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- reading the package --------------------------------------------------------------------------

def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _sheet_rels(archive: zipfile.ZipFile, part: str) -> list[tuple[str, str]]:
    """(Type, resolved target part) of each internal relationship of ``part``; [] when it has none."""
    folder, name = posixpath.split(part)
    rels_part = posixpath.join(folder, "_rels", name + ".rels")
    try:
        root = xml_parts.root(archive, rels_part)
    except (KeyError, etree.XMLSyntaxError, ValueError):
        return []
    found = []
    for rel in root.iter():
        if _local(rel.tag) != "Relationship" or rel.get("TargetMode", "Internal") != "Internal":
            continue
        target = rel.get("Target", "")
        target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
            posixpath.join(folder, target))
        found.append((rel.get("Type", ""), target))
    return found


_CELL = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d{1,7})$")


def _cell(text: str) -> tuple[int, int]:
    match = _CELL.match(text.strip())
    if match is None:
        raise ValueError(f"not a cell address: {text!r}")
    col = 0
    for letter in match.group(1).upper():
        col = col * 26 + ord(letter) - 64
    return int(match.group(2)), col


_XSTRING = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _xstring(text: str) -> str:
    """An ST_Xstring attribute decoded: ``_x000a_`` is a line feed (``_x005f_`` escapes ``_``)."""
    return _XSTRING.sub(lambda m: chr(int(m.group(1), 16)), text)


def _count(value: str | None, default: int) -> int:
    try:
        return max(0, int(value)) if value is not None else default
    except ValueError:
        return default


def _read_table(archive: zipfile.ZipFile, part: str, sheet: str) -> Table | None:
    try:
        root = xml_parts.root(archive, part)
    except (KeyError, etree.XMLSyntaxError, ValueError):
        return None
    if _local(root.tag) != "table":
        return None
    name = root.get("displayName") or root.get("name") or ""
    ref = root.get("ref") or ""
    if not name or not ref:
        return None
    try:
        ends = [_cell(end) for end in ref.split(":")]
    except ValueError:
        return None
    if len(ends) not in (1, 2):
        return None
    (ra, ca), (rb, cb) = ends[0], ends[-1]
    columns = tuple(_xstring(element.get("name", "")) for element in root.iter()
                    if _local(element.tag) == "tableColumn")
    return Table(name, sheet, min(ra, rb), min(ca, cb), max(ra, rb), max(ca, cb),
                 header_rows=_count(root.get("headerRowCount"), 1),
                 totals_rows=_count(root.get("totalsRowCount"), 0), columns=columns,
                 filtered_rows=_filtered_rows(root, (min(ra, rb), max(ra, rb))))


def _filtered_rows(root: Any, rows: tuple[int, int]) -> tuple[int, int] | None:
    """The first and last row of a table's AutoFilter when it filters (has a filterColumn)."""
    for element in root:
        if _local(element.tag) != "autoFilter":
            continue
        if not any(_local(child.tag) == "filterColumn" for child in element):
            return None
        try:
            ends = [_cell(end) for end in (element.get("ref") or "").split(":")]
        except ValueError:
            return rows
        return min(e[0] for e in ends), max(e[0] for e in ends)
    return None


def read_tables(archive: zipfile.ZipFile, sheet_parts: dict[str, str]) -> list[Table]:
    """Every table of the workbook, in sheet order, then in the order of each sheet's relationships.

    ``sheet_parts`` maps each worksheet part (``xl/worksheets/sheet1.xml``) to its sheet name. A
    sheet's tables are the targets of its relationships whose Type ends in ``/table`` (transitional
    and strict namespaces alike). A missing or damaged relationships part, table part or ``ref`` is
    skipped, never raised: the formulas that use such a table then resolve to ``#REF!``.
    """
    tables: list[Table] = []
    for part, sheet in sheet_parts.items():
        for kind, target in _sheet_rels(archive, part):
            if kind.endswith(_TABLE_REL):
                table = _read_table(archive, target, sheet)
                if table is not None:
                    tables.append(table)
    return tables


def table_at(tables: Iterable[Table], sheet: str, row: int, col: int) -> Table | None:
    """The table holding cell (sheet, row, col), header and totals rows included, or None."""
    for table in tables:
        if table.contains(sheet, row, col):
            return table
    return None


# --- structured references -------------------------------------------------------------------------

class _Invalid(Exception):
    """A specifier Excel would not accept, or one naming a part the table lacks: ``#REF!``."""


@dataclass(frozen=True)
class _Specifier:
    """The items of a structured reference's brackets: special items and a column range."""

    specials: frozenset[str]  # normalised special items ("#data", "#this row", ...)
    first: str | None  # first column name (unescaped), None for every column
    last: str | None  # last column of a range; equal to first for one column


def _is_name_char(char: str) -> bool:
    return len(char) == 1 and (char.isalnum() or char in "_.\\")


_BRACKET_CHARS = re.compile(r"[\[\]']")


def _closing(text: str, start: int) -> int:
    """Index of the ``]`` matching the ``[`` at ``start``, or -1; ``'`` escapes the next character."""
    depth = 0
    search = _BRACKET_CHARS.search
    match = search(text, start)
    while match is not None:
        char = match.group()
        i = match.start()
        if char == "'":
            match = search(text, i + 2)
            continue
        if char == "[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return i
        match = search(text, i + 1)
    return -1


def _unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        if text[i] == "'" and i + 1 < len(text):
            i += 1
        out.append(text[i])
        i += 1
    return "".join(out)


def _special(raw: str) -> str | None:
    """The normalised special item of a raw item text, None when it is a column name.

    An item is special when it begins with an unescaped ``#`` (``'#Items`` is a column).
    """
    stripped = raw.strip()
    if not stripped.startswith("#"):
        return None
    name = " ".join(stripped.casefold().split())
    if name not in _SPECIALS:
        raise _Invalid(raw)
    return name


def _items(body: str) -> list[tuple[str, str]]:
    """``[a], [b]:[c]`` -> [("", "a"), (",", "b"), (":", "c")]: each bracketed item with the separator
    before it. Spaces between items are allowed."""
    items: list[tuple[str, str]] = []
    i, n = 0, len(body)
    separator = ""
    while True:
        while i < n and body[i] in " \t\r\n":
            i += 1
        if i >= n or body[i] != "[":
            raise _Invalid(body)
        end = _closing(body, i)
        if end < 0:
            raise _Invalid(body)
        items.append((separator, body[i + 1:end]))
        i = end + 1
        while i < n and body[i] in " \t\r\n":
            i += 1
        if i >= n:
            return items
        if body[i] not in ",:":
            raise _Invalid(body)
        separator = body[i]
        i += 1


@lru_cache(maxsize=4096)
def _parse_specifier(body: str) -> _Specifier:
    """The text between a structured reference's outer brackets, checked against Excel's grammar."""
    text = body.strip(" \t\r\n")
    this_row = False
    if text.startswith("@"):  # formula bar shorthand for [#This Row]
        this_row = True
        text = text[1:].lstrip(" \t\r\n")
    if not text:
        return _Specifier(frozenset({_THIS_ROW} if this_row else ()), None, None)
    if not text.startswith("["):  # one item without its own brackets: Table1[Col], Table1[#All]
        special = None if this_row else _special(text)
        if special is not None:
            return _Specifier(frozenset({special}), None, None)
        name = _unescape(text if this_row else body)
        return _Specifier(frozenset({_THIS_ROW} if this_row else ()), name, name)
    specials: list[str] = [_THIS_ROW] if this_row else []
    columns: list[tuple[str, str]] = []
    for separator, raw in _items(text):
        special = _special(raw)
        if special is not None:
            if columns or (separator == ":"):
                raise _Invalid(body)  # specials come first, joined by commas
            specials.append(special)
        else:
            if columns and separator != ":" or not columns and separator == ":":
                raise _Invalid(body)  # Excel has no list of separate columns, only a range
            columns.append((separator, _unescape(raw)))
    if len(columns) > 2 or len(set(specials)) != len(specials):
        raise _Invalid(body)
    chosen = frozenset(specials)
    if len(chosen) > 1 and chosen not in _COMBINATIONS:
        raise _Invalid(body)
    if not columns:
        return _Specifier(chosen, None, None)
    return _Specifier(chosen, columns[0][1], columns[-1][1])


@lru_cache(maxsize=1024)
def quote_sheet(sheet: str) -> str:
    """``sheet`` as it prefixes a reference: quoted (``'`` doubled) unless a plain name."""
    plain = (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", sheet) is not None
             and re.fullmatch(r"[A-Za-z]{1,3}\d+", sheet) is None  # would read as a cell: A1
             and re.fullmatch(r"[RrCc]\d*|[Rr]\d*[Cc]\d*", sheet) is None  # an R1C1 reference
             and sheet.upper() not in ("TRUE", "FALSE"))
    return sheet if plain else "'" + sheet.replace("'", "''") + "'"


def _letters(col: int) -> str:
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _a1(table: Table, r1: int, c1: int, r2: int, c2: int) -> str:
    start = f"${_letters(c1)}${r1}"
    address = start if (r1, c1) == (r2, c2) else f"{start}:${_letters(c2)}${r2}"
    return f"{quote_sheet(table.sheet)}!{address}"


def _rows(table: Table, specials: frozenset[str]) -> tuple[int, int]:
    """Rows picked by the special items (for #This Row: the data rows it may take one of)."""
    if not specials or specials == {_DATA} or specials == {_THIS_ROW}:
        if table.data_r1 > table.data_r2:
            raise _Invalid("no data rows")
        return table.data_r1, table.data_r2
    if specials == {_ALL}:
        return table.r1, table.r2
    if specials == {_HEADERS}:
        if not table.header_rows:
            raise _Invalid("no header row")
        return table.r1, table.r1 + table.header_rows - 1
    if specials == {_TOTALS}:
        if not table.totals_rows:
            raise _Invalid("no totals row")
        return table.data_r2 + 1, table.r2
    if specials == {_HEADERS, _DATA}:  # a part the table lacks is simply not there, as with #All
        return table.r1, table.data_r2
    if specials == {_DATA, _TOTALS}:
        return table.data_r1, table.r2
    raise _Invalid("special items")


@dataclass(frozen=True)
class _ThisRow:
    """A #This Row reference before the formula's row is known: columns and the rows it may take."""

    table: Table
    lo: int
    hi: int
    c1: int
    c2: int

    def at(self, row: int, relative: bool = False) -> str:
        """The reference on ``row``; ``relative``: with a relative row, for a text that is moved to
        other rows (a shared formula's master, a defined name stored as seen from row 1)."""
        if not relative and not self.lo <= row <= self.hi:
            return _VALUE_ERROR  # implicit intersection misses the table's data rows
        if not relative:
            return _a1(self.table, row, self.c1, row, self.c2)
        start = f"${_letters(self.c1)}{row}"
        address = start if self.c1 == self.c2 else f"{start}:${_letters(self.c2)}{row}"
        return f"{quote_sheet(self.table.sheet)}!{address}"


@lru_cache(maxsize=8192)
def _target(table: Table, body: str) -> str | _ThisRow:
    """What ``table[body]`` refers to: the final text, or a :class:`_ThisRow` waiting for the row."""
    try:
        spec = _parse_specifier(body)
        lo, hi = _rows(table, spec.specials)
        if spec.first is None or spec.last is None:
            c1, c2 = table.c1, table.c2
        else:
            ca, cb = table.column_index(spec.first), table.column_index(spec.last)
            if ca is None or cb is None:
                return _REF_ERROR
            c1, c2 = min(ca, cb), max(ca, cb)
    except _Invalid:
        return _REF_ERROR
    if _THIS_ROW in spec.specials:
        return _ThisRow(table, lo, hi, c1, c2)
    return _a1(table, lo, c1, hi, c2)


def _resolve(table: Table | None, body: str, row: int, relative: bool = False) -> str:
    """The A1 text for one structured reference into ``table`` with specifier ``body``; ``relative``:
    a #This Row reference with a relative row (``Sales!$B2``)."""
    if table is None:
        return _REF_ERROR
    target = _target(table, body)
    return target if isinstance(target, str) else target.at(row, relative)


# what the scanner stops at: a string literal or quoted sheet name (the quote doubled inside; an
# unterminated one runs to the end), or a bracket with the run of name characters before it, if any
_SCAN = re.compile(r"""(?P<quoted>"(?:[^"]|"")*"?|'(?:[^']|'')*'?)|(?<![\w.\\])(?P<name>[\w.\\]+)?\[""")


def resolve_structured(formula: str, sheet: str, row: int, col: int, tables: Sequence[Table],
                       relative_rows: bool = False) -> str:
    """``formula`` with each structured reference replaced by the A1 reference it stands for.

    ``sheet``, ``row``, ``col``: the cell holding the formula (``#This Row`` takes its row; a
    reference without a table name belongs to the table holding the cell). The result is absolute
    and sheet-qualified, ``'Sales 2024'!$B$2:$B$9``; ``#REF!`` for an unknown table or column or a
    missing header or totals row, ``#VALUE!`` for ``#This Row`` off the table's data rows (with
    ``relative_rows``, the master of a shared formula, whose followers are its text moved down a
    calculated column, ``#This Row`` is written with a relative row: ``Sales!$B2``). All other
    text is kept byte for byte: string literals (``"[x]"``), quoted sheet names, and references into
    other workbooks (``[1]Sheet1!A1``, ``[1]!Table1[Col]``) or qualified by a sheet (anything
    directly after ``!``) are copied unchanged.
    """
    if "[" not in formula:
        return formula
    by_name: dict[str, Table] = {}
    for table in tables:
        by_name.setdefault(table.name.casefold(), table)
    out: list[str] = []
    n = len(formula)
    copied = 0  # formula[copied:] is still to be copied
    match = _SCAN.search(formula)
    while match is not None:
        if match.group("quoted"):  # string literal or quoted sheet name: skipped whole
            match = _SCAN.search(formula, match.end())
            continue
        bracket = match.end() - 1
        end = _closing(formula, bracket)
        if end < 0:
            break  # unbalanced: leave the rest as it is
        name = match.group("name")
        start = match.start()
        if name is None:  # [..] without a table name
            after = formula[end + 1] if end + 1 < n else ""
            if not after or not (after in "!'$" or _is_name_char(after)):  # else [1]Sheet1!A1: another book
                out.append(formula[copied:start])
                out.append(_resolve(table_at(tables, sheet, row, col), formula[bracket + 1:end], row, relative_rows))
                copied = end + 1
        elif not (start > 0 and formula[start - 1] == "!") and not name[0].isdigit() and name[0] != ".":
            out.append(formula[copied:start])
            out.append(_resolve(by_name.get(name.casefold()), formula[bracket + 1:end], row, relative_rows))
            copied = end + 1
        match = _SCAN.search(formula, end + 1)
    out.append(formula[copied:])
    return "".join(out)
