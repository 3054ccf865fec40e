"""A player's page: for each ruleset the player has results in, the rank and total in the ranking
(era and date as asked), the counted results that make the total, and the total over time as a
chart; then every stored result. Also JSON, CSV (the results) and Excel (results, counted results
and the total over time).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request

from xlrating.core import mers
from xlrating.core.countries import member_names
from xlrating.store import queries
from xlrating.web import mers_published
from xlrating.web.charts import total_chart
from xlrating.web.pages import BadRequest, NotFound, Page, Table, choice, date_parameter, page_routes, store
from xlrating.web.public import DEFAULT_RULES

EMA_ID = re.compile(r"\d{8}")
RESULT_COLUMNS = ("tournament_id", "tournament", "ruleset", "start_date", "end_date", "city", "country", "players",
                  "weight", "place", "base_rank")
COUNTED_COLUMNS = ("ruleset", "tournament_id", "tournament", "date", "base_rank", "weight", "age_factor")
HISTORY_COLUMNS = ("ruleset", "date", "total", "count")


def player(request: Request) -> Page:
    ema_id = request.path_params["ema_id"]
    rules = choice(request.query_params.get("rules") or DEFAULT_RULES, mers.RULES, "The rule era (?rules=)", BadRequest)
    as_of = date_parameter(request)
    if not EMA_ID.fullmatch(ema_id):
        raise NotFound(f"{ema_id!r} is not an EMA ID (8 digits, e.g. 04858660); search players by name at /search.")
    with store(request) as opened:
        who = queries.players(opened).get(ema_id)
        if who is None:
            raise NotFound(f"No player with EMA ID {ema_id} has results here; search players by name at /search.")
        results = queries.player_results(opened, ema_id)
        stored = queries.current_tournaments(opened)
        boards = {ruleset: mers_published.ranking(opened, ruleset, rules, as_of)
                  for ruleset in sorted({r["ruleset"] for r in results})}
    for row in results:
        row["base_rank"] = mers.base_rank(row["players"], row["place"])
    standings, counted, history = [], [], []
    for ruleset, board in boards.items():
        ids = mers_published.tournament_label_ids(t for t in stored if t["ruleset"] == ruleset)
        line = mers_published.standing(board, ema_id)
        rows = [{"ruleset": ruleset, "tournament_id": ids.get(c["tournament"])} | c for c in line.pop("counted")]
        for row in rows:
            del row["player"]
        counted += rows
        points = mers_published.total_history(board["results"], ema_id, ruleset, rules, as_of)
        history += [{"ruleset": ruleset} | point for point in points]
        standings.append({"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat()} | line | {"counted": rows})
    data: dict[str, Any] = {"player": who, "rules": rules, "as_of": as_of.isoformat(), "standings": standings,
                            "results": [{k: row[k] for k in RESULT_COLUMNS} for row in results],
                            "counted": counted, "history": history}
    charts = {ruleset: total_chart([p for p in history if p["ruleset"] == ruleset],
                                   [r["end_date"] for r in results if r["ruleset"] == ruleset],
                                   label=f"{who['name']}'s {ruleset} total under the {rules} rules, "
                                         f"up to {as_of.isoformat()}")
              for ruleset in boards}
    return Page(who["name"] or ema_id, "player.html", data,
                (Table("results", "Results", RESULT_COLUMNS), Table("counted", "Counted", COUNTED_COLUMNS),
                 Table("history", "Total over time", HISTORY_COLUMNS)),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None, "charts": charts,
                 "country_names": member_names()})


routes = page_routes("/players/{ema_id}", player)
