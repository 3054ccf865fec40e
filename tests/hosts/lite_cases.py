"""Calls of the twelve functions for the xlwings Lite tests, and how Excel's custom functions carry them.

A call is ``(function name, arguments)`` with the arguments as cell values of the Python API
(:func:`xlrating.functions.call`): numbers, text, booleans, ``None`` for an empty cell, an
:class:`~xlrating.functions.ExcelError` for an error cell, a list of rows for a range. Dates are
serial numbers, as Excel hands a date cell to a custom function.

:func:`office_js_args` turns them into what Excel gives an Office.js custom function declared as
xlwings declares ours (every parameter ``matrix`` of type ``any``, errors allowed): each argument a
matrix, an empty cell ``""``, an error cell an ``ErrorCellValue``, an argument left out ``null``.
:func:`office_js_result` is what Excel must receive back for a Python API result: a matrix, with
an error as an ``ErrorCellValue`` of Excel's error type.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xlrating.functions import BY_NAME, FUNCTIONS, ExcelError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tables"

# Excel's classic error values and their types in Office.js (Excel.ErrorCellValueType)
ERROR_TYPES = {"#DIV/0!": "Div0", "#N/A": "NotAvailable", "#NAME?": "Name", "#NULL!": "Null", "#NUM!": "Num",
               "#REF!": "Ref", "#VALUE!": "Value"}
OMITTED = object()  # an optional argument left out of the formula (not an empty cell)


def serial(day: dt.date) -> int:
    """A date's Excel serial number (1900 date system)."""
    return (day - dt.date(1899, 12, 30)).days


def example_table(name: str) -> list[list[Any]]:
    """A CSV of ``examples/tables`` as a range: numbers as numbers, names, IDs and dates as text."""
    def cell(column: str, text: str) -> Any:
        if column in ("player", "opponent", "date"):
            return text
        try:
            return float(text)
        except ValueError:
            return {"TRUE": True, "FALSE": False}.get(text, text)

    with open(EXAMPLES / name, newline="", encoding="utf-8") as f:
        header, *rows = csv.reader(f)
    return [header, *([cell(c, v) for c, v in zip(header, row, strict=True)] for row in rows)]


# The worked examples of docs/functions.md: (function, arguments, the value it shows, its decimals)
_A = [[1000], [758], [500], [900]]
_B = [[1], [2], [1], [5]]
_C = [[serial(dt.date(2023, 6, 4))], [serial(dt.date(2024, 3, 10))], [serial(dt.date(2024, 9, 1))],
      [serial(dt.date(2025, 5, 18))]]
_ON = serial(dt.date(2025, 6, 1))
README_EXAMPLES: list[tuple[str, list[Any], Any, int]] = [
    ("DIPPOUCH_PERCENTILE", [65, 8], 88.46, 2),
    ("DIPPOUCH_VALUE", [65, 3], 15, 0),
    ("DIPPOUCH_NEW_RATING", [55, 88.46153846153845, 15], 60.019, 3),
    ("DCI_WIN_PROBABILITY", [1700, 1600], 0.640, 3),
    ("DCI_K", ["grand prix"], 40, 0),
    ("DCI_DELTA", [1700, 1600, "W", "grand prix"], 14.40, 2),
    ("DCI_DELTA", [1600, 1700, "W"], 10.24, 2),
    ("MERS_BASE_RANK", [100, 25], 757.58, 2),
    ("MERS_BASE_RANK", [100, 25, "round"], 758, 0),
    ("MERS_BASE_RANK", [100, 25, "truncate"], 757, 0),
    ("MERS_WEIGHT", [2, 90, 12, True], 5, 0),
    ("MERS_RANKING", [_A, _B, _C, _ON, "2005"], 751.6, 1),
    ("MERS_RANKING", [_A, _B, _C, _ON, "2010"], 812.20, 2),
    ("MERS_RANKING", [_A, _B, _C, _ON], 785.32, 2),
    ("MERS_RANKING", [_A[0][0], _B[0][0], _C[0][0]], "#N/A", 0),
]


def example_table_calls() -> list[tuple[str, list[Any]]]:
    """The three leaderboards on the bundled example tables."""
    return [
        ("DIPPOUCH_RATINGS", [example_table("dippouch_results.csv")]),
        ("DIPPOUCH_RATINGS", [example_table("dippouch_results.csv"), "average"]),
        ("DCI_RATINGS", [example_table("dci_matches.csv"), "Constructed"]),
        ("DCI_RATINGS", [example_table("dci_matches.csv"), "Limited", "table"]),
        ("DCI_RATINGS", [example_table("dci_matches.csv")]),  # several categories: #VALUE!
        ("MERS_RANKINGS", [example_table("mers_results.csv"), "2025-06-30", "2005", "MCR"]),
        ("MERS_RANKINGS", [example_table("mers_results.csv"), serial(dt.date(2025, 6, 30)), "2018", "Riichi", "average"]),
    ]


