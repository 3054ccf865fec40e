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

Most tests compare the 8 bytes that start at a position, read as one little-endian integer, with a
constant: one gather for up to 8 bytes at many positions. The '<' of the piece are found once, and
a cell's content ends at a known one of them: the layouts fix how many '<' a cell has before its
content, so no search is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_PAD = 64  # zero bytes after a piece, so that every fixed-length look past a position stays inside
_REF = 16  # bytes looked at for a reference: up to 3 letters, then digits and the closing quote
_LETTERS = 3

NUMBER, FORMULA, SHARED, INLINE = 0, 1, 2, 3


def _word(pattern: bytes) -> int:
    """``pattern`` (at most 8 bytes) as the little-endian integer the bytes at a position read as."""
    return int.from_bytes(pattern, "little")


_MASKS = [(1 << 8 * n) - 1 for n in range(9)]  # the first n bytes of a word
_ZEROS = _word(b"0" * 8)
# the low bytes of a word that are not among its last n digits, for n = 0..8
_FILL = np.array([_MASKS[8 - n] for n in range(9)], dtype=np.uint64)
_POWERS = 10 ** np.arange(9, dtype=np.int64)


@dataclass
class Cells:
    """The cells of one piece of sheet XML in document order: row, column, kind and content spans."""

    rows: np.ndarray
    cols: np.ndarray
    kinds: np.ndarray  # NUMBER, FORMULA, SHARED or INLINE
    starts: np.ndarray  # where each cell's content (value, formula text, string index or text) starts
    ends: np.ndarray  # and ends: at the '<' that follows it
    data: np.ndarray  # the piece's bytes, padded
    # the piece has a ':c' somewhere, so it may hold a cell with a namespace prefix (``<x:c ..>``),
    # which this scan does not see: the caller has to look with the text's own expression
    colon_c: bool

    def numbers(self) -> np.ndarray:
        """The values of the NUMBER cells, in document order, exactly as ``float()`` reads their
        texts (and raising as it does), most computed at once: a text of at most 8 digits, then
        optionally '.' and at most 8 more, with or without '-', is the integer of its digits (no
        more than 2**53, so exact) divided by a power of ten (exact too): one IEEE division, which
        rounds correctly, as ``float()`` does. Every other text goes to ``float()``."""
        chosen = np.flatnonzero(self.kinds == NUMBER)
        starts, ends = self.starts[chosen], self.ends[chosen]
        words = np.ndarray((len(self.data) - 8,), dtype="<u8", buffer=self.data, strides=(1,))
        negative = self.data[starts] == 45  # '-'
        starts = starts + negative
        whole = _leading_digits(words[starts])
        point = starts + whole  # just after the integer digits: the end, or a '.'
        places = ends - point - 1
        decimal = (self.data[point] == 46) & (places >= 1) & (places <= 8)
        decimal &= _leading_digits(words[point + 1]) >= places
        places = np.where(decimal, places, 0)
        mantissa = _decimal(words[point - 8], np.maximum(whole, 1)) * _POWERS[places]
        mantissa += np.where(decimal, _decimal(words[ends - 8], np.clip(places, 1, 8)), 0)
        exact = (whole >= 1) & ((point == ends) | decimal) & (mantissa <= 1 << 53)
        values = mantissa / _POWERS[places].astype(np.float64)
        values[negative] *= -1
        others = np.flatnonzero(~exact)
        if len(others):
            texts = joined(self.data, self.starts[chosen[others]], ends[others])
            values[others] = np.fromiter(map(float, texts), dtype=np.float64, count=len(others))
        return values

    def contents(self, kind: int, lead: str = "") -> list[str]:
        """The contents of the cells of ``kind``, in document order, as text, each after ``lead``
        (one ASCII character, or none)."""
        chosen = self.kinds == kind
        return joined(self.data, self.starts[chosen], self.ends[chosen], lead)


