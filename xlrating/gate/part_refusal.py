"""A worksheet's refusal for a limit, proven from its bytes, with the scan's own message.

:mod:`xlrating.gate.part_scan` reads a worksheet in expat with a Python call per element
(about 2.5 microseconds a cell), so a sheet of a million cells took seconds to refuse for being a
million cells. When the bytes already show where the scan will stop -- the cell past
``max_cells`` (counting ``<c `` from ``<sheetData>``), a ``<row r="N">`` or a cell ``r`` past
``max_rows``, a column past ``max_columns`` -- this module proves, at native speed, that the scan
would meet nothing else to refuse before that point, and lets the scan's own parser give the
refusal there. How (:func:`proven_refusal`):

1. the part is UTF-8 XML whose root is an unprefixed ``<worksheet>`` with no ``<!`` anywhere (no
   DTD, comment or CDATA) and no ``<?`` after its declaration, so every ``<`` outside an attribute
   value starts a tag; the part up to and including ``<sheetData>`` goes through the scan's parser
   (:class:`~xlrating.gate.part_scan.PartParser`), every rule as usual;
2. what lies between ``<sheetData>`` and the element where the scan stops is, cut before each
   ``<c `` and with its digits written as 0, a few hundred distinct pieces: each must be exactly a
   cell with ``r`` (uppercase letters and digits) and optionally digit-only ``s`` and a known
   ``t``, in that order, with a value its type allows (a number, an index, a boolean, an error
   code, plain text), rows opened and closed around them with their attributes in Excel's order;
   a grammar in which every element is well-formed and within the cell rules of the scan. The row
   numbers are searched for a 0 or one past the limit, the letters computed, the shared-string
   indexes compared with the shared strings;
3. the scan's parser then goes on as if it had read those cells (:meth:`PartParser.resume`) and
   reads the start tag where it stops: its own handler raises its own message.

Anything else -- another layout, a rule the pieces do not prove, a handler that does not raise --
and nothing here counts: the full scan reads the part from its first byte, as it always did.
A sheet that passes is always read by the full scan.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from xlrating.gate.limits import Limits
from xlrating.gate.part_quick import utf8_body
from xlrating.gate.part_scan import PartParser, Refused, WorkbookScan

MIN_BYTES = 1 << 20
"""Smaller parts are left to the scan, which reads them in a fraction of a second anyway."""
CHUNK = 4 << 20  # the stretch of cells cut into pieces at a time (memory stays near the part's size)
MAX_CANDIDATES = 10_000  # row numbers as long as the limit's looked at before giving up
MAX_SHAPES = 100_000  # distinct pieces before giving up

_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_TEXT = rb'[\x20\x21\x23-\x25\x27-\x3b\x3d-\x7e]*'  # printable ASCII but " & <: an attribute value
_ROW_ATTRIBUTES = (b"spans", b"s", b"customFormat", b"ht", b"hidden", b"customHeight", b"outlineLevel",
                   b"collapsed", b"thickTop", b"thickBot", b"ph")  # after r, in Excel's order
_DYDESCENT = b"x14ac:dyDescent"  # Excel's; only where the root binds x14ac
_ROOT = re.compile(rb"""<worksheet(?:\s+[^\s=<>"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*/?>""")
_SHARED = re.compile(rb' t="s" *> *<v>([0-9]+)</v>')  # the grammar's shared-string cells with a value
_X14AC = re.compile(rb"""\sxmlns:x14ac\s*=\s*(?:"[^"]+"|'[^']+')""")


@functools.cache
def _grammar(x14ac: bool) -> tuple[re.Pattern[bytes], ...]:
    """The pieces' expressions (digits written as 0) and the start tags where the scan stops."""
    sp = rb" *"
    extra = (*_ROW_ATTRIBUTES, _DYDESCENT) if x14ac else _ROW_ATTRIBUTES
    row_attributes = b"".join(rb'(?: %s="%s")?' % (name.translate(_ZEROS), b"0+" if name == b"s" else _TEXT)
                              for name in extra)  # x14ac:dyDescent is x00ac:dyDescent among the pieces
    row = rb'<row r="0+"' + row_attributes + sp
    empty_rows = rb"(?:" + row + rb"(?:/>|>" + sp + rb"</row>)" + sp + rb")*+"
    open_row = row + rb">" + sp

    def value(kind: bytes, text: bytes) -> bytes:
        return kind + sp + rb"(?:/>|>" + sp + rb"(?:<v>" + text + rb"</v>" + sp + rb")?</c>)"

    number = rb"(?:-?0{1,20}(?:\.0{0,20})?(?:[eE][-+]?0{1,3})?)?"  # int() or float() as the scan casts it
    cell = (rb'r="(?P<letters>[A-Z]{1,3})0{1,9}"(?: s="0{1,9}")?(?:'
            + value(rb'(?: t="n")?', number) + rb"|" + value(rb' t="s"', rb"(?:0{1,9})?")
            + rb"|" + value(rb' t="b"', rb"(?:-?0{1,9})?") + rb"|" + value(rb' t="e"', rb"[#A-Z0/!?]{0,8}")
            + rb"|" + value(rb' t="str"', rb"[A-Za-z0 ._,-]{0,255}") + rb")" + sp)
    start = {  # the first piece, before the first cell: closed rows, then the cells' row open or not
        True: re.compile(sp + empty_rows + open_row),
        False: re.compile(sp + empty_rows),
    }
    middle = re.compile(cell + rb"(?:</row>" + sp + empty_rows + open_row + rb")?")
    last_closed = re.compile(cell + rb"</row>" + sp + empty_rows)
    any_row_attributes = b"".join(rb'(?: %s="%s")?' % (name, _TEXT) for name in extra)
    stop_cell = re.compile(rb'<c(?: r="%s")?(?: s="%s")?(?: t="%s")? */?>' % (_TEXT, _TEXT, _TEXT))
    stop_row = re.compile(rb'<row r="' + _TEXT + rb'"' + any_row_attributes + rb" */?>")
    return start[True], start[False], middle, last_closed, stop_cell, stop_row


def proven_refusal(scan: WorkbookScan, part: str, raw: bytes) -> Refused | None:
    """The refusal the full scan of worksheet ``raw`` would raise, when it is one for a limit at a
    place the bytes show and everything before it is proven to pass; else None, ``scan`` unchanged."""
    if len(raw) < MIN_BYTES:
        return None
    body = utf8_body(raw, b"worksheet")
    if body is None or raw.find(b"<?", body) >= 0:
        return None
    data_start = raw.find(b"<sheetData>", body)
    if data_start < 0:
        return None
    start = data_start + len(b"<sheetData>")
    root = _ROOT.match(raw, body - len(b"<worksheet "))  # body: just past the name and the character after it
    x14ac = root is not None and _X14AC.search(root.group()) is not None
    saved = scan.cells, scan.records, len(scan.report.sheets)
    parser = PartParser(scan, part)
    try:
        parser.feed(raw[:start])
        refusal = _refusal(scan, parser, raw, start, x14ac)
    except Exception:  # noqa: BLE001 - a refusal or error before <sheetData> ends: the scan decides
        refusal = None
    if refusal is None:
        scan.cells, scan.records = saved[:2]
        del scan.report.sheets[saved[2]:]
    return refusal


def _refusal(scan: WorkbookScan, parser: PartParser, raw: bytes, start: int, x14ac: bool) -> Refused | None:
    if parser.sheet is None or parser.value is not None:
        return None
    limits = scan.limits
    stop = _cell_past_limit(raw, start, limits.max_cells - scan.cells + 1)
    stop = _reach_past_limit(raw, start, len(raw) if stop is None else stop, limits, stop)
    if stop is None:
        return None
    for _ in range(2):  # again when a column past the limit comes first
        cells = _proven_cells(scan, raw, start, stop, x14ac)
        if cells is None:
            return None
        if isinstance(cells, tuple):
            stop = cells[0]
            continue
        tag = _grammar(x14ac)[4 if raw.startswith(b"<c ", stop) else 5].match(raw, stop)
        if tag is None:
            return None
        row, column = parser.row, parser.column
        last_row, last_cell = raw.rfind(b'<row r="', start, stop), raw.rfind(b'<c r="', start, stop)
        if last_row >= 0:
            row, column = int(raw[last_row + 8:raw.index(b'"', last_row + 8)]), 0
        if last_cell > last_row:
            column = _column(raw[last_cell + 6:last_cell + 9].rstrip(b"0123456789\""))
        try:
            parser.resume(cells, row, column, raw[stop:tag.end()])
        except Refused as refused:
            return refused
        return None  # the handler did not stop there: not what this module proved
    return None


def _cell_past_limit(raw: bytes, start: int, nth: int) -> int | None:
    """Where the ``nth`` ``<c `` after ``start`` begins, or None."""
    if nth < 1:
        return None
    low, seen = start, 0  # seen: the occurrences starting before low

    def starting(begin: int, end: int) -> int:  # the occurrences starting in begin:end
        return raw.count(b"<c ", begin, end + 2)

    while True:  # a chunk at a time
        if low >= len(raw):
            return None
        high = min(low + CHUNK, len(raw))
        found = starting(low, high)
        if seen + found >= nth:
            break
        seen, low = seen + found, high
    while high - low > 256:  # then halves
        middle = (low + high) // 2
        found = starting(low, middle)
        if seen + found >= nth:
            high = middle
        else:
            seen, low = seen + found, middle
    position = low
    for _ in range(nth - seen):
        position = raw.find(b"<c ", position) + 3
    return position - 3


def _reach_past_limit(raw: bytes, start: int, end: int, limits: Limits, stop: int | None) -> int | None:
    """The first ``<row`` or ``<c`` between ``start`` and ``end`` whose row or column is past the
    limits when it comes before ``stop``, else ``stop``. None when a row written with a leading 0
    (or 0 itself: a damaged sheet, which the scan names) or an ``r`` the search cannot place comes
    first, or too many rows are as long as the limit's."""
    for seen, match in enumerate(_reach_search(limits.max_rows, limits.max_columns).finditer(raw, start, end)):
        wide, letters, zero, number = match.groups()
        at = match.start()
        if seen >= MAX_CANDIDATES or zero:
            return None
        if raw.startswith(b"<c ", at - 3) and (wide or letters):
            element = at - 3
        elif raw.startswith(b"<row ", at - 5) and not (wide or letters):
            element = at - 5
        else:
            return None
        if wide or int(number) > limits.max_rows:
            return element if stop is None or element < stop else stop
    return stop


@functools.cache
def _reach_search(max_rows: int, max_columns: int) -> re.Pattern[bytes]:
    """An ``r`` whose letters are past ``max_columns``, or whose row is written with a leading 0 or
    is as long as ``max_rows`` or longer: the places a row or column can be past the limits. The
    quantifiers are possessive, so that the search leaves the other million cells at once."""
    last = b""
    number = max_columns
    while number:
        number, letter = divmod(number - 1, 26)
        last = bytes([65 + letter]) + last
    wider = [rb"[A-Z]{%d,3}" % (len(last) + 1)] if len(last) < 3 else []
    for i, letter in enumerate(last):
        if letter < ord("Z"):
            wider.append(re.escape(last[:i]) + rb"[%c-Z][A-Z]{%d}" % (letter + 1, len(last) - i - 1))
    wide = rb"(" + rb"|".join(wider) + rb")[1-9]|" if len(last) <= 3 and wider else rb"()"
    return re.compile(rb'r="(?:' + wide + rb'([A-Z]{0,3}+)(?:(0)|([0-9]{%d,}+)"))' % len(str(max_rows)))


def _pieces(raw: bytes, start: int, stop: int) -> Iterator[tuple[int, int, list[bytes]]]:
    """The stretch ``start:stop`` cut before each ``<c `` (that text dropped), digits as 0, a chunk
    at a time: where it starts and ends, and its pieces. The first piece of the first chunk is what precedes the
    first cell; the first of every other chunk is empty."""
    position = start
    while position < stop:
        end = raw.find(b"<c ", position + CHUNK, stop)
        end = stop if end < 0 else end
        yield position, end, raw[position:end].translate(_ZEROS).split(b"<c ")
        position = end


def _proven_cells(scan: WorkbookScan, raw: bytes, start: int, stop: int,
                  x14ac: bool) -> int | tuple[int] | None:
    """The number of cells between ``start`` and ``stop`` when they and the rows around them are
    proven to pass the scan, the stretch ending in an open row (``stop`` at a cell) or after a
    closed one (at a row); ``(position,)`` of the first cell whose column is past the limit, when
    one comes first; else None."""
    opened, closed, middle, last_closed, *_ = _grammar(x14ac)
    at_cell = raw.startswith(b"<c ", stop)
    max_columns = scan.limits.max_columns
    within: dict[bytes, bool] = {}  # a piece's shape -> its column is within the limit
    cells = 0
    any_cell = raw.find(b"<c ", start, stop) >= 0
    for position, end, pieces in _pieces(raw, start, stop):
        if position == start and not (opened if at_cell or any_cell else closed).fullmatch(pieces[0]):
            return None
        ending = pieces[-1] if end == stop and len(pieces) > 1 else None  # the piece before the stop
        shapes = set(pieces[1:-1] if ending is not None else pieces[1:])
        for shape in shapes - within.keys():
            match = middle.fullmatch(shape)
            if match is None or len(within) >= MAX_SHAPES:
                return None
            within[shape] = _column(match.group("letters")) <= max_columns
        over = {shape for shape in shapes if not within[shape]}
        if ending is not None:
            match = (middle if at_cell else last_closed).fullmatch(ending)
            if match is None:
                return None
            if _column(match.group("letters")) > max_columns:
                over.add(ending)
        if over:
            index = next(i for i, piece in enumerate(pieces) if i and piece in over)
            return (position + sum(map(len, pieces[:index])) + 3 * (index - 1),)
        cells += len(pieces) - 1
    if cells and raw.find(b' t="s"', start, stop) >= 0:
        indexes = _SHARED.findall(raw, start, stop)
        if indexes and max(map(int, indexes)) >= scan.shared_strings:
            return None
    return cells


def _column(letters: bytes) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + letter - 64
    return index
