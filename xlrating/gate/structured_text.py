"""Untrusted XML and JSON files, parsed with the position of everything in them.

The formats tournament software writes (a Wizards Event Reporter event file is XML, the World
Diplomacy Reference's classifications are JSON) come from strangers like any workbook. Read here:

- XML through defusedxml's parser with DTDs forbidden: a file declaring a DTD (``<!DOCTYPE``,
  ``<!ENTITY``) is refused, so there is no entity expansion ("billion laughs") and no external
  entity; the elements are counted (at most :data:`MAX_ITEMS`, and ``max_cells``) and nested at most :data:`MAX_DEPTH`
  deep while they are parsed;
- JSON as RFC 8259 writes it (UTF-8, a byte-order mark allowed; no ``NaN`` or ``Infinity``), values
  counted as the elements are and nested at most :data:`MAX_DEPTH` deep.

Both keep where each element or value starts (line and column, from 1), so that a reader can put
every finding at its place in the file, as the sheets' findings are at their cells. A file that is
not well-formed is :class:`NotWellFormed` with the line and column of the first fault; the size of
the file is checked before (:func:`xlrating.gate.safe_open.read_bytes`).
"""

from __future__ import annotations

import bisect
import json.decoder
import json.scanner
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xlrating.gate.limits import Limits, describe

MAX_DEPTH = 200
"""Elements (or JSON arrays and objects) inside one another: no results file nests more than a
few; a deeper one is a file built to exhaust the parser."""

MAX_ITEMS = 100_000
"""Elements of an XML file, or values of a JSON file: a Grand Prix's event file (2,000 players, 15
rounds) holds about 25,000, a classification a few thousand; a file of more is built to exhaust the
reader (each costs some hundreds of bytes and tens of microseconds), whatever the limit of cells."""

JsonPath = tuple[str | int, ...]
"""Where a JSON value is: the keys and indexes leading to it (``("tournament_classifications", 3, "player_rank")``)."""


class NotWellFormed(Exception):
    """The text is not well-formed XML or JSON (or is refused, as a DTD is); ``line`` and ``column``
    (from 1) say where."""

    def __init__(self, reason: str, line: int, column: int):
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


@dataclass
class XmlElement:
    """One element: its tag, attributes, children, text, and where its start tag is."""

    tag: str
    attributes: dict[str, str]
    line: int
    column: int
    children: list[XmlElement] = field(default_factory=list)
    text: str = ""

    def find_all(self, tag: str) -> list[XmlElement]:
        """The children named ``tag``, in document order."""
        return [child for child in self.children if child.tag == tag]

    def find(self, tag: str) -> XmlElement | None:
        """The first child named ``tag``, or None."""
        return next((child for child in self.children if child.tag == tag), None)


class _Builder:
    """The parser's target: builds :class:`XmlElement` values, noting where each start tag is."""

    def __init__(self, limits: Limits):
        self.parser: Any = None
        self.stack: list[XmlElement] = []
        self.root: XmlElement | None = None
        self.count = 0
        self.limits = limits

    def _where(self) -> tuple[int, int]:
        expat = self.parser.parser
        return int(expat.CurrentLineNumber), int(expat.CurrentColumnNumber) + 1

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        line, column = self._where()
        self.count += 1
        if self.count > min(self.limits.max_cells, MAX_ITEMS):
            raise NotWellFormed(_too_many(self.limits, "elements"), line, column)
        if len(self.stack) >= MAX_DEPTH:
            raise NotWellFormed(f"elements nested more than {MAX_DEPTH} deep", line, column)
        element = XmlElement(tag, dict(attributes), line, column)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text += text

    def close(self) -> XmlElement | None:
        return self.root


def _too_many(limits: Limits, what: str) -> str:
    if limits.max_cells < MAX_ITEMS:
        return f"more than {limits.max_cells:,} {what}, over the limit {describe('max_cells', limits.max_cells)}"
    return f"more than {MAX_ITEMS:,} {what}, more than any results file holds"


def parse_xml(data: bytes, limits: Limits | None = None) -> XmlElement:
    """The root element of the XML ``data``; :class:`NotWellFormed` for a file that is not, or that
    declares a DTD or an entity."""
    import defusedxml.ElementTree as defused  # type: ignore[import-untyped]
    from defusedxml.common import DefusedXmlException  # type: ignore[import-untyped]

    builder = _Builder(limits or Limits.from_env())
    parser = defused.DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(data)
        root = parser.close()
    except DefusedXmlException:
        line, column = builder._where()
        raise NotWellFormed("the file declares a DTD or an entity (<!DOCTYPE ...> or <!ENTITY ...>), which no "
                            "results file needs; it is refused, as every XML file with one is", line, column) from None
    except defused.ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(": line ")[0]
        raise NotWellFormed(f"not well-formed XML ({reason})", line, column + 1) from None
    if root is None:
        raise NotWellFormed("no XML element in the file", 1, 1)
    return root  # type: ignore[no-any-return]


