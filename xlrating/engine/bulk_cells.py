"""A worksheet's cells in the bulk layout, found with array operations over the part's bytes.

Nearly every cell a spreadsheet writes takes one of four layouts (``s`` optional):

- a number: ``<c r="B2" s="1"><v>27</v></c>`` (or with ``t="n"``);
- an ordinary formula: ``<c r="F2"><f>B2*2</f><v>54</v></c>`` (cached value optional);
- a shared string: ``<c r="A2" t="s"><v>3</v></c>``;
- an inline string: ``<c r="A2" t="inlineStr"><is><t>text</t></is></c>``.

:func:`scan` checks every ``<c `` of a piece of sheet XML against exactly these layouts and says
where each cell's reference, kind and content are, with numpy over the bytes rather than a
regular expression and a Python object per cell (a regular expression reads about 60 MB a second;
this, several times that). It answers None as soon as one cell is laid out any other way, and the
caller reads that sheet with its general readers. The bytes are UTF-8: every delimiter looked for is
ASCII, which never occurs inside a multi-byte character, so contents are sliced whole.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_PAD = b"\0" * 64  # so that every fixed-length look past a position stays inside the array
_REF = 16  # bytes looked at for a reference: up to 3 letters, then digits and the closing quote
_LETTERS = 3

NUMBER, FORMULA, SHARED, INLINE = 0, 1, 2, 3


@dataclass
class Cells:
    """The cells of one piece of sheet XML in document order: row, column, kind and content spans."""

    rows: np.ndarray
    cols: np.ndarray
    kinds: np.ndarray  # NUMBER, FORMULA, SHARED or INLINE
    starts: np.ndarray  # where each cell's content (value, formula text, string index or text) starts
    ends: np.ndarray  # and ends: at the '<' that follows it
    data: np.ndarray  # the piece's bytes, padded

    def contents(self, kind: int) -> list[str]:
        """The contents of the cells of ``kind``, in document order, as text."""
        chosen = self.kinds == kind
        return joined(self.data, self.starts[chosen], self.ends[chosen])


class _Bytes:
    """A piece's bytes, padded, with every 8 bytes from each position readable as one integer (a
    strided view: one gather compares up to 8 bytes at many positions)."""

    def __init__(self, piece: bytes):
        padded = piece + _PAD
        self.size = len(piece)
        self.data = np.frombuffer(padded, dtype=np.uint8)
        self.words = np.ndarray((len(padded) - 8,), dtype="<u8", buffer=padded, strides=(1,))

    def at(self, positions: np.ndarray, pattern: bytes) -> np.ndarray:
        """Whether ``pattern`` starts at each of ``positions``."""
        found = np.ones(len(positions), dtype=bool)
        for k in range(0, len(pattern), 8):
            part = pattern[k:k + 8]
            words = self.words[positions + k]
            if len(part) < 8:
                words = words & ((1 << 8 * len(part)) - 1)
            found &= words == int.from_bytes(part, "little")
        return found

    def window(self, positions: np.ndarray, width: int) -> np.ndarray:
        """The ``width`` (a multiple of 8) bytes from each of ``positions``, one row each."""
        words = [self.words[positions + k] for k in range(0, width, 8)]
        return np.stack(words, axis=1).view(np.uint8).reshape(len(positions), width)


def _digit_run(window: np.ndarray, first: np.ndarray) -> np.ndarray:
    """For each row of ``window``, where the run of digits from column ``first`` stops."""
    columns = np.arange(window.shape[1])
    stop: np.ndarray = np.argmax(((window < 48) | (window > 57)) & (columns >= first[:, None]), axis=1)
    return stop


def joined(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The texts ``data[starts[i]:ends[i]]``, where each ``ends[i]`` holds a '<' (none inside):
    gathered with their '<' into one buffer, decoded once and split there."""
    if not len(starts):
        return []
    lengths = ends - starts + 1
    offsets = np.cumsum(lengths) - lengths
    index = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(offsets - starts, lengths)
    return data[index].tobytes().decode("utf-8").split("<")[:-1]


