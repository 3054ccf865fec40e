"""One wrapper per function implementation, made once: what :mod:`.date_system`, :mod:`.toolpak`,
:mod:`.number_arguments` and :mod:`.legacy_values` put around the registry's functions.

``formulas`` describes a function that needs more than its arguments (TODAY, NOW: whether the
formula is being compiled) as a dict of its ``function`` and these ``extra_inputs``, passed first;
such a function is wrapped in its ``function``, told how many extra inputs come first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..formula.function_names import builtin_name

Wrap = Callable[[Callable[..., Any], int], Callable[..., Any]]
# (the function, the positions among its arguments of the parameters concerned (None: all), how
# many extra inputs come first) -> its wrapper
AtParameters = Callable[[Callable[..., Any], "frozenset[int] | None", int], Callable[..., Any]]


def wrapped_once(cache: dict[tuple[str, int], tuple[Any, Any]], name: str, implementation: Any, wrap: Wrap) -> Any:
    """``implementation`` of the function ``name`` wrapped by ``wrap(function, extra inputs)``, the
    same wrapper each time it is asked for (``cache``: (name, id) -> (implementation, wrapper))."""
    key = (name, id(implementation))
    known = cache.get(key)
    if known is not None and known[0] is implementation:
        return known[1]
    if isinstance(implementation, dict):
        extra = len(implementation.get("extra_inputs", ()))
        wrapped: Any = {**implementation, "function": wrap(implementation["function"], extra)}
    else:
        wrapped = wrap(implementation, 0)
    cache[key] = (implementation, wrapped)
    return wrapped


def at_parameters(table: Mapping[str, tuple[int, ...] | None], marker: str,
                  wrap: AtParameters) -> Callable[[str, Any], Any]:
    """A wrapper maker for the functions of ``table`` (Excel name -> the positions of the parameters
    concerned, None: all of them): given a function's name and implementation, the implementation
    wrapped once by ``wrap(function, positions among its arguments, extra inputs)``, or itself for a
    function not in the table or already wrapped (its attribute ``marker`` set)."""
    cache: dict[tuple[str, int], tuple[Any, Any]] = {}

    def wrapped(name: str, implementation: Any) -> Any:
        plain = builtin_name(name)
        if plain not in table:
            return implementation
        positions = table[plain]

        def make(function: Callable[..., Any], extra: int) -> Callable[..., Any]:
            if getattr(function, marker, False):
                return function
            made = wrap(function, None if positions is None else frozenset(extra + i for i in positions), extra)
            setattr(made, marker, True)
            return made

        return wrapped_once(cache, plain, implementation, make)

    return wrapped


__all__ = ["AtParameters", "at_parameters", "wrapped_once"]
