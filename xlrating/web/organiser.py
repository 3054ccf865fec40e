"""The organiser's pages (no account): upload a sheet, read its findings, download the annotated
copy, submit a valid sheet to the ranking officer.

An upload is kept under an unguessable token (its page's address) for a day unless submitted;
the token is the only way to it, as an e-mailed link would be.
"""

from __future__ import annotations

import functools
import re
import secrets
import unicodedata
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from xlrating.sheets.read.submitted import SUFFIX_KINDS
from xlrating.store import IntakeError
from xlrating.web.checking import CheckBusy, CheckUnavailable, annotated_sheet, check_sheet
from xlrating.web.pages import XLSX, attachment, error_page, json_response, render, store, wants_json
from xlrating.web.security import check_csrf

ACCEPT = ",".join(SUFFIX_KINDS)
EMAIL = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]+")


def upload_name(raw: str | None) -> str:
    """The name an upload is shown and judged by: the last part of whatever path the browser sent,
    without control characters, at most 120 characters. Only a label: never a path on this server."""
    name = PureWindowsPath(PurePosixPath(raw or "").name).name
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    if len(name) > 120:
        stem, dot, suffix = name.rpartition(".")
        name = f"{stem[:110]}.{suffix[:8]}" if dot and len(suffix) <= 8 else name[:120]
    return name or "upload"


def _taken(request: Request) -> list[Any]:
    """The rating systems whose results this site takes (``serve --systems``)."""
    from xlrating.web.system_pages import published_systems

    return published_systems(request.app.state.settings.systems)


def _form(request: Request) -> dict[str, Any]:
    taken = _taken(request)
    return {"accept": ACCEPT, "ema_template": any(system.key == "mers" for system in taken),
            "taken": [{"title": s.title, "game": s.game, "table_title": s.table_title,
                       "columns": [c.name for c in s.columns if c.required]} for s in taken]}


def submit_form(request: Request) -> Response:
    """GET /submit: the organiser's upload form."""
    return render(request, "submit.html", _form(request))


@functools.cache
def _template() -> bytes:
    from xlrating.sheets.templates import build, ema_results

    return build(ema_results.FILE_NAME)


def template(request: Request) -> Response:
    """GET /template.xlsx: the EMA results template, the same file ``xlrating templates`` writes."""
    from xlrating.sheets.templates import ema_results

    return Response(_template(), media_type=XLSX, headers={"content-disposition": attachment(ema_results.FILE_NAME)})


async def upload(request: Request) -> Response:
    """POST /checks: check an uploaded sheet, keep it and its findings, show them."""
    if not request.app.state.rates.allow("uploads", request):
        return error_page(request, 429, "Too many uploads",
                          f"This address has uploaded {request.app.state.rates.texts['uploads'].replace('/', ' sheets per ')}"
                          f", the most this server takes; wait a little and try again.")
    form = await request.form(max_files=1, max_fields=10, max_part_size=64 * 1024)
    check_csrf(request, form)
    sheet = form.get("sheet")
    if not isinstance(sheet, UploadFile) or not sheet.filename:
        return _home_error(request, "Choose the results sheet to check (.xlsx, .xlsm, .xls, .ods or .csv).", 400)
    name = upload_name(sheet.filename)
    data = await sheet.read()
    await sheet.close()
    if not data:
        return _home_error(request, f"{name}: the file is empty; choose the saved results sheet.", 400)
    try:
        check = await request.app.state.checker.run(check_sheet, name, data)
    except CheckUnavailable as exc:
        response = _home_error(request, f"{name}: {exc}", 503)
        if isinstance(exc, CheckBusy):
            response.headers["retry-after"] = str(exc.retry_after)
        return response
    if check.unreadable is not None:
        return _home_error(request, check.unreadable, 422)
    taken = _taken(request)
    if check.system and all(system.key != check.system for system in taken):
        from xlrating.systems import get

        other = get(check.system)
        return _home_error(request, f"{name}: this file holds {other.game} results ({other.title}); this site "
                                    f"takes the results of {', '.join(f'{s.game} ({s.title})' for s in taken)} only.", 422)
    token = secrets.token_urlsafe(24)

    def keep() -> None:
        with store(request) as opened:
            opened.add_check(token, name, check.kind, data, check.findings, check.valid, check.tournament,
                             check.system, errors=check.errors, warnings=check.warnings,
                             more_findings=check.more_findings, records=check.records)

    await run_in_threadpool(keep)
    return RedirectResponse(f"/checks/{token}", status_code=303)


