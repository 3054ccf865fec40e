"""Hostile workbooks, tried as an attacker would, each within the limits the README states: every one
ends within the time limit (plus start-up) and 1.5 GB of address space, with a message naming the
cell or the limit, and a good workbook in the same batch still converts.

Each runs ``xlrating convert`` in a child process whose address space is capped (``RLIMIT_AS``), so
a conversion that would build a dense grid of billions of cells dies there instead of on the machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

resource = pytest.importorskip("resource")  # POSIX: the address-space cap

CEILING = 1536 * 1024 * 1024  # 1.5 GB of address space for the whole conversion
START_UP = 6.0  # seconds of Python, numpy and the engine starting, on a loaded machine


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CEILING, CEILING))
    _as_at_a_terminal()


def _as_at_a_terminal() -> None:
    """Ctrl-C delivered as at a terminal: a child inherits its parent's ignored and blocked signals
    (a test runner's worker may hold SIGINT so), which a command started from a shell does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _convert(*args: str, seconds: int = 600, env: dict[str, str] | None = None,
             cwd: Path | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("XLRATING_MAX_")}
    environ.update({"XLRATING_MAX_SECONDS": str(seconds), **(env or {})})
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "xlrating", "convert", "-q", *args], capture_output=True, text=True,
                          env=environ, preexec_fn=_capped, timeout=seconds + 60, cwd=cwd)
    return done, time.monotonic() - start


def _book(path: Path, cells: dict[str, object]) -> Path:
    wb = openpyxl.Workbook()
    for cell, value in cells.items():
        wb.active[cell] = value
    wb.save(path)
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return _book(tmp_path / "good.xlsx", {"A1": 2, "A2": "=A1*21"})


# --- a sparse sheet: a value in A1 and one in XFD1048576 -------------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_sparse_sheet_to_csv_or_json_is_refused_at_once_naming_the_sheet_and_the_limit(tmp_path: Path, good: Path,
                                                                                          fmt: str) -> None:
    sparse = _book(tmp_path / "sparse.xlsx", {"A1": 1, "XFD1048576": 2})
    done, took = _convert(str(sparse), str(good), "-o", str(tmp_path / "out"), "--format", fmt, seconds=5)
    assert done.returncode == 1, done.stderr
    assert took < START_UP, took
    assert (f"failed: {sparse}: Sheet: its used range A1:XFD1048576 is 1,048,576 rows x 16,384 columns = "
            f"17,179,869,184 cells, more than the max_output_cells = 20,000,000 (XLRATING_MAX_OUTPUT_CELLS) a "
            f"{fmt.upper()} output writes") in done.stderr
    assert not (tmp_path / "out" / f"sparse.{fmt}").exists()  # nothing half-written
    written = (tmp_path / "out" / f"good.{fmt}").read_text()
    assert "42" in written
    assert "converted 1 of 2 workbooks" in done.stderr


def test_a_sparse_sheet_converts_to_xlsx_keeping_only_its_cells(tmp_path: Path) -> None:
    sparse = _book(tmp_path / "sparse.xlsx", {"A1": 1, "XFD1048576": "=A1*2"})
    done, took = _convert(str(sparse), "-o", str(tmp_path / "sparse_out.xlsx"), seconds=5)
    assert done.returncode == 0 and took < START_UP, done.stderr
    ws = openpyxl.load_workbook(tmp_path / "sparse_out.xlsx", data_only=True).active
    assert (ws["A1"].value, ws["XFD1048576"].value) == (1, 2)


