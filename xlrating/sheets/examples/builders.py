"""Build EMA results reporting workbooks in the layouts real submitters use.

Used by the bundled example generator and by the tests, so that every test sheet is built by code
rather than committed as a hand-made binary. Layouts:

- ``template``: the tournament block (label, value) from A1 down, a blank row, then the table;
- ``beside``: a title, the header on row 3 and the block in columns J:K beside the table;
- ``own_sheet``: the block on a sheet called "Tournament", the table on "Results" from row 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LAYOUTS = ("template", "beside", "own_sheet")


def build_workbook(block: Sequence[tuple[str, Any]], header: Sequence[str], rows: Sequence[Sequence[Any]],
                   layout: str = "template", *, title: str = "Results") -> Any:
    """An openpyxl workbook holding ``block`` and the table (``header`` + ``rows``) in ``layout``."""
    import openpyxl

    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected one of {', '.join(LAYOUTS)}, got {layout!r}")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    if layout == "template":
        for label, value in block:
            ws.append([label, value])
        ws.append([])
        start = len(block) + 2
    elif layout == "beside":
        ws.append([title])
        ws.append([])
        for i, (label, value) in enumerate(block):
            ws.cell(3 + i, len(header) + 3, label)
            ws.cell(3 + i, len(header) + 4, value)
        start = 3
    else:
        info = wb.create_sheet("Tournament", 0)
        for label, value in block:
            info.append([label, value])
        start = 1
    for c, name in enumerate(header, start=1):
        ws.cell(start, c, name)
    for r, row in enumerate(rows, start=start + 1):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    return wb
