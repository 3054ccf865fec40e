"""The calculator templates in plain spreadsheet formulas: they need nothing installed.

``dippouch_event_plain.xlsx``, ``dci_match_calculator_plain.xlsx`` and
``mers_personal_ranking_plain.xlsx`` have the layout of their siblings in :mod:`.calculators`
(same input and result cells), and each result cell holds the sibling's formula with every call
of an xlrating function replaced by a plain expression (:mod:`.plain_formulas`) giving the same
value, or the same error value, so they compute in Excel (any version from 2010, any platform),
LibreOffice, Google Sheets and Numbers alike. Beyond the siblings they offer what the Python API
offers: the DCI win-probability method ("formula" or FIDE's "table") and the MERS base-rank
rounding. A "Check" cell beside the results says in words what an error value is about. Working
cells that need room (the FIDE table and the tier names, the MERS ranking's sums) are on the same
sheet, the MERS ones in hidden columns, so each calculator is one sheet.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from openpyxl.workbook import Workbook

from xlrating.core.reference_data import load
from xlrating.sheets.templates import calculators, plain_mers, style
from xlrating.sheets.templates import plain_formulas as pf

DIPPOUCH_FILE = "dippouch_event_plain.xlsx"
DCI_FILE = "dci_match_calculator_plain.xlsx"
MERS_FILE = plain_mers.FILE_NAME

_NEEDS_NOTHING = plain_mers.NEEDS_NOTHING


# --- Dip Pouch ----------------------------------------------------------------------------------------

DIPPOUCH_ROWS = calculators.DIPPOUCH_ROWS
DIPPOUCH_FIRST = 12
DIPPOUCH_LAST = DIPPOUCH_FIRST + DIPPOUCH_ROWS - 1


def dippouch_event() -> Workbook:
    """The sibling's "Event" sheet, with a "Check" column (G) and an event check (C9)."""
    wb = calculators.dippouch_event()
    del wb["xlwings.conf"]
    ws = wb["Event"]
    style.notes(ws, 3, (_NEEDS_NOTHING,))
    players, rounds, date, wc = "$B$6", "$B$7", "$B$5", "$B$8"
    year, championship = f'IF({date}="","",YEAR({date}))', f'{wc}="Yes"'
    value = pf.dippouch_value(players, rounds, championship, year)
    ws["B9"] = f'=IF(COUNT({players},{rounds})=2,{value},"")'
    ws["C9"] = ('=IF(ISERROR(B9),"Players and Rounds: whole numbers from 1; Date: a date","")')
    ws["C9"].font = style.NOTE_FONT
    style.widths(ws, (24, 12, 14, 12, 12, 10, 44))
    style.header(ws, 11, ("Check",), first_column=7)
    style.style_range(ws, f"G{DIPPOUCH_FIRST}:G{DIPPOUCH_LAST}", fill=style.RESULT_FILL)
    for row in range(DIPPOUCH_FIRST, DIPPOUCH_LAST + 1):
        before = f'IF($C{row}="",40,$C{row})'
        ws[f"D{row}"] = (f'=IF(OR($B{row}="",{players}=""),"",'
                         f"{pf.dippouch_percentile(players, f'$B{row}')})")
        ws[f"E{row}"] = f'=IF(OR($D{row}="",$B$9=""),"",{pf.dippouch_new_rating(before, f"$D{row}", "$B$9")})'
        ws[f"G{row}"] = (f'=IF(ISERROR($D{row}),"Place: a whole number from 1 to Players (B6)",'
                         f'IF(ISERROR($E{row}),IF(ISERROR($B$9),"See the tournament value (B9)",'
                         f'"Rating before: a number from 0 to 100, empty for a new player (40)"),""))')
        ws[f"G{row}"].font = style.NOTE_FONT
    ws.print_area = f"A1:G{DIPPOUCH_LAST}"
    return wb


# --- DCI ----------------------------------------------------------------------------------------------

FIDE_FIRST = 5  # the FIDE table in H:K, rows 5.. (gap from, gap to, H, L)
NAMES_FIRST = 5  # the tier names in M:N
WORK = "P"  # the DCI working cells: P5 K of the tier name, P6 W, P7 method code


def fide_rows() -> list[tuple[int, int | None, float, float]]:
    """(lowest gap, highest gap or None for "and more", p higher-rated, p lower-rated) per row of
    FIDE Table 8.1(b): a rating gap is rounded to whole points, as xlrating looks it up."""
    rows, lowest = [], 0
    for entry in load("fide_table_8_1b.csv"):
        top = None if entry["max_difference"] == "inf" else int(entry["max_difference"])
        rows.append((lowest, top, float(entry["H"]), float(entry["L"])))
        lowest = (top or 0) + 1
    return rows


