"""``/search?q=NAME``: players (by first or last name, in any order, or EMA ID) and tournaments
(by name or city), accent- and case-insensitively, the Dip Pouch players and events and the DCI players and events by name
(:func:`xlrating.web.dci_pages.search_data`). Also JSON, CSV (the players) and Excel."""

from __future__ import annotations

from starlette.requests import Request

from xlrating.store import queries
from xlrating.web import dci_pages, dippouch_pages
from xlrating.web.pages import BadRequest, Page, Table, page_routes, store

LONGEST_QUERY = 100
PLAYER_COLUMNS = ("ema_id", "first_name", "last_name", "country", "address")
TOURNAMENT_COLUMNS = ("id", "name", "ruleset", "start_date", "city", "country", "address")


def search(request: Request) -> Page:
    text = request.query_params.get("q", "").strip()
    if len(text) > LONGEST_QUERY:
        raise BadRequest(f"The parameter q is {len(text)} characters long; search with at most {LONGEST_QUERY} "
                         f"(a name or part of one).")
    with store(request) as opened:
        players, tournaments = queries.search(opened, text)
        found_dippouch = dippouch_pages.search_data(opened, text)
        found_dci = dci_pages.search_data(opened, text)
    data = {"q": text,
            "players": [{k: p[k] for k in PLAYER_COLUMNS if k != "address"} | {"address": f"/players/{p['ema_id']}"}
                        for p in players],
            "tournaments": [{k: t[k] for k in TOURNAMENT_COLUMNS if k != "address"}
                            | {"address": f"/tournaments/{t['id']}"} for t in tournaments]}
    data |= found_dippouch | found_dci
    return Page(f"Search: {text}" if text else "Search", "search.html", data,
                (Table("players", "Players", PLAYER_COLUMNS), Table("tournaments", "Tournaments", TOURNAMENT_COLUMNS),
                 *dippouch_pages.SEARCH_TABLES, *dci_pages.SEARCH_TABLES),
                {"search_text": text})


routes = page_routes("/search", search)
