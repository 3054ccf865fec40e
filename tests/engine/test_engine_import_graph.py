"""The engine's layout shows its flow: its folders, in the order data flows through them, are maths/
(Excel's arithmetic of plain numbers, below both ways of computing), read/, formula/, evaluate/,
functions/ and write/; each imports only the folders before it (functions/ only maths/, read/ and
formula/, and from outside the engine only the shared error values), and no module imports
another that imports it back. Every import counts: at module level, inside a function (a lazy
import) and under ``TYPE_CHECKING`` alike."""

from __future__ import annotations

from pathlib import Path

import pytest

import xlrating
from tests.import_graph import Edge, cycle_text, first_cycle, import_edges

FOLDERS = ("maths", "read", "formula", "evaluate", "functions", "write")
# What each folder may import inside the engine, besides itself
ALLOWED = {
    "maths": frozenset(),
    "read": frozenset({"maths"}),
    "formula": frozenset({"maths", "read"}),
    "evaluate": frozenset({"maths", "read", "formula"}),
    "functions": frozenset({"maths", "read", "formula"}),
    "write": frozenset({"maths", "read", "formula", "evaluate", "functions"}),
}
# What functions/ may import of xlrating outside the engine: the shared error values
FUNCTIONS_OUTSIDE = frozenset({"xlrating.excel_errors"})

def folder_of(module: str, engine: str) -> str | None:
    """The engine folder ``module`` lives in; None for the engine's own top-level modules."""
    rest = module[len(engine) + 1:].split(".") if module.startswith(engine + ".") else []
    return rest[0] if rest and rest[0] in FOLDERS else None


def layer_violations(edges: list[Edge], engine: str) -> list[str]:
    """Each import against the folders' order, named: importer, line, what it imports, and why not."""
    wrong = []
    for importer, imported, line in edges:
        folder = folder_of(importer, engine)
        if folder is None:
            continue  # xlrating.engine itself, batch, libreoffice: where the pieces meet
        if imported == engine or imported.startswith(engine + "."):
            target = folder_of(imported, engine)
            if target == folder:
                continue
            if target not in ALLOWED[folder]:
                allowed = ", ".join(f + "/" for f in FOLDERS if f in ALLOWED[folder])
                rule = f"may import only {allowed} of the engine" if allowed else "may import no other folder"
                wrong.append(f"{importer} (line {line}) imports {imported}: {folder}/ {rule}")
        elif folder == "functions" and imported.startswith("xlrating") and imported not in FUNCTIONS_OUTSIDE:
            wrong.append(f"{importer} (line {line}) imports {imported}: functions/ takes from outside the "
                         f"engine only the shared error values ({', '.join(sorted(FUNCTIONS_OUTSIDE))})")
    return wrong


ENGINE = Path(xlrating.__file__).parent / "engine"


def test_no_engine_module_imports_one_that_imports_it_back() -> None:
    cycle = first_cycle(import_edges(ENGINE), "xlrating.engine")
    assert cycle is None, "a circle of imports: " + cycle_text(cycle or [])


def test_each_folder_imports_only_the_folders_before_it() -> None:
    assert layer_violations(import_edges(ENGINE), "xlrating.engine") == []


def test_every_module_of_the_engine_is_in_one_of_its_folders() -> None:
    """Only the engine's own entry points live beside the folders: the package (evaluate_workbook,
    convert_file), the batch conversion of the command line (on this computer, and on a Dask cluster)
    and the LibreOffice peer."""
    top = sorted(path.name for path in ENGINE.glob("*.py"))
    assert top == ["__init__.py", "batch.py", "cluster.py", "libreoffice.py"]
    assert sorted(p.name for p in ENGINE.iterdir() if p.is_dir() and (p / "__init__.py").exists()) == sorted(
        (*FOLDERS, "data"))


def test_a_folder_package_imports_nothing_but_its_own_modules() -> None:
    """Importing one module of a folder runs the folder's ``__init__`` first: those of maths/, read/, formula/,
    evaluate/ and write/ import nothing, functions/ (the catalogue of our Excel functions) only its own
    modules, so the order cannot be broken behind the modules' backs."""
    edges = import_edges(ENGINE)
    for folder in FOLDERS:
        package = f"xlrating.engine.{folder}"
        imported = sorted({target for importer, target, _ in edges if importer == package})
        if folder == "functions":
            assert imported and all(target.startswith(package + ".") for target in imported), imported
        else:
            assert imported == [], folder


# --- the checks themselves, on a small package made for them ---------------------------------------

def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "xlrating" / "engine" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [root / "xlrating", *(p for p in (root / "xlrating").rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return root / "xlrating" / "engine"


def test_an_import_inside_a_function_closes_a_circle_too(tmp_path: Path) -> None:
    engine = _package(tmp_path, {
        "evaluate/fallback.py": "from .registry import lookup\n",
        "evaluate/registry.py": "def lookup(name):\n    from . import fallback\n    return fallback\n",
    })
    cycle = first_cycle(import_edges(engine), "xlrating.engine")
    assert cycle is not None
    assert cycle_text(cycle) == ("xlrating.engine.evaluate.fallback imports xlrating.engine.evaluate.registry "
                                  "(line 1); xlrating.engine.evaluate.registry imports "
                                  "xlrating.engine.evaluate.fallback (line 2)")


def test_an_import_against_the_order_is_named_with_its_line(tmp_path: Path) -> None:
    engine = _package(tmp_path, {
        "read/package.py": "import os\n\n\ndef cells():\n    from ..formula.tree import Ref\n    return Ref\n",
        "formula/tree.py": "Ref = object\n",
        "functions/text.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..evaluate import model\n",
        "evaluate/model.py": "from xlrating.engine.functions import text\n",
        "write/writer.py": "from ..evaluate.model import x\nfrom ..functions import text\n",
    })
    assert layer_violations(import_edges(engine), "xlrating.engine") == [
        ("xlrating.engine.evaluate.model (line 1) imports xlrating.engine.functions.text: evaluate/ may import "
         "only maths/, read/, formula/ of the engine"),
        ("xlrating.engine.functions.text (line 3) imports xlrating.engine.evaluate.model: functions/ may import "
         "only maths/, read/, formula/ of the engine"),
        ("xlrating.engine.read.package (line 5) imports xlrating.engine.formula.tree: read/ may import only "
         "maths/ of the engine"),
    ]


@pytest.mark.parametrize(("statement", "allowed"), [
    ("from xlrating.excel_errors import ExcelError", True),
    ("from xlrating.core.dates import to_excel_serial", False),
    ("import xlrating.functions", False),
])
def test_functions_take_only_the_shared_error_values_from_outside(tmp_path: Path, statement: str,
                                                                  allowed: bool) -> None:
    (tmp_path / "xlrating").mkdir()
    for name in ("excel_errors.py", "functions.py"):
        (tmp_path / "xlrating" / name).touch()
    (tmp_path / "xlrating" / "core").mkdir()
    (tmp_path / "xlrating" / "core" / "dates.py").touch()
    engine = _package(tmp_path, {"functions/math_trig.py": statement + "\n"})
    assert (layer_violations(import_edges(engine), "xlrating.engine") == []) is allowed
