"""``/``: the site's front page for a visitor: for each rating system the site publishes, the top of
its rankings today (or on ``?as_of=``) and its latest events, with the way to submit results. Also JSON (``/index.json``),
CSV and Excel (the leaders of every ranking, one table)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from xlrating.web.page import Page, Table
from xlrating.web.pages import date_parameter, page_routes, store
from xlrating.web.system_pages import systems_with_pages

LEADER_COLUMNS = ("system", "ranking", "rank", "name", "value", "address")
LATEST_COLUMNS = ("system", "name", "date", "detail", "address")


def home(request: Request) -> Page:
    today = date_parameter(request)
    systems = []
    with store(request) as opened:
        for system, pages in systems_with_pages(request.app.state.settings.systems):
            summary = pages.home_summary(opened, today)
            systems.append({"key": system.key, "title": system.title, "game": system.game,
                            "event_word": system.event_word} | summary)
    leaders = [{"system": s["key"], "ranking": board["title"]} | leader
               for s in systems for board in s["boards"] for leader in board["leaders"]]
    latest = [{"system": s["key"]} | event for s in systems for event in s["latest"]]
    data: dict[str, Any] = {"as_of": today.isoformat(), "systems": systems, "leaders": leaders, "latest": latest}
    return Page(request.app.state.settings.site_name, "home.html", data,
                (Table("leaders", "Leaders", LEADER_COLUMNS), Table("latest", "Latest events", LATEST_COLUMNS)),
                {"anything": bool(leaders or latest)})


routes = page_routes("/", home)
