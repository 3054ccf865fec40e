"""Another program's file given to ``rank`` (and ``explain``, ``whatif``, which read the same tables):
what it is, the ``xlrating import`` command that makes a table of it and how that table is then
ranked, instead of an error about columns or a file type it never meant to have (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.ema_sample import ema_workbook
from tests.formats.helpers import DATA, xlrating


@pytest.mark.parametrize("name, system, said", [
    ("wdd_classification.csv", "dippouch",
     "the WDD's classification upload, not a Dip Pouch results table; make a Dip Pouch results table of it with "
     "'xlrating import wdd {file} -o TABLE.csv --event NAME --date YYYY-MM-DD', then rank it: "
     "xlrating rank dippouch TABLE.csv"),
    ("wdr_classification.json", "dippouch",
     "a World Diplomacy Reference classification, not a Dip Pouch results table; make a Dip Pouch results table "
     "of it with 'xlrating import wdr {file} -o TABLE.csv --event NAME --date YYYY-MM-DD --rounds N', then rank "
     "it: xlrating rank dippouch TABLE.csv"),
    ("wer_event.wer", "dci",
     "a Wizards Event Reporter event file, not a DCI matches table; make a DCI matches table of it with "
     "'xlrating import wer {file} -o TABLE.csv', then rank it: xlrating rank dci TABLE.csv"),
    ("wer_event.wer", "mers",  # given to another system's rank: still said what it is and where it goes
     "a Wizards Event Reporter event file, not a MERS results table; make a DCI matches table of it with "
     "'xlrating import wer {file} -o TABLE.csv', then rank it: xlrating rank dci TABLE.csv"),
])
def test_rank_names_a_federations_file_with_its_import(tmp_path: Path, name: str, system: str, said: str) -> None:
    given = tmp_path / name
    given.write_bytes((DATA / name).read_bytes())
    ran = xlrating("rank", system, given)
    assert ran.code == 2, ran
    assert ran.stderr.strip() == f"xlrating: error: {given}: {said.format(file=given)}"


def test_rank_names_the_ema_workbook_with_its_import_and_the_ingest_after_it(tmp_path: Path) -> None:
    book = ema_workbook(tmp_path / "ema.xlsx")
    ran = xlrating("rank", "mers", book)
    assert ran.code == 2, ran
    assert ran.stderr.strip() == (
        f"xlrating: error: {book}: an EMA results workbook (a sheet per tournament), not a MERS results table; make "
        f"EMA results sheets of it with 'xlrating import ema-workbook {book} -o SHEETS.xlsx', then ingest them and "
        "rank the store: xlrating ingest SHEETS-*.xlsx && xlrating rank mers")


def test_explain_whatif_and_quotas_say_the_same(tmp_path: Path) -> None:
    book = ema_workbook(tmp_path / "ema.xlsx")
    wer = tmp_path / "event.xml"  # a WER file under another name: known by what it holds
    wer.write_bytes((DATA / "wer_event.wer").read_bytes())
    for args in (("explain", "mers", "04060059", book), ("whatif", "eras", book, "--ruleset", "MCR"),
                 ("quotas", book, "--ruleset", "MCR", "--seats", 10), ("quotas", wer, "--ruleset", "MCR", "--seats", 10),
                 ("whatif", "mers", "04060059", wer, "--place", 1, "--players", 8, "--weight", 1,
                  "--date", "2024-01-01")):
        ran = xlrating(*args)
        assert ran.code == 2, (args, ran)
        assert "xlrating import ema-workbook" in ran.stderr or "xlrating import wer" in ran.stderr, (args, ran)


def test_an_xml_file_of_another_kind_and_a_plain_table_error_are_said_as_before(tmp_path: Path) -> None:
    other = tmp_path / "feed.xml"
    other.write_text('<?xml version="1.0"?><event><title>Not a WER file</title></event>')
    ran = xlrating("rank", "dci", other)
    assert ran.code == 2 and "import" not in ran.stderr
    assert "expected a .csv, .xlsx, .xlsm, .xls or .ods file, got '.xml'" in ran.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("tournament,date,players,weight,player,place\nOpen,2024-01-01,many,1,04060059,1\n")
    ran = xlrating("rank", "mers", bad)
    assert ran.code == 2 and "row 2, column 'players'" in ran.stderr and "import" not in ran.stderr
