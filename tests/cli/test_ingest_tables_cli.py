"""``xlrating ingest`` of the Dip Pouch results and DCI matches tables, and ``rank dippouch`` /
``rank dci`` without a file, run as a user runs them (``python -m xlrating``)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
DIPPOUCH = TABLES / "dippouch_results.csv"
DCI = TABLES / "dci_matches.csv"


def xlrating(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=120)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("system, table", [("dippouch", DIPPOUCH), ("dci", DCI)])
def test_rank_without_a_file_ranks_what_ingest_stored_as_rank_ranks_the_file(tmp_path: Path, system: str,
                                                                              table: Path) -> None:
    db = tmp_path / "x.db"
    stored = xlrating("ingest", table, "--db", db)
    assert stored.returncode == 0, stored.stderr
    assert "new (" in stored.stdout and "v1" in stored.stdout
    from_store, from_file = tmp_path / "store.json", tmp_path / "file.json"
    assert xlrating("rank", system, "--db", db, "-o", from_store).returncode == 0
    assert xlrating("rank", system, table, "-o", from_file).returncode == 0
    board = json.loads(from_store.read_text())
    assert board == json.loads(from_file.read_text()) and len(board) >= 7
    terminal = xlrating("rank", system, "--db", db)
    assert terminal.returncode == 0 and board[0]["player"] in terminal.stdout


def test_a_faulty_table_gets_every_finding_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    bad = tmp_path / "bad.csv"
    bad.write_text("event,date,round,player,opponent,result,k\n"
                   "FNM,2009-03-06,1,Jon,Kai,W,8\n"
                   "FNM,2009-03-06,1,Kai,Jon,D,8\n"
                   "FNM,2009-02-30,2,Jon,Kai,L,-3\n")
    first = xlrating("ingest", bad, "--db", db)
    assert first.returncode == 1 and not db.exists()  # nothing valid: not even a store is made
    for where in ("bad!F2: error MATCH_SIDES_DISAGREE", "bad!F3: error MATCH_SIDES_DISAGREE",
                  "bad!B4: error TABLE_DATE_INVALID", "bad!G4: error K_INVALID"):
        assert where in first.stdout, first.stdout
    assert "bad.csv: not stored (4 errors" in first.stdout
    assert xlrating("ingest", DCI, "--db", db).returncode == 0
    before = _digest(db)
    assert xlrating("ingest", bad, "--db", db).returncode == 1
    assert _digest(db) == before


def test_the_same_table_twice_is_unchanged_and_a_changed_event_needs_replace(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert xlrating("ingest", DIPPOUCH, "--db", db).returncode == 0
    before = _digest(db)
    again = xlrating("ingest", DIPPOUCH, "--db", db)
    assert again.returncode == 0 and "nothing changed" in again.stdout and _digest(db) == before
    changed = tmp_path / "results_v2.csv"
    changed.write_text(DIPPOUCH.read_text().replace("Winter Masters,2024-01-21,65,3,Carl Gauss,30",
                                                    "Winter Masters,2024-01-21,65,3,Carl Gauss,3"))
    refused = xlrating("ingest", changed, "--db", db)
    assert refused.returncode == 1 and "use --replace" in refused.stdout and _digest(db) == before
    replaced = xlrating("ingest", changed, "--replace", "--db", db)
    assert replaced.returncode == 0, replaced.stdout
    assert "1 event replaced (Winter Masters (2024-01-21) v2); 3 events unchanged" in replaced.stdout
    board = tmp_path / "board.json"
    assert xlrating("rank", "dippouch", "--db", db, "-o", board).returncode == 0
    expected = tmp_path / "expected.json"
    assert xlrating("rank", "dippouch", changed, "-o", expected).returncode == 0
    assert json.loads(board.read_text()) == json.loads(expected.read_text())


def test_columns_that_fit_both_tables_need_system(tmp_path: Path) -> None:
    both = tmp_path / "both.csv"
    both.write_text("event,date,players,rounds,player,place,round,opponent,result\nX,2024-01-01,2,1,A,1,1,B,W\n")
    db = tmp_path / "x.db"
    unclear = xlrating("ingest", both, "--db", db)
    assert unclear.returncode == 2 and "--system dippouch or --system dci" in unclear.stderr
    chosen = xlrating("ingest", both, "--system", "dci", "--db", db)
    assert chosen.returncode == 0 and "stored DCI matches" in chosen.stdout


def test_rank_of_a_system_the_store_does_not_hold_says_what_to_ingest(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert xlrating("ingest", DCI, "--db", db).returncode == 0
    empty = xlrating("rank", "dippouch", "--db", db)
    assert empty.returncode == 2 and "holds no Dip Pouch results" in empty.stderr
    missing = xlrating("rank", "dci", "--db", tmp_path / "none.db")
    assert missing.returncode == 2 and "no results store here" in missing.stderr
