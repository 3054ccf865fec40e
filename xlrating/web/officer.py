"""The ranking officer's pages (signed in): the queue, each submission with its findings and
files, accept (ingest, as ``xlrating ingest`` does) or reject with a note.

Every route here goes through :func:`officer_only`: without a signed-in officer a page redirects to
the sign-in form and an action is refused (403), so nothing of the queue is reachable.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import PurePosixPath
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from xlrating.sheets.read.submitted import KIND_TITLES
from xlrating.store import IntakeError, StoreError, Submission
from xlrating.store.records import records_from_json
from xlrating.systems import UnknownSystem, get
from xlrating.systems.base import RatingSystem
from xlrating.web.checking import CheckUnavailable, check_sheet
from xlrating.web.officer_plan import planned_replacements
from xlrating.web.organiser import annotated_download
from xlrating.web.pages import error_page, render, signed_in, store
from xlrating.web.renderers import XLSX, attachment
from xlrating.web.security import check_csrf, csrf_token
from xlrating.web.settings import Settings

Handler = Callable[[Request], Awaitable[Response]]
PREVIEW_ROWS = 500  # of an event's standings or matches on the officer's page
MEDIA_TYPES = {"xlsx": XLSX, "xls": "application/vnd.ms-excel",
               "ods": "application/vnd.oasis.opendocument.spreadsheet", "csv": "text/csv"}


def officer_only(handler: Handler) -> Handler:
    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        if signed_in(request) is None:
            if request.method == "GET":
                return RedirectResponse("/officer/sign-in", status_code=303)
            return error_page(request, 403, "Sign in first", "Only the signed-in ranking officer can do this.")
        return await handler(request)
    return guarded


async def sign_in_form(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    if signed_in(request):
        return RedirectResponse("/officer", status_code=303)
    return render(request, "sign_in.html", {"configured": settings.officer is not None})


async def sign_in(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    form = await request.form(max_files=0, max_fields=10, max_part_size=4 * 1024)
    check_csrf(request, form)
    if settings.officer is None:
        return render(request, "sign_in.html", {"configured": False}, 403)
    if not request.app.state.rates.allow("sign_in", request):
        return render(request, "sign_in.html", {"configured": True, "error": "Too many sign-in attempts from this "
                                                "address; wait a quarter of an hour."}, 429)
    user, password = str(form.get("user") or ""), str(form.get("password") or "")
    if not await run_in_threadpool(settings.officer.matches, user, password):
        return render(request, "sign_in.html", {"configured": True, "user": user,
                                                "error": "The user name or the password is wrong."}, 401)
    def start() -> str:
        with store(request) as opened:
            return opened.start_session(user)

    request.session.clear()  # a new session (and CSRF token) for the signed-in officer
    request.session["officer_session"] = await run_in_threadpool(start)
    csrf_token(request)
    return RedirectResponse("/officer", status_code=303)


async def sign_out(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=10, max_part_size=4 * 1024)
    check_csrf(request, form)
    session = request.session.get("officer_session")
    if isinstance(session, str):
        def end() -> None:
            with store(request) as opened:
                opened.end_session(session)
        await run_in_threadpool(end)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


@officer_only
async def queue(request: Request) -> Response:
    def items() -> Any:
        with store(request) as opened:
            return opened.intake_queue()
    from xlrating.web.system_pages import published_systems

    return render(request, "queue.html", {"items": await run_in_threadpool(items),
                                          "register_systems": published_systems(request.app.state.settings.systems)})


def _item_id(request: Request) -> int | None:
    text = request.path_params["item"]
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


async def _load(request: Request) -> tuple[Any, bytes] | None:
    number = _item_id(request)
    if number is None:
        return None

    def load() -> tuple[Any, bytes] | None:
        with store(request) as opened:
            item = opened.intake_by_id(number)
            # only what was submitted is the officer's: uploads merely checked stay the organiser's
            return None if item is None or item.status == "checked" else (item, opened.intake_content(number))
    return await run_in_threadpool(load)


def _system(item: Any) -> RatingSystem | None:
    try:
        return get(item.system)
    except UnknownSystem:  # a system the store held uploads of and this server no longer runs
        return None


def _detail(request: Request, item: Any, status: int = 200, **context: Any) -> Response:
    system = _system(item)
    return render(request, "submission.html", {"item": item, "kind_title": KIND_TITLES.get(item.kind, item.kind),
                                               "system_title": system.table_title if system else item.system,
                                               "preview_rows": PREVIEW_ROWS}
                  | context, status)


def _missing(request: Request) -> Response:
    return error_page(request, 404, "Not found", "There is no submission with this number.")


async def _submitted(request: Request, item: Any, content: bytes) -> tuple[RatingSystem, Submission]:
    """What the file says, as the store takes it: the records kept when it was checked, or (for an
    upload kept before they were) from checking it again; raises :class:`CheckUnavailable`, or
    :class:`ValueError` when it does not pass validation now."""
    if item.records is not None:
        system = get(item.system)
        return system, system.submission_of(*records_from_json(item.records))
    check = await request.app.state.checker.run(check_sheet, item.file_name, content)
    if check.records is None or not check.valid:
        raise ValueError("The sheet does not pass validation now; reject it with a note.")
    system = get(check.system)
    return system, system.submission_of(*records_from_json(check.records))


async def _plan(request: Request, item: Any, content: bytes) -> list[dict[str, Any]] | None:
    """What accepting this submission would do to each of its events, so the officer sees it before
    deciding (:func:`~xlrating.web.officer_plan.planned_replacements`); None when it cannot be told."""
    try:
        system, submission = await _submitted(request, item, content)
    except (CheckUnavailable, ValueError):
        return None

    def plan() -> list[dict[str, Any]]:
        with store(request) as opened:
            return planned_replacements(opened, system, submission)
    return await run_in_threadpool(plan)


def _replaces(plan: list[dict[str, Any]] | None) -> bool:
    return any(event["status"] == "replaces" for event in plan or ())


@officer_only
async def submission(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None:
        return _missing(request)
    item, content = loaded
    if item.status != "pending":
        return _detail(request, item)
    plan = await _plan(request, item, content)
    return _detail(request, item, plan=plan, offer_replace=_replaces(plan),
                   players=await _players(request, item, content))


async def _players(request: Request, item: Any, content: bytes) -> list[str] | None:
    """Who the submission's players are, as the register knows them
    (:func:`~xlrating.store.identify.identify`); None when it cannot be told."""
    from xlrating.store.identify import identify

    try:
        system, submission = await _submitted(request, item, content)
    except (CheckUnavailable, ValueError):
        return None

    def told() -> list[str]:
        with store(request) as opened:
            return identify(opened, submission).lines(system.key, commands=False)
    return await run_in_threadpool(told)


@officer_only
async def original(request: Request) -> Response:
    """The file exactly as the organiser sent it."""
    loaded = await _load(request)
    if loaded is None:
        return _missing(request)
    item, content = loaded
    return Response(content, media_type=MEDIA_TYPES.get(item.kind, "application/octet-stream"),
                    headers={"content-disposition": attachment(download_name(item.file_name, item.kind))})


SUFFIXES = {"xlsx": (".xlsx", ".xlsm"), "xls": (".xls",), "ods": (".ods",), "csv": (".csv",)}


def download_name(file_name: str, kind: str) -> str:
    """The organiser's file name with the extension of the format its bytes are (``results.bat``
    holding a CSV downloads as ``results.csv``): the officer's computer opens it as what it is."""
    path = PurePosixPath(file_name)
    suffixes = SUFFIXES.get(kind, (".bin",))
    return file_name if path.suffix.lower() in suffixes else f"{path.stem or 'submission'}{suffixes[0]}"


