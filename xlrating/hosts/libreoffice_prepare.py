"""A workbook's function names as older LibreOffice (7.x) reads them: ``xlrating libreoffice prepare``.

Excel stores xlrating's functions by their plain names (``DCI_K(B6)``), or, when they came from an
add-in workbook, through an external link to it (``[1]!DCI_K(B6)``). LibreOffice 25.2 reads the
plain names with the add-in installed; LibreOffice 7.4's .xlsx import resolves an unknown name only
against the add-in's programmatic names, ``SERVICE.NAME``: ``xlrating.DCI_K(B6)`` computes there
(and in 25.2), the plain ``DCI_K(B6)`` is ``#NAME?`` (measured with 7.4.7 and 25.2.3).
:func:`prepare` rewrites every call of one of our functions (plain, ``_xldudf_``, ``_xll.``, or
behind a link to an add-in: ``.xlam``, ``.xla``, ``.xll``) to ``xlrating.NAME`` in the cells, the
defined names, the conditional formats and data validations (the ``x14`` extensions too) and the
table column formulas. Text inside string literals, quoted sheet names and structured references
is left alone, as is every other name. A link to an add-in no formula uses any more is removed
when it is the last of the workbook's links (removing another would renumber the rest) and no part
mentions it; otherwise it stays, unused. Every other part keeps its bytes.
"""

from __future__ import annotations

import io
import os
import posixpath
import re
import tempfile
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from xlrating.engine.read.formula_xml import unescape_xml
from xlrating.functions import BY_NAME
from xlrating.gate.safe_open import UnreadableWorkbook, read_package

from .libreoffice import SERVICE_NAME

REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
ADDIN_SUFFIXES = (".xlam", ".xla", ".xll")

_NAMES = "|".join(sorted(BY_NAME, key=len, reverse=True))
# Skipped as they are: a string literal, a quoted sheet name, a structured reference (one level of
# nested brackets: Table[[#This Row],[col]]) that is not an external workbook's number.
# Rewritten: one of our functions called, with an optional link number [N]! and storage prefix.
_TOKEN = re.compile(
    r"""("(?:[^"]|"")*")|('(?:[^']|'')*')"""
    rf"""|(?:\[(\d+)\]!)?(?<![\w.\]])((?:_xldudf_|_xll\.|{SERVICE_NAME}\.)?)({_NAMES})(?=\s*\()"""
    r"""|(\[(?:[^\[\]]|\[[^\]]*\])*\])""",
    re.IGNORECASE)

# The elements holding formulas, by kind (a namespace prefix allowed: x14's xm:f).
_ELEMENT = re.compile(r"(<((?:\w+:)?(f|formula|formula1|formula2|definedName|calculatedColumnFormula|"
                      r"totalsRowFormula))(?:\s[^>]*)?>)([^<]*)(</\2>)")
_X14_BLOCK = re.compile(r"<(?:\w+:)?(conditionalFormattings|dataValidations)\b.*?</(?:\w+:)?\1>", re.DOTALL)


class PrepareError(Exception):
    """The workbook cannot be prepared (the message names the file and why)."""


@dataclass
class Prepared:
    """What :func:`prepare_bytes` changed: formulas renamed by kind, links removed or kept."""

    renamed: Counter[str] = field(default_factory=Counter)
    links_removed: list[str] = field(default_factory=list)
    links_kept: list[str] = field(default_factory=list)
    other_links: list[str] = field(default_factory=list)  # our functions called from a non-add-in workbook

    @property
    def total(self) -> int:
        return sum(self.renamed.values())


def calc_formula(text: str, addin_links: frozenset[int] = frozenset(), seen_links: set[int] | None = None) -> str:
    """A formula's text with our functions named ``xlrating.NAME``; a ``[N]!`` before one is
    dropped when link N is an add-in (``addin_links``), kept otherwise (``seen_links`` collects
    every link number in front of one of our functions)."""

    def one(match: re.Match[str]) -> str:
        link, name = match.group(3), match.group(5)
        if name is None:
            return match.group(0)
        if link is not None:
            if seen_links is not None:
                seen_links.add(int(link))
            if int(link) not in addin_links:
                return match.group(0)
        return f"{SERVICE_NAME}.{name.upper()}"

    return _TOKEN.sub(one, text)


