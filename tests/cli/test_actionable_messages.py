"""Messages a person can act on (issue 38): a file refused says what the file is, what was
expected, and what to do, naming the file (and the cell) as the user typed it."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from xlrating.cli import main
from xlrating.core.dates import as_date
from xlrating.core.errors import AmbiguousDate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MERS_TABLE = EXAMPLES / "tables" / "mers_results.csv"
EMA_SHEET = EXAMPLES / "01_lyon_mcr_open_2024.xlsx"
DIPPOUCH = "event,date,players,rounds,player,place\nSpring Cup,{date},10,3,Ada Lovelace,1\n"
# A PDF as a PDF writer starts one: the version, then a comment of bytes above 127 (ISO 32000-1, 7.5.2).
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def zipped(parts: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return buffer.getvalue()


# -- 1. a date whose day and month could be either way round

def test_a_slashed_date_in_a_submitted_table_is_called_ambiguous_with_the_dates_it_could_be(tmp_path: Path) -> None:
    table = tmp_path / "results.csv"
    table.write_text(DIPPOUCH.format(date="01/02/2009"))
    result = run("validate", table)
    assert result.exit_code == 1
    assert "results!B2: error TABLE_DATE_AMBIGUOUS: date '01/02/2009' is ambiguous" in result.output
    assert "1 February 2009 or 2 January 2009" in result.output
    assert "write it as YYYY-MM-DD (2009-02-01 or 2009-01-02) or DD.MM.YYYY" in result.output
    assert "not a real date" not in result.output


def test_rank_names_the_row_and_column_of_an_ambiguous_date_and_the_forms_it_reads(tmp_path: Path) -> None:
    table = tmp_path / "results.csv"
    table.write_text(DIPPOUCH.format(date="25/02/2009"))
    result = run("rank", "dippouch", table)
    assert result.exit_code == 2
    assert f"{table}: row 2, column 'date': expected a date (YYYY-MM-DD or DD.MM.YYYY), got '25/02/2009', " \
           "which is ambiguous" in result.output
    assert "(here only 25 February 2009 is a date); write it as YYYY-MM-DD (2009-02-25)" in result.output


def test_a_date_that_is_no_date_either_way_round_is_not_called_ambiguous() -> None:
    with pytest.raises(AmbiguousDate) as ambiguous:
        as_date("date", "03/06/2009")
    assert [d.isoformat() for d in ambiguous.value.readings] == ["2009-06-03", "2009-03-06"]
    with pytest.raises(ValueError) as invalid:
        as_date("date", "13/13/2009")
    assert not isinstance(invalid.value, AmbiguousDate)


# -- 2. a file of another kind than a spreadsheet

@pytest.mark.parametrize(("name", "data", "what"), [
    ("results.pdf", PDF, "a PDF document, not a spreadsheet; save the results as .xlsx or .csv"),
    ("results.xlsx", PDF, "a PDF document, not a spreadsheet; save the results as .xlsx or .csv"),
    ("scan.png", b"\x89PNG\r\n\x1a\n" + bytes(40), "a PNG image, not a spreadsheet; a picture of a sheet cannot"),
    ("photo.xlsx", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(40), "a JPEG image, not a spreadsheet"),
    ("letter.xlsx", zipped({"[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document/>"}),
     "a Word document (.docx), not a spreadsheet; copy the results table into a spreadsheet"),
    ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100) + "WordDocument".encode("utf-16-le") + bytes(100),
     "a Word 97-2003 document (.doc), not a spreadsheet"),
    ("sent.zip", zipped({"lyon/results.xlsx": "x", "notes.txt": "x"}),
     "a zip archive holding lyon/results.xlsx, not a spreadsheet; unpack it and give lyon/results.xlsx itself"),
    ("results.csv", zipped({"notes.txt": "x"}), "a zip archive of notes.txt, not a spreadsheet, and none of its files"),
], ids=["pdf", "pdf-named-xlsx", "png", "jpeg", "docx", "doc", "zip-of-a-sheet", "zip-named-csv"])
def test_a_file_that_is_no_spreadsheet_is_named_for_what_it_is(tmp_path: Path, name: str, data: bytes,
                                                                what: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    result = run("validate", path)
    assert result.exit_code == 2
    assert f"{path}: {what}" in result.output
    assert "unrecognised content" not in result.output


def test_the_web_intake_says_an_uploaded_pdf_is_a_pdf() -> None:
    from xlrating.web.checking import check_sheet

    checked = check_sheet("results.xlsx", PDF)
    assert checked.unreadable is not None
    assert "a PDF document, not a spreadsheet; save the results as .xlsx or .csv" in checked.unreadable


# -- 3. a workbook renamed .csv

def test_rank_says_a_workbook_named_csv_is_a_workbook_and_to_rename_it(tmp_path: Path) -> None:
    renamed = tmp_path / "X.csv"
    shutil.copyfile(EMA_SHEET, renamed)
    result = run("rank", "dippouch", renamed)
    assert result.exit_code == 2
    assert (f"{renamed}: an Excel workbook (.xlsx) named .csv; rename it X.xlsx (xlrating reads .xlsx files too) "
            "or give the .xlsx file itself") in result.output
    assert "NUL" not in result.output


def test_validate_says_the_same_of_a_workbook_named_csv(tmp_path: Path) -> None:
    renamed = tmp_path / "X.csv"
    shutil.copyfile(EMA_SHEET, renamed)
    result = run("validate", renamed)
    assert result.exit_code == 2
    assert f"{renamed}: an Excel workbook (.xlsx) named .csv; rename it X.xlsx" in result.output


# -- 4. an EMA results sheet given to rank mers

def test_rank_mers_says_an_ema_sheet_is_one_to_ingest_and_how_to_rank_the_store(tmp_path: Path) -> None:
    db = tmp_path / "results.db"
    result = run("rank", "mers", "--db", db, EMA_SHEET)
    assert result.exit_code == 2
    assert (f"{EMA_SHEET} [Results]: an EMA results sheet (one MERS tournament as submitted), not a MERS "
            "results table") in result.output
    assert f"xlrating ingest --db {db} {EMA_SHEET} && xlrating rank mers --db {db}" in result.output
    assert "got 'Ruleset, MCR'" not in result.output


def test_the_ingest_that_rank_mers_advises_then_ranks_the_sheet(tmp_path: Path) -> None:
    db = tmp_path / "results.db"
    assert run("ingest", "--db", db, EMA_SHEET).exit_code == 0
    ranked = run("rank", "mers", "--db", db, "--as-of", "2025-01-01")
    assert ranked.exit_code == 0, ranked.output


def test_rank_names_the_system_whose_table_a_file_is(tmp_path: Path) -> None:
    result = run("rank", "dippouch", MERS_TABLE)
    assert result.exit_code == 2
    assert (f"{MERS_TABLE}: a MERS results table, not a Dip Pouch results table; rank it with: "
            f"xlrating rank mers {MERS_TABLE}") in result.output


# -- 5. the table rank mers reads, given to validate

def test_validate_says_a_mers_results_table_is_the_input_of_rank_mers(tmp_path: Path) -> None:
    result = run("validate", MERS_TABLE)
    assert result.exit_code == 1
    lines = [line.strip() for line in result.output.splitlines()[1:]]
    assert len(lines) == 1, result.output  # one finding: what the file is, not the sheet it is not
    assert lines[0].startswith("mers_results!A1: error MERS_RESULTS_TABLE: this file is a MERS results table")
    assert "the input of `xlrating rank mers FILE`, not a sheet to submit" in lines[0]
    assert "NO_RESULTS_TABLE" not in result.output and "is not MERS-rated" not in result.output