def test_a_csv_of_a_sheet_within_the_limit_has_every_row_as_wide_as_its_used_range(tmp_path: Path) -> None:
    # as Excel and LibreOffice save a CSV: empty cells up to the last used column, empty rows kept
    book = _book(tmp_path / "gaps.xlsx", {"A1": 1, "C3": "=A1+1"})
    done, _ = _convert(str(book), "-o", str(tmp_path / "gaps.csv"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "gaps.csv").read_bytes() == b"1,,\r\n,,\r\n,,2\r\n"
    raised, _ = _convert(str(book), "-o", str(tmp_path / "gaps2.csv"), env={"XLRATING_MAX_OUTPUT_CELLS": "8"})
    assert raised.returncode == 1 and "A1:C3 is 3 rows x 3 columns = 9 cells, more than the max_output_cells = 8" \
        in raised.stderr


# --- one formula running past the time limit: stopped inside it, naming the cell --------------------

@pytest.mark.parametrize("formula", [
    "=SUM(MAKEARRAY(2800,2800,LAMBDA(r,c,r)))",  # 7.8 million LAMBDA calls (computed as it is compiled)
    "=LET(x,SEQUENCE(2800),SUM(x*TRANSPOSE(x)))",  # 7.8 million products (within the array cap), one call each
])
def test_one_formula_past_the_time_limit_stops_inside_it_naming_the_cell(tmp_path: Path, good: Path,
                                                                         formula: str) -> None:
    slow = _book(tmp_path / "slow.xlsx", {"B1": 5, "C7": formula})
    done, took = _convert(str(slow), str(good), "-o", str(tmp_path / "out"), seconds=3)
    assert done.returncode == 1, done.stderr
    assert took < 3 + START_UP, took
    assert (f"failed: {slow}: Sheet!C7: still computing after the time limit of 3 s (max_seconds, "
            "XLRATING_MAX_SECONDS)") in done.stderr
    assert not (tmp_path / "out" / "slow.xlsx").exists()
    assert openpyxl.load_workbook(tmp_path / "out" / "good.xlsx", data_only=True).active["A2"].value == 42


def test_ctrl_c_stops_a_formula_being_computed_and_leaves_nothing_written(tmp_path: Path, good: Path) -> None:
    slow = _book(tmp_path / "slow.xlsx", {"A1": "=SUM(MAKEARRAY(2800,2800,LAMBDA(r,c,r)))"})
    environ = {k: v for k, v in os.environ.items() if not k.startswith("XLRATING_MAX_")}
    child = subprocess.Popen([sys.executable, "-m", "xlrating", "convert", "-q", str(slow), str(good), "-o",
                              str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=environ, preexec_fn=_capped)
    time.sleep(START_UP / 2)  # started, and inside the formula (it takes minutes)
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    try:
        _, stderr = child.communicate(timeout=10)
    finally:
        child.kill()
    assert time.monotonic() - stopped < 3, "Ctrl-C was not honoured inside the formula"
    assert child.returncode == 1, stderr
    assert not (tmp_path / "out" / "slow.xlsx").exists()


# --- arrays: a spill larger than the workbook may hold ----------------------------------------------

def test_a_spill_past_the_workbooks_cell_limit_is_that_cells_warning_within_memory(tmp_path: Path, good: Path) -> None:
    big = _book(tmp_path / "big.xlsx", {"A1": "=SEQUENCE(500000,16)", "R1": "=A1+1", "S1": "=SUM(SEQUENCE(2000))"})
    done, took = _convert(str(big), str(good), "-o", str(tmp_path / "out"), seconds=30)
    assert done.returncode == 0, done.stderr
    assert took < 30, took
    assert ("warning: " + str(big) + ": Sheet!A1: its array of 500,000 x 16 = 8,000,000 values would take the "
            "workbook past its limit of max_cells = 2,000,000 (XLRATING_MAX_CELLS) cells") in done.stderr
    ws = openpyxl.load_workbook(tmp_path / "out" / "big.xlsx", data_only=True).active
    assert (ws["A1"].value, ws["A2"].value, ws["R1"].value, ws["S1"].value) == (None, None, None, 2001000)
    assert openpyxl.load_workbook(tmp_path / "out" / "good.xlsx", data_only=True).active["A2"].value == 42
    strict, _ = _convert(str(big), "-o", str(tmp_path / "strict"), "--strict", seconds=30)
    assert strict.returncode == 1


@pytest.mark.parametrize(("formula", "size", "beyond"), [
    ("=LET(x,SEQUENCE(20000),SUM(x*TRANSPOSE(x)))", "20,000 x 20,000 = 400,000,000", "53,687,091 Excel holds"),
    ("=SUM(SEQUENCE(5000)*SEQUENCE(1,5000))", "5,000 x 5,000 = 25,000,000", "16,777,216 the engine holds"),
])
def test_an_operator_making_an_array_past_the_cap_is_refused_before_computing_an_element(
        tmp_path: Path, good: Path, formula: str, size: str, beyond: str) -> None:
    grid = _book(tmp_path / "grid.xlsx", {"A1": formula, "A2": "=1+1"})
    done, took = _convert(str(grid), str(good), "-o", str(tmp_path / "out"), seconds=60)
    assert done.returncode == 0, done.stderr
    assert took < 2 * START_UP, took  # at once, not after building 400 million products
    assert f"warning: {grid}: Sheet!A1: the operator *: an array of {size} values, more than the {beyond}" in done.stderr
    ws = openpyxl.load_workbook(tmp_path / "out" / "grid.xlsx", data_only=True).active
    assert (ws["A1"].value, ws["A2"].value) == (None, 2)  # left for Excel, the rest computed
    assert openpyxl.load_workbook(tmp_path / "out" / "good.xlsx", data_only=True).active["A2"].value == 42


def test_a_spill_within_the_limit_is_written_whole(tmp_path: Path) -> None:
    book = _book(tmp_path / "spill.xlsx", {"A1": "=SEQUENCE(40000,3)", "E1": "=SUM(A1:C40000)"})
    done, took = _convert(str(book), "-o", str(tmp_path / "spill_out.xlsx"), seconds=60)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    ws = openpyxl.load_workbook(tmp_path / "spill_out.xlsx", data_only=True, read_only=True).active
    rows = list(ws.iter_rows(min_row=39_999, max_row=40_000, max_col=5, values_only=True))
    assert rows == [(119995, 119996, 119997, None, None), (119998, 119999, 120000, None, None)]
    assert next(ws.iter_rows(max_row=1, min_col=5, max_col=5, values_only=True))[0] == 120000 * 120001 / 2


# --- the package: one set of limits for every command ----------------------------------------------

def test_convert_refuses_a_part_past_the_limits_validate_holds_it_to(tmp_path: Path, good: Path) -> None:
    # 4.3 MB of shared strings unpacking to 65 MiB (a ratio of 16, under the ratio check): validate's
    # limit for one part is 64 MiB, and convert's is the same
    source = _book(tmp_path / "base.xlsx", {"A1": "x"})
    strings = "".join(f"<si><t>player {i:08d} of the federation</t></si>" for i in range(1_700_000))
    xml = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/'
           f'spreadsheetml/2006/main" count="1700000" uniqueCount="1700000">{strings}</sst>').encode()
    assert len(xml) > 64 * 1024 * 1024
    bomb = tmp_path / "strings.xlsx"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            new.writestr(info.filename, old.read(info.filename))
        new.writestr("xl/sharedStrings.xml", xml)
    assert bomb.stat().st_size < 5_000_000  # a file far within the 50 MiB limit
    done, took = _convert(str(bomb), str(good), "-o", str(tmp_path / "out"), seconds=10)
    assert done.returncode == 1 and took < START_UP, (took, done.stderr)
    assert f"failed: {bomb}: " in done.stderr and "max_member_bytes = 67,108,864 (XLRATING_MAX_MEMBER_BYTES)" \
        in done.stderr
    assert (tmp_path / "out" / "good.xlsx").exists()
