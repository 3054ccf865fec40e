"""A formula as a small expression tree: its nodes (constants, references, operators, calls), the
column letters of a reference and the reference an address names.

The trees are what every later stage reads: :mod:`.reader` builds them from formula text, the
evaluator compiles them for whole columns or inspects them for dependencies.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from ..read.grid import MAX_COL, MAX_ROW


class FormulaSyntaxError(Exception):
    """A formula ``formulas`` cannot parse."""


class ExternalReference(FormulaSyntaxError):
    """A reference into another workbook ([1]Sheet!A1): its values are not in this file."""

    def __init__(self, reference: str):
        super().__init__(f"{reference} refers to another workbook, which convert cannot read")


@dataclass(frozen=True)
class Const:
    """A constant of the formula."""

    value: Any  # float, str, bool, ExcelError, or None for an omitted argument


@dataclass(frozen=True)
class Ref:
    """A cell or range reference, in absolute coordinates as seen from the cell that holds it.

    ``rel_r1``/``rel_r2``: that end moves with the formula's row (no ``$`` before the row).
    ``name``: a defined name not yet resolved (coordinates then meaningless).
    """

    sheet: str | None
    r1: int
    c1: int
    r2: int
    c2: int
    rel_r1: bool = False
    rel_r2: bool = False
    name: str | None = None

    @property
    def is_cell(self) -> bool:
        """One cell, wherever the formula is filled to (``$E$2:E2`` is one cell only in its own row)."""
        return self.r1 == self.r2 and self.c1 == self.c2 and self.rel_r1 == self.rel_r2


@dataclass(frozen=True)
class Op:
    """An operator applied to its operands."""

    op: str  # + - * / ^ & = <> < > <= >= u- u+ % and ':' ' ' (range operators)
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Call:
    """A function call."""

    name: str  # as written, upper case
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Param:
    """A literal of a formula whose value changes from row to row of its block (the key of a
    ``VLOOKUP("item3", ...)`` filled down with ``"item4"``, ``"item5"`` ...): ``index``, its place
    among the formula's literals (:func:`literals`); ``kind``, "n" for a number or "s" for a string.
    The block holds each row's value."""

    index: int
    kind: str
    args: tuple[Any, ...] = ()


Node = Const | Ref | Op | Call | Param


def _literal(node: Any) -> bool:
    return isinstance(node, Const) and type(node.value) in (float, str)


def literals(tree: Node) -> tuple[float | str, ...]:
    """The numbers and strings of a tree, in the order written (depth first)."""
    return tuple(node.value for node in walk(tree) if _literal(node))


def with_params(tree: Node, varying: set[int]) -> Node:
    """``tree`` with the literals whose place (:func:`literals`) is in ``varying`` made :class:`Param`."""
    places = iter(range(1 << 30))

    def rebuild(node: Any) -> Any:
        if _literal(node):
            place = next(places)
            return Param(place, "s" if isinstance(node.value, str) else "n") if place in varying else node
        if isinstance(node, Op):
            return Op(node.op, tuple(rebuild(a) for a in node.args))
        if isinstance(node, Call):
            return Call(node.name, tuple(rebuild(a) for a in node.args))
        return node
    return rebuild(tree)  # type: ignore[no-any-return]

_COL = r"(\$?)([A-Za-z]{1,3})"
_ROW = r"(\$?)(\d+)"
_END = re.compile(rf"^(?:{_COL}{_ROW}|{_COL}|{_ROW})$")


# Column letters run A..Z, AA..ZZ, AAA..ZZZ (18,278 columns, as openpyxl accepts them; Excel's
# sheets stop at XFD = 16,384, which callers check where it matters).
_LAST_COLUMN = 18_278


@functools.cache
def column_index(letters: str) -> int:
    """``"AB"`` -> 28; ValueError for anything but one to three letters."""
    if not 1 <= len(letters) <= 3 or not letters.isascii() or not letters.isalpha():
        raise ValueError(f"{letters!r} is not a column name (A to ZZZ)")
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - 64
    return index


@functools.cache
def column_letters(index: int) -> str:
    """28 -> ``"AB"``; ValueError outside 1..18278 (ZZZ)."""
    if not 1 <= index <= _LAST_COLUMN:
        raise ValueError(f"no column {index} (columns are 1 to {_LAST_COLUMN})")
    letters = ""
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def reference(sheet: str | None, address: str, text: str) -> Ref:
    """The node of ``address`` (``A1``, ``$A$1:B2``, ``A:C``, ``3:5``) on ``sheet`` (None: the
    formula's own); ``text``, the reference as written, names it in an error."""
    ends = address.split(":")
    rows: list[tuple[int, bool]] = []
    cols: list[int] = []
    for end in ends:
        match = _END.match(end.strip())
        if match is None:
            raise FormulaSyntaxError(f"cannot read the reference {text!r}")
        g = match.groups()
        if g[1]:  # A1
            cols.append(column_index(g[1]))
            rows.append((int(g[3]), not g[2]))
        elif g[5]:  # whole column
            cols.append(column_index(g[5]))
            rows.append((0, False))
        else:  # whole row
            cols.append(0)
            rows.append((int(g[7]), not g[6]))
    if len(ends) == 1:
        rows.append(rows[0])
        cols.append(cols[0])
    (r1, rel1), (r2, rel2) = sorted(rows, key=lambda end: end[0])  # E$5:E3 is E3:E$5: each end keeps its $
    c1, c2 = cols
    if r1 == 0 and r2 == 0:
        r1, r2 = 1, MAX_ROW
    if c1 == 0 and c2 == 0:
        c1, c2 = 1, MAX_COL
    return Ref(sheet, r1, min(c1, c2), r2, max(c1, c2), rel1, rel2)



def walk(node: Node) -> Any:
    """Every node of the tree, depth first."""
    yield node
    if isinstance(node, (Op, Call)):
        for arg in node.args:
            yield from walk(arg)

