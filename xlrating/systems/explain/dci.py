"""A DCI rating explained: every match of the player in the category, in the order rated (date,
event, round; a bye at its place, not rated), from 1600: the opponent's rating then, the result W,
K, the expected score p and the change K x (W - p) (docs/rating-rules.md section 2). The rating
after the last match is the leaderboard's, the same double
(:func:`xlrating.core.dci.history.history`)."""

from __future__ import annotations

from typing import Any

from xlrating.core import dci
from xlrating.core.dci.history import history
from xlrating.core.errors import RatingError
from xlrating.core.explanation import Column, Explanation, PlayerNotFound, close_matches, named

COLUMNS = (Column("number", "#", "whole", True, False), Column("date", "Date", "date", True),
           Column("event", "Event", "text", True), Column("round", "Round", "whole", True),
           Column("opponent", "Opponent", "text", True), Column("rated", "Rated", "flag", True, False),
           Column("result", "W", "number", True), Column("k", "K", "number", True),
           Column("opponent_rating", "Opponent's rating", "number", True),
           Column("rating_before", "Rating before"), Column("expected", "p", decimals=4), Column("change", "Change"),
           Column("rating_after", "Rating after"))


def explain(records: list[dci.Match], player: str, source: str, options: dict[str, Any]) -> Explanation:
    method = options.get("method") or "formula"
    player = named(player, {m.player for m in records} | {m.opponent for m in records if m.opponent is not None},
                   source)  # "eva kovacs" is Éva Kovács
    played = sorted({m.category for m in records if player in (m.player, m.opponent)})
    if not played:
        names = {m.player for m in records} | {m.opponent for m in records if m.opponent is not None}
        raise PlayerNotFound(player, source, close_matches(player, names))
    category = options.get("category")
    if category is None:
        if len(played) > 1:
            raise RatingError(f"{player} is rated in {len(played)} categories in {source} ({', '.join(played)}); "
                              f"choose one with --category")
        category = played[0]
    elif category not in played:
        raise RatingError(f"{player} has no match in category {category!r} in {source}, only in "
                          f"{', '.join(map(repr, played))}")
    rows: list[dict[str, Any]] = []
    for item in history(records, [None] * len(records), method):
        m = item.match
        if m.category != category or player not in (m.player, m.opponent):
            continue
        mine = m.player == player
        rated = m.opponent is not None
        before = (item.player_before if mine else item.opponent_before) if rated else (rows[-1]["rating_after"]
                                                                                      if rows else dci.STARTING_RATING)
        change = None if item.change is None else item.change if mine else -item.change
        rows.append({"number": len(rows) + 1, "date": m.date, "event": m.event, "round": m.round,
                     "opponent": (m.opponent if mine else m.player) if rated else "(bye)", "rated": rated,
                     "result": (float(m.result) if mine else 1.0 - float(m.result)) if rated else None,
                     "k": float(m.k), "opponent_rating": (item.opponent_before if mine else item.player_before),
                     "rating_before": before,
                     "expected": item.expected if mine else item.opponent_expected, "change": change,
                     "rating_after": (item.player_after if mine else item.opponent_after) if rated else before})
    board = dci.ratings(records, method=method)
    line = next((line for line in board if line.player == player and line.category == category), None)
    settings = (("category", "Category", category), ("method", "Method", method),
                ("start", "Starting rating", dci.STARTING_RATING))
    rule = ("Each match in order (date, event, round) changes the rating by K x (W - p): W 1 for a win, 0.5 a draw, "
            "0 a loss; p = 1 / (1 + 10^((opponent - rating) / 400))" + (", read from FIDE's Table 8.1(b) by the "
                                                                        "rating gap" if method == "table" else "")
            + "; every player starts at 1600 and a bye is not rated.")
    rating = line.rating if line is not None else None
    return Explanation("dci", "DCI", player, "rating", rating, line.matches if line is not None else 0, COLUMNS,
                       tuple(rows), settings, (), rule,
                       not_ranked=None if line is not None else f"{player} has played no rated match in {category}")
