"""The register of players on the ranking officer's pages (signed in): each system's log of
changes, and the forms that merge, split, set a country, mark a homonym and undo, as
``xlrating players`` does (:mod:`xlrating.store.register`); the officer signed in is who made the
change. Every public page follows at once (the store's revision counts the register's changes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from xlrating.store.register import RegisterError
from xlrating.systems import UnknownSystem, get
from xlrating.systems.base import RatingSystem
from xlrating.web.officer import officer_only
from xlrating.web.pages import error_page, render, signed_in, store
from xlrating.web.security import check_csrf

ACTIONS = ("merge", "split", "country", "homonym", "undo")


def _system(request: Request) -> RatingSystem | None:
    try:
        return get(request.path_params["system"])
    except UnknownSystem:
        return None


def _page(request: Request, system: RatingSystem, status: int = 200, **context: Any) -> Response:
    def read() -> list[Any]:
        with store(request) as opened:
            return opened.register_log(system.key)
    return render(request, "register.html", {"system": system, "changes": read()} | context, status)


@officer_only
async def register(request: Request) -> Response:
    """GET /officer/register/{system}: the log and the forms."""
    system = _system(request)
    if system is None:
        return error_page(request, 404, "Not found", "There is no rating system of that name.")
    return await run_in_threadpool(_page, request, system)


@officer_only
async def change(request: Request) -> Response:
    """POST /officer/register/{system}/{action}: make one change, then back to the log."""
    system = _system(request)
    action = request.path_params["action"]
    if system is None or action not in ACTIONS:
        return error_page(request, 404, "Not found", "There is no such register page.")
    form = await request.form(max_files=0, max_fields=10, max_part_size=4 * 1024)
    check_csrf(request, form)
    given = {key: str(value).strip() for key, value in form.items() if key != "csrf_token"}
    by = signed_in(request) or "officer"

    def make() -> Any:
        with store(request) as opened:
            why = given.get("why", "")
            if action == "merge":
                return opened.merge(system.key, given.get("player", ""), given.get("into", ""), by=by, why=why)
            if action == "split":
                return opened.split(system.key, given.get("player", ""), given.get("new_player", ""),
                                    _events(opened, system, given.get("events", "")), by=by, why=why)
            if action == "country":
                return opened.set_country(system.key, given.get("player", ""), given.get("country", "").upper(),
                                          _day(given.get("since", "")), by=by, why=why)
            if action == "homonym":
                return opened.mark_homonym(system.key, given.get("name", ""), by=by, why=why)
            return opened.undo(system.key, _number(given.get("change", ""), "change"), by=by, why=why)

    try:
        done = await run_in_threadpool(make)
    except RegisterError as exc:
        message = str(exc)
        return await run_in_threadpool(lambda: _page(request, system, 409, error=message))
    request.session["flash"] = f"Change {done.id}: {done.describe()}."
    return RedirectResponse(f"/officer/register/{system.key}", status_code=303)


def _number(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < len(text) < 10):
        raise RegisterError(f"the {what} is a number (as the log or the event's address gives it), not {text!r}")
    return int(text)


def _day(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RegisterError(f"the first day is a date as YYYY-MM-DD, not {text!r}") from None


def _events(opened: Any, system: RatingSystem, text: str) -> list[tuple[str, str]]:
    """The events a split names, by their numbers (comma- or space-separated), as (key, label)."""
    keys = []
    for part in text.replace(",", " ").split():
        found = opened.event(system.key, _number(part, "event"))
        if found is None or not found.current:
            raise RegisterError(f"no current {system.title} {system.event_word} has the number {part}")
        keys.append((found.key, f"{found.name} ({system.event_detail(found)})"))
    return keys


routes = [
    Route("/officer/register/{system}", register, methods=["GET"]),
    Route("/officer/register/{system}/{action}", change, methods=["POST"]),
]
