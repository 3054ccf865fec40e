"""What several web tests read: a store holding every bundled example of the three systems."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