def _kind(element: str, position: int, x14: list[tuple[int, int, str]]) -> str:
    if element in ("formula",):
        return "conditional formats"
    if element in ("formula1", "formula2"):
        return "data validations"
    if element == "definedName":
        return "defined names"
    if element in ("calculatedColumnFormula", "totalsRowFormula"):
        return "table columns"
    for start, end, block in x14:
        if start <= position < end:
            return "conditional formats" if block == "conditionalFormattings" else "data validations"
    return "cells"


def rewrite_part(xml: str, addin_links: frozenset[int], prepared: Prepared, seen_links: set[int]) -> str:
    """One XML part with every formula element's text through :func:`calc_formula`."""
    x14 = [(m.start(), m.end(), m.group(1)) for m in _X14_BLOCK.finditer(xml)] if "x14:" in xml else []

    def one(match: re.Match[str]) -> str:
        text = unescape_xml(match.group(4))
        changed = calc_formula(text, addin_links, seen_links)
        if changed == text:
            return match.group(0)
        prepared.renamed[_kind(match.group(3), match.start(), x14)] += 1
        escaped = changed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return match.group(1) + escaped + match.group(5)

    return _ELEMENT.sub(one, xml)


def _formula_part(name: str) -> bool:
    return name == "xl/workbook.xml" or (name.endswith(".xml") and name.startswith(("xl/worksheets/", "xl/tables/")))


def _parse(data: bytes) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    return etree.fromstring(data, parser)


