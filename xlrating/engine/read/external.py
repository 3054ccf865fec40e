"""References into other workbooks, read from the values Excel cached for them.

A formula such as ``=[1]Prices!B2*2`` reads workbook number 1 of the workbook's external links.
Excel keeps a copy of every cell it reads there in the link's part (``xl/externalLinks/
externalLinkN.xml``: ``<sheetDataSet>``), and shows those values until the link is updated; so
does the engine. Each linked sheet becomes a sheet of the grid under a name no real sheet can have
by accident (:func:`local_name`), and references to it are rewritten to that name before the
formula is parsed (:func:`rewrite`). A cell the cache does not hold is empty; a linked sheet the
cache does not hold at all is #REF!, as Excel shows for a link it cannot find.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from xlrating.excel_errors import ExcelError

from . import xml_parts

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


@dataclass
class LinkedSheet:
    """The cached cells of one sheet of another workbook: (row, col) -> value."""

    book: int
    name: str
    cells: dict[tuple[int, int], Any] = field(default_factory=dict)


def local_name(book: int, sheet: str) -> str:
    """The grid's name for sheet ``sheet`` of external workbook ``book`` (a name with a character
    Excel sheet names cannot hold, so it never meets a real sheet)."""
    return f"ext{book}\u00b7{sheet}"


def _position(ref: str) -> tuple[int, int]:
    match = re.fullmatch(r"([A-Za-z]{1,3})(\d+)", ref)
    if match is None:
        raise ValueError(ref)
    col = 0
    for char in match.group(1).upper():
        col = col * 26 + ord(char) - 64
    return int(match.group(2)), col


def _value(cell: Any) -> Any:
    v = cell.find(f"{{{MAIN}}}v")
    if v is None or v.text is None:
        return None
    kind = cell.get("t", "n")
    if kind == "n":
        return float(v.text)
    if kind == "b":
        return v.text.strip() in ("1", "true")
    if kind == "e":
        return ExcelError(v.text.strip())
    return v.text


def read_links(archive: zipfile.ZipFile, workbook: Any, workbook_rels: dict[str, str]) -> list[LinkedSheet]:
    """Every cached sheet of every external workbook, numbered as formulas number them ([1], [2] ...)."""
    sheets: list[LinkedSheet] = []
    names = set(archive.namelist())
    for book, reference in enumerate(workbook.iter(f"{{{MAIN}}}externalReference"), start=1):
        part = workbook_rels.get(reference.get(f"{{{REL}}}id") or "", "")
        if part not in names:
            continue
        try:
            root = xml_parts.root(archive, part)
        except etree.XMLSyntaxError:
            continue
        titles = [n.get("val", "") for n in root.iter(f"{{{MAIN}}}sheetName")]
        for data in root.iter(f"{{{MAIN}}}sheetData"):
            index = int(data.get("sheetId", "-1"))
            if not 0 <= index < len(titles):
                continue
            linked = LinkedSheet(book, titles[index])
            for cell in data.iter(f"{{{MAIN}}}cell"):
                try:
                    value = _value(cell)
                    if value is not None:
                        linked.cells[_position(cell.get("r", ""))] = value
                except ValueError:
                    continue
            sheets.append(linked)
    return sheets


def read_link_names(archive: zipfile.ZipFile, workbook: Any, workbook_rels: dict[str, str]) -> dict[tuple[int, str], str]:
    """The defined names of every external workbook as its link records them (``<definedName
    name="Rate" refersTo="=Prices!$C$1"/>``, workbook-wide ones): (book, NAME upper case) -> what
    it refers to, without its ``=`` ("" for a name recorded without it: one Excel could not resolve,
    its workbook missing, which Excel shows as #NAME?)."""
    found: dict[tuple[int, str], str] = {}
    names = set(archive.namelist())
    for book, reference in enumerate(workbook.iter(f"{{{MAIN}}}externalReference"), start=1):
        part = workbook_rels.get(reference.get(f"{{{REL}}}id") or "", "")
        if part not in names:
            continue
        try:
            root = xml_parts.root(archive, part)
        except etree.XMLSyntaxError:
            continue
        for name in root.iter(f"{{{MAIN}}}definedName"):
            refers = (name.get("refersTo") or "").strip()
            if name.get("name") and name.get("sheetId") is None:  # "": recorded without what it refers to
                found[(book, name.get("name", "").upper())] = refers.removeprefix("=")
    return found


# [1]Sheet1!A1, '[1]My sheet'!A1, [1]!Name (a name in the other workbook: its link records what it refers to)
_EXTERNAL = re.compile(r"""("(?:[^"]|"")*")|'\[(\d+)\]((?:[^']|'')+)'!|\[(\d+)\]([^\s!'"(),;:=<>&*/+^-]+)!
    |\[(\d+)\]!([A-Za-z_\\][\w.\\?]*)(?![\w.(!])""", re.VERBOSE)
# what an external name may refer to: an area of one of that workbook's sheets, or a constant
_LINKED_AREA = re.compile(r"""^(?:'((?:[^']|'')+)'|([^\s!'"(),;:=<>&*/+^-]+))!(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)$""")
_CONSTANT = re.compile(r'^(?:-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|"(?:[^"]|"")*"|TRUE|FALSE)$', re.IGNORECASE)


def _linked_name(book: int, refers: str | None, linked: set[tuple[int, str]]) -> str | None:
    """What ``[book]!Name`` stands for in a formula, from the name's text: an area of a cached sheet
    (on its grid sheet), a constant, or #NAME? for a name recorded without a text, as Excel shows
    it; None for anything else (left as written: not computed)."""
    if refers is None:
        return None
    if not refers:  # the link records the name but not what it refers to: Excel could not resolve it
        return "#NAME?"
    area = _LINKED_AREA.match(refers)
    if area is not None:
        sheet = area.group(1).replace("''", "'") if area.group(1) is not None else area.group(2)
        if (book, sheet.upper()) not in linked:
            return None
        return "'" + local_name(book, sheet).replace("'", "''") + "'!" + area.group(3)
    if _CONSTANT.match(refers):
        return "(" + refers + ")"
    return None


def rewrite(formula: str, linked: set[tuple[int, str]], names: dict[tuple[int, str], str] | None = None) -> str:
    """``formula`` with references into cached external sheets pointing at their grid sheets, and
    names of external workbooks (``[1]!Rate``) replaced by what their link says they refer to;
    ``linked``: the (book, SHEET NAME upper case) pairs the cache holds; ``names``: :func:`read_link_names`.
    Others stay as written (and are not computed)."""
    if "[" not in formula:
        return formula

    def replace(match: re.Match[str]) -> str:
        if match.group(1):
            return match.group(0)
        if match.group(6):
            book = int(match.group(6))
            found = _linked_name(book, (names or {}).get((book, match.group(7).upper())), linked)
            return match.group(0) if found is None else found
        book = int(match.group(2) or match.group(4))
        sheet = (match.group(3) or "").replace("''", "'") if match.group(2) else match.group(5)
        if (book, sheet.upper()) not in linked:
            return match.group(0)
        return "'" + local_name(book, sheet).replace("'", "''") + "'!"

    return _EXTERNAL.sub(replace, formula)
