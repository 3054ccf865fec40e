"""``xlrating explain dippouch|dci NAME``: a name as a person types it (other capitals, no accents,
other spacing) is the player when exactly one player's name is it so; when several are (Éva Kovács
and Eva Kovacs, or the homonyms Jean Dupont and Jean Dupont (2)), the name is refused naming them,
and each is explained when given as written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from xlrating.cli import main

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
DIPPOUCH_HEADER = "event,date,players,rounds,player,place,world_championship,country\n"
DCI_HEADER = "event,date,round,player,opponent,result,tier,category\n"


def run(*args: object) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


def explained(tmp_path: Path, *args: object) -> dict[str, Any]:
    out = tmp_path / "explained.json"
    result = run("explain", *args, "-o", out)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


@pytest.fixture
def dippouch_table(tmp_path: Path) -> Path:
    path = tmp_path / "dippouch.csv"
    path.write_text(DIPPOUCH_HEADER + "".join(
        f"Cup {n},2024-0{n}-01,7,2,{name},{place},FALSE,\n"
        for n in (1, 2) for place, name in enumerate(
            ["Éva Kovács", "Eva Kovacs", "Jean Dupont", "Jean Dupont (2)", "Zoë Ångström", "Ada Lovelace",
             "Blaise Pascal"], start=1)), encoding="utf-8")
    return path


@pytest.mark.parametrize("typed, player", [("ada lovelace", "Ada Lovelace"), ("  ADA   Lovelace ", "Ada Lovelace"),
                                           ("zoe angstrom", "Zoë Ångström"), ("Zoë Ångström", "Zoë Ångström")])
def test_a_dippouch_name_typed_otherwise_is_the_one_player_it_names(tmp_path, dippouch_table, typed, player):
    assert explained(tmp_path, "dippouch", typed, dippouch_table) == \
        explained(tmp_path, "dippouch", player, dippouch_table)
    assert explained(tmp_path, "dippouch", typed, dippouch_table)["player"] == player


@pytest.mark.parametrize("typed, named", [("eva kovacs", "'Eva Kovacs', 'Éva Kovács'"),
                                          ("JEAN DUPONT ", "'Jean Dupont', 'Jean Dupont (2)'")])
def test_a_name_several_players_bear_so_is_refused_naming_them(dippouch_table, typed, named):
    result = run("explain", "dippouch", typed, dippouch_table)
    assert result.exit_code == 2
    assert result.output == (f"xlrating: error: 2 players in {dippouch_table} bear the name {typed.strip()!r} but "
                             f"for accents and capitals ({named}); give one as written\n")


@pytest.mark.parametrize("player", ["Éva Kovács", "Eva Kovacs", "Jean Dupont", "Jean Dupont (2)"])
def test_each_of_them_given_as_written_is_explained(tmp_path, dippouch_table, player):
    data = explained(tmp_path, "dippouch", player, dippouch_table)
    assert data["player"] == player and data["count"] == 2


def test_a_dci_name_typed_otherwise_is_the_player_and_opponents_count(tmp_path):
    table = TABLES / "dci_matches.csv"
    data = explained(tmp_path, "dci", "kai BUDDE", table, "--category", "Constructed")
    assert data == explained(tmp_path, "dci", "Kai Budde", table, "--category", "Constructed")
    assert data["player"] == "Kai Budde" and data["rows"]
    path = tmp_path / "dci.csv"
    path.write_text(DCI_HEADER + "Open,2024-01-01,1,Jon Finkel,Éva Kovács,W,casual,Constructed\n"
                    "Open,2024-01-01,2,Eva Kovacs,Jon Finkel,L,casual,Constructed\n"
                    "Open,2024-01-01,3,Zoë Ångström,Jon Finkel,D,casual,Constructed\n", encoding="utf-8")
    assert explained(tmp_path, "dci", "zoe angstrom", path)["player"] == "Zoë Ångström"
    result = run("explain", "dci", "EVA KOVACS", path)
    assert result.exit_code == 2 and "('Eva Kovacs', 'Éva Kovács'); give one as written" in result.output
