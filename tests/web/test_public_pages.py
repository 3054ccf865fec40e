"""The public pages in process (Starlette's TestClient): each page's JSON is what the leaderboard
code computes for the same store, its CSV and Excel downloads hold the JSON's rows, and the
addresses, errors, links and wording are the visitor's, not the command line's."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from starlette.testclient import TestClient

from tests.stored import records
from xlrating.core import mers
from xlrating.leaderboards import mers_leaderboard
from xlrating.store import open_store
from xlrating.systems.mers import player_names
from xlrating.web.app import Settings, create_app
from xlrating.web.pages import Page, Table
from xlrating.web.renderers import xlsx_bytes

EXAMPLES = Path(__file__).parents[2] / "examples"
AS_OF = "2025-12-31"
DAY = dt.date(2025, 12, 31)


def xlrating(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Examples 01-05, then Lyon again from another file (version 2 replaces version 1)."""
    folder = tmp_path_factory.mktemp("public")
    path = folder / "store.db"
    xlrating("ingest", "--db", str(path), *sorted(str(p) for p in EXAMPLES.glob("0[1-5]*.xlsx")))
    corrected = folder / "lyon_corrected.xlsx"
    book = openpyxl.load_workbook(EXAMPLES / "01_lyon_mcr_open_2024.xlsx")
    book.properties.title = "corrected"
    book.save(corrected)
    xlrating("ingest", "--db", str(path), "--replace", str(corrected))
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(db), check_processes=1, site_name="Mahjong Ratings",
                                        federation="European Mahjong Association"))) as c:
        yield c


def expected_ranking(db: Path, ruleset: str, rules: str) -> list[dict[str, Any]]:
    """What ``xlrating.leaderboards`` computes for the store, with each player's stored country."""
    with open_store(str(db), read_only=True) as store:
        results, names = records(store, ruleset=ruleset), player_names(store)
        countries = {ema_id: player.facts.get("country") for ema_id, player in store.players("mers").items()}
    board = mers_leaderboard(results, DAY, rules=rules, ruleset=ruleset, names=names)
    return [line | {"country": countries[line["player"]]} for line in board.ranked()]


