"""Our functions in a registry the engine owns, under every name Excel stores them as."""

from __future__ import annotations

import formulas
import numpy as np
import pytest
import schedula as sh
from formulas.tokens.operand import Error as ErrorToken

from xlrating.engine import REGISTRY
from xlrating.engine.evaluate.compiler import parser_for
from xlrating.engine.evaluate.host_values import argument_to_host, from_host
from xlrating.engine.formula.filled_down import FilledDown
from xlrating.engine.formula.function_names import SYSTEM_PREFIXES, our_function
from xlrating.engine.formula.reader import parse
from xlrating.engine.formula.tree import Ref
from xlrating.functions import FUNCTIONS, ExcelError


@pytest.mark.parametrize("stored", ["DIPPOUCH_PERCENTILE", "dippouch_percentile", "_xldudf_DIPPOUCH_PERCENTILE",
                                    "_xll.DIPPOUCH_PERCENTILE", "xlrating.DIPPOUCH_PERCENTILE"])
def test_our_function_is_found_under_every_stored_name(stored: str) -> None:
    assert our_function(stored) is not None and our_function(stored).name == "DIPPOUCH_PERCENTILE"
    function = parser_for(REGISTRY)().ast(f"={stored}(10,A1)")[1].compile()
    assert function(np.array([[2.0]], object)) == 85.0


def test_every_function_of_the_table_is_registered() -> None:
    for fn in FUNCTIONS:
        for prefix in ("", "_XLDUDF_", "_XLL.", "XLRATING."):
            assert prefix + fn.name in REGISTRY.registry()
            assert our_function(prefix.lower() + fn.name.lower()) is fn


def test_every_function_is_named_after_its_system_so_other_names_skip_the_table() -> None:
    # our_function answers None for a name without one of these prefixes without loading the table
    assert all(fn.name.startswith(SYSTEM_PREFIXES) for fn in FUNCTIONS)
    assert our_function("DIPPOUCH_NOSUCH") is None and our_function("SUM") is None


def test_formulas_global_registry_is_left_alone() -> None:
    REGISTRY.registry()
    parser_for(REGISTRY)().ast("=_xll.DCI_K(\"regular\")")[1].compile()
    assert not any(fn.name in name for fn in FUNCTIONS for name in formulas.get_functions())


def test_errors_and_empties_cross_between_the_two_worlds() -> None:
    assert argument_to_host(ErrorToken.errors["#N/A"]) == ExcelError("#N/A")
    assert argument_to_host(sh.EMPTY) is None
    assert argument_to_host(np.array([[1.0, sh.EMPTY]], object)) == [[1.0, None]]
    assert from_host(ExcelError("#NUM!", "why")) is ErrorToken.errors["#NUM!"]
    assert from_host(None) is sh.EMPTY


def test_references_keep_their_anchors() -> None:
    tree = parse("=SUM(A$1:A3)+$C5")
    total, cell = tree.args
    assert total.args[0] == Ref(None, 1, 1, 3, 1, rel_r1=False, rel_r2=True)
    assert cell == Ref(None, 5, 3, 5, 3, rel_r1=True, rel_r2=True)


def test_a_whole_column_spans_every_row() -> None:
    assert parse("=COUNT(Other!B:B)").args[0] == Ref("Other", 1, 2, 1_048_576, 2)


def test_a_formula_filled_down_is_recognised_and_a_changed_one_is_not() -> None:
    shape = FilledDown('=IF(B7>$C$1,"A1",B7*2)', 7)
    assert shape.matches('=IF(B12>$C$1,"A1",B12*2)', 12)
    assert not shape.matches('=IF(B12>$C$2,"A1",B12*2)', 12)  # an absolute row changed
    assert not shape.matches('=IF(B12>$C$1,"A6",B12*2)', 12)  # text is not a reference
    assert not shape.matches('=IF(B12>$C$1,"A1",B12*3)', 12)


@pytest.mark.parametrize("seed", range(6))
def test_the_run_of_a_filled_down_formula_ends_at_the_first_cell_that_differs(seed: int) -> None:
    """``extent`` checks many rows as one string; it must stop exactly where a text-by-text check
    would, whatever the formula holds (percent signs, braces, digits in strings, anchors, line ends)."""
    import random

    rng = random.Random(seed)
    shapes = ['=B{r}*2', '=IF(B{r}>$C$1,"A1%",B{r}*{{2}})', '=SUM($A$1:A{r})+C{s}', "=TEXT(A{r},\"0%\")&'x 9'!B{r}",
              '="line\nend"&A{r}', '=PI()', '=A{r}&"{r}"']
    for _ in range(40):
        shape = rng.choice(shapes)
        top = rng.randint(1, 5000)
        size = rng.choice([1, 2, 15, 16, 17, 100, 1500])
        texts = [shape.format(r=r, s=r + 3) for r in range(top, top + size)]
        if rng.random() < 0.7:  # one cell differs: another row, an edit, or another formula
            at = rng.randrange(size)
            texts[at] = rng.choice([shape.format(r=top + at + 1, s=top + at + 4), texts[at] + " ", "=B1"])
        expected = next((i for i in range(1, size) if texts[i] != FilledDown(texts[0], top).text_at(top + i)), size)
        assert FilledDown(texts[0], top).extent(texts, top + 1, 1, size) == expected, (shape, size)
        assert expected == size or not FilledDown(texts[0], top).matches(texts[expected], top + expected)


def test_the_index_of_the_engines_function_modules_lists_exactly_their_functions() -> None:
    import importlib

    from xlrating.engine.functions import MODULES, NAMES

    assert set(NAMES) == set(MODULES)
    for module in MODULES:
        assert NAMES[module] == set(importlib.import_module(f"xlrating.engine.functions.{module}").FUNCTIONS), module


def test_one_name_of_the_engines_own_resolves_to_what_the_whole_table_holds() -> None:
    """One name imports one module of :mod:`xlrating.engine.functions`, with the table's precedence
    (references over the category modules over builtins' corrections; xlrating's functions over all)."""

    for name, implementation in REGISTRY._engine_functions().items():
        assert REGISTRY.engine_function(name) is implementation, name
    for name in ("NOPE", "_XLFN.NOPE", "_XLDUDF_SUM", "XLRATING.NOPE", "_XLFN.ROUND"):
        assert REGISTRY.engine_function(name) is REGISTRY._engine_functions().get(name), name
