"""validate, ingest and --annotate read .xls, .ods and .csv submissions into the same grids as
the .xlsx of the same sheet: the same findings at the same cells, the same store rows, the
received bytes stored unchanged. The .xls and .ods copies are saved by real LibreOffice."""

from __future__ import annotations

import csv
import datetime as dt
import sqlite3
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.engine.libreoffice import convert, make_profile, soffice
from xlrating.sheets.read.xlsx import read_workbook
from xlrating.sheets.validate.annotate import listed_findings
from xlrating.sheets.validate.ema.sheet import validate_file

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.xlsx"))


def findings(path: Path) -> list[tuple[str, str, str]]:
    return [(f.code, f.sheet, f.cell) for f in validate_file(path).findings]


@pytest.fixture(scope="session")
def saved_by_libreoffice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every example submission saved as .xls and as .ods by LibreOffice, once per session."""
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    folder = tmp_path_factory.mktemp("libreoffice_copies")
    profile = make_profile(folder / "profile", recalculate=False)
    for example in EXAMPLES:
        for fmt in ("xls", "ods"):
            convert(example, folder, profile, fmt)
    return folder


def store_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """What the store holds, without ids, times, file names and hashes (which differ by format)."""
    with sqlite3.connect(db) as con:
        return {
            "players": con.execute("SELECT system, player, facts FROM players ORDER BY system, player").fetchall(),
            "tournaments": con.execute(
                "SELECT system, event_key, version, name, start_date, end_date, players, facts FROM events "
                "ORDER BY system, event_key").fetchall(),
            "results": con.execute(
                "SELECT e.event_key, n.sheet_row, n.place, n.player, json_extract(n.facts, '$.last_name'), "
                "json_extract(n.facts, '$.first_name'), json_extract(n.facts, '$.country') "
                "FROM entries n JOIN events e ON e.id = n.event_id ORDER BY e.event_key, n.sheet_row").fetchall(),
        }


def ingest(files: list[Path], db: Path) -> None:
    result = CliRunner().invoke(main, ["ingest", *map(str, files), "--db", str(db)])
    assert result.exit_code in (0, 1), result.output


@pytest.mark.libreoffice
@pytest.mark.parametrize("fmt", ["xls", "ods"])
def test_libreoffice_copies_give_the_same_findings_at_the_same_cells(saved_by_libreoffice: Path, fmt: str) -> None:
    for example in EXAMPLES:
        copy = saved_by_libreoffice / f"{example.stem}.{fmt}"
        assert findings(copy) == findings(example), copy.name


@pytest.mark.libreoffice
@pytest.mark.parametrize("fmt", ["xls", "ods"])
def test_libreoffice_copies_ingest_to_the_same_store_rows(saved_by_libreoffice: Path, fmt: str,
                                                          tmp_path: Path) -> None:
    ingest(EXAMPLES, tmp_path / "xlsx.db")
    copies = [saved_by_libreoffice / f"{e.stem}.{fmt}" for e in EXAMPLES]
    ingest(copies, tmp_path / f"{fmt}.db")
    expected = store_rows(tmp_path / "xlsx.db")
    assert expected["results"]
    assert store_rows(tmp_path / f"{fmt}.db") == expected


@pytest.mark.libreoffice
def test_the_stored_bytes_are_the_bytes_received(saved_by_libreoffice: Path, tmp_path: Path) -> None:
    copy = saved_by_libreoffice / f"{EXAMPLES[0].stem}.ods"
    ingest([copy], tmp_path / "store.db")
    with sqlite3.connect(tmp_path / "store.db") as con:
        (name, content), = con.execute("SELECT file_name, content FROM submissions").fetchall()
    assert (name, content) == (copy.name, copy.read_bytes())


@pytest.mark.libreoffice
@pytest.mark.parametrize("fmt", ["xls", "ods"])
def test_annotated_copy_of_an_xls_or_ods_is_an_xlsx_with_the_findings(saved_by_libreoffice: Path, fmt: str,
                                                                     tmp_path: Path) -> None:
    mistakes = next(e for e in EXAMPLES if "mistakes" in e.stem)
    out = tmp_path / "marked.xlsx"
    result = CliRunner().invoke(main, ["validate", str(saved_by_libreoffice / f"{mistakes.stem}.{fmt}"),
                                       "--annotate", str(out)])
    assert result.exit_code == 1, result.output
    book = openpyxl.load_workbook(out)
    listed = [(r[1], r[2], r[3]) for r in listed_findings(book["Findings"])]
    assert listed == findings(mistakes)
    for code, sheet, cell in listed:
        assert code in book[sheet][cell].comment.text


def write_csv(example: Path, folder: Path) -> Path:
    """The example's results sheet as Excel's "Save As CSV" writes it: ISO dates, numbers as typed."""
    (grid,) = read_workbook(example)
    target = folder / f"{example.stem}.csv"
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        for row in grid.rows:
            writer.writerow(["" if v is None else v.date().isoformat() if isinstance(v, dt.datetime) else v
                             for v in row])
    return target


@pytest.mark.parametrize("example", [e for e in EXAMPLES if len(read_workbook(e)) == 1], ids=lambda e: e.stem)
def test_a_csv_of_the_results_sheet_gives_the_same_findings(example: Path, tmp_path: Path) -> None:
    copy = write_csv(example, tmp_path)
    expected = [(code, copy.stem[:31], cell) for code, _, cell in findings(example)]  # Excel's sheet name limit
    assert findings(copy) == expected


def test_a_csv_keeps_leading_zeros_as_text_and_reads_numbers_and_dates(tmp_path: Path) -> None:
    from xlrating.sheets.read.submitted import open_submission, read_grids

    path = tmp_path / "sheet.csv"
    path.write_text("05378104;5895476;1,5;2.0;2024-03-16;=HYPERLINK(1);TRUE;\n", encoding="utf-8")
    (grid,) = read_grids(open_submission(path))
    assert grid.name == "sheet"
    assert grid.rows == [["05378104", 5895476, 1.5, 2, dt.datetime(2024, 3, 16), "=HYPERLINK(1)", True]]


def test_a_csv_annotated_copy_is_an_xlsx_holding_text_as_text(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text("=1+1,Position\n", encoding="utf-8")
    out = tmp_path / "marked.xlsx"
    result = CliRunner().invoke(main, ["validate", str(path), "--annotate", str(out)])
    assert result.exit_code == 1, result.output
    cell = openpyxl.load_workbook(out)["results"]["A1"]
    assert (cell.value, cell.data_type) == ("=1+1", "s")
