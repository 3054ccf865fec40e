"""The DCI public pages, as the DCI published its ratings: a rating list per category (Limited,
Constructed, ... as the matches name them), the events with a page each (dates, rounds, players,
tier and K, categories, every match with the ratings it was rated from and its change), and a
page per player (their rating in each category, every match with the change ``K * (W - p)``, the
rating over time as a chart drawn on the server). Each is also JSON, CSV and Excel (see
:mod:`xlrating.web.pages`).

The rating lists are ``xlrating rank dci`` of the store (:mod:`xlrating.web.dci_published`);
``?method=table`` rates with the FIDE-style table as ``rank dci --method table`` does. A player's
country is the one their latest event gives (the matches tables' ``player_country`` and
``opponent_country``); ``?country=`` on a rating list keeps that country's players, each with their
place among them (``national_rank``) beside their rank in the whole list.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from typing import Any
from urllib.parse import quote

from starlette.requests import Request

from xlrating.core import dci
from xlrating.core.countries import country_code
from xlrating.core.dci.history import RatedMatch
from xlrating.core.names import fold, folded, has_folded
from xlrating.store import SQLiteStore
from xlrating.web import countries
from xlrating.web import dci_published as published
from xlrating.web.charts import total_chart
from xlrating.web.pages import (
    HOME_LATEST,
    HOME_LEADERS,
    BadRequest,
    NotFound,
    Page,
    Table,
    choice,
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

RANKINGS_PATH = "/rankings/dci"
EVENTS_PATH = "/dci/events"
PLAYERS_PATH = "/dci/players"
RANKING_COLUMNS = ("rank", "national_rank", "player", "country", "rating", "count")
CATEGORY_COLUMNS = ("category", "players", "matches", "leader", "rating", "address")
EVENT_LIST_COLUMNS = ("id", "name", "start_date", "end_date", "players", "rounds", "matches", "byes", "categories",
                      "tiers", "k", "k_values", "version", "address")
MATCH_COLUMNS = ("round", "date", "category", "player", "player_country", "opponent", "opponent_country", "result",
                 "k", "tier", "expected", "player_before", "player_after", "change", "opponent_before",
                 "opponent_after")
PLAYER_CHANGE_COLUMNS = ("player", "country", "category", "matches", "rating_before", "rating_after", "change")
VERSION_COLUMNS = ("id", "version", "current", "stored_at", "replaced_at", "file_name")
PLAYER_MATCH_COLUMNS = ("date", "event_id", "event", "round", "category", "opponent", "opponent_country", "outcome",
                        "result", "k",
                        "opponent_rating", "expected", "rating_before", "change", "rating_after")
PLAYER_RATING_COLUMNS = ("category", "rank", "rated_players", "rating", "count")
HISTORY_COLUMNS = ("category", "date", "rating", "matches")
SEARCH_PLAYER_COLUMNS = ("player", "country", "categories", "matches", "address")
SEARCH_EVENT_COLUMNS = ("id", "name", "start_date", "end_date", "categories", "address")
SEARCH_TABLES = (Table("dci_players", "DCI players", SEARCH_PLAYER_COLUMNS),
                 Table("dci_events", "DCI events", SEARCH_EVENT_COLUMNS))
WORDS = {"win": "Win", "draw": "Draw", "loss": "Loss", "bye": "Bye (not rated)"}


def player_address(player: str) -> str:
    return f"{PLAYERS_PATH}/{quote(player, safe='')}"


def event_address(event_id: int) -> str:
    return f"{EVENTS_PATH}/{event_id}"


def _method(request: Request) -> str:
    return choice(request.query_params.get("method") or "formula", dci.METHODS,
                  "The win probability method (?method=)", BadRequest)


def _country(request: Request) -> str | None:
    return countries.parameter(request, "the DCI matches tables write player_country and opponent_country")


def _national(lines: list[dict[str, Any]], who: dict[str, str], country: str | None) -> list[dict[str, Any]]:
    """The ranking lines (``rank dci``'s) with each player's country, and with ``country`` only
    that country's players, each with ``national_rank``: the place among them in the line's
    category (standard competition ranking, as the rank)."""
    everyone = [{"rank": line["rank"], "national_rank": None,
                 **({"category": line["category"]} if "category" in line else {}),
                 "player": line["player"], "country": who.get(line["player"]),
                 **{k: v for k, v in line.items() if k not in ("rank", "category", "player")}} for line in lines]
    if country is None:
        return everyone
    kept = [line for line in everyone if countries.same(line["country"], country)]
    for line in kept:
        line["national_rank"] = 1 + sum(other["rating"] > line["rating"] for other in kept
                                        if other.get("category") == line.get("category"))
    return kept


def _nobody_from(country: str, lines: list[dict[str, Any]]) -> str:
    given = countries.choices(line["country"] for line in lines)
    return (f"No rated player of this list is from {country}; the rated players' countries are "
            f"{', '.join(map(countries.label, given)) if given else 'not given by the matches tables'}.")


def _context(request: Request, method: str) -> dict[str, Any]:
    """What every DCI page's HTML needs: the method as asked (None for the default), for its links."""
    return {"method": method, "method_param": request.query_params.get("method") or None, "words": WORDS,
            "country_param": request.query_params.get("country", "").strip() or None,
            "country_label": countries.label, "same_country": countries.same,
            "here": quote(request.scope["path"]),  # the decoded path, encoded again whole
            "player_address": player_address, "event_address": event_address, "methods": dci.METHODS}


def rankings_index(request: Request) -> Page:
    method = _method(request)
    country = _country(request)
    with store(request) as opened:
        now = published.snapshot(opened, method)
        events = published.current_events(opened, details=False)
        rated_by_category = kept(opened, "dci", "matches by category", lambda: Counter(
            r.match.category for r in now.history if r.match.opponent is not None))
        everyone = kept(opened, "dci", ("national", method, None),
                        lambda: _national(now.leaderboard(None)["ranking"], now.countries, None))
        ranking = kept(opened, "dci", ("national", method, country),
                       lambda: _national(now.leaderboard(None)["ranking"], now.countries, country))
    categories = sorted(rated_by_category)
    rows = []
    for category in categories:  # with one category, rank dci names it in no line
        lines = [line for line in ranking if len(categories) == 1 or line["category"] == category]
        rows.append({"category": category, "players": len(lines),
                     "matches": rated_by_category[category],
                     "leader": lines[0]["player"] if lines else None, "rating": lines[0]["rating"] if lines else None,
                     "address": href(f"{RANKINGS_PATH}/{quote(category, safe='')}",
                                     method=request.query_params.get("method") or None, country=country)})
    data = {"method": method, "country": country, "events": len(events), "categories": rows, "ranking": ranking}
    ranking_columns = ("rank", "national_rank", "category", *RANKING_COLUMNS[2:]) if len(categories) > 1 \
        else RANKING_COLUMNS
    empty = ("No DCI matches are stored yet." if not rows else
             _nobody_from(country, everyone) if country and not ranking else "")
    title = "DCI ratings" + (f": {countries.label(country)}" if country else "")
    return Page(title, "dci_rankings.html", data,
                (Table("categories", "Categories", CATEGORY_COLUMNS), Table("ranking", "Ratings", ranking_columns)),
                _context(request, method) | {"empty_reason": empty, "countries": countries.choices(now.countries.values()),
                                             "path": RANKINGS_PATH})


def ranking(request: Request) -> Page:
    method = _method(request)
    country = _country(request)
    with store(request) as opened:
        now = published.snapshot(opened, method)
        categories = kept(opened, "dci", "categories", lambda: sorted({m.category for m in now.matches}))
        if not categories:
            raise NotFound("No DCI matches are stored yet, so there is no DCI rating list.")
        category = choice(request.path_params["category"], tuple(categories), "The DCI category")
        board = now.leaderboard(category)
        everyone = kept(opened, "dci", ("national", method, category, None),
                        lambda: _national(board["ranking"], now.countries, None))
        lines = kept(opened, "dci", ("national", method, category, country),
                     lambda: _national(board["ranking"], now.countries, country))
        offered = kept(opened, "dci", ("countries", method, category),
                       lambda: countries.choices(line["country"] for line in everyone))
    empty = _nobody_from(country, everyone) if country and everyone and not lines else board["empty_reason"]
    data = {"category": category, "method": method, "country": country, "ranking": lines}
    title = f"DCI ratings: {category}" + (f", {countries.label(country)}" if country else "")
    shown, pager = paged(request, lines, lambda line: (line["player"],))
    return Page(title, "dci_ranking.html", data, (Table("ranking", "Ratings", RANKING_COLUMNS),),
                _context(request, method) | {"shown": shown, "pager": pager, "categories": categories, "empty_reason": empty,
                                             "countries": offered, "rated_everywhere": len(everyone),
                                             "path": f"{RANKINGS_PATH}/{quote(category, safe='')}"})


def events(request: Request) -> Page:
    with store(request) as opened:
        found = published.current_events(opened)
    rows = [{k: e[k] for k in EVENT_LIST_COLUMNS if k != "address"} | {"address": event_address(e["id"])}
            for e in found]
    shown, pager = paged(request, rows, lambda e: (e["name"],), what="events")
    return Page("DCI events", "dci_events.html", {"events": rows}, (Table("events", "Events", EVENT_LIST_COLUMNS),),
                {"empty_reason": "" if rows else "No DCI event is stored yet.", "shown": shown, "pager": pager,
                 "find_label": "Find an event"})


def event(request: Request) -> Page:
    number = number_parameter(request, "event_id", "DCI event", EVENTS_PATH)
    method = _method(request)
    with store(request) as opened:
        looked_up = published.event(opened, number)
        if looked_up is None:
            raise not_stored("DCI event", number, EVENTS_PATH)
        version, found = looked_up
        versions = published.event_versions(opened, version)
        stored = published.event_matches(opened, version)
        rated = published.snapshot(opened, method).of_event(found["id"])
        here = published.countries(opened, [version]).get(found["id"], {})
    tiers = {(m["date"], m["round"], m["player"], m["opponent"]): m["tier"] for m in stored}
    if found["current"]:
        matches = [_match_row(r, tiers, here) for r in rated]
    else:  # a replaced version is not rated any more: its matches as stored
        matches = [{k: m.get(k) for k in MATCH_COLUMNS} | {"player_country": here.get(m["player"]),
                                                          "opponent_country": here.get(m["opponent"])}
                   for m in stored]
    about = found | {"method": method, "countries": len(set(map(country_code, here.values())))}
    data = {"event": about, "matches": matches, "players": _changes(rated, here),
            "versions": [{k: v[k] for k in VERSION_COLUMNS} for v in versions]}
    title = (found["name"] or "Matches without an event name") + (
        "" if found["current"] else f" (version {found['version']}, replaced)")
    return Page(title, "dci_event.html", data,
                (Table("matches", "Matches", MATCH_COLUMNS), Table("players", "Rating changes", PLAYER_CHANGE_COLUMNS),
                 Table("versions", "Versions", VERSION_COLUMNS)), _context(request, method))


def _match_row(r: RatedMatch, tiers: dict[tuple[Any, ...], str | None],
               here: dict[str, str]) -> dict[str, Any]:
    m = r.match
    return {"round": m.round, "date": m.date.isoformat(), "category": m.category, "player": m.player,
            "player_country": here.get(m.player), "opponent": m.opponent,
            "opponent_country": here.get(m.opponent) if m.opponent is not None else None,
            "result": float(m.result), "k": float(m.k),
            "tier": tiers.get((m.date.isoformat(), m.round, m.player, m.opponent)), "expected": r.expected,
            "player_before": r.player_before, "player_after": r.player_after, "change": r.change,
            "opponent_before": r.opponent_before, "opponent_after": r.opponent_after}


def _changes(rated: list[RatedMatch], here: dict[str, str]) -> list[dict[str, Any]]:
    """Each player's rating before their first and after their last match of the event, per
    category, with their country in the event."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rated:
        m = r.match
        if m.opponent is None:
            continue
        for name, before, after in ((m.player, r.player_before, r.player_after),
                                    (m.opponent, r.opponent_before, r.opponent_after)):
            line = seen.setdefault((m.category, name), {"player": name, "country": here.get(name),
                                                        "category": m.category, "matches": 0,
                                                        "rating_before": before})
            line["matches"] += 1
            line["rating_after"] = after
    rows = [line | {"change": line["rating_after"] - line["rating_before"]} for line in seen.values()]
    return sorted(rows, key=lambda line: (line["category"], -line["rating_after"], line["player"]))


def player(request: Request) -> Page:
    name = request.path_params["player"]
    method = _method(request)
    with store(request) as opened:
        now = published.snapshot(opened, method)
    mine = now.of_player(name)
    if not mine:
        raise NotFound(f"No DCI player named {name!r} has a stored match; search players by name at /search.")
    boards = {c: now.leaderboard(c)["ranking"] for c in sorted({r.match.category for r in mine})}
    matches = [{k: row.get(k) for k in PLAYER_MATCH_COLUMNS}
               | {"opponent_country": now.event_countries.get(row["event_id"], {}).get(row["opponent"] or "")}
               for row in (published.from_side(r, name) for r in mine)]
    ratings = []
    for category, lines in boards.items():
        line = next((line for line in lines if line["player"] == name), None)
        ratings.append({"category": category, "rank": line["rank"] if line else None, "rated_players": len(lines),
                        "rating": line["rating"] if line else None, "count": line["count"] if line else 0})
    history = _history(matches)
    charts = {c: total_chart([{"date": p["date"], "total": p["rating"]} for p in history if p["category"] == c],
                             sorted({str(m["date"]) for m in matches if m["category"] == c and m["outcome"] != "bye"}),
                             label=f"{name}'s DCI {c} rating over time", y_range=_y_range(history, c),
                             value="rating")
              for c in sorted({p["category"] for p in history})
              if len({p["date"] for p in history if p["category"] == c}) > 1}  # a line needs two days
    country = now.countries.get(name)
    data = {"player": name, "country": country, "method": method, "ratings": ratings, "matches": matches,
            "history": history}
    return Page(name, "dci_player.html", data,
                (Table("matches", "Matches", PLAYER_MATCH_COLUMNS), Table("ratings", "Ratings", PLAYER_RATING_COLUMNS),
                 Table("history", "Rating over time", HISTORY_COLUMNS)),
                _context(request, method) | {"charts": charts, "national": {
                    c: href(f"{RANKINGS_PATH}/{quote(c, safe='')}", method=request.query_params.get("method") or None,
                            country=country) for c in boards}})


def _history(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rating in each category at the start (1600, on the first day played) and after each day
    played, with the number of matches rated so far."""
    points: list[dict[str, Any]] = []
    for category in sorted({m["category"] for m in matches if m["outcome"] != "bye"}):
        played = [m for m in matches if m["category"] == category and m["outcome"] != "bye"]
        points.append({"category": category, "date": played[0]["date"], "rating": dci.STARTING_RATING, "matches": 0})
        for count, m in enumerate(played, start=1):
            if points[-1]["date"] == m["date"] and points[-1]["matches"] > 0:
                points[-1] |= {"rating": m["rating_after"], "matches": count}
            else:
                points.append({"category": category, "date": m["date"], "rating": m["rating_after"],
                               "matches": count})
    return points


def _y_range(history: list[dict[str, Any]], category: str) -> tuple[float, float]:
    values = [p["rating"] for p in history if p["category"] == category]
    low, high = math.floor(min(values) / 50) * 50.0, math.ceil(max(values) / 50) * 50.0
    if high - low < 100:
        middle = (low + high) / 2
        low, high = middle - 50, middle + 50
    return low, high


def _search_index(opened: SQLiteStore) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, Any]]]:
    """Every DCI player (with country, categories and matches) and current event, names folded once."""
    now = published.snapshot(opened, "formula")
    players: dict[str, dict[str, Any]] = {}
    for m in now.matches:
        for name in (m.player, m.opponent):
            if name is None:
                continue
            found = players.setdefault(name, {"player": name, "country": now.countries.get(name),
                                              "categories": set(), "matches": set()})
            found["categories"].add(m.category)
            # a match listed from both sides is one match; a bye is one too
            found["matches"].add((m.date, m.event, m.round, m.category, *sorted((m.player, m.opponent or ""))))
    rows = [p | {"categories": ", ".join(sorted(p["categories"])), "matches": len(p["matches"]),
                 "address": player_address(p["player"])}
            for p in sorted(players.values(), key=lambda p: fold(p["player"]))]
    events = sorted(opened.events("dci"), key=lambda e: (e.start_date, e.number), reverse=True)
    return [(folded(p["player"]), p) for p in rows], [(folded(e.name), e) for e in events]


