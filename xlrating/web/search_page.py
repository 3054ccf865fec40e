"""``/search?q=NAME``: what every rating system's pages find by name (players and events),
accent- and case-insensitively, each system's part from its pages module (``search_data`` with its
``SEARCH_TABLES`` and ``SEARCH_TEMPLATE``). Also JSON, CSV (the first table) and Excel."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from xlrating.web.page import BadRequest, Page, Table
from xlrating.web.pages import page_routes, store
from xlrating.web.system_pages import systems_with_pages

LONGEST_QUERY = 100


def search(request: Request) -> Page:
    text = request.query_params.get("q", "").strip()
    if len(text) > LONGEST_QUERY:
        raise BadRequest(f"The parameter q is {len(text)} characters long; search with at most {LONGEST_QUERY} "
                         f"(a name or part of one).")
    data: dict[str, Any] = {"q": text, "found": {}}
    tables: list[Table] = []
    sections = []
    with store(request) as opened:
        for system, pages in systems_with_pages(request.app.state.settings.systems):
            part = pages.search_data(opened, text)
            data["found"].update(part.pop("found", {}))
            data |= part
            tables += pages.SEARCH_TABLES
            sections.append({"template": pages.SEARCH_TEMPLATE, "key": system.key, "title": system.title})
    return Page(f"Search: {text}" if text else "Search", "search.html", data, tuple(tables),
                {"search_text": text, "search_sections": sections, "results": data})


routes = page_routes("/search", search)
