"""Each Excel function's facts are declared once, at the end of its module of
``xlrating/engine/functions/`` (``DECLARED``), and read from there without importing the module:
what is read is what the module holds, each name is declared once, and the engine's lists are those
declarations (a function added to a module with its facts is known everywhere)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from xlrating.engine.formula import declared


@pytest.mark.parametrize("module", [*declared.MODULES, declared.BUILTINS])
def test_what_is_read_from_a_modules_text_is_what_the_module_declares(module: str) -> None:
    imported = importlib.import_module(f"xlrating.engine.functions.{module}")
    read = {name: facts for name, (home, facts) in declared.declarations().items() if home == module}
    assert read == imported.DECLARED
    if module != declared.BUILTINS:  # a category module declares exactly the functions it defines
        assert set(read) == set(imported.FUNCTIONS)


def test_the_corrections_of_formulas_functions_are_declared_in_builtins() -> None:
    from xlrating.engine.functions.builtins import corrections

    assert set(corrections()) <= declared.defined_by(declared.BUILTINS)


def test_the_engines_lists_are_the_declarations() -> None:
    from xlrating.engine.evaluate import (
        blocks,
        legacy_values,
        number_arguments,
        registry,
        toolpak,
        vector_builtins,
        vector_compile,
    )

    assert blocks.ARRAY_FUNCTIONS == declared.having("spills") and "SEQUENCE" in blocks.ARRAY_FUNCTIONS
    assert blocks.SCALAR_FUNCTIONS == declared.having("one_value") and "SUM" in blocks.SCALAR_FUNCTIONS
    assert legacy_values.ARRAY_PARAMETERS == declared.having("arrays") and "SUMPRODUCT" in legacy_values.ARRAY_PARAMETERS
    assert toolpak.SCALAR_PARAMETERS["SERIESSUM"] == (0, 1, 2) and toolpak.SCALAR_PARAMETERS["EDATE"] is None
    # the parameters a legacy formula intersects: those declared "scalars" and the ToolPak's
    assert legacy_values.SCALAR_PARAMETERS == declared.scalar_parameters()
    assert legacy_values.SCALAR_PARAMETERS["ABS"] is None and legacy_values.SCALAR_PARAMETERS["WORKDAY.INTL"] == (0, 1, 2)
    assert toolpak.SCALAR_PARAMETERS.items() <= legacy_values.SCALAR_PARAMETERS.items()
    # a parameter taking a range or an array is none of them
    assert not {"SUM", "SUMPRODUCT", "INDEX", "MATCH", "COUNTIF", "ROWS", "COLUMNS", "ROW", "COLUMN", "OFFSET",
                "INDIRECT", "SUBTOTAL", "AGGREGATE", "CONCAT", "TEXTJOIN"} & set(legacy_values.SCALAR_PARAMETERS)
    # the number parameters whose text the engine reads before formulas computes the function
    assert number_arguments.NUMBER_PARAMETERS == declared.number_parameters()
    assert number_arguments.NUMBER_PARAMETERS["ABS"] is None and number_arguments.NUMBER_PARAMETERS["FIXED"] == (0, 1)
    assert registry.VECTOR_BUILTINS == declared.having("vector") and "IF" in registry.VECTOR_BUILTINS
    assert vector_compile.ELEMENTWISE["DATE"] == 3 and vector_compile.MEMOISED == declared.having("memoised")
    assert vector_compile.SCALAR == declared.having("pure") and "ROMAN" in vector_compile.SCALAR
    # a function computed row by row from plain numbers has its code there; a column kernel is one of them
    assert set(vector_builtins.NUMERIC) == set(vector_compile.ELEMENTWISE)
    assert set(vector_builtins.COLUMNS) <= set(vector_compile.ELEMENTWISE)


def test_a_function_a_module_declares_is_one_excel_knows() -> None:
    from xlrating.engine.evaluate.registry import is_excel_function

    assert all(is_excel_function(name) for module in declared.MODULES for name in declared.defined_by(module))
    # and so is every function declared with parameters taking one value (PHI, NORM.S.DIST ... in builtins)
    assert all(is_excel_function(name) for name in declared.having("scalars"))


@pytest.mark.parametrize("block, said", [
    ("x = 1\n", "expected one block"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"spils": True},\n}\n', "ROMAN: unknown facts spils"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "roman": {},\n}\n', "roman: not upper case"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"pure": len("x")},\n}\n', "DECLARED is not a literal"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"scalars": "first"},\n}\n', "ROMAN: scalars is 'first'"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"scalars": (0, -1)},\n}\n', "ROMAN: scalars is (0, -1)"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "EDATE": {"toolpak": "all", "scalars": "all"},\n}\n',
     "EDATE: declares both toolpak and scalars"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"numbers": (0, -1)},\n}\n', "ROMAN: numbers is (0, -1)"),
    ('DECLARED: dict[str, dict[str, object]] = {\n    "ROMAN": {"numbers": "all"},\n}\n', "ROMAN: declares numbers"),
])
def test_a_wrong_declaration_is_refused_naming_the_module_and_the_function(block: str, said: str) -> None:
    with pytest.raises(declared.DeclarationError, match="xlrating/engine/functions/text.py: .*" + re.escape(said)):
        declared.module_declarations("text", "import x\n\n\n" + block)


def test_a_module_that_declares_functions_is_a_category_module_without_being_listed(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "web.py").write_text('FUNCTIONS = {}\n\n\nDECLARED: dict[str, dict[str, object]] = {\n'
                                     '    "ENCODEURL": {"pure": True},\n}\n', encoding="utf-8")
    (tmp_path / "arguments.py").write_text("def helper() -> None:\n    pass\n", encoding="utf-8")
    (tmp_path / "builtins.py").write_text('import x\n\n\nDECLARED: dict[str, dict[str, object]] = {\n    "SUM": {"vector": True},\n}\n',
                                          encoding="utf-8")
    monkeypatch.setattr(declared, "_FOLDER", tmp_path)
    declared._declaring_modules.cache_clear()
    declared.declarations.cache_clear()
    try:
        assert list(declared._declaring_modules()) == ["builtins", "web"]
        assert declared.declarations() == {"ENCODEURL": ("web", {"pure": True}), "SUM": ("builtins", {"vector": True})}
        (tmp_path / "text.py").write_text('import x\n\n\nDECLARED: dict[str, dict[str, object]] = {\n    "ENCODEURL": {},\n}\n',
                                          encoding="utf-8")
        declared._declaring_modules.cache_clear()
        declared.declarations.cache_clear()
        with pytest.raises(declared.DeclarationError, match="ENCODEURL is declared twice"):
            declared.declarations()
    finally:
        declared._declaring_modules.cache_clear()
        declared.declarations.cache_clear()
