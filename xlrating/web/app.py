"""The intake server's application: settings, middleware, routes.

Three audiences, three groups of thin handlers over :mod:`xlrating.systems`, :mod:`xlrating.sheets`
and :mod:`xlrating.store`: :mod:`~xlrating.web.organiser` (no account: check a sheet, download the
annotated copy, submit it), :mod:`~xlrating.web.officer` (signed in: the queue, accept, reject) and
the public pages of every registered rating system (:mod:`~xlrating.web.system_pages`: each system's
own module, such as :mod:`~xlrating.web.mers_pages`, or the generic ones) with the search across them
(:mod:`~xlrating.web.search_page`), each also as JSON, CSV and Excel (see :mod:`~xlrating.web.pages`).
Pages are rendered on the server (Jinja2, autoescaped) and need no JavaScript.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from xlrating.store import StoreError, open_store, sqlite_path
from xlrating.web.checking import SheetChecker
from xlrating.web.pages import HERE, SESSION_HOURS, error_page, kept_responses
from xlrating.web.security import BodyLimit, CsrfRefused, RateLimits, SecurityHeaders
from xlrating.web.settings import Settings

__all__ = ["Settings", "create_app"]

def create_app(settings: Settings) -> Starlette:
    """The application for ``settings``; opens (and if needed creates) the store at once, so a
    wrong ``--db`` is an error at start, not on the first request."""
    from xlrating.web import home_page, officer, officer_register, organiser, search_page
    from xlrating.web.system_pages import menu, public_routes

    if sqlite_path(settings.db) == ":memory:":
        raise StoreError(f"{settings.db}: the server needs a store file (each request opens it); "
                         "choose one with --db")
    open_store(settings.db).close()
    checker = SheetChecker(settings.check_processes, timeout=settings.check_timeout)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        checker.close()

    routes = [
        *home_page.routes, *organiser.routes, *officer.routes, *officer_register.routes, *public_routes(settings.systems), *search_page.routes,
        Route("/healthz", lambda request: Response("ok", media_type="text/plain")),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = [
        Middleware(SecurityHeaders, hsts=settings.secure_cookies),
        Middleware(BodyLimit, max_bytes=settings.max_upload_bytes + 64 * 1024,  # room for the form's fields
                   upload_bytes=settings.max_upload_bytes),
        Middleware(SessionMiddleware, secret_key=settings.secret_key or secrets.token_urlsafe(32),
                   session_cookie="xlrating_session", max_age=SESSION_HOURS * 3600, same_site="lax",
                   https_only=settings.secure_cookies),
    ]

    async def refused(request: Request, exc: Exception) -> Response:
        return error_page(request, 403, "Refused", str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        titles = {400: "Bad request", 404: "Not found", 405: "Not allowed"}
        return error_page(request, exc.status_code, titles.get(exc.status_code, "Error"),
                          exc.detail if exc.status_code != 404 else "There is no page at this address.",
                          as_json=request.url.path.endswith(".json"))

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={CsrfRefused: refused, HTTPException: http_error})
    app.state.settings = settings
    app.state.menu = menu(settings.systems)
    app.state.responses = kept_responses()
    app.state.checker = checker
    app.state.rates = RateLimits(uploads=settings.upload_rate, sign_in=settings.sign_in_rate)
    return app
