"""The MERS public pages, as the EMA publishes its ranking: the ranking per ruleset and rule era
(with each player's country and a country filter) and the EMA's country ranking; the stored
tournaments, and a page per tournament version with its standings and base ranks, its weight and
its age; a page per player (for each ruleset the rank and total, the counted results that make it
and the total over time as a chart, then every stored result); and what ``/search`` finds of MERS.
Each is also JSON, CSV and Excel (see :mod:`xlrating.web.pages`), computed from the store's current
tournament versions by the same code as ``xlrating rank mers`` (:mod:`xlrating.web.mers_published`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from starlette.requests import Request

from xlrating.core import mers
from xlrating.core.countries import country_code, is_country, member_names
from xlrating.core.mers.country_ranking import COUNTRY_TEAM, country_ranking
from xlrating.core.mers.history import total_history
from xlrating.store import SQLiteStore
from xlrating.web import mers_published, mers_quotas, mers_whatif
from xlrating.web.charts import total_chart
from xlrating.web.pages import (
    HOME_LATEST,
    HOME_LEADERS,
    BadRequest,
    NotFound,
    Page,
    Table,
    choice,
    date_parameter,
    found,
    merged,
    not_stored,
    number_parameter,
    page_routes,
    paged,
    store,
)


def _rules(request: Request, as_of: dt.date) -> str:
    """``?rules=`` as given, else the era in force on the page's date (as ``rank mers`` takes it)."""
    given = request.query_params.get("rules")
    return choice(given, mers.RULES, "The rule era (?rules=)", BadRequest) if given else mers.rules_in_force(as_of)
RANKING_COLUMNS = ("rank", "player", "name", "country", "total", "count", "previous_rank", "movement")
COUNTRY_COLUMNS = ("rank", "country", "country_name", "ranked_players", "total",
                   *(f"{what}_{i}" for i in range(1, COUNTRY_TEAM + 1) for what in ("player", "total")))


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
        tournaments = [event.facts["ruleset"] for event in opened.events(mers_published.SYSTEM)]
    rows = [{"ruleset": r, "rules": rules, "tournaments": tournaments.count(r),
             "ranking": f"/rankings/{r}/{rules}", "countries": f"/rankings/{r}/{rules}/countries"}
            for r in mers.RULESETS for rules in mers.RULES]
    data = {"rulesets": [{"ruleset": r, "tournaments": tournaments.count(r),
                          "rankings": {rules: f"/rankings/{r}/{rules}" for rules in mers.RULES},
                          "country_rankings": {rules: f"/rankings/{r}/{rules}/countries" for rules in mers.RULES}}
                         for r in mers.RULESETS],
            "rankings": rows}
    return Page("Rankings", "rankings.html", data,
                (Table("rankings", "Rankings", ("ruleset", "rules", "tournaments", "ranking", "countries")),),
                {"rules": mers.RULES, "default_rules": mers.rules_in_force(dt.date.today())})


def _since(request: Request, opened: SQLiteStore, ruleset: str, as_of: dt.date) -> tuple[dt.date | None, list[str]]:
    """The date the movement is counted from: ``?since=`` as given, else the day before the latest
    tournaments came in (:func:`~xlrating.web.mers_published.previous_ranking_date`)."""
    if request.query_params.get("since"):
        since = date_parameter(request, "since")
        if since >= as_of:
            raise BadRequest(f"The parameter since={since.isoformat()} is not before the ranking's date "
                             f"{as_of.isoformat()}: the movement is counted from an earlier ranking.")
        return since, []
    previous = mers_published.previous_ranking_date(opened, ruleset, as_of)
    return (None, []) if previous is None else previous


def ranking(request: Request) -> Page:
    ruleset, rules = _era(request)
    as_of = date_parameter(request)
    country = _country(request)
    with store(request) as opened:
        board = mers_published.ranking(opened, ruleset, rules, as_of)
        since, latest = _since(request, opened, ruleset, as_of)
        before = mers_published.ranking(opened, ruleset, rules, since) if since else {"ranking": []}
    moved = mers_published.movement(board["ranking"], before)
    lines = [line for line in moved if country is None or line["country"] == country]
    countries = sorted({line["country"] for line in board["ranking"] if line["country"]})
    data = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(), "country": country,
            "since": since.isoformat() if since else None, "latest_tournaments": latest, "ranking": lines}
    if lines:
        empty = ""
    elif country and board["ranking"]:
        empty = (f"No ranked player of this ranking is from {country}; the ranked players are from "
                 f"{', '.join(countries)}.")
    else:
        empty = board["empty_reason"]
    country_name = member_names().get(country or "", country)
    title = f"{ruleset} ranking, {rules} rules" + (f": {country_name}" if country else "")
    shown, pager = paged(request, lines, lambda line: (line["name"], line["player"]))
    return Page(title, "ranking.html", data, (Table("ranking", "Ranking", RANKING_COLUMNS),),
                {"shown": shown, "pager": pager, "all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None,
                 "since_param": request.query_params.get("since") or None,
                 "countries": countries, "country_names": member_names(), "empty_reason": empty,
                 "ranked_everywhere": len(board["ranking"]), "in_force": mers.rules_in_force(as_of)})


