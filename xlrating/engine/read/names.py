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

from .grid import MAX_COL, MAX_ROW

MAX_DEPTH = 16  # names that use names; deeper is a name that (indirectly) uses itself
# what a call of a LAMBDA name that calls itself becomes: F(10) is _XLRATING_CALL(F,10), computed by
# the evaluator's LAMBDAs (xlrating/engine/evaluate/lambdas.py), the name F its input
RECURSIVE_CALL = "_XLRATING_CALL"

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


def visible_names(defined: dict[tuple[str, str | None], str]) -> dict[str | None, dict[str, str]]:
    """The defined names each sheet's formulas see, by upper-case sheet name (None: any other
    sheet), from (NAME, SHEET it is local to or None) -> text. As in Excel, a name local to a sheet
    hides the workbook-wide name of the same spelling there."""
    shared = {name: text for (name, scope), text in defined.items() if scope is None}
    seen: dict[str | None, dict[str, str]] = {None: shared}
    for (name, scope), text in defined.items():
        if scope is not None:
            seen.setdefault(scope, dict(shared))[name] = text
    return seen


def _unquoted(sheet: str) -> str:
    return sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet


def _written_out(text: str, names: dict[str, str], depth: int = 0) -> str:
    """A name's formula with every name it uses replaced by that name's text as ``names`` (one
    sheet's view) has it, references too, so the formula means the same wherever it is put."""
    if depth > MAX_DEPTH:
        return text
    pieces: list[str] = []
    position = 0
    for match in _TOKENS.finditer(text):
        name = match.group("name")
        if name is None or match.group("after") == "!" or (match.start() > 0 and text[match.start() - 1] in "!.$"):
            continue
        found = names.get(name.upper())
        if found is None or (match.group("after") == "(" and not _LAMBDA.match(found)):
            continue
        inner = found.strip() if is_reference(found) else "(" + _written_out(found, names, depth + 1) + ")"
        pieces.append(text[position:match.start()])
        pieces.append(inner + "(" if match.group("after") == "(" else inner)
        position = match.end()
    return "".join(pieces) + text[position:] if pieces else text


def qualified_names(formula: str, views: dict[str | None, dict[str, str]]) -> str:
    """``formula`` with each name qualified by a sheet (``Sheet2!Rate``, ``'Q1 Data'!Total``)
    replaced by what that name means on that sheet (its local name, else the workbook's): a
    reference as its reference text, a constant or formula in parentheses, written out in that
    sheet's view of the names (:func:`_written_out`). A name that sheet does not see is left as it
    is (#NAME? when computed); ``views``: :func:`visible_names`. Cell, column and row references
    after a sheet name, and names of other workbooks (``[1]Sheet1!Rate``), are not touched."""
    pieces: list[str] = []
    position = 0
    sheet: str | None = None
    sheet_start = sheet_end = -1
    for match in _TOKENS.finditer(formula):
        quoted, name = match.group("quoted"), match.group("name")
        if quoted is not None or (name is not None and match.group("after") == "!"):
            sheet = _unquoted(quoted[:-1]) if quoted is not None else name
            sheet_start, sheet_end = match.start(), match.end()
            continue
        if (name is None or match.start() != sheet_end or match.group("after") == "(" or sheet is None
                or (sheet_start > 0 and formula[sheet_start - 1] in "]:")):
            continue
        view = views.get(sheet.upper())
        text = view.get(name.upper()) if view is not None else None
        if text is None:
            continue
        pieces.append(formula[position:sheet_start])
        pieces.append(text.strip() if is_reference(text) else "(" + _written_out(text, view or {}) + ")")
        position = match.end()
    return "".join(pieces) + formula[position:] if pieces else formula


def is_lambda(text: str) -> bool:
    """Whether a defined name's text is a LAMBDA (``_xlfn.LAMBDA(_xlpm.x, x*2)``): a function."""
    return bool(_LAMBDA.match(text))


def _used_names(text: str, names: dict[str, str]) -> set[str]:
    """The defined names (of ``names``) that ``text`` uses, called or not."""
    used = set()
    for match in _TOKENS.finditer(text):
        name = match.group("name")
        if name is None or match.group("after") == "!" or (match.start() > 0 and text[match.start() - 1] in "!.$"):
            continue
        if name.upper() in names:
            used.add(name.upper())
    return used


_RECURSIVE: dict[int, tuple[dict[str, str], frozenset[str]]] = {}


