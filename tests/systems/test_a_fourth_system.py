"""A fourth rating system, one module (tests/systems/elo_system.py) and its registration, goes through
everything the three built-in systems go through, with no other file of xlrating knowing it: it is
validated and ingested by ``xlrating validate`` and ``ingest``, ranked by ``xlrating rank elo``,
accepted through the ranking officer's queue (checked in the server's worker processes), and
published on its ranking, event and player pages with their JSON, CSV and Excel downloads, and in
the search."""

from __future__ import annotations

import csv
import importlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import xlrating
from xlrating.cli import main
from xlrating.store import open_store
from xlrating.systems import SYSTEMS_ENV, keys, unregister
from xlrating.web.app import Settings, create_app
from xlrating.web.security import OfficerPassword

MODULE = "tests.systems.elo_system"
OFFICER = ("officer", "a long enough password")
MATCHES = """event,date,round,white,black,result
Club Night,2024-01-10,1,Ann,Bob,1-0
Club Night,2024-01-10,1,Cy,Dee,1/2-1/2
Club Night,2024-01-10,2,Ann,Cy,0-1
Club Night,2024-01-10,2,Bob,Dee,1-0
Spring Open,2024-03-02,1,Ann,Dee,1-0
Spring Open,2024-03-02,1,Bob,Cy,0-1
"""


