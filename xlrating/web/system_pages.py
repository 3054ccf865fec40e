"""Every registered rating system's public pages: its own module when its declaration names one
(:attr:`~xlrating.systems.base.RatingSystem.pages`), else the generic pages made from its declaration
(:mod:`xlrating.web.generic_pages`). A pages module has ``routes``, ``MENU`` (the links of the site's
menu), and the search's ``search_data(store, text)``, ``SEARCH_TABLES`` and ``SEARCH_TEMPLATE``."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from starlette.routing import BaseRoute, Route

from xlrating.systems import all_systems
from xlrating.systems.base import RatingSystem
from xlrating.web.generic_pages import SystemPages


def pages_of(system: RatingSystem) -> Any:
    return importlib.import_module(system.pages) if system.pages else SystemPages(system)


def published_systems(keys: Iterable[str] | None = None) -> list[RatingSystem]:
    """The registered systems whose pages the site publishes: those of ``keys`` (``serve
    --systems``), in the registry's order, or every one."""
    wanted = None if keys is None else set(keys)
    return [system for system in all_systems() if wanted is None or system.key in wanted]


def pages_of_every_system(keys: Iterable[str] | None = None) -> list[Any]:
    return [pages_of(system) for system in published_systems(keys)]


def systems_with_pages(keys: Iterable[str] | None = None) -> list[tuple[RatingSystem, Any]]:
    return [(system, pages_of(system)) for system in published_systems(keys)]


def menu(keys: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """The site menu's links to each published system's pages, in the registry's order."""
    return [link for pages in pages_of_every_system(keys) for link in pages.MENU]


def _specificity(route: BaseRoute) -> tuple[int, ...]:
    """Literal path segments before parameters: ``/rankings/dci/{category}`` is tried before
    ``/rankings/{ruleset}/{rules}``, whichever system was registered first."""
    path = route.path if isinstance(route, Route) else ""
    return tuple(1 if "{" in part else 0 for part in path.strip("/").split("/"))


def public_routes(keys: Iterable[str] | None = None) -> list[BaseRoute]:
    """Every published system's pages; first each player's explanation
    (:mod:`xlrating.web.explain_pages`), before the players' pages whose names may hold a ``/``."""
    from xlrating.web import explain_pages

    routes = [route for pages in pages_of_every_system(keys) for route in pages.routes]
    return [*explain_pages.routes(systems_with_pages(keys)), *sorted(routes, key=_specificity)]