def _rels_name(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def _targets(parts: dict[str, bytes], part: str) -> dict[str, tuple[str, str, str]]:
    """The relationships of ``part``: id -> (type's last word, target, target mode)."""
    data = parts.get(_rels_name(part))
    if data is None:
        return {}
    found = {}
    for rel in _parse(data).iter(f"{{{PKG_REL}}}Relationship"):
        found[rel.get("Id", "")] = (rel.get("Type", "").rsplit("/", 1)[-1], rel.get("Target", ""),
                                    rel.get("TargetMode", ""))
    return found


@dataclass(frozen=True)
class _Link:
    number: int        # [N] in formulas
    rel_id: str        # in xl/_rels/workbook.xml.rels
    part: str          # xl/externalLinks/externalLinkK.xml
    target: str        # the linked workbook, as stored


def external_links(parts: dict[str, bytes]) -> list[_Link]:
    """The workbook's external links in the order formulas number them ([1], [2], ...)."""
    if "xl/workbook.xml" not in parts:
        return []
    workbook_rels = _targets(parts, "xl/workbook.xml")
    links = []
    for number, ref in enumerate(_parse(parts["xl/workbook.xml"]).iter(f"{{{MAIN}}}externalReference"), 1):
        rel_id = ref.get(f"{{{REL}}}id", "")
        target = workbook_rels.get(rel_id, ("", "", ""))[1]
        part = posixpath.normpath(posixpath.join("xl", target)) if not target.startswith("/") else target[1:]
        path = next((t for kind, t, _ in _targets(parts, part).values() if kind == "externalLinkPath"), "")
        links.append(_Link(number, rel_id, part, path))
    return links


def is_addin(target: str) -> bool:
    """Whether a link's target is an Excel add-in (.xlam, .xla, .xll: the xlwings add-in is one)."""
    path = target.split("?", 1)[0].split("#", 1)[0].replace("\\", "/")
    return path.lower().endswith(ADDIN_SUFFIXES)


def _remove_link(parts: dict[str, bytes], link: _Link) -> None:
    rel_id = re.escape(link.rel_id)
    workbook = parts["xl/workbook.xml"].decode("utf-8")
    workbook = re.sub(rf'<(?:\w+:)?externalReference\b[^>]*\b\w+:id="{rel_id}"[^>]*/>', "", workbook, count=1)
    workbook = re.sub(r"<((?:\w+:)?externalReferences)\b[^>]*>\s*</\1>|<(?:\w+:)?externalReferences\b[^>]*/>",
                      "", workbook)
    parts["xl/workbook.xml"] = workbook.encode("utf-8")
    rels = _rels_name("xl/workbook.xml")
    parts[rels] = re.sub(rf'<Relationship\b[^>]*\bId="{rel_id}"[^>]*/>'.encode(), b"", parts[rels], count=1)
    types = parts["[Content_Types].xml"]
    parts["[Content_Types].xml"] = re.sub(
        rf'<Override\b[^>]*\bPartName="/{re.escape(link.part)}"[^>]*/>'.encode(), b"", types, count=1)
    parts.pop(link.part, None)
    parts.pop(_rels_name(link.part), None)


def _drop_unused_links(parts: dict[str, bytes], links: list[_Link], prepared: Prepared) -> None:
    """Remove the add-in links at the end of the list that nothing mentions any more."""
    for link in reversed(links):
        if not is_addin(link.target):
            break
        own = {link.part, _rels_name(link.part)}
        marker = f"[{link.number}]".encode()
        if any(marker in data for name, data in parts.items() if name not in own and name.endswith((".xml", ".rels"))):
            prepared.links_kept.append(link.target)
            break
        _remove_link(parts, link)
        prepared.links_removed.append(link.target)
    kept = {link.target for link in links} - set(prepared.links_removed) - set(prepared.links_kept)
    prepared.links_kept.extend(sorted(t for t in kept if is_addin(t)))


def prepare_bytes(data: bytes) -> tuple[bytes, Prepared]:
    """The package ``data`` (a checked .xlsx/.xlsm) with our functions named for LibreOffice 7.x."""
    prepared = Prepared()
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        infos = source.infolist()
        parts = {info.filename: source.read(info) for info in infos}
    links = external_links(parts)
    addin_links = frozenset(link.number for link in links if is_addin(link.target))
    seen: set[int] = set()
    changed: set[str] = set()
    for name in [n for n in parts if _formula_part(n)]:
        text = parts[name].decode("utf-8")
        rewritten = rewrite_part(text, addin_links, prepared, seen)
        if rewritten != text:
            parts[name] = rewritten.encode("utf-8")
            changed.add(name)
    prepared.other_links = sorted({link.target for link in links if link.number in seen - addin_links})
    if addin_links & seen:
        _drop_unused_links(parts, links, prepared)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in infos:
            if info.filename in parts:
                target.writestr(info, parts[info.filename], compress_type=info.compress_type)
    return out.getvalue(), prepared


def prepare(source: str | os.PathLike[str], target: str | os.PathLike[str], *, force: bool = False) -> Prepared:
    """Write ``source`` prepared for LibreOffice 7.x to ``target`` (whole, or not at all)."""
    source, target = Path(source), Path(target)
    if target.exists() and not force:
        raise PrepareError(f"{target}: already exists (give --force to replace it)")
    if target.exists() and source.exists() and target.resolve() == source.resolve():
        raise PrepareError(f"{target}: is the input workbook; write the prepared copy to another file")
    try:
        data, _ = read_package(source)
    except UnreadableWorkbook as exc:
        raise PrepareError(str(exc)) from None
    try:
        prepared_data, prepared = prepare_bytes(data)
    except (etree.XMLSyntaxError, UnicodeDecodeError, KeyError) as exc:
        raise PrepareError(f"{source}: damaged workbook part ({type(exc).__name__}: {exc})") from None
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=".xlrating-prepare-", suffix=target.suffix, dir=folder)
        with os.fdopen(handle, "wb") as file:
            file.write(prepared_data)
        os.replace(temporary, target)
    except OSError as exc:
        if "temporary" in locals() and os.path.exists(temporary):
            os.unlink(temporary)
        raise PrepareError(f"{target}: cannot write ({exc.strerror or exc})") from None
    return prepared
