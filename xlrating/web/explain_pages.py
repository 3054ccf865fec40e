"""Each player's rating explained, a page per published system made from its declaration: at the
player's page address followed by ``/explain`` (``/players/04858660/explain`` for MERS,
``/dippouch/players/{name}/explain``, ``/dci/players/{name}/explain``, ``/K/players/{name}/explain``),
with the system's ranking options as query parameters (``?ruleset=MCR&rules=2018&as_of=2025-12-31``,
``?category=Constructed&method=table``): the explanation ``xlrating explain SYSTEM PLAYER`` gives
from the store (:meth:`~xlrating.systems.base.RatingSystem.explain`), every row with the numbers
the rules derive from it and the rating the ranking gives. Its .json is the explanation as
``explain -o .json`` writes it, its .csv the rows, and its .xlsx the workbook of plain formulas
that recomputes the rating with nothing installed
(:meth:`~xlrating.systems.base.RatingSystem.explain_workbook`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from xlrating.core.errors import RatingError
from xlrating.core.explanation import PlayerNotFound
from xlrating.systems.base import RatingSystem
from xlrating.web.generic_pages import _option
from xlrating.web.page import BadRequest, NotFound, Page, Table
from xlrating.web.pages import page_routes, store

SUFFIX = "/explain"


def players_path(pages: Any) -> str:
    """Where a system's pages put its players' pages (``/players``, ``/dippouch/players``)."""
    path = getattr(pages, "PLAYERS_PATH", None) or getattr(pages, "players_path", None)
    if not isinstance(path, str):
        raise TypeError(f"the pages {pages!r} declare no PLAYERS_PATH")
    return path


def routes(systems: Iterable[tuple[RatingSystem, Any]]) -> list[Route]:
    """The explanation pages of ``systems`` (each with its pages module): to be tried before the
    players' pages, whose names may hold a ``/``."""
    return [route for system, pages in systems
            for route in page_routes(players_path(pages) + "/{player:path}" + SUFFIX, _explained(system, pages))]


def _explained(system: RatingSystem, pages: Any) -> Any:
    def build(request: Request) -> Page:
        return explanation_page(request, system, players_path(pages))
    return build


def options_of(request: Request, system: RatingSystem) -> dict[str, Any]:
    """The ranking's options from the query, each as ``rank`` takes it (a 400 naming a bad one);
    an option not given is its default (a MERS ranking date: today)."""
    chosen = {}
    for option in system.rank_options:
        text = request.query_params.get(option.name, "").strip()
        chosen[option.name] = _option(option, text) if text else option.default
    return chosen


def explanation_page(request: Request, system: RatingSystem, players: str) -> Page:
    player = request.path_params["player"]
    options = options_of(request, system)
    where = f"the {system.title} results published here"
    with store(request) as opened:
        records = system.stored_records(opened, **options)
        if not records:
            raise NotFound(f"No {system.title} results are published here yet.")
        try:
            explanation = system.explain(records, player, source=where, stored=opened, **options)
        except PlayerNotFound as exc:
            raise NotFound(_sentence(f"{exc}; search players by name at /search.")) from None
        except RatingError as exc:
            message = str(exc)
            for option in system.rank_options:  # the command line's words, as the page's
                message = message.replace(f"with {option.flag}", f"with the parameter {option.name}=")
            raise BadRequest(_sentence(message)) from None
    data = explanation.as_dict()
    shown = {option.name: _text(options.get(option.name)) for option in system.rank_options}
    address = f"{players}/{_quoted(explanation.player)}"
    brief = tuple(column for column in explanation.columns if column.brief)  # the downloads hold every column
    context = {"explanation": explanation, "columns": brief, "player_address": address,
               "options": [(option, shown[option.name]) for option in system.rank_options],
               "choices": {option.name: option.choices for option in system.rank_options},
               "action": address + SUFFIX}
    who = f"{explanation.name} ({explanation.player})" if explanation.name else explanation.player
    return Page(f"The {system.title} {explanation.value_name} of {who}: how it comes about", "explain.html", data,
                (Table("rows", "Explanation", tuple(column.key for column in explanation.columns)),), context,
                workbook=lambda: system.explain_workbook(explanation))


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:]


def _text(value: Any) -> str:
    return "" if value is None else value.isoformat() if isinstance(value, dt.date) else str(value)


def _quoted(player: str) -> str:
    from urllib.parse import quote

    return quote(player, safe="")