def recursive_lambdas(names: dict[str, str]) -> frozenset[str]:
    """The LAMBDA names of ``names`` that call themselves, directly or through other names
    (``F = LAMBDA(n, IF(n=0, 0, 1+F(n-1)))``; ``EVEN``/``ODD`` calling each other): these cannot be
    written out in a formula's text, however deep; the evaluator calls them (:mod:`..evaluate.lambdas`).
    Remembered per dictionary of names (one per sheet's view, for the whole evaluation)."""
    cached = _RECURSIVE.get(id(names))
    if cached is not None and cached[0] is names:
        return cached[1]
    uses = {name: _used_names(text, names) for name, text in names.items()}
    found = set()
    for name, text in names.items():
        if not is_lambda(text):
            continue
        seen: set[str] = set()
        todo = list(uses[name])
        while todo:
            other = todo.pop()
            if other == name:
                found.add(name)
                break
            if other not in seen:
                seen.add(other)
                todo.extend(uses.get(other, ()))
    result = frozenset(found)
    if len(_RECURSIVE) > 64:
        _RECURSIVE.clear()
    _RECURSIVE[id(names)] = (names, result)
    return result


_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)"
_ONE_CELL = r"\$?[A-Za-z]{1,3}\$?\d+"
# a string literal (kept), or two cells of one sheet each with its sheet: Data!$A$2:Data!$C$5
_SHEET_TWICE = re.compile(rf"""("(?:[^"]|"")*")|(?<![\w.'\]!:])({_SHEET})!({_ONE_CELL}):\s*({_SHEET})!({_ONE_CELL})(?![\w.(!:])""")
# a string literal (kept), or a cell with its sheet that a range operator joins to a call or a parenthesis
_SHEET_CELL_TO_CALL = re.compile(rf"""("(?:[^"]|"")*")|(?<![\w.'\]!:])({_SHEET}!{_ONE_CELL})(?=\s*:\s*(?:[A-Za-z_][\w.]*\(|\())""")


def spans_readable(formula: str) -> str:
    """``formula`` with the range operator's operands written as ``formulas`` reads them, the same
    area: two cells of one sheet each with its sheet (``Data!$C$2:Data!$C$5``, what a name ending
    in another name becomes) as ``Data!$C$2:$C$5``, and a cell with its sheet before a call
    (``Data!A1:INDEX(...)``) in parentheses, ``(Data!A1):INDEX(...)`` (unparenthesised, the
    tokenizer dropped its sheet)."""
    if ":" not in formula or "!" not in formula:
        return formula

    def same_sheet(match: re.Match[str]) -> str:
        if match.group(1) or _unquoted(match.group(2)).upper() != _unquoted(match.group(4)).upper():
            return match.group(0)
        return f"{match.group(2)}!{_corners(match.group(3), match.group(5))}"

    formula = _SHEET_TWICE.sub(same_sheet, formula)
    return _SHEET_CELL_TO_CALL.sub(lambda m: m.group(1) or f"({m.group(2)})", formula)


_CELL_PARTS = re.compile(r"(\$?)([A-Za-z]{1,3})(\$?)(\d+)")


def _corners(first: str, second: str) -> str:
    """``first:second`` written top-left to bottom-right (``$F$2``, ``$C$6`` -> ``$C$2:$F$6``), as
    Excel writes the area two cells span; each column and row keeps its own ``$``."""
    a, b = _CELL_PARTS.fullmatch(first), _CELL_PARTS.fullmatch(second)
    if a is None or b is None:
        return f"{first}:{second}"

    def column(match: re.Match[str]) -> int:
        number = 0
        for char in match.group(2).upper():
            number = number * 26 + ord(char) - 64
        return number

    left, right = sorted((a, b), key=column)
    top, bottom = sorted((a, b), key=lambda m: int(m.group(4)))
    return (f"{left.group(1)}{left.group(2)}{top.group(3)}{top.group(4)}:"
            f"{right.group(1)}{right.group(2)}{bottom.group(3)}{bottom.group(4)}")


def _beside_colon(text: str, start: int, end: int) -> bool:
    """Whether the token text[start:end] is an operand of the range operator ``:``."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    return before.endswith(":") or after.startswith(":")


_ONE_CELL_REFERENCE = re.compile(rf"^(?:{_SHEET}!)?{_ONE_CELL}$")


# a cell reference of a name's text, its parts: column anchor, column, row anchor, row
_CELL_TOKEN = re.compile(r"(\$?)([A-Za-z]{1,3})(\$?)(\d+)")
_COLUMNS_TOKEN = re.compile(r"(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})")


def _column_number(letters: str) -> int:
    number = 0
    for char in letters.upper():
        number = number * 26 + ord(char) - 64
    return number


def _column_letters(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _relative_tokens(text: str) -> list[re.Match[str]]:
    """The cell and column references of a name's text with a part not anchored by ``$``."""
    found = []
    for match in _TOKENS.finditer(text):
        token = match.group("cell") or match.group("columns")
        if token is not None and token.count("$") < 2:
            found.append(match)
    return found


