"""What every page of the server shares: rendering with the site's name, errors, links, dates,
the store of a request, and the one way a public page declares its data.

A public page is a function ``request -> Page``. :func:`page_routes` serves it at its path as
HTML and, with a suffix on the same path, as JSON (``.json``: :attr:`Page.data`), CSV (``.csv``:
its first table) and Excel (``.xlsx``: every table, one sheet each). The downloads are the
JSON's own rows, so the four never disagree. A page function raises :class:`BadRequest` or
:class:`NotFound`; the visitor then gets a 400 or 404 page (or JSON) that says what was wrong.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from markupsafe import Markup
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from xlrating.core.names import fold, has_words
from xlrating.kept import Kept
from xlrating.store import SQLiteStore, open_store
from xlrating.web.page import BadRequest, FormRefused, NotFound, Page, PageError, Table
from xlrating.web.renderers import RENDERERS, XLSX, attachment, json_response
from xlrating.web.security import csrf_token

__all__ = ["XLSX", "BadRequest", "FormRefused", "NotFound", "Page", "PageError", "Table", "attachment",
           "json_response"]

HERE = Path(__file__).parent
SESSION_HOURS = 8


# --- links, dates and numbers as pages show them ------------------------------------------------

def href(path: str, **params: Any) -> str:
    """``path`` with the query parameters that have a value (never a bare ``?``)."""
    given = {k: v for k, v in params.items() if v not in (None, "")}
    return f"{path}?{urlencode(given)}" if given else path


def when(stamp: str | None) -> str:
    """A stored UTC timestamp as people read it: ``1 December 2026, 22:22 UTC``."""
    if not stamp:
        return ""
    try:
        moment = dt.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return f"{moment.day} {moment:%B %Y, %H:%M} UTC"


def day(value: Any) -> Markup:
    """A date as pages show it: kept on one line (an ISO date never wraps at its hyphens)."""
    return Markup('<span class="date">{}</span>').format(value) if value not in (None, "") else Markup("")


def number(value: Any, decimals: int = 2) -> str:
    return "" if value is None else f"{value:.{decimals}f}"


templates = Jinja2Templates(env=jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                                   autoescape=True))
templates.env.globals["href"] = href
templates.env.filters["when"] = when
templates.env.filters["number"] = number
templates.env.filters["day"] = day


# --- every page ---------------------------------------------------------------------------------

def signed_in(request: Request) -> str | None:
    """The signed-in ranking officer, or None: the session named in the cookie must be one the
    server started and has not ended (signing out ends it; a copied cookie then opens nothing), and
    not older than :data:`SESSION_HOURS`."""
    session = request.session.get("officer_session")
    officer = request.app.state.settings.officer
    if not isinstance(session, str) or officer is None:
        return None
    with store(request) as opened:
        user = opened.session_user(session, SESSION_HOURS)
    return user if user == officer.user else None


def render(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """A page, with what every page needs (the site's name, the CSRF token for its forms, who is
    signed in)."""
    settings = request.app.state.settings
    # the token is made when a form on the page asks for it: a page without a form sets no cookie
    base = {"csrf_token": lambda: csrf_token(request), "officer": signed_in(request),
            "flash": request.session.pop("flash", None),
            "site_name": settings.site_name, "federation": settings.federation, "search_text": "",
            "menu": getattr(request.app.state, "menu", ())}
    return templates.TemplateResponse(request, name, base | context, status_code=status_code)


def wants_json(value: str) -> tuple[str, bool]:
    """A path parameter without its ``.json`` suffix, and whether it had one."""
    return (value[:-5], True) if value.endswith(".json") else (value, False)


def error_page(request: Request, status: int, title: str, message: str, *, as_json: bool = False) -> Response:
    if as_json:
        return json_response({"error": title, "message": message}, status)
    return render(request, "error.html", {"title": title, "message": message}, status)


@contextlib.contextmanager
def store(request: Request) -> Iterator[SQLiteStore]:
    """The results store for one request (a connection per request, so threads never share one)."""
    with open_store(request.app.state.settings.db) as opened:
        yield opened


# --- public pages: one declaration, four formats ------------------------------------------------

class DownloadFormat(Convertor[str]):
    regex = "|".join(RENDERERS)

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("download", DownloadFormat())


def download_links(request: Request) -> list[tuple[str, str]]:
    """(label, address) of this page's JSON, CSV and Excel versions, with its query."""
    path = "/index" if request.url.path == "/" else request.url.path
    query = f"?{request.url.query}" if request.url.query else ""
    return [(download.label, f"{path}.{suffix}{query}") for suffix, download in RENDERERS.items()]


