"""References of several areas written out as the areas themselves: 3-D references across sheets
(``Sheet1:Sheet3!A1``) and unions (``(A1:A2,C1:C2)``) as arguments of the functions that take each
of their areas as one more argument.

Excel computes ``SUM(Jan:Dec!B2)`` over B2 of every sheet from Jan to Dec in workbook order, exactly
as ``SUM(Jan!B2,Feb!B2,...,Dec!B2)``; the functions that take a 3-D reference are SUM, AVERAGE,
AVERAGEA, COUNT, COUNTA, MAX, MAXA, MIN, MINA, PRODUCT, STDEV, STDEVA, STDEVP, STDEVPA, VAR, VARA,
VARP and VARPA (and STDEV.S, STDEV.P, VAR.S, VAR.P), as Microsoft's "Create a 3-D reference" lists
them. A 3-D reference anywhere else is #VALUE!: as a cell's value (``=Sheet1:Sheet3!A1``) or in
arithmetic, and the call of any other function it is an argument of (``COUNTIF(Sheet1:Sheet3!A1,
">0")``), but for the functions that look at an argument's error (IFERROR, ISERROR ...); a sheet
at either end the workbook does not have is #REF!. A union ``SUM((A1:A2,C1:C2))`` is
``SUM(A1:A2,C1:C2)`` for every function of a list of numbers; a union in any other function's
argument is left to it (LARGE, RANK, INDEX, AREAS read its areas).

:func:`spread_areas` rewrites a formula's text that way before it is read, so that every later
stage (the tree, the dependency order, the vectorised path and ``formulas``) sees ordinary
references on ordinary sheets. Excel stores a 3-D reference between quoted sheet names as
``'My sheet:Other sheet'!A1``; the form typed in the formula bar, ``'My sheet':'Other sheet'!A1``,
is read too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# Functions that take a 3-D reference (Microsoft's list; the statistics also under their 2010 names)
TAKES_3D = frozenset({"SUM", "AVERAGE", "AVERAGEA", "COUNT", "COUNTA", "MAX", "MAXA", "MIN", "MINA", "PRODUCT",
                      "STDEV", "STDEVA", "STDEVP", "STDEVPA", "STDEV.S", "STDEV.P", "VAR", "VARA", "VARP", "VARPA",
                      "VAR.S", "VAR.P"})
# Functions of a list of numbers, each argument a number, an array or a reference of any number of
# areas: a union argument is the same as its areas given one by one
TAKES_UNION = TAKES_3D | frozenset({"MEDIAN", "MODE", "MODE.SNGL", "AVEDEV", "DEVSQ", "GEOMEAN", "HARMEAN",
                                    "KURT", "SKEW", "SUMSQ"})

# Functions that take any value and look at its error (IFERROR(Jan:Mar!B2, 0) is 0): the 3-D reference
# is #VALUE! to them; any other function given one as an argument is #VALUE! itself
SEES_ERRORS = frozenset({"IF", "IFERROR", "IFNA", "ISERROR", "ISERR", "ISNA", "ERROR.TYPE", "CHOOSE", "IFS",
                         "SWITCH"})

_ADDRESS = r"\$?[A-Za-z]{1,3}\$?[0-9]+(?::\$?[A-Za-z]{1,3}\$?[0-9]+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?[0-9]+:\$?[0-9]+"
_PLAIN_SHEET = r"[^\W\d][\w.]*"  # a letter or _ (any script), then letters, digits, _ and .
_QUOTED = r"(?:[^']|'')+"
# Sheet1:Sheet3!A1, 'My sheet':'Other sheet'!A1 (as typed) and 'My sheet:Other sheet'!A1 (as stored)
_THREE_D = re.compile(
    rf"(?:(?:'(?P<q1>{_QUOTED})'|(?P<p1>{_PLAIN_SHEET})):(?:'(?P<q2>{_QUOTED})'|(?P<p2>{_PLAIN_SHEET}))"
    rf"|'(?P<s1>(?:[^':]|'')+):(?P<s2>(?:[^':]|'')+)')!(?P<address>{_ADDRESS})(?![\w(!:#$])")
_CELL_LIKE = re.compile(r"\$?[A-Za-z]{1,3}\$?[0-9]+|R[0-9]*C[0-9]*|[0-9]+", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z_\\][\w.]*")
_PREFIX = re.compile(r"^(?:_XLFN\.|_XLWS\.)+")
_STRING = re.compile(r'"(?:[^"]|"")*"')
_BRACES = re.compile(r'\{(?:"(?:[^"]|"")*"|[^}"])*\}')
# what a formula holding a union (a parenthesis opening an argument) or a 3-D reference must contain
_MAYBE = re.compile(r"[(,]\s*\(|:[^!:(),]*!")


class _Token:
    """A piece of formula text: ``kind`` is "open" (a parenthesis; ``name`` the function it calls,
    or None for a grouping or union), "close", "comma", "3d" (a 3-D reference) or "text"."""

    __slots__ = ("address", "first", "kind", "last", "name", "text")

    def __init__(self, kind: str, text: str, name: str | None = None):
        self.kind, self.text, self.name = kind, text, name
        self.first = self.last = self.address = ""


def _tokens(formula: str) -> list[_Token]:
    tokens: list[_Token] = []
    at, size = 0, len(formula)
    while at < size:
        char = formula[at]
        if char == '"':
            match = _STRING.match(formula, at)
            end = match.end() if match else size
            tokens.append(_Token("text", formula[at:end]))
            at = end
            continue
        if char == "{":
            match = _BRACES.match(formula, at)
            end = match.end() if match else size
            tokens.append(_Token("text", formula[at:end]))
            at = end
            continue
        previous = formula[at - 1] if at else ""
        if (char == "'" or char.isalpha() or char == "_") and previous not in "!$.:'" \
                and not previous.isalnum() and previous != "_":
            three_d = _THREE_D.match(formula, at)
            first = three_d and (three_d.group("p1") or "")
            if three_d and not (first and _CELL_LIKE.fullmatch(first)):
                token = _Token("3d", three_d.group())
                token.first = _unquote(three_d.group("q1") or three_d.group("p1") or three_d.group("s1"))
                token.last = _unquote(three_d.group("q2") or three_d.group("p2") or three_d.group("s2"))
                token.address = three_d.group("address")
                tokens.append(token)
                at = three_d.end()
                continue
        if char == "'":  # a quoted sheet name: one piece of text up to its closing quote
            end = at + 1
            while end < size:
                if formula[end] == "'":
                    if end + 1 < size and formula[end + 1] == "'":
                        end += 2
                        continue
                    break
                end += 1
            tokens.append(_Token("text", formula[at:end + 1]))
            at = end + 1
            continue
        if char.isalpha() or char in "_\\":
            match = _NAME.match(formula, at)
            end = match.end() if match else at + 1
            if end < size and formula[end] == "(":
                tokens.append(_Token("open", formula[at:end + 1], formula[at:end].upper()))
                at = end + 1
            else:
                tokens.append(_Token("text", formula[at:end]))
                at = end
            continue
        kind = {"(": "open", ")": "close", ",": "comma"}.get(char, "text")
        tokens.append(_Token(kind, char))
        at += 1
    return tokens


def _unquote(name: str) -> str:
    return name.replace("''", "'")


def _function(name: str | None) -> str | None:
    return None if name is None else _PREFIX.sub("", name)


def _matching(tokens: list[_Token], start: int) -> int:
    """The index of the parenthesis closing the one at ``start`` (len(tokens) if none does)."""
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i].kind == "open":
            depth += 1
        elif tokens[i].kind == "close":
            depth -= 1
            if depth == 0:
                return i
    return len(tokens)


def _blank(token: _Token) -> bool:
    return token.kind == "text" and not token.text.strip()


def _neighbour(tokens: list[_Token], at: int, step: int) -> _Token | None:
    at += step
    while 0 <= at < len(tokens) and _blank(tokens[at]):
        at += step
    return tokens[at] if 0 <= at < len(tokens) else None


def _flatten_unions(tokens: list[_Token]) -> list[_Token]:
    """The parentheses of a union argument of a function in :data:`TAKES_UNION` left out:
    ``SUM((A1:A2,C1:C2))`` is ``SUM(A1:A2,C1:C2)``."""
    drop: set[int] = set()
    stack: list[str | None] = []
    for i, token in enumerate(tokens):
        if token.kind == "open":
            caller = stack[-1] if stack else None
            before, end = _neighbour(tokens, i, -1), _matching(tokens, i)
            after = _neighbour(tokens, end, 1) if end < len(tokens) else None
            # an argument of its own: after the call's parenthesis or a comma, before a comma or ")"
            is_argument = before is not None and (before.kind == "comma" or before.name is not None) and (
                after is not None and after.kind in ("close", "comma"))
            if token.name is None and caller in TAKES_UNION and is_argument and end < len(tokens):
                depth = 0
                union = False
                for inner in tokens[i + 1:end]:
                    depth += inner.kind == "open"
                    depth -= inner.kind == "close"
                    union = union or (depth == 0 and inner.kind == "comma")
                if union:
                    drop.update((i, end))
            stack.append(_function(token.name) if token.name is not None else (
                caller if i in drop else None))
        elif token.kind == "close" and stack:
            stack.pop()
    return [token for i, token in enumerate(tokens) if i not in drop]


def _sheet_text(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _spread(token: _Token, sheets: Sequence[str]) -> str:
    """The areas of one 3-D reference, one per sheet from its first to its last in workbook order."""
    upper = [name.upper() for name in sheets]
    first, last = token.first.upper(), token.last.upper()
    if first not in upper or last not in upper:
        return "#REF!"
    lo, hi = sorted((upper.index(first), upper.index(last)))
    return ",".join(f"{_sheet_text(name)}!{token.address}" for name in sheets[lo:hi + 1])


def spread_areas(formula: str, sheets: Sequence[str]) -> str:
    """``formula`` with its unions and 3-D references written out as Excel computes them (see the
    module's docstring); ``sheets``: the workbook's sheet names in order. A formula with neither
    is returned as it is."""
    if _MAYBE.search(formula) is None:
        return formula
    return _spread_areas(formula, tuple(sheets))


@functools.lru_cache(maxsize=4096)
def _spread_areas(formula: str, sheets: tuple[str, ...]) -> str:
    tokens = _tokens(formula)
    has_3d = any(token.kind == "3d" for token in tokens)
    has_union = any(token.kind == "open" and token.name is None for token in tokens)
    if not has_3d and not has_union:
        return formula
    if has_union:
        tokens = _flatten_unions(tokens)
    if not has_3d:
        return "".join(token.text for token in tokens)
    texts = [token.text for token in tokens]
    stack: list[tuple[str | None, int]] = []  # the calls and groupings open: (function, token index)
    failed: list[tuple[int, int]] = []  # calls whose result is #VALUE!: (first token, last token)
    for i, token in enumerate(tokens):
        if token.kind == "open":
            stack.append((_function(token.name), i))
        elif token.kind == "close" and stack:
            stack.pop()
        if token.kind != "3d":
            continue
        before, after = _neighbour(tokens, i, -1), _neighbour(tokens, i, 1)
        whole_argument = (before is not None and before.kind in ("open", "comma")
                          and after is not None and after.kind in ("close", "comma"))
        caller, opened = stack[-1] if stack else (None, -1)
        if whole_argument and caller in TAKES_3D:
            texts[i] = _spread(token, sheets)
        elif whole_argument and caller is not None and caller not in SEES_ERRORS:
            failed.append((opened, _matching(tokens, opened)))  # COUNTIF(Jan:Mar!B2,">0"): #VALUE!
        else:
            texts[i] = "#VALUE!"
    for first, last in failed:
        texts[first:last + 1] = ["#VALUE!"] + [""] * (min(last, len(texts) - 1) - first)
    return "".join(texts)

