"""Formula text -> a small expression tree, parsed by ``formulas``' tokenizer.

``formulas`` turns a formula into tokens and feeds them in postfix order to an AST builder; our
:class:`_TreeBuilder` takes that feed and builds plain nodes instead of a ``schedula`` dispatcher,
so parsing is cheap and the tree can be compiled for whole columns (:mod:`.vector`) or inspected
for dependencies (:mod:`.schedule`). ``formulas`` drops the ``$`` anchors of references, so they
are read back from each token's source text.

Shapes: :class:`FilledDown` recognises the cells one formula was filled down to by comparing
texts (relative row numbers shifted), so a block of them is parsed only once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from formulas.tokens.function import Function
from formulas.tokens.operand import Empty, Number, Range, String
from formulas.tokens.operand import Error as ErrorToken
from formulas.tokens.operator import Operator

from xlrating.excel_errors import ExcelError

from .registry import EngineParser

MAX_ROW = 1_048_576
MAX_COL = 16_384


class FormulaSyntaxError(Exception):
    """A formula ``formulas`` cannot parse."""


class ExternalReference(FormulaSyntaxError):
    """A reference into another workbook ([1]Sheet!A1): its values are not in this file."""

    def __init__(self, reference: str):
        super().__init__(f"{reference} refers to another workbook, which convert cannot read")


@dataclass(frozen=True)
class Const:
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
        return self.r1 == self.r2 and self.c1 == self.c2


@dataclass(frozen=True)
class Op:
    op: str  # + - * / ^ & = <> < > <= >= u- u+ % and ':' ' ' (range operators)
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Call:
    name: str  # as written, upper case
    args: tuple[Any, ...]


Node = Const | Ref | Op | Call

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


def _range_node(token: Range) -> Ref:
    attr = token.attr
    if attr.get("is_reference"):
        return Ref(None, 0, 0, 0, 0, name=attr["name"].upper())
    if attr.get("filename") or attr.get("excel_id"):
        raise ExternalReference(token.source[:token.end_match].strip())
    if attr.get("indirect"):  # INDIRECT("B1:B3") with constant text: formulas resolved it, never moves
        return _fixed_range(attr)
    text = token.source[:token.end_match].strip()
    address = text.rsplit("!", 1)[-1]
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
    (r1, rel1), (r2, rel2) = rows
    c1, c2 = cols
    if r1 == 0 and r2 == 0:
        r1, r2 = 1, MAX_ROW
    if c1 == 0 and c2 == 0:
        c1, c2 = 1, MAX_COL
    sheet = (attr.get("sheet") or "").replace("''", "'") or None  # 'Bob''s'!A1 is on sheet Bob's
    return Ref(sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2), rel1, rel2)


def _fixed_range(attr: dict[str, Any]) -> Ref:
    r1, r2 = int(attr.get("r1") or 0), int(attr.get("r2") or 0)
    c1, c2 = int(attr.get("n1") or 0), int(attr.get("n2") or 0)
    r1, r2 = (1, MAX_ROW) if r1 == 0 and r2 in (0, MAX_ROW) else (r1, r2)
    c1, c2 = (1, MAX_COL) if c1 == 0 and c2 == 0 else (c1, c2)
    return Ref(attr.get("sheet") or None, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def _operand(token: Any) -> Node:
    if isinstance(token, Range):
        return _range_node(token)
    if isinstance(token, ErrorToken):
        return Const(ExcelError(token.name.upper()))
    if isinstance(token, Empty):  # an omitted argument: =ROUND(A1,)
        return Const(None)
    if isinstance(token, String):  # the text itself: a quote is written doubled inside a literal
        return Const(token.name.replace('""', '"'))
    if isinstance(token, Number):
        name = token.name.upper()
        if name in ("TRUE", "FALSE"):
            return Const(name == "TRUE")
        return Const(float(name))
    raise FormulaSyntaxError(f"unsupported operand {token.name!r}")


class _TreeBuilder:
    """Receives ``formulas``' postfix token feed and keeps a stack of nodes."""

    def __init__(self, match: Any = None, **_: Any):
        self.match = match
        self.stack: list[Any] = []

    def __len__(self) -> int:
        return len(self.stack)

    def __getitem__(self, index: int) -> Any:
        return self.stack[index]

    def pop(self) -> Any:
        return self.stack.pop()

    def append(self, token: Any) -> None:
        if isinstance(token, (Operator, Function)):
            count = token.get_n_args
            if count > len(self.stack):
                raise FormulaSyntaxError("an operator is missing an operand")
            args = tuple(self.stack[len(self.stack) - count:]) if count else ()
            del self.stack[len(self.stack) - count:]
            if isinstance(token, Function):
                self.stack.append(Call(token.name.upper(), args))
            else:
                self.stack.append(Op(token.name, args))
        else:
            self.stack.append(_operand(token))

    def finish(self) -> None:
        pass


class _TreeParser(EngineParser):
    ast_builder = _TreeBuilder


_LINE_BREAKS = re.compile(r'("(?:[^"]|"")*")|[\r\n\t]+')


def one_line(formula: str) -> str:
    """``formula`` with the line breaks and tabs Excel allows between tokens (Alt+Enter in the
    formula bar) turned into spaces; string literals keep theirs."""
    if "\n" not in formula and "\r" not in formula and "\t" not in formula:
        return formula
    return _LINE_BREAKS.sub(lambda m: m.group(1) or " ", formula)