def scan(piece: bytes) -> Cells | None:
    """Every cell of ``piece`` (whole rows of sheet XML) when each one has a bulk layout, else None."""
    text = _Bytes(piece)
    data = text.data
    opens = np.flatnonzero(data[:text.size] == 60)  # every '<'
    cells = opens[text.at(opens, b"<c ")]
    if not text.at(cells + 3, b'r="').all():
        return None
    # the reference: 1 to 3 capital letters, then at least one digit, then the closing quote
    window = text.window(cells + 6, _REF)
    upper = (window >= 65) & (window <= 90)
    letters = np.cumprod(upper[:, :_LETTERS + 1], axis=1, dtype=np.int64).sum(axis=1)  # the leading letters
    stops = _digit_run(window, letters)
    count = len(cells)
    if count and ((letters < 1) | (letters > _LETTERS) | (stops <= letters)).any():
        return None
    if count and (window[np.arange(count), stops] != 34).any():  # no quote, or more digits than the look
        return None
    wide = window.astype(np.int64)
    columns = np.zeros(count, dtype=np.int64)
    for k in range(_LETTERS):
        columns = np.where(letters > k, columns * 26 + wide[:, k] - 64, columns)
    rows = np.zeros(count, dtype=np.int64)
    for k in range(1, _REF):
        rows = np.where((k >= letters) & (k < stops), rows * 10 + wide[:, k] - 48, rows)
    # an optional style, then the kind and the content's start
    after = cells + 7 + stops
    styled = text.at(after, b' s="')
    if styled.any():
        style = text.window(after[styled] + 4, 16)
        ends = _digit_run(style, np.zeros(len(style), dtype=np.int64))
        if ((ends < 1) | (style[np.arange(len(style)), ends] != 34)).any():
            return None
        after[styled] += 5 + ends
    kinds = np.full(count, -1, dtype=np.int8)
    starts = np.zeros(count, dtype=np.int64)
    for kind, pattern in ((NUMBER, b"><v>"), (FORMULA, b"><f>"), (NUMBER, b' t="n"><v>'), (SHARED, b' t="s"><v>'),
                          (INLINE, b' t="inlineStr"><is><t>'), (INLINE, b' t="inlineStr"><is><t xml:space="preserve">')):
        todo = np.flatnonzero(kinds < 0)
        if not len(todo):
            break
        found = todo[text.at(after[todo], pattern)]
        kinds[found] = kind
        starts[found] = after[found] + len(pattern)
    if (kinds < 0).any():
        return None
    bounded = np.append(opens, text.size)  # the padding: never a '<'
    ends = bounded[np.searchsorted(bounded, starts)]
    if not _tails_fit(text, kinds, starts, ends, bounded):
        return None
    return Cells(rows, columns, kinds, starts, ends, data)


def _tails_fit(text: _Bytes, kinds: np.ndarray, starts: np.ndarray, ends: np.ndarray, bounded: np.ndarray) -> bool:
    """Whether each cell's content and end are as its layout has them: a value or formula text of
    at least one character, a string index of digits, then the closing tags."""
    formula = kinds == FORMULA
    if ((ends <= starts) & (kinds != INLINE)).any():
        return False
    valued = ~formula & (kinds != INLINE)
    if not text.at(ends[valued], b"</v></c>").all() or not text.at(ends[kinds == INLINE], b"</t></is></c>").all():
        return False
    shared = kinds == SHARED
    if shared.any():
        digits = "".join(joined(text.data, starts[shared], ends[shared]))
        if not (digits.isascii() and digits.isdigit()):
            return False
    # a formula: </f>, then </c>, <v/></c> or <v>..</v></c>
    after = ends[formula]
    if not text.at(after, b"</f>").all():
        return False
    after = after + 4
    closed = text.at(after, b"</c>") | text.at(after, b"<v/></c>")
    valued_formula = ~closed & text.at(after, b"<v>")
    if not (closed | valued_formula).all():
        return False
    value_starts = after[valued_formula] + 3
    value_ends = bounded[np.searchsorted(bounded, value_starts)]
    return bool(text.at(value_ends, b"</v></c>").all())