def search_data(opened: SQLiteStore, text: str) -> dict[str, Any]:
    """What ``/search`` adds for DCI: the players and events whose name holds every word of ``text``
    (accent- and case-insensitively), at most 100 of each."""
    words = fold(text).split()
    if not words:
        return merged(found("dci_players", []), found("dci_events", []))
    players, named = kept(opened, "dci", "search", lambda: _search_index(opened))
    people = found("dci_players", [p for key, p in players if has_folded(words, key)])
    chosen = found("dci_events", [e for key, e in named if has_folded(words, key)])
    details = {e["id"]: e for e in published.current_events(opened)}
    chosen["dci_events"] = [{k: details[e.number][k] for k in SEARCH_EVENT_COLUMNS if k != "address"}
                            | {"address": event_address(e.number)} for e in chosen["dci_events"]]
    return merged(people, chosen)



MENU = (("DCI", RANKINGS_PATH),)


def home_summary(opened: SQLiteStore, today: dt.date) -> dict[str, Any]:
    """What the home page shows of DCI: the top of each category's rating list and the latest
    events."""
    now = published.snapshot(opened, "formula")
    boards = []
    for category in sorted({m.category for m in now.matches}):
        lines = now.leaderboard(category)["ranking"]
        if lines:
            boards.append({"title": f"{category} ratings", "address": f"{RANKINGS_PATH}/{quote(category, safe='')}",
                           "value": "Rating", "ranked": len(lines),
                           "leaders": [{"rank": line["rank"], "name": line["player"],
                                        "address": player_address(line["player"]), "value": line["rating"]}
                                       for line in lines[:HOME_LEADERS]]})
    latest = [{"name": e["name"], "date": e["end_date"], "address": event_address(e["id"]),
               "detail": f"{e['players']} players"}
              for e in [e for e in published.current_events(opened, details=False)
                        if e["end_date"] <= today.isoformat()][:HOME_LATEST]]
    return {"boards": boards, "latest": latest, "events_address": EVENTS_PATH, "rankings_address": RANKINGS_PATH}
SEARCH_TEMPLATE = "dci_search.html"

routes = [
    *page_routes(RANKINGS_PATH, rankings_index),
    *page_routes(RANKINGS_PATH + "/{category:path}", ranking),  # a category may hold a "/"
    *page_routes(EVENTS_PATH, events),
    *page_routes(EVENTS_PATH + "/{event_id}", event),
    *page_routes(PLAYERS_PATH + "/{player:path}", player),
]
