"""Helpers for the tests of the explanation workbooks (``xlrating explain -o FILE.xlsx`` and the
explanation pages' .xlsx): their formulas, the functions those call, and the workbook with every
formula's stored value removed, so that whatever opens it must compute them."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from xlrating.sheets.explain import dci as dci_sheet
from xlrating.sheets.explain import dippouch as dippouch_sheet
from xlrating.sheets.explain import mers as mers_sheet

# Functions Excel 2010, LibreOffice 7 and Google Sheets all have (as the plain templates use them)
EVERY_SPREADSHEET = {"IF", "AND", "OR", "IFERROR", "ISERROR", "ISNUMBER", "ISTEXT", "ISLOGICAL", "TRIM", "LOWER",
                     "UPPER", "SUBSTITUTE", "CHAR", "LEFT", "RIGHT", "INT", "ABS", "ROUND", "MIN", "MAX", "SUM",
                     "COUNT", "SUMPRODUCT", "INDEX", "MATCH", "YEAR", "DATE", "EDATE", "NA"}
SHEET = "Explanation"
RATING_CELL = {"mers": mers_sheet.TOTAL, "dippouch": dippouch_sheet.RATING, "dci": dci_sheet.RATING}
VALUE = {"mers": "total", "dippouch": "rating", "dci": "rating"}


def formulas(wb: Any) -> dict[str, str]:
    """Every cell formula of the workbook by ``Sheet!A1``."""
    return {f"{ws.title}!{c.coordinate}": c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")}


def functions(formula: str) -> set[str]:
    """The names of the functions a formula calls (text in quotes aside)."""
    return set(re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", re.sub(r'"[^"]*"', '""', formula)))


def not_plain(formula: str) -> bool:
    """True for a formula naming one of xlrating's functions or an add-in's (``_xll.``, ``_xldudf_``)."""
    return bool(re.search(r"_xl(fn|l|udf)|DIPPOUCH_|DCI_|MERS_", formula, re.IGNORECASE))


def without_values(xlsx: bytes) -> bytes:
    """The workbook with every formula's stored value removed."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = re.sub(rb'(<c [^>]*?) t="(?:str|b|e)"([^>]*><f>)', rb"\1\2", data)
                data = re.sub(rb"</f><v>[^<]*</v>", b"</f>", data)
            target.writestr(item, data)
    return out.getvalue()


def write_mers_table(path: Any, seed: int = 39) -> None:
    """A seeded MERS results table that reaches every part of the rules: 24 tournaments from 2015 to
    2025, half of them in its last two years (two rulesets), players with up to a dozen results that
    count under the 2018 rules (Part A larger than five), places
    shared (the tie policies differ), whole tournaments given as base ranks instead of places,
    effective dates that hold a result's ageing back, weights from 1 to 4.5."""
    import csv
    import datetime as dt
    import random

    rng = random.Random(seed)
    pool = [f"{rng.randrange(1, 16):02d}{rng.randrange(0, 10**6):06d}" for _ in range(14)]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["tournament", "date", "players", "weight", "ruleset", "player", "place", "effective_date",
                      "base_rank"])
        for number in range(24):
            first, days = (dt.date(2015, 3, 1), 2900) if number < 12 else (dt.date(2023, 7, 1), 720)
            day = first + dt.timedelta(days=rng.randrange(0, days))
            players = rng.randrange(12, 90)
            weight = rng.choice([1, 2, 2.5, 3, 3.5, 4.5])
            ruleset = "MCR" if number % 5 else "Riichi"
            effective = (day + dt.timedelta(days=rng.randrange(200, 800))).isoformat() if number % 4 == 1 else ""
            given = number % 6 == 3  # base ranks given, as the EMA's older data gives them
            entrants = rng.sample(pool, rng.randrange(6, len(pool)))
            places = sorted(rng.randrange(1, players + 1) for _ in entrants)
            if len(places) > 3:
                places[2] = places[1]  # two players share a place
            for player, place in zip(entrants, places):
                base = round((players - place) * 1000 / (players - 1), 2) if given else ""
                out.writerow([f"Open {number}", day.isoformat(), players, weight, ruleset, player,
                              "" if given else place, effective, base])
