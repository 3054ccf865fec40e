"""The rating maths, the registry of systems, the store, the submitted sheets, the gate and the web
type-check strictly (``mypy --strict``, the files pyproject.toml names): a change that passes an
``Optional`` where a value is needed, or returns the wrong record, fails here before a user meets it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_the_layers_that_promise_types_type_check_strictly(tmp_path: Path) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert {"xlrating/core", "xlrating/systems", "xlrating/store", "xlrating/sheets", "xlrating/web"} <= set(
        config["files"])
    completed = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=ROOT,
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
