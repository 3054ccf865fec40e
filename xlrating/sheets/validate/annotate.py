"""An annotated copy of a submitted workbook: each finding marked at its cell (a fill and a
comment) and a Findings sheet listing them all with links to the cells.

The submitter gets their own file back with the problems shown where they are, which is easier
to act on than a list of coordinates.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any

from xlrating.gate.safe_open import load_workbook
from xlrating.sheets.read.submitted import SubmittedFile, open_submission, read_grids
from xlrating.sheets.read.xlsx import SheetGrid
from xlrating.sheets.validate.column_widths import WIDEST_COLUMN, fit_columns, text_width
from xlrating.sheets.validate.findings import Finding

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
