"""The Dip Pouch public pages, as the World Diplomacy Database publishes the rating: the ranking
(international, or national with ``?country=``; permanent, or at the end of a year with
``?year=``), the list of the events included, a page per event (its value and standings with each
player's percentile and rating change) and a page per player (their events, the rating before and
after each, and the rating over time as a chart). Each is also JSON, CSV and Excel (see
:mod:`xlrating.web.pages`).

The ratings are those ``xlrating rank dippouch`` computes from the store
(:mod:`xlrating.web.dippouch_published`): a ranking line's rank, player, rating and count are the
command's, and a player's last rating after an event is their rating in the ranking.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.requests import Request

from xlrating.core import dippouch
from xlrating.store import SQLiteStore
from xlrating.web import countries
from xlrating.web import dippouch_published as published
from xlrating.web.charts import total_chart
from xlrating.web.pages import (
    HOME_LATEST,
    HOME_LEADERS,
    BadRequest,
    NotFound,
    Page,
    Table,
    found,
    href,
    merged,
    not_stored,
    number_parameter,
    page_routes,
    paged,
    store,
)
from xlrating.web.published import kept

RANKING_PATH = "/rankings/dippouch"
EVENTS_PATH = "/dippouch/events"
PLAYERS_PATH = "/dippouch/players"
RANKING_COLUMNS = ("rank", "national_rank", "player", "country", "rating", "count", "address")
EVENT_LIST_COLUMNS = ("id", "name", "date", "location", "players", "rounds", "world_championship", "value",
                      "version", "address")
STANDING_COLUMNS = ("place", "player", "country", "score", "percentile", "rating_before", "rating_after", "change",
                    "address")
HISTORY_COLUMNS = ("event_id", "event", "date", "location", "players", "rounds", "world_championship", "place",
                   "percentile", "value", "rating_before", "rating_after", "change", "address")
YEAR_COLUMNS = ("year", "rank", "rating", "count", "rated_players", "address")
VERSION_COLUMNS = ("id", "version", "current", "stored_at", "replaced_at", "file_name")


def player_address(player: str) -> str:
    """A player's page (the name as the tables write it, any character escaped)."""
    return f"{PLAYERS_PATH}/{quote(player, safe='')}"


def event_address(event_id: int | None) -> str | None:
    return None if event_id is None else f"{EVENTS_PATH}/{event_id}"


def _country(request: Request) -> str | None:
    return countries.parameter(request, "the results tables write the players' nationality")


def _year(request: Request) -> int | None:
    text = request.query_params.get("year", "").strip()
    if not text:
        return None
    if not (len(text) == 4 and text.isdigit()):
        raise BadRequest(f"The parameter year={text!r} is not a year: give one with 4 digits (e.g. year=2023), "
                         f"or none for the permanent ranking.")
    return int(text)


# --- the ranking -----------------------------------------------------------------------------------

def ranking(request: Request) -> Page:
    year = _year(request)
    country = _country(request)
    with store(request) as opened:
        players = published.players_of(opened)
        board = published.ranking_of(opened, year)
        years = published.years_of(opened)
        everyone = kept(opened, published.SYSTEM, ("ranked", year), lambda: [
            line | {"country": players.get(line["player"], {}).get("country"), "address": player_address(line["player"])}
            for line in board["ranking"]])
        offered = kept(opened, published.SYSTEM, ("countries", year),
                       lambda: countries.choices(line["country"] for line in everyone))
    lines = [dict(line) for line in everyone if country is None or countries.same(line["country"], country)]
    national = [line["rating"] for line in lines]
    for line in lines:
        # the place among the country's players (standard competition ranking, as the rank)
        line["national_rank"] = 1 + sum(other > line["rating"] for other in national) if country else None
    if lines:
        empty = ""
    elif country and everyone:
        empty = (f"No rated player is from {country}; the rated players' nationalities are "
                 f"{', '.join(offered) or 'not given by the tables'}.")
    else:
        empty = board["empty_reason"]
    listed = [{column: line[column] for column in RANKING_COLUMNS} for line in lines]
    data = {"system": "dippouch", "year": year, "country": country, "ranking": listed}
    when = f"at the end of {year}" if year else "permanent"
    title = "Dip Pouch rating, " + (f"national ranking: {countries.label(country)}" if country
                                    else "international ranking") + f" ({when})"
    shown, pager = paged(request, listed, lambda line: (line["player"],))
    return Page(title, "dippouch_ranking.html", data, (Table("ranking", "Ranking", RANKING_COLUMNS),),
                {"shown": shown, "pager": pager, "years": years, "countries": offered, "same_country": countries.same,
                 "country_label": countries.label,
                 "empty_reason": empty, "rated_everywhere": len(everyone), "events_path": EVENTS_PATH,
                 "ranking_path": RANKING_PATH})


