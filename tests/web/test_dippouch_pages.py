"""The Dip Pouch public pages in process (Starlette's TestClient) over a store that ``xlrating
ingest`` filled from a results table with nationalities, scores and locations: each page's JSON
is what ``xlrating rank dippouch`` computes (the command run on the store, or on the year's rows),
its CSV and Excel downloads hold the JSON's rows, every name and event links to its page, and a
bad address or parameter says what is wrong."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import openpyxl
import pytest
from starlette.testclient import TestClient

from xlrating.core import dippouch
from xlrating.web.app import Settings, create_app

HEADER = "event,date,players,rounds,player,place,world_championship,nationality,score,location"
ROWS = [
    # before 2001 and not a World Championship: value 0, counted but moving nobody
    "Old Cup,2000-05-01,10,2,Ada Lovelace,1,FALSE,GBR,,Oxford",
    "Spring Cup,2022-04-16,21,3,Ada Lovelace,1,FALSE,GBR,120.5,Paris",
    "Spring Cup,2022-04-16,21,3,Blaise Pascal,2,FALSE,FRA,99,Paris",
    "Spring Cup,2022-04-16,21,3,Inès Aubert,3,FALSE,France,80,Paris",
    "Spring Cup,2022-04-16,21,3,Team A/B,3,FALSE,,80,Paris",
    "Summer Open,2022-07-02,14,1,Inès Aubert,2,FALSE,fra,,Lyon",
    "Summer Open,2022-07-02,14,1,Grace Hopper,1,FALSE,USA,,Lyon",
    "World Diplomacy Championship,2023-09-10,65,4,Ada Lovelace,8,TRUE,GBR,,Bangkok",
    "World Diplomacy Championship,2023-09-10,65,4,Blaise Pascal,1,TRUE,FRA,,Bangkok",
    "World Diplomacy Championship,2023-09-10,65,4,Grace Hopper,22,TRUE,USA,,Bangkok",
    "Winter Masters,2024-01-21,65,3,Ada Lovelace,8,FALSE,GBR,,",
    "Winter Masters,2024-01-21,65,3,Inès Aubert,12,FALSE,FRA,,",
]
# Winter Masters sent again with another standing: stored with --replace as version 2
CORRECTED = [row.replace("Inès Aubert,12", "Inès Aubert,10") for row in ROWS if row.startswith("Winter")]


def xlrating(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *args], check=True, capture_output=True, text=True)


def table(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dippouch-pages")
    db = str(folder / "store.db")
    xlrating("ingest", "--db", db, str(table(folder / "results.csv", ROWS)))
    xlrating("ingest", "--db", db, "--replace", str(table(folder / "winter_corrected.csv", CORRECTED)))
    return folder


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(folder / "store.db"), check_processes=1, site_name="Diplomacy Ratings",
                                        federation="World Diplomacy Database"))) as c:
        yield c


def rank_command(folder: Path, *source: str) -> list[dict[str, Any]]:
    """What ``xlrating rank dippouch`` writes as JSON: from the store without ``source``."""
    out = folder / "board.json"
    xlrating("rank", "dippouch", *(source or ("--db", str(folder / "store.db"))), "-o", str(out))
    return list(json.loads(out.read_text(encoding="utf-8")))


def the_commands(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: line[k] for k in ("rank", "player", "rating", "count")} for line in lines]


def csv_rows(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def sheet_rows(response: Any, title: str) -> list[dict[str, Any]]:
    assert response.status_code == 200
    header, *rows = openpyxl.load_workbook(io.BytesIO(response.content))[title].iter_rows(values_only=True)
    return [dict(zip(header, row)) for row in rows]


def as_text(value: Any) -> str:
    return "" if value is None else repr(value) if isinstance(value, float) else \
        ("TRUE" if value else "FALSE") if isinstance(value, bool) else str(value)


def same_in_excel(sheet: list[dict[str, Any]], rows: list[dict[str, Any]]) -> bool:
    """Text and whole numbers equal, other numbers to 15 significant digits (what Excel keeps)."""
    if len(sheet) != len(rows) or any(a.keys() != b.keys() for a, b in zip(sheet, rows)):
        return False
    return all(a[k] == pytest.approx(b[k], rel=1e-15, abs=0) if isinstance(b[k], float) else a[k] == b[k]
               for a, b in zip(sheet, rows) for k in b)


def event_id(client: TestClient, name: str) -> int:
    return next(e["id"] for e in client.get("/dippouch/events.json").json()["events"] if e["name"] == name)


# --- the JSON is what `rank dippouch` computes --------------------------------------------------

def test_the_permanent_ranking_is_what_rank_dippouch_computes_from_the_store(client: TestClient,
                                                                             folder: Path) -> None:
    page = client.get("/rankings/dippouch.json").json()
    command = rank_command(folder)
    assert the_commands(page["ranking"]) == command and len(command) == 5
    # the corrected Winter Masters (version 2) is what counts: Inès Aubert 10th, not 12th
    file_of_current_versions = table(folder / "current.csv", [r for r in ROWS if not r.startswith("Winter")]
                                     + CORRECTED)
    assert command == rank_command(folder, str(file_of_current_versions))
    nationality = {line["player"]: line["country"] for line in page["ranking"]}
    assert nationality == {"Ada Lovelace": "GBR", "Blaise Pascal": "FRA", "Inès Aubert": "FRA",
                           "Grace Hopper": "USA", "Team A/B": None}  # the latest nationality given


def test_a_years_ranking_is_rank_dippouch_of_the_events_up_to_its_end(client: TestClient, folder: Path) -> None:
    up_to_2022 = table(folder / "up_to_2022.csv", [r for r in ROWS if r.split(",")[1] < "2023"])
    page = client.get("/rankings/dippouch.json?year=2022").json()
    assert page["year"] == 2022 and the_commands(page["ranking"]) == rank_command(folder, str(up_to_2022))
    assert page["ranking"] != client.get("/rankings/dippouch.json").json()["ranking"]
    html = client.get("/rankings/dippouch?year=2022").text
    assert "(at the end of 2022)" in html and '<a href="/rankings/dippouch">Permanent</a>' in html
    assert '<a href="/rankings/dippouch?year=2023">2023</a>' in html and "<strong>2022</strong>" in html
    before = client.get("/rankings/dippouch?year=1999")
    assert before.status_code == 200 and "No stored Dip Pouch event is dated 1999 or earlier" in before.text


def test_the_national_ranking_keeps_a_countrys_players_however_the_tables_spell_it(client: TestClient) -> None:
    everyone = client.get("/rankings/dippouch.json").json()["ranking"]
    french = [line for line in everyone if line["country"] == "FRA"]
    assert [line["player"] for line in french] == ["Blaise Pascal", "Inès Aubert"]
    for spelling in ("FRA", "fra", "France"):
        page = client.get(f"/rankings/dippouch.json?country={spelling}").json()
        assert [{k: v for k, v in line.items() if k != "national_rank"} for line in page["ranking"]] \
            == [{k: v for k, v in line.items() if k != "national_rank"} for line in french]
        assert [line["national_rank"] for line in page["ranking"]] == [1, 2]
    html = client.get("/rankings/dippouch?country=FRA").text
    assert "national ranking: France (FRA)" in html and '<option value="FRA" selected>' in html
    nobody = client.get("/rankings/dippouch?country=SWE")
    assert nobody.status_code == 200 and "No rated player is from SWE" in nobody.text


def test_an_event_page_has_its_value_and_each_players_percentile_and_rating_change(client: TestClient) -> None:
    listed = client.get("/dippouch/events.json").json()["events"]
    assert [e["name"] for e in listed] == ["Winter Masters", "World Diplomacy Championship", "Summer Open",
                                           "Spring Cup", "Old Cup"]  # newest first, current versions only
    assert [e["value"] for e in listed] == [15.0, 20.0, 14 / 7 + 2, 21 / 3.5 + 2, 0.0]
    html = client.get("/dippouch/events").text
    assert f'<a href="/dippouch/events/{listed[3]["id"]}">Spring Cup</a>' in html
    page = client.get(f"/dippouch/events/{event_id(client, 'Spring Cup')}.json").json()
    about, standings = page["event"], page["standings"]
    assert (about["date"], about["location"], about["players"], about["rounds"], about["value"]) \
        == ("2022-04-16", "Paris", 21, 3, dippouch.tournament_value(21, 3, False, 2022))
    assert [(s["place"], s["player"], s["country"], s["score"]) for s in standings] == [
        (1, "Ada Lovelace", "GBR", 120.5), (2, "Blaise Pascal", "FRA", 99.0), (3, "Inès Aubert", "France", 80.0),
        (3, "Team A/B", None, 80.0)]
    assert [s["percentile"] for s in standings] == [dippouch.percentile(21, p) for p in (1, 2, 3, 3)]
    ada = standings[0]  # Old Cup (value 0) left her at 40
    assert ada["rating_before"] == 40.0
    assert ada["rating_after"] == dippouch.new_rating(40.0, dippouch.percentile(21, 1), about["value"])
    assert ada["change"] == ada["rating_after"] - ada["rating_before"]
    html = client.get(f"/dippouch/events/{about['id']}").text
    assert '<a href="/dippouch/players/Team%20A%2FB">Team A/B</a>' in html
    assert '<dd id="value">8.00</dd>' in html


def test_a_player_page_has_each_event_and_ends_at_the_rating_of_the_ranking(client: TestClient) -> None:
    everyone = {line["player"]: line for line in client.get("/rankings/dippouch.json").json()["ranking"]}
    for name, line in everyone.items():
        page = client.get(f"/dippouch/players/{quote(name, safe='')}.json").json()
        history = page["history"]
        assert page["standing"]["rating"] == line["rating"] == history[0]["rating_after"], name
        assert page["standing"]["rank"] == line["rank"] and len(history) == line["count"]
        oldest_first = list(reversed(history))
        assert oldest_first[0]["rating_before"] == dippouch.STARTING_RATING
        for earlier, later in itertools.pairwise(oldest_first):
            assert later["rating_before"] == earlier["rating_after"]
    ines = client.get("/dippouch/players/In%C3%A8s%20Aubert.json").json()
    assert [(h["event"], h["place"], h["location"]) for h in ines["history"]] == [
        ("Winter Masters", 10, None), ("Summer Open", 2, "Lyon"), ("Spring Cup", 3, "Paris")]
    winter = ines["history"][0]
    assert (winter["percentile"], winter["value"]) == (dippouch.percentile(65, 10), 15.0)
    assert winter["address"] == f"/dippouch/events/{event_id(client, 'Winter Masters')}"


def test_a_player_page_has_the_rating_and_rank_of_each_years_ranking(client: TestClient) -> None:
    ines = client.get("/dippouch/players/In%C3%A8s%20Aubert.json").json()
    assert [y["year"] for y in ines["years"]] == [2024, 2023, 2022]  # newest first, back to her first event
    for y in ines["years"]:
        board = client.get(f"/rankings/dippouch.json?year={y['year']}").json()["ranking"]
        line = next(line for line in board if line["player"] == "Inès Aubert")
        assert (y["rank"], y["rating"], y["count"], y["rated_players"]) \
            == (line["rank"], line["rating"], line["count"], len(board))
    assert ines["years"][1]["rating"] == ines["years"][2]["rating"]  # no event in 2023: the rating held
    assert '<a href="/rankings/dippouch?year=2023">2023</a>' in client.get("/dippouch/players/In%C3%A8s%20Aubert").text


def test_the_chart_of_the_rating_is_drawn_on_the_server(client: TestClient) -> None:
    html = client.get("/dippouch/players/Ada%20Lovelace").text
    chart = re.search(r'<figure class="chart-figure" id="chart">(.*?)</figure>', html, re.DOTALL)
    assert chart and '<svg class="chart"' in chart.group(1) and "<script" not in html
    days = re.findall(r"<circle class=\"played\"[^>]*><title>(\d{4}-\d\d-\d\d): ([\d.]+)</title>", chart.group(1))
    history = client.get("/dippouch/players/Ada%20Lovelace.json").json()["history"]
    assert days == [(h["date"], f"{h['rating_after']:.2f}") for h in reversed(history)]
    for h in history:  # each event links to its page
        assert f'<a href="{h["address"]}">{h["event"]}</a>' in html


# --- downloads ------------------------------------------------------------------------------------

PAGES = [("/rankings/dippouch", "", "ranking", "Ranking", True),
         ("/rankings/dippouch", "?year=2023&country=France", "ranking", "Ranking", True),
         ("/dippouch/events", "", "events", "Events", True),
         ("/dippouch/events/2", "", "standings", "Standings", True),
         ("/dippouch/players/In%C3%A8s%20Aubert", "", "history", "Events", True),
         ("/dippouch/players/Ada%20Lovelace", "", "years", "Per year", False),  # the CSV holds the events
         ("/search", "?q=ines", "dippouch_players", "Dip Pouch players", False)]  # the CSV: the EMA players


@pytest.mark.parametrize(("path", "query", "key", "sheet", "first"), PAGES)
def test_every_page_downloads_as_csv_and_xlsx_equal_to_its_json(client: TestClient, path: str, query: str,
                                                                key: str, sheet: str, first: bool) -> None:
    rows = client.get(f"{path}.json{query}").json()[key]
    assert rows, path
    if first:  # the CSV holds the page's first table
        assert csv_rows(client.get(f"{path}.csv{query}")) == [{k: as_text(v) for k, v in r.items()} for r in rows]
    xlsx = client.get(f"{path}.xlsx{query}")
    assert xlsx.headers["content-type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert same_in_excel(sheet_rows(xlsx, sheet), rows)


# --- search, addresses, errors and words -----------------------------------------------------------

def test_the_search_finds_dippouch_players_and_events_without_accents(client: TestClient) -> None:
    found = client.get("/search.json?q=INES aubert").json()
    assert [p["player"] for p in found["dippouch_players"]] == ["Inès Aubert"]
    assert found["dippouch_players"][0]["address"] == "/dippouch/players/In%C3%A8s%20Aubert"
    assert [e["name"] for e in client.get("/search.json?q=bangkok").json()["dippouch_events"]] \
        == ["World Diplomacy Championship"]
    html = client.get("/search?q=ines").text
    assert '<a href="/dippouch/players/In%C3%A8s%20Aubert">Inès Aubert</a>' in html


def test_a_replaced_version_keeps_its_page_without_ratings_and_points_to_the_current(client: TestClient) -> None:
    current = event_id(client, "Winter Masters")
    page = client.get(f"/dippouch/events/{current}.json").json()
    assert [v["version"] for v in page["versions"]] == [1, 2] and page["event"]["version"] == 2
    old = next(v["id"] for v in page["versions"] if v["version"] == 1)
    replaced = client.get(f"/dippouch/events/{old}.json").json()
    assert not replaced["event"]["current"] and all(s["rating_after"] is None for s in replaced["standings"])
    assert [s["place"] for s in replaced["standings"]] == [8, 12]
    html = client.get(f"/dippouch/events/{old}").text
    assert f'<a href="/dippouch/events/{current}">The current version</a>' in html


@pytest.mark.parametrize(("address", "parameter"), [("/rankings/dippouch?year=22", "year="),
                                                    ("/rankings/dippouch.json?year=next", "year"),
                                                    ("/rankings/dippouch?country=<b>", "country="),
                                                    ("/rankings/dippouch.csv?country=F1", "country=")])
def test_a_bad_parameter_is_a_bad_request_naming_it(client: TestClient, address: str, parameter: str) -> None:
    response = client.get(address)
    assert response.status_code == 400
    if ".json" in address:
        assert response.json()["error"] == "Bad request" and parameter in response.json()["message"]
    else:
        assert "<h1>Bad request</h1>" in response.text and parameter in response.text
        assert "Not found" not in response.text


@pytest.mark.parametrize("address", ["/dippouch/events/999", "/dippouch/events/x1", "/dippouch/players/Nobody",
                                     "/dippouch/players/Nobody.json"])
def test_an_unknown_event_or_player_is_not_found(client: TestClient, address: str) -> None:
    response = client.get(address)
    assert response.status_code == 404
    assert ("Not found" in response.text) and ("/dippouch/events" in response.text or "/search" in response.text)


PUBLIC = ["/rankings/dippouch", "/rankings/dippouch?year=2022&country=FRA", "/dippouch/events", "/dippouch/events/2",
          "/dippouch/events/1", "/dippouch/players/Ada%20Lovelace", "/search?q=a"]


@pytest.mark.parametrize("address", PUBLIC)
def test_pages_link_without_a_stray_question_mark_and_speak_to_people(client: TestClient, address: str) -> None:
    response = client.get(address)
    html = response.text
    assert response.status_code == 200
    links = re.findall(r'href="([^"]*)"', html)
    assert links and not [link for link in links if link.endswith("?") or "?&" in link], address
    for command_line in ("--replace", "xlrating rank", "xlrating ingest", "<code>xlrating"):
        assert command_line not in html, (address, command_line)
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", html), f"{address}: a raw ISO timestamp"
    assert re.search(r"<title>[^<]* · Diplomacy Ratings \(World Diplomacy Database\)</title>", html)
    assert '<a href="/rankings/dippouch">Dip Pouch</a>' in html  # in every page's navigation
