"""The WDD's classification upload: ``xlrating import wdd`` and ``xlrating export wdd``."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.formats.helpers import DATA, same_store, store_contents, xlrating

SAMPLE = DATA / "wdd_classification.csv"
EVENT = ("--event", "Coupe de Paris", "--date", "2024-03-17")


def test_the_classification_gives_the_store_the_hand_made_table_gives(tmp_path: Path) -> None:
    table = tmp_path / "imported.csv"
    ran = xlrating("import", "wdd", SAMPLE, "-o", table, *EVENT)
    assert ran.code == 0, ran
    assert "Dip Pouch results, 11 rows: Coupe de Paris (2024-03-17)" in ran.stdout
    # the player not ranked (999) is left out, and said so at the cell
    assert "wdd_classification!D13: warning IMPORT_UNRANKED: RANK 999 marks 'Rui Santos'" in ran.stdout
    same_store(table, DATA / "wdd_classification.expected.csv", "dippouch", tmp_path)


def test_an_xlsx_table_is_written_as_well(tmp_path: Path) -> None:
    table = tmp_path / "imported.xlsx"
    assert xlrating("import", "wdd", SAMPLE, "-o", table, *EVENT).code == 0
    same_store(table, DATA / "wdd_classification.expected.csv", "dippouch", tmp_path)


def test_homonyms_stay_two_players_and_countries_become_the_tables_codes(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    assert xlrating("import", "wdd", SAMPLE, "-o", table, *EVENT).code == 0
    rows = list(csv.DictReader(table.open(encoding="utf-8-sig")))
    nowak = [(r["player"], r["place"], r["country"]) for r in rows if "Nowak" in r["player"]]
    assert nowak == [("Peter Nowak", "7", "POL"), ("Peter Nowak (2)", "8", "POL")]
    assert {r["player"]: r["country"] for r in rows}["Tobias Krüger"] == "GER"  # the WDD's ALL
    assert {r["rounds"] for r in rows} == {"4"}  # the last round column holding a score


def test_every_problem_is_reported_at_its_cell_and_nothing_is_written(tmp_path: Path) -> None:
    bad = tmp_path / "upload.csv"
    bad.write_text("FIRST NAME,NAME,HOMONYME,RANK,EXAEQUO,SCORE\n"
                   "Ann,Lee,1,1,1,30\n"
                   "Bo,Kim,1,two,1,20\n"
                   "Cy,Ray,0,3,2,ten\n", encoding="utf-8")
    table = tmp_path / "out.csv"
    table.write_text("kept")
    ran = xlrating("import", "wdd", bad, "-o", table, *EVENT, "--rounds", "3")
    assert ran.code == 1, ran
    assert "upload!D3: error IMPORT_RANK_INVALID: RANK 'two' is not a rank" in ran.stdout
    assert "upload!C4: error IMPORT_VALUE_INVALID: HOMONYME 0 is not valid" in ran.stdout
    assert "upload!F4: error IMPORT_VALUE_INVALID: SCORE 'ten' is not valid" in ran.stdout
    assert "upload!E4: error IMPORT_EXAEQUO_MISMATCH" in ran.stdout
    assert table.read_text() == "kept"


def test_what_the_file_does_not_say_is_asked_for_by_option(tmp_path: Path) -> None:
    ran = xlrating("import", "wdd", SAMPLE, "-o", tmp_path / "t.csv")
    assert ran.code == 1
    assert "IMPORT_OPTION_NEEDED: the file gives no event's name; give it with --event NAME" in ran.stdout
    assert "IMPORT_OPTION_NEEDED: the file gives no event's date; give it with --date YYYY-MM-DD" in ran.stdout
    assert not (tmp_path / "t.csv").exists()


def test_the_validators_findings_come_back_at_the_cells_of_the_file(tmp_path: Path) -> None:
    """The same name twice with homonym 1 is one player twice in the event: the Dip Pouch
    validator's finding, placed at the row of the WDD's file."""
    twice = tmp_path / "twice.csv"
    twice.write_text("FIRST NAME,NAME,HOMONYME,RANK,EXAEQUO\nAnn,Lee,1,1,1\nBo,Kim,1,2,1\nAnn,Lee,1,3,1\n")
    ran = xlrating("import", "wdd", twice, "-o", tmp_path / "t.csv", *EVENT, "--rounds", "3")
    assert ran.code == 1, ran
    assert "twice!B4: error EVENT_PLAYER_TWICE" in ran.stdout


def test_a_file_that_is_not_a_classification_is_refused_with_exit_2(tmp_path: Path) -> None:
    pdf = tmp_path / "results.csv"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    ran = xlrating("import", "wdd", pdf, "-o", tmp_path / "t.csv", *EVENT)
    assert ran.code == 2 and "PDF" in ran.stderr
    missing = xlrating("import", "wdd", SAMPLE, "-o", tmp_path / "t.txt", *EVENT)
    assert missing.code == 2 and "expected a .csv or .xlsx file name" in missing.stderr


def test_export_reads_back_through_the_importer_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert xlrating("ingest", DATA / "wdd_classification.expected.csv", "--db", db, "--no-ask").code == 0
    upload = tmp_path / "upload.csv"
    ran = xlrating("export", "wdd", "Coupe de Paris", "-o", upload, "--db", db)
    assert ran.code == 0, ran
    header = upload.read_text(encoding="utf-8").splitlines()[0]
    assert header == "FIRST NAME,NAME,HOMONYME,RANK,EXAEQUO,NATIONALITY,SCORE"
    back = tmp_path / "back.csv"
    assert xlrating("import", "wdd", upload, "-o", back, *EVENT, "--rounds", "4").code == 0
    again = tmp_path / "again.db"
    assert xlrating("ingest", back, "--db", again, "--no-ask").code == 0
    assert store_contents(again, "dippouch") == store_contents(db, "dippouch")


def test_a_country_the_wdd_has_no_code_for_is_written_not_known_and_said(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("event,date,players,rounds,player,place,country\n"
                     "Cup,2024-01-07,2,3,Ana Horvat,1,CRO\nCup,2024-01-07,2,3,Ivo Ban,2,FRA\n")
    db = tmp_path / "x.db"
    assert xlrating("ingest", table, "--db", db, "--no-ask").code == 0
    ran = xlrating("export", "wdd", "1", "-o", tmp_path / "up.csv", "--db", db)
    assert ran.code == 0
    assert "Ana Horvat: country 'CRO' has no WDD code; written as ZZZ (not known)" in ran.stderr
    assert "Horvat,1,1,1,ZZZ" in (tmp_path / "up.csv").read_text()


def test_export_names_the_stored_events_when_the_event_is_not_found(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert xlrating("ingest", DATA / "wdd_classification.expected.csv", "--db", db, "--no-ask").code == 0
    ran = xlrating("export", "wdd", "Spring Cup", "-o", tmp_path / "up.csv", "--db", db)
    assert ran.code == 2 and "no stored Dip Pouch event 'Spring Cup'" in ran.stderr
    assert "1: Coupe de Paris (2024-03-17)" in ran.stderr
    assert not (tmp_path / "up.csv").exists()


def test_export_from_a_table_writes_what_export_from_the_store_writes(tmp_path: Path) -> None:
    table = DATA / "wdd_classification.expected.csv"
    db = tmp_path / "x.db"
    assert xlrating("ingest", table, "--db", db, "--no-ask").code == 0
    assert xlrating("export", "wdd", "Coupe de Paris", "-o", tmp_path / "store.csv", "--db", db).code == 0
    ran = xlrating("export", "wdd", "coupe de paris", "--table", table, "-o", tmp_path / "table.csv")
    assert ran.code == 0, ran
    assert (tmp_path / "table.csv").read_bytes() == (tmp_path / "store.csv").read_bytes()


def test_export_from_a_table_with_errors_says_them_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("event,date,players,rounds,player,place\nCup,2024-01-07,2,3,Ann,1\nCup,2024-01-07,2,3,Bo,5\n")
    ran = xlrating("export", "wdd", "Cup", "--table", bad, "-o", tmp_path / "up.csv")
    assert ran.code == 1 and "EVENT_PLACE_OUT_OF_RANGE" in ran.stdout and "nothing written" in ran.stderr
    assert not (tmp_path / "up.csv").exists()
    missing = xlrating("export", "wdd", "Spring", "--table", DATA / "wdd_classification.expected.csv",
                       "-o", tmp_path / "up.csv")
    assert missing.code == 2 and "the table holds Coupe de Paris (2024-03-17)" in missing.stderr
