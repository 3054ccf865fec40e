"""Shapes: :class:`FilledDown` recognises the cells one formula was filled down to by comparing
texts (relative row numbers shifted), so a block of them is parsed only once."""

from __future__ import annotations

import re

import numpy as np

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


# The parts of a formula that may change from row to row in one shape: string literals and numbers
# (a number not part of a name, a reference, a whole-row range 3:5 or a sheet name), beside the
# relative row numbers of cell references.
_PARTS = re.compile(r"""("(?:[^"]|"")*")|('(?:[^']|'')*')|(?<![\w.$])(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})(?![\w(!])"""
                    r"""|(?<![\w.$:])((?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]\d+)?)(?![\w.(!:$])""")


def literal_shape(text: str, row: int) -> tuple[str, tuple[float | str, ...]] | None:
    """The shape of ``text`` written in ``row`` and its literals: formulas that differ only in their
    numbers and string literals (``=VLOOKUP("item3",$A$2:$C$9,3,FALSE)`` beside ``"item4"``, or
    ``=DATE(2024,MOD(7,12)+1,D7)``) and in relative rows as filled down have the same shape. The
    literals are what the reader makes of them (numbers as float, strings unescaped), in the order
    written. None for a text this does not take apart (array constants, structured references,
    line ends)."""
    if "[" in text or "{" in text or "\n" in text or "\r" in text:
        return None
    pieces: list[str] = []
    values: list[float | str] = []
    position = 0
    for m in _PARTS.finditer(text):
        if m.group(1) is not None:  # "text"
            pieces.append(text[position:m.start()])
            pieces.append("\x02")
            values.append(m.group(1)[1:-1].replace('""', '"'))
        elif m.group(7) is not None:  # a number
            pieces.append(text[position:m.start()])
            pieces.append("\x01")
            values.append(float(m.group(7)))
        elif m.group(6) is not None and not m.group(5):  # a relative row
            pieces.append(text[position:m.start(6)])
            pieces.append(f"\x00{int(m.group(6)) - row}\x00")
        else:
            continue
        position = m.end()
    pieces.append(text[position:])
    return "".join(pieces), tuple(values)


def constants_extent(texts: list[str], row: int, start: int, stop: int) -> tuple[int, list[tuple[float | str, ...]]]:
    """The first index in ``texts[start:stop]`` (the formulas of consecutive rows from ``row`` down)
    that does not have the shape of ``texts[start]`` (:func:`literal_shape`), and the literals of
    each row before it (none when that is only the first row). A long run of rows that are the same formula filled down (the same literals
    as the row before) is left out, for :meth:`FilledDown.extent`, which checks those faster."""
    first = literal_shape(texts[start], row)
    if first is None:
        return start + 1, []
    key, values = first
    literals = [values]
    repeated = 0  # rows in a row whose literals are those of the row above
    k = start + 1
    while k < stop:
        found = literal_shape(texts[k], row + k - start)
        if found is None or found[0] != key:
            break
        if found[1] == literals[-1]:
            repeated += 1
            if repeated == _EXACT_RUN:  # from the row before this run on: a plain fill-down
                k -= repeated
                del literals[k - start:]
                break
        else:
            repeated = 0
        literals.append(found[1])
        k += 1
    if k <= start + 1:
        return start + 1, []
    return k, literals


_EXACT_RUN = 32
