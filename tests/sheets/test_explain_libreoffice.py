"""The explanation workbooks (``xlrating explain SYSTEM PLAYER [FILE] -o explain.xlsx``) recomputed by
real LibreOffice with NO add-in give the rating ``rank`` gives, for every ranked player of each
system under several options, from the example tables, a seeded MERS table and the store, and
every number of the explanation on the way.

Each workbook is written by the command line, its formulas' stored values removed (LibreOffice must
compute every one), and all are converted in one headless LibreOffice session whose fresh profile
recalculates on load (:mod:`xlrating.engine.libreoffice`); the recomputed values are read back
from the saved copies (LibreOffice saves 15 significant digits, hence the 1e-9).
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from tests.explain_books import RATING_CELL, SHEET, VALUE, without_values, write_mers_table
from xlrating.cli import main
from xlrating.engine import libreoffice

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(libreoffice.soffice() is None, reason="LibreOffice (soffice) is not installed")]

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
RICH, STORE = "seeded MERS table", "the store"
CASES = [("mers", "mers_results.csv", ("--ruleset", "MCR", "--as-of", "2025-06-30")),
         ("mers", "mers_results.csv", ("--ruleset", "MCR", "--as-of", "2025-06-30", "--rules", "2010")),
         ("mers", "mers_results.csv", ("--ruleset", "MCR", "--as-of", "2025-06-30", "--rules", "2005",
                                       "--ties", "average")),
         ("mers", "mers_results.csv", ("--ruleset", "Riichi", "--as-of", "2025-06-30")),
         ("dippouch", "dippouch_results.csv", ()), ("dippouch", "dippouch_results.csv", ("--ties", "average")),
         ("dci", "dci_matches.csv", ()), ("dci", "dci_matches.csv", ("--method", "table")),
         # the seeded table: a dozen results that count, shared places, base ranks given, effective dates
         ("mers", RICH, ("--ruleset", "MCR", "--as-of", "2025-06-30")),
         ("mers", RICH, ("--ruleset", "MCR", "--as-of", "2025-06-30", "--ties", "average")),
         ("mers", RICH, ("--ruleset", "MCR", "--as-of", "2017-06-30")),
         ("mers", RICH, ("--ruleset", "MCR", "--as-of", "2021-03-01", "--rules", "2005")),
         ("mers", RICH, ("--ruleset", "Riichi", "--as-of", "2025-06-30", "--rules", "2010")),
         # the store, as ingest fills it from the example sheets and tables
         ("mers", STORE, ("--ruleset", "MCR", "--as-of", "2025-12-31")),
         ("mers", STORE, ("--ruleset", "Riichi", "--as-of", "2025-12-31")),
         ("dippouch", STORE, ()), ("dci", STORE, ())]
TOLERANCE = 1e-9


def run(*args: object) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def recomputed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """One entry per workbook: the system, rank's line, the workbook as written and as LibreOffice
    recomputed it."""
    folder = tmp_path_factory.mktemp("explain-libreoffice")
    write_mers_table(folder / "seeded.csv")
    db = _store(folder)
    books: list[dict[str, Any]] = []
    for index, (system, name, options) in enumerate(CASES):
        table = folder / "seeded.csv" if name == RICH else TABLES / name
        source = ("--db", db) if name == STORE else (table,)
        board = folder / f"board{index}.json"
        assert run("rank", system, *source, *options, "-o", board).exit_code == 0
        lines = json.loads(board.read_text())
        assert lines, (system, name, options)
        for line in lines:
            category = ("--category", line["category"]) if "category" in line else ()
            written = folder / f"written{len(books):03d}.xlsx"
            result = run("explain", system, line["player"], *source, *options, *category, "-o", written)
            assert result.exit_code == 0, result.output
            blank = folder / f"book{len(books):03d}.xlsx"
            blank.write_bytes(without_values(written.read_bytes()))
            books.append({"system": system, "line": line, "written": written, "blank": blank,
                          "case": " ".join((system, name, *options, *category))})
    profile = libreoffice.make_profile(folder / "profile")
    out = folder / "recomputed"
    out.mkdir()
    executable = libreoffice.soffice()
    assert executable is not None
    subprocess.run([executable, f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
                    "--convert-to", "xlsx", "--outdir", str(out), *(str(book["blank"]) for book in books)],
                   capture_output=True, timeout=600, check=True)
    for book in books:
        book["recomputed"] = out / book["blank"].name
        assert book["recomputed"].exists(), f"LibreOffice wrote no copy of {book['blank'].name}"
    assert len(books) >= 100 and {book["system"] for book in books} == {"mers", "dippouch", "dci"}
    return books


def _store(folder: Path) -> Path:
    from xlrating.sheets.examples.submissions import write_examples

    db = folder / "store.db"
    files = [f for f in write_examples(folder / "examples") if "mistakes" not in f.name]
    for file in [*files, TABLES / "dippouch_results.csv", TABLES / "dci_matches.csv"]:
        assert run("ingest", "--db", db, file).exit_code == 0
    return db


def test_libreoffice_recomputes_the_rating_rank_gives(recomputed: list[dict[str, Any]]) -> None:
    wrong = []
    for book in recomputed:
        expected = book["line"][VALUE[book["system"]]]
        got = openpyxl.load_workbook(book["recomputed"], data_only=True)[SHEET][RATING_CELL[book["system"]]].value
        if not (isinstance(got, (int, float)) and abs(got - expected) <= TOLERANCE):
            wrong.append((book["case"], book["line"]["player"], expected, got))
    assert wrong == []


def test_libreoffice_recomputes_every_number_of_the_explanation(recomputed: list[dict[str, Any]]) -> None:
    """Every formula's value as xlrating stored it (the explanation's numbers: base ranks, age
    factors, parts, percentiles, p, changes) is what LibreOffice computes from the inputs."""
    wrong, compared = [], 0
    for book in recomputed:
        written = openpyxl.load_workbook(book["written"], data_only=True)
        formulas = openpyxl.load_workbook(book["written"])
        again = openpyxl.load_workbook(book["recomputed"], data_only=True)
        for ws in formulas.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if not (isinstance(cell.value, str) and cell.value.startswith("=")):
                        continue
                    stored = written[ws.title][cell.coordinate].value
                    got = again[ws.title][cell.coordinate].value
                    compared += 1
                    if not _same(stored, got):
                        wrong.append((book["case"], book["line"]["player"], f"{ws.title}!{cell.coordinate}", stored,
                                      got))
    assert wrong == []
    assert compared > 5000


def _same(stored: Any, got: Any) -> bool:
    if stored in (None, "") and got in (None, ""):
        return True
    if isinstance(stored, bool) or isinstance(got, bool):
        return bool(stored) == bool(got) and type(stored) is type(got)
    if isinstance(stored, (int, float)) and isinstance(got, (int, float)):
        return abs(stored - got) <= TOLERANCE * max(1.0, abs(stored))
    if isinstance(stored, dt.datetime) or isinstance(got, dt.datetime):
        return bool(stored == got)
    return bool(stored == got)
