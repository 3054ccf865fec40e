"""Three small calculator workbooks, one per rating system, built on xlrating's Excel functions.

- Dip Pouch event sheet: an event's results in; each player's percentile and new rating out
  (docs/rating-rules.md section 1).
- DCI match calculator: two ratings, the event tier (K), the result; both players' change out
  (section 2).
- MERS personal ranking: one player's results in; the total under the 2005, 2010 and 2018 rules
  out (section 3).
"""

from __future__ import annotations

from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from xlrating.core.reference_data import load
from xlrating.sheets.templates import style

DIPPOUCH_FILE = "dippouch_event.xlsx"
DCI_FILE = "dci_match_calculator.xlsx"
MERS_FILE = "mers_personal_ranking.xlsx"


def _workbook(sheet_title: str) -> tuple[Workbook, Worksheet]:
    wb = Workbook()
    ws = wb.active
    ws.title = sheet_title
    return wb, ws


def _block(ws: Worksheet, first_row: int, rows: tuple[tuple[str, str | None], ...]) -> dict[str, str]:
    """Labelled input cells in A/B; returns label -> value cell reference."""
    refs = {}
    for offset, (name, number_format) in enumerate(rows):
        row = first_row + offset
        style.label(ws, f"A{row}", name)
        style.input_cell(ws, f"B{row}", number_format)
        refs[name] = f"B{row}"
    return refs


# --- Dip Pouch ----------------------------------------------------------------------------------------

DIPPOUCH_ROWS = 100


def dippouch_event() -> Workbook:
    wb, ws = _workbook("Event")
    style.title(ws, "Dip Pouch rating: one event",
                "Fill in the event and each player's place and prior rating (empty: new player, 40).")
    style.widths(ws, (24, 12, 14, 12, 12, 10))
    ref = _block(ws, 4, (("Event", None), ("Date", style.DATE_FORMAT), ("Players", "0"), ("Rounds", "0"),
                         ("World Championship", None)))
    style.label(ws, "A9", "Tournament value (%)")
    players, rounds, date, wc = ref["Players"], ref["Rounds"], ref["Date"], ref["World Championship"]
    style.result_cell(ws, "B9", f'=IF(COUNT({players},{rounds})=2,DIPPOUCH_VALUE({players},{rounds},{wc}="Yes",'
                                f'IF({date}="","",YEAR({date}))),"")', "0.00")
    style.validation(ws, players, "whole", operator="between", formula1="1", formula2="10000",
                     prompt="Declared number of players N.", error="A whole number from 1.", title_text="Players")
    style.validation(ws, rounds, "whole", operator="between", formula1="1", formula2="100",
                     prompt="Rounds played (1 round: value N/7+2; more: N/3.5+2; capped at 15).",
                     error="A whole number from 1.", title_text="Rounds")
    style.validation(ws, wc, "list", formula1='"Yes,No"', prompt="Yes for a World Championship (value 20).",
                     error="Pick Yes or No.", title_text="World Championship")
    style.validation(ws, date, "date", operator="between", formula1="DATE(1990,1,1)", formula2="DATE(2100,12,31)",
                     prompt="Last day of the event; events before 2001 are worth 0.", error="Type a date.",
                     title_text="Date")

    header, first, last = 11, 12, 11 + DIPPOUCH_ROWS
    style.header(ws, header, ("Player", "Place", "Rating before", "Percentile", "New rating", "Change"))
    style.style_range(ws, f"A{first}:A{last}", fill=style.INPUT_FILL)
    style.style_range(ws, f"B{first}:B{last}", fill=style.INPUT_FILL, number_format="0", alignment=style.CENTRE)
    style.style_range(ws, f"C{first}:C{last}", fill=style.INPUT_FILL, number_format="0.000")
    style.style_range(ws, f"D{first}:F{last}", fill=style.RESULT_FILL, number_format="0.00")
    style.style_range(ws, f"E{first}:E{last}", fill=style.RESULT_FILL, number_format="0.000", font=style.RESULT_FONT)
    style.style_range(ws, f"F{first}:F{last}", fill=style.RESULT_FILL, number_format="+0.000;-0.000;0.000")
    p = players.replace("B", "$B$")
    value = "$B$9"
    for row in range(first, last + 1):
        before = f'IF($C{row}="",40,$C{row})'
        ws[f"D{row}"] = f'=IF(OR($B{row}="",{p}=""),"",DIPPOUCH_PERCENTILE({p},$B{row}))'
        ws[f"E{row}"] = f'=IF(OR($D{row}="",{value}=""),"",DIPPOUCH_NEW_RATING({before},$D{row},{value}))'
        ws[f"F{row}"] = f'=IF($E{row}="","",$E{row}-{before})'
    style.validation(ws, f"B{first}:B{last}", "whole", operator="between", formula1="1",
                     formula2=f'IF({p}="",10000,{p})', prompt="Place, 1 is best; tied players share the best place.",
                     error="A place is a whole number from 1 to the number of players.", title_text="Place")
    style.validation(ws, f"C{first}:C{last}", "decimal", operator="between", formula1="0", formula2="100",
                     prompt="Rating before the event; leave empty for a new player (40).",
                     error="A rating is a number from 0 to 100.", title_text="Rating before")
    ws.freeze_panes = f"A{first}"
    style.print_setup(ws, f"A1:F{last}", title_rows=f"{header}:{header}")
    style.xlwings_conf_sheet(wb)
    return wb


