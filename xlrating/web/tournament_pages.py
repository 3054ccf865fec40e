"""The stored tournaments: the list (current versions, newest first) and a page per tournament
version with its standings and base ranks, its weight and its age, ruleset, dates and place.
Each is also JSON, CSV and Excel (see :mod:`xlrating.web.pages`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request

from xlrating.core import mers
from xlrating.store import queries
from xlrating.web.pages import NotFound, Page, Table, choice, date_parameter, page_routes, store
from xlrating.web.public import DEFAULT_RULES

LIST_COLUMNS = ("id", "name", "ruleset", "start_date", "end_date", "city", "country", "players", "weight", "version")
STANDING_COLUMNS = ("place", "base_rank", "ema_id", "last_name", "first_name", "country", "table_points", "score")


def tournaments(request: Request) -> Page:
    with store(request) as opened:
        stored = queries.current_tournaments(opened)
    rows = [{column: t[column] for column in LIST_COLUMNS} | {"address": f"/tournaments/{t['id']}"} for t in stored]
    return Page("Tournaments", "tournaments.html", {"tournaments": rows},
                (Table("tournaments", "Tournaments", (*LIST_COLUMNS, "address")),))


def _age(end_date: str, as_of: dt.date, rules: str) -> dict[str, Any]:
    """How old the tournament is on ``as_of`` and its results' age factor under ``rules``."""
    played = dt.date.fromisoformat(end_date)
    factor = mers.age_factor(played, as_of, rules) if played <= as_of else None
    return {"age_days": (as_of - played).days, "age_factor": factor}


def tournament(request: Request) -> Page:
    text = request.path_params["tournament_id"]
    if not text.isdigit() or len(text) > 12:
        raise NotFound(f"There is no tournament number {text!r}: tournaments are numbered 1, 2, 3...; "
                       f"the list at /tournaments links each one.")
    rules = choice(request.query_params.get("rules") or DEFAULT_RULES, mers.RULES, "The rule era")
    as_of = date_parameter(request)
    with store(request) as opened:
        found = queries.tournament(opened, int(text))
        if found is None:
            raise NotFound(f"There is no tournament number {text}; the list at /tournaments links each one.")
        results = queries.standings(opened, found["id"])
        versions = queries.tournament_versions(opened, found["id"])
    standings = [{"place": r["place"], "base_rank": mers.base_rank(found["players"], r["place"])}
                 | {k: r[k] for k in STANDING_COLUMNS if k not in ("place", "base_rank")} for r in results]
    about = found | {"rules": rules, "as_of": as_of.isoformat()} | _age(found["end_date"], as_of, rules)
    data = {"tournament": about, "standings": standings,
            "versions": [{k: v[k] for k in ("id", "version", "current", "stored_at", "replaced_at", "file_name")}
                         for v in versions]}
    title = found["name"] + ("" if found["current"] else f" (version {found['version']}, replaced)")
    return Page(title, "tournament.html", data,
                (Table("standings", "Standings", STANDING_COLUMNS),
                 Table("versions", "Versions", ("id", "version", "current", "stored_at", "replaced_at", "file_name"))),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None})


routes = [
    *page_routes("/tournaments", tournaments),
    *page_routes("/tournaments/{tournament_id}", tournament),
]
