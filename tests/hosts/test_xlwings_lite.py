"""xlrating's functions for xlwings Lite: the generated main.py in real Pyodide, run by xlwings' own code.

xlwings Lite (an Excel add-in) runs main.py in Pyodide, registers its functions from xlwings'
``custom_functions_meta`` and computes every cell with xlwings' ``custom_functions_call``, given
the arguments Excel hands an Office.js custom function. The same happens here, without Excel:

- in Pyodide 0.27.5 (the npm package pinned in ``tests/hosts/pyodide``, run by Node, offline: the
  driver refuses network access), the pure-Python files of the installed xlwings 0.37.8 - the
  version ``requirements.txt`` pins, whose py3-none-any wheel xlwings Lite installs - import the
  generated main.py and compute every call; Pyodide has no numpy;
- in CPython, xlwings' metadata generator lists the twelve functions with their arguments.

xlwings' Office.js code needs a license key to import; "noncommercial" is the key xlwings accepts for
noncommercial use, set for these processes only. What only Excel can show: Excel's side of the
add-in (Office.js reading the cells and writing the results, the spill on screen, the argument help
while typing) and xlwings Lite's editor keeping main.py in the workbook.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lite_cases import README_EXAMPLES, example_table_calls, office_js_args, office_js_result, random_calls

from xlrating.cli import main as cli
from xlrating.functions import FUNCTIONS, call
from xlrating.hosts import xlwings_lite

PYODIDE = Path(__file__).resolve().parent / "pyodide"
NODE = shutil.which("node")
XLWINGS_ENV = {"XLWINGS_ON_SERVER": "true", "XLWINGS_LICENSE_KEY": "noncommercial"}
SEED = 20261201

needs_pyodide = pytest.mark.skipif(
    NODE is None or not (PYODIDE / "node_modules" / "pyodide" / "pyodide.mjs").is_file(),
    reason="Node or the pinned Pyodide is missing: run `npm ci --prefix tests/hosts/pyodide`")

# Run in Pyodide: xlwings as xlwings Lite uses it (XLWINGS_ON_SERVER makes `from xlwings import func,
# arg` the decorators of xlwings.server), then each call as xlwings Lite makes it.
_HARNESS = r"""
import importlib.util, json, os, sys
sys.dont_write_bytecode = True  # xlwings is mounted from the host: write nothing there
os.environ.update(json.loads(open("/lite/env.json").read()))
sys.path.insert(0, "/site")
numpy_installed = importlib.util.find_spec("numpy") is not None
import xlwings, xlwings.server
spec = importlib.util.spec_from_file_location("main", "/lite/main.py")
main = importlib.util.module_from_spec(spec)
spec.loader.exec_module(main)
results = []
for request in json.loads(open("/lite/calls.json", encoding="utf-8").read()):
    data = {"func_name": request["name"], "args": request["args"], "version": xlwings.__version__,
            "client": "Office.js", "runtime": "1.4", "date_format": None, "culture_info_name": "en-US"}
    try:
        results.append(await xlwings.server.custom_functions_call(data, main))
    except Exception as exc:
        results.append({"raised": repr(exc)})
json.dumps({"platform": sys.platform, "numpy_installed": numpy_installed, "numpy_imported": "numpy" in sys.modules,
            "xlwings": xlwings.__version__, "xlrating": sys.modules["xlrating.functions"].__file__,
            "registered": sorted(n for n in dir(main) if hasattr(getattr(main, n), "__xlfunc__")),
            "results": results})
"""


@pytest.fixture(scope="module")
def lite_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lite")
    xlwings_lite.write(folder)
    return folder


def _all_calls() -> list[tuple[str, list[Any]]]:
    readme = [(name, args) for name, args, _, _ in README_EXAMPLES]
    return readme + example_table_calls() + random_calls(SEED, per_function=40)


@pytest.fixture(scope="module")
def pyodide_run(lite_folder: Path) -> dict[str, Any]:
    """Every call computed in Pyodide by xlwings' call path on the generated main.py."""
    spec = importlib.util.find_spec("xlwings")
    assert spec is not None and spec.submodule_search_locations
    encode = random.Random(SEED + 1)
    calls = [{"name": name, "args": office_js_args(args, encode)} for name, args in _all_calls()]
    request = {"files": {"/lite/main.py": (lite_folder / "main.py").read_text(encoding="utf-8"),
                         "/lite/calls.json": json.dumps(calls), "/lite/env.json": json.dumps(XLWINGS_ENV)},
               "mounts": {"/site/xlwings": spec.submodule_search_locations[0]},
               "code": _HARNESS}
    completed = subprocess.run([NODE or "node", str(PYODIDE / "run_python.mjs")], input=json.dumps(request),
                               capture_output=True, text=True, timeout=600, check=False, cwd=PYODIDE)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def _same(got: Any, expected: Any) -> bool:
    """Cell for cell; numbers to full double precision (1e-12: a libm may differ in the last bit)."""
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(_same, got, expected))
    numbers = (int, float)
    if isinstance(expected, numbers) and not isinstance(expected, bool):
        return (isinstance(got, numbers) and not isinstance(got, bool)
                and math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12))
    return bool(got == expected and type(got) is type(expected))


