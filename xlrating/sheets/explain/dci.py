"""The DCI rating in live formulas (docs/rating-rules.md section 2), one sheet and FIDE's Table
8.1(b) on a second: the player, the category, the method (B7: formula or table; B8 its code as the
plain form of ``DCI_WIN_PROBABILITY`` reads it) and the starting rating (B9); one row per match from
row 15 in the order rated, its inputs in A:I as values (the opponent's rating then is an input: it
comes from the opponent's own matches), then the rating before (the row above's after, or B9), p,
the change K x (W - p) and the rating after (a bye: not rated); B12 the rating, the last row's after."""

from __future__ import annotations

from openpyxl.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from xlrating.core.explanation import Explanation
from xlrating.core.reference_data import load
from xlrating.sheets.explain.book import widths
from xlrating.sheets.explain.cells import FINE_FORMAT, LABEL_FONT, Cells
from xlrating.sheets.templates import plain_formulas as pf

FIRST = 15
METHOD, CODE, START = "$B$7", "$B$8", "$B$9"
RATING = "B12"
TABLE_SHEET = "FIDE table"
COLUMNS = ("#", "Date", "Event", "Round", "Opponent", "Rated (0: a bye)", "W", "K", "Opponent's rating",
           "Rating before", "p", "Change", "Rating after")
INPUTS = ("number", "date", "event", "round", "opponent", "rated", "result", "k", "opponent_rating")


def fide_rows() -> list[tuple[int, int | None, float, float]]:
    """(lowest gap, highest gap or None, p of the higher-rated, of the lower-rated) per row of the
    table xlrating reads (:mod:`xlrating.core.dci.rules`): a gap rounded to whole points is looked up."""
    rows, lowest = [], 0
    for entry in load("fide_table_8_1b.csv"):
        top = None if entry["max_difference"] == "inf" else int(entry["max_difference"])
        rows.append((lowest, top, float(entry["H"]), float(entry["L"])))
        lowest = (top or 0) + 1
    return rows


def write(cells: Cells, explanation: Explanation, wb: Workbook) -> list[Cells]:
    table = _fide_sheet(wb)
    labels = ("Player", "Category", "Method (formula or table)", "Method code (0 formula, 1 table)", "Starting rating")
    for row, label in enumerate(labels, start=5):
        cells.text(f"A{row}", label, LABEL_FONT)
    method = explanation.setting("method")
    cells.given("B5", explanation.player)
    cells.given("B6", explanation.setting("category"))
    cells.given("B7", method)
    cells.derived("B8", pf.dci_method(METHOD), 1 if method == "table" else 0, "0")
    cells.given("B9", explanation.setting("start"))
    rule = DataValidation(type="list", formula1='"formula,table"', allow_blank=True)
    rule.add("B7")
    cells.ws.add_data_validation(rule)
    rows = explanation.rows
    for r, values in enumerate(rows, start=FIRST):
        for column, key in zip("ABCDEFGHI", INPUTS):
            value = values[key]
            cells.given(f"{column}{r}", (1 if value else 0) if key == "rated" else value)
        cells.derived(f"J{r}", START if r == FIRST else f"$M{r - 1}", values["rating_before"], FINE_FORMAT)
        p = pf.dci_win_probability(f"$J{r}", f"$I{r}", CODE, *table)
        cells.derived(f"K{r}", f'IF($F{r}=1,{p},"")', values["expected"] if values["rated"] else "", FINE_FORMAT)
        cells.derived(f"L{r}", f'IF($F{r}=1,$H{r}*($G{r}-$K{r}),"")', values["change"] if values["rated"] else "",
                      FINE_FORMAT)
        cells.derived(f"M{r}", f"IF($F{r}=1,$J{r}+$L{r},$J{r})", values["rating_after"], FINE_FORMAT)
    last = FIRST + len(rows) - 1
    cells.text("A11", "Matches rated", LABEL_FONT)
    cells.derived("B11", f"SUM($F${FIRST}:$F${last})" if rows else "0", sum(1 for row in rows if row["rated"]), "0")
    cells.text("A12", "Rating", LABEL_FONT)
    final = rows[-1]["rating_after"] if rows else explanation.setting("start")
    cells.derived(RATING, f"$M${last}" if rows else START, final, FINE_FORMAT, result=True)
    cells.header(FIRST - 1, COLUMNS)
    widths(cells, [30, 11, 24, 7, 24, 9, 6, 6, 11, 11, 8, 9, 11])
    cells.ws.freeze_panes = f"C{FIRST}"
    return []


def _fide_sheet(wb: Workbook) -> tuple[str, str, str]:
    """FIDE's Table 8.1(b) on a sheet of its own; the ranges of its lowest gaps, H and L."""
    ws = wb.create_sheet(TABLE_SHEET)
    sheet = Cells(ws)
    sheet.header(1, ("Gap from", "Gap to", "H (higher-rated)", "L (lower-rated)"))
    rows = fide_rows()
    for r, (lowest, top, high, low) in enumerate(rows, start=2):
        for column, value in zip("ABCD", (lowest, "and more" if top is None else top, high, low)):
            sheet.given(f"{column}{r}", value)
    last = len(rows) + 1
    return tuple(f"'{TABLE_SHEET}'!${c}$2:${c}${last}" for c in "ACD")  # type: ignore[return-value]
