"""A MERS total over time: the days it can change, and what the ranking said on each of them.

A total changes on the day a result is played and on the days its age factor steps (the
anniversaries of the era's :attr:`~xlrating.core.mers.rules.Era.age_steps`, counted from the
effective date when there is one); the days around each anniversary are taken too, so that a step
is seen whichever side of midnight the rules put it. Each point is computed by the ranking's own
code (:func:`xlrating.core.mers.replay.rankings`, the same doubles as the column engine) over the
player's own results: with ties at the best
place, a base rank is the player's place and the tournament's declared players, so the others'
results change nothing of it (the same doubles, summed in the same order, as the whole ranking).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from xlrating.core.dates import add_years
from xlrating.core.mers.results import Result
from xlrating.core.mers.rules import ERAS


def change_dates(results: Iterable[Result], as_of: dt.date, rules: str) -> list[dt.date]:
    """The days up to ``as_of`` on which a total made of ``results`` can change."""
    era = ERAS[rules]
    days: set[dt.date] = set()
    for result in results:
        days.add(result.date)
        ageing = result.effective_date or result.date
        for years, _ in era.age_steps:
            anniversary = add_years(ageing, years)
            days.update(anniversary + dt.timedelta(days=shift) for shift in (-1, 0, 1))
    return sorted(day for day in days if day <= as_of)


def total_history(results: list[Result], player: str, ruleset: str | None, rules: str,
                  as_of: dt.date) -> list[dict[str, Any]]:
    """The player's total on each day it could change, up to ``as_of`` (and on ``as_of``), as the
    ranking said it that day: ``{date, total (None while not ranked), count}``, keeping only the
    days on which something changed (and the last one): the points of a step chart."""
    from xlrating.core.mers import (
        replay,  # a player's few results: plain Python is quicker than numpy's set-up
    )

    played = [r for r in results if r.player == player]
    history: list[dict[str, Any]] = []
    for day in [*change_dates((r for r in played if r.player == player), as_of, rules), as_of]:
        if history and history[-1]["date"] == day.isoformat():
            continue
        line = next((r for r in replay.rankings(played, day, rules, ruleset_name=ruleset) if r.player == player), None)
        history.append({"date": day.isoformat(), "total": line.total if line else None,
                        "count": line.count if line else 0})
    return [point for i, point in enumerate(history)
            if i == 0 or i == len(history) - 1 or (point["total"], point["count"])
            != (history[i - 1]["total"], history[i - 1]["count"])]