def countries(request: Request) -> Page:
    ruleset, rules = _era(request)
    as_of = date_parameter(request)
    with store(request) as opened:
        board = mers_published.ranking(opened, ruleset, rules, as_of)
    names = {line["player"]: line["name"] for line in board["ranking"]}
    rows = country_ranking(board["ranking"])
    data: dict[str, Any] = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(),
                            "team_size": COUNTRY_TEAM, "countries": rows}
    return Page(f"{ruleset} country ranking, {rules} rules", "countries.html", data,
                (Table("countries", "Countries", COUNTRY_COLUMNS),),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None, "names": names,
                 "empty_reason": "" if rows else board["empty_reason"]})


# --- the tournaments -----------------------------------------------------------------------------

LIST_COLUMNS = ("id", "name", "ruleset", "start_date", "end_date", "city", "country", "players", "weight", "version")
TOURNAMENT_STANDING_COLUMNS = ("place", "base_rank", "ema_id", "last_name", "first_name", "country", "table_points", "score")


def tournaments(request: Request) -> Page:
    with store(request) as opened:
        stored = mers_published.current_tournaments(opened)
    rows = [{column: t[column] for column in LIST_COLUMNS} | {"address": f"/tournaments/{t['id']}"} for t in stored]
    shown, pager = paged(request, rows, lambda t: (t["name"], t["city"]), what="tournaments")
    return Page("Tournaments", "tournaments.html", {"tournaments": rows},
                (Table("tournaments", "Tournaments", (*LIST_COLUMNS, "address")),),
                {"shown": shown, "pager": pager, "find_label": "Find a tournament"})


def counted_base_rank(players: int, place: float, rules: str) -> float:
    """The base rank as the ranking under ``rules`` counts it (the 2018 rules round it to a whole
    number first), so a page shows one base rank for a result in every table."""
    return mers.base_rank(players, place, "round" if mers.ERAS[rules].integer_base_ranks else "none")


def _age(end_date: str, as_of: dt.date, rules: str) -> dict[str, Any]:
    """How old the tournament is on ``as_of`` and its results' age factor under ``rules``."""
    played = dt.date.fromisoformat(end_date)
    factor = mers.age_factor(played, as_of, rules) if played <= as_of else None
    return {"age_days": (as_of - played).days, "age_factor": factor}


def tournament(request: Request) -> Page:
    number = number_parameter(request, "tournament_id", "tournament", "/tournaments")
    as_of = date_parameter(request)
    rules = _rules(request, as_of)
    with store(request) as opened:
        looked_up = mers_published.tournament(opened, number)
        if looked_up is None:
            raise not_stored("tournament", number, "/tournaments")
        version, found = looked_up
        results = mers_published.standings(opened, version)
        versions = mers_published.tournament_versions(opened, version)
    standings = [{"place": r["place"], "base_rank": counted_base_rank(found["players"], r["place"], rules)}
                 | {k: r[k] for k in TOURNAMENT_STANDING_COLUMNS if k not in ("place", "base_rank")} for r in results]
    about = found | {"rules": rules, "as_of": as_of.isoformat()} | _age(found["end_date"], as_of, rules)
    data = {"tournament": about, "standings": standings,
            "versions": [{k: v[k] for k in ("id", "version", "current", "stored_at", "replaced_at", "file_name")}
                         for v in versions]}
    title = found["name"] + ("" if found["current"] else f" (version {found['version']}, replaced)")
    return Page(title, "tournament.html", data,
                (Table("standings", "Standings", TOURNAMENT_STANDING_COLUMNS),
                 Table("versions", "Versions", ("id", "version", "current", "stored_at", "replaced_at", "file_name"))),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None})


# --- the players ---------------------------------------------------------------------------------

EMA_ID = re.compile(r"\d{8}")
PLAYER_RESULT_COLUMNS = ("tournament_id", "tournament", "ruleset", "start_date", "end_date", "city", "country", "players",
                  "weight", "place", "base_rank")
COUNTED_COLUMNS = ("ruleset", "tournament_id", "tournament", "date", "base_rank", "weight", "age_factor")
PLAYER_HISTORY_COLUMNS = ("ruleset", "date", "total", "count")