class _Bytes:
    """A piece's bytes, padded, with every 8 bytes from each position readable as one integer (a
    strided view: one gather compares up to 8 bytes at many positions)."""

    def __init__(self, piece: bytes | memoryview):
        self.size = len(piece)
        self.data = np.zeros(self.size + _PAD, dtype=np.uint8)
        self.data[:self.size] = np.frombuffer(piece, dtype=np.uint8)
        self.words = np.ndarray((len(self.data) - 8,), dtype="<u8", buffer=self.data, strides=(1,))

    def at(self, positions: np.ndarray, pattern: bytes) -> np.ndarray:
        """Whether ``pattern`` starts at each of ``positions``."""
        found = _starts(self.words[positions], pattern[:8])
        for k in range(8, len(pattern), 8):
            found &= _starts(self.words[positions + k], pattern[k:k + 8])
        return found

    def window(self, positions: np.ndarray, width: int) -> np.ndarray:
        """The ``width`` (a multiple of 8) bytes from each of ``positions``, one row each."""
        words = [self.words[positions + k] for k in range(0, width, 8)]
        return np.stack(words, axis=1).view(np.uint8).reshape(len(positions), width)


def _starts(words: np.ndarray, pattern: bytes) -> np.ndarray:
    """Whether each of ``words`` (8 bytes read at a position) starts with ``pattern`` (at most 8)."""
    if len(pattern) < 8:
        words = words & _MASKS[len(pattern)]
    found: np.ndarray = words == _word(pattern)
    return found


def _digit_run(window: np.ndarray, first: np.ndarray | int) -> np.ndarray:
    """For each row of ``window``, where the run of digits from column ``first`` stops (0 when it
    runs to the end)."""
    stopper = (window - 48) > 9  # wraps below '0', so one comparison
    if not isinstance(first, int):
        stopper &= np.arange(window.shape[1]) >= first[:, None]
    stop: np.ndarray = np.argmax(stopper, axis=1)
    return stop


