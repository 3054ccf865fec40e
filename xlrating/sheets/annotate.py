"""An annotated copy of a submitted workbook: each finding marked at its cell (a fill and a
comment) and a Findings sheet listing them all with links to the cells.

The submitter gets their own file back with the problems shown where they are, which is easier
to act on than a list of coordinates.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import os
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any

from xlrating.core.dates import to_excel_serial
from xlrating.sheets.findings import Finding
from xlrating.sheets.reader import SheetGrid
from xlrating.sheets.safe_open import load_workbook
from xlrating.sheets.submitted_file import SubmittedFile, open_submission, read_grids

# Errors and warnings in fills apart on screen and in grey print alike (red ~70% grey, amber ~82%),
# neither close to the light yellow of the templates' input cells (FFF2CC).
FILLS = {"error": "FF9999", "warning": "FFD27F"}
LEGEND = {"error": "must be corrected: a sheet with an error is not accepted (a cell with both is marked as one)",
          "warning": "check it: the sheet is accepted with it"}
FINDINGS_SHEET = "Findings"
TABLE_HEADER = ("Severity", "Code", "Sheet", "Cell", "Message")
TABLE_HEADER_ROW = 6  # rows 1-2: file, time and counts; 3-4: the legend; 5 empty
MESSAGE_CHARS = 74  # characters of a message on one printed line (the column is a little wider)
AUTHOR = "xlrating validate"
WIDEST_COLUMN = 60.0  # a sheet's column is widened to fit its cells, up to this width


def annotate_workbook(source: str | os.PathLike[str], findings: Sequence[Finding],
                      target: str | os.PathLike[str], *, checked_at: dt.datetime | None = None) -> Path:
    """Write ``target``: a copy of ``source`` with every finding marked; returns the path. The copy
    is an .xlsx whatever the format of ``source``; an .xls, .ods or .csv becomes its values and
    merged ranges (what the validator read), not its formatting or formulas. ``checked_at``: the
    time of the check the Findings sheet states (default: now)."""
    wb = annotated_workbook(open_submission(source), findings, checked_at=checked_at)
    out = Path(target)
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


def annotated_copy(submission: SubmittedFile, findings: Sequence[Finding], *,
                   checked_at: dt.datetime | None = None) -> bytes:
    """The annotated copy of an opened submission as the bytes of an .xlsx (nothing on disk)."""
    buffer = io.BytesIO()
    annotated_workbook(submission, findings, checked_at=checked_at).save(buffer)
    return buffer.getvalue()


def annotated_workbook(submission: SubmittedFile, findings: Sequence[Finding], *,
                       checked_at: dt.datetime | None = None) -> Any:
    """The openpyxl workbook of the annotated copy (see :func:`annotate_workbook`).

    Every sheet's columns are widened (never narrowed) to show their labels, numbers and dates
    whole; each finding's cell gets its severity's fill (an error's when it has both) and a
    comment; the Findings sheet comes first."""
    from openpyxl.comments import Comment

    if submission.kind == "xlsx":
        wb = load_workbook(submission.path, checked=submission.data)
    else:  # .xls, .ods, .csv: the copy is an .xlsx built from the same grids the validator read
        wb = workbook_from_grids(read_grids(submission))
    for ws in wb.worksheets:
        fit_columns(ws)
        _print_one_page_wide(ws)
    by_cell: dict[tuple[str, str], tuple[Any, list[Finding]]] = {}
    for f in findings:
        if f.sheet in wb.sheetnames:
            # Findings inside a merged range all land on its top-left cell, the one that can hold a comment.
            cell = _writable(wb[f.sheet], f.cell)
            by_cell.setdefault((f.sheet, cell.coordinate), (cell, []))[1].append(f)
    for cell, items in by_cell.values():
        cell.fill = severity_fill("error" if any(f.severity == "error" for f in items) else "warning")
        text = "\n".join(f"{f.severity.upper()} {f.code}: {f.message}" for f in items)
        comment = Comment(text, AUTHOR)
        comment.width, comment.height = 360, 40 + 60 * len(items)
        cell.comment = comment
    name = PurePath(submission.path).name
    _findings_sheet(wb, findings, name, checked_at or dt.datetime.now(dt.UTC))
    return wb


def severity_fill(severity: str) -> Any:
    from openpyxl.styles import PatternFill

    return PatternFill("solid", start_color=FILLS[severity], end_color=FILLS[severity])


def counts(findings: Sequence[Finding]) -> str:
    """``INVALID: 6 errors, 1 warning`` (or ``valid: ...``): the verdict and the counts."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors

    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return f"{'INVALID' if errors else 'valid'}: {plural(errors, 'error')}, {plural(warnings, 'warning')}"


def listed_findings(ws: Any) -> list[tuple[Any, ...]]:
    """The findings a Findings sheet lists, as (severity, code, sheet, cell, message) rows."""
    rows = ws.iter_rows(min_row=TABLE_HEADER_ROW + 1, max_col=len(TABLE_HEADER), values_only=True)
    return [row for row in rows if row[0]]


def _writable(ws: Any, ref: str) -> Any:
    """The cell at ``ref``, or the top-left cell of the merged range that covers it."""
    from openpyxl.cell.cell import MergedCell

    cell = ws[ref]
    if isinstance(cell, MergedCell):
        for merged in ws.merged_cells.ranges:
            if ref in merged:
                return ws.cell(merged.min_row, merged.min_col)
    return cell


def _text_cell(ws: Any, row: int, column: int, value: str) -> Any:
    """A cell holding ``value`` as text, never as a formula (a file or sheet may be named '=...')."""
    cell = ws.cell(row, column, value)
    cell.data_type = "s"
    return cell


def _findings_sheet(wb: Any, findings: Sequence[Finding], file_name: str, checked_at: dt.datetime) -> None:
    from openpyxl.styles import Alignment, Font

    from xlrating.sheets.templates.style import FONT, print_setup

    title = FINDINGS_SHEET
    while title in wb.sheetnames:
        title = f"{title} (xlrating)"
    ws = wb.create_sheet(title, 0)
    _text_cell(ws, 1, 1, f"Findings of xlrating validate: {file_name}").font = Font(name=FONT, bold=True, size=14)
    ws.row_dimensions[1].height = 21
    when = checked_at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    verdict = _text_cell(ws, 2, 1, f"Checked {when}. {counts(findings)}")
    verdict.font = Font(name=FONT, bold=True, color="C00000" if any(f.severity == "error" for f in findings) else "375623")
    for row, (severity, meaning) in enumerate(LEGEND.items(), start=3):
        key = _text_cell(ws, row, 1, severity)
        key.fill = severity_fill(severity)
        _text_cell(ws, row, 2, meaning)
    for column, heading in enumerate(TABLE_HEADER, start=1):
        _text_cell(ws, TABLE_HEADER_ROW, column, heading).font = Font(name=FONT, bold=True)
    wrap = Alignment(wrap_text=True, vertical="top")
    row = TABLE_HEADER_ROW
    for f in findings:
        row += 1
        for column, value in enumerate((f.severity, f.code, f.sheet, f.cell, f.message), start=1):
            _text_cell(ws, row, column, value).alignment = wrap
        ws.cell(row, 1).fill = severity_fill(f.severity)
        link = ws.cell(row, 4)
        quoted = f.sheet.replace("'", "''")  # a quote inside a sheet name is doubled in references
        link.hyperlink = f"#'{quoted}'!{f.cell}"
        link.font = Font(name=FONT, color="0563C1", underline="single")
        # rows are as tall as their wrapped message: spreadsheets do not grow a row for wrapped text
        # they only open, and a message would overprint the next
        ws.row_dimensions[row].height = 15 * max(1, -(-len(f.message) // MESSAGE_CHARS))
    if not findings:
        _text_cell(ws, row + 1, 5, "No findings: the sheet is valid.")
    # On screen and on paper alike: one page wide (A4 landscape), the message column wrapped so no
    # message runs off the page, the header row repeated on every page. Codes and sheet names are
    # shown whole; the title lines above run across the empty cells to their right.
    fixed = {"A": 9.0, "B": 26.0, "C": 14.0, "D": 7.0, "E": MESSAGE_CHARS + 6.0}
    for column, letter in ((2, "B"), (3, "C"), (4, "D")):
        widest = max((text_width(str(ws.cell(r, column).value or "")) for r in range(TABLE_HEADER_ROW, row + 1)),
                     default=0.0)
        fixed[letter] = min(max(fixed[letter], widest), WIDEST_COLUMN)
    for letter, width in fixed.items():
        ws.column_dimensions[letter].width = width
    ws.freeze_panes = f"A{TABLE_HEADER_ROW + 1}"
    print_setup(ws, f"A1:E{ws.max_row}", landscape=True, title_rows=f"{TABLE_HEADER_ROW}:{TABLE_HEADER_ROW}")


# --- column widths -----------------------------------------------------------------------------

# A character's width in units of a column width (the width of "0" in the body font), generous
# enough for the substitutes spreadsheets use where Calibri is missing (DejaVu Sans is wider).
_NARROW, _WIDE = set("iljtfrI.,;:'!|()[] -/"), set("MWmw@%")


def text_width(text: str, *, bold: bool = False, size: float = 11.0) -> float:
    """The column width that shows ``text`` whole in a font of ``size`` points, with a margin."""
    units = sum(0.55 if ch in _NARROW else 1.6 if ch in _WIDE else 1.25 if ch.isupper() else 1.05
                for ch in text)
    return math.ceil(units * (1.1 if bold else 1.0) * size / 11.0 * 10) / 10 + 2.0  # tenths: as saved


def shown_text(cell: Any) -> str:
    """The text a spreadsheet shows for ``cell``: a number or date in the cell's number format."""
    value = cell.value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (dt.date, dt.datetime, dt.time, int, float)):
        from xlrating.engine.functions.text import format_text

        number = _serial(value)
        try:
            return format_text(number, cell.number_format or "General")
        except Exception:  # noqa: BLE001 - a format the formatter does not know: its value's own text
            return str(value)
    return "" if value is None else str(value)


def _serial(value: Any) -> float:
    if isinstance(value, dt.datetime):
        midnight = dt.datetime(value.year, value.month, value.day)
        return to_excel_serial(value.date()) + (value - midnight).total_seconds() / 86400
    if isinstance(value, dt.date):
        return float(to_excel_serial(value))
    if isinstance(value, dt.time):
        return (value.hour * 3600 + value.minute * 60 + value.second) / 86400
    return float(value)


def fit_columns(ws: Any) -> None:
    """Widen ``ws``'s columns (never narrow them) so numbers and dates show whole instead of ``###``
    and a text label is not cut by the value beside it. Merged and wrapped cells are left as they
    are; a text with empty cells to its right already shows whole."""
    from openpyxl.cell.cell import MergedCell

    merged_tops = {(m.min_row, m.min_col) for m in ws.merged_cells.ranges}
    needed: dict[int, float] = {}
    for row in ws.iter_rows():
        for cell in row:
            value = cell.value
            if value is None or isinstance(cell, MergedCell) or (cell.row, cell.column) in merged_tops \
                    or cell.alignment.wrap_text:
                continue
            if isinstance(value, str) and (not value.strip() or ws.cell(cell.row, cell.column + 1).value is None):
                continue  # it runs into the empty cell beside it
            width = text_width(shown_text(cell), bold=bool(cell.font.b), size=float(cell.font.sz or 11.0))
            needed[cell.column] = max(needed.get(cell.column, 0.0), width)
    for column, width in sorted(needed.items()):
        current = _covering(ws, column)
        if current is not None and current.hidden:
            continue
        if width > (current.width if current is not None and current.width else default_width(ws)):
            _own_dimension(ws, column, current).width = min(width, WIDEST_COLUMN)


def default_width(ws: Any) -> float:
    """The width of ``ws``'s columns that have none of their own (8.43 unless the sheet says)."""
    return float(ws.sheet_format.defaultColWidth or 8.43)


def _covering(ws: Any, column: int) -> Any:
    """The column dimension (``<col min max>``) that covers ``column``, or None."""
    from openpyxl.utils import column_index_from_string

    for dimension in ws.column_dimensions.values():
        low = dimension.min or column_index_from_string(dimension.index)
        if low <= column <= (dimension.max or low):
            return dimension
    return None


def _own_dimension(ws: Any, column: int, shared: Any) -> Any:
    """The column dimension of ``column`` alone: a dimension shared by a span of columns (``<col
    min="1" max="5">``) is split so that widening one column leaves the others as they were."""
    import copy

    from openpyxl.utils import get_column_letter

    if shared is not None and (shared.max or 0) > (shared.min or 0):
        del ws.column_dimensions[shared.index]
        for low, high in ((shared.min, column - 1), (column, column), (column + 1, shared.max)):
            if low <= high:
                part = copy.copy(shared)
                part.index = get_column_letter(low)
                part.min, part.max = low, high
                ws.column_dimensions[part.index] = part
    return ws.column_dimensions[get_column_letter(column)]


def _print_one_page_wide(ws: Any) -> None:
    """Print ``ws`` one page wide (as many pages down as it needs) unless it says how to print:
    widened columns must not push the last columns onto pages of their own."""
    properties = ws.sheet_properties.pageSetUpPr
    if (properties is not None and properties.fitToPage) or ws.page_setup.scale not in (None, 100):
        return
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def workbook_from_grids(grids: Sequence[SheetGrid]) -> Any:
    """An openpyxl workbook holding ``grids``: values at their cells, text always as text (never a
    formula), merged ranges merged."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for grid in grids:
        ws = wb.create_sheet(grid.name)
        for r, values in enumerate(grid.rows, start=1):
            for c, value in enumerate(values, start=1):
                if value is not None:
                    cell = ws.cell(r, c, value)
                    if isinstance(value, str):
                        cell.data_type = "s"  # '=...' in a CSV is text, as the validator read it
                    elif isinstance(value, dt.datetime) and value.time() == dt.time(0):
                        cell.number_format = "yyyy-mm-dd"  # a date, not a date at 00:00:00
        for min_row, min_col, max_row, max_col in grid.merged:
            ws.merge_cells(start_row=min_row, start_column=min_col, end_row=max_row, end_column=max_col)
    if not grids:
        wb.create_sheet("Sheet1")
    return wb