@officer_only
async def annotated(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None:
        return _missing(request)
    return await annotated_download(request, loaded[0].file_name, loaded[1])


@officer_only
async def accept(request: Request) -> Response:
    """Ingest the submission into the store, as ``xlrating ingest [--replace]`` would, and record
    the decision in the same transaction."""
    form = await request.form(max_files=0, max_fields=10, max_part_size=4 * 1024)
    check_csrf(request, form)
    loaded = await _load(request)
    if loaded is None:
        return _missing(request)
    item, content = loaded
    try:
        system, submitted = await _submitted(request, item, content)
    except CheckUnavailable as exc:
        return _detail(request, item, 503, error=str(exc))
    except ValueError as exc:
        return _detail(request, item, 409, error=str(exc))
    replace = form.get("replace") == "yes"

    def ingest() -> Any:
        with store(request) as opened:
            return opened.ingest(item.file_name, content, submitted, replace=replace, intake_id=item.id)

    try:
        outcome = await run_in_threadpool(ingest)
    except (IntakeError, StoreError) as exc:
        return _detail(request, item, 409, error=str(exc))
    if outcome.status == "refused":  # replacing helps when stored versions differ (not when dates overlap)
        def replanned() -> list[dict[str, Any]]:
            with store(request) as opened:
                return planned_replacements(opened, system, submitted)
        plan = await run_in_threadpool(replanned)
        return _detail(request, item, 409, error=system.officer_refusal(outcome), offer_replace=outcome.replaceable,
                       plan=plan)
    request.session["flash"] = f"Accepted {item.file_name}: {outcome.message}."
    return RedirectResponse("/officer", status_code=303)


@officer_only
async def reject(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=10, max_part_size=16 * 1024)
    check_csrf(request, form)
    loaded = await _load(request)
    if loaded is None:
        return _missing(request)
    item = loaded[0]
    note = str(form.get("note") or "").strip()
    if not note or len(note) > 2000:
        return _detail(request, item, 400, error="Write a note for the organiser (what to correct), at most "
                                                 "2,000 characters.")

    def decide() -> None:
        with store(request) as opened:
            opened.reject_intake(item.id, note)

    try:
        await run_in_threadpool(decide)
    except IntakeError as exc:
        return _detail(request, item, 409, error=str(exc))
    request.session["flash"] = f"Rejected {item.file_name}."
    return RedirectResponse("/officer", status_code=303)


routes = [
    Route("/officer/sign-in", sign_in_form, methods=["GET"]),
    Route("/officer/sign-in", sign_in, methods=["POST"]),
    Route("/officer/sign-out", sign_out, methods=["POST"]),
    Route("/officer", queue, methods=["GET"]),
    Route("/officer/submissions/{item}", submission, methods=["GET"]),
    Route("/officer/submissions/{item}/file", original, methods=["GET"]),
    Route("/officer/submissions/{item}/annotated.xlsx", annotated, methods=["GET"]),
    Route("/officer/submissions/{item}/accept", accept, methods=["POST"]),
    Route("/officer/submissions/{item}/reject", reject, methods=["POST"]),
]
