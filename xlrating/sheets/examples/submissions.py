"""The bundled example submissions: five good EMA results sheets in different layouts and one with
the mistakes rating officers see most. ``examples/make_examples.py`` writes them to ``examples/``;
the demo uses them.

Players are synthetic (invented name combinations) with EMA IDs whose prefixes match their
countries; events share players so that the MCR and Riichi rankings are meaningful. Everything is
drawn from a seeded generator, so the output is the same on every run.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlrating.sheets.examples.builders import build_workbook

# country code -> (EMA prefix, last names, first names)
COUNTRIES: dict[str, tuple[str | None, tuple[str, ...], tuple[str, ...]]] = {
    "FRA": ("04", ("Moreau", "Lefèvre", "Garnier", "Rousseau", "Chevalier", "Fabre", "Aubert", "Perrin"),
            ("Élodie", "Mathis", "Camille", "Hugo", "Léa", "Bastien", "Inès", "Théo")),
    "GER": ("05", ("Becker", "Hoffmann", "Krüger", "Wolf", "Schäfer", "Brandt", "Vogel"),
            ("Jonas", "Lena", "Felix", "Mia", "Lukas", "Greta", "Tobias")),
    "NED": ("08", ("Bakker", "Visser", "Smit", "Mulder", "de Graaf", "Bos"),
            ("Sanne", "Daan", "Femke", "Joris", "Lotte", "Bram")),
    "AUT": ("01", ("Gruber", "Huber", "Pichler", "Moser"), ("Katharina", "Florian", "Verena", "Stefan")),
    "ITA": ("07", ("Ricci", "Marino", "Greco", "Conti"), ("Giulia", "Matteo", "Chiara", "Davide")),
    "BEL": ("02", ("Peeters", "Janssens", "Maes"), ("Ruben", "Elise", "Wout")),
    "USA": (None, ("Carter", "Nguyen"), ("Dana", "Kyle")),
    "JPN": (None, ("Tanaka",), ("Haruki",)),
}
HEADER = ["Position", "EMA ID", "Last name", "First name", "Country", "Table points", "Score"]


@dataclass(frozen=True)
class Player:
    ema_id: str | None
    last_name: str
    first_name: str
    country: str


def player_pool() -> list[Player]:
    """Every synthetic player, the same list on every call."""
    rng = random.Random(2024)
    pool = []
    for code, (prefix, lasts, firsts) in COUNTRIES.items():
        for i, last in enumerate(lasts):
            ema_id = f"{prefix}{rng.randrange(10**5, 10**6):06d}" if prefix else None
            pool.append(Player(ema_id, last, firsts[i % len(firsts)], code))
    return pool


@dataclass(frozen=True)
class Event:
    file: str
    name: str
    ruleset: str
    city: str
    country: str
    start: dt.date
    end: dt.date
    size: int
    layout: str
    seed: int
    declared_weight: float | None = None  # None: give the 2018 components only
    tie: bool = False


EVENTS = (
    Event("01_lyon_mcr_open_2024.xlsx", "Lyon MCR Open 2024", "MCR", "Lyon", "FRA",
          dt.date(2024, 3, 16), dt.date(2024, 3, 17), 24, "template", 1, declared_weight=2.5, tie=True),
    Event("02_berlin_mcr_cup_2025.xlsx", "Berlin MCR Cup 2025", "MCR", "Berlin", "GER",
          dt.date(2025, 5, 10), dt.date(2025, 5, 11), 20, "beside", 2),
    Event("03_amsterdam_riichi_2024.xlsx", "Amsterdam Riichi Weekend 2024", "Riichi", "Amsterdam", "NED",
          dt.date(2024, 9, 14), dt.date(2024, 9, 15), 20, "own_sheet", 3, declared_weight=2.5),
    Event("04_vienna_riichi_day_2025.xlsx", "Vienna Riichi Day 2025", "Riichi", "Vienna", "AUT",
          dt.date(2025, 2, 22), dt.date(2025, 2, 22), 16, "template", 4, declared_weight=1.5),
    Event("05_brussels_mcr_2023.xlsx", "Brussels MCR Championship 2023", "MCR", "Brussels", "BEL",
          dt.date(2023, 10, 7), dt.date(2023, 10, 8), 18, "own_sheet", 5),
)
BAD_FILE = "06_paris_winter_open_2025_with_mistakes.xlsx"
RENAMED = {"Position": "Rank", "EMA ID": "EMA number", "Last name": "Surname", "First name": "Given name",
           "Country": "Nat", "Table points": "TP", "Score": "MJ points"}


def _standings(event: Event, pool: list[Player]) -> list[list[Any]]:
    """Results rows in competition ranking, best first: table points then score decide."""
    rng = random.Random(event.seed)
    players = rng.sample(pool, event.size)
    scored = [(rng.randrange(0, 25), rng.randrange(-300, 300), p) for p in players]
    if event.tie:  # two players level on both, to show a shared place (1, 2, 2, 4)
        scored[1] = (scored[0][0], scored[0][1], scored[1][2])
    scored.sort(key=lambda s: (-s[0], -s[1], s[2].last_name))
    rows, place = [], 0
    for i, (tp, score, p) in enumerate(scored):
        if i == 0 or (tp, score) != scored[i - 1][:2]:
            place = i + 1
        rows.append([place, p.ema_id or "-", p.last_name, p.first_name, p.country, tp, score])
    return rows


def _block(event: Event, rows: list[list[Any]], *, date_labels: bool = True) -> list[tuple[str, Any]]:
    days = (event.end - event.start).days + 1
    block: list[tuple[str, Any]] = [("Tournament name", event.name), ("Ruleset", event.ruleset),
                                    ("City", event.city), ("Country", event.country)]
    block += [("Start date", event.start), ("End date", event.end)] if date_labels else [("Date", event.end)]
    block += [("Days", days), ("Players", len(rows)), ("Countries", len({r[4] for r in rows}))]
    if event.declared_weight is not None:
        block.append(("MERS weight", event.declared_weight))
    block.append(("Qualification required", "No"))
    return block


def good_workbook(event: Event) -> Any:
    rows = _standings(event, player_pool())
    block = _block(event, rows, date_labels=event.end != event.start)
    if event.layout == "beside":
        # A submitter's own sheet: renamed columns in another order, header below a title.
        order = ["Rank", "Surname", "Given name", "EMA number", "Nat", "MJ points", "TP"]
        index = [HEADER.index(next(k for k, v in RENAMED.items() if v == name)) for name in order]
        return build_workbook(block, order, [[r[i] for i in index] for r in rows], "beside",
                              title=f"{event.name}: final standings")
    wb = build_workbook(block, HEADER, rows, event.layout)
    if event.layout == "template":
        # The EMA template's computed column: formulas with no stored result (the validator skips it).
        ws = wb["Results"]
        header_row = len(block) + 2
        ws.cell(header_row, len(HEADER) + 1, "Base rank")
        for r in range(header_row + 1, header_row + 1 + len(rows)):
            ws.cell(r, len(HEADER) + 1, f"=ROUND(({len(rows)}-A{r})/({len(rows)}-1)*1000,0)")
    return wb


def bad_workbook() -> Any:
    """A sheet with typical mistakes: an ID that lost its leading zero, the same ID twice, a player
    left out (so a place is missing and the row count is short), a player from an EMA country
    without an ID, and the end date typed before the start date."""
    event = Event(BAD_FILE, "Paris Winter Open 2025", "MCR", "Paris", "FRA", dt.date(2025, 1, 18),
                  dt.date(2025, 1, 19), 14, "template", 6, declared_weight=2)
    rows = _standings(event, player_pool())
    block = _block(event, rows)
    block[5] = ("End date", dt.date(2025, 1, 17))  # typed the wrong day
    del rows[5]  # the player placed 6th was left out, but Players still says 14
    lost = next(r for r in rows[1:] if str(r[1]).startswith("0"))
    lost[1] = int(lost[1])  # the ID column was formatted as numbers: "05..." became 5...
    rows[8][1] = rows[3][1]  # copy-paste: another player's ID
    rows[10][1] = "-"  # an EMA country player without an ID
    return build_workbook(block, HEADER, rows, "template")


def write_examples(folder: str | Path) -> list[Path]:
    """Write every example submission into ``folder`` (created if needed); returns the paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for event in EVENTS:
        paths.append(out / event.file)
        _save(good_workbook(event), paths[-1])
    paths.append(out / BAD_FILE)
    _save(bad_workbook(), paths[-1])
    return paths


def _save(wb: Any, path: Path) -> None:
    # Fixed document dates keep regenerated files identical in content to the committed ones.
    wb.properties.created = wb.properties.modified = dt.datetime(2025, 1, 1)
    wb.save(path)
