"""Inputs for the plain-formula calculator templates, and what xlrating's functions give for them.

A case is the input cells of one calculator sheet (cell -> value; an :class:`ExcelError` is typed as
its formula, ``=NA()`` ...). Its expected result cells are computed here with the sibling
template's glue (the ``IF(x="",...)`` guards, ``COUNT``, ``YEAR``) and :func:`xlrating.functions.call`
for every xlrating function in it - or, for what only the plain templates offer (the DCI method,
the MERS base-rank rounding), with the Python API those functions call.

Every case list holds the worked example of docs/functions.md first, then seeded random inputs (ties, first and
last places, every tier and rules era, too few results ...), then invalid inputs.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from xlrating.core import dci
from xlrating.core.errors import InvalidArgument, RatingError
from xlrating.core.placement import competition_places
from xlrating.core.tables import is_blank, number_from_text
from xlrating.functions import ExcelError, call, error_value

Case = dict[str, Any]
NA, VALUE = ExcelError("#N/A"), ExcelError("#VALUE!")
ERROR_FORMULAS = {"#N/A": "=NA()"}


def digits16(value: float) -> float:
    """``value`` to 16 significant digits: the numbers LibreOffice reads from a file exactly (of a
    decimal with 17 digits, as Python writes some doubles, it may miss the last binary place)."""
    return float(f"{value:.16g}")


def typed(value: Any) -> Any:
    """What is written into the cell for ``value`` (an error value as a formula that makes it)."""
    return ERROR_FORMULAS[value.code] if isinstance(value, ExcelError) else value


def _error(value: Any) -> bool:
    return isinstance(value, ExcelError)


def _empty(value: Any) -> bool:
    """A spreadsheet's ``x=""``: an empty cell or empty text."""
    return value is None or value == ""


def _unless_empty(*values: Any) -> Any:
    """``IF(OR(a="",b=""),"",...)``: the first error among the values, "" if one is empty, else None."""
    for value in values:
        if _error(value):
            return value
    return "" if any(_empty(v) for v in values) else None


def _count(*values: Any) -> int:
    return sum(isinstance(v, (int, float, dt.date)) and not isinstance(v, bool) for v in values)


# --- Dip Pouch ----------------------------------------------------------------------------------

DIPPOUCH_README: Case = {"B4": "Example", "B5": dt.date(2010, 6, 1), "B6": 65, "B7": 3, "B8": "No",
                         "A12": "Ann", "B12": 8, "C12": 55, "A13": "Newcomer", "B13": 65}
DIPPOUCH_FIRST = 12


def dippouch_expected(case: Case, rows: int) -> dict[str, Any]:
    """B9 and D:F of the first ``rows`` player rows, as the function-based sibling computes them."""
    g = case.get
    players, rounds, date, wc = g("B6"), g("B7"), g("B5"), g("B8")
    value: Any = ""
    if _count(players, rounds) == 2:
        championship = wc if _error(wc) else isinstance(wc, str) and wc.lower() == "yes"
        year = date if _error(date) else "" if _empty(date) else date.year if isinstance(date, dt.date) else VALUE
        value = call("DIPPOUCH_VALUE", [players, rounds, championship, year])
    out = {"B9": value}
    for row in range(DIPPOUCH_FIRST, DIPPOUCH_FIRST + rows):
        place, rating = g(f"B{row}"), g(f"C{row}")
        guard = _unless_empty(place, players)
        pct = guard if guard is not None else call("DIPPOUCH_PERCENTILE", [players, place])
        before = rating if _error(rating) else 40 if _empty(rating) else rating
        guard = _unless_empty(pct, value)
        new = guard if guard is not None else call("DIPPOUCH_NEW_RATING", [before, pct, value])
        change = new if _error(new) or new == "" else new - float(number_from_text(before))
        out.update({f"D{row}": pct, f"E{row}": new, f"F{row}": change})
    return out


