"""Excel's facts about each function, as the function modules declare them, read without importing them.

Each module of :mod:`xlrating.engine.functions` ends with a ``DECLARED`` dict: Excel name -> its
facts, one line per function (a module of an Excel category declares each function its ``FUNCTIONS``
defines; :mod:`~xlrating.engine.functions.builtins` those ``formulas`` computes and those the engine
computes elsewhere, IF and IFERROR). Importing a function module loads ``formulas`` (most of a
second), and the engine needs the facts before it knows whether any function will be called, so
they are read here from the modules' text: the ``DECLARED`` block is a Python literal
(tests/engine/formula/test_engine_declarations.py checks that what is read here is what each module holds).
Every list the engine consults is derived from these declarations (:func:`having`,
:func:`toolpak_parameters`, :func:`scalar_parameters`, :func:`number_parameters`, :func:`elementwise`, :func:`defined_by`); none is written anywhere else.

The facts, each absent when false:

- ``"spills"``: the result is an array of a size known only when computed; the cell may spill
  anywhere below and right of it, so what reads there is computed after it.
- ``"one_value"``: the result is one value whatever ranges the function is given.
- ``"arrays"``: a parameter takes an array, so an ordinary (legacy) formula does not intersect a
  range given there with its own row or column.
- ``"toolpak"``: from the Analysis ToolPak: a reference to several cells where it takes one value is
  #VALUE!; ``"all"`` or the positions of the parameters that take one value.
- ``"scalars"``: ``"all"`` or the positions (from 0) of the parameters that take one value (Excel's
  value parameters: ``ABS(number)``, ``LEFT(text, [num_chars])``, ``CONCATENATE(text1, ...)``):
  in a legacy formula of a workbook a spreadsheet saved, a range of several cells given there is
  the cell of it in the formula's row or column, #VALUE! where there is none (``=SUM(ABS(A1:A9))``
  in row 3 is ABS(A3)). A ToolPak function's parameters that take one value (its ``"toolpak"``) are
  such parameters too, so it declares no ``"scalars"``; a function whose parameters are not all
  known to take one value declares only those that are, or none (it keeps the ranges it is given).
- ``"numbers"``: ``"all"`` or the positions of the parameters that take a number, on a function
  ``formulas`` computes (:mod:`~xlrating.engine.functions.builtins`): a text given there is read as
  Excel reads text as a number (:mod:`xlrating.engine.maths.text_numbers`: ``ABS("-$2")`` is 2,
  ``SQRT("12:00")`` the root of 0.5), #VALUE! where Excel reads none, before ``formulas`` sees it
  (it read text with Python's ``float``). The engine's own functions read their numbers themselves
  (:func:`xlrating.engine.functions.arguments.number`), so declare no ``"numbers"``.
- ``"vector"``: computed over a whole filled-down column by the engine's numpy path itself.
- ``"elementwise"``: its number of arguments; each row of a filled-down column computed from plain
  numbers by the engine's own code, once per distinct row.
- ``"memoised"``: one value per row from fixed ranges, computed once per distinct row of arguments.
- ``"pure"``: a function of single values whose result depends only on its arguments, computed once
  per distinct row of a filled-down column.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

# Declares what ``formulas`` computes (and the engine's corrections of it), not a category of its own
BUILTINS = "builtins"
FACTS = frozenset(("spills", "one_value", "arrays", "toolpak", "scalars", "numbers", "vector", "elementwise",
                   "memoised", "pure"))

_FOLDER = Path(__file__).resolve().parent.parent / "functions"
_START = "\nDECLARED: dict[str, dict[str, object]] = {\n"


@functools.lru_cache(maxsize=1)
def _declaring_modules() -> dict[str, str]:
    """The text of each module of the functions' folder that declares functions (a ``DECLARED`` block)."""
    texts = {path.stem: path.read_text(encoding="utf-8") for path in sorted(_FOLDER.glob("*.py"))}
    return {module: text for module, text in texts.items() if _START in text}


# The category modules: every module of the folder that declares its functions, but :data:`BUILTINS`
# (a name is declared once, so their order decides nothing); a new category is its new module
MODULES = tuple(module for module in _declaring_modules() if module != BUILTINS)


class DeclarationError(Exception):
    """A function module's ``DECLARED`` block cannot be read, or declares a fact wrongly or twice."""