def file_stem(request: Request) -> str:
    """The download's file name: the page's path, ``/rankings/MCR/2018`` -> ``rankings-MCR-2018``."""
    path = request.url.path.rsplit(".", 1)[0] if "format" in request.path_params else request.url.path
    return "-".join(part for part in path.split("/") if part) or "page"


KEPT_RESPONSES = 2000
KEPT_BYTES = 2 * 1024**2  # a larger page (a whole ranking's workbook, say) is made again when asked
Kept_responses = Kept[Hashable, tuple[Hashable, int, list[tuple[bytes, bytes]], bytes]]


def kept_responses() -> Kept_responses:
    """An application's memory of the pages it sent (one per application: its site's name is in them)."""
    return Kept(KEPT_RESPONSES)


def page_routes(path: str, build: Callable[[Request], Page]) -> list[Route]:
    """The routes serving ``build``'s page at ``path`` (HTML) and ``path.json|.csv|.xlsx``.

    A page a visitor reads (nobody signed in, no message waiting) is kept as it was sent until the
    store's events change or the day does (its default date is today): the next visitor gets the
    same bytes without the page being made again."""
    def endpoint(request: Request) -> Response:
        kind = request.path_params.get("format", "html")
        key: Hashable = None
        kept: Kept_responses | None = getattr(request.app.state, "responses", None)
        if kept is not None and "officer_session" not in request.session and "flash" not in request.session:
            with store(request) as opened:
                now = (opened.revision(), dt.date.today())
            key = (kind, request.url.path, request.url.query)
            hit = kept.get(key)
            if hit is not None and hit[0] == now:
                response = Response(hit[3], status_code=hit[1])
                response.raw_headers = list(hit[2])
                return response
        response = _made(request, build, kind)
        body = getattr(response, "body", None)
        if kept is not None and key is not None and response.status_code == 200 and isinstance(body, bytes) \
                and len(body) <= KEPT_BYTES:
            kept[key] = (now, response.status_code, list(response.raw_headers), body)
        return response

    dotted = "/index" if path == "/" else path  # the home page's downloads are /index.json...
    return [Route(f"{dotted}.{{format:download}}", endpoint, methods=["GET"]), Route(path, endpoint, methods=["GET"])]


def _made(request: Request, build: Callable[[Request], Page], kind: str) -> Response:
    try:
        page = build(request)
    except FormRefused as exc:  # the form again, the values kept, each error next to its field
        if kind == "json":
            return json_response({"error": exc.title, "message": str(exc), "parameters": exc.errors}, exc.status)
        if kind != "html":
            return error_page(request, exc.status, exc.title, str(exc))
        form = exc.form
        return render(request, form.template, form.data | form.context
                      | {"title": form.title, "errors": exc.errors}, exc.status)
    except PageError as exc:
        return error_page(request, exc.status, exc.title, str(exc), as_json=kind == "json")
    if kind in RENDERERS:
        return RENDERERS[kind].render(page, file_stem(request))
    return render(request, page.template, page.data | page.context
                  | {"title": page.title, "downloads": download_links(request)})


def date_parameter(request: Request, name: str = "as_of") -> dt.date:
    """``?as_of=YYYY-MM-DD`` (default today); anything else is a :class:`BadRequest` naming it."""
    text = request.query_params.get(name)
    if not text:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BadRequest(f"The parameter {name}={text!r} is not a date: write it as YYYY-MM-DD, "
                         f"e.g. {name}=2025-12-31.") from None