@pytest.fixture(scope="module")
def elo() -> Iterator[Any]:
    """The system loaded as a deployment loads it: named in $XLRATING_SYSTEMS (so the checking
    workers the server starts load it too), imported, registered; taken out again afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SYSTEMS_ENV, MODULE)
        # imported again for each test module: importing registers it, and the last module took it out
        module = importlib.reload(sys.modules[MODULE]) if MODULE in sys.modules else importlib.import_module(MODULE)
        yield module
        unregister("elo")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _expected(elo: Any) -> dict[str, float]:
    """The ratings by hand: every player from 1500, K 32, p = 1 / (1 + 10^((O - R) / 400))."""
    rating: dict[str, float] = {}
    for line in MATCHES.splitlines()[1:]:
        _, _, _, a, b, result = line.split(",")
        ra, rb = rating.get(a, 1500.0), rating.get(b, 1500.0)
        change = 32 * ({"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[result] - 1 / (1 + 10 ** ((rb - ra) / 400)))
        rating[a], rating[b] = ra + change, rb - change
    return rating


def test_no_file_of_xlrating_names_the_fourth_system(elo: Any) -> None:
    package = Path(xlrating.__file__).parent
    named = [p for p in package.rglob("*.py") if '"elo"' in p.read_text(encoding="utf-8")]
    assert named == [] and "elo" in keys()


def test_validate_takes_its_table_by_its_columns_and_finds_every_bad_cell(elo: Any, tmp_path: Path) -> None:
    good = _write(tmp_path, "club.csv", MATCHES)
    assert _run("validate", str(good)).exit_code == 0
    bad = _write(tmp_path, "bad.csv", MATCHES.replace("Ann,Bob,1-0", "Ann,Bob,2-0").replace("2024-03-02,1,Bob", "soon,1,Bob"))
    result = _run("validate", "--format", "json", str(bad))
    assert result.exit_code == 1
    [report] = json.loads(result.stdout)
    assert [(f["code"], f["cell"]) for f in report["findings"]] == [("RESULT_INVALID", "F2"), ("TABLE_DATE_INVALID", "B7")]
    itself = _write(tmp_path, "itself.csv", MATCHES.replace("Cy,Dee,1/2", "Cy,Cy,1/2"))
    result = _run("validate", "--system", "elo", str(itself))
    assert result.exit_code == 1 and "an opponent other than the player" in result.stdout


def test_ingest_stores_it_versioned_like_any_system(elo: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "store.db")
    table = _write(tmp_path, "club.csv", MATCHES)
    stored = _run("ingest", "--db", db, str(table))
    assert stored.exit_code == 0 and "stored Elo games: 2 events new" in stored.stdout
    assert "nothing changed" in _run("ingest", "--db", db, str(table)).stdout
    changed = _write(tmp_path, "club_v2.csv", MATCHES.replace("Bob,Cy,0-1", "Bob,Cy,1-0"))
    refused = _run("ingest", "--db", db, str(changed))
    assert refused.exit_code == 1 and "Spring Open (2024-03-02): already stored as version 1" in refused.stdout
    assert "use --replace" in refused.stdout
    replaced = _run("ingest", "--db", db, "--replace", str(changed))
    assert replaced.exit_code == 0 and "1 event replaced (Spring Open (2024-03-02) v2)" in replaced.stdout
    with open_store(db) as store:
        assert [(e.name, e.version, e.current) for e in store.events("elo", history=True)] == [
            ("Club Night", 1, True), ("Spring Open", 1, False), ("Spring Open", 2, True)]


def test_rank_gives_the_same_leaderboard_from_the_file_and_from_the_store(elo: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "store.db")
    table = _write(tmp_path, "club.csv", MATCHES)
    _run("ingest", "--db", db, str(table))
    from_file, from_store = tmp_path / "file.json", tmp_path / "store.json"
    assert _run("rank", "elo", str(table), "-o", str(from_file)).exit_code == 0
    assert _run("rank", "elo", "--db", db, "-o", str(from_store)).exit_code == 0
    lines = json.loads(from_file.read_text())
    assert lines == json.loads(from_store.read_text())
    expected = _expected(elo)
    assert [line["player"] for line in lines] == sorted(expected, key=lambda p: -expected[p])
    assert all(line["rating"] == pytest.approx(expected[line["player"]], abs=1e-9) for line in lines)
    assert "Elo" in _run("rank", "--help").stdout


@pytest.fixture
def client(elo: Any, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(str(tmp_path / "store.db"), officer=OfficerPassword(*OFFICER), check_processes=1)
    with TestClient(create_app(settings)) as c:
        yield c


def _token(client: TestClient, page: str) -> str:
    import re

    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def test_the_officer_accepts_it_through_the_queue(client: TestClient, tmp_path: Path) -> None:
    upload = client.post("/checks", data={"csrf_token": _token(client, "/submit")},
                         files={"sheet": ("club.csv", MATCHES.encode())}, follow_redirects=False)
    assert upload.status_code == 303
    page = str(upload.headers["location"])
    report = client.get(f"{page}.json").json()
    assert report["valid"] and report["system"] == "elo" and report["tournament"].startswith("Elo games: Club Night")
    client.post(f"{page}/submit", data={"csrf_token": _token(client, page), "contact": "club@example.org"})
    client.post("/officer/sign-in", data={"csrf_token": _token(client, "/officer/sign-in"), "user": OFFICER[0],
                                          "password": OFFICER[1]})
    import re

    [number] = re.findall(r'/officer/submissions/(\d+)"', client.get("/officer").text)
    detail = client.get(f"/officer/submissions/{number}").text
    assert '<dd id="system">Elo games</dd>' in detail and "stores it as a new event" in detail
    accepted = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": _token(client, "/officer")})
    assert accepted.status_code == 200 and "stored Elo games: 2 events new" in accepted.text
    with open_store(str(tmp_path / "store.db")) as store:
        assert [e.name for e in store.events("elo")] == ["Club Night", "Spring Open"]
    # the home page shows it beside the others, from its declaration: its leaders and its latest events
    home = {s["key"]: s for s in client.get("/index.json").json()["systems"]}
    ranking = client.get("/rankings/elo.json").json()["ranking"]
    assert [line["name"] for line in home["elo"]["boards"][0]["leaders"]] == [line["player"] for line in ranking][:10]
    assert [e["name"] for e in home["elo"]["latest"]] == ["Spring Open", "Club Night"]
    assert "any two-player game (Elo)" in client.get("/submit").text and '<a href="/rankings/elo">' in client.get("/").text


def _csv(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def _sheet(response: Any, title: str) -> list[dict[str, Any]]:
    assert response.status_code == 200
    header, *rows = openpyxl.load_workbook(io.BytesIO(response.content))[title].iter_rows(values_only=True)
    return [dict(zip(header, row)) for row in rows]


def test_its_pages_publish_the_ranking_events_and_players_in_every_format(elo: Any, client: TestClient,
                                                                         tmp_path: Path) -> None:
    _run("ingest", "--db", str(tmp_path / "store.db"), str(_write(tmp_path, "club.csv", MATCHES)))
    ranking = client.get("/rankings/elo.json").json()["ranking"]
    expected = _expected(elo)
    assert {line["player"]: line["rating"] for line in ranking} == pytest.approx(expected, abs=1e-9)
    assert [row["player"] for row in _csv(client.get("/rankings/elo.csv"))] == [line["player"] for line in ranking]
    assert [row["player"] for row in _sheet(client.get("/rankings/elo.xlsx"), "Ranking")] == [
        line["player"] for line in ranking]
    html = client.get("/rankings/elo").text
    assert '<a href="/rankings/elo">Elo</a>' in html and "/elo/players/Ann" in html  # in the menu, players linked
    events = client.get("/elo/events.json").json()["events"]
    assert [(e["name"], e["address"]) for e in events] == [("Spring Open", "/elo/events/2"),
                                                          ("Club Night", "/elo/events/1")]
    club = client.get("/elo/events/1.json").json()
    assert [(e["player"], e["opponent"], e["result"]) for e in club["entries"]][:2] == [("Ann", "Bob", 1.0),
                                                                                       ("Cy", "Dee", 0.5)]
    assert len(_csv(client.get("/elo/events/1.csv"))) == 4
    ann = client.get("/elo/players/Ann.json").json()
    assert ann["standing"]["rating"] == pytest.approx(expected["Ann"], abs=1e-9)
    assert [step["opponent"] for step in ann["history"]] == ["Bob", "Cy", "Dee"]
    assert ann["history"][-1]["rating_after"] == pytest.approx(expected["Ann"], abs=1e-9)
    assert len(_sheet(client.get("/elo/players/Ann.xlsx"), "Entries")) == 3
    assert client.get("/elo/events/9").status_code == 404 and client.get("/elo/players/Nobody").status_code == 404


def test_the_search_finds_its_players_and_events(elo: Any, client: TestClient, tmp_path: Path) -> None:
    _run("ingest", "--db", str(tmp_path / "store.db"), str(_write(tmp_path, "club.csv", MATCHES)))
    found = client.get("/search.json?q=club").json()
    assert [e["name"] for e in found["elo_events"]] == ["Club Night"] and found["elo_players"] == []
    assert [p["player"] for p in client.get("/search.json?q=dee").json()["elo_players"]] == ["Dee"]
    assert "Club Night" in client.get("/search?q=club").text