# --- DCI ----------------------------------------------------------------------------------------------

def dci_match_calculator() -> Workbook:
    wb, ws = _workbook("Match")
    style.title(ws, "DCI rating: one match",
                "Type both ratings, pick the tier and player A's result; the changes are computed.")
    style.widths(ws, (24, 14, 14, 4, 16, 8))
    ref = _block(ws, 4, (("Player A rating", "0"), ("Player B rating", "0"), ("Event tier", None),
                         ("Result for player A", None)))
    a, b, tier, result = (ref[n] for n in ("Player A rating", "Player B rating", "Event tier", "Result for player A"))
    tiers = load("dci_k_tiers.csv")
    style.label(ws, "A8", "K-value")
    style.result_cell(ws, "B8", f'=IF({tier}="",16,DCI_K({tier}))', "0")
    for cell, name in ((a, "Player A rating"), (b, "Player B rating")):
        style.validation(ws, cell, "decimal", operator="between", formula1="0", formula2="4000",
                         prompt="Rating before the match; a new player starts at 1600.",
                         error="A rating is a number, e.g. 1600.", title_text=name)
    style.validation(ws, tier, "list", formula1=f"$E$5:$E${4 + len(tiers)}",
                     prompt="The event's tier sets K (table at the right). Empty: regular, K 16.",
                     error="Pick a tier from the list.", title_text="Event tier")
    style.validation(ws, result, "list", formula1='"W,D,L"', prompt="W win, D draw, L loss, from player A's side.",
                     error="Pick W, D or L.", title_text="Result")

    style.header(ws, 10, ("", "Player A", "Player B"))
    rows = (("Win probability", "0.000"), ("Rating change", "+0.00;-0.00;0.00"), ("New rating", "0.00"))
    for offset, (name, number_format) in enumerate(rows):
        style.label(ws, f"A{11 + offset}", name)
    ready = f"AND(COUNT({a},{b})=2,{result}<>\"\")"
    style.result_cell(ws, "B11", f'=IF(COUNT({a},{b})=2,DCI_WIN_PROBABILITY({a},{b}),"")', rows[0][1])
    style.result_cell(ws, "C11", f'=IF(COUNT({a},{b})=2,DCI_WIN_PROBABILITY({b},{a}),"")', rows[0][1])
    style.result_cell(ws, "B12", f'=IF({ready},DCI_DELTA({a},{b},{result},$B$8),"")', rows[1][1])
    style.result_cell(ws, "C12", '=IF(B12="","",-B12)', rows[1][1])
    style.result_cell(ws, "B13", f'=IF(B12="","",{a}+B12)', rows[2][1])
    style.result_cell(ws, "C13", f'=IF(C12="","",{b}+C12)', rows[2][1])
    style.notes(ws, 15, ("Change = K x (W - p), W = 1 win, 0.5 draw, 0 loss; p = 1 / (1 + 10^((B - A) / 400)).",
                         "Player B changes by the negative of player A's change."))

    style.header(ws, 4, ("Event tier", "K"), first_column=5)
    for row, entry in enumerate(tiers, start=5):
        ws.cell(row, 5, entry["tier"]).border = style.BOX
        k = ws.cell(row, 6, int(entry["k"]))
        k.border, k.alignment = style.BOX, style.CENTRE
    ws.freeze_panes = "A4"
    style.print_setup(ws, "A1:F16", landscape=True)
    style.xlwings_conf_sheet(wb)
    return wb


