"""``xlrating ingest`` of a federation's whole history: the ranking officer's CSV table is read with
the limits of a history (:data:`xlrating.gate.limits.HISTORY`), longer than a web upload may be;
a workbook keeps a web upload's limits; a large file shows its steps on a terminal; the ingest
stays one transaction."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dci_history import WEB_ROWS, write_dci_history
from xlrating.cli.common import officer_limits
from xlrating.gate.limits import HISTORY, Limits
from xlrating.store import open_store


def xlrating(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A DCI matches table one event longer than the web's row limit, and its number of matches."""
    path = tmp_path_factory.mktemp("history") / "dci_history.csv"
    return path, write_dci_history(path)


@pytest.mark.slow
def test_a_history_longer_than_a_web_upload_is_stored_whole_and_ranks(history: tuple[Path, int],
                                                                      tmp_path: Path) -> None:
    table, matches = history
    assert matches + 1 > WEB_ROWS
    db = tmp_path / "x.db"
    stored = xlrating("ingest", "--db", db, table)
    assert stored.returncode == 0, stored.stdout + stored.stderr
    assert "stored DCI matches:" in stored.stdout and stored.stderr == ""  # no progress bar in a pipe
    with open_store(str(db)) as store:
        assert len(store.current_entries("dci", facts=False)) == matches
        assert store.submission_content(hashlib.sha256(table.read_bytes()).hexdigest()) == table.read_bytes()
    ranked = xlrating("rank", "dci", "--db", db, "--limit", "5")
    assert ranked.returncode == 0, ranked.stderr
    assert "Player " in ranked.stdout


def test_a_csv_table_on_the_command_line_has_a_historys_limits_and_a_workbook_a_web_uploads() -> None:
    for name in ("history.csv", "HISTORY.CSV", "dir.csv/history.csv"):
        assert officer_limits(name) == Limits.for_history()
    for name in ("results.xlsx", "results.ods", "results.xls", "matches.txt"):
        assert officer_limits(name) is None  # open_submission's default: the web's limits
    history, web = Limits.for_history({}), Limits.from_env({})
    assert history.max_rows == HISTORY["max_rows"] >= 10 * web.max_rows  # a federation's history: millions
    assert history.max_cells > web.max_cells and history.max_file_bytes > web.max_file_bytes
    assert (history.max_columns, history.max_text_chars, history.max_ratio) == (
        web.max_columns, web.max_text_chars, web.max_ratio)  # no row of it is wider or longer than a web one's


def test_the_environment_still_changes_a_historys_limits(tmp_path: Path) -> None:
    assert Limits.for_history({"XLRATING_MAX_ROWS": "3"}).max_rows == 3
    table = tmp_path / "matches.csv"
    table.write_text("event,date,round,player,opponent,result\n" + "FNM,2009-03-06,1,Jon,Kai,W\n" * 3)
    refused = xlrating("ingest", "--db", tmp_path / "x.db", table, env={"XLRATING_MAX_ROWS": "3"})
    assert refused.returncode == 2 and "max_rows = 3 (XLRATING_MAX_ROWS)" in refused.stderr
    bad = xlrating("validate", table, env={"XLRATING_MAX_ROWS": "many"})
    assert bad.returncode == 2 and "XLRATING_MAX_ROWS must be a positive whole number" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_failure_while_storing_a_history_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    from tests.stored import ingest
    from xlrating.sheets.read.submitted import open_submission
    from xlrating.systems import validate_submission

    table = tmp_path / "matches.csv"
    write_dci_history(table, more_than=3_000)
    db = tmp_path / "x.db"
    assert xlrating("ingest", "--db", db, Path(__file__).parents[2] / "examples" / "tables" / "dci_matches.csv"
                    ).returncode == 0
    before = db.read_bytes()
    submitted = open_submission(table)
    validation = validate_submission(table, submitted)
    seen: list[tuple[int, int]] = []

    def interrupted(done: int, total: int) -> None:
        seen.append((done, total))
        if done == total // 2:
            raise KeyboardInterrupt  # Ctrl-C half way through the events

    with open_store(str(db)) as store, pytest.raises(KeyboardInterrupt):
        ingest(store, table.name, submitted.data, validation.submission, "dci", progress=interrupted)
    total = len(validation.submission.events)
    assert seen == [(n, total) for n in range(1, total // 2 + 1)]
    assert db.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_a_large_file_shows_its_steps_on_a_terminal_and_quiet_shows_none(tmp_path: Path) -> None:
    import pty

    table = tmp_path / "matches.csv"
    write_dci_history(table, more_than=30_000)
    assert table.stat().st_size >= 1_000_000  # LARGE_FILE_BYTES

    def at_a_terminal(*args: object) -> tuple[int, str]:
        """Run xlrating with its stderr (and stdout) on a pseudo-terminal: its exit status and output."""
        leader, follower = pty.openpty()
        process = subprocess.Popen([sys.executable, "-m", "xlrating", *map(str, args)], stdout=follower,
                                   stderr=follower, stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "160"})
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        os.close(leader)
        return process.wait(timeout=120), shown.decode(errors="replace")

    status, shown = at_a_terminal("ingest", "--db", tmp_path / "x.db", table)
    assert status == 0 and "stored DCI matches" in shown
    assert "matches.csv: reading and checking" in shown and "matches.csv: storing" in shown
    assert " events" in shown  # the bar counts the events stored
    status, quiet = at_a_terminal("ingest", "--quiet", "--db", tmp_path / "y.db", table)
    assert status == 0 and "stored DCI matches" in quiet and "storing" not in quiet
