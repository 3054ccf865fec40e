"""The intake server's application: settings, middleware, routes.

Three audiences, three modules of thin handlers over :mod:`xlrating.sheets` and
:mod:`xlrating.store`: :mod:`~xlrating.web.organiser` (no account: check a sheet, download the
annotated copy, submit it), :mod:`~xlrating.web.officer` (signed in: the queue, accept, reject) and
:mod:`~xlrating.web.public` (rankings and players, each page also as JSON). Pages are rendered on
the server (Jinja2, autoescaped) and need no JavaScript.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from xlrating.store import SQLiteStore, StoreError, open_store, sqlite_path
from xlrating.web.checking import SheetChecker
from xlrating.web.security import (
    BodyLimit,
    CsrfRefused,
    OfficerPassword,
    RateLimits,
    SecurityHeaders,
    csrf_token,
)

HERE = Path(__file__).parent
SESSION_HOURS = 8


@dataclass
class Settings:
    """How one server runs; :meth:`from_env` reads the deployment's environment."""

    db: str
    officer: OfficerPassword | None = None
    secret_key: str = ""
    max_upload_bytes: int = 10 * 1024**2
    upload_rate: str = "30/minute"
    sign_in_rate: str = "10/15minutes"
    check_processes: int = 2
    check_timeout: float = 60.0
    secure_cookies: bool = False

    @classmethod
    def from_env(cls, db: str, **overrides: Any) -> Settings:
        """``XLRATING_OFFICER_USER`` (default ``officer``) with ``XLRATING_OFFICER_PASSWORD`` or
        ``XLRATING_OFFICER_PASSWORD_FILE`` (the password is never defaulted: without one nobody can
        sign in), ``XLRATING_SECRET_KEY`` (signs the session cookies; random per start if unset)."""
        password = os.environ.get("XLRATING_OFFICER_PASSWORD")
        password_file = os.environ.get("XLRATING_OFFICER_PASSWORD_FILE")
        if password is None and password_file:
            try:
                password = Path(password_file).read_text(encoding="utf-8").rstrip("\r\n")
            except OSError as exc:
                raise ValueError(f"XLRATING_OFFICER_PASSWORD_FILE={password_file}: cannot read it "
                                 f"({exc.strerror or exc})") from None
        officer = None
        if password is not None:
            if len(password) < 12:
                raise ValueError("the ranking officer's password (XLRATING_OFFICER_PASSWORD or "
                                 "XLRATING_OFFICER_PASSWORD_FILE) must have at least 12 characters")
            officer = OfficerPassword(os.environ.get("XLRATING_OFFICER_USER") or "officer", password)
        return cls(db=db, officer=officer, secret_key=os.environ.get("XLRATING_SECRET_KEY", ""), **overrides)


templates = Jinja2Templates(env=jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                                   autoescape=True))


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """A page, with what every page needs (the CSRF token for its forms, who is signed in)."""
    base = {"csrf_token": csrf_token(request), "officer": signed_in(request), "flash": request.session.pop("flash", None)}
    return templates.TemplateResponse(request, name, base | context, status_code=status_code)


def wants_json(value: str) -> tuple[str, bool]:
    """A path parameter without its ``.json`` suffix, and whether it had one."""
    return (value[:-5], True) if value.endswith(".json") else (value, False)


def json_response(data: Any, status_code: int = 200, *, public: bool = False) -> JSONResponse:
    """JSON; ``public`` data (rankings, players, tournaments) may be read by any site's scripts."""
    return JSONResponse(data, status_code=status_code, headers={"access-control-allow-origin": "*"} if public else {})


def error_page(request: Request, status: int, title: str, message: str, *, as_json: bool = False) -> Response:
    if as_json:
        return json_response({"error": title, "message": message}, status)
    return render(request, "error.html", {"title": title, "message": message}, status)


@contextlib.contextmanager
def store(request: Request) -> Iterator[SQLiteStore]:
    """The results store for one request (a connection per request, so threads never share one)."""
    settings: Settings = request.app.state.settings
    with open_store(settings.db) as opened:
        yield opened


def signed_in(request: Request) -> str | None:
    """The signed-in ranking officer, or None (also after :data:`SESSION_HOURS`)."""
    user = request.session.get("officer")
    since = request.session.get("officer_since")
    settings: Settings = request.app.state.settings
    if not isinstance(user, str) or not isinstance(since, int | float) or settings.officer is None:
        return None
    if dt.datetime.now(dt.UTC).timestamp() - since > SESSION_HOURS * 3600 or user != settings.officer.user:
        return None
    return user


def create_app(settings: Settings) -> Starlette:
    """The application for ``settings``; opens (and if needed creates) the store at once, so a
    wrong ``--db`` is an error at start, not on the first request."""
    from xlrating.web import officer, organiser, public

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
        *organiser.routes, *officer.routes, *public.routes,
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
        return error_page(request, exc.status_code, "Not found" if exc.status_code == 404 else "Error",
                          exc.detail if exc.status_code != 404 else "There is no page at this address.",
                          as_json=request.url.path.endswith(".json"))

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={CsrfRefused: refused, HTTPException: http_error})
    app.state.settings = settings
    app.state.checker = checker
    app.state.rates = RateLimits(uploads=settings.upload_rate, sign_in=settings.sign_in_rate)
    return app
