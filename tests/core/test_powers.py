"""Powers are taken one value at a time by Python's float power (``xlrating.core.powers``), on every
path that must give the same double as another: the DCI column engine and its record-by-record
replay, the formula engine's vectorised ``^`` and its cell-by-cell one. numpy's own power differs
from it in the last place on some processors (AVX-512: about 5% of ``10.0 ** x``), so a test that
only compares the two paths could pass on one machine and fail on the next; the tests here check
that the paths take their powers from the one shared function, which holds on any machine."""

from __future__ import annotations

import ast
import datetime as dt
import math
import random
from pathlib import Path

import numpy as np
import pytest

from xlrating.core import dci, powers
from xlrating.core.dci import replay as dci_replay

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine() -> str:
    """Both paths are called explicitly here (overrides the conftest's run without numpy)."""
    return "both"


def bits(values: list[float]) -> list[str]:
    return [x.hex() for x in values]  # tells -0.0 from 0.0 and compares nan too


def test_power_is_pythons_float_power_with_ieee_answers_where_python_raises() -> None:
    rng = random.Random(3)
    pairs = [(rng.uniform(0, 50), rng.uniform(-8, 8)) for _ in range(2000)] + [(10.0, -5.0), (2.0, 0.5), (-2.0, 3.0)]
    assert bits([powers.power(b, e) for b, e in pairs]) == bits([b ** e for b, e in pairs])
    edges = [(10.0, 400.0, math.inf), (-10.0, 309.0, -math.inf), (-10.0, 310.0, math.inf), (0.0, -1.0, math.inf),
             (-0.0, -1.0, -math.inf), (-0.0, -2.0, math.inf), (10.0, -math.inf, 0.0), (10.0, math.inf, math.inf),
             (0.0, 0.0, 1.0)]
    assert bits([powers.power(b, e) for b, e, _ in edges]) == bits([want for _, _, want in edges])
    assert math.isnan(powers.power(-8.0, 1 / 3))  # Python's answer is a complex number


def test_powers_of_arrays_are_the_scalar_power_of_each_entry() -> None:
    rng = random.Random(5)
    base = np.array([rng.choice([0.0, -0.0, -2.0, 10.0, 1e300, rng.uniform(-40, 40)]) for _ in range(3000)])
    exponent = np.array([rng.choice([-1.0, 0.0, 2.0, 3.0, 0.5, 400.0, rng.uniform(-9, 9)]) for _ in range(3000)])
    with np.errstate(all="ignore"):
        got = powers.powers(base, exponent)
    assert got.dtype == np.float64 and got.shape == base.shape
    assert bits(got.tolist()) == bits([powers.power(b, e) for b, e in zip(base.tolist(), exponent.tolist())])
    grid = powers.powers(np.array([[2.0], [10.0]]), np.array([-1.0, 0.5, 3.0]))  # broadcast like numpy
    # Python's power, not 0.1 or 1000.0 written out: a C library may round 10 ** -1 otherwise
    assert bits(grid.ravel().tolist()) == bits([b ** e for b in (2.0, 10.0) for e in (-1.0, 0.5, 3.0)])
    assert grid.shape == (2, 3)
    assert powers.powers(10.0, np.array([[1.0, -350.0]])).tolist() == [[10.0 ** 1.0, 10.0 ** -350.0]]
    assert powers.powers(10.0, np.zeros(0)).shape == (0,)


def test_the_win_probability_on_arrays_is_the_scalar_one_on_each_pair() -> None:
    """Random gaps, far beyond the 5% of values numpy's SIMD power gets one unit off on AVX-512."""
    rng = random.Random(11)
    rating = [rng.uniform(0, 3200) for _ in range(20000)] + [1e308, -1e308, 0.0, 2e5, 1600.0]
    opponent = [rng.uniform(0, 3200) for _ in range(20000)] + [-1e308, 1e308, 2e5, 0.0, 1600.0]
    for method in dci.METHODS:
        with np.errstate(over="ignore"):
            vector = dci.expected_scores(np.array(rating), np.array(opponent), method).tolist()
        assert bits(vector) == bits([dci.expected_score(r, o, method) for r, o in zip(rating, opponent)])


