"""The example submissions as LibreOffice saves them, converted once per test run for every
pytest-xdist worker (the browser and the load tests both upload them): examples 01-06 as .ods,
the faulty example 06 as .xls, examples 01-05 as UTF-8 .csv (each example's first sheet)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HOSTS = Path(__file__).resolve().parents[1] / "hosts"
if str(HOSTS) not in sys.path:
    sys.path.insert(0, str(HOSTS))

from shared_session import shared_session

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONVERSIONS = [("ods", "0[1-6]_*.xlsx"), ("xls", "06_*.xlsx"), ("csv:Text - txt - csv (StarCalc):44,34,76", "0[1-5]_*.xlsx")]


def _convert(folder: Path) -> dict[str, Any]:
    soffice = shutil.which("soffice")
    assert soffice is not None
    profile = (folder / "profile").as_uri()
    for target, pattern in CONVERSIONS:  # one profile, so only the first start pays for making it
        subprocess.run([soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to",
                        target, "--outdir", str(folder), *map(str, sorted(EXAMPLES.glob(pattern)))],
                       capture_output=True, check=True, timeout=180)
    shutil.rmtree(folder / "profile", ignore_errors=True)
    return {"folder": str(folder), "files": sorted(p.name for p in folder.iterdir() if p.is_file())}


def libreoffice_copies(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Path] | None:
    """File name -> path of every converted copy; None without LibreOffice (``soffice``)."""
    if shutil.which("soffice") is None:
        return None
    done = shared_session(tmp_path_factory, worker_id, "web-libreoffice-copies", _convert)
    return {name: Path(done["folder"]) / name for name in done["files"]}
