"""What the intake keeps of a checked upload: a sheet with one systematic mistake is a few findings
and a count of the rest, not thousands; a valid file's records, which the officer's page and the
acceptance read instead of checking the file again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.sheets.validate.findings import SHOWN_PER_CODE
from xlrating.store import open_store
from xlrating.web.app import Settings, create_app
from xlrating.web.security import OfficerPassword

OFFICER = ("officer", "a long enough password")
TABLES = Path(__file__).parents[2] / "examples" / "tables"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(str(tmp_path / "store.db"), officer=OfficerPassword(*OFFICER), check_processes=1)
    with TestClient(create_app(settings)) as c:
        yield c


def _token(client: TestClient, page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def _upload(client: TestClient, name: str, data: bytes) -> str:
    response = client.post("/checks", data={"csrf_token": _token(client, "/submit")}, files={"sheet": (name, data)},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def test_one_systematic_mistake_is_a_few_findings_and_a_count(client: TestClient) -> None:
    rows = "".join(f"Cup {i},2023-13-01,10,1,P{i},1\n" for i in range(300))  # every date a 13th month
    page = _upload(client, "results.csv", ("event,date,players,rounds,player,place\n" + rows).encode())
    report = client.get(f"{page}.json").json()
    assert report["errors"] == 300 and not report["valid"]
    assert len(report["findings"]) == SHOWN_PER_CODE
    assert report["more_findings"] == {"TABLE_DATE_INVALID": 300 - SHOWN_PER_CODE}
    assert "and 280 more like the <code>TABLE_DATE_INVALID</code> findings above" in client.get(page).text


def test_the_officer_decides_on_the_records_kept_at_the_check(client: TestClient, tmp_path: Path) -> None:
    page = _upload(client, "dippouch.csv", (TABLES / "dippouch_results.csv").read_bytes())
    client.post(f"{page}/submit", data={"csrf_token": _token(client, page), "contact": "to@example.org"})
    client.post("/officer/sign-in", data={"csrf_token": _token(client, "/officer/sign-in"), "user": OFFICER[0],
                                          "password": OFFICER[1]})
    [number] = re.findall(r'/officer/submissions/(\d+)"', client.get("/officer").text)
    client.app.state.checker.close()  # no checking process is needed to see or accept it any more
    client.app.state.checker.run = None
    assert "stores it as a new event" in client.get(f"/officer/submissions/{number}").text
    accepted = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": _token(client, "/officer")})
    assert accepted.status_code == 200 and "stored Dip Pouch results: 4 events new" in accepted.text
    with open_store(str(tmp_path / "store.db")) as store:
        assert len(store.events("dippouch")) == 4