def player(request: Request) -> Page:
    ema_id = request.path_params["ema_id"]
    as_of = date_parameter(request)
    rules = _rules(request, as_of)
    if not EMA_ID.fullmatch(ema_id):
        raise NotFound(f"{ema_id!r} is not an EMA ID (8 digits, e.g. 04858660); search players by name at /search.")
    with store(request) as opened:
        who = mers_published.player_register(opened).get(ema_id)
        if who is None:
            raise NotFound(f"No player with EMA ID {ema_id} has results here; search players by name at /search.")
        results = mers_published.player_results(opened, ema_id)
        boards = {ruleset: mers_published.ranking(opened, ruleset, rules, as_of)
                  for ruleset in sorted({r["ruleset"] for r in results})}
        label_ids = {ruleset: mers_published.label_ids(opened, ruleset) for ruleset in boards}
    for row in results:
        row["base_rank"] = counted_base_rank(row["players"], row["place"], rules)
    standings, counted, history = [], [], []
    for ruleset, board in boards.items():
        ids = label_ids[ruleset]
        line = mers_published.standing(board, ema_id)
        rows = [{"ruleset": ruleset, "tournament_id": ids.get(c["tournament"])} | c for c in line.pop("counted")]
        for row in rows:
            del row["player"]
        counted += rows
        points = total_history(board["results_of"].get(ema_id, []), ema_id, ruleset, rules, as_of)
        history += [{"ruleset": ruleset} | point for point in points]
        standings.append({"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat()} | line | {"counted": rows})
    data: dict[str, Any] = {"player": who, "rules": rules, "as_of": as_of.isoformat(), "standings": standings,
                            "results": [{k: row[k] for k in PLAYER_RESULT_COLUMNS} for row in results],
                            "counted": counted, "history": history}
    charts = {ruleset: total_chart([p for p in history if p["ruleset"] == ruleset],
                                   [r["end_date"] for r in results if r["ruleset"] == ruleset],
                                   label=f"{who['name']}'s {ruleset} total under the {rules} rules, "
                                         f"up to {as_of.isoformat()}")
              for ruleset in boards}
    return Page(who["name"] or ema_id, "player.html", data,
                (Table("results", "Results", PLAYER_RESULT_COLUMNS), Table("counted", "Counted", COUNTED_COLUMNS),
                 Table("history", "Total over time", PLAYER_HISTORY_COLUMNS)),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None, "charts": charts,
                 "rules_param": request.query_params.get("rules") or None,
                 "country_names": member_names()})


# --- the search's MERS part -----------------------------------------------------------------------

SEARCH_PLAYER_COLUMNS = ("ema_id", "first_name", "last_name", "country", "address", "tournament", "place")
SEARCH_TOURNAMENT_COLUMNS = ("id", "name", "ruleset", "start_date", "city", "country", "address")
SEARCH_TABLES = (Table("players", "Players", SEARCH_PLAYER_COLUMNS),
                 Table("tournaments", "Tournaments", SEARCH_TOURNAMENT_COLUMNS))
SEARCH_TEMPLATE = "mers_search.html"
MENU = (("MERS", "/rankings"),)
PLAYERS_PATH = "/players"  # a player's page: PLAYERS_PATH/{EMA ID}


def home_summary(opened: SQLiteStore, today: dt.date) -> dict[str, Any]:
    """What the home page shows of MERS: the top of each ruleset's ranking today (under the rules
    in force) and the latest tournaments."""
    rules = mers.rules_in_force(today)
    boards = []
    for ruleset in mers.RULESETS:
        lines = mers_published.ranking(opened, ruleset, rules, today)["ranking"]
        if lines:
            boards.append({"title": f"{ruleset} ranking", "address": f"/rankings/{ruleset}/{rules}",
                           "value": "Total", "ranked": len(lines),
                           "leaders": [{"rank": line["rank"], "name": line["name"] or line["player"],
                                        "address": f"/players/{line['player']}", "value": line["total"]}
                                       for line in lines[:HOME_LEADERS]]})
    latest = [{"name": t["name"], "date": t["end_date"], "address": f"/tournaments/{t['id']}",
               "detail": f"{t['ruleset']}, {t['players']} players" + (f", {t['city']}" if t["city"] else "")}
              for t in [t for t in mers_published.current_tournaments(opened) if t["end_date"] <= today.isoformat()][:HOME_LATEST]]
    return {"boards": boards, "latest": latest, "events_address": "/tournaments", "rankings_address": "/rankings"}


def search_data(opened: SQLiteStore, text: str) -> dict[str, Any]:
    """What ``/search`` finds of MERS: players by first or last name (in any order) or EMA ID (a
    player without one: each result, with its tournament and place, linked to the tournament), and
    tournaments by name or city."""
    players, tournaments = mers_published.search(opened, text)
    shown = found("players", players)
    shown["players"] = [{k: p.get(k) for k in SEARCH_PLAYER_COLUMNS if k != "address"}
                        | {"address": f"/players/{p['ema_id']}" if p["ema_id"] else f"/tournaments/{p['tournament_id']}"}
                        for p in shown["players"]]
    events = found("tournaments", tournaments)
    events["tournaments"] = [{k: t[k] for k in SEARCH_TOURNAMENT_COLUMNS if k != "address"}
                             | {"address": f"/tournaments/{t['id']}"} for t in events["tournaments"]]
    return merged(shown, events)


routes = [
    *page_routes("/rankings", rankings_index),
    *page_routes("/rankings/{ruleset}/{rules}/countries", countries),
    *mers_quotas.routes,
    *mers_whatif.routes,  # /rankings/{ruleset}/eras before /rankings/{ruleset}/{rules}
    *page_routes("/rankings/{ruleset}/{rules}", ranking),
    *page_routes("/tournaments", tournaments),
    *page_routes("/tournaments/{tournament_id}", tournament),
    *page_routes(PLAYERS_PATH + "/{ema_id}", player),
]
