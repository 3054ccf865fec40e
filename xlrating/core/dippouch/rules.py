"""Dip Pouch rules for one event and one player: percentile, tournament value, the rating step;
the results table's records. The formulas are in the package docstring (:mod:`xlrating.core.dippouch`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import checks
from xlrating.core.errors import TableError
from xlrating.core.table_columns import DIPPOUCH_RESULT_COLUMNS
from xlrating.core.tables import read_table

STARTING_RATING = 40.0
WORLD_CHAMPIONSHIP_VALUE = 20.0
VALUE_CAP = 15.0
CUTOFF_YEAR = 2001


def percentile(players: int, place: float) -> float:
    """``(N + 0.5 - place) / N * 100``: the share of the field a placement beat, in percent."""
    n = checks.whole("players", players, minimum=1)
    p = checks.place("place", place, n)
    return _percentile(n, float(p))


def _percentile(players: float, place: float) -> float:
    return (players + 0.5 - place) / players * 100.0


def tournament_value(
    players: int,
    rounds: int,
    world_championship: bool = False,
    year: int | None = None,
    *,
    cutoff_year: int = CUTOFF_YEAR,
) -> float:
    """The event's value in percent: how far one result moves a rating toward its percentile.

    World Championship: 20. Otherwise ``N / 7 + 2`` (one round) or ``N / 3.5 + 2`` (more than one
    round), capped at 15, and 0 when ``year`` is before ``cutoff_year``.
    """
    n = checks.whole("players", players, minimum=1)
    r = checks.whole("rounds", rounds, minimum=1)
    if checks.flag("world_championship", world_championship):
        return WORLD_CHAMPIONSHIP_VALUE
    if year is not None and checks.whole("year", year) < checks.whole("cutoff_year", cutoff_year):
        return 0.0
    raw = n / 7 + 2 if r == 1 else n / 3.5 + 2
    return min(raw, VALUE_CAP)


def new_rating(rating: float, percentile: float, value: float) -> float:
    """``rating + value / 100 * (percentile - rating)``: the rating after one event."""
    old = checks.number("rating", rating, minimum=0, maximum=100)
    pct = checks.number("percentile", percentile, minimum=0, maximum=100)
    val = checks.number("value", value, minimum=0, maximum=100)
    return old + val / 100.0 * (pct - old)


# --- history --------------------------------------------------------------------------------------

RESULT_COLUMNS = DIPPOUCH_RESULT_COLUMNS


@dataclass(frozen=True)
class Result:
    """One player's placement at one event."""

    event: str
    date: dt.date
    players: int
    rounds: int
    player: str
    place: int
    world_championship: bool = False
    row: int | None = field(default=None, compare=False)  # source row, for error messages


@dataclass(frozen=True)
class Rating:
    """A leaderboard line: the player's rating after all their events and how many were counted."""

    player: str
    rating: float
    events: int


def results_from_table(rows: Iterable[Sequence[Any]], *, header_row: int = 1) -> list[Result]:
    """Read a Dip Pouch results table (docs/interfaces.md columns) into :class:`Result` records."""
    results = []
    for rec in read_table(rows, RESULT_COLUMNS, header_row=header_row):
        if rec["place"] > rec["players"]:
            raise TableError(rec["_row"], "place", f"a place from 1 to players ({rec['players']})", rec["place"])
        results.append(
            Result(
                rec["event"], rec["date"], rec["players"], rec["rounds"], rec["player"], rec["place"],
                bool(rec["world_championship"]), rec["_row"],
            )
        )
    return results
