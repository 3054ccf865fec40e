"""The download formats of a public page, each a registered renderer (``.json``, ``.csv``, ``.xlsx``
after a page's path); a new format is one :func:`register_renderer` here, and every page has it.

- JSON: :attr:`Page.data` as it is, readable by any site's scripts.

- CSV: the page's first table, a header row of the JSON's keys, then one line per row; numbers
  in full precision (what the JSON holds), an empty field for no value. Text that a spreadsheet
  would run as a formula gets a leading ``'`` (:mod:`xlrating.gate.csv_safety`).
- Excel: one sheet per table (the header row first, frozen, with a filter), then a sheet
  "About" with the page's title and settings; or the workbook the page makes itself
  (:attr:`Page.workbook`: an explanation's formulas). Text is always stored as text, never as a formula
  (openpyxl would otherwise take a name starting with ``=`` for one).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.responses import JSONResponse, Response

from xlrating.gate.csv_safety import neutralise_cell
from xlrating.web.page import Page, Table

SHEET_NAME_LENGTH = 31  # Excel's limit
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
Renderer = Callable[[Page, str], Response]  # the page and its file name without the suffix -> the download


@dataclass(frozen=True)
class Download:
    suffix: str
    label: str  # how a page's link names it
    render: Renderer


RENDERERS: dict[str, Download] = {}


def register_renderer(suffix: str, label: str) -> Callable[[Renderer], Renderer]:
    """Serve every public page as ``path.SUFFIX`` through the decorated function."""
    def register(render: Renderer) -> Renderer:
        RENDERERS[suffix] = Download(suffix, label, render)
        return render
    return register


def attachment(name: str) -> str:
    """A Content-Disposition downloading as ``name``, safe in any browser (RFC 6266 with an ASCII fallback)."""
    ascii_name = "".join(ch if ch.isascii() and ch.isprintable() and ch not in '"\\;' else "_" for ch in name)
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"


def json_response(data: Any, status_code: int = 200, *, public: bool = False) -> JSONResponse:
    """JSON; ``public`` data (rankings, players, tournaments) may be read by any site's scripts."""
    return JSONResponse(data, status_code=status_code, headers={"access-control-allow-origin": "*"} if public else {})


@register_renderer("json", "JSON")
def json_download(page: Page, stem: str) -> Response:
    return json_response(page.data, public=True)


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


@register_renderer("csv", "CSV")
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


@register_renderer("xlsx", "Excel")
def xlsx_response(page: Page, stem: str) -> Response:
    return Response(page.workbook() if page.workbook is not None else xlsx_bytes(page), media_type=XLSX,
                    headers={"content-disposition": attachment(f"{stem}.xlsx"), "access-control-allow-origin": "*"})
