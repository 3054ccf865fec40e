"""An annotated copy of a submitted workbook: each finding marked at its cell (a fill and a
comment) and a Findings sheet listing them all with links to the cells.

The submitter gets their own file back with the problems shown where they are, which is easier
to act on than a list of coordinates.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlrating.sheets.findings import Finding
from xlrating.sheets.reader import SheetGrid
from xlrating.sheets.safe_open import load_workbook
from xlrating.sheets.submitted_file import SubmittedFile, open_submission, read_grids

FILLS = {"error": "FFC7CE", "warning": "FFEB9C"}  # Excel's "bad" and "neutral" cell styles
FINDINGS_SHEET = "Findings"
MESSAGE_CHARS = 74  # characters of a message on one printed line (the column is a little wider)
AUTHOR = "xlrating validate"


def annotate_workbook(source: str | os.PathLike[str], findings: Sequence[Finding],
                      target: str | os.PathLike[str]) -> Path:
    """Write ``target``: a copy of ``source`` with every finding marked; returns the path. The copy
    is an .xlsx whatever the format of ``source``; an .xls, .ods or .csv becomes its values and
    merged ranges (what the validator read), not its formatting or formulas."""
    wb = annotated_workbook(open_submission(source), findings)
    out = Path(target)
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


def annotated_copy(submission: SubmittedFile, findings: Sequence[Finding]) -> bytes:
    """The annotated copy of an opened submission as the bytes of an .xlsx (nothing on disk)."""
    buffer = io.BytesIO()
    annotated_workbook(submission, findings).save(buffer)
    return buffer.getvalue()


def annotated_workbook(submission: SubmittedFile, findings: Sequence[Finding]) -> Any:
    """The openpyxl workbook of the annotated copy (see :func:`annotate_workbook`)."""
    from openpyxl.comments import Comment
    from openpyxl.styles import PatternFill

    if submission.kind == "xlsx":
        wb = load_workbook(submission.path, checked=submission.data)
    else:  # .xls, .ods, .csv: the copy is an .xlsx built from the same grids the validator read
        wb = workbook_from_grids(read_grids(submission))
    by_cell: dict[tuple[str, str], tuple[Any, list[Finding]]] = {}
    for f in findings:
        if f.sheet in wb.sheetnames:
            # Findings inside a merged range all land on its top-left cell, the one that can hold a comment.
            cell = _writable(wb[f.sheet], f.cell)
            by_cell.setdefault((f.sheet, cell.coordinate), (cell, []))[1].append(f)
    for cell, items in by_cell.values():
        worst = "error" if any(f.severity == "error" for f in items) else "warning"
        cell.fill = PatternFill("solid", start_color=FILLS[worst], end_color=FILLS[worst])
        text = "\n".join(f"{f.severity.upper()} {f.code}: {f.message}" for f in items)
        comment = Comment(text, AUTHOR)
        comment.width, comment.height = 360, 40 + 60 * len(items)
        cell.comment = comment
    _findings_sheet(wb, findings)
    return wb


def _writable(ws: Any, ref: str) -> Any:
    """The cell at ``ref``, or the top-left cell of the merged range that covers it."""
    from openpyxl.cell.cell import MergedCell

    cell = ws[ref]
    if isinstance(cell, MergedCell):
        for merged in ws.merged_cells.ranges:
            if ref in merged:
                return ws.cell(merged.min_row, merged.min_col)
    return cell


def _findings_sheet(wb: Any, findings: Sequence[Finding]) -> None:
    from openpyxl.styles import Alignment, Font

    from xlrating.sheets.templates.style import print_setup

    title = FINDINGS_SHEET
    while title in wb.sheetnames:
        title = f"{title} (xlrating)"
    ws = wb.create_sheet(title, 0)
    ws.append(["Severity", "Code", "Sheet", "Cell", "Message"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for f in findings:
        ws.append([f.severity, f.code, f.sheet, f.cell, f.message])
        link = ws.cell(ws.max_row, 4)
        quoted = f.sheet.replace("'", "''")  # a quote inside a sheet name is doubled in references
        link.hyperlink = f"#'{quoted}'!{f.cell}"
        link.font = Font(color="0563C1", underline="single")
    if not findings:
        ws.append(["", "", "", "", "No findings: the sheet is valid."])
    # On screen and on paper alike: one page wide (A4 landscape), the message column wrapped so no
    # message runs off the page, the header row repeated on every page.
    wrap = Alignment(wrap_text=True, vertical="top")
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = wrap
        # rows are as tall as their wrapped message: spreadsheets do not grow a row for wrapped text
        # they only open, and a message would overprint the next
        lines = max(1, -(-len(str(row[4].value or "")) // MESSAGE_CHARS))
        ws.row_dimensions[row[0].row].height = 15 * lines
    for column, width in zip("ABCDE", (9, 26, 14, 7, MESSAGE_CHARS + 6)):
        ws.column_dimensions[column].width = width
    ws.freeze_panes = "A2"
    print_setup(ws, f"A1:E{ws.max_row}", landscape=True, title_rows="1:1")


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
        for min_row, min_col, max_row, max_col in grid.merged:
            ws.merge_cells(start_row=min_row, start_column=min_col, end_row=max_row, end_column=max_col)
    if not grids:
        wb.create_sheet("Sheet1")
    return wb
