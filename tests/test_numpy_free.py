"""Every function of the table imports and computes without numpy (LibreOffice's own Python on
Windows and macOS has none), giving what it gives with numpy.

A subprocess blocks numpy (``sys.modules['numpy'] = None``) before importing the function table,
makes the calls below (scalars, ranges and the small tables of a spreadsheet) and hands the results
back; they must equal the same calls in this process, where the leaderboards run on numpy.
"""

from __future__ import annotations

import csv
import datetime as dt
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

from xlrating.functions import FUNCTIONS, ExcelError, call

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "tables"


def _table(name: str) -> list[list[Any]]:
    """An example table as a spreadsheet range: numbers as numbers, the rest (and names) as text."""
    def cell(column: str, text: str) -> Any:
        try:
            return text if column in ("player", "opponent") else float(text)
        except ValueError:
            return text

    with open(EXAMPLES / name, newline="", encoding="utf-8") as f:
        header, *rows = csv.reader(f)
    return [header, *([cell(c, v) for c, v in zip(header, row, strict=True)] for row in rows)]


DIPPOUCH = [["event", "date", "players", "rounds", "player", "place"],
            ["A", "2020-01-01", 10, 2, "x", 1], ["A", "2020-01-01", 10, 2, "y", 2]]
DCI = [["date", "round", "player", "opponent", "result", "category"],
       ["2009-01-01", 1, "a", "b", "W", "Limited"], ["2009-01-02", 1, "a", "b", "W", "Constructed"]]
MERS = [["tournament", "date", "players", "weight", "ruleset", "player", "place"],
        ["T", "2024-01-01", 2, 1, "MCR", "a", 1], ["U", "2024-01-01", 2, 1, "Riichi", "a", 1]]

CALLS: list[tuple[str, list[Any]]] = [
    ("DIPPOUCH_PERCENTILE", [65, 8]),
    ("DIPPOUCH_PERCENTILE", [10, [[1, 10]]]),
    ("DIPPOUCH_PERCENTILE", [10, [[1], [11], ["x"]]]),
    ("DIPPOUCH_PERCENTILE", [ExcelError("#DIV/0!"), 1]),
    ("DIPPOUCH_VALUE", [65, 3, None, None]),
    ("DIPPOUCH_VALUE", [21, 1, True]),
    ("DIPPOUCH_VALUE", [[[21], [40]], [[1], [3]], False, 1999]),
    ("DIPPOUCH_NEW_RATING", [55, 88.46153846153847, 15]),
    ("DIPPOUCH_NEW_RATING", [40, [[75, 20.5]], 8]),
    ("DIPPOUCH_RATINGS", [DIPPOUCH]),
    ("DIPPOUCH_RATINGS", [_table("dippouch_results.csv")]),
    ("DIPPOUCH_RATINGS", [_table("dippouch_results.csv"), "average"]),
    ("DIPPOUCH_RATINGS", [[DIPPOUCH[0], ["A", "someday", 10, 2, "x", 1]]]),
    ("DCI_WIN_PROBABILITY", [1700, 1600]),
    ("DCI_WIN_PROBABILITY", [1700, 1600, "table"]),
    ("DCI_WIN_PROBABILITY", [[[1500], [1900], [1e6]], 1600.5, "table"]),
    ("DCI_WIN_PROBABILITY", [[[1500, 1623.25, -1e6]], 1600]),
    ("DCI_DELTA", [1600, 1600, "W"]),
    ("DCI_DELTA", [1600, 1600, "W", "Grand Prix"]),
    ("DCI_DELTA", [1700, 1623.5, 0.5, 32]),
    ("DCI_DELTA", [[[1500], [2400]], 1800, [["L"], ["D"]], "pro tour"]),
    ("DCI_DELTA", [1e6, -1e6, "L"]),
    ("DCI_K", ["casual"]),
    ("DCI_K", [[["regular", "pro tour", 24]]]),
    ("DCI_K", ["nope"]),
    ("DCI_RATINGS", [DCI]),
    ("DCI_RATINGS", [DCI, "Limited"]),
    ("DCI_RATINGS", [_table("dci_matches.csv"), "Constructed"]),
    ("DCI_RATINGS", [_table("dci_matches.csv"), "Limited", "table"]),
    ("MERS_BASE_RANK", [100, 75, "truncate"]),
    ("MERS_BASE_RANK", [[[100], [100], [100]], [[1], [25], [100]], "round"]),
    ("MERS_BASE_RANK", ["100", "25"]),
    ("MERS_BASE_RANK", [10, 11]),
    ("MERS_WEIGHT", [2, 60, 7, True]),
    ("MERS_WEIGHT", [[[1, 3]], [[40, 90]], [[5, 12]]]),
    ("MERS_RANKING", [[[800], [600], [None]], [[1], [2], [None]], [[dt.date(2024, 1, 1)], [45292 + 31], [None]]]),
    ("MERS_RANKING", [[[800], [612.5], [1000]], [[1], [2.5], [5]], [["2021-03-01"], ["2023-02-01"], ["2024-01-01"]],
                      "2024-06-30", "2010"]),
    ("MERS_RANKING", [[[800], [612.5], [1000]], [[1], [2.5], [5]], [["2021-03-01"], ["2023-02-01"], ["2024-01-01"]],
                      dt.date(2024, 6, 30), "2018"]),
    ("MERS_RANKING", [[[900]], [[1]], [[dt.date(2024, 1, 1)]]]),
    ("MERS_RANKINGS", [MERS]),
    ("MERS_RANKINGS", [MERS, None, "2005", "MCR"]),
    ("MERS_RANKINGS", [_table("mers_results.csv"), "2025-06-30", "2005", "MCR"]),
    ("MERS_RANKINGS", [_table("mers_results.csv"), "2025-06-30", "2010", "MCR", "average"]),
    ("MERS_RANKINGS", [_table("mers_results.csv"), "2025-06-30", "2018", "Riichi"]),
    ("MERS_RANKINGS", [_table("mers_results.csv"), "2027-05-20", "2005", "MCR"]),
]