def is_relative(text: str) -> bool:
    """Whether a defined name's text holds a relative reference (``Sheet1!$A2``, ``Sheet1!B1*2``): one
    that means another cell for each cell using the name."""
    return bool(_relative_tokens(text))


def anchored(text: str, row: int, col: int) -> str:
    """A name's text as the cell at (row, col) reads it. Excel stores a name's relative references as
    seen from A1 (a name for "the cell above", made in A2, is stored as ``Sheet1!A1`` and read in
    B7 as ``Sheet1!B6``); each relative column and row moves by the cell's distance from A1,
    wrapping round the sheet's edges as Excel's do (``Sheet1!A1048576`` read in A2 is A1)."""
    pieces: list[str] = []
    position = 0
    for match in _relative_tokens(text):
        token = match.group("cell") or match.group("columns")
        if match.group("cell"):
            parts = _CELL_TOKEN.fullmatch(token)
            assert parts is not None
            column = _column_number(parts.group(2))
            if not parts.group(1):
                column = (column - 1 + col - 1) % MAX_COL + 1
            number = int(parts.group(4))
            if not parts.group(3):
                number = (number - 1 + row - 1) % MAX_ROW + 1
            moved = f"{parts.group(1)}{_column_letters(column)}{parts.group(3)}{number}"
        else:
            parts = _COLUMNS_TOKEN.fullmatch(token)
            assert parts is not None
            ends = []
            for anchor, letters in ((parts.group(1), parts.group(2)), (parts.group(3), parts.group(4))):
                column = _column_number(letters)
                if not anchor:
                    column = (column - 1 + col - 1) % MAX_COL + 1
                ends.append(f"{anchor}{_column_letters(column)}")
            moved = ":".join(ends)
        pieces.append(text[position:match.start()])
        pieces.append(moved)
        position = match.end()
    return "".join(pieces) + text[position:] if pieces else text


def relative_names(names: dict[str, str]) -> frozenset[str]:
    """The names of ``names`` that mean another cell for each cell using them: those holding a
    relative reference, and those using such a name."""
    cached = _RELATIVE.get(id(names))
    if cached is not None and cached[0] is names:
        return cached[1]
    found = {name for name, text in names.items() if is_relative(text)}
    uses = {name: _used_names(text, names) for name, text in names.items()}
    grew = True
    while grew:
        grew = False
        for name, used in uses.items():
            if name not in found and used & found:
                found.add(name)
                grew = True
    result = frozenset(found)
    if len(_RELATIVE) > 64:
        _RELATIVE.clear()
    _RELATIVE[id(names)] = (names, result)
    return result


_RELATIVE: dict[int, tuple[dict[str, str], frozenset[str]]] = {}


def uses_relative_names(formula: str, names: dict[str, str]) -> bool:
    """Whether ``formula`` uses a name that means another cell for each cell (:func:`relative_names`)."""
    relative = relative_names(names)
    return bool(relative) and bool(_used_names(formula, names) & relative)


def expand_names(formula: str, names: dict[str, str], depth: int = 0, at: tuple[int, int] | None = None) -> str:
    """``formula`` with every defined name that is not a single reference replaced by its formula,
    and a name of one cell that the range operator joins (``Deals!$C$2:EndOfData``, a name ending in
    another name) by its reference (``Deals!$C$2:Deals!$C$9``, then :func:`spans_readable`).

    ``names``: NAME (upper case) -> the name's text as stored (no leading ``=``). A LAMBDA that calls
    itself (:func:`recursive_lambdas`) is left as its name: the evaluator calls it. ``at``: the
    (row, col) of the cell the formula is computed in; a name holding a relative reference is then
    written out as that cell reads it (:func:`anchored`), a reference too.
    """
    if not names or depth > MAX_DEPTH:
        return spans_readable(call_lambdas(inline_lets(formula)))
    recursive = recursive_lambdas(names)
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
        if text is None:
            continue
        if at is not None and is_relative(text):
            text = anchored(text, *at)
        elif is_reference(text):
            if match.group("after") or not _ONE_CELL_REFERENCE.match(text.strip()) \
                    or not _beside_colon(formula, match.start(), match.end()):
                continue
        if is_reference(text):
            if match.group("after"):
                continue
            pieces.append(formula[position:match.start()])
            pieces.append(text.strip())
            position = match.end()
            changed = True
            continue
        called = match.group("after") == "("
        if name.upper() in recursive:  # called by the evaluator; as a value, the formula's input of that name
            if called:
                empty = formula[match.end():].lstrip().startswith(")")
                pieces.append(formula[position:match.start()])
                pieces.append(f"{RECURSIVE_CALL}({name}" + ("" if empty else ","))
                position = match.end()
                changed = True
            continue
        if called and not _LAMBDA.match(text):
            continue  # a function of the same spelling as a name: the function
        pieces.append(formula[position:match.start()])
        pieces.append(text.strip() + "(" if called else "(" + text.strip() + ")")
        position = match.end()
        changed = True
    if not changed:
        return spans_readable(call_lambdas(inline_lets(formula)))
    pieces.append(formula[position:])
    return expand_names("".join(pieces), names, depth + 1, at)


