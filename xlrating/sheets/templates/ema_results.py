"""The EMA results reporting sheet: the workbook an organiser fills in and submits.

Layout (the labels are the standard ones that ``xlrating validate`` reads; see
docs/rating-rules.md, "What an EMA results reporting sheet carries"):

- a tournament block, labels in column A and values in column B (rows 4-14);
- the results table, header in row 16: Position, EMA ID, Last name, First name, Country, Table
  points, Score, and a computed Base rank;
- a ``Lists`` sheet (country codes for the drop-down).

Organisers fill it in with a bare Excel or LibreOffice, never with xlrating installed, so the
computed cells (the base rank of each row, the 2018 weight beside the MERS weight) are plain
spreadsheet formulas (:mod:`~xlrating.sheets.templates.mers_formulas`) that give what
``MERS_BASE_RANK(players, position, "round")`` and ``MERS_WEIGHT`` give. Unlike the other
templates it calls none of xlrating's functions and has no ``xlwings.conf`` sheet.
"""

from __future__ import annotations

from openpyxl.workbook import Workbook

from xlrating.core.reference_data import load
from xlrating.sheets.templates import mers_formulas, style

FILE_NAME = "ema_results_template.xlsx"
PLAYER_ROWS = 150
HEADER_ROW = 16
FIRST_ROW = HEADER_ROW + 1
LAST_ROW = HEADER_ROW + PLAYER_ROWS

# label, value format, input message
BLOCK: tuple[tuple[str, str | None, str], ...] = (
    ("Tournament name", None, "The tournament's full name, as it should appear in the ranking."),
    ("Ruleset", None, "MCR or Riichi (pick from the list)."),
    ("City", None, "City where the tournament was held."),
    ("Country", None, "Host country, 3-letter code (AUT, FRA, GER, ...)."),
    ("Start date", style.DATE_FORMAT, "First day of play, e.g. 2026-05-02."),
    ("End date", style.DATE_FORMAT, "Last day of play; the ranking dates results by this day."),
    ("Days", "0", "Number of days of play (1, 2, 3 ...); must match the dates."),
    ("Players", "0", "Declared number of players N, including players without an EMA ID."),
    ("Countries", "0", "Number of countries the players came from."),
    ("MERS weight", "0.0", ("Before 2018: 1 local, 2 national championship, 5 European/World championship. "
                            "From 2018 leave empty to use the weight computed from days, players, countries "
                            "and qualification (shown to the right).")),
    ("Qualification required", None, "Yes if players had to qualify for this tournament, otherwise No."),
)
FIRST_BLOCK_ROW = 4
ROW_OF = {name: FIRST_BLOCK_ROW + i for i, (name, _, _) in enumerate(BLOCK)}

# The 2018 weight computed from days, players, countries and qualification, beside the MERS weight.
WEIGHT_2018_CELL = f"C{ROW_OF['MERS weight']}"

COLUMNS = ("Position", "EMA ID", "Last name", "First name", "Country", "Table points", "Score", "Base rank")
WIDTHS = (23, 12, 22, 18, 10, 12, 10, 11)


def build() -> Workbook:
    wb = Workbook()
    ws = wb.active
    ws.title = "Results"
    style.title(ws, "EMA tournament results",
                "Fill in the yellow cells, one row per player; grey cells are computed. "
                "Select a cell to see what it expects.")
    style.widths(ws, WIDTHS)
    _block(ws)
    _table(ws)
    ws.freeze_panes = f"A{FIRST_ROW}"
    style.print_setup(ws, f"A1:H{LAST_ROW}", title_rows=f"{HEADER_ROW}:{HEADER_ROW}")
    _lists(wb)
    return wb


# label -> (validation type, formula1, formula2, error message); operator "between" unless noted
_RULES: dict[str, tuple[str, str | None, str | None, str]] = {
    "Tournament name": ("textLength", "1", "200", "Please type the tournament's name."),
    "Ruleset": ("list", '"MCR,Riichi"', None, "The ruleset is MCR or Riichi."),
    "City": ("textLength", "1", "100", "Please type the city."),
    "Country": ("textLength", "3", "3", "Use the 3-letter country code, e.g. AUT."),
    "Start date": ("date", "DATE(2005,1,1)", "DATE(2100,12,31)", "Type a date, e.g. 2026-05-02."),
    "End date": ("date", "DATE(2005,1,1)", "DATE(2100,12,31)", "Type a date, e.g. 2026-05-02."),
    "Days": ("whole", "1", "30", "Days is a whole number from 1."),
    "Players": ("whole", "2", "10000", "Players is a whole number, at least 2."),
    "Countries": ("whole", "1", "300", "Countries is a whole number from 1."),
    "MERS weight": ("decimal", "0.5", "10", "The MERS weight is a number such as 1, 2 or 5."),
    "Qualification required": ("list", '"Yes,No"', None, "Pick Yes or No."),
}