_WITHOUT_NUMPY = """
import importlib.util, pickle, sys
sys.modules["numpy"] = None  # as in a Python without numpy: `import numpy` raises ImportError
spec = importlib.util.spec_from_file_location("calls", sys.argv[1])
calls = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calls)
from xlrating.core import dci, dippouch
from xlrating.core import mers
assert dci.np is None and dippouch.np is None and mers.np is None
results = [calls.call(name, args) for name, args in calls.CALLS]
assert sys.modules["numpy"] is None
sys.stdout.buffer.write(pickle.dumps(results))
"""


def test_the_calls_cover_every_function_of_the_table() -> None:
    assert {name for name, _ in CALLS} == {f.name for f in FUNCTIONS}


def test_every_function_gives_without_numpy_what_it_gives_with_numpy() -> None:
    from xlrating.core import dci, dippouch, mers

    assert dci.np is not None and dippouch.np is not None and mers.np is not None  # here: numpy
    completed = subprocess.run([sys.executable, "-c", _WITHOUT_NUMPY, __file__], capture_output=True, check=False)
    assert completed.returncode == 0, completed.stderr.decode()
    without_numpy = pickle.loads(completed.stdout)
    for (name, args), got in zip(CALLS, without_numpy, strict=True):
        expected = call(name, args)
        assert got == expected, (name, args)
        assert repr(got) == repr(expected), (name, args)  # exact doubles, -0.0 included


def test_the_libreoffice_runtime_computes_without_numpy() -> None:
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from xlrating.hosts.libreoffice_cells import evaluate\n"
            "print(evaluate('DCI_WIN_PROBABILITY', (((1700.0,),), ((1600.0,),), 'table')))")
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert completed.stdout.strip() == "((0.64,),)", completed.stderr