def tier_names() -> list[tuple[str, float]]:
    """Every tier name xlrating accepts, as it matches it (lower case, single spaces), with K."""
    names = []
    for tier in load("dci_k_tiers.csv"):
        for name in (tier["tier"], *tier["aliases"].split("|")):
            names.append((" ".join(re.split(r"[\s_\-]+", name.strip().lower())), float(tier["k"])))
    return names


def dci_match_calculator() -> Workbook:
    """The sibling's "Match" sheet, with the win-probability method (B9) and a check (B14)."""
    wb = calculators.dci_match_calculator()
    del wb["xlwings.conf"]
    ws = wb["Match"]
    style.notes(ws, 3, (_NEEDS_NOTHING,))
    a, b, tier, result, k, method = "$B$4", "$B$5", "$B$6", "$B$7", "$B$8", "$B$9"
    fide, names = fide_rows(), tier_names()
    fide_last, names_last = FIDE_FIRST + len(fide) - 1, NAMES_FIRST + len(names) - 1
    gap_from, high, low = (f"${c}${FIDE_FIRST}:${c}${fide_last}" for c in ("H", "J", "K"))
    name_cells, k_cells = f"$M${NAMES_FIRST}:$M${names_last}", f"$N${NAMES_FIRST}:$N${names_last}"
    k_of_name, score, method_code = (f"${WORK}${row}" for row in (5, 6, 7))

    style.label(ws, "A9", "Method")
    style.input_cell(ws, "B9")
    style.validation(ws, "B9", "list", formula1='"formula,table"',
                     prompt="How p is found: formula (default, empty) 1/(1+10^((B-A)/400)), or table: FIDE "
                            "Table 8.1(b) by the rating gap (at the right).", error="Pick formula or table.",
                     title_text="Method")
    ws["B8"] = f'=IF({tier}="",16,{pf.dci_k(tier, k_of_name)})'
    ws["B11"] = f'=IF(COUNT({a},{b})=2,{pf.dci_win_probability(a, b, method_code, gap_from, high, low)},"")'
    ws["C11"] = f'=IF(COUNT({a},{b})=2,{pf.dci_win_probability(b, a, method_code, gap_from, high, low)},"")'
    change = pf.first_error(k, method, score, method_code, otherwise=f"{k}*({score}-B11)")
    ws["B12"] = f'=IF(AND(COUNT({a},{b})=2,{result}<>""),{change},"")'
    style.label(ws, "A14", "Check")
    ws["B14"] = ('=IF(ISERROR(B8),"Event tier: a name from the list at the right, or K as a number",'
                 'IF(ISERROR(B11),"Method: formula or table",'
                 'IF(ISERROR(B12),"Result for player A: W, D or L (or 1, 0.5, 0)","")))')
    ws["B14"].font = style.NOTE_FONT

    style.header(ws, 4, ("Gap from", "Gap to", "H", "L"), first_column=8)
    for row, (lowest, top, h, l_) in enumerate(fide, start=FIDE_FIRST):
        for column, value in enumerate((lowest, "and more" if top is None else top, h, l_), start=8):
            cell = ws.cell(row, column, value)
            cell.border, cell.alignment = style.BOX, style.CENTRE
    style.header(ws, 4, ("Tier name", "K"), first_column=13)
    for row, (name, k_value) in enumerate(names, start=NAMES_FIRST):
        ws.cell(row, 13, name).border = style.BOX
        ws.cell(row, 14, k_value).border = style.BOX
    ws[f"{WORK}4"] = "Working"
    ws[f"{WORK}4"].font = style.NOTE_FONT
    key = pf.dci_tier_key(tier)
    ws[k_of_name.replace("$", "")] = f"=SUMPRODUCT(({name_cells}={key})*{k_cells})"
    ws[score.replace("$", "")] = f"={pf.dci_score(result)}"
    ws[method_code.replace("$", "")] = f"={pf.dci_method(method)}"
    style.notes(ws, 15, (("Change = K x (W - p), W = 1 win, 0.5 draw, 0 loss; p by the formula "
                          "1 / (1 + 10^((B - A) / 400)) or FIDE's table."),
                         ("Player B changes by the negative of player A's change. Tier names: column M; "
                          "Table 8.1(b): columns H:K.")))
    style.widths(ws, (24, 14, 14, 4, 16, 8, 3, 9, 9, 6, 6, 3, 24, 6, 3, 10))
    ws.column_dimensions[WORK].hidden = True
    return wb


TEMPLATES: dict[str, Callable[[], Workbook]] = {
    DIPPOUCH_FILE: dippouch_event,
    DCI_FILE: dci_match_calculator,
    MERS_FILE: plain_mers.mers_personal_ranking,
}
