"""The calculator templates as LibreOffice Calc stores them with the add-in installed.

Excel and the xlwings add-in store a function by its name (``DCI_K(B6)``). LibreOffice stores an
add-in function as ``SERVICE.NAME`` (``xlrating.DCI_K(B6)``), and LibreOffice 7.4 does not map the
plain name in an .xlsx to the add-in (the cell shows ``#NAME?`` until the formula is typed again),
although the add-in offers it as the function's Excel name. :func:`for_libreoffice` rewrites a
workbook's formulas to LibreOffice's form, so the templates compute as soon as LibreOffice opens
them; ``xlrating convert`` reads either form and writes Excel's (the round trip is lossless).
"""

from __future__ import annotations

import io
import re
import zipfile

from xlrating.engine.formula_xml import rewrite_formulas
from xlrating.functions import BY_NAME

from .libreoffice import SERVICE_NAME

_NAMES = "|".join(sorted(BY_NAME, key=len, reverse=True))
# one of our functions called by its plain name (or an Excel add-in prefix), outside string literals
_PLAIN_CALL = re.compile(rf'("(?:[^"]|"")*")|(?<![\w.])(?:_xldudf_|_xll\.)?((?:{_NAMES})\()', re.IGNORECASE)


def calc_formula(text: str) -> str:
    """A formula's text with our functions named as LibreOffice stores them."""
    return _PLAIN_CALL.sub(lambda m: m.group(1) or f"{SERVICE_NAME}.{m.group(2).upper()}", text)


def for_libreoffice(xlsx: bytes) -> bytes:
    """The workbook ``xlsx`` (its bytes) with every worksheet formula in LibreOffice's form; every
    other byte of every part as it was."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                data = rewrite_formulas(data.decode("utf-8"), calc_formula).encode("utf-8")
            target.writestr(info, data)
    return out.getvalue()
