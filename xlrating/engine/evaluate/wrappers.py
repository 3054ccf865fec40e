"""One wrapper per function implementation, made once: what :mod:`.date_system` and
:mod:`.toolpak` put around the registry's functions.

``formulas`` describes a function that needs more than its arguments (TODAY, NOW: whether the
formula is being compiled) as a dict of its ``function`` and these ``extra_inputs``, passed first;
such a function is wrapped in its ``function``, told how many extra inputs come first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Wrap = Callable[[Callable[..., Any], int], Callable[..., Any]]


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


__all__ = ["wrapped_once"]