def _tournament(seed: int) -> list[dci.Match]:
    rng = random.Random(seed)
    matches = []
    for e in range(4):
        players = rng.sample(range(24), 12)
        for rnd in range(1, 6):
            rng.shuffle(players)
            for i in range(0, 12, 2):
                matches.append(dci.Match(dt.date(2010, 1, 1 + e % 2), rnd, f"p{players[i]}", f"p{players[i + 1]}",
                                         rng.choice([0.0, 0.5, 1.0]), f"E{e}", rng.choice([8.0, 16.0, 48.0])))
    return matches


def _both(matches: list[dci.Match]) -> tuple[list[dci.Rating], list[dci.Rating]]:
    return dci.ratings_from_columns(dci.MatchColumns.from_matches(matches)), dci_replay.ratings(matches)


@pytest.mark.parametrize("seed", range(3))
def test_both_dci_engines_take_10_to_the_x_from_the_one_shared_power(seed: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the shared power replaced by another function, both engines still agree bit for bit and
    both moved: neither computes 10 ** x any other way (numpy's power would not have moved)."""
    matches = _tournament(seed)
    columns, replay = _both(matches)
    assert columns == replay and repr(columns) == repr(replay)
    monkeypatch.setattr(powers, "_float_power", lambda base, exponent: (base ** exponent) * (1 + 1e-7))
    columns_changed, replay_changed = _both(matches)
    assert repr(columns_changed) == repr(replay_changed)
    moved = [(a.rating, b.rating) for a, b in zip(columns, columns_changed) if a.rating != b.rating]
    assert len(moved) > len(columns) // 2


# The functions whose result the C library or numpy's vector loops may round differently by machine
# (and BLAS products, whose order of additions depends on the processor).
MACHINE_DEPENDENT = {
    "power", "float_power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "cbrt", "hypot", "sinc", "i0", "dot", "vdot", "inner", "matmul", "tensordot", "einsum", "linalg",
    "pow", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "erfc", "gamma", "lgamma", "dist"}
PATHS_THAT_MUST_AGREE = sorted(
    [p for p in (ROOT / "xlrating" / "core").rglob("*.py") if p.name != "powers.py"]
    + list((ROOT / "xlrating" / "engine").rglob("vector*.py")))


def _machine_dependent(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}: {ast.unparse(node)}" if isinstance(node, ast.expr) else ""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exact = isinstance(node.left, ast.Constant) and type(node.left.value) is int  # 10 ** k on ints
            if not exact:
                found.append(where)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            found.append(where)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Pow, ast.MatMult)):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Attribute) and node.attr in MACHINE_DEPENDENT
              and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy", "math")):
            found.append(where)
    return found


@pytest.mark.parametrize("path", PATHS_THAT_MUST_AGREE, ids=lambda p: str(p.relative_to(ROOT)))
def test_paths_that_must_agree_take_no_power_or_libm_function_but_the_shared_one(path: Path) -> None:
    """The column engines, the record-by-record replays and the engine's vectorised path use only
    IEEE-exact operations (+ - * /, sqrt, comparisons, floor, sums in a fixed order); a power goes
    through xlrating.core.powers, so both paths of a computation get the same double."""
    assert PATHS_THAT_MUST_AGREE and _machine_dependent(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_rule_above_finds_what_it_looks_for() -> None:
    source = "p = 1 / (1 + 10.0 ** x)\nq = np.exp(x)\nr = math.log(y)\ns = a @ b\nt = 10 ** 3\nu = np.sqrt(x)"
    assert len(_machine_dependent(ast.parse(source))) == 4  # 10 ** 3 and sqrt are exact
