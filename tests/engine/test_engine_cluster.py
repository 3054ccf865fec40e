"""``xlrating convert --scheduler``: a batch converted on a Dask cluster (two worker processes on this
computer) writes the bytes a local ``--jobs 2`` writes, reports a failed workbook by name and
finishes the others; the Python call of docs/engine.md does the same; the client's limits hold on
the workers; a cluster that cannot be used is bad usage (exit 2)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import dask
import openpyxl
import pytest
from click.testing import CliRunner
from distributed import Client, LocalCluster  # the test extra installs it: these tests never skip

from tests.engine.engine_books import native_book
from xlrating.cli import main
from xlrating.engine.batch import convert_limits, expand_inputs, plan, run
from xlrating.engine.cluster import ClusterError, run_on_cluster

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
                      silence_logs=logging.ERROR) as local:
        yield local


def _rating_book(path: Path, value: int) -> None:
    wb = openpyxl.Workbook()
    wb.active["A1"] = value
    wb.active["B1"] = "=DIPPOUCH_PERCENTILE(10,A1)"
    wb.active["C1"] = "=TODAY()"
    wb.active["D1"] = '=CELL("filename",A1)'  # the workbook's full path where it was read
    wb.save(path)


def _folder(root: Path) -> Path:
    """Five workbooks in a folder and its subfolder, one of them not a workbook at all."""
    folder = root / "in"
    (folder / "season").mkdir(parents=True)
    native_book(folder / "results.xlsx")
    native_book(folder / "season" / "long.xlsx", rows=300)
    _rating_book(folder / "pouch.xlsx", 3)
    _rating_book(folder / "season" / "pouch-late.xlsx", 7)
    (folder / "broken.xlsx").write_bytes(b"PK\x03\x04 this is no zip archive")
    return folder


def _convert(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (``--jobs 2`` forks: not from this one, whose threads run the cluster)."""
    return subprocess.run([sys.executable, "-m", "xlrating", "convert", *args], capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})}, timeout=300)


