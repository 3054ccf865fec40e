"""Defined names that stand for more than one reference: expanded into the formula text.

A defined name may hold a single reference (``Sheet1!$A$1:$A$9``: the engine reads it as a
reference), or any formula (``SUM(Data!$B$2:$B$9)``, ``0.21``, an intersection ``A:A 3:3``), or a
LAMBDA (``MYLAMBDA = LAMBDA(x, y, x*2+y)``, called as ``=MYLAMBDA(1, 2)``). Excel computes the
formula where the name is used; so does the engine, by putting the name's formula in its place
(in parentheses) before the cell's formula is compiled, and a LAMBDA name's LAMBDA before its
argument list (``LAMBDA(x, y, x*2+y)(1, 2)``, which ``formulas`` evaluates).

Names are found by a small scanner that skips string literals, quoted sheet names, structured
references, numbers and cell, column and row references, so a name ``e`` is never mistaken for the
exponent of ``1E+3`` or the column of ``E:E``.
"""

from __future__ import annotations

import re

MAX_DEPTH = 16  # names that use names; deeper is a name that (indirectly) uses itself

_TOKENS = re.compile(r"""
    (?P<string>"(?:[^"]|"")*")
  | (?P<quoted>'(?:[^']|'')*'!)
  | (?P<bracket>\[(?:[^\[\]]|\[[^\[\]]*\])*\])
  | (?P<cell>\$?[A-Za-z]{1,3}\$?\d+(?![\w.(!]))
  | (?P<columns>\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![\w.(!]))
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_\\][\w.\\?]*)(?P<after>[(!]?)
""", re.VERBOSE)

# A defined name that is one reference (the engine reads these directly): [sheet!]A1[:B2], $ allowed,
# whole columns and rows too.
_REFERENCE = re.compile(r"""^(?:(?:'(?:[^']|'')+'|[^\s!'"(),;:]+)!)?
    (?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)$""",
                        re.VERBOSE)
_LAMBDA = re.compile(r"^\s*(?:_xlfn\.)?LAMBDA\s*\(", re.IGNORECASE)


def is_reference(text: str) -> bool:
    """Whether a defined name's text is a single reference (read as such, never expanded)."""
    return bool(_REFERENCE.match(text.strip()))


def expand_names(formula: str, names: dict[str, str], depth: int = 0) -> str:
    """``formula`` with every defined name that is not a single reference replaced by its formula.

    ``names``: NAME (upper case) -> the name's text as stored (no leading ``=``).
    """
    if not names or depth > MAX_DEPTH:
        return formula
    pieces: list[str] = []
    position = 0
    changed = False
    for match in _TOKENS.finditer(formula):
        name = match.group("name")
        if name is None or match.group("after") == "!":
            continue
        if match.start() > 0 and formula[match.start() - 1] in "!.$":  # Sheet1!name, _xlfn.X, ...
            continue
        text = names.get(name.upper())
        if text is None or is_reference(text):
            continue
        called = match.group("after") == "("
        if called and not _LAMBDA.match(text):
            continue  # a function of the same spelling as a name: the function
        pieces.append(formula[position:match.start()])
        pieces.append(text.strip() + "(" if called else "(" + text.strip() + ")")
        position = match.end()
        changed = True
    if not changed:
        return formula
    pieces.append(formula[position:])
    return expand_names("".join(pieces), names, depth + 1)
