"""The Dip Pouch rating in live formulas (docs/rating-rules.md section 1), one sheet: the player,
the tie policy (B6) and the starting rating (B7); one row per event from row 13 in the order rated,
its inputs in A:H as values, then the place scored, the percentile, the value
(``DIPPOUCH_VALUE``'s plain form), the rating before (the row above's after, or B7) and after
(``DIPPOUCH_NEW_RATING``'s plain form) and the change; B10 the rating, the last row's after."""

from __future__ import annotations

from openpyxl.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from xlrating.core.explanation import Explanation
from xlrating.sheets.explain.book import widths
from xlrating.sheets.explain.cells import FINE_FORMAT, LABEL_FONT, Cells
from xlrating.sheets.templates import plain_formulas as pf

FIRST = 13
TIES, START = "$B$6", "$B$7"
RATING = "B10"
COLUMNS = ("#", "Event", "Date", "Players", "Rounds", "World Championship", "Place", "Players at this place",
           "Place scored", "Percentile", "Value", "Rating before", "Rating after", "Change")
INPUTS = ("number", "event", "date", "players", "rounds", "world_championship", "place", "tied")


def write(cells: Cells, explanation: Explanation, wb: Workbook) -> list[Cells]:
    for row, label in enumerate(("Player", "Ties (best or average)", "Starting rating"), start=5):
        cells.text(f"A{row}", label, LABEL_FONT)
    cells.given("B5", explanation.player)
    cells.given("B6", explanation.setting("ties"))
    cells.given("B7", explanation.setting("start"))
    rule = DataValidation(type="list", formula1='"best,average"', allow_blank=True)
    rule.add("B6")
    cells.ws.add_data_validation(rule)
    rows = explanation.rows
    last = FIRST + len(rows) - 1
    for r, values in enumerate(rows, start=FIRST):
        for column, key in zip("ABCDEFGH", INPUTS):
            cells.given(f"{column}{r}", values[key])
        cells.derived(f"I{r}", f'IF({TIES}="average",$G{r}+($H{r}-1)/2,$G{r})', values["scored_place"])
        cells.derived(f"J{r}", f"($D{r}+0.5-$I{r})/$D{r}*100", values["percentile"])
        cells.derived(f"K{r}", pf.dippouch_value(f"$D{r}", f"$E{r}", f"$F{r}", f"YEAR($C{r})"), values["value"])
        cells.derived(f"L{r}", START if r == FIRST else f"$M{r - 1}", values["rating_before"])
        cells.derived(f"M{r}", pf.dippouch_new_rating(f"$L{r}", f"$J{r}", f"$K{r}"), values["rating_after"], FINE_FORMAT)
        cells.derived(f"N{r}", f"$M{r}-$L{r}", values["change"])
    cells.text("A9", "Events rated", LABEL_FONT)
    cells.derived("B9", f"COUNT($A${FIRST}:$A${last})", len(rows), "0")
    cells.text("A10", "Rating", LABEL_FONT)
    final = rows[-1]["rating_after"] if rows else explanation.setting("start")
    cells.derived(RATING, f"$M${last}" if rows else START, final, FINE_FORMAT, result=True)
    cells.header(FIRST - 1, COLUMNS)
    widths(cells, [22, 30, 11, 8, 8, 12, 7, 9, 8, 10, 8, 10, 10, 8])
    cells.ws.freeze_panes = f"C{FIRST}"
    return []