# --- JSON -------------------------------------------------------------------------------------------

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = json.scanner.NUMBER_RE  # JSON's own number grammar
# JSON's own string reader (the C one when built), untyped in the stubs: (text, index after the quote,
# strict) -> (the string, the index after its closing quote).
_scanstring: Callable[[str, int, bool], tuple[str, int]] = getattr(json.decoder, "scanstring")


@dataclass
class JsonDocument:
    """A JSON file read: its value, and where each value in it starts (by :data:`JsonPath`)."""

    value: Any
    offsets: dict[JsonPath, int]
    lines: list[int]  # the offset of each line's start

    def where(self, path: JsonPath) -> tuple[int, int]:
        """The line and column (from 1) where the value at ``path`` starts; for a path that is not in
        the file, where the nearest value holding it starts."""
        while path and path not in self.offsets:
            path = path[:-1]
        return self.position(self.offsets.get(path, 0))

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.lines, offset)
        return line, offset - self.lines[line - 1] + 1


def parse_json(data: bytes, limits: Limits | None = None) -> JsonDocument:
    """The JSON ``data`` (UTF-8, a byte-order mark allowed), with the offset of every value;
    :class:`NotWellFormed` for anything that is not JSON."""
    limits = limits or Limits.from_env()
    raw = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        raise NotWellFormed(f"not JSON (byte 0x{raw[exc.start]:02x} is not UTF-8, which JSON is)", line,
                            len(before) - (before.rfind("\n") + 1) + 1) from None
    lines = [0] + [m.end() for m in re.finditer(r"\n", text)]
    reader = _JsonReader(text, limits)
    try:
        end = reader.value(_SPACE.match(text, 0).end(), (), 0)  # type: ignore[union-attr]
        end = _SPACE.match(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            raise _Fault("more text after the JSON value", end)
    except _Fault as fault:
        document = JsonDocument(None, {}, lines)
        raise NotWellFormed(f"not JSON ({fault.reason})", *document.position(fault.offset)) from None
    return JsonDocument(reader.result, reader.offsets, lines)


class _Fault(Exception):
    def __init__(self, reason: str, offset: int):
        self.reason, self.offset = reason, offset


class _JsonReader:
    """A recursive-descent reader of strict JSON that notes where each value starts."""

    def __init__(self, text: str, limits: Limits):
        self.text, self.limits = text, limits
        self.offsets: dict[JsonPath, int] = {}
        self.result: Any = None
        self.count = 0

    def value(self, i: int, path: JsonPath, depth: int) -> int:
        text = self.text
        self.offsets[path] = i
        self.count += 1
        if self.count > min(self.limits.max_cells, MAX_ITEMS):
            raise _Fault(_too_many(self.limits, "values"), i)
        if i >= len(text):
            raise _Fault("the file ends where a value was expected", i)
        c = text[i]
        if c in "{[":
            if depth >= MAX_DEPTH:
                raise _Fault(f"arrays and objects nested more than {MAX_DEPTH} deep", i)
            return self._object(i, path, depth) if c == "{" else self._array(i, path, depth)
        if c == '"':
            try:
                self.result, end = _scanstring(text, i + 1, True)
            except json.JSONDecodeError as exc:
                raise _Fault(exc.msg.lower(), exc.pos) from None
            return end
        for word, value in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i):
                self.result = value
                return i + len(word)
        match = _NUMBER.match(text, i)
        if match is None:
            raise _Fault(f"expected a value (a string, number, object, array, true, false or null), got "
                         f"{text[i:i + 12]!r}", i)
        whole, fraction, exponent = match.groups()
        self.result = float(whole + (fraction or "") + (exponent or "")) if fraction or exponent else int(whole)
        return match.end()

    def _object(self, i: int, path: JsonPath, depth: int) -> int:
        text = self.text
        found: dict[str, Any] = {}
        i = self._space(i + 1)
        if text.startswith("}", i):
            self.result = found
            return i + 1
        while True:
            if not text.startswith('"', i):
                raise _Fault("expected a key in double quotes", i)
            try:
                key, i = _scanstring(text, i + 1, True)
            except json.JSONDecodeError as exc:
                raise _Fault(exc.msg.lower(), exc.pos) from None
            i = self._space(i)
            if not text.startswith(":", i):
                raise _Fault(f"expected ':' after the key {key!r}", i)
            i = self.value(self._space(i + 1), (*path, key), depth + 1)
            found[key] = self.result
            i = self._space(i)
            if text.startswith("}", i):
                self.result = found
                return i + 1
            if not text.startswith(",", i):
                raise _Fault("expected ',' or '}' after a value of the object", i)
            i = self._space(i + 1)

    def _array(self, i: int, path: JsonPath, depth: int) -> int:
        text = self.text
        found: list[Any] = []
        i = self._space(i + 1)
        if text.startswith("]", i):
            self.result = found
            return i + 1
        while True:
            i = self.value(i, (*path, len(found)), depth + 1)
            found.append(self.result)
            i = self._space(i)
            if text.startswith("]", i):
                self.result = found
                return i + 1
            if not text.startswith(",", i):
                raise _Fault("expected ',' or ']' after a value of the array", i)
            i = self._space(i + 1)

    def _space(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()  # type: ignore[union-attr]
