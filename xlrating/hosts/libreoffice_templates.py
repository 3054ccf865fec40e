"""The calculator templates as LibreOffice Calc stores them with the add-in installed.

Excel and the xlwings add-in store a function by its name (``DCI_K(B6)``). LibreOffice stores an
add-in function as ``SERVICE.NAME`` (``xlrating.DCI_K(B6)``), and LibreOffice 7.4 does not map the
plain name in an .xlsx to the add-in (the cell shows ``#NAME?`` until the formula is typed again),
although the add-in offers it as the function's Excel name (LibreOffice 25.2 maps it).
:func:`for_libreoffice` rewrites a workbook's formulas to LibreOffice's form, as
``xlrating libreoffice prepare`` does (:mod:`.libreoffice_prepare`), so the templates compute as soon
as any LibreOffice opens them; ``xlrating convert`` reads either form and writes Excel's (the round
trip is lossless).
"""

from __future__ import annotations

from .libreoffice_prepare import calc_formula, prepare_bytes

__all__ = ["calc_formula", "for_libreoffice"]


def for_libreoffice(xlsx: bytes) -> bytes:
    """The workbook ``xlsx`` (its bytes) with every formula in LibreOffice's form; every other part
    as it was."""
    return prepare_bytes(xlsx)[0]