def dippouch_cases(rng: random.Random, count: int) -> list[Case]:
    cases = [dict(DIPPOUCH_README)]
    for i in range(count):
        players = rng.choice([1, 2, 3, rng.randint(4, 30), rng.randint(30, 100), rng.randint(100, 400)])
        case: Case = {"B4": f"Event {i}", "B6": players, "B7": rng.choice([1, 1, 2, 3, rng.randint(4, 9)]),
                      "B8": rng.choice(["No", "No", "No", None, "Yes", "yes"]),
                      "B5": None if i % 9 == 4 else dt.date(rng.randint(1995, 2026), rng.randint(1, 12), 28)}
        scores = [rng.randint(0, max(2, players // 3)) for _ in range(players)]  # ties
        places = competition_places(scores)
        shown = sorted(rng.sample(range(players), min(players, rng.randint(1, 30))))
        for row, who in enumerate(shown, start=DIPPOUCH_FIRST):
            if row == DIPPOUCH_FIRST + 3 and len(shown) > 6:
                continue  # an unused row between players
            case[f"A{row}"] = f"P{who}"
            case[f"B{row}"] = places[who]
            case[f"C{row}"] = rng.choice([None, None, 0, 100, 40, round(rng.uniform(0, 100), rng.randint(0, 5)),
                                          digits16(rng.uniform(0, 100))])
        cases.append(case)
    return cases


DIPPOUCH_INVALID: list[Case] = [
    {"B6": 0, "B7": 3, "B12": 1}, {"B6": 2.5, "B7": 3, "B12": 1}, {"B6": 10, "B7": 0, "B12": 1},
    {"B6": 10, "B7": 1.5, "B12": 1}, {"B6": "x", "B7": 3, "B12": 1}, {"B6": "10", "B7": 3, "B12": 2},
    {"B6": 10, "B7": 3, "B8": NA, "B12": 1}, {"B6": 10, "B7": 3, "B5": NA, "B12": 1},
    {"B6": 10, "B7": 3, "B5": "someday", "B12": 1}, {"B6": NA, "B7": 3, "B12": 1},
    {"B6": 10, "B7": 3, "B12": 0, "B13": 11, "B14": -1, "B15": 2.5, "B16": "x", "B17": " ", "B18": "3",
     "B19": NA, "B20": 10},
    {"B6": 10, "B7": 3, "B12": 1, "C12": 101, "B13": 2, "C13": -0.5, "B14": 3, "C14": "x", "B15": 4,
     "C15": "55", "B16": 5, "C16": " ", "B17": 6, "C17": NA, "B18": 8, "C18": 100},
]


# TRUE typed into a cell formatted as a number: LibreOffice keeps no logical type apart from the cell's
# format, so there the cell is the number 1. xlrating's functions say #VALUE!, and so does the plain
# formula (ISLOGICAL) where TRUE is a value of its own, as in Excel (which cannot be run here).
DIPPOUCH_TRUE_IN_NUMBER_CELLS: list[Case] = [{"B6": 10, "B7": 3, "B12": True}, {"B6": 10, "B7": 3, "B12": 2, "C12": True}]


def true_as_one(case: Case) -> Case:
    """``case`` as LibreOffice reads it when its TRUE/FALSE cells are formatted as numbers."""
    return {cell: float(value) if isinstance(value, bool) else value for cell, value in case.items()}


# --- DCI ------------------------------------------------------------------------------------------

DCI_README: Case = {"B4": 1700, "B5": 1600, "B6": "grand prix", "B7": "W"}
DCI_OUTPUTS = ("B8", "B11", "C11", "B12", "C12", "B13", "C13")


def _delta(a: Any, b: Any, result: Any, k: Any, method: Any) -> Any:
    """``dci.delta(a, b, result, k, method)`` as a cell shows it; blank method: ``DCI_DELTA``."""
    if _error(k):
        return k
    if is_blank(method):
        return call("DCI_DELTA", [a, b, result, k])
    if _error(method):
        return method
    try:
        if is_blank(result):
            raise InvalidArgument("result", "a value for result", None)
        return dci.delta(a, b, result, dci.k_value(k), method)
    except RatingError as exc:
        return error_value(exc)


def dci_expected(case: Case) -> dict[str, Any]:
    g = case.get
    a, b, tier, result, method = g("B4"), g("B5"), g("B6"), g("B7"), g("B9")
    k = tier if _error(tier) else 16.0 if _empty(tier) else call("DCI_K", [tier])
    ready = _count(a, b) == 2
    p_a = call("DCI_WIN_PROBABILITY", [a, b, method]) if ready else ""
    p_b = call("DCI_WIN_PROBABILITY", [b, a, method]) if ready else ""
    change = result if _error(result) else _delta(a, b, result, k, method) if ready and not _empty(result) else ""
    other = change if _error(change) or change == "" else -change
    return {"B8": k, "B11": p_a, "C11": p_b, "B12": change, "C12": other,
            "B13": change if _error(change) or change == "" else a + change,
            "C13": other if _error(other) or other == "" else b + other}


def dci_cases(rng: random.Random, count: int) -> list[Case]:
    tiers = [name for name, _ in dci.TIERS] + ["FNM", "Friday Night Magic", "GP", "grand_prix", "Pro-Tour",
                                              "  pro   tour ", "REL 2", "Nationals", "worlds", "rel_3"]
    results = ["W", "D", "L", "w", "win", "Draw", "LOSS", " l ", 1, 0.5, 0, "1", "0.5", "0", ".5"]
    cases = [dict(DCI_README), {**DCI_README, "B9": "table"}]
    edges = [0, 3, 3.5, 3.4, 4, 10.5, 17, 734.5, 735, 735.5, 736, 5000, 3999.99]
    for i in range(count):
        a = rng.choice([1600, rng.randint(0, 4000), round(rng.uniform(1000, 2600), 2),
                       digits16(rng.uniform(0, 4000))])
        b = digits16(a - rng.choice(edges) * rng.choice([1, -1])) if i % 3 == 0 else rng.choice(
            [a, rng.randint(0, 4000), round(rng.uniform(1000, 2600), 4)])
        cases.append({"B4": a, "B5": b, "B6": rng.choice([None, *tiers, 8, 16, 24.5, 0]),
                      "B7": rng.choice([*results, None]) if i % 11 else None,
                      "B9": rng.choice([None, "formula", "table", "Table", " table ", "FORMULA"])})
    return cases


DCI_INVALID: list[Case] = [
    {**DCI_README, "B6": tier} for tier in ("casual premier ", "-gp", "gp_", "24", -8, True, " ", "grand*", "x", NA)
] + [{**DCI_README, "B7": result} for result in ("X", 2, "2", True, " ", NA, "1.5", "W L")] + [
    {**DCI_README, "B9": method} for method in ("x", 1, True, NA, "formula table")] + [
    {"B4": "1700", "B5": 1600, "B7": "W"}, {"B4": NA, "B5": 1600, "B7": "W"}, {"B4": 1700, "B5": 1600, "B7": NA},
    {**DCI_README, "B6": "x", "B7": "X", "B9": "x"}, {**DCI_README, "B7": "X", "B9": "x"},
    {**DCI_README, "B7": " ", "B9": NA}]


# --- MERS ------------------------------------------------------------------------------------------

MERS_FIRST = 10
MERS_README_RESULTS = [(dt.date(2023, 6, 4), 100, 1, 1), (dt.date(2024, 3, 10), 34, 9, 2),
                       (dt.date(2024, 9, 1), 11, 6, 1), (dt.date(2025, 5, 18), 11, 2, 5)]
MERS_TOTALS = {"2005": "I5", "2010": "I6", "2018": "I7"}


def mers_case(as_of: Any, results: list[tuple[Any, Any, Any, Any]], rounding: Any = None) -> Case:
    case: Case = {"B4": "Anna", "B5": "Riichi", "B6": as_of, "B7": rounding}
    for row, (day, players, place, weight) in enumerate(results, start=MERS_FIRST):
        case.update({f"A{row}": f"T{row}", f"B{row}": day, f"C{row}": players, f"D{row}": place, f"E{row}": weight})
    return case


def mers_expected(case: Case, rows: int) -> dict[str, Any]:
    g = case.get
    rounding = g("B7")
    rounding = "round" if is_blank(rounding) else rounding
    out: dict[str, Any] = {}
    for row in range(MERS_FIRST, MERS_FIRST + rows):
        guard = _unless_empty(g(f"C{row}"), g(f"D{row}"))
        out[f"F{row}"] = guard if guard is not None else call("MERS_BASE_RANK", [g(f"C{row}"), g(f"D{row}"), rounding])
    last = MERS_FIRST + 39
    base = [out.get(f"F{r}", "") for r in range(MERS_FIRST, last + 1)]
    weights = [g(f"E{r}") for r in range(MERS_FIRST, last + 1)]
    dates = [g(f"B{r}") for r in range(MERS_FIRST, last + 1)]
    listed = _count(*base)
    for rules, cell in MERS_TOTALS.items():
        out[cell] = "" if listed == 0 else call("MERS_RANKING", [base, weights, dates, g("B6"), rules])
    out["I8"] = float(listed)
    return out


def _random_results(rng: random.Random, as_of: dt.date, count: int) -> list[tuple[Any, Any, Any, Any]]:
    results = []
    for _ in range(count):
        players = rng.choice([2, 3, 11, rng.randint(4, 40), rng.randint(40, 200), 401])
        place = rng.choice([1, players, rng.randint(1, players), (players + 1) // 2])
        kind = rng.random()
        if kind < 0.15:  # exactly k years old, or a day more: the age-factor steps
            years = rng.randint(1, 4)
            day = as_of.replace(year=as_of.year - years) - dt.timedelta(days=rng.choice([0, 1]))
        elif kind < 0.2:
            day = dt.date(rng.choice([2020, 2024]), 2, 29)
        elif kind < 0.25:
            day = as_of + dt.timedelta(days=rng.randint(1, 90))  # after the ranking date
        else:
            day = as_of - dt.timedelta(days=rng.randint(0, 6 * 366))
        weight = rng.choice([1, 2, 5, 0.5, 1.5, 2.5, 3, 3.5, 4, 4.5, 5])
        results.append((day, players, place, weight))
    return results


def mers_cases(rng: random.Random, count: int) -> list[Case]:
    cases = [mers_case(dt.date(2025, 6, 1), MERS_README_RESULTS)]
    sizes = [0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 20, 40]
    for i in range(count):
        as_of = dt.date(2024, 3, 1) + dt.timedelta(days=rng.randint(0, 700))
        results = _random_results(rng, as_of, sizes[i % len(sizes)])
        if results and i % 4 == 1:  # ties: the same placement twice, and last places of weight < 1
            results[-1] = (results[0][0], results[0][1], results[0][2], rng.choice([0.5, 1, 2]))
            results.insert(0, (as_of, 5, 5, 0.5))
        rounding = rng.choice([None, None, "round", "truncate", "none", " Truncate "])
        cases.append(mers_case(None if i % 5 == 0 else as_of, results, rounding))
    return cases


def _readme_with(row: int, column: str, value: Any, **block: Any) -> Case:
    case = mers_case(dt.date(2025, 6, 1), MERS_README_RESULTS, block.pop("B7", None))
    case.update(block)
    if column:
        case[f"{column}{row}"] = value
    return case


MERS_INVALID: list[Case] = [
    _readme_with(11, "C", 1), _readme_with(11, "C", 2.5), _readme_with(11, "C", "x"), _readme_with(11, "D", 35),
    _readme_with(11, "D", 0), _readme_with(11, "D", " "), _readme_with(11, "D", NA), _readme_with(11, "C", "34"),
    _readme_with(12, "E", 0), _readme_with(12, "E", -1), _readme_with(12, "E", "x"),
    _readme_with(12, "E", "2"), _readme_with(12, "E", None), _readme_with(12, "E", NA), _readme_with(12, "B", None),
    _readme_with(12, "B", "soon"), _readme_with(12, "B", 10), _readme_with(12, "B", NA),
    _readme_with(14, "E", 1), _readme_with(14, "B", dt.date(2024, 1, 1)), _readme_with(0, "", None, B6="soon"),
    _readme_with(0, "", None, B6=NA), _readme_with(0, "", None, B6=30), _readme_with(0, "", None, B7="x"),
    _readme_with(0, "", None, B7=NA), _readme_with(0, "", None, B7=1), _readme_with(11, "C", 1, B7="x"),
    _readme_with(12, "E", "x", B6="soon"), _readme_with(12, "B", "soon", B6="soon"),
    _readme_with(11, "C", NA, B6=NA), _readme_with(12, "E", -1, B6=30),
    mers_case(None, [(dt.datetime(2023, 6, 4, 18), 100, 1, 1), (dt.datetime(2025, 6, 1, 9), 7, 7, 2),
                     (dt.date(2023, 6, 1), 7, 3, 1)]),  # a time of day is dropped
    mers_case(dt.date(2025, 6, 1), [(dt.date(2025, 5, 1), 10, 1, 1)]),  # one result: not ranked
    mers_case(dt.date(2025, 6, 1), [(dt.date(2025, 5, 1), 10, 1, 1), (dt.date(2025, 7, 1), 10, 1, 1)]),
    mers_case(dt.date(2025, 6, 1), [(dt.date(2019, 5, 1), 10, 1, 1), (dt.date(2025, 5, 1), 10, 1, 1)]),
]
MERS_TRUE_IN_NUMBER_CELLS: list[Case] = [_readme_with(12, "E", True), _readme_with(12, "B", True)]
