"""Helpers for the tests of the explanation workbooks (``xlrating explain -o FILE.xlsx`` and the
explanation pages' .xlsx): their formulas, the functions those call, and the workbook with every
formula's stored value removed, so that whatever opens it must compute them."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from xlrating.sheets.explain import dci as dci_sheet
from xlrating.sheets.explain import dippouch as dippouch_sheet
from xlrating.sheets.explain import mers as mers_sheet

# Functions Excel 2010, LibreOffice 7 and Google Sheets all have (as the plain templates use them)
EVERY_SPREADSHEET = {"IF", "AND", "OR", "IFERROR", "ISERROR", "ISNUMBER", "ISTEXT", "ISLOGICAL", "TRIM", "LOWER",
                     "UPPER", "SUBSTITUTE", "CHAR", "LEFT", "RIGHT", "INT", "ABS", "ROUND", "MIN", "MAX", "SUM",
                     "COUNT", "SUMPRODUCT", "INDEX", "MATCH", "YEAR", "DATE", "EDATE", "NA"}
SHEET = "Explanation"
RATING_CELL = {"mers": mers_sheet.TOTAL, "dippouch": dippouch_sheet.RATING, "dci": dci_sheet.RATING}
VALUE = {"mers": "total", "dippouch": "rating", "dci": "rating"}


def formulas(wb: Any) -> dict[str, str]:
    """Every cell formula of the workbook by ``Sheet!A1``."""
    return {f"{ws.title}!{c.coordinate}": c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")}


def functions(formula: str) -> set[str]:
    """The names of the functions a formula calls (text in quotes aside)."""
    return set(re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", re.sub(r'"[^"]*"', '""', formula)))


def not_plain(formula: str) -> bool:
    """True for a formula naming one of xlrating's functions or an add-in's (``_xll.``, ``_xldudf_``)."""
    return bool(re.search(r"_xl(fn|l|udf)|DIPPOUCH_|DCI_|MERS_", formula, re.IGNORECASE))


def without_values(xlsx: bytes) -> bytes:
    """The workbook with every formula's stored value removed."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = re.sub(rb'(<c [^>]*?) t="(?:str|b|e)"([^>]*><f>)', rb"\1\2", data)
                data = re.sub(rb"</f><v>[^<]*</v>", b"</f>", data)
            target.writestr(item, data)
    return out.getvalue()