def _home_error(request: Request, message: str, status: int) -> Response:
    return render(request, "submit.html", _form(request) | {"error": message}, status)


def _item(request: Request, token: str) -> Any:
    with store(request) as opened:
        return opened.intake_by_token(token)


def check_page(request: Request) -> Response:
    """GET /checks/{token} (and .json): the findings, the annotated copy, the submit form."""
    token, as_json = wants_json(request.path_params["token"])
    item = _item(request, token)
    if item is None:
        return _gone(request, as_json)
    published = _published_already(request, item)
    if as_json:
        return json_response(item.public() | {"published_already": published})
    return render(request, "check.html", {"item": item, "token": token, "published_already": published})


def _published_already(request: Request, item: Any) -> list[str]:
    """For a valid sheet not yet sent: what of it is published already
    (:func:`~xlrating.web.officer_plan.published_already`)."""
    if item.status != "checked" or not item.valid or item.records is None:
        return []
    from xlrating.store.records import records_from_json
    from xlrating.systems import UnknownSystem, get
    from xlrating.web.officer_plan import published_already

    try:
        system = get(item.system)
    except UnknownSystem:
        return []
    with store(request) as opened:
        return published_already(opened, system, system.submission_of(*records_from_json(item.records)))


def _gone(request: Request, as_json: bool = False) -> Response:
    return error_page(request, 404, "Not found",
                      "There is no upload at this address: it was never made, or it was not submitted and "
                      "uploads are kept for a day. Upload the sheet again.", as_json=as_json)


async def annotated(request: Request) -> Response:
    """GET /checks/{token}/annotated.xlsx: the sheet with every finding marked, as an .xlsx."""
    token = request.path_params["token"]
    item = await run_in_threadpool(_item, request, token)
    if item is None:
        return _gone(request)

    def content() -> bytes:
        with store(request) as opened:
            return opened.intake_content(item.id)

    return await annotated_download(request, item.file_name, await run_in_threadpool(content))


async def annotated_download(request: Request, file_name: str, content: bytes) -> Response:
    """The annotated copy of an upload (made in a worker process) as a download."""
    try:
        copy = await request.app.state.checker.run(annotated_sheet, file_name, content)
    except CheckUnavailable as exc:
        return error_page(request, 503, "Busy", str(exc))
    return Response(copy, media_type=XLSX, headers={"content-disposition": attachment(annotated_name(file_name))})


def annotated_name(file_name: str) -> str:
    """The annotated copy of ``lyon.ods`` is ``lyon.annotated.xlsx`` (as ``validate --annotate`` names it)."""
    return f"{PurePosixPath(file_name).stem or 'sheet'}.annotated.xlsx"


async def submit(request: Request) -> Response:
    """POST /checks/{token}/submit: send a valid sheet to the ranking officer with a contact."""
    token = request.path_params["token"]
    form = await request.form(max_files=0, max_fields=10, max_part_size=4 * 1024)
    check_csrf(request, form)
    contact = str(form.get("contact") or "").strip()
    item = await run_in_threadpool(_item, request, token)
    if item is None:
        return _gone(request)
    if len(contact) > 254 or not EMAIL.fullmatch(contact):
        return render(request, "check.html", {"item": item, "token": token, "contact": contact,
                                              "error": "Give an e-mail address the ranking officer can answer "
                                                       "(e.g. organiser@example.org)."}, 400)

    def send() -> None:
        with store(request) as opened:
            opened.submit_check(token, contact)

    try:
        await run_in_threadpool(send)
    except IntakeError as exc:
        return render(request, "check.html", {"item": item, "token": token, "error": str(exc)}, 409)
    return RedirectResponse(f"/checks/{token}", status_code=303)


routes = [
    Route("/submit", submit_form, methods=["GET"]),
    Route("/template.xlsx", template, methods=["GET"]),
    Route("/checks", upload, methods=["POST"]),
    Route("/checks/{token}", check_page, methods=["GET"]),
    Route("/checks/{token}/annotated.xlsx", annotated, methods=["GET"]),
    Route("/checks/{token}/submit", submit, methods=["POST"]),
]