# --- random calls -----------------------------------------------------------------------------------

Gen = Callable[[random.Random], Any]


def _junk(r: random.Random) -> Any:
    return r.choice([None, "", "x", True, False, -1, 0, 1e6, -1e6, "12", " 7 ", 2.5, -0.0,
                     ExcelError(r.choice(sorted(ERROR_TYPES)))])


def _real(lo: float, hi: float) -> Gen:
    return lambda r: round(r.uniform(lo, hi), r.choice([0, 1, 2, 6, 12]))


def _whole(lo: int, hi: int) -> Gen:
    return lambda r: r.randint(lo, hi)


def _one_of(*values: Any) -> Gen:
    return lambda r: r.choice(values)


TIERS = ("casual", "regular", "competitive", "professional", "grand prix", "pro tour", "Grand Prix")
_SCALAR_ARGUMENTS: dict[str, tuple[Gen, ...]] = {
    "DIPPOUCH_PERCENTILE": (_whole(1, 120), lambda r: r.choice([r.randint(1, 120), r.randint(1, 12) + 0.5])),
    "DIPPOUCH_VALUE": (_whole(1, 150), _whole(1, 9), _one_of(True, False, None, 1, 0),
                       _one_of(None, 1995, 2000, 2001, 2019, 2024, 2031)),
    "DIPPOUCH_NEW_RATING": (_real(0, 100), _real(0, 100), _real(0, 20)),
    "DCI_WIN_PROBABILITY": (_real(800, 2800), _real(800, 2800), _one_of("formula", "table", None, "TABLE")),
    "DCI_DELTA": (_real(800, 2800), _real(800, 2800), _one_of("W", "D", "L", 1, 0.5, 0, "w"),
                  _one_of(None, 8, 16, 24, 32, 40, 48, 20.5, *TIERS)),
    "DCI_K": (_one_of(*TIERS, 8, 16, 48, 20.5, "nope"),),
    "MERS_BASE_RANK": (_whole(2, 200), lambda r: r.choice([r.randint(1, 200), r.randint(1, 20) + 0.5]),
                       _one_of("none", "round", "truncate", None)),
    "MERS_WEIGHT": (_whole(1, 5), _whole(8, 400), _whole(1, 30), _one_of(True, False, None)),
}
_SHAPES = ((1, 1), (1, 3), (3, 1), (2, 2), (2, 3))


def _value(r: random.Random, generate: Gen, junk: float = 0.12) -> Any:
    return _junk(r) if r.random() < junk else generate(r)


def _scalar_call(r: random.Random, name: str) -> list[Any]:
    generators = _SCALAR_ARGUMENTS[name]
    args = [_value(r, g) for g in generators]
    if r.random() < 0.4:  # one or two arguments given a range: one value per cell
        shape = r.choice(_SHAPES)
        for position in r.sample(range(len(args)), k=min(len(args), r.choice([1, 2]))):
            rows, cols = shape if r.random() < 0.9 else r.choice(_SHAPES)
            args[position] = [[_value(r, generators[position]) for _ in range(cols)] for _ in range(rows)]
    return _drop_trailing(r, name, args)


def _drop_trailing(r: random.Random, name: str, args: list[Any]) -> list[Any]:
    """Optional arguments at the end left out of the formula now and then."""
    arguments = BY_NAME[name].arguments
    while args and arguments[len(args) - 1].optional and args[-1] is None and r.random() < 0.5:
        args.pop()
    return args


def _day(r: random.Random, first: int = 2016, last: int = 2025) -> Any:
    day = dt.date(first, 1, 1) + dt.timedelta(days=r.randint(0, (last - first + 1) * 365 - 1))
    return serial(day) if r.random() < 0.6 else day.isoformat()


def _mers_ranking_call(r: random.Random) -> list[Any]:
    n = r.randint(1, 8)
    rows = [[_value(r, _real(0, 1000), 0.03), _value(r, _one_of(0.5, 1, 1, 1, 2, 3, 5), 0.03),
             _value(r, _day, 0.03)] for _ in range(n)]
    for row in rows:
        if r.random() < 0.1:
            row[:] = [None, None, None]  # an unused row of the input block
    columns = [[[row[i]] for row in rows] for i in range(3)]
    if r.random() < 0.05:
        columns[r.randrange(3)].pop()
    args = [*columns, r.choice([None, None, _day(r, 2022, 2027)]), r.choice(["2005", "2010", "2018", None, 2010])]
    return _drop_trailing(r, "MERS_RANKING", args)


def _spoil(r: random.Random, table: list[list[Any]], chance: float = 0.15) -> list[list[Any]]:
    if len(table) > 1 and r.random() < chance:
        row = r.randrange(1, len(table))
        table[row][r.randrange(len(table[row]))] = _junk(r)
    return table


