"""Reference tables shipped with the package as CSV data (``xlrating/core/data``), not code."""

from __future__ import annotations

import csv
import functools
from importlib import resources


@functools.cache
def load(name: str) -> tuple[dict[str, str], ...]:
    """Rows of a bundled CSV table (comment lines starting with ``#`` skipped)."""
    text = resources.files("xlrating.core.data").joinpath(name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return tuple(csv.DictReader(lines))