# a run of unary minus signs where an operand starts (after =, (, a comma, a comparison or &)
_SIGNS = re.compile(r'("(?:[^"]|"")*")|(\'(?:[^\']|\'\')*\')|(?<=[=(,;<>&])(\s*)((?:[-+]\s*)+)')


def _signs(match: re.Match[str]) -> str:
    if match.group(1) or match.group(2):
        return match.group(0)
    count = match.group(4).count("-")
    if count == 0:
        return match.group(3)  # a unary plus changes nothing in Excel (=+TRUE is TRUE)
    return match.group(3) + ("0+" if count % 2 == 0 else "-")


def normalise(formula: str) -> str:
    """``formula`` as the parser should read it: on one line (:func:`one_line`), and with its unary
    signs as Excel means them where an operand starts (at the start, after ``(``, a comma, a
    comparison or ``&``, where ``+`` binds as tightly as the sign would): a unary plus changes
    nothing (``=+D6`` keeps TRUE as TRUE) and a double negation ``--x`` is the number ``0+x``.
    ``formulas``' tokenizer folds ``--`` into a unary plus that turns TRUE into 1."""
    formula = one_line(formula)
    if "-" not in formula and "+" not in formula:
        return formula
    return _SIGNS.sub(_signs, formula)


@functools.lru_cache(maxsize=8192)
def parse(formula: str) -> Node:
    """The expression tree of ``formula`` (text starting with ``=``); trees are immutable, so one
    parse serves every cell, sheet and workbook (a folder of books made from one template) with it."""
    formula = normalise(formula)
    try:
        _, builder = _TreeParser().ast(formula)
    except FormulaSyntaxError:
        raise
    except Exception as exc:  # noqa: BLE001 - formulas raises its FormulaError family and a few others
        raise FormulaSyntaxError(f"cannot parse {formula!r} ({type(exc).__name__})") from None
    if isinstance(builder.stack[0], Call) and builder.stack[0].name == "ARRAY" and formula.lstrip().startswith("{"):
        raise FormulaSyntaxError("array constants are not supported")
    tree: Node = builder.stack[0]
    return tree


def walk(node: Node) -> Any:
    """Every node of the tree, depth first."""
    yield node
    if isinstance(node, (Op, Call)):
        for arg in node.args:
            yield from walk(arg)


# --- shapes ---------------------------------------------------------------------------------------

# A cell reference outside string literals and quoted sheet names; not part of a longer name, not a
# sheet name (followed by '!') and not a function name (followed by '(').
_TOKEN = re.compile(r"""("(?:[^"]|"")*")|('(?:[^']|'')*')|(?<![\w.$])(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})(?![\w(!])""")


class FilledDown:
    """Recognises the cells a formula was filled down to: the same text, relative rows shifted.

    Built from one cell's formula: the text becomes a template in which the row number of every
    relative reference is a placeholder (``{}``) and everything else (constants, absolute rows,
    digits inside names or strings) stays literal. The formula filled down to row ``r`` is the
    template with ``r + offset`` in each placeholder, so a whole column is checked by generating
    the expected texts and comparing strings, without parsing a single one.
    """

    def __init__(self, text: str, row: int):
        self.row = row
        moving = sorted(m.span(6) for m in _TOKEN.finditer(text) if m.group(6) and not m.group(5))
        pieces: list[str] = []
        self.offsets: list[int] = []
        position = 0
        for start, end in moving:
            pieces.append(text[position:start].replace("{", "{{").replace("}", "}}"))
            pieces.append("{}")
            self.offsets.append(int(text[start:end]) - row)
            position = end
        pieces.append(text[position:].replace("{", "{{").replace("}", "}}"))
        self.template = "".join(pieces)
        # The same with "%d" placeholders and a line end, for checking many rows at once (below);
        # None when the text holds a line end itself.
        literal = [p.replace("{{", "{").replace("}}", "}").replace("%", "%%") for p in pieces[0::2]]
        self.line = None if "\n" in text else "%d".join(literal) + "\n"

    def text_at(self, row: int) -> str:
        return self.template.format(*(row + offset for offset in self.offsets))

    def extent(self, texts: list[str], row: int, start: int, stop: int) -> int:
        """The first index in ``texts[start:stop]``, the formulas of consecutive rows from ``row``
        down, that is not this formula filled down.

        Rows are checked in growing chunks (a short run costs little). A chunk's expected texts are
        made as one string by a single "%" over the line template repeated, and compared with the
        chunk's texts joined by line ends: equal only if each text is (no expected text holds a
        line end, so the joined texts split at the same places); the first difference is looked
        for text by text only in a chunk that differs."""
        size = 16
        k = start
        offsets = np.array(self.offsets, dtype=np.int64)
        while k < stop:
            end = min(stop, k + size)
            found = texts[k:end]
            first = row + k - start
            if self.line is not None:
                numbers = (np.arange(first, first + len(found))[:, None] + offsets).ravel().tolist()
                if self.line * len(found) % tuple(numbers) == "\n".join(found) + "\n":
                    k = end
                    size *= 4
                    continue
            for i, text in enumerate(found):
                if text != self.text_at(first + i):
                    return k + i
            k = end
            size *= 4
        return stop

    def matches(self, text: str, row: int) -> bool:
        return text == self.text_at(row)