def _decimal(words: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The numbers written by the last ``count`` (1 to 8) bytes of each of ``words``, all digits:
    the bytes before them are made '0', then pairs, fours and eights of digits are combined at
    once (every partial value stays inside its lane, so no carry crosses to the next one)."""
    fill = _FILL[count]
    value = ((words & ~fill) | (fill & _ZEROS)) - _ZEROS
    value = (value * 10 + (value >> 8)) & 0x00FF00FF00FF00FF
    value = (value * 100 + (value >> 16)) & 0x0000FFFF0000FFFF
    value = (value * 10000 + (value >> 32)) & 0xFFFFFFFF
    number: np.ndarray = value.astype(np.int64)
    return number


def _leading_digits(words: np.ndarray) -> np.ndarray:
    """How many of the bytes of each of ``words`` are digits before the first that is not: 0 to 8."""
    digits = (words.view(np.uint8).reshape(len(words), 8) - 48) < 10
    count: np.ndarray = np.argmin(digits, axis=1)
    count[digits[:, 0] & (count == 0)] = 8  # all eight
    return count


def joined(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, lead: str = "") -> list[str]:
    """The texts ``data[starts[i]:ends[i]]``, where each ``ends[i]`` holds a '<' (none inside), each
    after ``lead`` (one ASCII character, or none): gathered with their '<' into one buffer, decoded
    once and split there. A lead takes the place of the byte before each text in the gather."""
    if not len(starts):
        return []
    if lead:
        starts = starts - 1
    lengths = ends - starts + 1
    offsets = np.cumsum(lengths) - lengths
    index = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(offsets - starts, lengths)
    gathered: np.ndarray = data[index]
    if lead:
        gathered[offsets] = ord(lead)
    return gathered.tobytes().decode("utf-8").split("<")[:-1]


_TYPED = ((NUMBER, b'n"><v>'), (SHARED, b's"><v>'), (INLINE, b'inlineStr"><is><t>'),
          (INLINE, b'inlineStr"><is><t xml:space="preserve">'))  # after ' t="'


def scan(piece: bytes | memoryview) -> Cells | None:
    """Every cell of ``piece`` (whole rows of sheet XML) when each one has a bulk layout, else None."""
    text = _Bytes(piece)
    opens = np.flatnonzero(text.data[:text.size] == 60)  # every '<'
    named = np.flatnonzero(text.data[opens + 1] == 99)  # "<c": single bytes gather quicker than 8
    after_c = text.data[opens[named] + 2]
    if (after_c == 62).any():  # '<c>': a cell without a reference
        return None
    found = named[after_c == 32]  # which '<' start cells: '<c '
    cells = opens[found]
    count = len(cells)
    if not _starts(text.words[cells + 3], b'r="').all():
        return None
    # the reference: 1 to 3 capital letters, then at least one digit, then the closing quote
    window = text.window(cells + 6, _REF)
    letters = np.argmin((window - 65) < 26, axis=1)  # 0 for 4 or more, or none
    stops = _digit_run(window, letters)
    if count and ((letters < 1) | (letters > _LETTERS) | (stops <= letters)).any():
        return None
    if count and (window[np.arange(count), stops] != 34).any():  # no quote, or more digits than the look
        return None
    columns = window[:, 0] - np.int64(64)
    for k in range(1, _LETTERS):
        columns = np.where(letters > k, columns * 26 + window[:, k] - 64, columns)
    digits = stops - letters
    rows = _decimal(text.words[cells + stops - 2], np.minimum(digits, 8))  # the 8 bytes before the quote
    long = np.flatnonzero(digits > 8)
    if len(long):
        rows[long] += _decimal(text.words[cells[long] + stops[long] - 10], digits[long] - 8) * 10 ** 8
    # an optional style, then the kind and the content's start
    after = cells + 7 + stops
    heads = text.words[after]
    styled = np.flatnonzero(_starts(heads, b' s="'))
    if len(styled):
        style = text.window(after[styled] + 4, 16)
        ends = _digit_run(style, 0)
        if ((ends < 1) | (style[np.arange(len(style)), ends] != 34)).any():
            return None
        after[styled] += 5 + ends
        heads[styled] = text.words[after[styled]]
    kinds = np.full(count, -1, dtype=np.int8)
    kinds[_starts(heads, b"><v>")] = NUMBER
    kinds[_starts(heads, b"><f>")] = FORMULA
    starts = after + 4
    typed = np.flatnonzero(_starts(heads, b' t="'))
    for kind, pattern in _TYPED:
        of_kind = typed[text.at(after[typed] + 4, pattern)]
        kinds[of_kind] = kind
        starts[of_kind] += len(pattern)
    if (kinds < 0).any():
        return None
    # the content ends at the first '<' after the layout's own: one more for an inline string
    bounded = np.append(opens, text.size)  # the padding: never a '<'
    ends = bounded[found + 2 + (kinds == INLINE)]
    if not _tails_fit(text, kinds, starts, ends, bounded, found):
        return None
    colon_c = bool((text.data[np.flatnonzero(text.data[:text.size] == 58) + 1] == 99).any())
    return Cells(rows, columns, kinds, starts, ends, text.data, colon_c)


def _tails_fit(text: _Bytes, kinds: np.ndarray, starts: np.ndarray, ends: np.ndarray, bounded: np.ndarray,
               found: np.ndarray) -> bool:
    """Whether each cell's content and end are as its layout has them: a value or formula text of
    at least one character, a string index of digits, then the closing tags. ``bounded``: the
    piece's '<' and its end; ``found``: where each cell's own '<' is among them."""
    inline = kinds == INLINE
    if ((ends <= starts) & ~inline).any():
        return False
    formula = kinds == FORMULA
    tails = text.words[ends]
    if not (tails[~formula & ~inline] == _word(b"</v></c>")).all() or not text.at(ends[inline], b"</t></is></c>").all():
        return False
    shared = kinds == SHARED
    if shared.any():
        digits = "".join(joined(text.data, starts[shared], ends[shared]))
        if not (digits.isascii() and digits.isdigit()):
            return False
    # a formula: </f>, then </c>, <v/></c> or <v>..</v></c>
    tails = tails[formula]
    if not _starts(tails, b"</f>").all():
        return False
    valued = _starts(tails, b"</f><v>")
    closed = (tails == _word(b"</f></c>")) | text.at(ends[formula] + 4, b"<v/></c>")
    if not (closed | valued).all():
        return False
    value_ends = bounded[found[formula][valued] + 4]  # after those of <f>, </f> and <v>
    return bool((text.words[value_ends] == _word(b"</v></c>")).all())
