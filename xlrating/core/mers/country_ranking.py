"""The EMA's country ranking: countries ranked by the totals of their best-ranked players.

A country's score is the average of the totals of its :data:`COUNTRY_TEAM` best-ranked players, a
missing player counting 0 (so a country with fewer ranked players is not favoured); equal scores
share a rank. Countries are the players' 3-letter codes as the results sheets write them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from xlrating.core.countries import member_names

COUNTRY_TEAM = 3
"""The EMA's country ranking: a country's score is the average of the totals of its
:data:`COUNTRY_TEAM` best-ranked players, a missing player counting 0."""


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
