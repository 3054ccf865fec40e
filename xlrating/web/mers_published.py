"""What the MERS pages publish, computed from the store by the leaderboard code of
``xlrating rank mers`` (:func:`xlrating.leaderboards.mers_leaderboard`): a ruleset's ranking with
each player's country, the EMA's country ranking, and one player's total over time.

Countries are the players' as last submitted (the results sheets' 3-letter codes, e.g. FRA).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from xlrating.core import mers
from xlrating.core.countries import member_names
from xlrating.leaderboards import mers_leaderboard
from xlrating.store import SQLiteStore, queries

COUNTRY_TEAM = 3
"""The EMA's country ranking: a country's score is the average of the totals of its
:data:`COUNTRY_TEAM` best-ranked players, a missing player counting 0."""


def ranking(store: SQLiteStore, ruleset: str, rules: str, as_of: dt.date) -> dict[str, Any]:
    """The leaderboard of ``ruleset`` on ``as_of``: ``ranking`` lines (rank, player, name, country,
    total, count), ``breakdown`` (each counted result) and ``empty_reason``."""
    results = store.mers_results(ruleset)
    players = queries.players(store)
    board = mers_leaderboard(results, as_of, rules=rules, ruleset=ruleset,
                             names={k: p["name"] for k, p in players.items()})
    lines = []
    for line in board.ranked():
        country = players.get(line["player"], {}).get("country")
        lines.append({"rank": line["rank"], "player": line["player"], "name": line["name"], "country": country,
                      "total": line["total"], "count": line["count"]})
    breakdown = [row | {"date": row["date"].isoformat() if row["date"] else None} for row in board.breakdown]
    return {"ranking": lines, "breakdown": breakdown, "empty_reason": board.empty_reason, "results": results}


def country_ranking(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Countries ranked by :data:`COUNTRY_TEAM`'s rule from ranking lines (best first; a player
    without a country is left out). Each row: rank, country, country_name, ranked_players, total,
    then player_1.. and total_1.. for the players counted (None where the country has fewer)."""
    by_country: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        if line["country"]:
            by_country.setdefault(line["country"], []).append(line)
    rows = []
    for code, members in by_country.items():
        best = sorted(members, key=lambda line: -line["total"])[:COUNTRY_TEAM]
        row: dict[str, Any] = {"country": code, "country_name": member_names().get(code, code),
                               "ranked_players": len(members),
                               "total": sum(line["total"] for line in best) / COUNTRY_TEAM}
        for i in range(COUNTRY_TEAM):
            row[f"player_{i + 1}"] = best[i]["player"] if i < len(best) else None
            row[f"total_{i + 1}"] = best[i]["total"] if i < len(best) else None
        rows.append(row)
    rows.sort(key=lambda row: (-row["total"], row["country"]))
    ranked: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        rank = ranked[-1]["rank"] if ranked and ranked[-1]["total"] == row["total"] else i + 1
        ranked.append({"rank": rank} | row)
    return ranked


def change_dates(results: Iterable[mers.Result], as_of: dt.date, rules: str) -> list[dt.date]:
    """The days on which a total made of ``results`` can change up to ``as_of``: each result's
    date, and the days around each anniversary at which the era's age factor steps."""
    era = mers.ERAS[rules]
    days: set[dt.date] = set()
    for result in results:
        days.add(result.date)
        ageing = result.effective_date or result.date
        for years, _ in era.age_steps:
            try:
                anniversary = ageing.replace(year=ageing.year + years)
            except ValueError:  # 29 February
                anniversary = ageing.replace(year=ageing.year + years, day=28)
            days.update(anniversary + dt.timedelta(days=shift) for shift in (-1, 0, 1))
    return sorted(day for day in days if day <= as_of)


def total_history(results: list[mers.Result], player: str, ruleset: str, rules: str,
                  as_of: dt.date) -> list[dict[str, Any]]:
    """The player's total on each day it could change, up to ``as_of``, computed by the ranking's
    own code over the tournaments the player played (so each point is what the ranking said that
    day). Rows: date, total (None while not ranked), count (results counted)."""
    mine = {r.tournament for r in results if r.player == player}
    played = [r for r in results if r.tournament in mine]
    history: list[dict[str, Any]] = []
    for day in [*change_dates((r for r in played if r.player == player), as_of, rules), as_of]:
        if history and history[-1]["date"] == day.isoformat():
            continue
        line = next((r for r in mers.rankings(played, day, rules, ruleset_name=ruleset) if r.player == player), None)
        history.append({"date": day.isoformat(), "total": line.total if line else None,
                        "count": line.count if line else 0})
    # keep the days on which something changed (and the last one): a step chart of the rest
    return [point for i, point in enumerate(history)
            if i == 0 or i == len(history) - 1 or (point["total"], point["count"])
            != (history[i - 1]["total"], history[i - 1]["count"])]


def standing(board: dict[str, Any], player: str) -> dict[str, Any]:
    """The player's line of a :func:`ranking` (rank, total) and counted results."""
    line = next((line for line in board["ranking"] if line["player"] == player), None)
    return {"rank": line["rank"] if line else None, "total": line["total"] if line else None,
            "ranked_players": len(board["ranking"]),
            "counted": [row for row in board["breakdown"] if row["player"] == player]}


def tournament_label_ids(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How the ranking names a tournament (its name, or ``name (start date)`` when two stored
    tournaments share the name, as :meth:`SQLiteStore.mers_results` labels them) -> its id."""
    rows = list(rows)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["name"]] = counts.get(row["name"], 0) + 1
    return {(row["name"] if counts[row["name"]] == 1 else f"{row['name']} ({row['start_date']})"): row["id"]
            for row in rows}