def _dippouch_table(r: random.Random) -> list[list[Any]]:
    wc = r.random() < 0.3
    table: list[list[Any]] = [["event", "date", "players", "rounds", "player", "place"] + (["world_championship"] * wc)]
    for event in range(r.randint(1, 4)):
        players, rounds, day = r.randint(7, 60), r.randint(1, 5), _day(r, 2019, 2025)
        entrants = r.sample([f"player {i}" for i in range(10)], k=r.randint(1, 7))
        for place, player in enumerate(entrants, start=1):
            shared = place - 1 if place > 1 and r.random() < 0.1 else place
            table.append([f"E{event}", day, players, rounds, player, shared] + ([r.random() < 0.2] * wc))
    return _spoil(r, table)


def _dci_table(r: random.Random) -> list[list[Any]]:
    extra = r.random() < 0.6
    table: list[list[Any]] = [["date", "round", "player", "opponent", "result"] + (["tier", "category"] * extra)]
    for _ in range(r.randint(1, 25)):
        player, opponent = r.sample([f"mage {i}" for i in range(8)], k=2)
        row = [_day(r, 2008, 2010), r.randint(1, 5), player, opponent, r.choice(["W", "D", "L"])]
        table.append(row + ([r.choice(TIERS[:6] + (16, 32)), r.choice(["Limited", "Constructed"])] * extra))
    return _spoil(r, table)


def _mers_table(r: random.Random) -> list[list[Any]]:
    both = r.random() < 0.5
    table: list[list[Any]] = [["tournament", "date", "players", "weight", "player", "place"] + (["ruleset"] * both)]
    for tournament in range(r.randint(1, 5)):
        players, weight, day = r.randint(8, 80), r.choice([0.5, 1, 2, 3]), _day(r, 2019, 2025)
        ruleset = r.choice(["MCR", "Riichi"])
        for place, player in enumerate(r.sample([f"0406{i:04d}" for i in range(9)], k=r.randint(2, 8)), start=1):
            table.append([f"T{tournament}", day, players, weight, player, place] + ([ruleset] * both))
    return _spoil(r, table)


def random_calls(seed: int, per_function: int) -> list[tuple[str, list[Any]]]:
    """``per_function`` random calls of each of the twelve functions (ranges, junk and errors included)."""
    r = random.Random(seed)
    calls: list[tuple[str, list[Any]]] = []
    for _ in range(per_function):
        calls.extend((name, _scalar_call(r, name)) for name in _SCALAR_ARGUMENTS)
        calls.append(("MERS_RANKING", _mers_ranking_call(r)))
        calls.append(("DIPPOUCH_RATINGS", _drop_trailing(r, "DIPPOUCH_RATINGS",
                                                         [_dippouch_table(r), r.choice([None, "best", "average"])])))
        calls.append(("DCI_RATINGS", _drop_trailing(r, "DCI_RATINGS", [
            _dci_table(r), r.choice([None, "Limited", "Constructed"]), r.choice([None, "formula", "table"])])))
        calls.append(("MERS_RANKINGS", _drop_trailing(r, "MERS_RANKINGS", [
            _mers_table(r), r.choice([None, _day(r, 2024, 2026)]), r.choice(["2005", "2010", "2018", None]),
            r.choice([None, "MCR", "Riichi"]), r.choice([None, "best", "average"])])))
    assert {name for name, _ in calls} == {f.name for f in FUNCTIONS}
    return calls


# --- what Excel hands a custom function, and what it must get back ----------------------------------

def _office_js_cell(value: Any) -> Any:
    if isinstance(value, ExcelError):
        return {"type": "Error", "basicValue": value.code, "errorType": ERROR_TYPES[value.code]}
    return "" if value is None else value


def office_js_args(args: list[Any], r: random.Random) -> list[Any]:
    """The arguments of a call as Excel passes them; an empty argument is an empty cell or left out."""
    encoded: list[Any] = []
    for value in args:
        if isinstance(value, list):
            encoded.append([[_office_js_cell(cell) for cell in row] for row in value])
        elif value is None and r.random() < 0.5:
            encoded.append(None)  # F(a,,c): left out, which Office.js passes as null
        else:
            encoded.append([[_office_js_cell(value)]])
    return encoded


def office_js_result(result: Any) -> Any:
    """What Excel must receive for a Python API result: a matrix, errors as Excel's error values."""
    def cell(value: Any) -> Any:
        if isinstance(value, ExcelError):
            return {"type": "Error", "errorType": ERROR_TYPES[value.code]}
        return "" if value is None else value

    rows = result if isinstance(result, list) else [[result]]
    return [[cell(value) for value in row] for row in rows] if rows and rows[0] else [[""]]
