"""``xlrating convert``: inputs, output names, isolated failures, exit status."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
from click.testing import CliRunner

from tests.engine.engine_books import native_book
from xlrating.cli import main


def _book(path: Path, value: int = 2) -> Path:
    wb = openpyxl.Workbook()
    wb.active["A1"] = value
    wb.active["B1"] = "=DIPPOUCH_PERCENTILE(10,A1)"
    wb.save(path)
    return path


def _run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["convert", *args])


def _cached(path: Path, cell: str = "B1"):  # type: ignore[no-untyped-def]
    return openpyxl.load_workbook(path, data_only=True).active[cell].value


def test_a_folder_converts_every_workbook_keeping_file_names(tmp_path: Path) -> None:
    (tmp_path / "in" / "sub").mkdir(parents=True)
    _book(tmp_path / "in" / "a.xlsx", 1)
    _book(tmp_path / "in" / "sub" / "b.xlsx", 3)
    result = _run(str(tmp_path / "in"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert _cached(tmp_path / "out" / "a.xlsx") == 95.0
    assert _cached(tmp_path / "out" / "b.xlsx") == 75.0
    assert "converted 2 of 2 workbooks" in result.output


def test_globs_expand_to_their_matches(tmp_path: Path) -> None:
    for name in ("x1.xlsx", "x2.xlsx", "y.xlsx"):
        _book(tmp_path / name)
    result = _run(str(tmp_path / "x*.xlsx"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["x1.xlsx", "x2.xlsx"]


def test_one_input_may_name_an_output_file_whose_extension_is_the_format(tmp_path: Path) -> None:
    _book(tmp_path / "a.xlsx")
    assert _run(str(tmp_path / "a.xlsx"), "-o", str(tmp_path / "board.json")).exit_code == 0
    assert '"rows"' in (tmp_path / "board.json").read_text()
    assert _run(str(tmp_path / "a.xlsx"), "-o", str(tmp_path / "board.csv")).exit_code == 0
    assert (tmp_path / "board.csv").read_text().splitlines() == ["2,85"]


def test_format_option_changes_the_extension_in_an_output_folder(tmp_path: Path) -> None:
    _book(tmp_path / "a.xlsx")
    assert _run(str(tmp_path / "a.xlsx"), "-o", str(tmp_path / "out"), "--format", "json").exit_code == 0
    assert (tmp_path / "out" / "a.json").exists()


def test_a_broken_workbook_fails_alone_and_the_exit_status_is_1(tmp_path: Path) -> None:
    _book(tmp_path / "good.xlsx")
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    wb = openpyxl.Workbook()
    wb.active.title = "Board"
    wb.active["C4"] = "=NO_SUCH_FUNCTION(1)"
    wb.save(tmp_path / "unknown.xlsx")
    result = _run(str(tmp_path / "good.xlsx"), str(tmp_path / "broken.xlsx"), str(tmp_path / "unknown.xlsx"),
                  "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert _cached(tmp_path / "out" / "good.xlsx") == 85.0
    assert "broken.xlsx:" in result.output
    assert "converted 2 of 3 workbooks" in result.output and "1 failed" in result.output
    assert openpyxl.load_workbook(tmp_path / "out" / "unknown.xlsx", data_only=True)["Board"]["C4"].value == "#NAME?"
    assert "Traceback" not in result.output


def _not_computed_book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    wb.active.title = "Board"
    wb.active["A1"] = 4
    wb.active["B1"] = '=INFO("osversion")'
    wb.active["C1"] = "=A1*2"
    wb.save(path)
    return path


def test_a_cell_not_computed_is_a_warning_left_for_excel_and_strict_makes_it_a_failure(tmp_path: Path) -> None:
    book = _not_computed_book(tmp_path / "osversion.xlsx")
    result = _run(str(book), "-o", str(tmp_path / "out.xlsx"))
    assert result.exit_code == 0
    assert 'warning: ' in result.output and 'osversion.xlsx: Board!B1: INFO("osversion")' in result.output
    assert "1 warning in 1 workbook" in result.output
    out = tmp_path / "out.xlsx"
    values = openpyxl.load_workbook(out, data_only=True)["Board"]
    assert values["B1"].value is None and values["C1"].value == 8  # no invented value; the rest computed
    assert openpyxl.load_workbook(out)["Board"]["B1"].value == '=INFO("osversion")'
    with zipfile.ZipFile(out) as package:
        assert b'fullCalcOnLoad="1"' in package.read("xl/workbook.xml")  # Excel computes it on open
    assert _run(str(book), "-o", str(tmp_path / "strict.xlsx"), "--strict").exit_code == 1


def test_a_missing_file_is_a_failed_conversion_not_bad_usage(tmp_path: Path) -> None:
    _book(tmp_path / "a.xlsx")
    result = _run(str(tmp_path / "a.xlsx"), str(tmp_path / "missing.xlsx"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and "missing.xlsx: no such file" in result.output
    assert (tmp_path / "out" / "a.xlsx").exists()


def test_parallel_jobs_give_the_same_outputs(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    for i in range(3):
        native_book(tmp_path / "in" / f"b{i}.xlsx", rows=10 + i)
    serial = _run(str(tmp_path / "in"), "-o", str(tmp_path / "serial"), "-q")
    parallel = _run(str(tmp_path / "in"), "-o", str(tmp_path / "parallel"), "--jobs", "2")
    assert serial.exit_code == parallel.exit_code == 0
    for i in range(3):
        a = openpyxl.load_workbook(tmp_path / "serial" / f"b{i}.xlsx", data_only=True)["Results"]
        b = openpyxl.load_workbook(tmp_path / "parallel" / f"b{i}.xlsx", data_only=True)["Results"]
        assert [[c.value for c in row] for row in a.iter_rows()] == [[c.value for c in row] for row in b.iter_rows()]


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    _book(tmp_path / "a.xlsx")
    _book(tmp_path / "b.xlsx")
    (tmp_path / "file.json").write_text("{}")
    several_into_a_file = _run(str(tmp_path / "a.xlsx"), str(tmp_path / "b.xlsx"), "-o", str(tmp_path / "file.json"))
    assert several_into_a_file.exit_code == 2 and "names a folder" in several_into_a_file.output
    mismatch = _run(str(tmp_path / "a.xlsx"), "-o", str(tmp_path / "x.csv"), "--format", "json")
    assert mismatch.exit_code == 2 and "does not match" in mismatch.output
    nothing = _run(str(tmp_path / "none*.xlsx"), "-o", str(tmp_path / "out"))
    assert nothing.exit_code == 2 and "no workbook matched" in nothing.output
    assert _run(str(tmp_path / "a.xlsx")).exit_code == 2  # -o missing


def test_same_output_name_from_two_folders_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    _book(tmp_path / "x" / "a.xlsx")
    _book(tmp_path / "y" / "a.xlsx")
    result = _run(str(tmp_path / "x" / "a.xlsx"), str(tmp_path / "y" / "a.xlsx"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "would both be written" in result.output



_THREADS = """
import os, sys, threading, time
from xlrating.cli import main
try:
    main(["convert", "-q", sys.argv[1], "-o", sys.argv[2]])
