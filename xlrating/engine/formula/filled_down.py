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
