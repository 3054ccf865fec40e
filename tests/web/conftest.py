"""What several web tests read: a store holding every bundled example of the three systems."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="session")
def examples_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The five valid EMA example sheets (MCR and Riichi, 2023-2025), the Dip Pouch results table
    and the DCI matches, ingested as ``xlrating ingest`` does. Read it, never write to it."""
    path = tmp_path_factory.mktemp("examples") / "store.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(path),
                    *map(str, sorted(EXAMPLES.glob("0[1-5]_*.xlsx"))),
                    str(EXAMPLES / "tables" / "dippouch_results.csv"), str(EXAMPLES / "tables" / "dci_matches.csv")],
                   check=True, capture_output=True)
    return path


CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium (the OS package) driven by Playwright, for one test module; the test is skipped
    where either is not installed."""
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (/usr/bin/chromium or chromium on PATH)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()
