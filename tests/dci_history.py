"""A federation's DCI history as one matches CSV, written fast for the tests of a table longer than a
web upload may be (``benchmarks/bench_ingest.py`` writes the federation-size one)."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from xlrating.gate.limits import Limits

WEB_ROWS = Limits().max_rows  # the most lines a CSV sent over the web may have (the header among them)


def write_dci_history(path: Path, *, more_than: int = WEB_ROWS, seed: int = 38) -> int:
    """Write events of 6 rounds of 16 matches among 32 of 400 players, a week apart, until the table
    has more than ``more_than`` lines; how many matches it holds."""
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(400)]
    day = dt.date(2005, 1, 7)
    lines = ["event,date,round,player,opponent,result"]
    while len(lines) <= more_than:
        field = rng.sample(names, 32)
        event = f"FNM {len(lines)}"
        for r in range(1, 7):
            rng.shuffle(field)
            lines += [f"{event},{day},{r},{a},{b},{rng.choice('WWDL')}" for a, b in zip(field[::2], field[1::2])]
        day += dt.timedelta(days=7)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines) - 1
