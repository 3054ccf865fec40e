"""The public ranking pages: the MERS ranking per ruleset and rule era (with each player's country
and a country filter) and the EMA's country ranking. Each is also JSON, CSV and Excel (see
:mod:`xlrating.web.pages`), computed from the store's current tournament versions by the same code
as ``xlrating rank mers`` (:mod:`xlrating.web.mers_published`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from xlrating.core import mers
from xlrating.core.countries import country_code, is_country, member_names
from xlrating.web import mers_published
from xlrating.web.pages import BadRequest, Page, Table, choice, date_parameter, page_routes, store

DEFAULT_RULES = mers.RULES[-1]  # the EMA's current rules
RANKING_COLUMNS = ("rank", "player", "name", "country", "total", "count")
COUNTRY_COLUMNS = ("rank", "country", "country_name", "ranked_players", "total",
                   *(f"{what}_{i}" for i in range(1, mers_published.COUNTRY_TEAM + 1) for what in ("player", "total")))


def _era(request: Request) -> tuple[str, str]:
    ruleset = choice(request.path_params["ruleset"], mers.RULESETS, "The ruleset")
    rules = choice(request.path_params["rules"], mers.RULES, "The rule era")
    return ruleset, rules


def _country(request: Request) -> str | None:
    text = request.query_params.get("country", "").strip()
    if not text:
        return None
    if not is_country(text):
        raise BadRequest(f"The parameter country={text!r} is not a country: give its 3-letter code as the results "
                         f"sheets write it (e.g. country=FRA) or an EMA member country's name.")
    return country_code(text)


def rankings_index(request: Request) -> Page:
    with store(request) as opened:
        tournaments = opened.tournaments()
    rows = [{"ruleset": r, "rules": rules, "tournaments": sum(t.ruleset == r for t in tournaments),
             "ranking": f"/rankings/{r}/{rules}", "countries": f"/rankings/{r}/{rules}/countries"}
            for r in mers.RULESETS for rules in mers.RULES]
    data = {"rulesets": [{"ruleset": r, "tournaments": sum(t.ruleset == r for t in tournaments),
                          "rankings": {rules: f"/rankings/{r}/{rules}" for rules in mers.RULES},
                          "country_rankings": {rules: f"/rankings/{r}/{rules}/countries" for rules in mers.RULES}}
                         for r in mers.RULESETS],
            "rankings": rows}
    return Page("Rankings", "rankings.html", data,
                (Table("rankings", "Rankings", ("ruleset", "rules", "tournaments", "ranking", "countries")),),
                {"rules": mers.RULES, "default_rules": DEFAULT_RULES})


def ranking(request: Request) -> Page:
    ruleset, rules = _era(request)
    as_of = date_parameter(request)
    country = _country(request)
    with store(request) as opened:
        board = mers_published.ranking(opened, ruleset, rules, as_of)
    lines = [line for line in board["ranking"] if country is None or line["country"] == country]
    countries = sorted({line["country"] for line in board["ranking"] if line["country"]})
    data = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(), "country": country, "ranking": lines}
    if lines:
        empty = ""
    elif country and board["ranking"]:
        empty = (f"No ranked player of this ranking is from {country}; the ranked players are from "
                 f"{', '.join(countries)}.")
    else:
        empty = board["empty_reason"]
    country_name = member_names().get(country or "", country)
    title = f"{ruleset} ranking, {rules} rules" + (f": {country_name}" if country else "")
    return Page(title, "ranking.html", data, (Table("ranking", "Ranking", RANKING_COLUMNS),),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None,
                 "countries": countries, "country_names": member_names(), "empty_reason": empty,
                 "ranked_everywhere": len(board["ranking"])})


def countries(request: Request) -> Page:
    ruleset, rules = _era(request)
    as_of = date_parameter(request)
    with store(request) as opened:
        board = mers_published.ranking(opened, ruleset, rules, as_of)
    names = {line["player"]: line["name"] for line in board["ranking"]}
    rows = mers_published.country_ranking(board["ranking"])
    data: dict[str, Any] = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(),
                            "team_size": mers_published.COUNTRY_TEAM, "countries": rows}
    return Page(f"{ruleset} country ranking, {rules} rules", "countries.html", data,
                (Table("countries", "Countries", COUNTRY_COLUMNS),),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None, "names": names,
                 "empty_reason": "" if rows else board["empty_reason"]})


routes = [
    *page_routes("/rankings", rankings_index),
    *page_routes("/rankings/{ruleset}/{rules}/countries", countries),
    *page_routes("/rankings/{ruleset}/{rules}", ranking),
]
