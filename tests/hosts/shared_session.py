"""One LibreOffice session per test module, shared by the pytest-xdist workers of a run: the first
worker to arrive runs it (under a file lock) and leaves its JSON result for the others."""

from __future__ import annotations

import json
import os
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


def install_addin(folder: Path, soffice: Path | None = None, profile: str = "profile") -> Any:
    """Install the add-in into a private profile ``folder / profile`` (``xlrating libreoffice install``)
    of the system's LibreOffice or the one of ``soffice``; the LibreOffice it went into."""
    from click.testing import CliRunner

    from xlrating.cli import main
    from xlrating.hosts.libreoffice_install import find_office

    office = find_office(str(soffice) if soffice else None)
    if office.python is None:
        pytest.fail(f"LibreOffice's Python (with uno) not found for {office.soffice}: install python3-uno")
    chosen = ["--soffice", str(soffice)] if soffice else []
    installed = CliRunner().invoke(main, ["libreoffice", "install", "--profile", str(folder / profile), *chosen])
    assert installed.exit_code == 0, installed.output
    return office


# LibreOffice 7.4 beside the system's, as .ci/libreoffice-7.4.sh unpacks it (or $XLRATING_LIBREOFFICE_74).
SOFFICE_74 = Path(os.environ.get("XLRATING_LIBREOFFICE_74", "/opt/libreoffice-7.4/program/soffice"))
MISSING_74 = (f"LibreOffice 7.4 is not at {SOFFICE_74} (.ci/libreoffice-7.4.sh puts it there; or set "
              "XLRATING_LIBREOFFICE_74 to its soffice)")


def libreoffice_74() -> Path | None:
    """The soffice of LibreOffice 7.4 when it is there."""
    return SOFFICE_74 if SOFFICE_74.is_file() else None