def module_declarations(module: str, text: str) -> dict[str, dict[str, object]]:
    """The ``DECLARED`` dict in the text of the function module ``module``, checked."""
    start = text.find(_START)
    end = text.find("\n}\n", start)
    if start < 0 or end < 0 or text.find(_START, start + 1) >= 0:
        raise DeclarationError(f"xlrating/engine/functions/{module}.py: expected one block starting {_START.strip()!r} "
                               "and ending with a line '}'")
    try:
        declared = ast.literal_eval(text[start + len(_START) - 2:end + 2])
    except (ValueError, SyntaxError) as exc:
        raise DeclarationError(f"xlrating/engine/functions/{module}.py: DECLARED is not a literal: {exc}") from None
    for name, facts in declared.items():
        unknown = set(facts) - FACTS
        if name != name.upper() or unknown:
            raise DeclarationError(f"xlrating/engine/functions/{module}.py: {name}: "
                                   f"{'unknown facts ' + ', '.join(sorted(unknown)) if unknown else 'not upper case'}")
        for fact in ("toolpak", "scalars", "numbers"):
            positions = facts.get(fact, "all")
            if positions != "all" and not (isinstance(positions, tuple) and positions
                                           and all(isinstance(i, int) and i >= 0 for i in positions)):
                raise DeclarationError(f"xlrating/engine/functions/{module}.py: {name}: {fact} is {positions!r}, "
                                       "expected \"all\" or a tuple of parameter positions (0, 1 ...)")
        if "numbers" in facts and module != BUILTINS:
            raise DeclarationError(f"xlrating/engine/functions/{module}.py: {name}: declares numbers, which only "
                                   "functions formulas computes declare (builtins.py); the engine's own read their "
                                   "numbers with arguments.number")
        if "toolpak" in facts and "scalars" in facts:
            raise DeclarationError(f"xlrating/engine/functions/{module}.py: {name}: declares both toolpak and scalars "
                                   "(a ToolPak function's toolpak parameters are those that take one value)")
    return dict(declared)


@functools.lru_cache(maxsize=1)
def declarations() -> dict[str, tuple[str, dict[str, object]]]:
    """Excel name -> (the module declaring it, its facts), over every function module."""
    every: dict[str, tuple[str, dict[str, object]]] = {}
    for module, text in _declaring_modules().items():
        for name, facts in module_declarations(module, text).items():
            if name in every:
                raise DeclarationError(f"{name} is declared twice: in functions/{every[name][0]}.py and {module}.py")
            every[name] = (module, facts)
    return every


def defined_by(module: str) -> frozenset[str]:
    """The names the module ``module`` declares (a category module: those its ``FUNCTIONS`` defines)."""
    return frozenset(name for name, (home, _) in declarations().items() if home == module)


def having(fact: str) -> frozenset[str]:
    """The functions declared with ``fact`` (one of :data:`FACTS`)."""
    if fact not in FACTS:
        raise KeyError(fact)
    return frozenset(name for name, (_, facts) in declarations().items() if facts.get(fact))


def _positions(fact: str) -> dict[str, tuple[int, ...] | None]:
    """The functions declared with ``fact`` (one whose value is ``"all"`` or parameter positions) ->
    those positions (None: all)."""
    found: dict[str, tuple[int, ...] | None] = {}
    for name, (_, facts) in declarations().items():
        if fact in facts:
            positions = facts[fact]
            found[name] = None if positions == "all" else tuple(positions)  # type: ignore[call-overload]
    return found


def toolpak_parameters() -> dict[str, tuple[int, ...] | None]:
    """The Analysis ToolPak's functions -> the positions of their parameters taking one value (None: all)."""
    return _positions("toolpak")


def scalar_parameters() -> dict[str, tuple[int, ...] | None]:
    """The functions with parameters that take one value -> their positions (None: all): those
    declared ``"scalars"`` and the ToolPak's (:func:`toolpak_parameters`)."""
    return {**toolpak_parameters(), **_positions("scalars")}


def number_parameters() -> dict[str, tuple[int, ...] | None]:
    """The functions declared ``"numbers"`` -> the positions of their parameters that take a number (None: all)."""
    return _positions("numbers")


def elementwise() -> dict[str, int]:
    """The functions computed row by row from plain numbers -> their number of arguments."""
    return {name: int(facts["elementwise"]) for name, (_, facts) in declarations().items()  # type: ignore[call-overload]
            if "elementwise" in facts}


__all__ = ["BUILTINS", "FACTS", "MODULES", "DeclarationError", "declarations", "defined_by", "elementwise",
           "having", "module_declarations", "scalar_parameters", "toolpak_parameters"]