def _on_cluster(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command with ``--scheduler``, run here (its client is one more thread of this process)."""
    result = CliRunner().invoke(main, ["convert", *args], env=env)
    return subprocess.CompletedProcess(args, result.exit_code, "", result.stderr)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _failures(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("failed:")]


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_a_folder_converted_on_the_cluster_is_byte_for_byte_what_jobs_2_writes(
        cluster: LocalCluster, tmp_path: Path, fmt: str) -> None:
    folder = _folder(tmp_path)
    options = ["--format", fmt, "--now", "2026-07-23"]
    local = _convert(str(folder), "-o", str(tmp_path / "local"), "--jobs", "2", *options)
    remote = _on_cluster(str(folder), "-o", str(tmp_path / "cluster"), "--scheduler", cluster.scheduler_address,
                         *options)
    assert local.returncode == 1, local.stderr
    assert remote.returncode == 1, remote.stderr  # a workbook failed, as convert says of failures
    written = _files(tmp_path / "cluster")
    assert written == _files(tmp_path / "local")
    assert len(written) == (4 if fmt == "xlsx" else 6)  # csv: the two-sheet workbooks give a file per sheet
    assert not any(name.endswith(".part") for name in written)
    # the failed workbook named with its reason, as a local run names it; the others finished
    assert _failures(remote.stderr) == _failures(local.stderr)
    assert _failures(remote.stderr)[0].startswith(f"failed: {folder / 'broken.xlsx'}: ")
    assert "converted 4 of 5 workbooks" in remote.stderr and "1 failed" in remote.stderr
    assert "Traceback" not in remote.stderr


def test_the_python_call_on_a_cluster_gives_the_outcomes_and_files_of_a_local_run(
        cluster: LocalCluster, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    limits = convert_limits()
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        jobs = plan(expand_inputs([str(folder)]), str(tmp_path / "cluster"), "json", False)
        seen: list[str] = []
        outcomes = run_on_cluster(client, jobs, limits, lambda outcome: seen.append(outcome.job.source.name))
    local = run(plan(expand_inputs([str(folder)]), str(tmp_path / "local"), "json", False), 1, limits)
    assert [(o.job.source, o.ok, o.message, o.warnings) for o in outcomes] == \
        [(o.job.source, o.ok, o.message, o.warnings) for o in local]
    assert [[p.name for p in o.written] for o in outcomes] == [[p.name for p in o.written] for o in local]
    assert all(p.parent == tmp_path / "cluster" for o in outcomes for p in o.written)
    assert sorted(seen) == sorted(job.source.name for job in jobs)
    assert _files(tmp_path / "cluster") == _files(tmp_path / "local")
    # CELL("filename") is the path on this computer, where the workbook is, not where it was computed
    pouch = (tmp_path / "cluster" / "pouch.json").read_text()
    assert f'"{folder}{os.sep}[pouch.xlsx]Sheet"' in pouch


def test_the_clients_limits_hold_on_the_workers(cluster: LocalCluster, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    native_book(folder / "results.xlsx")  # some 200 cells
    _rating_book(folder / "pouch.xlsx", 3)  # 4 cells
    limit = {"XLRATING_MAX_CELLS": "50"}  # set for the command only: the workers never saw it
    local = _convert(str(folder), "-o", str(tmp_path / "local"), env=limit)
    remote = _on_cluster(str(folder), "-o", str(tmp_path / "cluster"), "--scheduler", cluster.scheduler_address,
                         env=limit)
    assert remote.returncode == local.returncode == 1
    assert _failures(remote.stderr) == _failures(local.stderr)
    assert "results.xlsx" in _failures(remote.stderr)[0] and "XLRATING_MAX_CELLS" in _failures(remote.stderr)[0]
    assert _files(tmp_path / "cluster") == _files(tmp_path / "local") != {}


def test_a_scheduler_without_workers_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    _rating_book(tmp_path / "pouch.xlsx", 3)
    with LocalCluster(n_workers=0, processes=True, dashboard_address=":0", silence_logs=logging.ERROR) as empty, \
            Client(empty.scheduler_address, set_as_default=False) as client:
        jobs = plan([tmp_path / "pouch.xlsx"], str(tmp_path / "out"), None, False)
        with pytest.raises(ClusterError, match="no worker joined the Dask scheduler at tcp://.* within 0.5 s"):
            run_on_cluster(client, jobs, wait_for_workers=0.5)
    assert not (tmp_path / "out").exists()


def test_a_scheduler_lost_is_said_so(tmp_path: Path) -> None:
    _rating_book(tmp_path / "pouch.xlsx", 3)
    gone = LocalCluster(n_workers=0, processes=True, dashboard_address=":0", silence_logs=logging.ERROR)
    with Client(gone.scheduler_address, set_as_default=False, timeout=1) as client:  # 1 s to connect again
        gone.close()
        with pytest.raises(ClusterError, match="lost the Dask scheduler"):
            run_on_cluster(client, plan([tmp_path / "pouch.xlsx"], str(tmp_path / "out"), None, False))
    assert not (tmp_path / "out").exists()


def test_a_scheduler_that_cannot_be_used_is_bad_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _rating_book(tmp_path / "pouch.xlsx", 3)
    source, out = str(tmp_path / "pouch.xlsx"), str(tmp_path / "out")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):  # DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT
        nobody = _on_cluster(source, "-o", out, "--scheduler", "tcp://127.0.0.1:9")
    assert nobody.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in nobody.stderr
    both = _on_cluster(source, "-o", out, "--scheduler", "tcp://127.0.0.1:9", "--jobs", "2")
    assert both.returncode == 2 and "--jobs counts this computer's processes" in both.stderr
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    without = _on_cluster(source, "-o", out, "--scheduler", "tcp://127.0.0.1:9")
    assert without.returncode == 2
    assert "pip install 'xlrating[cluster]'" in without.stderr
    assert not Path(out).exists()
