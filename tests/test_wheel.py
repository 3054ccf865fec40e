"""Everything a spreadsheet user needs arrives with ``pip install xlrating``.

The wheel is built from the source tree, installed into a fresh virtualenv outside the checkout
(its dependencies taken from the test virtualenv through a ``.pth`` line, so nothing is downloaded
but the build backend), and run from an empty folder: ``xlrating templates -o OUT`` writes the four
workbook templates and both VBA modules, identical to the committed copies in
``workbook_templates/`` and ``macros/``, and exactly the files the checkout's command writes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.hosts.vba import BAS_NAME
from xlrating.sheets.templates import BUTTONS_BAS, TEMPLATES

REPO = Path(__file__).resolve().parents[1]
NO_NETWORK = ("Could not find a version that satisfies", "No matching distribution", "Failed to establish",
              "Temporary failure in name resolution", "Network is unreachable")

pytestmark = pytest.mark.slow


def _run(command: list[str | Path], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel --no-deps`` of a copy of the source tree (the build leaves nothing in the checkout)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "xlrating", source / "xlrating", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", source], work)
    if built.returncode != 0 and any(sign in built.stderr for sign in NO_NETWORK):
        pytest.skip(f"the build backend (setuptools) cannot be fetched: {built.stderr.strip()[-200:]}")
    assert built.returncode == 0, built.stderr
    [path] = (work / "dist").glob("xlrating-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv holding the wheel; returns its ``bin`` folder."""
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv], venv.parent)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    done = _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel],
                venv.parent)
    assert done.returncode == 0, done.stderr
    # The dependencies (openpyxl, click, ...) from the test virtualenv: a path line in a .pth file adds
    # that folder after the fresh one, without running its own .pth files (so not this checkout's
    # editable install of xlrating).
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], venv.parent)
    site = Path(purelib.stdout.strip())
    (site / "test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def test_the_wheel_carries_the_buttons_module_and_the_package_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert f"xlrating/sheets/templates/{BUTTONS_BAS}" in names
    assert {"xlrating/py.typed", "xlrating/core/data/ema_countries.csv"} <= names
    assert not any(name.startswith(("tests/", "benchmarks/", "examples/")) for name in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "xlrating = xlrating.cli:entry" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    shown = _run([installed / "python", "-c", "import xlrating; print(xlrating.__file__)"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert Path(shown.stdout.strip()).is_relative_to(installed.parent)


def test_templates_out_writes_the_templates_and_both_vba_modules_as_committed(installed: Path,
                                                                               tmp_path: Path) -> None:
    done = _run([installed / "xlrating", "templates", "-o", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    written = _tree(tmp_path / "out")
    for name in TEMPLATES:
        assert written[name] == (REPO / "workbook_templates" / name).read_bytes(), name
    for name in (BAS_NAME, BUTTONS_BAS):
        assert written[name] == (REPO / "macros" / name).read_bytes(), name
    # ...and every other file the checkout's own command writes (such as the LibreOffice add-in's sources)
    result = CliRunner().invoke(main, ["templates", "-o", str(tmp_path / "checkout")])
    assert result.exit_code == 0, result.output
    assert written == _tree(tmp_path / "checkout")


def test_templates_without_out_fills_the_current_folder(installed: Path, tmp_path: Path) -> None:
    done = _run([installed / "xlrating", "templates"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert {p.name for p in (tmp_path / "workbook_templates").iterdir()} == set(TEMPLATES)
    assert {BAS_NAME, BUTTONS_BAS} <= {p.name for p in (tmp_path / "macros").iterdir()}