def without_movement(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A ranking page's lines as the leaderboard has them (the page adds the movement since the
    previous ranking, tested in test_ranking_dates.py)."""
    return [{k: v for k, v in line.items() if k not in ("previous_rank", "movement")} for line in lines]


def csv_rows(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def sheet_rows(response: Any, title: str) -> list[dict[str, Any]]:
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))[title]
    header, *rows = sheet.iter_rows(values_only=True)
    return [dict(zip(header, row)) for row in rows]


def same_in_excel(sheet: list[dict[str, Any]], rows: list[dict[str, Any]]) -> bool:
    """The sheet's rows are the JSON's: text and whole numbers equal, other numbers to 15
    significant digits (what Excel keeps; openpyxl writes 16)."""
    if len(sheet) != len(rows) or any(a.keys() != b.keys() for a, b in zip(sheet, rows)):
        return False
    return all(a[k] == pytest.approx(b[k], rel=1e-15, abs=0) if isinstance(b[k], float) else a[k] == b[k]
               for a, b in zip(sheet, rows) for k in b)


def as_text(value: Any) -> str:
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


# --- the JSON is the leaderboard's ----------------------------------------------------------------

@pytest.mark.parametrize(("ruleset", "rules"), [("MCR", "2018"), ("Riichi", "2005"), ("Riichi", "2010")])
def test_the_ranking_is_the_leaderboard_with_each_players_country(client: TestClient, db: Path, ruleset: str,
                                                                  rules: str) -> None:
    page = client.get(f"/rankings/{ruleset}/{rules}.json?as_of={AS_OF}").json()
    assert without_movement(page["ranking"]) == expected_ranking(db, ruleset, rules) and page["ranking"]
    html = client.get(f"/rankings/{ruleset}/{rules}?as_of={AS_OF}").text
    for line in page["ranking"]:  # the name links to the player's page, not only the EMA ID
        assert f'<a href="/players/{line["player"]}?rules={rules}&amp;as_of={AS_OF}">{line["name"]}</a>' in html


def test_the_country_filter_keeps_the_players_of_that_country_with_their_ranks(client: TestClient, db: Path) -> None:
    everyone = expected_ranking(db, "Riichi", "2005")
    french = [line for line in everyone if line["country"] == "FRA"]
    assert 0 < len(french) < len(everyone)
    for spelling in ("FRA", "fra", "France"):
        page = client.get(f"/rankings/Riichi/2005.json?as_of={AS_OF}&country={spelling}").json()
        assert page["country"] == "FRA" and without_movement(page["ranking"]) == french
    nobody = client.get(f"/rankings/Riichi/2005?as_of={AS_OF}&country=SWE")
    assert nobody.status_code == 200 and "No ranked player of this ranking is from SWE" in nobody.text
    assert client.get("/rankings/Riichi/2005.json?country=<script>").status_code == 400


def test_the_country_ranking_averages_each_countrys_three_best_players(client: TestClient, db: Path) -> None:
    everyone = expected_ranking(db, "Riichi", "2005")
    scores: dict[str, list[float]] = {}
    for line in everyone:
        scores.setdefault(line["country"], []).append(line["total"])
    expected = sorted(((sum(sorted(t, reverse=True)[:3]) / 3, c) for c, t in scores.items()), key=lambda p: -p[0])
    page = client.get(f"/rankings/Riichi/2005/countries.json?as_of={AS_OF}").json()
    assert [row["country"] for row in page["countries"]] == [country for _, country in expected]
    assert [row["total"] for row in page["countries"]] == pytest.approx([total for total, _ in expected])
    assert [row["rank"] for row in page["countries"]] == list(range(1, len(expected) + 1))
    italy = next(row for row in page["countries"] if row["country"] == "ITA")  # one ranked player: 0 for the others
    assert italy["ranked_players"] == 1 and italy["player_2"] is None and italy["country_name"] == "Italy"


def test_a_tournament_page_has_its_standings_base_ranks_weight_and_age(client: TestClient) -> None:
    listed = client.get("/tournaments.json").json()["tournaments"]
    vienna = next(t for t in listed if t["name"] == "Vienna Riichi Day 2025")
    html = client.get("/tournaments").text
    assert f'<a href="/tournaments/{vienna["id"]}">Vienna Riichi Day 2025</a>' in html
    page = client.get(f"/tournaments/{vienna['id']}.json?rules=2018&as_of={AS_OF}").json()
    about, standings = page["tournament"], page["standings"]
    assert (about["ruleset"], about["city"], about["country"], about["weight"]) == ("Riichi", "Vienna", "AUT", 1.5)
    assert about["age_days"] == (DAY - dt.date.fromisoformat(about["end_date"])).days
    assert about["age_factor"] == mers.age_factor(dt.date.fromisoformat(about["end_date"]), DAY, "2018")
    assert len(standings) == about["players"] == 16
    for row in standings:
        # the 2018 rules count a base rank rounded half up to a whole number: the page shows that one
        assert row["base_rank"] == math.floor((16 - row["place"]) / 15 * 1000 + 0.5)
    earlier = client.get(f"/tournaments/{vienna['id']}.json?rules=2010&as_of={AS_OF}").json()["standings"]
    for row in earlier:  # the earlier rules count it as it is
        assert row["base_rank"] == pytest.approx((16 - row["place"]) / 15 * 1000)
    winner = standings[0]
    assert winner["place"] == 1 and winner["base_rank"] == 1000


def test_a_replaced_version_keeps_its_page_and_points_to_the_current_one(client: TestClient) -> None:
    lyon = next(t for t in client.get("/tournaments.json").json()["tournaments"] if t["name"] == "Lyon MCR Open 2024")
    assert lyon["version"] == 2
    current = client.get(f"/tournaments/{lyon['id']}.json").json()
    [old] = [v for v in current["versions"] if not v["current"]]
    page = client.get(f"/tournaments/{old['id']}")
    assert page.status_code == 200 and "This is version 1, replaced on" in page.text
    assert f'<a href="/tournaments/{lyon["id"]}">The current version</a>' in page.text
    assert client.get("/tournaments/999999").status_code == 404
    assert client.get("/tournaments/lyon.json").json()["error"] == "Not found"


def test_a_player_page_has_each_counted_result_and_the_total_over_time(client: TestClient, db: Path) -> None:
    best = expected_ranking(db, "Riichi", "2005")[0]
    page = client.get(f"/players/{best['player']}.json?rules=2005&as_of={AS_OF}").json()
    [standing] = [s for s in page["standings"] if s["ruleset"] == "Riichi"]
    assert (standing["rank"], standing["total"]) == (1, best["total"])
    real = [c for c in standing["counted"] if c["tournament_id"] is not None]
    assert len(real) == best["count"]
    history = [p for p in page["history"] if p["ruleset"] == "Riichi"]
    assert history[-1] == {"ruleset": "Riichi", "date": AS_OF, "total": best["total"], "count": best["count"]}
    assert history[0]["total"] is None  # after the first result alone a player is not ranked
    dates = [p["date"] for p in history]
    assert dates == sorted(dates)
    for point in history:  # each point is what the whole ranking said on that day
        day = dt.date.fromisoformat(point["date"])
        with open_store(str(db), read_only=True) as store:
            board = mers_leaderboard(records(store, ruleset="Riichi"), day, rules="2005", ruleset="Riichi")
        line = next((line for line in board.ranked() if line["player"] == best["player"]), None)
        assert point["total"] == (line["total"] if line else None), point
    html = client.get(f"/players/{best['player']}?rules=2005&as_of={AS_OF}").text
    chart = re.search(r'<figure class="chart-figure" id="chart-Riichi">.*?</figure>', html, re.DOTALL)
    assert chart and '<svg class="chart"' in chart.group(0) and re.search(r'<path class="total" d="M[\d.]+ [\d.]+', chart.group(0))
    for result in real:
        assert f'href="/tournaments/{result["tournament_id"]}?rules=2005&amp;as_of={AS_OF}"' in html


def test_the_search_finds_players_by_name_without_accents_and_tournaments(client: TestClient) -> None:
    found = client.get("/search.json?q=ines AUBERT").json()
    assert [(p["first_name"], p["last_name"]) for p in found["players"]] == [("Inès", "Aubert")]
    assert found["players"][0]["address"] == f"/players/{found['players'][0]['ema_id']}"
    by_id = client.get(f"/search.json?q={found['players'][0]['ema_id']}").json()
    assert [p["last_name"] for p in by_id["players"]] == ["Aubert"]
    tournaments = client.get("/search.json?q=vienna").json()["tournaments"]
    assert [t["name"] for t in tournaments] == ["Vienna Riichi Day 2025"]
    html = client.get("/search?q=aubert").text
    assert 'href="/players/' in html and "Aubert" in html
    assert client.get("/search?q=" + "x" * 101).status_code == 400
    assert client.get("/search").status_code == 200


# --- every page as CSV and Excel ------------------------------------------------------------------

PAGES = [("/rankings/MCR/2018", "ranking", "Ranking", f"as_of={AS_OF}"),
         ("/rankings/Riichi/2010", "ranking", "Ranking", f"as_of={AS_OF}&country=NED"),
         ("/rankings/Riichi/2005/countries", "countries", "Countries", f"as_of={AS_OF}"),
         ("/rankings", "rankings", "Rankings", ""),
         ("/tournaments", "tournaments", "Tournaments", ""),
         ("/tournaments/3", "standings", "Standings", ""),
         ("/search", "players", "Players", "q=an")]


@pytest.mark.parametrize(("path", "key", "sheet", "query"), PAGES)
def test_every_page_downloads_as_csv_and_xlsx_equal_to_its_json(client: TestClient, path: str, key: str,
                                                                sheet: str, query: str) -> None:
    suffix = f"?{query}" if query else ""
    data = client.get(f"{path}.json{suffix}").json()
    rows = data[key]
    assert rows, path
    assert csv_rows(client.get(f"{path}.csv{suffix}")) == [{k: as_text(v) for k, v in row.items()} for row in rows]
    xlsx = client.get(f"{path}.xlsx{suffix}")
    assert xlsx.headers["content-type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert same_in_excel(sheet_rows(xlsx, sheet), rows)
    stem = "-".join(part for part in path.split("/") if part)
    assert f'filename="{stem}.xlsx"' in xlsx.headers["content-disposition"]


def test_a_player_workbook_holds_results_counted_results_and_the_total_over_time(client: TestClient) -> None:
    ema_id = client.get(f"/rankings/Riichi/2005.json?as_of={AS_OF}").json()["ranking"][0]["player"]
    address = f"/players/{ema_id}"
    data = client.get(f"{address}.json?rules=2005&as_of={AS_OF}").json()
    xlsx = client.get(f"{address}.xlsx?rules=2005&as_of={AS_OF}")
    for key, title in (("results", "Results"), ("counted", "Counted"), ("history", "Total over time")):
        assert same_in_excel(sheet_rows(xlsx, title), data[key]), key
    assert csv_rows(client.get(f"{address}.csv?rules=2005&as_of={AS_OF}")) \
        == [{k: as_text(v) for k, v in row.items()} for row in data["results"]]


def test_a_name_that_looks_like_a_formula_stays_text_in_the_workbook() -> None:
    page = Page("t", "t.html", {"rows": [{"name": "=HYPERLINK(\"http://x\",\"y\")", "total": 1.5}]},
                (Table("rows", "Rows", ("name", "total")),))
    cell = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(page)))["Rows"]["A2"]
    assert cell.data_type == "s" and cell.value.startswith("=HYPERLINK")


# --- addresses, errors, links and words -----------------------------------------------------------

@pytest.mark.parametrize("address", ["/players/04858660?rules=2019", "/tournaments/1.json?rules=1999"])
def test_a_bad_rules_parameter_is_a_bad_request_naming_the_eras(client: TestClient, address: str) -> None:
    response = client.get(address)
    assert response.status_code == 400
    text = response.text
    assert "rules=" in text and all(era in text for era in ("2005", "2010", "2018")) and "Not found" not in text


@pytest.mark.parametrize("address", ["/rankings/MCR/2018?as_of=31/12/2025", "/rankings/MCR/2018.json?as_of=yesterday",
                                     "/rankings/MCR/2018/countries?as_of=2025-13-01",
                                     "/players/04858660?as_of=2025", "/tournaments/1.csv?as_of=x"])
def test_a_bad_as_of_is_a_bad_request_naming_the_parameter_and_its_format(client: TestClient, address: str) -> None:
    response = client.get(address)
    assert response.status_code == 400
    if address.split("?")[0].endswith(".json"):
        assert response.json()["error"] == "Bad request" and "as_of" in response.json()["message"]
    else:
        assert "<title>Bad request" in response.text and "<h1>Bad request</h1>" in response.text
        assert "as_of=" in response.text and "YYYY-MM-DD" in response.text and "Not found" not in response.text


def test_the_addresses_of_before_stay_valid(client: TestClient) -> None:
    for address in ("/rankings.json", "/rankings/MCR/2018.json", "/rankings/riichi/2005.json?as_of=2025-12-31",
                    "/tournaments.json", "/players/04858660.json?rules=2010"):
        assert client.get(address).status_code == 200, address


PUBLIC = ["/", "/rankings", f"/rankings/MCR/2018?as_of={AS_OF}", f"/rankings/Riichi/2005?as_of={AS_OF}&country=NED",
          f"/rankings/Riichi/2005/countries?as_of={AS_OF}", "/tournaments", "/tournaments/3", "/tournaments/1",
          "/players/04858660", f"/players/04858660?rules=2005&as_of={AS_OF}", "/search?q=a", "/search",
          "/officer/sign-in", "/nowhere"]


@pytest.mark.parametrize("address", PUBLIC)
def test_pages_link_without_a_stray_question_mark_and_speak_to_people(client: TestClient, address: str) -> None:
    html = client.get(address).text
    links = re.findall(r'href="([^"]*)"', html)
    assert links and not [link for link in links if link.endswith("?") or "?&" in link], address
    for command_line in ("--replace", "xlrating rank", "xlrating validate", "xlrating serve", "<code>xlrating"):
        assert command_line not in html, (address, command_line)
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", html), f"{address}: a raw ISO timestamp"


def test_the_site_name_and_federation_are_in_every_pages_title_and_header(client: TestClient) -> None:
    for address in PUBLIC:
        html = client.get(address).text
        assert re.search(r"<title>[^<]* · Mahjong Ratings \(European Mahjong Association\)</title>", html), address
        assert 'class="brand">Mahjong Ratings <span class="federation">European Mahjong Association</span>' in html


def test_the_site_name_comes_from_the_environment_unless_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLRATING_SITE_NAME", "Ratings of the EMA")
    monkeypatch.setenv("XLRATING_FEDERATION", "EMA")
    assert (Settings.from_env("x.db").site_name, Settings.from_env("x.db").federation) == ("Ratings of the EMA", "EMA")
    given = Settings.from_env("x.db", site_name="Other", federation=None)
    assert (given.site_name, given.federation) == ("Other", "EMA")
    monkeypatch.delenv("XLRATING_SITE_NAME")
    assert Settings.from_env("x.db").site_name == "xlrating"


def test_stored_timestamps_are_shown_as_dates_and_times_with_the_time_zone(client: TestClient) -> None:
    stored = dt.datetime.fromisoformat(client.get("/tournaments/3.json").json()["tournament"]["stored_at"])
    html = client.get("/tournaments/3").text
    assert f"version 1, {stored.day} {stored:%B %Y, %H:%M} UTC, from" in html


def test_serve_refuses_an_empty_site_name_naming_the_option(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "xlrating", "serve", "--db", str(tmp_path / "s.db"), "--site-name", " "],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--site-name" in done.stderr and "1 to 100 printable characters" in done.stderr
    assert not (tmp_path / "s.db").exists()
