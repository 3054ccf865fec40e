"""The World Diplomacy Reference's tournament classification: ``xlrating import wdr``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.formats.helpers import DATA, same_store, xlrating

SAMPLE = DATA / "wdr_classification.json"
EVENT = ("--event", "Dutch Diplomacy Open", "--date", "2024-09-22", "--rounds", "3")


def test_the_classification_gives_the_store_the_hand_made_table_gives(tmp_path: Path) -> None:
    table = tmp_path / "imported.csv"
    ran = xlrating("import", "wdr", SAMPLE, "-o", table, *EVENT)
    assert ran.code == 0, ran
    assert "Dip Pouch results, 10 rows: Dutch Diplomacy Open (2024-09-22)" in ran.stdout
    same_store(table, DATA / "wdr_classification.expected.csv", "dippouch", tmp_path)


def test_players_by_the_wdrs_numbers(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    assert xlrating("import", "wdr", SAMPLE, "-o", table, *EVENT, "--player", "id").code == 0
    rows = list(csv.DictReader(table.open(encoding="utf-8-sig")))
    assert [r["player"] for r in rows[:2]] == ["5101", "5102"]


def test_wrong_types_are_findings_at_their_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"tournament_classifications": [
        {"player_id": 1, "player_full_name": "Ann Lee", "player_rank": "1", "player_score": 10},
        {"player_id": 2, "player_full_name": "", "player_rank": 2, "player_score": "ten"},
        {"player_id": 3, "player_full_name": "Cy Ray", "player_rank": 2.5, "player_score": None},
        [4, "Di Fox", 4],
    ]}, indent=2))
    target = tmp_path / "t.csv"
    ran = xlrating("import", "wdr", bad, "-o", target, *EVENT)
    assert ran.code == 1, ran
    assert "line 6, column 22: error IMPORT_RANK_INVALID: tournament_classifications[0].player_rank '1' is not a rank" \
        in ran.stdout
    assert "line 11, column 27: error IMPORT_VALUE_MISSING: tournament_classifications[1].player_full_name" in ran.stdout
    assert "line 13, column 23: error IMPORT_VALUE_INVALID: tournament_classifications[1].player_score 'ten'" \
        in ran.stdout
    assert "line 18, column 22: error IMPORT_RANK_INVALID: tournament_classifications[2].player_rank 2.5" in ran.stdout
    assert "line 21, column 5: error IMPORT_ELEMENT_UNEXPECTED: tournament_classifications[3], an array," in ran.stdout
    assert not target.exists()


def test_the_validators_findings_come_back_at_the_value(tmp_path: Path) -> None:
    """A rank above the declared players: the Dip Pouch validator's finding, at the rank's value."""
    ran = xlrating("import", "wdr", SAMPLE, "-o", tmp_path / "t.csv", *EVENT, "--players", "8")
    assert ran.code == 1, ran
    assert "line 11, column" in ran.stdout and "EVENT_PLACE_OUT_OF_RANGE" in ran.stdout


def test_json_of_another_shape_or_not_json_says_what_it_is(tmp_path: Path) -> None:
    other = tmp_path / "o.json"
    other.write_text('[{"player_rank": 1}]')
    ran = xlrating("import", "wdr", other, "-o", tmp_path / "t.csv", *EVENT)
    assert ran.code == 1 and "IMPORT_ELEMENT_UNEXPECTED: the file's JSON, an array, is not a World Diplomacy Reference" in ran.stdout
    broken = tmp_path / "b.json"
    broken.write_text('{"tournament_classifications": [\n  {"player_rank": 1,}\n]}')
    ran = xlrating("import", "wdr", broken, "-o", tmp_path / "t.csv", *EVENT)
    assert ran.code == 2 and "line 2, column 21: error IMPORT_NOT_WELL_FORMED: not JSON" in ran.stdout
