"""A worksheet part proven within the limits by its reader's own pass, at native speed.

:mod:`xlrating.gate.part_scan` checks a worksheet in expat with a Python call per element
(about 2.5 microseconds a cell), before any reader parses the same XML again. The engine's reader
(:mod:`xlrating.engine.read.sheet_cells`) reads a sheet's cells with regular expressions over its text;
this module lets that one pass stand for the scan, with the rest of the work done in C:

- before the read (:func:`before_read`): the part is UTF-8 XML whose root is an unprefixed
  ``<worksheet>``, with no ``<!`` anywhere (so no DTD or entity, nor the comments and CDATA a
  regular expression could misread), well-formed (lxml's parser with no Python callbacks), no
  prefixed sheet elements and only spaces between names (so counting ``<c `` counts every cell,
  as the reader does: it reads all of them or gives up), every row written ``<row r="N"`` with N
  not 0, only digits in ``s`` and known types in ``t``, the declared used range and the rows within
  reach, the records and cells within their limits counting the workbook's other parts (and,
  alongside the read, :func:`wellformed`); merged
  ranges and hyperlinks (which count for every cell they cover) are left to the full scan;
- during the read: the reader converts values as the scan checks them (numbers, booleans,
  shared-string indexes) and gives up on anything else;
- after the read (:func:`after_read`): the cells it placed are numbered from 1 and within the row
  and column limits.

The rules of :func:`before_read` are written as expressions over the bytes (:func:`_expressions`),
a pass each; a part of more than a few dozen KB is instead swept once, in numpy, finding exactly what
they find (:class:`_Sweep`: 0.2 s instead of 1.2 s for a sheet of 96 MB and a million formulas).

It never refuses anything. When a rule cannot be proven this way, the reader runs the full scan
of that part, which refuses with the same message as for any other reader, or passes.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from pyexpat import XML_PARAM_ENTITY_PARSING_NEVER, ExpatError, ParserCreate
from typing import TYPE_CHECKING, Any

from xlrating.gate.part_scan import SheetExtent, WorkbookScan

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_HEAD = re.compile(rb'(?:\xef\xbb\xbf)?(?:<\?xml(?P<decl>[^>]*)\?>\s*)?<(?P<root>\w+)[\s>]')
_ENCODING = re.compile(rb'encoding\s*=\s*["\']([^"\']*)["\']')
# The rules of before_read as expressions over the bytes (_expressions); on a large part _Sweep finds
# exactly what they find, anywhere in the part (its end included), in one pass.
# A prefixed sheet element (<x:c>): a layout the reader's expressions do not see.
_PREFIXED = re.compile(rb":(?:c|row|mergeCell|hyperlink|dataValidation|cfRule|col|dimension|sheetData)[ />]")
_PREFIXED_NAMES = (b"c", b"row", b"mergeCell", b"hyperlink", b"dataValidation", b"cfRule", b"col", b"dimension",
                   b"sheetData")
_ROW_NUMBER = re.compile(rb'<row r="([0-9]{1,9})"')
_BARE_CELL = re.compile(rb"<c/?>")  # a cell with no reference
_ROW_ZERO = re.compile(rb'<row r="0+"')
_BAD_STYLE = re.compile(rb' s="(?:[0-9]*[^0-9"]|")')  # an s attribute (of a cell or a row) not all digits
_TYPE = re.compile(rb' t="([^"]*)"')
_TYPES = frozenset({b"n", b"s", b"str", b"inlineStr", b"b", b"e", b"d",  # a cell's (ECMA-376 ST_CellType)
                    b"normal", b"shared", b"array", b"dataTable"})  # a formula's (ST_CellFormulaType)
_RECORD = re.compile(rb"<(?:dataValidation|cfRule|col)[ />]")  # part_scan's per-sheet records, ranges aside
_DIMENSION = re.compile(rb'<dimension ref="(?:[^":]*:)?\$?([A-Za-z]{1,3})\$?([0-9]{1,9})"')
_SWEPT = 48 << 10  # bytes from which a part is swept: below, the expressions' passes cost less than numpy's calls
_DIGITS = 12  # digits of an s value the sweep reads in numpy; a longer run goes to _BAD_STYLE itself
_CHUNK = 1 << 20  # bytes of the part per step of the sweep (its masks stay in the cache)
_BATCH = 1 << 16  # positions found before they are read (the bytes they point to still cached)


@dataclass
class SheetFacts:
    """What :func:`before_read` found: the exact number of cells and of records, the highest row."""

    cells: int
    records: int
    rows: int


class _Wellformed:
    """An lxml parser target with no event methods: libxml2 checks the XML without calling Python."""

    def close(self) -> None:
        return None


def before_read(scan: WorkbookScan, part: str, raw: bytes) -> SheetFacts | None:
    """The facts of worksheet ``raw`` when every rule but the cells' reach and well-formedness
    (:func:`wellformed`, for the caller to run alongside its read) holds, else None."""
    body = _head(raw, b"worksheet")
    if body is None or raw[body - 1:body] != b" " and raw[body - 1:body] != b">":
        return None
    limits = scan.limits
    cells_left, records_left = limits.max_cells - scan.cells, limits.max_records - scan.records
    if len(raw) < _SWEPT:
        found = _expressions(raw, body)
    else:
        found = _Sweep(raw, cells_left, limits.max_rows, records_left).run(body)
    if found is None:
        return None
    cells, records, highest, dimension = found
    if (cells > cells_left or records > records_left or highest > limits.max_rows
            or dimension is not None and (int(dimension.group(2)) > limits.max_rows
                                          or _column(dimension.group(1)) > limits.max_columns)):
        return None
    return SheetFacts(cells, records, highest)


_Found = tuple[int, int, int, "re.Match[bytes] | None"]  # cells, records, highest row, used range


def _expressions(raw: bytes, body: int) -> _Found | None:
    """What :func:`before_read` reads of ``raw`` (its root's name ending at ``body``), an expression
    or a search of the bytes per rule; None when a rule fails."""
    # Only spaces separate names inside the part (as every known producer writes it), so the counts
    # below see every element; a tab or line break anywhere (a text may hold one) goes to the scan.
    if ((raw.find(b"!") >= 0 and b"<!" in raw) or _PREFIXED.search(raw)  # memchr finds a rare "!" at once
            or any(raw.find(byte, body) >= 0 for byte in (b"\n", b"\r", b"\t"))
            or b"<mergeCell" in raw or b"<hyperlink" in raw or _BARE_CELL.search(raw)):
        return None
    rows = _ROW_NUMBER.findall(raw)
    if (len(rows) != raw.count(b"<row ") + raw.count(b"<row>") + raw.count(b"<row/>") or _ROW_ZERO.search(raw)
            or _BAD_STYLE.search(raw) or not set(_TYPE.findall(raw)) <= _TYPES):
        return None
    return raw.count(b"<c "), len(_RECORD.findall(raw)), max(map(int, rows), default=0), _DIMENSION.search(raw)


def utf8_body(raw: bytes, root: bytes) -> int | None:
    """Where the root element ``<root`` ends its name in the XML part ``raw``, when the part is
    UTF-8 (declared so or not declared) and holds no ``<!`` at all (no DTD, entity, comment or
    CDATA): the searches over its bytes then see every element. None otherwise."""
    body = _head(raw, root)
    if body is None or raw.find(b"!") >= 0 and b"<!" in raw:  # memchr finds a rare "!" ten times faster
        return None
    return body


def _head(raw: bytes, root: bytes) -> int | None:
    """:func:`utf8_body` but for the ``<!`` anywhere."""
    head = _HEAD.match(raw)
    if head is None or head.group("root") != root:
        return None
    declaration = head.group("decl")
    if declaration:
        encoding = _ENCODING.search(declaration)
        if encoding is not None and encoding.group(1).lower().replace(b"-", b"") != b"utf8":
            return None
    return head.end()


def after_read(scan: WorkbookScan, part: str, facts: SheetFacts, rows: tuple[int, int], max_col: int) -> bool:
    """Count a sheet read under :func:`before_read`'s facts, whose cells the reader placed from
    row ``rows[0]`` to ``rows[1]`` and up to column ``max_col``; False (nothing counted) when a cell
    is numbered 0 or beyond the limits."""
    limits = scan.limits
    lowest, highest = rows
    if (facts.cells and lowest < 1) or highest > limits.max_rows or max_col > limits.max_columns:
        return False
    scan.cells += facts.cells
    scan.records += facts.records
    scan.report.sheets.append(SheetExtent(scan.sheet_parts.get(part, ""), part, max(highest, facts.rows),
                                          max_col, facts.cells))
    return True


class _Sweep:
    """What :func:`_expressions` finds, found in one pass over the part, a chunk at a time, in numpy
    (about six times faster on a large part): the positions of a few bytes ("<" but those of ``<f>``,
    ``<v>`` and closing tags, `` s="`` and `` t="``, ":") and, at them, what each expression would
    find there, the end of the part included. The counts stop at the limits (None past them)."""

    def __init__(self, raw: bytes, cells_left: int, max_rows: int, records_left: int):
        import numpy as np

        self.raw, self.data = raw, np.frombuffer(raw, np.uint8)
        self.cells_left, self.max_rows, self.records_left = cells_left, max_rows, records_left
        self.cells = self.records = self.highest = 0
        self.dimensions: list[int] = []  # where each '<dimension ref="' begins

    def run(self, body: int) -> _Found | None:
        """What :func:`_expressions` finds, with ``body`` where the root element's name ends."""
        import numpy as np

        raw, data = self.raw, self.data
        size = data.size
        # the masks are computed in the same few buffers: new arrays of a MB each would cost more than the sums
        marks, other, shifted = (np.empty(min(size, _CHUNK), np.bool_), np.empty(min(size, _CHUNK), np.bool_),
                                 np.empty(min(size, _CHUNK), np.uint8))
        tags: list[NDArray[np.intp]] = []
        attributes: list[NDArray[np.intp]] = []
        pending = 0
        for start in range(0, size, _CHUNK):
            stop = min(start + _CHUNK, size)
            window = data[start:stop + 3]
            # Only spaces separate names inside the part (as every known producer writes it), so the
            # positions below are those of every element; a tab or line break after the root's name (a
            # text may hold one) goes to the scan.
            if window[:stop - start].min() < 14 and any(raw.find(byte, max(body, start), stop) >= 0
                                                          for byte in (b"\n", b"\r", b"\t")):
                return None
            width = min(stop, size - 1) - start  # the positions here with a byte after them
            following, mask, scratch = window[1:width + 1], marks[:width], other[:width]
            if raw.find(b":", start, start + width) >= 0:
                np.equal(window[:width], 58, out=mask)
                colons = np.flatnonzero(mask) + start
                if (any(map(_PREFIXED.match, itertools.repeat(raw), colons.tolist())) if colons.size < 64 else
                        any(_ends(data, _follow(data, colons, 1, name), 1 + len(name)).size for name in _PREFIXED_NAMES)):
                    return None
            np.equal(window[:width], 60, out=mask)
            for byte in (102, 118, 47):  # <f, <v, </
                np.not_equal(following, byte, out=scratch)
                mask &= scratch
            tags.append(np.flatnonzero(mask) + start)
            width = max(0, min(stop, size - 3) - start)  # the positions with 3 bytes after them
            mask, scratch = marks[:width], other[:width]
            np.equal(window[2:width + 2], 61, out=mask)
            np.equal(window[3:width + 3], 34, out=scratch)
            mask &= scratch
            np.equal(window[:width], 32, out=scratch)
            mask &= scratch
            np.subtract(window[1:width + 1], 115, out=shifted[:width])
            np.less_equal(shifted[:width], 1, out=scratch)  # s or t
            mask &= scratch
            attributes.append(np.flatnonzero(mask) + start)
            pending += tags[-1].size + attributes[-1].size
            if pending >= _BATCH or stop == size:
                if not self._tags(np.concatenate(tags)) or not self._attributes(np.concatenate(attributes)):
                    return None
                tags, attributes, pending = [], [], 0
        dimension = next(filter(None, map(_DIMENSION.match, itertools.repeat(raw), self.dimensions)), None)
        return self.cells, self.records, self.highest, dimension

    def _tags(self, tags: NDArray[np.intp]) -> bool:
        import numpy as np

        data = self.data
        first = data[tags + 1]
        cell = first == 99
        opened = tags[cell]
        second = _at(data, opened, 2)
        spaced = second == 32
        self.cells += int(np.count_nonzero(spaced))
        other = ~spaced  # <c>, <c/>, <col, <cfRule, ...
        opened, second = opened[other], second[other]
        other = ~cell  # what is not <c: most of it rows
        tags, first = tags[other], first[other]
        if (self.cells > self.cells_left or (first == 33).any()  # <!
                or (second == 62).any() or _follow(data, opened[second == 47], 3, b">").size
                or _follow(data, tags[first == 109], 2, b"ergeCell").size
                or _follow(data, tags[first == 104], 2, b"yperlink").size):
            return False
        named = tags[first == 100]
        self.records += (_ends(data, _follow(data, opened, 2, b"ol"), 4).size
                         + _ends(data, _follow(data, opened, 2, b"fRule"), 7).size
                         + _ends(data, _follow(data, named, 2, b"ataValidation"), 15).size)
        if self.records > self.records_left:
            return False
        self.dimensions += _follow(data, named, 2, b'imension ref="').tolist()
        rows = _follow(data, tags[first == 114], 2, b"ow")
        fourth = _at(data, rows, 4)
        if (fourth == 62).any() or _follow(data, rows[fourth == 47], 5, b">").size:
            return False
        spaced_rows = rows[fourth == 32]
        if spaced_rows.size:
            numbered = _follow(data, spaced_rows, 5, b'r="')
            highest = _highest_row(data, numbered) if numbered.size == spaced_rows.size else None
            if highest is None or highest > self.max_rows:
                return False
            self.highest = max(self.highest, highest)
        return True

    def _attributes(self, attributes: NDArray[np.intp]) -> bool:
        letter = self.data[attributes + 1]
        return (_styles_ok(self.raw, self.data, attributes[letter == 115] + 4)
                and _types_ok(self.raw, self.data, attributes[letter == 116] + 4))


def _at(data: NDArray[np.uint8], positions: NDArray[np.intp], offset: int) -> NDArray[Any]:
    """The byte ``offset`` after each of the ascending ``positions``, -1 past the end of ``data``."""
    at = positions + offset
    if at.size and at[-1] >= data.size:
        import numpy as np

        bytes_ = np.full(at.size, -1, np.int16)
        inside = at < data.size
        bytes_[inside] = data[at[inside]]
        return bytes_
    return data[at]


def _follow(data: NDArray[np.uint8], positions: NDArray[np.intp], offset: int, text: bytes) -> NDArray[np.intp]:
    """Those of the ascending ``positions`` that ``text`` follows ``offset`` bytes after."""
    for index, byte in enumerate(text):
        if not positions.size:
            break
        positions = positions[_at(data, positions, offset + index) == byte]
    return positions


def _ends(data: NDArray[np.uint8], positions: NDArray[np.intp], offset: int) -> NDArray[np.intp]:
    """Those of the ascending ``positions`` with " ", "/" or ">" ``offset`` bytes after: a name ends."""
    byte = _at(data, positions, offset)
    ends: NDArray[np.bool_] = (byte == 32) | (byte == 47) | (byte == 62)
    return positions[ends]


def _highest_row(data: NDArray[np.uint8], rows: NDArray[np.intp]) -> int | None:
    """The highest of the numbers of the ascending ``<row r="`` at ``rows``, when each is 1 to 9
    digits then a quote and none is 0, else None."""
    import numpy as np

    if rows[-1] + 18 <= data.size:  # the ten bytes after each '<row r="' (9 digits at most, a quote), at once
        block = np.ndarray((data.size - 9, 10), np.uint8, data, strides=(1, 1))[rows + 8]
    else:  # the end of the part among them: read as a byte that is neither a digit nor a quote
        block = np.maximum(np.stack([_at(data, rows, 8 + index) for index in range(10)], axis=1), 0).astype(np.uint8)
    digits = block - 48  # a byte that is not a digit is above 9
    count = np.argmax(digits > 9, axis=1)  # the digits before the first that is not one (0 when all ten are)
    if not ((count >= 1) & (block[np.arange(rows.size), count] == 34)).all():
        return None
    number = (digits * _places()[count]).sum(axis=1)
    return None if (number == 0).any() else int(number.max())


def _styles_ok(raw: bytes, data: NDArray[np.uint8], values: NDArray[np.intp]) -> bool:
    """Whether no `` s="`` value starting at the ascending ``values`` is what :data:`_BAD_STYLE`
    finds: each is one digit or more then a quote, or digits the part ends in."""
    for step in range(_DIGITS):
        if values.size and values[-1] >= data.size:
            values = values[values < data.size]
        if not values.size:
            return True
        byte = data[values]
        digit = byte - 48 <= 9
        if not digit.all():
            if step == 0 or (byte[~digit] != 34).any():
                return False
            values = values[digit]
        values = values + 1
    return not any(_BAD_STYLE.match(raw, at - _DIGITS - 4) for at in values.tolist())


def _types_ok(raw: bytes, data: NDArray[np.uint8], values: NDArray[np.intp]) -> bool:
    """Whether each `` t="`` value starting at the ascending ``values`` that a quote closes is one of
    :data:`_TYPES` (read through their letters' automaton, one byte of every value at a time)."""
    import numpy as np

    table, accept = _type_automaton()
    state = np.full(values.size, 256, np.int32)  # before the first letter
    while values.size:
        if values[-1] >= data.size:  # a value the part ends in: nothing closes it
            inside = values < data.size
            values, state = values[inside], state[inside]
        byte = data[values]
        closed = byte == 34
        if closed.any():
            if not accept[state[closed] >> 8].all():
                return False
            values, state, byte = values[~closed], state[~closed], byte[~closed]
        state = table[state + byte]
        dead = state == 0
        if dead.any():  # no type begins so: a wrong type if a quote closes it, as it does but for the part's last
            if raw.find(b'"', int(values[dead][0])) >= 0:
                return False
            values, state = values[~dead], state[~dead]
        values = values + 1
    return True


@functools.cache
def _type_automaton() -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    """The letters of :data:`_TYPES` as an automaton: each state times 256 plus a byte gives the next
    state times 256; 1 (256) before the first letter, 0 once no type begins with what was read. And
    which states have read a whole type."""
    import numpy as np

    states = {b"": 1}
    for name in sorted(_TYPES):
        for length in range(1, len(name) + 1):
            states.setdefault(name[:length], len(states) + 1)
    table = np.zeros((len(states) + 1) * 256, np.int32)
    for prefix, state in states.items():
        if prefix:
            table[states[prefix[:-1]] * 256 + prefix[-1]] = state * 256
    accept = np.zeros(len(states) + 1, np.bool_)
    accept[[states[name] for name in _TYPES]] = True
    return table, accept


@functools.cache
def _places() -> NDArray[np.int64]:
    """What each of ten digits weighs in a number of ``count`` digits (row ``count``): 0 past them."""
    import numpy as np

    places = np.zeros((11, 10), np.int64)
    for count in range(1, 11):
        places[count, :count] = 10 ** np.arange(count - 1, -1, -1)
    return places


def _column(letters: bytes) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + letter - 64
    return index


# Bytes of a part from which libxml2 checks it (in a thread of the caller's, without the GIL);
# below, expat, the package scan's own parser, whose parser costs less to set up
_LIBXML2_BYTES = 1 << 16


def wellformed(raw: bytes) -> bool:
    """Whether ``raw`` is well-formed XML (namespaces included), checked without a call into Python:
    by expat for a small part, by libxml2 for a larger one (without the GIL, so a reader can run it
    in a thread while it reads the part)."""
    if len(raw) < _LIBXML2_BYTES:
        small = ParserCreate(namespace_separator="}")
        small.SetParamEntityParsing(XML_PARAM_ENTITY_PARSING_NEVER)
        try:
            small.Parse(raw, True)
        except ExpatError:
            return False
        return True
    from lxml import etree

    parser: Any = etree.XMLParser(target=_Wellformed(), resolve_entities=False, no_network=True, huge_tree=True)
    try:
        etree.fromstring(raw, parser)
    except Exception:  # noqa: BLE001 - XMLSyntaxError and whatever else libxml2 reports: the full scan decides
        return False
    return True
