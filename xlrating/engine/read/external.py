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


def read_link_names(archive: zipfile.ZipFile, workbook: Any,
                    workbook_rels: dict[str, str]) -> dict[tuple[int, str | None, str], str]:
    """The defined names of every external workbook as its link records them (``<definedName
    name="Rate" refersTo="=Prices!$C$1"/>``; one with ``sheetId`` is local to that sheet of the
    link's ``<sheetNames>``): (book, SHEET upper case or None for the workbook's, NAME upper case)
    -> what it refers to, without its ``=`` ("" for a name recorded without it: one Excel could not
    resolve, its workbook missing, which Excel shows as #NAME?). The items of a DDE or OLE link
    (``[1]!'ES #F'``: ``<ddeItem name="ES #F">``) are names of the book too: the values the link
    caches for the item (``<values>``) as a constant, else #REF!, as Excel shows an item it holds
    no value of."""
    found: dict[tuple[int, str | None, str], str] = {}
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
        for name in root.iter(f"{{{MAIN}}}definedName"):
            refers = (name.get("refersTo") or "").strip()
            local = name.get("sheetId")
            if not name.get("name"):
                continue
            if local is None:
                scope = None
            elif local.isdigit() and int(local) < len(titles):
                scope = titles[int(local)].upper()
            else:
                continue  # local to a sheet the link does not list: no formula can name it
            found[(book, scope, name.get("name", "").upper())] = refers.removeprefix("=")
        for item in root.iter(f"{{{MAIN}}}ddeItem", f"{{{MAIN}}}oleItem"):
            if item.get("name"):
                found.setdefault((book, None, item.get("name", "").upper()), _item_values(item))
    return found


def _item_values(item: Any) -> str:
    """What a DDE item's cached values stand for in a formula: a constant, an array constant for
    several, #REF! for none (an OLE item caches none)."""
    values = item.find(f"{{{MAIN}}}values")
    if values is None:
        return "#REF!"
    texts = []
    for value in values.iter(f"{{{MAIN}}}value"):
        val = value.find(f"{{{MAIN}}}val")
        text = val.text if val is not None and val.text is not None else ""
        kind = value.get("t", "n")
        if kind == "str":
            texts.append('"' + text.replace('"', '""') + '"')
        elif kind == "b":
            texts.append("TRUE" if text.strip() in ("1", "true") else "FALSE")
        elif kind == "e" and re.fullmatch(r"#[A-Z0-9/!?]+", text.strip()):
            texts.append(text.strip())
        elif kind == "n" and _CONSTANT.match(text.strip()):
            texts.append(text.strip())
        else:  # nil: an item that holds nothing reads as 0, as an empty cell does
            texts.append("0")
    if not texts:
        return "#REF!"
    if len(texts) == 1:
        return texts[0]
    columns = max(int(values.get("cols", "1") or "1"), 1) if (values.get("cols") or "1").isdigit() else 1
    rows = [",".join(texts[start:start + columns]) for start in range(0, len(texts), columns)]
    return "{" + ";".join(rows) + "}"


# [1]Sheet1!A1, '[1]My sheet'!A1, [1]Sheet1!Name (a name local to that sheet of the other workbook),
# [1]!Name and [1]!'Item name' (a name in the other workbook, an item of a DDE or OLE link: its link
# records what it refers to), [1]!Table1[c] (a table of the other workbook)
_NAME = r"[A-Za-z_\\][\w.\\?]*"
_EXTERNAL = re.compile(rf"""(?P<text>"(?:[^"]|"")*")
    |'\[(?P<qbook>\d+)\](?P<qsheet>(?:[^']|'')+)'!(?P<qafter>{_NAME}(?![\w.(!\[]))?
    |\[(?P<book>\d+)\](?P<sheet>[^\s!'"(),;:=<>&*/+^-]+)!(?P<after>{_NAME}(?![\w.(!\[]))?
    |\[(?P<nbook>\d+)\]!(?:'(?P<quoted>(?:[^']|'')+)'|(?P<name>{_NAME})(?P<table>\[(?:[^\[\]]|\[[^\[\]]*\])*\])?
        (?![\w.(!]))""", re.VERBOSE)
# what an external name may refer to: an area of one of that workbook's sheets, or a constant
_LINKED_AREA = re.compile(r"""^(?:'((?:[^']|'')+)'|([^\s!'"(),;:=<>&*/+^-]+))!(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)$""")
_ERROR = re.compile(r"^#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA)$", re.IGNORECASE)
_CONSTANT = re.compile(r'^(?:-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|"(?:[^"]|"")*"|TRUE|FALSE)$', re.IGNORECASE)


def _linked_name(book: int, refers: str | None, linked: set[tuple[int, str]]) -> str | None:
    """What ``[book]!Name`` stands for in a formula, from the name's text: an area of a cached sheet
    (on its grid sheet), a constant, or #NAME? for a name recorded without a text, as Excel shows
    it; None for anything else (left as written: not computed)."""
    if refers is None:
        return None
    if not refers:  # the link records the name but not what it refers to: Excel could not resolve it
        return "#NAME?"
    if _ERROR.match(refers):  # a name Excel could not record (#REF!: one of a formula), or a DDE item's error
        return refers.upper()
    area = _LINKED_AREA.match(refers)
    if area is not None:
        sheet = area.group(1).replace("''", "'") if area.group(1) is not None else area.group(2)
        if (book, sheet.upper()) not in linked:
            return None
        return "'" + local_name(book, sheet).replace("'", "''") + "'!" + area.group(3)
    if _CONSTANT.match(refers) or refers.startswith("{"):  # a constant, a DDE item's array of values
        return "(" + refers + ")"
    return None


def rewrite(formula: str, linked: set[tuple[int, str]],
            names: dict[tuple[int, str | None, str], str] | None = None) -> str:
    """``formula`` with references into cached external sheets pointing at their grid sheets, and
    names of external workbooks (``[1]!Rate``, ``[1]Sheet1!Rate``, a DDE item ``[1]!'ES #F'``)
    replaced by what their link says they refer to; ``linked``: the (book, SHEET NAME upper case)
    pairs the cache holds; ``names``: :func:`read_link_names`. A table of another workbook
    (``[1]!Table1[c]``) is #REF!, as Excel shows it while that workbook is closed. Others stay as
    written (and are not computed)."""
    if "[" not in formula:
        return formula
    recorded = names or {}

    def replace(match: re.Match[str]) -> str:
        if match.group("text"):
            return match.group(0)
        if match.group("nbook"):
            book = int(match.group("nbook"))
            if match.group("table"):
                return "#REF!"
            name = match.group("name") or match.group("quoted").replace("''", "'")
            found = _linked_name(book, recorded.get((book, None, name.upper())), linked)
            return match.group(0) if found is None else found
        quoted = match.group("qbook") is not None
        book = int(match.group("qbook") if quoted else match.group("book"))
        sheet = match.group("qsheet").replace("''", "'") if quoted else match.group("sheet")
        after = (match.group("qafter") if quoted else match.group("after")) or ""
        # a name of that sheet, else the workbook's name written with a sheet, as Excel reads both
        refers = recorded.get((book, sheet.upper(), after.upper()), recorded.get((book, None, after.upper())))
        if after and refers is not None:
            found = _linked_name(book, refers, linked)
            if found is not None:
                return found
        if (book, sheet.upper()) not in linked:
            return match.group(0)
        return "'" + local_name(book, sheet).replace("'", "''") + "'!" + after

    return _EXTERNAL.sub(replace, formula)
