"""A real ``xlrating serve`` process on a loopback port, for the browser and load tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OFFICER = ("officer", "a long test password")  # set through the environment, as a deployment would


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(db: Path, *options: str, log: Path | None = None) -> Iterator[str]:
    """Start ``xlrating serve --db DB`` on a free loopback port; yields its base URL; stops it."""
    port = free_port()
    env = os.environ | {"XLRATING_OFFICER_USER": OFFICER[0], "XLRATING_OFFICER_PASSWORD": OFFICER[1],
                        "XLRATING_SECRET_KEY": "test-secret-key-for-this-run"}
    with open(log or os.devnull, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "xlrating", "serve", "--db", str(db), "--port", str(port),
                                    *options], env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"xlrating serve exited with {process.returncode}"
                                       + (f"; log: {log.read_text()[-2000:]}" if log else ""))
                try:
                    with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
