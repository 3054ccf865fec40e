"""Workbooks saved as "Strict Open XML Spreadsheet" (ISO/IEC 29500 Strict): read as the Transitional
package they mean, written back as Strict.

ECMA-376 (ISO/IEC 29500) has two conformance classes. Transitional, what Excel saves by default,
names its XML namespaces and relationship types ``http://schemas.openxmlformats.org/...``; Strict
(Excel: File > Save As > "Strict Open XML Spreadsheet (*.xlsx)") names the same vocabularies
``http://purl.oclc.org/ooxml/...`` (Part 1, the schemas of Annex A and the relationship types of
Part 1 15; the Transitional names are those of Part 4). The packaging itself (Part 2: content
types, ``_rels``, the package relationship namespace, core properties) and Markup Compatibility
(Part 3) are the same in both. Strict may hold dates as ISO 8601 text (``<c t="d"><v>2011-07-05</v>``),
which the sheet reader reads as the serial number of that day (:func:`.date_system.iso_serial`).

The engine reads a Strict package by renaming, in every XML part, each namespace declaration
(``xmlns="..."``, ``xmlns:r="..."``) and, in the relationship parts, each relationship ``Type``
by :data:`NAMESPACES` and :data:`RELATIONSHIP_TYPES` (:func:`transitional`): the elements, their
prefixes, the attributes and the text stay byte for byte as they were. The writer renames them back
(:func:`to_strict`), so the user's workbook stays a Strict workbook, with fresh values.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable

_STRICT = "http://purl.oclc.org/ooxml/"
_TRANSITIONAL = "http://schemas.openxmlformats.org/"

# Strict namespace -> Transitional namespace, the vocabularies a spreadsheet package uses
NAMESPACES: dict[str, str] = {
    _STRICT + "spreadsheetml/main": _TRANSITIONAL + "spreadsheetml/2006/main",
    _STRICT + "officeDocument/relationships": _TRANSITIONAL + "officeDocument/2006/relationships",
    _STRICT + "officeDocument/extendedProperties": _TRANSITIONAL + "officeDocument/2006/extended-properties",
    _STRICT + "officeDocument/customProperties": _TRANSITIONAL + "officeDocument/2006/custom-properties",
    **{_STRICT + f"officeDocument/{name}": _TRANSITIONAL + f"officeDocument/2006/{name}"
       for name in ("docPropsVTypes", "math", "bibliography", "characteristics", "customXml", "sharedTypes")},
    **{_STRICT + f"drawingml/{name}": _TRANSITIONAL + f"drawingml/2006/{name}"
       for name in ("main", "chart", "chartDrawing", "diagram", "picture", "spreadsheetDrawing",
                    "wordprocessingDrawing", "lockedCanvas", "compatibility")},
    _STRICT + "presentationml/main": _TRANSITIONAL + "presentationml/2006/main",
    _STRICT + "wordprocessingml/main": _TRANSITIONAL + "wordprocessingml/2006/main",
}
_STRICT_TYPES = _STRICT + "officeDocument/relationships/"
_TRANSITIONAL_TYPES = _TRANSITIONAL + "officeDocument/2006/relationships/"
# the relationship types whose last part is spelt differently; every other keeps it (worksheet, styles ...)
RELATIONSHIP_TYPES: dict[str, str] = {"extendedProperties": "extended-properties",
                                      "customProperties": "custom-properties"}

_DECLARATION = re.compile(r'(\sxmlns(?::[\w.-]+)?\s*=\s*)(["\'])(.*?)\2')
_TYPE = re.compile(r'(\sType\s*=\s*)(["\'])(.*?)\2')
_TO_STRICT = {transitional: strict for strict, transitional in NAMESPACES.items()}
_TYPES_TO_STRICT = {transitional: strict for strict, transitional in RELATIONSHIP_TYPES.items()}


def is_strict(archive: zipfile.ZipFile) -> bool:
    """Whether the package's main part is a Strict workbook (its package relationship says so)."""
    if "_rels/.rels" not in archive.namelist():
        return False
    return _STRICT_TYPES + "officeDocument" in archive.read("_rels/.rels").decode("utf-8", "replace")


def _rename(pattern: re.Pattern[str], text: str, convert: Callable[[str], str | None]) -> str:
    """``text`` with the URI of each ``pattern`` match replaced by ``convert(uri)`` (None: kept)."""
    def one(match: re.Match[str]) -> str:
        found = convert(match.group(3))
        return match.group(0) if found is None else f"{match.group(1)}{match.group(2)}{found}{match.group(2)}"
    return pattern.sub(one, text)


def _type_to_transitional(uri: str) -> str | None:
    if not uri.startswith(_STRICT_TYPES):
        return None
    tail = uri[len(_STRICT_TYPES):]
    return _TRANSITIONAL_TYPES + RELATIONSHIP_TYPES.get(tail, tail)


def _type_to_strict(uri: str) -> str | None:
    if not uri.startswith(_TRANSITIONAL_TYPES):
        return None
    tail = uri[len(_TRANSITIONAL_TYPES):]
    return _STRICT_TYPES + _TYPES_TO_STRICT.get(tail, tail)


def _is_xml(name: str) -> bool:
    return name.endswith((".xml", ".rels", ".vml"))


def part_to_transitional(name: str, text: str) -> str:
    """One part of a Strict package as the Transitional part it means."""
    text = _rename(_DECLARATION, text, NAMESPACES.get)
    return _rename(_TYPE, text, _type_to_transitional) if name.endswith(".rels") else text


def to_strict(name: str, text: str) -> str:
    """A part (or a piece of one that starts at an element) read by :func:`transitional`, named
    again as Strict names it: the inverse of :func:`part_to_transitional`."""
    text = _rename(_DECLARATION, text, _TO_STRICT.get)
    return _rename(_TYPE, text, _type_to_strict) if name.endswith(".rels") else text


def _decoded(data: bytes) -> str:
    """A part's text as its byte-order mark or declaration says, without the declaration (which
    would name an encoding the part no longer has)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    return str(etree.tostring(etree.fromstring(data, parser), encoding="unicode"))


def transitional(archive: zipfile.ZipFile) -> bytes:
    """The Strict package in ``archive`` (already through the package gate) as a Transitional one:
    every XML part renamed by :func:`part_to_transitional`, every other part as it is."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as target:
        for info in archive.infolist():
            data = archive.read(info)
            if _is_xml(info.filename):
                try:
                    data = part_to_transitional(info.filename, data.decode("utf-8")).encode("utf-8")
                except UnicodeDecodeError:  # a part in UTF-16 (no producer writes one): renamed as text
                    data = part_to_transitional(info.filename, _decoded(data)).encode("utf-8")
            target.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    return buffer.getvalue()
