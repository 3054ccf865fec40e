"""Workbooks as Excel stores them, built from an openpyxl workbook (for the LibreOffice tests).

openpyxl writes a formula's text as given, so our functions are stored by their plain names, as
Excel stores a user-defined function (no ``_xlfn.``: that prefix is for Excel's own newer
functions). What openpyxl does not write is added to the package here, as Excel writes it:

- :func:`dynamic_arrays`: a spilling formula of Excel 365 is an array formula (``t="array"``) whose
  cell carries ``cm="1"``, pointing at the cell metadata part (``xl/metadata.xml``) that marks it
  dynamic (``XLDAPR``, ``dynamicArrayProperties fDynamic="1"``);
- :func:`addin_link`: a function taken from an add-in workbook (an .xlam, as xlwings' add-in is)
  is stored behind an external link to it, ``[1]!DCI_K(...)``, with the link's part.
"""

from __future__ import annotations

import io
import re
import zipfile

METADATA = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1">\
<metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" \
splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/>\
</metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">\
<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>\
<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>"""

LINK = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><externalBook r:id="rId1">\
<sheetNames><sheetName val="Sheet1"/></sheetNames><definedNames>%s</definedNames></externalBook></externalLink>"""

LINK_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" \
Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="%s" \
TargetMode="External"/></Relationships>"""

R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _parts(xlsx: bytes) -> tuple[list[zipfile.ZipInfo], dict[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(xlsx)) as archive:
        return archive.infolist(), {i.filename: archive.read(i) for i in archive.infolist()}


def _package(infos: list[zipfile.ZipInfo], parts: dict[str, bytes], added: list[str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in infos:
            archive.writestr(info, parts[info.filename])
        for name in added:
            archive.writestr(name, parts[name])
    return out.getvalue()


def _relate(parts: dict[str, bytes], rel_id: str, kind: str, target: str) -> None:
    rels = "xl/_rels/workbook.xml.rels"
    parts[rels] = parts[rels].replace(
        b"</Relationships>", f'<Relationship Id="{rel_id}" Type="{R}/{kind}" Target="{target}"/></Relationships>'.encode())


def _content_type(parts: dict[str, bytes], part: str, content_type: str) -> None:
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"</Types>", f'<Override PartName="/{part}" ContentType="{content_type}"/></Types>'.encode())


def dynamic_arrays(xlsx: bytes) -> bytes:
    """Every array formula of ``xlsx`` marked as a dynamic array, as Excel 365 stores a spill."""
    infos, parts = _parts(xlsx)
    for name in parts:
        if name.startswith("xl/worksheets/sheet"):
            parts[name] = re.sub(rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f t="array"', rb'<c r="\1"\2 cm="1"><f t="array"',
                                 parts[name])
    parts["xl/metadata.xml"] = METADATA
    _relate(parts, "rIdMeta1", "sheetMetadata", "metadata.xml")
    _content_type(parts, "xl/metadata.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml")
    return _package(infos, parts, ["xl/metadata.xml"])


def addin_link(xlsx: bytes, target: str, names: list[str]) -> bytes:
    """``xlsx`` with external link [1] to the add-in workbook ``target`` that defines ``names``
    (formulas call them as ``[1]!NAME(...)``)."""
    infos, parts = _parts(xlsx)
    link = "xl/externalLinks/externalLink1.xml"
    parts[link] = LINK % b"".join(f'<definedName name="{n}"/>'.encode() for n in names)
    parts["xl/externalLinks/_rels/externalLink1.xml.rels"] = LINK_RELS % target.encode()
    _relate(parts, "rIdLink1", "externalLink", "externalLinks/externalLink1.xml")
    _content_type(parts, link, "application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml")
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        b"</sheets>", f'</sheets><externalReferences><externalReference xmlns:r="{R}" r:id="rIdLink1"/>'
        f"</externalReferences>".encode(), 1)
    return _package(infos, parts, [link, "xl/externalLinks/_rels/externalLink1.xml.rels"])
