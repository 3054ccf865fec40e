"""The explanation pages find a Dip Pouch or DCI player by a name typed otherwise (capitals, accents,
spacing) when exactly one published player bears it so, and refuse it (400) naming them when several
do; the figures are those of ``xlrating explain`` for the name as written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from xlrating.cli import main
from xlrating.web.app import Settings, create_app

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"


def run(*args: object) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("explain-names")
    table = folder / "dippouch.csv"
    # two people whose names differ by accents only, at different events (at one event the validator
    # takes them for one player listed twice)
    table.write_text("event,date,players,rounds,player,place,world_championship,country\n" + "".join(
        f"Cup {n},2024-0{n}-01,5,2,{name},{place},FALSE,\n" for n, kovacs in ((1, "Éva Kovács"), (2, "Eva Kovacs"))
        for place, name in enumerate([kovacs, "Zoë Ångström", "Ada Lovelace", "Blaise Pascal", "Jon Snow"], start=1)),
        encoding="utf-8")
    db = folder / "store.db"
    for file in (table, TABLES / "dci_matches.csv"):
        result = run("ingest", "--db", db, "--no-ask", file)
        assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(db), check_processes=1))) as c:
        yield c


def cli(db: Path, *args: str) -> Any:
    out = db.with_name("explained.json")
    result = run("explain", *args, "--db", db, "-o", out)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("address, args", [
    ("/dippouch/players/zoe%20ANGSTROM/explain", ("dippouch", "Zoë Ångström")),
    ("/dci/players/kai%20budde/explain?category=Constructed", ("dci", "Kai Budde", "--category", "Constructed")),
])
def test_a_name_typed_otherwise_gives_the_player_s_explanation(client, db, address, args):
    path, _, query = address.partition("?")
    response = client.get(f"{path}.json" + (f"?{query}" if query else ""))
    assert response.status_code == 200, response.text
    assert response.json() == cli(db, *args) and response.json()["player"] == args[1]
    html = client.get(address)
    assert html.status_code == 200 and f"of {args[1]}" in html.text


def test_a_name_several_players_bear_so_is_a_400_naming_them(client):
    response = client.get("/dippouch/players/eva%20kovacs/explain")
    assert response.status_code == 400
    assert "2 players in the Dip Pouch results published here bear the name &#39;eva kovacs&#39; but for accents " \
           "and capitals (&#39;Eva Kovacs&#39;, &#39;Éva Kovács&#39;); give one as written" in response.text
    for name in ("Eva%20Kovacs", "%C3%89va%20Kov%C3%A1cs"):
        assert client.get(f"/dippouch/players/{name}/explain").status_code == 200
