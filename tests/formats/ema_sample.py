"""An EMA results workbook for the tests, built by code (as every test workbook is), in the EMA's
layout (xlrating/sheets/formats/ema_workbook.py), and the same tournaments as hand-made EMA results
sheets in the template's layout. Every player is invented."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

# (position, first name, last name, EMA ID as the EMA's workbook stores it (a number), table points,
#  score, EMA member, country)
MCR = [(1, "Camille", "Roux", 4060059, 18, 412, "Yes", "FRA"),
       (2, "Lukas", "Brenner", 5010023, 16, 250, "Yes", "GER"),
       (3, "Giulia", "Sartori", 7000114, 14, 198, "Yes", "ITA"),
       (4, "Mei", "Chen", None, 13, 120, "No", "CHN"),
       (5, "Ruben", "Vos", 8020007, 12, 77, "Yes", "NED"),
       (5, "Anouk", "Peeters", 2000311, 12, 77, "Yes", "BEL"),
       (7, "Erik", "Holm", 9000456, 9, -35, "Yes", "SWE"),
       (8, "Julien", "Marchal", 4060311, 8, -120, "Yes", "FRA")]
RIICHI = [(1, "Sofie", "Dahl", 3000021, 2.5, 98.3, "Yes", "DEN"),
          (2, "Thomas", "Wright", 11000412, 1.5, 40.1, "Yes", "GBR"),
          (3, "Ana", "Lopes", 12000033, 0.5, -12.0, "Yes", "POR"),
          (4, "Marta", "Ruiz", 10000870, -4.5, -126.4, "Yes", "ESP")]
TOURNAMENTS = {  # sheet -> (title, players, host, city, weight, ruleset, dates, days, results, start, end)
    "MCR Open Lyon": ("Lyon MCR Open 2023", 8, "FRA", "Lyon", 1.5, "MCR", "14-15 Jan. 2023", 2, MCR,
                      dt.date(2023, 1, 14), dt.date(2023, 1, 15)),
    "Riichi Porto": ("Porto Riichi Cup", 4, "POR", "Porto", 1.0, "Riichi", "30 Sep. - 1 Oct. 2023", 2, RIICHI,
                     dt.date(2023, 9, 30), dt.date(2023, 10, 1)),
}


def ema_workbook(path: Path) -> Path:
    """The EMA's workbook of both tournaments."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for sheet, (title, players, host, city, weight, ruleset, dates, days, results, _, _) in TOURNAMENTS.items():
        ws = book.create_sheet(sheet)
        for column, header in enumerate(["Tournament", "Players", "Position", "First name", "Last name", "EMA ID",
                                         "Table points", "Score", "EMA member", "Country", "", "Host country",
                                         "City", "MERS weight", "", "Ruleset", "Dates", "Days"], start=1):
            if header:
                ws.cell(1, column, header)
        for r, row in enumerate(results, start=2):
            for column, value in enumerate(row, start=3):
                if value is not None:
                    ws.cell(r, column, value)
        for column, value in ((1, title), (2, players), (12, host), (13, city), (14, weight), (16, ruleset),
                              (17, dates), (18, days)):
            ws.cell(3, column, value)
    book.save(path)
    return path


def hand_made_sheets(folder: Path) -> list[Path]:
    """The same tournaments typed as EMA results sheets in the template's layout."""
    from xlrating.sheets.examples.builders import build_workbook

    paths = []
    for sheet, (title, players, host, city, weight, ruleset, _, days, results, start, end) in TOURNAMENTS.items():
        block: list[tuple[str, Any]] = [("Tournament name", title), ("Ruleset", ruleset), ("City", city),
                                        ("Country", host), ("Start date", start), ("End date", end), ("Days", days),
                                        ("Players", players), ("MERS weight", weight)]
        rows = [(position, f"{ema:08d}" if ema else None, last, first, country, points, score)
                for position, first, last, ema, points, score, _, country in results]
        book = build_workbook(block, ["Position", "EMA ID", "Last name", "First name", "Country", "Table points",
                                      "Score"], rows)
        path = folder / f"{sheet}.xlsx"
        book.save(path)
        paths.append(path)
    return paths
