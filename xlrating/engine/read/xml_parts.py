"""The XML parts of a checked package as element trees, each parsed once per package.

Every part has been through the package gate (:mod:`xlrating.gate.package_guard`: no DTD, so no
entity to expand; well-formed) before a reader asks for it; the parser still resolves no entity and
reaches no network. The workbook's relationships, say, are read for its sheets, its shared strings,
its styles and its tables: :func:`root` parses them once and hands every reader that tree (which
readers only read), kept on the package's archive when it has room for them (``roots``).
"""

from __future__ import annotations

import zipfile
from typing import Any

from lxml import etree


def parser() -> Any:
    """lxml's parser as the readers use it: no entities resolved, no network, comments dropped."""
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def root(archive: zipfile.ZipFile, part: str) -> Any:
    """The root element of ``part``; raises what lxml and zipfile raise for a damaged part."""
    kept: dict[str, Any] | None = getattr(archive, "roots", None)
    if kept is not None and part in kept:
        return kept[part]
    found = etree.fromstring(archive.read(part), parser())
    if kept is not None:
        kept[part] = found
    return found


def has(archive: zipfile.ZipFile, part: str) -> bool:
    """Whether the package holds ``part`` (without listing every name it holds)."""
    try:
        archive.getinfo(part)
    except KeyError:
        return False
    return True


__all__ = ["has", "parser", "root"]
