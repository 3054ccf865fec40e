"""Sessions and what a visitor is sent: signing out ends the officer's session on the server (a copy
of its cookie opens nothing), the public pages set no cookie, the officer downloads a submission
under the extension of what it is, and an upload that trickles in is cut off."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.web.app import Settings, create_app
from xlrating.web.security import BodyLimit, OfficerPassword

OFFICER = ("officer", "a long enough password")
TABLES = Path(__file__).parents[2] / "examples" / "tables"


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    return create_app(Settings(str(tmp_path / "store.db"), officer=OfficerPassword(*OFFICER), check_processes=1))


@pytest.fixture
def client(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as c:
        yield c


def _token(client: TestClient, page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def _sign_in(client: TestClient) -> None:
    response = client.post("/officer/sign-in", data={"csrf_token": _token(client, "/officer/sign-in"),
                                                      "user": OFFICER[0], "password": OFFICER[1]})
    assert response.url.path == "/officer"


def test_a_signed_out_sessions_cookie_opens_nothing(app, client: TestClient) -> None:  # type: ignore[no-untyped-def]
    _sign_in(client)
    copied = dict(client.cookies)
    assert client.get("/officer", follow_redirects=False).status_code == 200
    client.post("/officer/sign-out", data={"csrf_token": _token(client, "/officer")})
    with TestClient(app, cookies=copied) as thief:
        assert thief.get("/officer", follow_redirects=False).status_code == 303  # to the sign-in form
        refused = thief.post("/officer/submissions/1/reject", data={"note": "x"})
        assert refused.status_code == 403


@pytest.mark.parametrize("page", ["/rankings/MCR/2018", "/rankings/dippouch", "/rankings/dci", "/tournaments",
                                  "/search?q=a", "/rankings.json", "/"])
def test_a_public_page_sets_no_cookie(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200 and "set-cookie" not in response.headers
    assert "set-cookie" in client.get("/submit").headers  # the upload form needs its token


def test_the_officer_downloads_a_submission_as_what_it_is(client: TestClient) -> None:
    page = client.post("/checks", data={"csrf_token": _token(client, "/submit")},
                       files={"sheet": ("results.bat", (TABLES / "dci_matches.csv").read_bytes())},
                       follow_redirects=False).headers["location"]
    client.post(f"{page}/submit", data={"csrf_token": _token(client, page), "contact": "to@example.org"})
    _sign_in(client)
    [number] = re.findall(r'/officer/submissions/(\d+)"', client.get("/officer").text)
    download = client.get(f"/officer/submissions/{number}/file")
    assert 'filename="results.csv"' in download.headers["content-disposition"]
    assert download.headers["content-type"].startswith("text/csv")


def test_an_upload_that_trickles_in_is_cut_off() -> None:
    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read"})

    async def trickle():  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.2)
        return {"type": "http.request", "body": b"x", "more_body": True}

    sent: list[dict[str, object]] = []

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/checks", "headers": [], "query_string": b""}
    asyncio.run(BodyLimit(app, max_bytes=10**6, seconds=0.5)(scope, trickle, send))
    assert sent[0]["status"] == 408
