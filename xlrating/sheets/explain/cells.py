"""Writing a worksheet of inputs and formulas whose values are stored with them.

openpyxl writes a formula without its value; :class:`Cells` keeps the value each formula computes
(what the explanation says it is) and :func:`with_values` puts them into the saved package, in the
``<v>`` element Excel and LibreOffice show before they recalculate.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

# The look of the workbook templates: yellow typed in, grey computed, dark blue headers.
GIVEN_FILL = PatternFill("solid", fgColor="FFF2CC")
DERIVED_FILL = PatternFill("solid", fgColor="EDEDED")
HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
HEADER_FONT = Font(name="Calibri", bold=True, color="FFFFFF")
TITLE_FONT = Font(name="Calibri", bold=True, size=14, color="1F4E78")
NOTE_FONT = Font(name="Calibri", italic=True, size=9, color="595959")
LABEL_FONT = Font(name="Calibri", bold=True)
RESULT_FONT = Font(name="Calibri", bold=True, color="1F4E78")
_EDGE = Side(style="thin", color="BFBFBF")
BOX = Border(left=_EDGE, right=_EDGE, top=_EDGE, bottom=_EDGE)
DATE_FORMAT = "yyyy-mm-dd"
NUMBER_FORMAT = "0.00"
FINE_FORMAT = "0.0000"


class ErrorValue(str):
    """An error value a formula computes (``#N/A``), stored as an error, not as text."""


NA = ErrorValue("#N/A")


class Cells:
    """One worksheet being written: :meth:`given` cells hold what the results say, :meth:`derived`
    cells a formula and the value it computes."""

    def __init__(self, ws: Worksheet):
        self.ws = ws
        self.values: dict[str, Any] = {}

    def given(self, ref: str, value: Any, number_format: str | None = None) -> None:
        cell = self.ws[ref]
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"  # a name starting with "=" stays a name
        cell.fill, cell.border = GIVEN_FILL, BOX
        if isinstance(value, dt.date):
            cell.number_format = DATE_FORMAT
        elif number_format:
            cell.number_format = number_format

    def derived(self, ref: str, formula: str, value: Any, number_format: str | None = NUMBER_FORMAT,
                *, result: bool = False) -> None:
        cell = self.ws[ref]
        cell.value = "=" + formula
        cell.fill, cell.border = DERIVED_FILL, BOX
        if result:
            cell.font = RESULT_FONT
        if number_format:
            cell.number_format = number_format
        self.values[ref] = value

    def text(self, ref: str, value: Any, font: Font | None = None) -> None:
        cell = self.ws[ref]
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"
        if font is not None:
            cell.font = font

    def header(self, row: int, titles: Sequence[str], first_column: int = 1) -> None:
        for offset, title in enumerate(titles):
            cell = self.ws.cell(row, first_column + offset, title)
            cell.font, cell.fill, cell.border = HEADER_FONT, HEADER_FILL, BOX
            cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)

    def notes(self, first_row: int, lines: Iterable[str]) -> int:
        row = first_row
        for line in lines:
            self.text(f"A{row}", line, NOTE_FONT)
            row += 1
        return row


def with_values(wb: Workbook, sheets: Sequence[Cells]) -> bytes:
    """The .xlsx of ``wb`` with every formula's value of ``sheets`` stored beside it."""
    raw = io.BytesIO()
    wb.save(raw)
    parts = {f"xl/worksheets/sheet{index}.xml": cells.values
             for index, ws in enumerate(wb.worksheets, start=1) for cells in sheets if cells.ws is ws}
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename in parts:
                data = _filled(data.decode("utf-8"), parts[item.filename]).encode("utf-8")
            target.writestr(item, data)
    return out.getvalue()


# A formula cell as openpyxl writes it: <c r="B5" s="3"><f>...</f><v></v></c> (or <v/>)
_FORMULA_CELL = re.compile(r'<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v\s*/>|<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)'
                           r'</f><v></v>')


def _filled(xml: str, values: dict[str, Any]) -> str:
    def fill(match: re.Match[str]) -> str:
        ref, attributes, formula = (match.group(1), match.group(2), match.group(3)) if match.group(1) else (
            match.group(4), match.group(5), match.group(6))
        kind, shown = _stored(values.get(ref))
        typed = f' t="{kind}"' if kind else ""
        return f'<c r="{ref}"{attributes}{typed}><f>{formula}</f><v>{shown}</v>'

    return _FORMULA_CELL.sub(fill, xml)


def _stored(value: Any) -> tuple[str | None, str]:
    """The cell type and ``<v>`` text of a formula's value."""
    if isinstance(value, ErrorValue):
        return "e", str(value)
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, (int, float)):
        return None, repr(float(value)) if isinstance(value, float) else str(value)
    if value is None:
        return "str", ""
    return "str", escape(str(value))
