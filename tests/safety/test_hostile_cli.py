"""Every reader of the command line refuses every hostile file: exit 2, a clear message naming
the file, no traceback, within 10 seconds and 500 MB of memory. (convert: its own documented
status and limits, see CONVERT_* below.) The .xls, .ods and .csv corpus goes through the two
readers of submissions, ``validate`` and ``ingest``, with the same bounds (a CSV table with the
limits of a federation's history, see HISTORY_* below); the memory bound holds for every process
a command starts too (an .xls is read in a capped child process).

The readers are ``xlrating validate``, ``ingest``, ``convert`` and ``rank`` (from a file). For each
command, one child process runs every hostile file through the real click entry point
(``cli_driver.py``); a few cases also run as a plain ``python -m xlrating`` process to check the
exit status a shell sees. Commands not in this checkout yet (``xlrating.cli.COMMANDS`` names a
module that does not exist) are skipped, so these tests start running as the commands land.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import corpus_folder, hostile_corpus, other_formats_corpus
from make_hostile_corpus import HostileCase

from xlrating.cli import COMMANDS

TIME_BOUND_S = 10.0  # for a refusal: the clean error must come within this
CONVERSION_BOUND_S = 30.0  # for a sheet convert accepts and recalculates (1.1 million cells takes ~5 s alone)
MEMORY_BOUND_MB = 500
DRIVER = Path(__file__).with_name("cli_driver.py")
READERS = ["validate", "ingest", "convert", "rank"]
SUBMISSION_READERS = ["validate", "ingest"]  # the commands that take .xls, .ods and .csv submissions

# click refuses a folder for `rank FILE` itself, before our code runs; its wording is as clear.
ALSO_ACCEPTED = {"is a folder": ("is a directory",)}

# convert has its own contract and limits, both deliberate:
# - docs/interfaces.md: "0 all converted, 1 some failed, 2 bad usage", so a refused input is exit 1;
# - engine/batch.py raises only the sheet limits, to Excel's own grid (1,048,576 x 16,384) and 2 M
#   cells, because it recalculates the user's own workbooks; the file, part and zip-bomb limits, the
#   DTD and format checks are validate's (one set of package limits, README "Limits"). Sheets that
#   are only "too big" for a results submission must therefore convert, within the same bounds.
CONVERT_REFUSED_STATUS = 1
CONVERT_CONVERTS = {"cell-at-xfd1048576.xlsx", "column-xfd.xlsx", "dimension-lies.xlsx", "rows-200k.xlsx",
                    "cells-1.1m.xlsx", "columns-without-r.xlsx", "hyperlink-far.xlsx", "comment-far.xlsx",
                    "rich-text-bad-size.xlsx",  # its own sheet reader does not parse rich-text runs
                    # a cell its type cannot hold is read as LibreOffice reads it (empty, or 0 for a
                    # number cell) and named in a warning: the rest of the workbook computes
                    "number-not-a-number.xlsx", "shared-string-missing.xlsx", "date-not-a-date.xlsx"}
CONVERT_FRAGMENT = {
    "folder.xlsx": "no workbook matched",  # convert takes a folder as "every workbook in it"
}

# validate and ingest read the officer's CSV tables with the limits of a federation's whole history
# (xlrating.gate.limits.HISTORY: 2,000,000 rows, 40 million cells, 256 MB; a workbook keeps a web
# upload's). A CSV that is only longer than a web upload may be is read as the table it is (here no
# results table: exit 1, nothing stored), within the same bounds; the 60 MB file is refused by what
# it holds rather than by its size. The rows csv builds at once stay bounded as before.
HISTORY_READS = {"rows.csv": "no_results_table", "cells.csv": "no_results_table"}
HISTORY_FRAGMENT = {"oversized.csv": "not a text file"}

# Known gaps in other modules, reported rather than hidden: the test fails if any other case fails.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


def command_available(name: str) -> bool:
    return importlib.util.find_spec(f"xlrating.cli.{COMMANDS[name][0]}") is not None


def args_for(command: str, file: Path, work: Path) -> list[str]:
    if command == "validate":
        return ["validate", str(file)]
    if command == "ingest":
        return ["ingest", "--db", str(work / f"{file.name}.db"), str(file)]
    if command == "convert":
        return ["convert", str(file), "-o", str(work / "converted")]
    return ["rank", command.partition(":")[2] or "mers", str(file)]  # "rank" or "rank:dippouch", "rank:dci"


def driver_run(command: str, names: list[str], work: Path, *, ceiling: int | None = None,
               corpus: dict[str, HostileCase] | None = None) -> dict[str, object]:
    """Run the named hostile cases of ``corpus`` (default: the .xlsx one) through ``command`` in
    one child process (address space capped at ``ceiling`` bytes, default 3 GiB)."""
    cases = [(corpus or hostile_corpus())[name] for name in names]
    # a conversion convert accepts is bound at CONVERSION_BOUND_S, so it is not stopped before that
    jobs = [{"args": args_for(command, c.path, work), "env": c.env,
             "alarm": int(CONVERSION_BOUND_S) + 1 if command == "convert" and c.path.name in CONVERT_CONVERTS
             else int(TIME_BOUND_S) + 1} for c in cases]
    env = {**os.environ, **({"XLRATING_TEST_ADDRESS_SPACE": str(ceiling)} if ceiling else {})}
    done = subprocess.run([sys.executable, str(DRIVER)], input=json.dumps(jobs), capture_output=True, text=True,
                          cwd=work, timeout=600, check=False, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    return {"peak_mb": report["peak_mb"], "children_peak_mb": report["children_peak_mb"],
            "jobs": dict(zip(names, report["jobs"]))}


def expectation(command: str, name: str, corpus: dict[str, HostileCase] | None = None) -> tuple[int, tuple[str, ...]]:
    """The exit status and message fragments (any one suffices) ``command`` owes hostile case ``name``."""
    fragment = (corpus or hostile_corpus())[name].fragment
    if command == "convert":
        if name in CONVERT_CONVERTS:
            return 0, ("converted 1 of 1",)
        return (2 if name == "folder.xlsx" else CONVERT_REFUSED_STATUS), (CONVERT_FRAGMENT.get(name, fragment),)
    if command in SUBMISSION_READERS and name in HISTORY_READS:
        return 1, (HISTORY_READS[name],)
    if command in SUBMISSION_READERS and name in HISTORY_FRAGMENT:
        return 2, (HISTORY_FRAGMENT[name],)
    return 2, (fragment, *ALSO_ACCEPTED.get(fragment, ()))


def problems_with(command: str, name: str, job: dict[str, object], work: Path,
                  corpus: dict[str, HostileCase] | None = None) -> list[str]:
    status, fragments = expectation(command, name, corpus)
    said = (str(job["stderr"]) + str(job["stdout"])).lower()
    problems = []
    if "traceback" in said:
        problems.append("printed a traceback")
    if job["status"] != status:
        problems.append(f"exit {job['status']}, expected {status}")
    if not any(f in said for f in fragments):
        problems.append(f"message lacks {fragments[0]!r}")
    if status != 0 and name not in said and not name.startswith("folder."):
        problems.append("message does not name the file")
    bound = CONVERSION_BOUND_S if status == 0 else TIME_BOUND_S
    if float(job["seconds"]) >= bound:  # type: ignore[arg-type]
        problems.append(f"took {float(job['seconds']):.1f} s")  # type: ignore[arg-type]
    if command == "ingest" and stored_anything(work / f"{name}.db"):
        problems.append("stored something")
    return [f"{name}: {p} -- {str(job['stderr'])[-300:].strip() or str(job['stdout'])[-300:].strip()}"
            for p in problems]


def stored_anything(db: Path) -> bool:
    if not db.exists():
        return False
    with sqlite3.connect(db) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return any(connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                   for t in tables & {"submissions", "tournaments", "results"})


@pytest.mark.parametrize("command", READERS)
def test_every_hostile_file_gets_exit_2_and_its_message_within_the_bounds(command: str, tmp_path: Path) -> None:
    if not command_available(command):
        pytest.skip(f"xlrating {command} is not in this checkout yet")
    gaps = sorted(name for c, name in KNOWN_GAPS if c == command)
    names = sorted(set(hostile_corpus()) - set(gaps))
    assert_refused_within_bounds(driver_run(command, names, tmp_path), command, tmp_path)
    # Each known gap runs in a child of its own, so its memory cannot hide behind the others'.
    still_open = []
    for name in gaps:
        alone = driver_run(command, [name], tmp_path, ceiling=2 * MEMORY_BOUND_MB * 1024**2)
        found = problems_with(command, name, alone["jobs"][name], tmp_path)  # type: ignore[index]
        if found or float(alone["peak_mb"]) >= MEMORY_BOUND_MB:  # type: ignore[arg-type]
            still_open.append(KNOWN_GAPS[(command, name)])
    if still_open:
        pytest.xfail("; ".join(still_open))


def assert_refused_within_bounds(report: dict[str, object], command: str, work: Path,
                                 corpus: dict[str, HostileCase] | None = None) -> None:
    """Every job of a :func:`driver_run` report met its expectation, and no process it ran (the
    driver, or a reader it started) went over the memory bound."""
    jobs: dict[str, dict[str, object]] = report["jobs"]  # type: ignore[assignment]
    problems = [p for name, job in jobs.items() for p in problems_with(command, name, job, work, corpus)]
    assert float(report["peak_mb"]) < MEMORY_BOUND_MB, f"peak memory {report['peak_mb']:.0f} MB"  # type: ignore[arg-type]
    assert float(report["children_peak_mb"]) < MEMORY_BOUND_MB, (  # type: ignore[arg-type]
        f"a reader process peaked at {report['children_peak_mb']:.0f} MB")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("command", SUBMISSION_READERS)
def test_every_hostile_xls_ods_and_csv_gets_exit_2_and_its_message_within_the_bounds(
        command: str, tmp_path: Path) -> None:
    corpus = other_formats_corpus()
    assert_refused_within_bounds(driver_run(command, sorted(corpus), tmp_path, corpus=corpus), command, tmp_path,
                                 corpus)


# The .csv cases a rank table file is refused for as a submission is, through the same bounded
# reading (xlrating.sheets.read.csv_grid.bounded_rows); long-line.csv took 2.47 GB and minutes before.
RANK_CSV_CASES = ["long-line.csv", "quoted-lines.csv", "wide.csv", "rows.csv", "cells.csv", "long-field.csv",
                  "huge-field.csv"]


@pytest.mark.parametrize("system", ["mers", "dippouch", "dci"])
def test_rank_refuses_an_oversized_csv_table_within_the_bounds(system: str, tmp_path: Path) -> None:
    corpus = other_formats_corpus()
    command = f"rank:{system}"
    report = driver_run(command, RANK_CSV_CASES, tmp_path, corpus=corpus)
    assert_refused_within_bounds(report, command, tmp_path, corpus)
    said = str(report["jobs"]["long-line.csv"]["stderr"])  # type: ignore[index]
    assert len(said) < 400 and "ab,ab" not in said  # names the file, the line and the limit; no content


SPOT_CHECKS = ["bomb-1gb.xlsx", "laughs-sheet.xlsx", "encrypted.xlsx"]


OTHER_FORMAT_SPOT_CHECKS = ["corners.xls", "long-line.csv"]  # the .xls reader's child killed; 16 M fields


@pytest.mark.parametrize("name", SPOT_CHECKS)
@pytest.mark.parametrize("command", READERS)
def test_a_real_process_exits_2_with_one_clean_line(command: str, name: str, tmp_path: Path) -> None:
    if not command_available(command):
        pytest.skip(f"xlrating {command} is not in this checkout yet")
    assert_a_real_process_refuses(command, name, tmp_path, hostile_corpus())


@pytest.mark.parametrize("name", OTHER_FORMAT_SPOT_CHECKS)
@pytest.mark.parametrize("command", SUBMISSION_READERS)
def test_a_real_process_refuses_an_xls_or_csv_with_one_clean_line(command: str, name: str, tmp_path: Path) -> None:
    assert_a_real_process_refuses(command, name, tmp_path, other_formats_corpus())


def assert_a_real_process_refuses(command: str, name: str, work: Path, corpus: dict[str, HostileCase]) -> None:
    case = corpus[name]
    done = subprocess.run([sys.executable, "-m", "xlrating", *args_for(command, case.path, work)],
                          capture_output=True, text=True, timeout=60, cwd=work, check=False)
    status, fragments = expectation(command, name, corpus)
    assert done.returncode == status
    assert "Traceback" not in done.stderr
    assert str(case.path) in done.stderr
    assert any(f in done.stderr.lower() for f in fragments)
    assert not stored_anything(work / f"{name}.db")


def test_the_corpus_lives_in_a_temporary_folder_not_in_the_repository() -> None:
    assert not corpus_folder().is_relative_to(Path(__file__).parents[2])
