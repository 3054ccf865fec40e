"""Another program's file given to ``validate`` or ``ingest``: what it is and the import that makes a
table of it, instead of findings about columns it never meant to have; nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.formats.ema_sample import ema_workbook
from tests.formats.helpers import DATA, xlrating

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name, key, needs", [
    ("wer_event.wer", "wer", ""),
    ("wdr_classification.json", "wdr", " --event NAME --date YYYY-MM-DD --rounds N"),
    ("wdd_classification.csv", "wdd", " --event NAME --date YYYY-MM-DD"),
])
def test_a_federations_file_is_named_with_the_import_that_reads_it(tmp_path: Path, name: str, key: str,
                                                                    needs: str) -> None:
    given = tmp_path / name
    given.write_bytes((DATA / name).read_bytes())
    for command in (("validate", given), ("ingest", given, "--db", tmp_path / "x.db")):
        ran = xlrating(*command)
        assert ran.code == 2, ran
        assert f"not a results table or sheet to submit; the ranking officer makes it" in ran.stderr
        assert f"'xlrating import {key} {given} -o TABLE.csv{needs}'" in ran.stderr
    assert "stored" not in ran.stdout


def test_the_ema_workbook_is_named_too_and_an_xml_file_of_another_kind_is_not(tmp_path: Path) -> None:
    book = ema_workbook(tmp_path / "ema results.xlsx")
    ran = xlrating("validate", book)
    assert ran.code == 2 and f"'xlrating import ema-workbook '{book}' -o SHEETS.xlsx'" in ran.stderr
    other = tmp_path / "feed.xml"
    other.write_text('<?xml version="1.0"?><event><title>Not a WER file</title></event>')
    ran = xlrating("validate", other)
    assert ran.code == 2 and "import" not in ran.stderr and "XML" in ran.stderr


def test_the_tables_and_sheets_submitted_are_not_taken_for_another_programs(tmp_path: Path) -> None:
    ran = xlrating("validate", EXAMPLES / "tables" / "dippouch_results.csv", EXAMPLES / "tables" / "dci_matches.csv",
                   *sorted(EXAMPLES.glob("0[1-5]_*.xlsx")))
    assert ran.code == 0, ran


def test_the_web_intakes_check_says_the_same() -> None:
    from xlrating.web.checking import check_sheet

    check = check_sheet("event.wer", (DATA / "wer_event.wer").read_bytes())
    assert check.unreadable is not None
    assert "a Wizards Event Reporter event file, not a results table or sheet to submit" in check.unreadable