# --- the events ------------------------------------------------------------------------------------

def _value(row: dict[str, Any]) -> float:
    return dippouch.tournament_value(row["players"], row["rounds"], row["world_championship"],
                                     dt.date.fromisoformat(row["date"]).year)


def events(request: Request) -> Page:
    with store(request) as opened:
        stored = published.events_of(opened)
    rows = [{column: e[column] for column in EVENT_LIST_COLUMNS if column not in ("value", "address")}
            | {"value": _value(e), "address": event_address(e["id"])} for e in stored]
    listed = [{c: row[c] for c in EVENT_LIST_COLUMNS} for row in rows]
    shown, pager = paged(request, listed, lambda e: (e["name"], e["location"]), what="events")
    return Page("Dip Pouch: the events included", "dippouch_events.html", {"system": "dippouch", "events": listed},
                (Table("events", "Events", EVENT_LIST_COLUMNS),),
                {"ranking_path": RANKING_PATH, "shown": shown, "pager": pager, "find_label": "Find an event"})


def event(request: Request) -> Page:
    event_id = number_parameter(request, "event_id", "Dip Pouch event", EVENTS_PATH)
    with store(request) as opened:
        looked_up = published.event(opened, event_id)
        if looked_up is None:
            raise not_stored("Dip Pouch event", event_id, EVENTS_PATH)
        version, found = looked_up
        standings = published.standings(opened, version)
        versions = published.event_versions(opened, version)
        every = published.histories_of(opened) if found["current"] else {}
    day = found["date"]
    changes = {s["player"]: next((step for step in every.get(s["player"], ()) if step["event"] == found["name"]
                                  and step["date"] == day), {}) for s in standings}
    rows = []
    for s in standings:
        step = changes.get(s["player"], {})
        rows.append({"place": s["place"], "player": s["player"], "country": s["country"], "score": s["score"],
                     "percentile": dippouch.percentile(found["players"], s["place"]),
                     "rating_before": step.get("rating_before"), "rating_after": step.get("rating_after"),
                     "change": step.get("change"), "address": player_address(s["player"])})
    about = found | {"value": _value(found), "listed": len(standings)}
    data = {"system": "dippouch", "event": about, "standings": rows,
            "versions": [{c: v[c] for c in VERSION_COLUMNS} for v in versions]}
    title = found["name"] + ("" if found["current"] else f" (version {found['version']}, replaced)")
    return Page(title, "dippouch_event.html", data,
                (Table("standings", "Standings", STANDING_COLUMNS), Table("versions", "Versions", VERSION_COLUMNS)),
                {"ranking_path": RANKING_PATH, "events_path": EVENTS_PATH})


# --- the players -----------------------------------------------------------------------------------

def _y_range(ratings: list[float]) -> tuple[float, float]:
    """The chart's bottom and top: the ratings' range in tens, at least 20 wide, within 0-100."""
    low, high = math.floor(min(ratings) / 10) * 10.0, math.ceil(max(ratings) / 10) * 10.0
    if high - low < 20:
        low, high = max(0.0, low - 10), min(100.0, high + 10)
    return low, high


def rating_chart(name: str, history: list[dict[str, Any]]) -> Markup:
    """The rating after each day the player played, as a step chart drawn on the server."""
    points: list[dict[str, Any]] = []
    for step in history:
        if points and points[-1]["date"] == step["date"]:
            points[-1]["total"] = step["rating_after"]  # two events on one day: the day ends at the last
        else:
            points.append({"date": step["date"], "total": step["rating_after"]})
    if not points:
        return Markup("")
    return total_chart(points, [p["date"] for p in points], label=f"{name}'s Dip Pouch rating after each event",
                       y_range=_y_range([dippouch.STARTING_RATING, *(p["total"] for p in points)]), value="rating")