except SystemExit:
    pass
# The threads that are not Python's (OpenBLAS's workers), plus the main thread; Python's own (the
# evaluator kept for the next workbook) are left out. A joined thread (the writer's deflater) may
# linger in /proc for a moment; OpenBLAS's workers stay.
def others():
    return len(os.listdir("/proc/self/task")) - threading.active_count() + 1
for _ in range(100):
    if others() == 1:
        break
    time.sleep(0.01)
print(others())
"""


def test_convert_runs_numpys_openblas_on_one_thread_unless_told_otherwise(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    import pytest

    if not Path("/proc/self/task").is_dir():
        pytest.skip("counts the process's threads in /proc")
    book = openpyxl.Workbook()
    book.active["A1"] = "=1+1"
    book.save(tmp_path / "book.xlsx")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    counts = []
    for preset in (None, "2"):
        if preset is not None:
            env["OPENBLAS_NUM_THREADS"] = preset  # the user's choice is kept
        done = subprocess.run([sys.executable, "-c", _THREADS, str(tmp_path / "book.xlsx"), str(tmp_path / "out.xlsx")],
                              capture_output=True, text=True, env=env, check=True)
        counts.append(int(done.stdout.strip().splitlines()[-1]))
    assert counts[0] == 1  # the main thread alone: no OpenBLAS workers
    assert counts[1] >= 2


def test_the_console_script_keeps_the_commands_exit_status_and_output(tmp_path: Path) -> None:
    # ``python -m xlrating`` runs the console script's entry (which freezes the collector at the end).
    import subprocess
    import sys

    _book(tmp_path / "good.xlsx")
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip")
    for names, status in (([tmp_path / "good.xlsx"], 0), ([tmp_path / "good.xlsx", tmp_path / "broken.xlsx"], 1)):
        done = subprocess.run([sys.executable, "-m", "xlrating", "convert", "-q", *map(str, names),
                               "-o", str(tmp_path / f"out{status}")], check=False, capture_output=True, text=True)
        assert done.returncode == status, done.stderr
        assert _cached(tmp_path / f"out{status}" / "good.xlsx") == 85.0
        summary = done.stdout + done.stderr
        assert f"converted 1 of {len(names)}" in summary
        assert ("broken.xlsx" in summary) == (status == 1)
