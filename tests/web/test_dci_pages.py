"""The DCI public pages in process (Starlette's TestClient): every page's JSON is what
``xlrating rank dci`` computes from the same store, the match history's ratings chain to the
leaderboard's, the CSV and Excel downloads hold the JSON's rows, names and events link to their
pages, and a wrong address or parameter says what is wrong."""

from __future__ import annotations

import csv
import html
import io
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

from xlrating.web.app import Settings, create_app

EXAMPLES = Path(__file__).parents[2] / "examples"
TABLES = EXAMPLES / "tables"
CHANGED_ROW = ("Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,W,",
               "Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,L,")


def xlrating(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example DCI matches, then Grand Prix Rotterdam again with one result changed (version 2
    replaces version 1), and an EMA tournament (the search covers both)."""
    folder = tmp_path_factory.mktemp("dci")
    path = folder / "store.db"
    xlrating("ingest", "--db", str(path), str(TABLES / "dci_matches.csv"), str(EXAMPLES / "01_lyon_mcr_open_2024.xlsx"))
    changed = folder / "dci_matches_corrected.csv"
    text = (TABLES / "dci_matches.csv").read_text(encoding="utf-8")
    assert CHANGED_ROW[0] in text
    changed.write_text(text.replace(*CHANGED_ROW), encoding="utf-8")
    xlrating("ingest", "--db", str(path), "--replace", str(changed))
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(db), check_processes=1, site_name="Magic Ratings"))) as c:
        yield c


def rank_dci(db: Path, tmp_path: Path, *options: str) -> list[dict[str, Any]]:
    """What ``xlrating rank dci`` writes for the store, read back from its JSON file."""
    out = tmp_path / f"rank{len(list(tmp_path.iterdir()))}.json"
    xlrating("rank", "dci", "--db", str(db), "-o", str(out), *options)
    return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def csv_rows(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def sheet_rows(response: Any, title: str) -> list[dict[str, Any]]:
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))[title]
    header, *rows = sheet.iter_rows(values_only=True)
    return [dict(zip(header, row)) for row in rows]


def as_text(value: Any) -> str:
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


def same_in_excel(sheet: list[dict[str, Any]], rows: list[dict[str, Any]], columns: tuple[str, ...]) -> bool:
    """The sheet's rows are the JSON's: text and whole numbers equal, other numbers to 15
    significant digits (what Excel keeps); a list (categories, K-values) as its text."""
    if len(sheet) != len(rows):
        return False
    for got, want in zip(sheet, rows):
        if tuple(got) != columns:
            return False
        for key in columns:
            value = want[key]
            if isinstance(value, float):
                if got[key] != pytest.approx(value, rel=1e-15, abs=0):
                    return False
            elif got[key] != value:
                return False
    return True


def the_commands(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A page's ranking lines as ``rank dci`` writes them: without what the page adds (the
    country, and the national rank of a country's list)."""
    return [{k: v for k, v in line.items() if k not in ("country", "national_rank")} for line in lines]


def player_page(name: str) -> str:
    return f"/dci/players/{quote(name, safe='')}"


# --- the JSON is rank dci's ----------------------------------------------------------------------

@pytest.mark.parametrize("method", ["formula", "table"])
def test_each_category_ranking_is_rank_dci_of_the_store(client: TestClient, db: Path, tmp_path: Path,
                                                        method: str) -> None:
    index = client.get(f"/rankings/dci.json?method={method}").json()
    assert the_commands(index["ranking"]) == rank_dci(db, tmp_path, "--method", method)
    assert [c["category"] for c in index["categories"]] == ["Constructed", "Limited"]
    for category in index["categories"]:
        page = client.get(f"/rankings/dci/{category['category']}.json?method={method}").json()
        expected = rank_dci(db, tmp_path, "--category", category["category"], "--method", method)
        assert the_commands(page["ranking"]) == expected and expected
        assert (category["leader"], category["rating"], category["players"]) \
            == (expected[0]["player"], expected[0]["rating"], len(expected))


def test_the_replaced_event_counts_in_its_new_version_only(client: TestClient, db: Path, tmp_path: Path) -> None:
    """Kai Budde lost the corrected round 3: the ratings are those of the corrected file."""
    corrected = tmp_path / "corrected.csv"
    corrected.write_text((TABLES / "dci_matches.csv").read_text(encoding="utf-8").replace(*CHANGED_ROW),
                         encoding="utf-8")
    from_file = rank_dci(db, tmp_path, str(corrected), "--category", "Constructed")
    assert the_commands(client.get("/rankings/dci/Constructed.json").json()["ranking"]) == from_file


def test_a_players_history_chains_match_by_match_to_the_leaderboards_rating(client: TestClient, db: Path,
                                                                              tmp_path: Path) -> None:
    board = rank_dci(db, tmp_path)
    names = sorted({line["player"] for line in board})
    for name in names:
        page = client.get(player_page(name) + ".json").json()
        assert page["player"] == name
        last: dict[str, float] = {}
        for match in page["matches"]:
            if match["outcome"] == "bye":
                assert match["change"] is None and match["opponent"] is None
                continue
            category = match["category"]
            assert match["rating_before"] == last.get(category, 1600.0)  # each match starts where the last ended
            assert match["change"] == pytest.approx(match["k"] * (match["result"] - match["expected"]), abs=1e-9)
            assert match["rating_after"] == pytest.approx(match["rating_before"] + match["change"], abs=1e-9)
            assert match["outcome"] == {1.0: "win", 0.5: "draw", 0.0: "loss"}[match["result"]]
            last[category] = match["rating_after"]
        for rating in page["ratings"]:
            line = next(line for line in board if line["player"] == name and line["category"] == rating["category"])
            assert (rating["rating"], rating["count"]) == (line["rating"], line["count"])
            assert last[rating["category"]] == line["rating"]  # the same double as rank dci's
        assert [p["rating"] for p in page["history"] if p["matches"] == 0] == [1600.0] * len(page["ratings"])


def test_an_event_page_has_its_facts_matches_and_each_players_change(client: TestClient) -> None:
    listed = client.get("/dci/events.json").json()["events"]
    assert [e["name"] for e in listed] == ["Grand Prix Rotterdam", "Friday Night Magic", "Pro Tour Kyoto"]
    listing = client.get("/dci/events").text
    for e in listed:
        assert f'<a href="/dci/events/{e["id"]}">{e["name"]}</a>' in listing
    rotterdam = listed[0]
    assert (rotterdam["tiers"], rotterdam["k"], rotterdam["categories"], rotterdam["version"]) \
        == ("grand prix", 40.0, "Constructed", 2)
    page = client.get(f"/dci/events/{rotterdam['id']}.json").json()
    assert page["event"]["rounds"] == 3 and page["event"]["players"] == 6 and page["event"]["current"]
    assert len(page["matches"]) == page["event"]["matches"] == 9  # ten rows: one match is listed from both sides
    for match in page["matches"]:
        assert match["k"] == 40.0 and match["tier"] == "grand prix"
        assert match["change"] == pytest.approx(40.0 * (match["result"] - match["expected"]), abs=1e-9)
    finkel = next(p for p in page["players"] if p["player"] == "Jon Finkel")
    own = client.get(player_page("Jon Finkel") + ".json").json()["matches"]
    in_event = [m for m in own if m["event_id"] == rotterdam["id"]]
    assert finkel["matches"] == len(in_event) == 3
    assert (finkel["rating_before"], finkel["rating_after"]) == (in_event[0]["rating_before"],
                                                                 in_event[-1]["rating_after"])
    versions = page["versions"]
    assert [(v["version"], v["current"]) for v in versions] == [(1, False), (2, True)]
    old = client.get(f"/dci/events/{versions[0]['id']}")
    assert old.status_code == 200 and 'id="replaced"' in old.text
    assert f'<a href="/dci/events/{rotterdam["id"]}">The current version</a>' in old.text
    assert all(m["change"] is None for m in client.get(f"/dci/events/{versions[0]['id']}.json").json()["matches"])


def test_names_and_events_link_to_their_pages_and_no_link_ends_in_a_question_mark(client: TestClient) -> None:
    ranking = client.get("/rankings/dci/Constructed").text
    for line in client.get("/rankings/dci/Constructed.json").json()["ranking"]:
        assert f'<a href="{player_page(line["player"])}">{line["player"]}</a>' in ranking
    finkel = client.get(player_page("Jon Finkel")).text
    assert '<a href="/dci/players/Kai%20Budde">Kai Budde</a>' in finkel
    assert re.search(r'<a href="/dci/events/\d+">Pro Tour Kyoto</a>', finkel)
    assert '<svg class="chart"' in finkel and "<script" not in finkel
    table = client.get(player_page("Jon Finkel") + "?method=table").text
    assert '<a href="/dci/players/Kai%20Budde?method=table">Kai Budde</a>' in table
    for page in ("/rankings/dci", "/rankings/dci/Limited", "/dci/events", player_page("Jon Finkel"),
                 "/dci/events/1", "/search?q=jon"):
        text = client.get(page).text
        assert not re.search(r'href="[^"]*\?"', text), page
        main = text.split("<main>")[1].split("</main>")[0]
        assert "xlrating" not in main and "--" not in main, page  # no command-line wording
        assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", main), page  # times as people read them


def test_the_downloads_hold_the_jsons_rows(client: TestClient) -> None:
    for address, key, title in (("/rankings/dci/Constructed", "ranking", "Ratings"),
                                ("/rankings/dci", "categories", "Categories"),
                                (player_page("Jon Finkel"), "matches", "Matches"),
                                ("/dci/events", "events", "Events"),
                                ("/dci/events/1", "matches", "Matches"),
                                ("/search?q=o", "dci_players", "DCI players")):
        path, _, query = address.partition("?")
        rows = client.get(f"{path}.json?{query}").json()[key]
        assert rows and same_in_excel(sheet_rows(client.get(f"{path}.xlsx?{query}"), title), rows, tuple(rows[0])), address
        if key != "dci_players":  # the CSV holds the first table (the search's: the EMA players)
            from_csv = csv_rows(client.get(f"{path}.csv?{query}"))
            assert [list(row) for row in from_csv] == [list(row) for row in rows]  # the JSON's keys, in order
            assert from_csv == [{k: as_text(v) for k, v in row.items()} for row in rows], address
    response = client.get("/rankings/dci/Constructed.csv")
    assert 'filename="rankings-dci-Constructed.csv"' in response.headers["content-disposition"]


def test_the_search_finds_dci_players_and_events_by_name(client: TestClient) -> None:
    found = client.get("/search.json?q=FINKEL jon").json()
    assert [(p["player"], p["matches"]) for p in found["dci_players"]] == [("Jon Finkel", 7)]
    assert found["dci_players"][0]["address"] == "/dci/players/Jon%20Finkel"
    assert [e["name"] for e in client.get("/search.json?q=rotterdam").json()["dci_events"]] == ["Grand Prix Rotterdam"]
    page = client.get("/search?q=finkel").text
    assert '<a href="/dci/players/Jon%20Finkel">Jon Finkel</a>' in page
    mixed = client.get("/search.json?q=lyon").json()  # the EMA tournaments are still found
    assert [t["name"] for t in mixed["tournaments"]] == ["Lyon MCR Open 2024"] and mixed["dci_players"] == []


@pytest.mark.parametrize(("address", "status", "says"), [
    ("/rankings/dci?method=elo", 400, "method"),
    ("/rankings/dci/Constructed?country=F1", 400, "is not a country"),
    ("/rankings/dci?country=U.S.A.", 400, "is not a country"),
    ("/rankings/dci/Vintage", 404, "Constructed, Limited"),
    ("/dci/events/999", 404, "/dci/events"),
    ("/dci/events/abc", 404, "numbered"),
    ("/dci/players/Nobody%20Here", 404, "Nobody Here"),
])
def test_a_wrong_address_or_parameter_says_what_is_wrong(client: TestClient, address: str, status: int,
                                                         says: str) -> None:
    page = client.get(address)
    assert page.status_code == status and says in page.text
    title = "Bad request" if status == 400 else "Not found"
    assert f"<title>{title} · Magic Ratings</title>" in page.text
    path, _, query = address.partition("?")
    as_json = client.get(f"{path}.json" + (f"?{query}" if query else ""))
    assert as_json.status_code == status and as_json.json()["error"] == title and says in as_json.json()["message"]


def test_every_link_of_the_dci_pages_leads_to_a_page_whatever_the_names_hold(tmp_path: Path) -> None:
    """Names with a slash, quotes, ``?`` and ``&``, accents: each page links the others by
    addresses that find them (followed from the DCI ratings, every page reached once)."""
    table = tmp_path / "odd.csv"
    table.write_text("event,date,round,player,opponent,result,tier,category\n"
                     'Cup é/1,2010-01-02,1,"A/B ""x""",Zoë?&,W,regular,Two-Headed/Giant\n'
                     'Cup é/1,2010-01-02,2,Zoë?&,"A/B ""x""",D,regular,Two-Headed/Giant\n', encoding="utf-8")
    db = tmp_path / "odd.db"
    xlrating("ingest", "--db", str(db), str(table))
    with TestClient(create_app(Settings(str(db), check_processes=1))) as odd:
        seen, waiting = set(), ["/rankings/dci"]
        while waiting:
            address = waiting.pop()
            page = odd.get(address)
            assert page.status_code == 200, address
            seen.add(address)
            for link in re.findall(r'href="([^"]+)"', page.text):
                link = html.unescape(link)
                if link.startswith(("/dci/", "/rankings/dci")) and link not in seen and link not in waiting:
                    waiting.append(link)
    assert {"/dci/players/A%2FB%20%22x%22", "/dci/players/Zo%C3%AB%3F%26", "/rankings/dci/Two-Headed%2FGiant",
            "/dci/events/1"} <= seen


def test_the_pages_rate_the_very_matches_rank_dci_reads(db: Path) -> None:
    from xlrating.store import open_store
    from xlrating.systems import get
    from xlrating.web import dci_published

    with open_store(str(db), read_only=True) as store:
        now = dci_published.snapshot(store, "formula")
        ranked = get("dci").stored_records(store)
        assert [(m, m.row) for m in now.matches] == [(m, m.row) for m in ranked] and ranked
        current = {e.name: e for e in store.events("dci")}
        assert len(set(now.event_ids)) == len(current) == 3


# --- countries -------------------------------------------------------------------------------------

NATIONALITIES = {"Jon Finkel": "USA", "Kai Budde": "GER", "Luis Scott-Vargas": "USA",
                 "Paulo Vitor Damo da Rosa": "BRA", "Gabriel Nassif": "FRA", "Olivier Ruel": "FRA"}


def test_each_ranking_line_has_the_players_country_and_a_country_filter_keeps_its_players(client: TestClient) -> None:
    everyone = client.get("/rankings/dci/Constructed.json").json()["ranking"]
    assert {line["player"]: line["country"] for line in everyone} == NATIONALITIES
    assert all(line["national_rank"] is None for line in everyone)
    french = [line for line in everyone if line["country"] == "FRA"]
    assert len(french) == 2
    for spelling in ("FRA", "fra", "France"):
        page = client.get(f"/rankings/dci/Constructed.json?country={spelling}").json()
        assert the_commands(page["ranking"]) == the_commands(french)  # each keeps their rank in the whole list
        assert [line["national_rank"] for line in page["ranking"]] == [1, 2]
        assert page["country"] == spelling
    html_page = client.get("/rankings/dci/Constructed?country=France").text
    assert "DCI ratings: Constructed, France (FRA)" in html_page and '<option value="FRA" selected>' in html_page
    assert "National rank" in html_page and "2 of the 6 rated players" in html_page
    assert '<a href="/rankings/dci/Limited?country=France">Limited</a>' in html_page  # the filter stays on
    assert 'href="/rankings/dci/Constructed?method=table&amp;country=France"' in html_page
    for line in everyone:  # each country links its national list
        assert f'<a href="/rankings/dci/Constructed?country={line["country"]}">{line["country"]}</a>' \
            in client.get("/rankings/dci/Constructed").text
    nobody = client.get("/rankings/dci/Constructed?country=SWE")
    assert nobody.status_code == 200 and "No rated player of this list is from SWE" in nobody.text
    assert "BRA, France (FRA), Germany (GER), USA" in nobody.text


def test_the_country_filter_of_the_categories_and_its_downloads(client: TestClient) -> None:
    page = client.get("/rankings/dci.json?country=USA").json()
    assert {line["player"] for line in page["ranking"]} == {"Jon Finkel", "Luis Scott-Vargas"}
    for line in page["ranking"]:  # the national rank is the place among the country's players of the category
        same = [other for other in page["ranking"] if other["category"] == line["category"]]
        assert line["national_rank"] == 1 + sum(other["rating"] > line["rating"] for other in same)
    constructed = next(c for c in page["categories"] if c["category"] == "Constructed")
    assert (constructed["players"], constructed["leader"]) == (2, "Jon Finkel")
    assert constructed["address"] == "/rankings/dci/Constructed?country=USA"
    for path in ("/rankings/dci", "/rankings/dci/Constructed"):
        rows = client.get(f"{path}.json?country=USA").json()["ranking"]
        assert rows and [r["country"] for r in rows] == ["USA"] * len(rows)
        from_csv = csv_rows(client.get(f"{path}.csv?country=USA")) if path.endswith("Constructed") else None
        if from_csv is not None:
            assert from_csv == [{k: as_text(v) for k, v in row.items()} for row in rows]
        assert same_in_excel(sheet_rows(client.get(f"{path}.xlsx?country=USA"), "Ratings"), rows, tuple(rows[0]))


def test_an_event_and_a_player_page_show_the_countries(client: TestClient) -> None:
    rotterdam = client.get("/dci/events.json").json()["events"][0]
    page = client.get(f"/dci/events/{rotterdam['id']}.json").json()
    for match in page["matches"]:
        assert match["player_country"] == NATIONALITIES[match["player"]]
        assert match["opponent_country"] == NATIONALITIES[match["opponent"]]
    assert {p["player"]: p["country"] for p in page["players"]} == NATIONALITIES
    assert page["event"]["countries"] == 4
    assert "6 from 4 countries" in client.get(f"/dci/events/{rotterdam['id']}").text
    finkel = client.get(player_page("Jon Finkel") + ".json").json()
    assert finkel["country"] == "USA"
    assert {m["opponent"]: m["opponent_country"] for m in finkel["matches"] if m["opponent"]} \
        == {name: NATIONALITIES[name] for name in ("Kai Budde", "Gabriel Nassif", "Paulo Vitor Damo da Rosa",
                                                   "Olivier Ruel")}
    shown = client.get(player_page("Jon Finkel")).text
    assert '<span id="country">USA</span>' in shown
    assert '<a href="/rankings/dci/Constructed?country=USA" class="national">' in shown
    assert [p["country"] for p in client.get("/search.json?q=budde").json()["dci_players"]] == ["GER"]


def test_a_player_who_changed_country_is_shown_with_the_latest_events(tmp_path: Path) -> None:
    table = tmp_path / "moved.csv"
    table.write_text("event,date,round,player,opponent,result,player_country,opponent_country\n"
                     "Late Cup,2011-06-01,1,Ana,Ben,W,ESP,\n"  # listed first, played last
                     "Early Cup,2010-06-01,1,Ana,Ben,L,POR,GBR\n"
                     "Early Cup,2010-06-01,2,Ben,Cy,D,,\n", encoding="utf-8")
    db = tmp_path / "store.db"
    xlrating("ingest", "--db", str(db), str(table))
    with TestClient(create_app(Settings(str(db), check_processes=1))) as c:
        lines = c.get("/rankings/dci/Composite.json").json()["ranking"]
        assert {line["player"]: line["country"] for line in lines} == {"Ana": "ESP", "Ben": "GBR", "Cy": None}
        early = next(e for e in c.get("/dci/events.json").json()["events"] if e["name"] == "Early Cup")
        in_early = c.get(f"/dci/events/{early['id']}.json").json()["matches"]
        assert [(m["player"], m["player_country"], m["opponent"], m["opponent_country"]) for m in in_early] \
            == [("Ana", "POR", "Ben", "GBR"), ("Ben", "GBR", "Cy", None)]  # the country of that event
        assert c.get("/dci/players/Ana.json").json()["country"] == "ESP"
        assert [line["player"] for line in c.get("/rankings/dci/Composite.json?country=POR").json()["ranking"]] == []
        assert [line["player"] for line in c.get("/rankings/dci/Composite.json?country=Spain").json()["ranking"]] \
            == ["Ana"]  # Spain is an EMA member: its name is its code