def _block(ws) -> None:  # type: ignore[no-untyped-def]
    for name, number_format, prompt in BLOCK:
        row = ROW_OF[name]
        style.label(ws, f"A{row}", name)
        style.input_cell(ws, f"B{row}", number_format)
        kind, formula1, formula2, error = _RULES[name]
        style.validation(ws, f"B{row}", kind, formula1=formula1, formula2=formula2,
                         operator=None if kind == "list" else "between", prompt=prompt, error=error,
                         title_text=name, stop=name != "Country")
    days, players, countries, qualification = (f"B{ROW_OF[n]}" for n in ("Days", "Players", "Countries",
                                                                          "Qualification required"))
    weight = ws[WEIGHT_2018_CELL]
    weight.value = "=" + mers_formulas.tournament_weight(days, players, countries, f'{qualification}="Yes"')
    weight.font, weight.number_format, weight.alignment = style.NOTE_FONT, '"2018 rules: "General', style.LEFT


def _table(ws) -> None:  # type: ignore[no-untyped-def]
    style.header(ws, HEADER_ROW, COLUMNS)
    ws.row_dimensions[HEADER_ROW].height = 20
    first, last = FIRST_ROW, LAST_ROW
    style.style_range(ws, f"A{first}:A{last}", fill=style.INPUT_FILL, number_format="0", alignment=style.CENTRE)
    style.style_range(ws, f"B{first}:B{last}", fill=style.INPUT_FILL, number_format=style.TEXT_FORMAT,
                      alignment=style.CENTRE)
    style.style_range(ws, f"C{first}:D{last}", fill=style.INPUT_FILL)
    style.style_range(ws, f"E{first}:E{last}", fill=style.INPUT_FILL, alignment=style.CENTRE)
    style.style_range(ws, f"F{first}:G{last}", fill=style.INPUT_FILL, number_format="General")
    style.style_range(ws, f"H{first}:H{last}", fill=style.RESULT_FILL, number_format="0", alignment=style.CENTRE)
    players = f"$B${ROW_OF['Players']}"
    for row in range(first, last + 1):
        ws[f"H{row}"] = "=" + mers_formulas.base_rank(players, f"$A{row}")

    style.validation(ws, f"A{first}:A{last}", "whole", operator="between", formula1="1",
                     formula2=f'IF({players}="",10000,{players})',
                     prompt="Final position, 1 is best. Tied players share the best place of the group "
                            "(6, 6, 8).", error="A position is a whole number from 1 to the number of players.",
                     title_text="Position")
    # Eight digits kept as text (the first two name the member country); "-" or empty: no EMA ID.
    style.validation(ws, f"B{first}:B{last}", "custom",
                     formula1=f'OR(B{first}="-",AND(ISTEXT(B{first}),LEN(B{first})=8,'
                              f'TEXT(--B{first},"00000000")=B{first}))',
                     prompt="8 digits, leading zeros included, e.g. 04060059. Leave empty or type - for a "
                            "player without an EMA ID.",
                     error="An EMA ID is 8 digits kept as text, e.g. 04060059 (not 4060059), or - for none.",
                     title_text="EMA ID")
    style.validation(ws, f"E{first}:E{last}", "list", formula1=f"Lists!$A$2:$A${1 + len(_countries())}",
                     prompt="3-letter country code (AUT, FRA, GER ...); other codes are allowed.",
                     error="Not an EMA member country code. Keep it anyway?", title_text="Country", stop=False)
    style.validation(ws, f"F{first}:G{last}", "decimal", operator="between", formula1="-1000000",
                     formula2="1000000", prompt="Table points and score (mahjong points) as numbers.",
                     error="Type a number.", title_text="Points")


def _countries() -> tuple[dict[str, str], ...]:
    return load("ema_countries.csv")


def _lists(wb: Workbook) -> None:
    ws = wb.create_sheet("Lists")
    style.header(ws, 1, ("Code", "Country", "EMA ID prefix"))
    for row, country in enumerate(_countries(), start=2):
        ws.cell(row, 1, country["code"])
        ws.cell(row, 2, country["country"])
        ws.cell(row, 3, country["prefix"]).number_format = style.TEXT_FORMAT
    style.widths(ws, (8, 18, 14))
    style.print_setup(ws, f"A1:C{1 + len(_countries())}")
