"""A MERS ranking on any date (the date picker) and each player's movement since the previous
ranking, as the EMA shows it: up, down, new."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.web.app import Settings, create_app

AS_OF = "2025-12-31"


@pytest.fixture(scope="module")
def client(examples_store: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(examples_store), check_processes=1))) as c:
        yield c


def test_the_movement_is_against_the_ranking_before_the_latest_tournament(client: TestClient) -> None:
    now = client.get(f"/rankings/MCR/2018.json?as_of={AS_OF}").json()
    tournaments = [t for t in client.get("/tournaments.json").json()["tournaments"]
                   if t["ruleset"] == "MCR" and t["end_date"] <= AS_OF]
    last = max(t["end_date"] for t in tournaments)
    assert now["since"] == (dt.date.fromisoformat(last) - dt.timedelta(days=1)).isoformat()
    assert now["latest_tournaments"] == sorted(t["name"] for t in tournaments if t["end_date"] == last)
    before = {line["player"]: line["rank"]
              for line in client.get(f"/rankings/MCR/2018.json?as_of={now['since']}").json()["ranking"]}
    assert now["ranking"], "the examples rank MCR players at the end of 2025"
    for line in now["ranking"]:
        assert line["previous_rank"] == before.get(line["player"])
        assert line["movement"] == (None if line["player"] not in before else before[line["player"]] - line["rank"])
    assert any(line["movement"] is None for line in now["ranking"])  # the last tournament's newcomers


def test_the_page_shows_up_down_and_new_with_a_date_picker(client: TestClient) -> None:
    now = client.get(f"/rankings/MCR/2018.json?as_of={AS_OF}").json()["ranking"]
    page = client.get(f"/rankings/MCR/2018?as_of={AS_OF}").text
    assert f'<input type="date" id="as_of" name="as_of" value="{AS_OF}" required>' in page
    for line in now:
        move = line["movement"]
        shown = "new" if move is None else f"▲{move}" if move > 0 else f"▼{-move}" if move < 0 else "–"
        row = page.split(f'/players/{line["player"]}', 1)[0].rsplit("<tr", 1)[1]
        assert f">{shown}</span>" in row, line


def test_an_explicit_since_date_and_a_wrong_one(client: TestClient) -> None:
    chosen = client.get(f"/rankings/MCR/2018.json?as_of={AS_OF}&since=2024-01-01").json()
    before = {line["player"]: line["rank"]
              for line in client.get("/rankings/MCR/2018.json?as_of=2024-01-01").json()["ranking"]}
    assert chosen["since"] == "2024-01-01"
    assert [line["previous_rank"] for line in chosen["ranking"]] == [before.get(line["player"]) for line in chosen["ranking"]]
    wrong = client.get(f"/rankings/MCR/2018.json?as_of={AS_OF}&since={AS_OF}")
    assert wrong.status_code == 400
    assert "since=2025-12-31 is not before the ranking's date 2025-12-31" in wrong.json()["message"]


def test_a_ranking_under_rules_not_in_force_on_its_date_says_so(client: TestClient) -> None:
    page = client.get(f"/rankings/MCR/2005?as_of={AS_OF}").text
    assert "The 2018 rules were in force on" in page and 'href="/rankings/MCR/2018?as_of=2025-12-31"' in page
    assert 'id="era-note"' not in client.get(f"/rankings/MCR/2018?as_of={AS_OF}").text


def test_the_csv_download_holds_the_movement(client: TestClient) -> None:
    text = client.get(f"/rankings/MCR/2018.csv?as_of={AS_OF}").content.decode("utf-8-sig")
    assert text.splitlines()[0] == "rank,player,name,country,total,count,previous_rank,movement"


def test_a_player_page_and_the_country_ranking_have_the_date_picker(client: TestClient) -> None:
    player = client.get(f"/players/04858660?rules=2010&as_of={AS_OF}").text
    form = player.split('id="choose-date"', 1)[1].split("</form>", 1)[0]
    assert '<input type="hidden" name="rules" value="2010">' in form  # the era chosen stays
    assert f'<input type="date" id="as_of" name="as_of" value="{AS_OF}" required>' in form
    countries = client.get("/rankings/MCR/2018/countries?as_of=2024-06-30").text
    assert 'action="/rankings/MCR/2018/countries"' in countries
    assert '<input type="date" id="as_of" name="as_of" value="2024-06-30" required>' in countries
