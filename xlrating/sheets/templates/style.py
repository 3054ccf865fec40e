"""The look shared by every workbook template: colours, fonts, input and result cells, printing.

One convention throughout: yellow cells are typed in, grey cells are computed, dark blue is a
header. Formulas that call xlrating's functions are guarded with ``IF`` so that unused rows stay
blank (and so that a program that does not know the functions, such as LibreOffice, shows blanks
rather than ``#NAME?`` in an empty template).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from xlrating.hosts.xlwings_udfs import MODULE_NAME

INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")
RESULT_FILL = PatternFill("solid", fgColor="EDEDED")
HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
FONT = "Calibri"  # openpyxl's default body font; named so every program picks the same face
HEADER_FONT = Font(name=FONT, bold=True, color="FFFFFF")
TITLE_FONT = Font(name=FONT, bold=True, size=16, color="1F4E78")
NOTE_FONT = Font(name=FONT, italic=True, size=9, color="595959")
LABEL_FONT = Font(name=FONT, bold=True)
RESULT_FONT = Font(name=FONT, bold=True, color="1F4E78")
_EDGE = Side(style="thin", color="BFBFBF")
BOX = Border(left=_EDGE, right=_EDGE, top=_EDGE, bottom=_EDGE)
WRAP = Alignment(wrap_text=True, vertical="top")
CENTRE = Alignment(horizontal="center")
LEFT = Alignment(horizontal="left")

DATE_FORMAT = "yyyy-mm-dd"
TEXT_FORMAT = "@"


def title(ws: Worksheet, text: str, note: str) -> None:
    """Row 1: the title; row 2: one short line telling the user what to do; row 3 stays empty."""
    ws["A1"] = text
    ws["A1"].font = TITLE_FONT
    ws.row_dimensions[1].height = 24
    notes(ws, 2, (note,))


def widths(ws: Worksheet, columns: Sequence[float]) -> None:
    for index, width in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(index)].width = width


def header(ws: Worksheet, row: int, names: Sequence[str], first_column: int = 1) -> None:
    for offset, name in enumerate(names):
        cell = ws.cell(row, first_column + offset, name)
        cell.font, cell.fill, cell.border = HEADER_FONT, HEADER_FILL, BOX
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)


def label(ws: Worksheet, ref: str, text: str) -> None:
    ws[ref] = text
    ws[ref].font = LABEL_FONT


def input_cell(ws: Worksheet, ref: str, number_format: str | None = None, value: Any = None) -> None:
    """A yellow cell to type in; left-aligned so that a block of texts, dates and numbers lines up."""
    cell = ws[ref]
    cell.value = value
    cell.fill, cell.border, cell.alignment = INPUT_FILL, BOX, LEFT
    if number_format:
        cell.number_format = number_format


def result_cell(ws: Worksheet, ref: str, formula: str, number_format: str | None = None) -> None:
    cell = ws[ref]
    cell.value = formula
    cell.fill, cell.border, cell.font = RESULT_FILL, BOX, RESULT_FONT
    if number_format:
        cell.number_format = number_format


def style_range(ws: Worksheet, cells: str, *, fill: PatternFill, number_format: str | None = None,
                alignment: Alignment | None = None, font: Font | None = None) -> None:
    for row in ws[cells]:
        for cell in row:
            cell.fill, cell.border = fill, BOX
            if number_format:
                cell.number_format = number_format
            if alignment:
                cell.alignment = alignment
            if font:
                cell.font = font


def validation(ws: Worksheet, cells: str, kind: str, *, formula1: str | None = None, formula2: str | None = None,
               operator: str | None = None, prompt: str, error: str, title_text: str,
               stop: bool = True) -> DataValidation:
    """Data validation with an input message (shown on selecting the cell) and an error message."""
    rule = DataValidation(type=kind, formula1=formula1, formula2=formula2, operator=operator, allow_blank=True,
                          showInputMessage=True, showErrorMessage=True, promptTitle=title_text[:32],
                          prompt=prompt[:255], errorTitle=title_text[:32], error=error[:255],
                          errorStyle="stop" if stop else "warning")
    rule.add(cells)
    ws.add_data_validation(rule)
    return rule


def notes(ws: Worksheet, first_row: int, lines: Iterable[str], column: str = "A") -> int:
    """Write help lines down one column; return the next free row."""
    row = first_row
    for line in lines:
        ws[f"{column}{row}"] = line
        ws[f"{column}{row}"].font = NOTE_FONT
        row += 1
    return row


def print_setup(ws: Worksheet, area: str, *, landscape: bool = False, title_rows: str | None = None) -> None:
    """A4, one page wide, the given print area, repeated header rows, file name and page numbers."""
    ws.print_area = area
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.print_options.horizontalCentered = True
    if title_rows:
        ws.print_title_rows = title_rows
    ws.oddFooter.left.text = "&A"
    ws.oddFooter.right.text = "Page &P of &N"


def xlwings_conf_sheet(wb: Workbook) -> Worksheet:
    """The ``xlwings.conf`` sheet: xlwings reads settings from A1:B<n> (key, value; no header)."""
    ws = wb.create_sheet("xlwings.conf")
    ws["A1"], ws["B1"] = "UDF Modules", MODULE_NAME
    ws["D1"] = "xlwings reads its settings for this workbook from columns A:B of this sheet."
    ws["D2"] = "UDF Modules names the Python module with xlrating's functions (Import Functions)."
    ws["D1"].font = ws["D2"].font = NOTE_FONT
    widths(ws, (16, 32, 4, 80))
    print_setup(ws, "A1:D2", landscape=True)
    return ws
