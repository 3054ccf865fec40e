"""The home page a visitor opens: each published system's leaders and latest events, the menu named
per system, the upload under "Submit results"; and a deployment that publishes only some systems
(``serve --systems``)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.web.app import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
AS_OF = "2025-12-31"


@pytest.fixture(scope="module")
def db(examples_store: Path) -> Path:
    return examples_store


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(db), check_processes=1))) as c:
        yield c


def menu(page: str) -> list[str]:
    nav = page.split('<nav aria-label="Main">', 1)[1].split("</nav>", 1)[0]
    return [label for label in re.findall(r"<a [^>]*>([^<]+)</a>", nav)]


def test_the_home_page_shows_every_systems_leaders_as_its_rankings_rank_them(client: TestClient) -> None:
    home = client.get(f"/index.json?as_of={AS_OF}").json()
    assert [s["key"] for s in home["systems"]] == ["mers", "dippouch", "dci"]
    mers, dippouch, dci = home["systems"]
    mcr = client.get(f"/rankings/MCR/2018.json?as_of={AS_OF}").json()["ranking"]
    board = next(b for b in mers["boards"] if b["title"] == "MCR ranking")
    assert [(line["rank"], line["value"]) for line in board["leaders"]] \
        == [(line["rank"], line["total"]) for line in mcr[:10]]
    assert board["ranked"] == len(mcr)
    rating = client.get("/rankings/dippouch.json").json()["ranking"]
    assert [line["name"] for line in dippouch["boards"][0]["leaders"]] == [line["player"] for line in rating[:10]]
    assert {b["title"] for b in dci["boards"]} == {"Constructed ratings", "Limited ratings"}
    # the latest events: newest first, none after the date asked for
    dates = [e["date"] for e in mers["latest"]]
    assert dates == sorted(dates, reverse=True) and all(d <= AS_OF for d in dates) and len(dates) == 5
    assert mers["latest"][0]["address"].startswith("/tournaments/")
    assert [e["date"] for e in client.get("/index.json?as_of=2024-01-01").json()["systems"][0]["latest"]] \
        == sorted(d for d in dates if d <= "2024-01-01")[::-1]


def test_the_menu_names_each_system_and_the_upload_is_under_submit_results(client: TestClient) -> None:
    page = client.get("/").text
    assert menu(page)[1:] == ["MERS", "Dip Pouch", "DCI", "Submit results", "Ranking officer"]
    assert 'type="file"' not in page and 'href="/submit"' in page
    form = client.get("/submit").text
    assert 'type="file"' in form and 'href="/template.xlsx"' in form
    assert "Diplomacy (Dip Pouch)" in form and "Magic: The Gathering (DCI)" in form


def test_an_empty_store_says_nothing_is_published_yet(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(str(tmp_path / "empty.db"), check_processes=1))) as c:
        page = c.get("/").text
    assert page.count("results are published yet") == 3


def test_a_site_that_publishes_only_dip_pouch_shows_and_takes_only_dip_pouch(db: Path) -> None:
    with TestClient(create_app(Settings(str(db), check_processes=1, systems=("dippouch",)))) as c:
        page = c.get("/").text
        assert menu(page)[1:] == ["Dip Pouch", "Submit results", "Ranking officer"]
        assert [s["key"] for s in c.get("/index.json").json()["systems"]] == ["dippouch"]
        assert c.get("/rankings/MCR/2018").status_code == 404
        assert c.get("/rankings/dci").status_code == 404
        assert c.get("/rankings/dippouch").status_code == 200
        found = c.get("/search.json?q=a").json()
        assert set(found["found"]) == {"dippouch_players", "dippouch_events"}
        form = c.get("/submit").text
        assert "EMA results template" not in form and "DCI" not in form
        token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)  # type: ignore[union-attr]
        refused = c.post("/checks", data={"csrf_token": token},
                         files={"sheet": ("lyon.xlsx", (EXAMPLES / "01_lyon_mcr_open_2024.xlsx").read_bytes())})
    assert refused.status_code == 422
    assert "lyon.xlsx: this file holds Mahjong results (MERS); this site takes the results of " \
           "Diplomacy (Dip Pouch) only." in refused.text.replace("&#39;", "'")


def test_serve_refuses_a_system_it_does_not_know(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "xlrating", "serve", "--db", str(tmp_path / "s.db"),
                          "--systems", "mers,chess"], check=False, capture_output=True, text=True)
    assert run.returncode != 0
    assert "--systems 'mers,chess': expected one or more of mers, dippouch, dci, comma-separated " \
           "(chess is not one)" in run.stderr


def test_a_player_without_an_ema_id_is_found_by_name_with_their_tournaments(client: TestClient) -> None:
    found = client.get("/search.json?q=haruki tanaka").json()
    tournaments = {t["name"]: t for t in client.get("/tournaments.json").json()["tournaments"]}
    # each of his results, oldest first, with its tournament's page: he has no page of his own
    assert [(p["ema_id"], p["tournament"], p["place"]) for p in found["players"]] == [
        (None, "Lyon MCR Open 2024", 5), (None, "Amsterdam Riichi Weekend 2024", 11), (None, "Vienna Riichi Day 2025", 3)]
    assert found["found"]["players"] == 3
    for p in found["players"]:
        assert p["address"] == f"/tournaments/{tournaments[p['tournament']]['id']}"
        standing = client.get(f"{p['address']}.json").json()["standings"][p["place"] - 1]
        assert (standing["first_name"], standing["last_name"], standing["ema_id"]) == ("Haruki", "Tanaka", None)
    lyon = tournaments["Lyon MCR Open 2024"]["id"]
    assert f'none: place 5 at <a href="/tournaments/{lyon}">Lyon MCR Open 2024</a>' in client.get("/search?q=Tanaka").text
    registered = client.get("/search.json?q=aubert").json()["players"]
    assert registered and all(p["address"] == f"/players/{p['ema_id']}" for p in registered)
