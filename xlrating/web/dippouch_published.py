"""What the Dip Pouch pages publish, computed from the store by the code of ``xlrating rank
dippouch``: the ranking (permanent, or as it stood at the end of a year), and each player's
rating event by event.

The ranking is :func:`xlrating.leaderboards.dippouch_leaderboard` over the current events' results
(:meth:`~xlrating.store.events.EventStore.dippouch_results`), exactly what ``rank dippouch`` with no
file prints; the year's ranking is the same over the events dated up to 31 December of that year
(as the World Diplomacy Database lists a ranking per year beside the permanent one).

A player's history replays their events in the order the leaderboard rates them (date, then event
name) with the rating rules of :mod:`xlrating.core.dippouch`: the percentile of the place, the
event's value, and the rating before and after. The last rating after is the leaderboard's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from xlrating.core import dippouch
from xlrating.leaderboards import dippouch_leaderboard


def up_to(results: Iterable[dippouch.Result], year: int | None) -> list[dippouch.Result]:
    """The results of the events dated up to the end of ``year`` (all of them without one)."""
    return [r for r in results if year is None or r.date.year <= year]


def ranking(results: list[dippouch.Result], year: int | None = None) -> dict[str, Any]:
    """``ranking``: the leaderboard's lines as ``rank dippouch`` writes them (rank, player, rating,
    count), best first; ``empty_reason`` when nobody is rated."""
    counted = up_to(results, year)
    board = dippouch_leaderboard(counted)
    if counted:
        empty = ""
    elif year is None:
        empty = "No Dip Pouch event is stored yet, so nobody has a rating."
    else:
        empty = f"No stored Dip Pouch event is dated {year} or earlier, so nobody had a rating at the end of {year}."
    return {"ranking": board.ranked(), "empty_reason": empty}


def years(results: Iterable[dippouch.Result]) -> list[int]:
    """The years in which a stored event was played, newest first (the year rankings there are)."""
    return sorted({r.date.year for r in results}, reverse=True)


def value(result: dippouch.Result) -> float:
    """The event's value in percent, as the leaderboard weighs it."""
    return dippouch.tournament_value(result.players, result.rounds, result.world_championship, result.date.year)


def histories(results: Iterable[dippouch.Result]) -> dict[str, list[dict[str, Any]]]:
    """Each player -> their events in rating order, each ``{event, date, players, rounds,
    world_championship, place, percentile, value, rating_before, rating_after, change}``."""
    by_player: dict[str, list[dippouch.Result]] = {}
    for r in results:
        by_player.setdefault(r.player, []).append(r)
    out: dict[str, list[dict[str, Any]]] = {}
    for player, played in by_player.items():
        rating = dippouch.STARTING_RATING
        steps = []
        for r in sorted(played, key=lambda r: (r.date, r.event)):
            percentile = (r.players + 0.5 - float(r.place)) / r.players * 100.0
            worth = value(r)
            before = rating
            rating += worth / 100.0 * (percentile - rating)  # the leaderboard's own step, operation by operation
            steps.append({"event": r.event, "date": r.date.isoformat(), "players": r.players, "rounds": r.rounds,
                          "world_championship": r.world_championship, "place": r.place, "percentile": percentile,
                          "value": worth, "rating_before": before, "rating_after": rating,
                          "change": rating - before})
        out[player] = steps
    return out


def event_changes(results: Iterable[dippouch.Result], name: str, day: dt.date) -> dict[str, dict[str, Any]]:
    """Each player of the event ``name`` on ``day`` -> their step of :func:`histories` there."""
    items = list(results)
    players = {r.player for r in items if r.event == name and r.date == day}
    mine = histories(r for r in items if r.player in players)
    return {player: next(step for step in steps if step["event"] == name and step["date"] == day.isoformat())
            for player, steps in mine.items()}
