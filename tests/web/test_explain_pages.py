"""A player's rating explained on the site (``/players/{id}/explain``, ``/dippouch/players/{name}/explain``,
``/dci/players/{name}/explain``): the figures ``xlrating explain SYSTEM PLAYER --db`` gives, linked
from the player's page, with the ranking's options as query parameters, and downloadable as JSON,
CSV and the workbook of plain formulas that recomputes the rating."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import openpyxl
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from tests.explain_books import RATING_CELL, SHEET, VALUE, formulas, not_plain
from xlrating.cli import main
from xlrating.web.app import Settings, create_app

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
AS_OF = "2025-12-31"


def run(*args: object) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from xlrating.sheets.examples.submissions import write_examples

    folder = tmp_path_factory.mktemp("explain-site")
    db = folder / "store.db"
    for file in [*write_examples(folder / "examples"), TABLES / "dippouch_results.csv", TABLES / "dci_matches.csv"]:
        if "mistakes" not in file.name:
            assert run("ingest", "--db", db, file).exit_code == 0
    return db


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(db), check_processes=1))) as c:
        yield c


def cli(db: Path, system: str, player: str, *options: str) -> dict[str, Any]:
    out = db.with_name(f"explain-{system}.json")
    result = run("explain", system, player, "--db", db, *options, "-o", out)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def leaders(db: Path, system: str, *options: str) -> list[dict[str, Any]]:
    out = db.with_name(f"board-{system}.json")
    assert run("rank", system, "--db", db, *options, "-o", out).exit_code == 0
    lines: list[dict[str, Any]] = json.loads(out.read_text())
    return lines


CASES = [("mers", "/players/{}/explain", ("--ruleset", "MCR", "--as-of", AS_OF), {"ruleset": "MCR", "as_of": AS_OF}),
         ("mers", "/players/{}/explain", ("--ruleset", "Riichi", "--as-of", AS_OF, "--rules", "2010"),
          {"ruleset": "Riichi", "as_of": AS_OF, "rules": "2010"}),
         ("dippouch", "/dippouch/players/{}/explain", ("--ties", "average"), {"ties": "average"}),
         ("dci", "/dci/players/{}/explain", ("--method", "table"), {"method": "table"})]


@pytest.mark.parametrize("system, address, options, query", CASES)
def test_the_page_gives_the_figures_of_xlrating_explain(client: TestClient, db: Path, system: str, address: str,
                                                        options: tuple[str, ...], query: dict[str, str]) -> None:
    lines = leaders(db, system, *options)
    assert lines
    for line in lines[:3]:
        extra = {"category": line["category"]} if "category" in line else {}
        page = address.format(quote(line["player"], safe=""))
        data = client.get(page + ".json", params=query | extra)
        assert data.status_code == 200, data.text
        expected = cli(db, system, line["player"], *options, *(("--category", extra["category"]) if extra else ()))
        assert data.json() == expected and data.json()["rating"] == line[VALUE[system]]
        html = client.get(page, params=query | extra)
        assert html.status_code == 200 and f"{expected['rating']!r}" in html.text
        assert html.text.count("<tr>") == len(expected["rows"]) + 1


@pytest.mark.parametrize("system, address, options, query", CASES)
def test_the_excel_download_is_the_workbook_of_plain_formulas(client: TestClient, db: Path, system: str, address: str,
                                                              options: tuple[str, ...], query: dict[str, str]) -> None:
    line = leaders(db, system, *options)[0]
    extra = {"category": line["category"]} if "category" in line else {}
    response = client.get(address.format(quote(line["player"], safe="")) + ".xlsx", params=query | extra)
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    found = formulas(book)
    assert found[f"{SHEET}!{RATING_CELL[system]}"].startswith("=") and not [f for f in found.values() if not_plain(f)]
    values = openpyxl.load_workbook(io.BytesIO(response.content), data_only=True)
    assert values[SHEET][RATING_CELL[system]].value == line[VALUE[system]]


def test_the_csv_download_is_the_rows(client: TestClient, db: Path) -> None:
    expected = cli(db, "dippouch", "Ada Lovelace")
    response = client.get("/dippouch/players/Ada%20Lovelace/explain.csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [float(row["rating_after"]) for row in rows] == [row["rating_after"] for row in expected["rows"]]


def test_each_player_page_links_its_explanation(client: TestClient, db: Path) -> None:
    mers_line = leaders(db, "mers", "--ruleset", "MCR", "--as-of", AS_OF)[0]
    links = {f"/players/{mers_line['player']}": f'href="/players/{mers_line["player"]}/explain?ruleset=MCR"',
             "/dippouch/players/Ada%20Lovelace": 'href="/dippouch/players/Ada%20Lovelace/explain"',
             "/dci/players/Kai%20Budde": 'href="/dci/players/Kai%20Budde/explain?category=Constructed"'}
    for page, link in links.items():
        html = client.get(page).text
        assert link in html, page
        target = link.split('"')[1].replace("&amp;", "&")
        assert client.get(target).status_code == 200, target


def test_a_name_not_published_is_a_404_naming_the_close_ones(client: TestClient) -> None:
    response = client.get("/dippouch/players/Ada%20Lovelac/explain")
    assert response.status_code == 404 and "close matches: Ada Lovelace" in response.text
    assert client.get("/dci/players/Kai%20Bude/explain.json").json()["message"].startswith("No player 'Kai Bude'")


def test_a_choice_the_page_needs_or_a_bad_option_is_a_400_naming_the_parameter(client: TestClient) -> None:
    ask = client.get("/dci/players/Kai%20Budde/explain.json").json()
    assert "Constructed, Limited" in ask["message"] and "the parameter category=" in ask["message"]
    bad = client.get("/players/04858660/explain.json", params={"as_of": "2025-13-01"})
    assert bad.status_code == 400 and "as_of='2025-13-01'" in bad.json()["message"]
    rules = client.get("/players/04858660/explain.json", params={"rules": "2020", "ruleset": "MCR"})
    assert rules.status_code == 400 and "2005, 2010, 2018" in rules.json()["message"]
