"""The MERS results table and its records: a result per player and tournament, a leaderboard line."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrating.core import checks
from xlrating.core.ema_ids import player_id
from xlrating.core.errors import InvalidArgument, TableError
from xlrating.core.mers.rules import (
    RULESETS,
    Breakdown,
)
from xlrating.core.tables import Column, read_table

RESULT_COLUMNS = (
    Column("tournament", "text"),
    Column("date", "date"),
    Column("players", "whole"),
    Column("weight", "number"),
    Column("player", "player", required=False),
    Column("place", "whole", required=False),
    Column("ruleset", "text", required=False),
    Column("effective_date", "date", required=False),
    Column("base_rank", "number", required=False),
)



@dataclass(frozen=True)
class Result:
    """One player's result at one tournament. ``player`` None: a player from outside the EMA
    (counts in N, is not ranked). ``place`` None when the base rank was given instead."""

    tournament: str
    date: dt.date
    players: int
    weight: float
    player: str | None
    place: int | None = None
    ruleset: str = "MCR"
    effective_date: dt.date | None = None
    base_rank: float | None = None
    row: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Ranking:
    """A leaderboard line: ``total`` over ``count`` counted results, with the working."""

    player: str
    total: float
    count: int
    breakdown: Breakdown | None = field(default=None, repr=False, compare=False)


def ruleset(value: Any) -> str:
    """``MCR`` or ``Riichi`` (any case)."""
    return checks.choice("ruleset", value, RULESETS)


def results_from_table(rows: Iterable[Sequence[Any]], *, header_row: int = 1) -> list[Result]:
    """Read a MERS results table (docs/interfaces.md columns) into :class:`Result` records."""
    results = []
    for rec in read_table(rows, RESULT_COLUMNS, header_row=header_row, parsers={"player": player_id}):
        row = rec["_row"]
        if rec["place"] is None and rec["base_rank"] is None:
            raise TableError(row, "place", "a place (or a base_rank column)")
        if rec["players"] < 2:
            raise TableError(row, "players", "at least 2 players", rec["players"])
        if rec["place"] is not None and rec["place"] > rec["players"]:
            raise TableError(row, "place", f"a place from 1 to players ({rec['players']})", rec["place"])
        if rec["base_rank"] is not None and not 0 <= rec["base_rank"] <= 1000:
            raise TableError(row, "base_rank", "a base rank from 0 to 1000", rec["base_rank"])
        if rec["weight"] <= 0:
            raise TableError(row, "weight", "a weight > 0", rec["weight"])
        try:
            rules = ruleset(rec["ruleset"]) if rec["ruleset"] is not None else "MCR"
        except InvalidArgument:
            raise TableError(row, "ruleset", "MCR or Riichi", rec["ruleset"]) from None
        results.append(Result(rec["tournament"], rec["date"], rec["players"], rec["weight"], rec["player"],
                              rec["place"], rules, rec["effective_date"], rec["base_rank"], row))
    return results
