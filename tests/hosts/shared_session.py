"""One LibreOffice session per test module, shared by the pytest-xdist workers of a run: the first
worker to arrive runs it (under a file lock) and leaves its JSON result for the others."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

fcntl = pytest.importorskip("fcntl")


def shared_session(tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str,
                   run: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """``run(folder)``'s result, computed once per test run for all workers."""
    base = tmp_path_factory.getbasetemp()
    root = base if worker_id == "master" else base.parent
    folder = root / name
    done = folder / "session.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            folder.mkdir(exist_ok=True)
            done.write_text(json.dumps(run(folder)))
    result: dict[str, Any] = json.loads(done.read_text())
    return result


def install_addin(folder: Path) -> Any:
    """Install the add-in into a private profile under ``folder`` (``xlrating libreoffice install``);
    the LibreOffice it went into."""
    from click.testing import CliRunner

    from xlrating.cli import main
    from xlrating.hosts.libreoffice_install import find_office

    office = find_office()
    if office.python is None:
        pytest.fail("LibreOffice's Python (with uno) not found: install python3-uno")
    installed = CliRunner().invoke(main, ["libreoffice", "install", "--profile", str(folder / "profile")])
    assert installed.exit_code == 0, installed.output
    return office
