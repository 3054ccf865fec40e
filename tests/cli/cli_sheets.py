"""A small valid EMA results sheet for the command-line tests (validate, ingest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xlrating.sheets.examples.builders import build_workbook

HEADER = ["Position", "EMA ID", "Last name", "First name", "Country"]
ROWS = [[1, "04000001", "Abel", "Ann", "FRA"], [2, "05000002", "Berg", "Bo", "GER"],
        [3, "04000003", "Cole", "Cy", "FRA"]]


def save_sheet(path: Path, block: list[tuple[str, Any]], rows: list[list[Any]] = ROWS) -> str:
    """Write a results sheet with tournament ``block`` and player ``rows`` to ``path``."""
    build_workbook(block, HEADER, rows).save(path)
    return str(path)