_LET = re.compile(r"(?<![\w.])(?:_xlfn\.)?LET\s*\(", re.IGNORECASE)
MAX_INLINED = 8_000  # characters: a LET inlined into a longer formula is left to formulas' own LET


def _substitute(text: str, name: str, value: str) -> str:
    """``text`` with the variable ``name`` replaced by ``value`` (in parentheses; bare where it is
    called, for a LAMBDA), outside strings, sheet names and references."""
    pieces: list[str] = []
    position = 0
    for match in _TOKENS.finditer(text):
        found = match.group("name")
        if found is None or found.upper() != name.upper() or match.group("after") == "!":
            continue
        if match.start() > 0 and text[match.start() - 1] in "!.$":
            continue
        called = match.group("after") == "("
        pieces.append(text[position:match.start()])
        pieces.append(value.strip() + "(" if called else "(" + value.strip() + ")")
        position = match.end()
    return "".join(pieces) + text[position:] if pieces else text


def inline_lets(formula: str) -> str:
    """``LET(name1, value1, ..., calculation)`` written out: each name replaced by its value where it
    is used (LET's values have no side effects, so this computes the same), so ``formulas`` never
    meets a LET whose variables only other variables use (it cannot parse those)."""
    for _ in range(MAX_DEPTH):
        match = _LET.search(formula)
        if match is None:
            return formula
        close = _closing(formula, match.end() - 1)
        if close == -1:
            return formula
        *pairs, calculation = _arguments(formula[match.end():close])
        if len(pairs) % 2 or not pairs:
            return formula
        names, values = [name.strip() for name in pairs[::2]], pairs[1::2]
        for i, name in enumerate(names):  # each value already has the earlier variables written out
            values[i + 1:] = [_substitute(later, name, values[i]) for later in values[i + 1:]]
            calculation = _substitute(calculation, name, values[i])
        inlined = formula[:match.start()] + "(" + calculation.strip() + ")" + formula[close + 1:]
        if len(inlined) > MAX_INLINED:
            return formula
        formula = inlined
    return formula


_LAMBDA_CALL = re.compile(r"(?<![\w.])(?:_xlfn\.)?LAMBDA\s*\(", re.IGNORECASE)


def _quoted_end(text: str, start: int) -> int:
    """The index of the quote closing the string or sheet name opened at ``start`` (a doubled quote
    inside it is the quote character itself); -1 if it is never closed."""
    char = text[start]
    end = text.find(char, start + 1)
    while end != -1 and end + 1 < len(text) and text[end + 1] == char:
        end = text.find(char, end + 2)
    return end


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start`` (strings and quoted names skipped)."""
    depth = 0
    i = start
    while i < len(text):
        char = text[i]
        if char in "\"'":
            i = _quoted_end(text, i)
            if i == -1:
                return -1
        elif char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _arguments(text: str) -> list[str]:
    """The top-level, comma-separated parts of an argument list (without its parentheses)."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        char = text[i]
        if char in "\"'":
            end = _quoted_end(text, i)
            i = len(text) if end == -1 else end
        elif char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return parts


def call_lambdas(formula: str) -> str:
    """A LAMBDA called where it is written, ``LAMBDA(x, y, x*2+y)(1, 2)`` (what a LAMBDA name
    becomes), rewritten as the LET it means, ``LET(x, (1), y, (2), x*2+y)``; the wrong number of
    arguments is #VALUE!, as in Excel."""
    for _ in range(MAX_DEPTH):
        for match in _LAMBDA_CALL.finditer(formula):
            close = _closing(formula, match.end() - 1)
            if close == -1 or close + 1 >= len(formula) or formula[close + 1] != "(":
                continue
            call_end = _closing(formula, close + 1)
            if call_end == -1:
                continue
            *parameters, body = _arguments(formula[match.end():close])
            values = _arguments(formula[close + 2:call_end]) if formula[close + 2:call_end].strip() else []
            if len(values) != len(parameters):
                replacement = "#VALUE!"
            elif not parameters:
                replacement = "(" + body + ")"
            else:
                pairs = ",".join(f"{name.strip()},({value})" for name, value in zip(parameters, values))
                replacement = f"_xlfn.LET({pairs},{body})"
            formula = formula[:match.start()] + replacement + formula[call_end + 1:]
            break
        else:
            return formula
    return formula
