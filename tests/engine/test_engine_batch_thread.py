"""A batch runs whole on one deep-stack thread (one process) or in shares of workbooks (workers):
deep formulas are still computed in every workbook of it, every workbook is in exactly one share,
and Ctrl-C ends the workbook being written before the command stops."""

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

from xlrating.engine import batch
from xlrating.engine.evaluate.stack import RECURSION_LIMIT, with_deep_stack


def _book(path: Path, formula: str, value: float = 2) -> Path:
    wb = openpyxl.Workbook()
    wb.active["A1"] = value
    wb.active["B1"] = formula
    wb.save(path)
    return path


def _cached(path: Path) -> object:
    return openpyxl.load_workbook(path, data_only=True).active["B1"].value


def test_deep_formulas_are_computed_in_every_workbook_of_a_batch(tmp_path: Path) -> None:
    deep = "=" + "(" * 4000 + "A1" + ")" * 4000  # deeper than Python's own stack allows
    books = [_book(tmp_path / f"b{i}.xlsx", deep if i % 2 else "=A1*3", value=i + 1) for i in range(4)]
    jobs = batch.plan(books, str(tmp_path / "out"), None, False)
    outcomes = batch.run(jobs, 1)
    assert [o.ok for o in outcomes] == [True] * 4, [o.message for o in outcomes]
    assert [_cached(tmp_path / "out" / f"b{i}.xlsx") for i in range(4)] == [3, 2, 9, 4]


def test_a_deep_stack_call_made_on_the_deep_stack_runs_there_at_once() -> None:
    import threading

    def inner() -> tuple[str, int]:
        return threading.current_thread().name, sys.getrecursionlimit()

    outer_name, inner_call = with_deep_stack(lambda: (threading.current_thread().name, with_deep_stack(inner)))
    assert outer_name == inner_call[0] == "xlrating-evaluate"
    assert inner_call[1] >= RECURSION_LIMIT
    assert sys.getrecursionlimit() < RECURSION_LIMIT  # lowered again once the outer call ends


def _jobs(tmp_path: Path, sizes: list[int]) -> list[batch.Job]:
    paths = []
    for i, size in enumerate(sizes):
        path = tmp_path / f"b{i:03d}.xlsx"
        path.write_bytes(b"x" * size)
        paths.append(path)
    return batch.plan(paths, str(tmp_path / "out"), None, False)


def test_small_workbooks_go_to_the_workers_in_shares_in_order(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, [10_000] * 200)
    groups = batch.shares(jobs, 2)
    assert [i for group in groups for i in group] == list(range(200))  # each once, in order
    assert max(len(g) for g in groups) <= batch.CHUNK_JOBS
    assert len(groups) >= 2 * 8  # several shares for each worker: none waits long for the last


def test_a_large_workbook_is_a_share_of_its_own_and_a_short_batch_is_spread_thin(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, [1000, 1000, batch.CHUNK_BYTES + 1, 1000, 1000])
    groups = batch.shares(jobs, 2)
    assert [2] in groups
    assert all(len(g) == 1 for g in groups)  # 5 workbooks for 2 workers: one each at a time
    missing = batch.plan([tmp_path / "nowhere.xlsx"], str(tmp_path / "out"), None, False)
    assert batch.shares(missing, 2) == [[0]]  # a file that is not there fails in its worker, not here


def test_shares_give_the_outcomes_of_every_workbook_in_order(tmp_path: Path) -> None:
    books = [_book(tmp_path / f"b{i}.xlsx", "=A1*10", value=i) for i in range(20)]
    books.insert(7, tmp_path / "missing.xlsx")
    outcomes = batch.run(batch.plan(books, str(tmp_path / "out"), None, False), 2)
    assert [o.job.source for o in outcomes] == books
    assert [o.ok for o in outcomes] == [True] * 7 + [False] + [True] * 13
    assert "missing.xlsx" in outcomes[7].message
    assert [_cached(tmp_path / "out" / f"b{i}.xlsx") for i in range(20)] == [i * 10 for i in range(20)]


def _as_at_a_terminal() -> None:
    """Ctrl-C delivered as at a terminal: a child inherits its parent's ignored and blocked signals
    (a test runner's worker may hold SIGINT so), which a command started from a shell does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_the_batch_after_the_workbook_it_is_on(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "in").mkdir()
    rows = 3000
    for i in range(40):
        wb = openpyxl.Workbook()
        for r in range(1, rows + 1):
            wb.active[f"A{r}"] = r + i
            wb.active[f"B{r}"] = f"=ROUND(A{r}*1.07,2)+SUM($A$1:A{r})"
        wb.save(tmp_path / "in" / f"b{i:02d}.xlsx")
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-m", "xlrating", "convert", "-q", str(tmp_path / "in"), "-o",
                              str(out), "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True,  # its own group: the signal goes to it and its workers
                             preexec_fn=_as_at_a_terminal)
    deadline = time.monotonic() + 60
    while not (out.exists() and any(out.iterdir())) and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.01)
    os.killpg(child.pid, signal.SIGINT)  # as Ctrl-C at a terminal: every process of the command
    child.communicate(timeout=60)
    assert child.returncode != 0
    written = sorted(out.iterdir())
    assert 0 < len(written) < 40  # stopped part way through
    for path in written:  # and every workbook it wrote is whole
        with zipfile.ZipFile(path) as archive:
            assert archive.testzip() is None
        sheet = openpyxl.load_workbook(path, data_only=True).active
        assert sheet[f"B{rows}"].value is not None


def test_an_evaluation_interrupted_while_its_body_runs_leaves_the_next_one_its_own_thread() -> None:
    import threading

    from xlrating.engine.evaluate import stack

    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(10)
        return "slow"

    def interrupted_wait(wait, stop) -> None:  # type: ignore[no-untyped-def]  # Ctrl-C once the body runs
        started.wait(10)
        raise KeyboardInterrupt

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(stack, "_wait", interrupted_wait)
            with pytest.raises(KeyboardInterrupt):
                stack.with_deep_stack(slow)
        assert stack._kept._thread is None  # the busy thread is not handed the next body
        assert stack.with_deep_stack(lambda: "next") == "next"
    finally:
        release.set()
