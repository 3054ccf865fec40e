"""A public page's tables as a CSV file or an Excel workbook (see :class:`xlrating.web.pages.Page`).

- CSV: the page's first table, a header row of the JSON's keys, then one line per row; numbers
  in full precision (what the JSON holds), an empty field for no value. Text that a spreadsheet
  would run as a formula gets a leading ``'`` (:mod:`xlrating.sheets.csv_safety`).
- Excel: one sheet per table (the header row first, frozen, with a filter), then a sheet
  "About" with the page's title and settings. Text is always stored as text, never as a formula
  (openpyxl would otherwise take a name starting with ``=`` for one).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from starlette.responses import Response

from xlrating.sheets.csv_safety import neutralise_cell
from xlrating.web.pages import XLSX, Page, Table, attachment

SHEET_NAME_LENGTH = 31  # Excel's limit


def csv_text(page: Page, table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(table.columns)
    for row in page.rows(table):
        writer.writerow([_csv_value(row.get(column)) for column in table.columns])
    return out.getvalue()


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    return neutralise_cell(value)


def csv_response(page: Page, stem: str) -> Response:
    if not page.tables:
        return Response("This page has no table to download as CSV; its JSON holds all it shows.\n", 404,
                        media_type="text/plain")
    # UTF-8 with a byte-order mark: Excel then reads accented names right when the file is opened
    body = "\ufeff" + csv_text(page, page.tables[0])
    return Response(body.encode("utf-8"), media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": attachment(f"{stem}.csv"), "access-control-allow-origin": "*"})


def xlsx_bytes(page: Page) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    for table in page.tables:
        sheet = book.create_sheet(table.title[:SHEET_NAME_LENGTH])
        rows = page.rows(table)
        for j, column in enumerate(table.columns, start=1):
            sheet.cell(1, j, column).font = Font(bold=True)
            longest = max([len(column), *(len(_shown(row.get(column))) for row in rows)])
            sheet.column_dimensions[get_column_letter(j)].width = min(longest + 3, 60)
        for i, row in enumerate(rows, start=2):
            for j, column in enumerate(table.columns, start=1):
                _put(sheet.cell(i, j), row.get(column))
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = f"A1:{get_column_letter(max(len(table.columns), 1))}{len(rows) + 1}"
    about = book.create_sheet("About")
    about.append(["page", page.title])
    for key, value in page.data.items():
        if value is None or isinstance(value, (str, int, float)):
            _put(about.cell(about.max_row + 1, 2), value)
            about.cell(about.max_row, 1, key)
    about.column_dimensions["A"].width = 16
    about.column_dimensions["B"].width = 60
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _put(cell: Any, value: Any) -> None:
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"  # a name like "=HYPERLINK(...)" stays text
    elif isinstance(value, float):
        cell.number_format = "0.00"


def _shown(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else "" if value is None else str(value)


def xlsx_response(page: Page, stem: str) -> Response:
    return Response(xlsx_bytes(page), media_type=XLSX,
                    headers={"content-disposition": attachment(f"{stem}.xlsx"), "access-control-allow-origin": "*"})
