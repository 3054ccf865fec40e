"""Wizards Event Reporter's event file: ``xlrating import wer``."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.formats.helpers import DATA, same_store, xlrating

SAMPLE = DATA / "wer_event.wer"


def _event(matches: str, persons: str | None = None) -> str:
    persons = persons if persons is not None else (
        '<person id="11" first="Ann" last="Lee" country="FR"/><person id="22" first="Bo" last="Kim" country="DE"/>'
        '<person id="33" first="Cy" last="Ray" country="FR"/>')
    return (f'<event title="Friday Night" startdate="2024-05-03">\n<participation>{persons}</participation>\n'
            f'<matches>\n{matches}\n</matches>\n</event>\n')


def test_the_event_file_gives_the_store_the_hand_made_table_gives(tmp_path: Path) -> None:
    table = tmp_path / "imported.csv"
    ran = xlrating("import", "wer", SAMPLE, "-o", table)
    assert ran.code == 0, ran
    assert "DCI matches, 47 rows: Monday Modern (2018-10-29)" in ran.stdout
    same_store(table, DATA / "wer_event.expected.csv", "dci", tmp_path)


def test_a_draw_and_a_bye_are_what_the_file_says(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    assert xlrating("import", "wer", SAMPLE, "-o", table).code == 0
    rows = list(csv.DictReader(table.open(encoding="utf-8-sig")))
    assert [(r["round"], r["player"], r["opponent"], r["result"]) for r in rows if r["result"] == "D"] == \
        [("4", "Tara Toth", "Katya Kovacs", "D")]
    assert [(r["round"], r["player"], r["opponent"]) for r in rows if r["opponent"] == "BYE"] == \
        [("3", "Jonas Jansen", "BYE")]


def test_players_by_dci_number_and_the_k_of_the_matches(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    ran = xlrating("import", "wer", SAMPLE, "-o", table, "--player", "id", "--k", "16", "--category", "Constructed")
    assert ran.code == 0, ran
    rows = list(csv.DictReader(table.open(encoding="utf-8-sig")))
    assert rows[0]["player"] == "38165757" and rows[0]["k"] == "16" and rows[0]["category"] == "Constructed"


def test_two_persons_of_one_name_are_refused_unless_named_by_number(tmp_path: Path) -> None:
    event = tmp_path / "e.wer"
    event.write_text(_event('<round number="1" date="2024-05-03T19:00:00"><match person="11" opponent="22" outcome="1"/>'
                            '</round>', '<person id="11" first="Ann" last="Lee"/><person id="22" first="Ann" last="Lee"/>'))
    ran = xlrating("import", "wer", event, "-o", tmp_path / "t.csv")
    assert ran.code == 1
    assert "line 2, column 56: error IMPORT_NAME_SHARED: 'Ann Lee' is the name of persons 11, 22" in ran.stdout
    assert xlrating("import", "wer", event, "-o", tmp_path / "t.csv", "--player", "id").code == 0


def test_wrong_values_are_findings_at_their_line_and_column(tmp_path: Path) -> None:
    event = tmp_path / "e.wer"
    event.write_text(_event('<round number="x" date="2024-05-03T19:00:00">\n'
                            '  <match person="11" opponent="22" outcome="7"/>\n'
                            '  <match person="11" opponent="99" outcome="1"/>\n'
                            '  <match person="22" outcome="1"/>\n'
                            '</round>'))
    target = tmp_path / "t.csv"
    ran = xlrating("import", "wer", event, "-o", target)
    assert ran.code == 1, ran
    assert "line 4, column 1: error IMPORT_VALUE_INVALID: <round> number 'x' is not valid" in ran.stdout
    assert "line 5, column 3: error IMPORT_OUTCOME_UNKNOWN: outcome '7' is not an outcome" in ran.stdout
    assert "line 6, column 3: error IMPORT_PERSON_UNKNOWN: opponent '99' is no person" in ran.stdout
    assert "line 7, column 3: error IMPORT_VALUE_MISSING: the <match> opponent is missing" in ran.stdout
    assert not target.exists()


def test_the_dci_validators_findings_come_back_at_the_match(tmp_path: Path) -> None:
    """A player in two matches of one round: the DCI validator's finding, at the <match> element."""
    event = tmp_path / "e.wer"
    event.write_text(_event('<round number="1" date="2024-05-03T19:00:00">\n'
                            '  <match person="11" opponent="22" outcome="1"/>\n'
                            '  <match person="11" opponent="33" outcome="2"/>\n'
                            '</round>'))
    ran = xlrating("import", "wer", event, "-o", tmp_path / "t.csv")
    assert ran.code == 1, ran
    assert "line 6, column 3: error PLAYER_TWICE_IN_ROUND" in ran.stdout


def test_a_file_without_matches_or_of_another_kind_says_what_it_lacks(tmp_path: Path) -> None:
    empty = tmp_path / "e.wer"
    empty.write_text('<event title="X" startdate="2024-05-03"><participation/></event>')
    ran = xlrating("import", "wer", empty, "-o", tmp_path / "t.csv")
    assert ran.code == 1 and "line 1, column 1: error IMPORT_ELEMENT_MISSING: no <matches> in <event>" in ran.stdout
    other = tmp_path / "o.wer"
    other.write_text('<?xml version="1.0"?>\n<tournament/>')
    ran = xlrating("import", "wer", other, "-o", tmp_path / "t.csv")
    assert ran.code == 1 and "line 2, column 1: error IMPORT_ELEMENT_UNEXPECTED: the root element <tournament>" in ran.stdout


def test_a_team_event_is_refused_not_rated_as_players(tmp_path: Path) -> None:
    event = tmp_path / "team.wer"
    event.write_text(_event('<round number="1" date="2024-05-03T19:00:00" teamformat="true">'
                            '<match person="11" opponent="22" outcome="1"/></round>'))
    ran = xlrating("import", "wer", event, "-o", tmp_path / "t.csv")
    assert ran.code == 1
    assert 'line 4, column 1: error IMPORT_ELEMENT_UNEXPECTED: a round of a team event (teamformat="true")' in ran.stdout
