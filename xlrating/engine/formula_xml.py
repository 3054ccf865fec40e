"""Formula texts inside a worksheet's XML, rewritten in place.

Used where a workbook's formulas are renamed without parsing the sheet: ``xlrating convert`` writes
LibreOffice's names for our functions as Excel's, and ``xlrating libreoffice templates`` the other
way round. Light on purpose (only ``re`` and ``html``): the command line imports it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

_FORMULA_ELEMENT = re.compile(r"(<(?:\w+:)?f(?:\s[^>]*)?>)([^<]*)(</(?:\w+:)?f>)")


def rewrite_formulas(xml: str, change: Callable[[str], str]) -> str:
    """``xml`` with every ``<f>`` element's text replaced by ``change(text)`` (the text unescaped:
    quotes may be written ``&quot;``); an element ``change`` leaves alone keeps its bytes."""

    def one(match: re.Match[str]) -> str:
        text = html.unescape(match.group(2))
        changed = change(text)
        if changed == text:
            return match.group(0)
        escaped = changed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return match.group(1) + escaped + match.group(3)

    return _FORMULA_ELEMENT.sub(one, xml)
