"""Runs many ``xlrating`` command lines in one process and reports each outcome as JSON.

Used by test_hostile_cli.py: starting one Python per (command, file) pair would cost ~0.5 s each,
so one child runs a whole list through the real click entry point (``xlrating.cli.main`` with
the same argv a shell would pass), timing each and guarding each with an alarm. The child sets
an address-space ceiling on itself first; its peak resident memory, read at the end, bounds every
job it ran.

stdin: JSON ``[{"args": [...], "env": {...}, "alarm": seconds (optional)}, ...]``; stdout: JSON
``{"jobs": [{"status", "stdout", "stderr", "seconds"}], "peak_mb": float, "children_peak_mb": float}``
(the children: processes a job started and waited for, such as the capped reader of an .xls).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

CEILING = int(os.environ.get("XLRATING_TEST_ADDRESS_SPACE", str(3 * 1024**3)))
ALARM_S = 11  # just over the 10 s bound of a refusal: a job still running then has failed anyway


def _alarm(signum: int, frame: object) -> None:
    raise TimeoutError("still running after its time bound")


def run_job(args: list[str], env: dict[str, str], alarm: int = ALARM_S) -> dict[str, object]:
    from xlrating.cli import main

    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    signal.alarm(alarm)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main.main(args, prog_name="xlrating", standalone_mode=True)
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # noqa: BLE001 - an escaped exception is exactly what the test looks for
        err.write(traceback.format_exc())
        status = -1
    finally:
        signal.alarm(0)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue(),
            "seconds": time.monotonic() - started}


def _own_peak_kb() -> int:
    """This process's peak resident memory (VmHWM). ru_maxrss of RUSAGE_SELF is not it: Linux keeps
    the high-water mark of the process that forked us across exec (a pytest worker grown past the
    bound would fail every job)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:  # not Linux: ru_maxrss is the best there is
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(re.search(r"VmHWM:\s*(\d+)", status).group(1))  # type: ignore[union-attr]


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CEILING, CEILING))
    signal.signal(signal.SIGALRM, _alarm)
    jobs = json.load(sys.stdin)
    results = [run_job(job["args"], job.get("env", {}), int(job.get("alarm", ALARM_S))) for job in jobs]
    peak = _own_peak_kb() / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    json.dump({"jobs": results, "peak_mb": peak, "children_peak_mb": children}, sys.stdout)


if __name__ == "__main__":
    main()
