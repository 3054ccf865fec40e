"""``formulas``' own Excel functions, looked up one category module at a time.

``formulas`` keeps its functions in one module per category (``formulas.functions.date``,
``.math``, ``.stat`` ...), each with a ``FUNCTIONS`` dict; ``formulas.functions.get_functions()``
imports every one of them (the statistical ones import scipy: most of a second) and merges them in
the order of ``formulas.functions.SUBMODULES``, a later module winning a name two of them define,
then the package's own ``FUNCTIONS`` (ARRAY, ARRAYROW).

``data/formulas_functions.txt`` lists the names of each module in that order, so :func:`function`
imports only the module a name comes from and returns exactly what ``get_functions()[name]``
would. The list belongs to one version of ``formulas``: with another version installed the engine
builds it at run time by importing the whole library, as ``get_functions()`` does (slower, equally
right). Write it again after upgrading ``formulas``: ``python -m xlrating.engine.functions.library``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PACKAGE = "formulas.functions"
INDEX_FILE = "formulas_functions.txt"
_VERSION_LINE = "formulas "


def installed_version() -> str:
    import formulas

    return str(formulas.__version__)


def build_index() -> dict[str, list[str]]:
    """Module name -> the names in its ``FUNCTIONS``, in ``get_functions()``' merge order; imports
    the whole library."""
    library = importlib.import_module(PACKAGE)
    modules: dict[str, list[str]] = {}
    for relative in library.SUBMODULES:
        module = importlib.import_module(relative, PACKAGE)
        modules[module.__name__] = list(module.FUNCTIONS)
    modules[PACKAGE] = list(library.FUNCTIONS)
    return modules


def index_text(modules: dict[str, list[str]], version: str) -> str:
    """The text of ``data/formulas_functions.txt`` for ``modules`` (:func:`build_index`)."""
    header = [
        "# The Excel functions of the formulas package, one line per module of formulas.functions, in the",
        "# order formulas.functions.get_functions() merges them (a later line wins a name two lines list).",
        "# The engine imports only the module a formula's function comes from (xlrating/engine/library.py).",
        "# Written by `python -m xlrating.engine.functions.library`; used only with the formulas version below.",
        f"{_VERSION_LINE}{version}",
    ]
    return "\n".join([*header, *(f"{module}: {' '.join(names)}" for module, names in modules.items())]) + "\n"


def read_index(text: str, version: str) -> dict[str, list[str]] | None:
    """The modules and names in ``text``, or None when it was written for another ``formulas``."""
    modules: dict[str, list[str]] = {}
    written_for = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith(_VERSION_LINE):
            written_for = line[len(_VERSION_LINE):].strip()
            continue
        module, _, names = line.partition(":")
        modules[module.strip()] = names.split()
    return modules if written_for == version and modules else None


def _index_path() -> Path:
    return Path(__file__).parent.parent / "data" / INDEX_FILE


@functools.lru_cache(maxsize=1)
def _where() -> dict[str, str]:
    """Function name -> the module ``get_functions()`` takes it from."""
    try:
        stored = read_index(_index_path().read_text(encoding="utf-8"), installed_version())
    except OSError:
        stored = None
    modules = stored if stored is not None else build_index()
    where: dict[str, str] = {}
    for module, names in modules.items():
        for name in names:
            where[name] = module
    return where


def names() -> frozenset[str]:
    """Every name ``formulas``' library defines (as ``get_functions()`` keys them); imports none of it."""
    return frozenset(_where())


def function(name: str) -> Any | None:
    """``get_functions()[name]`` (``name`` as stored, upper case), importing only its module; None
    for a name ``formulas`` does not define."""
    module = _where().get(name)
    if module is None:
        return None
    if module in sys.modules:
        return sys.modules[module].FUNCTIONS[name]
    with _deferred():
        return importlib.import_module(module).FUNCTIONS[name]


class _Deferred(types.ModuleType):
    """Stands for a module of scipy (or ``numpy.random``) while a module of ``formulas``' library is
    being imported.

    ``formulas.functions.stat`` (AVERAGE, COUNTIF, MAX, MEDIAN ... and the distributions) imports
    ``scipy.stats``, ``scipy.linalg`` and ``scipy.interpolate`` at its top, most of a second, for the
    few functions that call them; ``formulas.functions.math`` (MOD, SQRT, POWER ...) takes
    ``np.random.rand`` for RAND at its top, which imports ``numpy.random`` (tens of milliseconds).
    Imported with these stand-ins, a name it takes from one of them is a function that imports the
    real module when first called, and a module it takes is this object, which imports the real
    module when an attribute is first looked up: scipy and numpy.random load only when a workbook
    uses such a function, and then the function computes what it always did.
    """

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if _importing:  # `from scipy.interpolate import interp1d` binds a name: defer the call too
            module = self.__name__

            def deferred(*args: Any, **kwargs: Any) -> Any:
                return getattr(importlib.import_module(module), attribute)(*args, **kwargs)

            deferred.__name__ = attribute
            return deferred
        return getattr(importlib.import_module(self.__name__), attribute)


_importing = False
_SCIPY_MODULES = ("scipy", "scipy.stats", "scipy.linalg", "scipy.interpolate", "scipy.special", "scipy.optimize")


@contextlib.contextmanager
def _deferred() -> Iterator[None]:
    """scipy's modules and ``numpy.random`` as :class:`_Deferred` stand-ins in ``sys.modules`` (and
    ``numpy.random`` as numpy's attribute) while the block runs, unless imported already; the
    stand-ins are gone afterwards."""
    global _importing
    stand_ins: dict[str, _Deferred] = {}
    if "scipy" not in sys.modules and importlib.util.find_spec("scipy") is not None:
        stand_ins.update((name, _Deferred(name)) for name in _SCIPY_MODULES)
        for name, module in stand_ins.items():
            parent, _, child = name.rpartition(".")
            if parent:
                setattr(stand_ins[parent], child, module)
    import numpy

    random = None
    if "numpy.random" not in sys.modules and "random" not in vars(numpy):
        random = stand_ins["numpy.random"] = _Deferred("numpy.random")
        numpy.random = random  # type: ignore[attr-defined]  # np.random: numpy's __getattr__ would import it
    if not stand_ins:
        yield
        return
    sys.modules.update(stand_ins)
    _importing = True
    try:
        yield
    finally:
        _importing = False
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
        if random is not None and vars(numpy).get("random") is random:
            del numpy.random  # type: ignore[attr-defined]


def formulas_function(name: str) -> Any:
    """Like :func:`function`, for a name ``formulas`` is known to define (KeyError otherwise)."""
    found = function(name)
    if found is None:
        raise KeyError(name)
    return found


def main() -> None:
    """Write ``data/formulas_functions.txt`` for the installed ``formulas``."""
    path = _index_path()
    path.write_text(index_text(build_index(), installed_version()), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
