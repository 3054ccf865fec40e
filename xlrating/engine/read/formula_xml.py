"""Formula texts inside a worksheet's XML, rewritten in place.

Used where a workbook's formulas are renamed without parsing the sheet: ``xlrating convert`` writes
LibreOffice's names for our functions as Excel's, and ``xlrating libreoffice templates`` the other
way round. Light on purpose (only ``re``): the command line imports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# XML's references (XML 1.0, section 4.1 and 4.6): the five predefined entities and character
# references, the only ones a well-formed part without a DTD can hold
_REFERENCE = re.compile(r"&(?:#([0-9]+)|#x([0-9A-Fa-f]+)|(lt|gt|amp|quot|apos));")
_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def _referenced(match: re.Match[str]) -> str:
    decimal, hexadecimal, entity = match.groups()
    if entity:
        return _ENTITIES[entity]
    return chr(int(decimal) if decimal else int(hexadecimal, 16))


def unescape_xml(text: str) -> str:
    """The character data of an XML element as written (``&lt;``, ``&#128;``) as its characters.
    Unlike ``html.unescape``, a character reference is the character of that number (``&#128;`` is
    U+0080, not HTML's euro sign); anything else is left as it is. Line ends are XML's: a carriage
    return written as such, alone or before a line feed, is a line feed (section 2.11; ``&#13;`` stays
    a carriage return), so a formula naming a table column ``[Amount<CR><LF>EUR]`` names the column
    whose header is ``Amount<LF>EUR``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "&" not in text:
        return text
    if "&#" in text:
        return _REFERENCE.sub(_referenced, text)
    # only named references: replaced in turn, "&amp;" last so that "&amp;lt;" stays "&lt;"
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'")
            .replace("&amp;", "&"))


_FORMULA_ELEMENT = re.compile(r"(<(?:\w+:)?f(?:\s[^>]*)?>)([^<]*)(</(?:\w+:)?f>)")


def rewrite_formulas(xml: str, change: Callable[[str], str]) -> str:
    """``xml`` with every ``<f>`` element's text replaced by ``change(text)`` (the text unescaped:
    quotes may be written ``&quot;``); an element ``change`` leaves alone keeps its bytes."""

    def one(match: re.Match[str]) -> str:
        text = unescape_xml(match.group(2))
        changed = change(text)
        if changed == text:
            return match.group(0)
        escaped = changed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return match.group(1) + escaped + match.group(3)

    return _FORMULA_ELEMENT.sub(one, xml)