# --- MERS ---------------------------------------------------------------------------------------------

MERS_ROWS = 40


def mers_personal_ranking() -> Workbook:
    wb, ws = _workbook("Ranking")
    style.title(ws, "MERS: my ranking",
                "List your tournaments of one ruleset; base ranks and totals per rule era are computed.")
    style.widths(ws, (30, 12, 10, 8, 9, 11, 3, 22, 12))
    ref = _block(ws, 4, (("Player", None), ("Ruleset", None), ("Ranking date", style.DATE_FORMAT)))
    style.validation(ws, ref["Ruleset"], "list", formula1='"MCR,Riichi"', prompt="MCR or Riichi: each is ranked "
                     "separately, list only that ruleset's tournaments.", error="Pick MCR or Riichi.",
                     title_text="Ruleset")
    style.validation(ws, ref["Ranking date"], "date", operator="between", formula1="DATE(2005,1,1)",
                     formula2="DATE(2100,12,31)", prompt="The day to rank on; empty: your latest result's date.",
                     error="Type a date.", title_text="Ranking date")
    header, first, last = 9, 10, 9 + MERS_ROWS
    style.header(ws, header, ("Tournament", "End date", "Players", "Place", "Weight", "Base rank"))
    style.style_range(ws, f"A{first}:A{last}", fill=style.INPUT_FILL)
    style.style_range(ws, f"B{first}:B{last}", fill=style.INPUT_FILL, number_format=style.DATE_FORMAT)
    style.style_range(ws, f"C{first}:D{last}", fill=style.INPUT_FILL, number_format="0", alignment=style.CENTRE)
    style.style_range(ws, f"E{first}:E{last}", fill=style.INPUT_FILL, number_format="0.0", alignment=style.CENTRE)
    style.style_range(ws, f"F{first}:F{last}", fill=style.RESULT_FILL, number_format="0", alignment=style.CENTRE)
    for row in range(first, last + 1):
        ws[f"F{row}"] = f'=IF(OR($C{row}="",$D{row}=""),"",MERS_BASE_RANK($C{row},$D{row},"round"))'
    style.validation(ws, f"D{first}:D{last}", "whole", operator="between", formula1="1", formula2=f"$C{first}",
                     prompt="Your final place, 1 is best.", error="A place is a whole number from 1 to Players.",
                     title_text="Place")
    style.validation(ws, f"E{first}:E{last}", "decimal", operator="between", formula1="0.5", formula2="10",
                     prompt="The tournament's MERS weight (before 2018: 1, 2 or 5; from 2018: 1 to 5).",
                     error="A weight is a number such as 1, 2 or 5.", title_text="Weight")

    base, weights, dates = (f"${c}${first}:${c}${last}" for c in ("F", "E", "B"))
    as_of = ref["Ranking date"]  # an empty cell reaches the function as "not given"
    style.header(ws, 4, ("Rules", "Total"), first_column=8)
    for offset, rules in enumerate(("2005", "2010", "2018")):
        row = 5 + offset
        style.label(ws, f"H{row}", f"{rules} rules")
        style.result_cell(ws, f"I{row}", f'=IF(COUNT({base})=0,"",MERS_RANKING({base},{weights},{dates},'
                                         f'{as_of},"{rules}"))', "0.00")
    style.label(ws, "H8", "Results listed")
    style.result_cell(ws, "I8", f"=COUNT({base})", "0")
    style.notes(ws, 10, ("#N/A: fewer than 2 results count.", "With fewer than 5, each missing result",
                         "counts as base rank 0, weight 1.", "Each ruleset is ranked separately."), column="H")
    ws.freeze_panes = f"A{first}"
    style.print_setup(ws, f"A1:I{last}", landscape=True, title_rows=f"{header}:{header}")
    style.xlwings_conf_sheet(wb)
    return wb