PER_PAGE = 100
HOME_LEADERS = 10  # lines of each ranking on the home page
HOME_LATEST = 5  # latest events of each system on the home page
SEARCH_SHOWN = 100  # of each kind of thing a search finds; the count says how many it found


def merged(*parts: dict[str, Any]) -> dict[str, Any]:
    """Search parts (:func:`found`) as one, their counts together."""
    out: dict[str, Any] = {"found": {}}
    for part in parts:
        out["found"].update(part.get("found", {}))
        out.update({k: v for k, v in part.items() if k != "found"})
    return out


def found(key: str, rows: Sequence[Any]) -> dict[str, Any]:
    """A search's part: the first :data:`SEARCH_SHOWN` rows under ``key``, and how many there are
    under ``found`` (the search page says "333, the first 100 shown")."""
    return {key: list(rows[:SEARCH_SHOWN]), "found": {key: len(rows)}}


@dataclass(frozen=True)
class Pager:
    """Where a page of a long list is: rows ``first`` to ``last`` (1-based) of ``total``, page
    ``page`` of ``pages``; ``found`` the index (in the whole list) of the row ``?find=`` found, or
    None; ``keep`` the query's other parameters, for the links and the find form."""

    page: int
    pages: int
    total: int
    first: int
    last: int
    find: str
    found: int | None
    keep: tuple[tuple[str, str], ...]
    what: str

    def link(self, page: int) -> str:
        return "?" + urlencode([*self.keep, *([("page", str(page))] if page > 1 else [])])


def paged(request: Request, rows: Sequence[Any], names: Callable[[Any], Iterable[str | None]], *,
          what: str = "players", per_page: int = PER_PAGE) -> tuple[list[Any], Pager]:
    """The page of ``rows`` a visitor asks for: ``?page=N`` (from 1), or ``?find=TEXT``: the page of
    the first row whose ``names`` hold every word of TEXT (accents and capitals aside), that row
    marked; a page past the last is the last. The JSON and the downloads hold every row."""
    text = request.query_params.get("page", "").strip()
    if text and not (text.isascii() and text.isdigit() and 0 < len(text) < 7 and int(text) >= 1):
        raise BadRequest(f"The parameter page={text!r} is not a page number: give 1, 2, 3... (or none for the "
                         f"first page).")
    find = request.query_params.get("find", "").strip()[:100]
    pages = max(1, -(-len(rows) // per_page))
    page = min(int(text) if text else 1, pages)
    found = None
    if find:
        words = fold(find).split()
        found = next((i for i, row in enumerate(rows) if words and has_words(words, *names(row))), None)
        if found is not None:
            page = found // per_page + 1
    start = (page - 1) * per_page
    shown = list(rows[start:start + per_page])
    keep = tuple((k, v) for k, v in request.query_params.multi_items() if k not in ("page", "find"))
    return shown, Pager(page, pages, len(rows), start + 1 if shown else 0, start + len(shown), find, found, keep,
                        what)


def number_parameter(request: Request, name: str, what: str, listing: str) -> int:
    """An event's number in a path (``/tournaments/3``): ASCII digits, else a 404 saying how events
    are numbered and where they are listed (``²`` or ``٣`` are digits to Python, not numbers here)."""
    text = request.path_params[name]
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        plural = what.split()[-1] + "s"
        raise NotFound(f"There is no {what} number {text!r}: {plural} are numbered 1, 2, 3...; the list at {listing} "
                       f"links each one.")
    return int(text)


def not_stored(what: str, number: int, listing: str) -> NotFound:
    """The 404 of an event number no event has."""
    return NotFound(f"There is no {what} number {number}; the list at {listing} links each one.")


def choice(value: str, options: tuple[str, ...], what: str, error: type[PageError] = NotFound) -> str:
    """``value`` as spelled in ``options`` (any case), or ``error`` naming them."""
    for option in options:
        if option.casefold() == value.casefold():
            return option
    raise error(f"{what} {value!r} is not one of {', '.join(options)}.")
