"""Formula text -> a small expression tree, parsed by ``formulas``' tokenizer.

``formulas`` turns a formula into tokens and feeds them in postfix order to an AST builder; our
:class:`_TreeBuilder` takes that feed and builds plain nodes instead of a ``schedula`` dispatcher,
so parsing is cheap and the tree can be compiled for whole columns (:mod:`.vector`) or inspected
for dependencies (:mod:`.schedule`). ``formulas`` drops the ``$`` anchors of references, so they
are read back from each token's source text. The nodes are :mod:`.tree`'s.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from xlrating.excel_errors import ExcelError

from ..read.grid import MAX_COL, MAX_ROW
from ..read.names import spans_readable
from .tree import Call, Const, Node, Op, Ref, reference

_LINE_BREAKS = re.compile(r'("(?:[^"]|"")*")|[\r\n\t]+')


def one_line(formula: str) -> str:
    """``formula`` with the line breaks and tabs Excel allows between tokens (Alt+Enter in the
    formula bar) turned into spaces; string literals keep theirs."""
    if "\n" not in formula and "\r" not in formula and "\t" not in formula:
        return formula
    return _LINE_BREAKS.sub(lambda m: m.group(1) or " ", formula)


# a run of unary minus signs where an operand starts (after =, (, a comma, a comparison or &)
_SIGNS = re.compile(r'("(?:[^"]|"")*")|(\'(?:[^\']|\'\')*\')|(?<=[=(,;<>&])(\s*)((?:[-+]\s*)+)')


# an area reference (two cells, whole columns or rows, its sheet first), a name or call not following
_AREA_AHEAD = re.compile(r"""(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?(?:\$?[A-Za-z]{1,3}\$?[0-9]{1,7}:\$?[A-Za-z]{1,3}\$?[0-9]{1,7}
    |\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?[0-9]{1,7}:\$?[0-9]{1,7})(?![\w(!:])""", re.VERBOSE)


def _signs(match: re.Match[str]) -> str:
    if match.group(1) or match.group(2):
        return match.group(0)
    count = match.group(4).count("-")
    if count == 0:
        if _AREA_AHEAD.match(match.string, match.end()):
            # a unary plus makes a reference to several cells the array of their values, which the
            # functions that refuse such a reference take (=EDATE(+A2:A9,1): evaluate.toolpak)
            return match.group(3) + "+"
        return match.group(3)  # a unary plus changes nothing in Excel (=+TRUE is TRUE)
    return match.group(3) + ("0+" if count % 2 == 0 else "-")


# a cell reference right after "):" (the call before the colon is found by counting parentheses)
_CELL_AFTER_CALL = re.compile(r"\s*:\s*((?:'(?:[^']|'')+'!|[A-Za-z_][\w.]*!)?\$?[A-Za-z]{1,3}\$?[0-9]{1,7})(?![\w(!:])")
_CALL_NAME = re.compile(r"[A-Za-z_][\w.]*$")


def _reference_first(formula: str) -> str:
    """``FUNC(...):A1`` written ``A1:FUNC(...)``, the same area (``:`` spans its operands either way):
    ``formulas``' tokenizer reads ``:A1`` after a parenthesis as a reference of its own."""
    opened: list[int] = []
    quote = ""
    i = 0
    while i < len(formula):
        char = formula[i]
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "(":
            opened.append(i)
        elif char == ")" and opened:
            start = opened.pop()
            cell = _CELL_AFTER_CALL.match(formula, i + 1)
            name = _CALL_NAME.search(formula, 0, start)
            if cell and name:
                call = formula[name.start():i + 1]
                formula = f"{formula[:name.start()]}{cell.group(1)}:{call}{formula[cell.end():]}"
                i = name.start() + len(cell.group(1)) + len(call)
        i += 1
    return formula


def normalise(formula: str) -> str:
    """``formula`` as the parser should read it: on one line (:func:`one_line`), a function call
    before ``:`` and a cell after it swapped (:func:`_reference_first`), the range operator's
    operands on one sheet as ``formulas`` reads them (:func:`..read.names.spans_readable`), and with its unary
    signs as Excel means them where an operand starts (at the start, after ``(``, a comma, a
    comparison or ``&``, where ``+`` binds as tightly as the sign would): a unary plus changes
    nothing (``=+D6`` keeps TRUE as TRUE) and a double negation ``--x`` is the number ``0+x``.
    ``formulas``' tokenizer folds ``--`` into a unary plus that turns TRUE into 1."""
    formula = one_line(formula)
    if "):" in formula or ") :" in formula:
        formula = _reference_first(formula)
    formula = spans_readable(formula)
    if "-" not in formula and "+" not in formula:
        return formula
    return _SIGNS.sub(_signs, formula)


@functools.lru_cache(maxsize=8192)
def parse(formula: str) -> Node:
    """The expression tree of ``formula`` (text starting with ``=``); trees are immutable, so one
    parse serves every cell, sheet and workbook (a folder of books made from one template) with it.

    The engine's own reader (:class:`_Reader`) takes the formulas workbooks are made of; what it does
    not take (array constants, unions and intersections, LAMBDA, R1C1, references into other
    workbooks, layouts ``formulas`` reads in a way of its own) goes to ``formulas``' tokenizer
    (:mod:`.tokens`), which gives the same trees where both read a formula."""
    formula = normalise(formula)
    try:
        return _Reader(formula).tree()
    except _Declined:
        pass
    from .tokens import parse_with_formulas

    return parse_with_formulas(formula)


# --- the engine's reader --------------------------------------------------------------------------

class _Declined(Exception):
    """A formula :class:`_Reader` leaves to ``formulas``' tokenizer."""


# The tokens, tried in this order at each position: a string literal; a number, as ``formulas`` reads
# one (no exponent without its sign, no trailing point); an error literal; a reference with its sheet
# (a cell or a cell range, whole columns, whole rows); a name or a function's name (ASCII; a dot only
# in a function's name); an operator; a parenthesis or comma.
_STRING = re.compile(r'"(?:[^"]|"")*"')
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-][0-9]+)?")
_ERROR = re.compile(r"#(?:NULL!|DIV/0!|VALUE!|REF!|NUM!|NAME\?|N/A|GETTING_DATA)", re.IGNORECASE)
_CELL = r"\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6}"
_REFERENCE = re.compile(rf"""(?:(?P<sheet>[A-Za-z_][A-Za-z0-9_.]*)!|'(?P<quoted>(?:''|[^'?*/\[\]:\\])+)'!)?
    (?P<address>{_CELL}(?::{_CELL})?|\$?[A-Za-z]{{1,3}}:\$?[A-Za-z]{{1,3}}|\$?[1-9][0-9]{{0,6}}:\$?[1-9][0-9]{{0,6}})""",
                        re.VERBOSE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_R1C1 = re.compile(r"R[0-9]+C[0-9]+", re.IGNORECASE)
_OPERATOR = re.compile(r"<>|<=|>=|[-+*/^&=<>%]")
# What may follow an operand (after spaces): an operator, a comma, a closing parenthesis, the end.
_FOLLOWS = frozenset("+-*/^&=<>%,)")
# Functions ``formulas`` reads as something else (LAMBDA and LET as a closure; ANCHORARRAY as a spill
# reference), and INDIRECT of a constant text, which it resolves while reading.
_OTHERWISE_READ = frozenset({"LAMBDA", "LET", "_XLFN.LAMBDA", "_XLFN.LET", "ANCHORARRAY", "_XLFN.ANCHORARRAY"})
_BINARY = (("=", "<>", "<", ">", "<=", ">="), ("&",), ("+", "-"), ("*", "/"), ("^",))


class _Reader:
    """A precedence reader of one formula (Excel's order: negation, percent, ``^``, ``* /``,
    ``+ -``, ``&``, comparisons; every binary operator left to right). Raises :class:`_Declined`
    for anything outside what it takes, before building any tree of its own for it."""

    def __init__(self, formula: str):
        if not formula.startswith("=") or formula.endswith(" "):  # line breaks: only in texts (normalise)
            raise _Declined
        self.text = formula
        self.tokens: list[tuple[str, Any]] = []  # (kind, value): value, name or reference node
        self._tokenize()
        self.next = 0

    # -- tokens --

    def _tokenize(self) -> None:
        text, size, tokens = self.text, len(self.text), self.tokens
        at = 1  # after the "="
        while at < size and text[at] == " ":
            at += 1
        if at == size:
            raise _Declined
        while at < size:
            char = text[at]
            if char == " ":
                at += 1
                continue
            ended = tokens[-1][0] in ("value", "ref", ")") if tokens else False  # an operand just ended
            if char == '"':
                match = _STRING.match(text, at)
                if match is None:
                    raise _Declined
                tokens.append(("value", Const(match.group()[1:-1].replace('""', '"'))))
            elif char.isdigit() or char == ".":
                match = _NUMBER.match(text, at)
                if match is None:
                    raise _Declined
                if match.end() < size and text[match.end()] not in _FOLLOWS and text[match.end()] != " ":
                    match = self._reference(at)  # 3:5, whole rows
                else:
                    tokens.append(("value", Const(float(match.group()))))
            elif char == "#":
                match = _ERROR.match(text, at)
                if match is None:
                    raise _Declined
                tokens.append(("value", Const(ExcelError(match.group().upper()))))
            elif char.isalpha() or char in "_$'":
                match = self._word(at)
            elif char in "(),":
                tokens.append((char, char))
                at += 1
                if char == "(" and ended:
                    raise _Declined  # (1)(2), "a"(1): no formula
                continue
            else:
                match = _OPERATOR.match(text, at)
                if match is None:
                    raise _Declined  # { @ ; [ and the like
                tokens.append(("op", match.group()))
                at = match.end()
                continue
            if ended:
                raise _Declined  # two operands side by side: an intersection (A1:B2 B1:C3), or no formula
            at = match.end()
            if tokens[-1][0] != "call(":
                self._check_follows(at)

    def _check_follows(self, at: int) -> None:
        text = self.text
        while at < len(text) and text[at] == " ":
            at += 1
        if at < len(text) and text[at] not in _FOLLOWS:
            raise _Declined

    def _reference(self, at: int) -> re.Match[str]:
        match = _REFERENCE.match(self.text, at)
        if match is None:
            raise _Declined
        end = match.end()
        if end < len(self.text) and (self.text[end].isalnum() or self.text[end] in "_.(!:#$'\"[{\\"):
            raise _Declined  # A1B, A1:B, A1#, a row's leading zero and the like
        sheet = match.group("sheet")
        if sheet is not None and (_R1C1.fullmatch(sheet) or sheet.upper() in ("TRUE", "FALSE")):
            raise _Declined
        quoted = match.group("quoted")
        if quoted is not None:
            sheet = quoted.replace("''", "'")
        address = match.group("address")
        node = reference(sheet, address, match.group())
        if node.r2 > MAX_ROW or node.c2 > MAX_COL:
            raise _Declined
        self.tokens.append(("ref", node))
        return match

    def _word(self, at: int) -> re.Match[str]:
        text = self.text
        word = _WORD.match(text, at)
        if word is None:  # $A$1, 'My sheet'!A1
            return self._reference(at)
        end = word.end()
        after = text[end] if end < len(text) else ""
        name = word.group().upper()
        if after == "(":
            if name in _OTHERWISE_READ or name.startswith("_XLETA.") or name in ("TRUE", "FALSE") or (
                    name == "INDIRECT" and text.startswith('"', end + 1)):
                raise _Declined
            self.tokens.append(("call(", name))
            return word
        reference_match = _REFERENCE.match(text, at)
        if after == "!" or (reference_match is not None and reference_match.end() >= end):
            return self._reference(at)  # Sheet1!A1, A1, XFD3, A$1, A:C
        if "." in name or _R1C1.fullmatch(name) or after in ("#", ":", "[", "'", '"', "$"):
            raise _Declined
        if name in ("TRUE", "FALSE"):
            self.tokens.append(("value", Const(name == "TRUE")))
        else:
            self.tokens.append(("ref", Ref(None, 0, 0, 0, 0, name=name)))
        return word

    # -- the tree --

    def tree(self) -> Node:
        node = self._binary(0)
        if self.next != len(self.tokens):
            raise _Declined
        return node

    def _peek(self) -> tuple[str, Any]:
        return self.tokens[self.next] if self.next < len(self.tokens) else ("end", None)

    def _binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self._unary()
        node = self._binary(level + 1)
        operators = _BINARY[level]
        while True:
            kind, value = self._peek()
            if kind != "op" or value not in operators:
                return node
            self.next += 1
            if value in "+-" and self._peek()[0] == "op" and self._peek()[1] in "+-":
                raise _Declined  # 1--1: formulas folds a run of signs after + or - into one operator
            node = Op(value, (node, self._binary(level + 1)))

    def _unary(self) -> Node:
        kind, value = self._peek()
        if kind == "op" and value == "-":
            self.next += 1
            following = self._peek()
            if following[0] == "op":
                raise _Declined  # a run of signs: formulas folds them its own way
            node: Node = Op("u-", (self._primary(),))  # negation binds tighter than percent: -A1% is (-A1)%
        else:
            node = self._primary()
        kind, value = self._peek()
        if kind == "op" and value == "%":
            self.next += 1
            node = Op("%", (node,))
            while self._peek() == ("op", "%"):  # 1000%% is 1000/100/100, as Excel computes it
                self.next += 1
                node = Op("%", (node,))
        return node

    def _primary(self) -> Node:
        kind, value = self._peek()
        self.next += 1
        if kind in ("value", "ref"):
            return value  # type: ignore[no-any-return]
        if kind == "(":
            node = self._binary(0)
            if self._peek()[0] != ")":
                raise _Declined  # a union (A1,B1), or unbalanced
            self.next += 1
            return node
        if kind == "call(":
            args: list[Node] = []
            self.next += 1  # the "(" that the name ends with
            if self._peek()[0] == ")":
                self.next += 1
                return Call(value, ())
            while True:
                if self._peek()[0] in (",", ")"):
                    args.append(Const(None))  # an argument left out: =ROUND(A1,)
                else:
                    args.append(self._binary(0))
                kind = self._peek()[0]
                self.next += 1
                if kind == ")":
                    return Call(value, tuple(args))
                if kind != ",":
                    raise _Declined
        raise _Declined