@needs_pyodide
def test_main_py_runs_in_pyodide_without_numpy(pyodide_run: dict[str, Any]) -> None:
    assert pyodide_run["platform"] == "emscripten"
    assert pyodide_run["numpy_installed"] is False and pyodide_run["numpy_imported"] is False
    assert pyodide_run["xlwings"] == xlwings_lite.XLWINGS_VERSION
    assert re.fullmatch(r"/tmp/xlrating-lite-[0-9a-f]{16}/xlrating/functions\.py", pyodide_run["xlrating"])
    assert pyodide_run["registered"] == sorted(f.name for f in FUNCTIONS)


@needs_pyodide
def test_the_readme_worked_examples_compute_in_pyodide(pyodide_run: dict[str, Any]) -> None:
    for (name, args, shown, decimals), got in zip(README_EXAMPLES, pyodide_run["results"]):
        if shown == "#N/A":
            assert got == [[{"type": "Error", "errorType": "NotAvailable"}]], (name, args)
        else:
            assert round(got[0][0], decimals) == shown, (name, args, got)


@needs_pyodide
def test_every_call_in_pyodide_equals_the_python_api_cell_for_cell(pyodide_run: dict[str, Any]) -> None:
    calls = _all_calls()
    results = pyodide_run["results"]
    assert len(results) == len(calls)
    expected = [office_js_result(call(name, args)) for name, args in calls]
    wrong = [(name, args, got, want) for (name, args), got, want in zip(calls, results, expected)
             if not _same(got, want)]
    assert not wrong, f"{len(wrong)} of {len(calls)} calls differ, e.g. {wrong[:3]}"
    # the calls hold what a spreadsheet holds: ranges spilling results, failed cells, whole tables
    cells = [cell for result in expected for row in result for cell in row]
    errors = {c["errorType"] for c in cells if isinstance(c, dict)}
    assert {"Value", "Num", "NotAvailable"} <= errors and errors & {"Div0", "Name", "Null", "Ref"}  # propagated
    assert sum(isinstance(c, float) for c in cells) > 400
    assert sum(len(result) > 1 or len(result[0]) > 1 for result in expected) > 100


def test_xlwings_metadata_generator_lists_the_twelve_functions(lite_folder: Path, tmp_path: Path) -> None:
    script = ("import importlib.util, json, sys\n"
              "import xlrating.functions  # imported before main.py, whose own copy must take its place\n"
              "import xlwings, xlwings.server\n"
              "spec = importlib.util.spec_from_file_location('main', sys.argv[1])\n"
              "main = importlib.util.module_from_spec(spec)\n"
              "spec.loader.exec_module(main)\n"
              "print(json.dumps({'meta': xlwings.server.custom_functions_meta(main),\n"
              "                  'xlrating': sys.modules['xlrating.functions'].__file__}))\n")
    env = {**os.environ, **XLWINGS_ENV, "TMPDIR": str(tmp_path)}
    completed = subprocess.run([sys.executable, "-c", script, str(lite_folder / "main.py")], env=env,
                               capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 0, completed.stderr
    out = json.loads(completed.stdout)
    assert Path(out["xlrating"]).is_relative_to(tmp_path)
    listed = {f["name"]: f for f in out["meta"]["functions"]}
    assert sorted(listed) == sorted(f.name for f in FUNCTIONS)
    for function in FUNCTIONS:
        entry = listed[function.name]
        assert entry["id"] == function.name and entry["description"].startswith(function.doc)
        assert entry["result"] == {"dimensionality": "matrix", "type": "any"}
        assert [(p["name"], p["description"], p.get("optional", False), p["dimensionality"], p["type"])
                for p in entry["parameters"]] == [(a.name, a.doc, a.optional, "matrix", "any")
                                                  for a in function.arguments]


def test_xlrating_lite_writes_main_py_and_requirements(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["lite", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "main.py").read_text(encoding="utf-8") == xlwings_lite.render_main()
    requirements = (tmp_path / "out" / "requirements.txt").read_text(encoding="utf-8")
    assert [line for line in requirements.splitlines() if not line.startswith("#")] == [
        f"xlwings=={xlwings_lite.XLWINGS_VERSION}"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["main.py", "requirements.txt"]
    assert "wrote" in result.output and "main.py" in result.output


def test_xlrating_lite_refuses_a_folder_it_cannot_create(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    result = CliRunner().invoke(cli, ["lite", "-o", str(tmp_path / "file" / "out")])
    assert result.exit_code == 2
    assert "cannot write" in result.output and str(tmp_path / "file") in result.output


def test_requirements_pin_the_xlwings_the_tests_run() -> None:
    import xlwings

    constraints = (Path(__file__).resolve().parents[2] / "requirements" / "constraints.txt").read_text()
    assert f"xlwings=={xlwings_lite.XLWINGS_VERSION}" in constraints.splitlines()
    assert xlwings.__version__ == xlwings_lite.XLWINGS_VERSION


def test_main_py_carries_the_modules_exactly(lite_folder: Path) -> None:
    tree = ast.parse((lite_folder / "main.py").read_text(encoding="utf-8"))
    carried = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_XLRATING")
    files = xlwings_lite.carried_files()
    assert carried == {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    assert "xlrating/core/mers/replay.py" in carried and "xlrating/core/data/dci_k_tiers.csv" in carried


def test_text_literal_keeps_any_text() -> None:
    for text in ["plain", "ends with a quote'", "'''", "''''''''", "x''", "a\\b\\n", "tab\tcr\r\nend\\",
                 '"""x"""', "", "\\'''\\", "\\"]:
        assert ast.literal_eval(xlwings_lite.text_literal(text)) == text
