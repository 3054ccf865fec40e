"""The EMA's results workbook: ``xlrating import ema-workbook`` and ``xlrating export ema-workbook``."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from tests.formats.ema_sample import ema_workbook, hand_made_sheets
from tests.formats.helpers import store_contents, xlrating


def _ingest(db: Path, *files: Path) -> None:
    ran = xlrating("ingest", *files, "--db", db, "--no-ask")
    assert ran.code == 0, ran


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return ema_workbook(tmp_path / "ema.xlsx")


def test_the_workbook_gives_the_store_the_hand_made_sheets_give(tmp_path: Path, sample: Path) -> None:
    ran = xlrating("import", "ema-workbook", sample, "-o", tmp_path / "out.xlsx")
    assert ran.code == 0, ran
    imported = sorted(tmp_path.glob("out-*.xlsx"))
    assert [p.name for p in imported] == ["out-MCR Open Lyon.xlsx", "out-Riichi Porto.xlsx"]
    assert "an EMA results sheet, 8 rows: Lyon MCR Open 2023 (MCR, 2023-01-14)" in ran.stdout
    assert "MCR Open Lyon!F2: warning IMPORT_ID_AS_NUMBER" in ran.stdout
    hand = tmp_path / "hand"
    hand.mkdir()
    _ingest(tmp_path / "imported.db", *imported)
    _ingest(tmp_path / "hand.db", *hand_made_sheets(hand))
    assert store_contents(tmp_path / "imported.db", "mers") == store_contents(tmp_path / "hand.db", "mers")
    # (the MERS ranking counts a player with several tournaments only: the stored results are what it reads)


def test_an_id_that_lost_its_zero_and_a_player_without_one(tmp_path: Path, sample: Path) -> None:
    out = tmp_path / "lyon.xlsx"
    assert xlrating("import", "ema-workbook", sample, "-o", out, "--sheet", "MCR Open Lyon").code == 0
    ws = openpyxl.load_workbook(out).active
    rows = {ws.cell(r, 3).value: (ws.cell(r, 2).value, ws.cell(r, 2).data_type) for r in range(12, 20)}
    assert rows["Roux"] == ("04060059", "s") and rows["Chen"] == (None, "n")
    assert [ws.cell(r, 2).value for r in (5, 6)] == [ws.cell(5, 2).value, ws.cell(6, 2).value]


def test_export_reads_back_through_the_importer_unchanged(tmp_path: Path) -> None:
    hand = tmp_path / "hand"
    hand.mkdir()
    db = tmp_path / "x.db"
    _ingest(db, *hand_made_sheets(hand))
    book = tmp_path / "ema.xlsx"
    ran = xlrating("export", "ema-workbook", "-o", book, "--db", db)
    assert ran.code == 0, ran
    ws = openpyxl.load_workbook(book)["Lyon MCR Open 2023"]
    assert (ws["A3"].value, ws["Q3"].value, ws["F2"].value, ws["I5"].value) == \
        ("Lyon MCR Open 2023", "14-15 Jan. 2023", 4060059, "No")
    assert xlrating("import", "ema-workbook", book, "-o", tmp_path / "back.xlsx").code == 0
    _ingest(tmp_path / "back.db", *sorted(tmp_path.glob("back-*.xlsx")))
    assert store_contents(tmp_path / "back.db", "mers") == store_contents(db, "mers")


def test_one_tournament_by_number_and_an_unknown_one_named(tmp_path: Path) -> None:
    hand = tmp_path / "hand"
    hand.mkdir()
    db = tmp_path / "x.db"
    _ingest(db, *hand_made_sheets(hand))
    assert xlrating("export", "ema-workbook", "2", "-o", tmp_path / "one.xlsx", "--db", db).code == 0
    assert openpyxl.load_workbook(tmp_path / "one.xlsx").sheetnames == ["Porto Riichi Cup"]
    ran = xlrating("export", "ema-workbook", "Paris Open", "-o", tmp_path / "none.xlsx", "--db", db)
    assert ran.code == 2 and "no stored MERS tournament 'Paris Open'" in ran.stderr
    assert not (tmp_path / "none.xlsx").exists()


def test_problems_are_reported_at_the_workbooks_cells_and_nothing_is_written(tmp_path: Path, sample: Path) -> None:
    book = openpyxl.load_workbook(sample)
    lyon = book["MCR Open Lyon"]
    lyon["Q3"] = "31-1 May 2014"  # which month ends it? refused rather than guessed
    lyon["I5"] = "Yes"  # Mei Chen has no EMA ID
    lyon["C9"] = 9  # a position out of the 8 players: the EMA validator's finding, at the workbook's cell
    book.save(sample)
    ran = xlrating("import", "ema-workbook", sample, "-o", tmp_path / "out.xlsx", "--sheet", "MCR Open Lyon")
    assert ran.code == 1, ran
    assert "MCR Open Lyon!Q3: error IMPORT_VALUE_INVALID: the dates (Q3) '31-1 May 2014' is not valid" in ran.stdout
    assert "MCR Open Lyon!I5: error IMPORT_MEMBER_FLAG_DISAGREES" in ran.stdout
    assert not list(tmp_path.glob("out*.xlsx"))
    lyon["Q3"], lyon["I5"] = "14-15 Jan. 2023", "No"
    book.save(sample)
    ran = xlrating("import", "ema-workbook", sample, "-o", tmp_path / "out.xlsx", "--sheet", "MCR Open Lyon")
    assert ran.code == 1, ran
    assert "MCR Open Lyon!C9: error PLACE_OUT_OF_RANGE" in ran.stdout


def test_sheets_are_written_only_as_xlsx_and_a_missing_sheet_is_named(tmp_path: Path, sample: Path) -> None:
    ran = xlrating("import", "ema-workbook", sample, "-o", tmp_path / "out.csv")
    assert ran.code == 2 and "expected a .xlsx file name for EMA results sheets" in ran.stderr
    ran = xlrating("import", "ema-workbook", sample, "-o", tmp_path / "out.xlsx", "--sheet", "Results")
    assert ran.code == 2 and "no sheet 'Results'; the sheets are 'MCR Open Lyon', 'Riichi Porto'" in ran.stderr


def test_the_exported_workbook_as_libreoffice_saves_it_imports_to_the_same_store(tmp_path: Path) -> None:
    """The exported workbook opened and saved again by LibreOffice Calc (as .ods) reads back unchanged:
    the sheets, the IDs kept as numbers, the dates' text."""
    from xlrating.engine import libreoffice

    if libreoffice.soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    hand = tmp_path / "hand"
    hand.mkdir()
    db = tmp_path / "x.db"
    _ingest(db, *hand_made_sheets(hand))
    book = tmp_path / "ema.xlsx"
    assert xlrating("export", "ema-workbook", "-o", book, "--db", db).code == 0
    saved = libreoffice.convert(book, tmp_path / "calc", libreoffice.make_profile(tmp_path / "profile"), "ods")
    ran = xlrating("import", "ema-workbook", saved, "-o", tmp_path / "back.xlsx")
    assert ran.code == 0, ran
    _ingest(tmp_path / "back.db", *sorted(tmp_path.glob("back-*.xlsx")))
    assert store_contents(tmp_path / "back.db", "mers") == store_contents(db, "mers")
