"""A Dip Pouch rating explained: every event of the player in the order rated (date, then event
name), from 40: the place (as the tie policy scores it), the percentile, the event's value and the
rating before and after (docs/rating-rules.md section 1). The last rating after is the
leaderboard's, the same double: the same operations in the same order as
:func:`xlrating.core.dippouch.ratings`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from xlrating.core import dippouch
from xlrating.core.dippouch.history import value
from xlrating.core.explanation import Column, Explanation, PlayerNotFound, close_matches, named
from xlrating.core.placement import tie_policy

COLUMNS = (Column("number", "#", "whole", True, False), Column("event", "Event", "text", True),
           Column("date", "Date", "date", True), Column("players", "Players", "whole", True),
           Column("rounds", "Rounds", "whole", True),
           Column("world_championship", "World Championship", "flag", True, False),
           Column("place", "Place", "whole", True), Column("tied", "Players at this place", "whole", True, False),
           Column("scored_place", "Place scored", brief=False), Column("percentile", "Percentile"),
           Column("value", "Value"), Column("rating_before", "Rating before"), Column("rating_after", "Rating after"),
           Column("change", "Change"))


def explain(records: list[dippouch.Result], player: str, source: str, options: dict[str, Any]) -> Explanation:
    ties = tie_policy(options.get("ties") or "best")
    player = named(player, {r.player for r in records}, source)  # "eva kovacs" is Éva Kovács
    own = sorted((r for r in records if r.player == player), key=lambda r: (r.date, r.event))
    if not own:
        raise PlayerNotFound(player, source, close_matches(player, {r.player for r in records}))
    tied = Counter((r.date, r.event, r.place) for r in records)
    rating = dippouch.STARTING_RATING
    rows = []
    for number, r in enumerate(own, start=1):
        shared = tied[r.date, r.event, r.place]
        place = float(r.place) + (shared - 1) / 2 if ties == "average" else float(r.place)
        percentile = (r.players + 0.5 - place) / r.players * 100.0
        worth = value(r)
        before = rating
        rating = before + worth / 100.0 * (percentile - before)  # the leaderboard's step, operation by operation
        rows.append({"number": number, "event": r.event, "date": r.date, "players": r.players, "rounds": r.rounds,
                     "world_championship": r.world_championship, "place": r.place, "tied": shared,
                     "scored_place": place, "percentile": percentile, "value": worth, "rating_before": before,
                     "rating_after": rating, "change": rating - before})
    board = dippouch.ratings(records, ties=ties)
    line = next(line for line in board if line.player == player)
    settings = (("ties", "Ties", ties), ("start", "Starting rating", dippouch.STARTING_RATING))
    rule = ("Each event in date order moves the rating part of the way to the percentile of the place: "
            "new = old + value / 100 x (percentile - old), percentile = (N + 0.5 - place) / N x 100, value "
            "N / 7 + 2 for one round or N / 3.5 + 2, at most 15 (a World Championship 20, an event before 2001 0); "
            "every player starts at 40.")
    return Explanation("dippouch", "Dip Pouch", player, "rating", line.rating, line.events, COLUMNS, tuple(rows),
                       settings, (), rule)