def player(request: Request) -> Page:
    name = request.path_params["player"]
    with store(request) as opened:
        who = published.players_of(opened).get(name)
        if who is None:
            raise NotFound(f"No Dip Pouch player named {name!r} has results here; search players by name at /search.")
        ids = published.event_ids_of(opened)
        locations = {e["id"]: e["location"] for e in published.events_of(opened)}
        permanent = published.ranking_of(opened)
        board = permanent["ranking"]
        steps = published.histories_of(opened)[name]
        year_boards = {year: published.ranking_of(opened, year) for year in published.years_of(opened)
                       if year >= int(steps[0]["date"][:4])}
    line = permanent["lines_of"][name]
    history: list[dict[str, Any]] = []
    for step in steps:
        event_id = ids.get((step["event"], step["date"]))
        history.append({"event_id": event_id, "location": locations.get(event_id)} | step
                       | {"address": event_address(event_id)})
    history.reverse()  # newest first, as the event lists are
    per_year = []
    for year, year_board in year_boards.items():  # as each year's ranking says
        mine = year_board["lines_of"][name]
        per_year.append({"year": year, "rank": mine["rank"], "rating": mine["rating"], "count": mine["count"],
                         "rated_players": len(year_board["ranking"]), "address": href(RANKING_PATH, year=year)})
    data: dict[str, Any] = {"system": "dippouch", "player": who,
                            "standing": {"rank": line["rank"], "rating": line["rating"], "count": line["count"],
                                         "rated_players": len(board)},
                            "history": [{c: step[c] for c in HISTORY_COLUMNS} for step in history],
                            "years": per_year}
    return Page(f"{name}: Dip Pouch rating", "dippouch_player.html", data,
                (Table("history", "Events", HISTORY_COLUMNS), Table("years", "Per year", YEAR_COLUMNS)),
                {"chart": rating_chart(name, list(reversed(history))), "ranking_path": RANKING_PATH,
                 "country_label": countries.label, "national": href(RANKING_PATH, country=who["country"])})


# --- the search's Dip Pouch part -------------------------------------------------------------------

SEARCH_PLAYER_COLUMNS = ("player", "country", "events", "address")
SEARCH_EVENT_COLUMNS = ("id", "name", "date", "location", "address")
SEARCH_TABLES = (Table("dippouch_players", "Dip Pouch players", SEARCH_PLAYER_COLUMNS),
                 Table("dippouch_events", "Dip Pouch events", SEARCH_EVENT_COLUMNS))


def search_data(opened: SQLiteStore, text: str) -> dict[str, Any]:
    """What ``/search`` adds for Dip Pouch: the players and events whose name has every word."""
    players, events = published.search(opened, text)
    people, named = found("dippouch_players", players), found("dippouch_events", events)
    people["dippouch_players"] = [p | {"address": player_address(p["player"])} for p in people["dippouch_players"]]
    named["dippouch_events"] = [{c: e[c] for c in SEARCH_EVENT_COLUMNS if c != "address"}
                                | {"address": event_address(e["id"])} for e in named["dippouch_events"]]
    return merged(people, named)


MENU = (("Dip Pouch", RANKING_PATH),)


def home_summary(opened: SQLiteStore, today: dt.date) -> dict[str, Any]:
    """What the home page shows of Dip Pouch: the top of the permanent international ranking and
    the latest events."""
    lines = published.ranking_of(opened)["ranking"]
    boards = [{"title": "International ranking", "address": RANKING_PATH, "value": "Rating", "ranked": len(lines),
               "leaders": [{"rank": line["rank"], "name": line["player"], "address": player_address(line["player"]),
                            "value": line["rating"]} for line in lines[:HOME_LEADERS]]}] if lines else []
    latest = [{"name": e["name"], "date": e["date"], "address": event_address(e["id"]),
               "detail": f"{e['players']} players" + (f", {e['location']}" if e["location"] else "")}
              for e in [e for e in published.events_of(opened) if e["date"] <= today.isoformat()][:HOME_LATEST]]
    return {"boards": boards, "latest": latest, "events_address": EVENTS_PATH, "rankings_address": RANKING_PATH}
SEARCH_TEMPLATE = "dippouch_search.html"

routes = [
    *page_routes(RANKING_PATH, ranking),
    *page_routes(EVENTS_PATH, events),
    *page_routes(EVENTS_PATH + "/{event_id}", event),
    *page_routes(PLAYERS_PATH + "/{player:path}", player),
]
