"""Array helpers shared by the leaderboards: results as parallel numpy columns.

Leaderboards over 100k-1M rows are computed on columns, not record by record: a few sorts and
grouped sums replace a Python loop per row.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from xlrating.core.placement import TiePolicy

_UNIX_EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()


def encode(values: Iterable[Any], key: Any = None) -> tuple[np.ndarray, list[Any]]:
    """Integer codes for ``values`` and the sorted list of distinct values they index, so that
    code order is value order (or ``key`` order)."""
    items = list(values)
    names = sorted(set(items), key=key)
    index = {name: i for i, name in enumerate(names)}
    return np.fromiter((index[v] for v in items), dtype=np.int64, count=len(items)), names


def years(ordinals: np.ndarray) -> np.ndarray:
    """Calendar years of proleptic Gregorian ordinals (``date.toordinal()``)."""
    days = (ordinals - _UNIX_EPOCH_ORDINAL).astype("datetime64[D]")
    return days.astype("datetime64[Y]").astype(np.int64) + 1970


def group_positions(sorted_groups: np.ndarray) -> np.ndarray:
    """For rows sorted by group, each row's 0-based position within its group."""
    n = len(sorted_groups)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.r_[0, np.flatnonzero(sorted_groups[1:] != sorted_groups[:-1]) + 1]
    sizes = np.diff(np.r_[starts, n])
    positions: np.ndarray = np.arange(n) - np.repeat(starts, sizes)
    return positions


def first_repeat(keys: np.ndarray) -> tuple[int, int] | None:
    """Indices ``(i, j)``, ``i`` before ``j`` in input order, of the first pair of equal keys, or None."""
    ordered = np.sort(keys)
    if not (ordered[1:] == ordered[:-1]).any():  # the common case: one cheap sort, no repeat
        return None
    order = np.argsort(keys, kind="stable")
    same = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if not len(same):
        return None
    return int(order[same[0]]), int(order[same[0] + 1])


def first_disagreement(groups: np.ndarray, values: Sequence[np.ndarray]) -> int | None:
    """The first row whose ``values`` differ from those of its group's first row, or None."""
    _, first, inverse = np.unique(groups, return_index=True, return_inverse=True)
    bad = np.zeros(len(groups), dtype=bool)
    for column in values:
        bad |= column != column[first[inverse]]
    hits = np.flatnonzero(bad)
    return int(hits[0]) if len(hits) else None


def scored_places(groups: np.ndarray, places: np.ndarray, ties: TiePolicy) -> np.ndarray:
    """Vectorised :func:`xlrating.core.placement.scored_places` over many events at once."""
    scored = places.astype(np.float64)
    if ties == "best" or not len(places):
        return scored
    key = groups * (int(places.max()) + 1) + places
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    return scored + (counts[inverse] - 1) / 2


_KEY_LIMIT = 1 << 62


def mixed_radix(*columns: tuple[np.ndarray, int]) -> tuple[np.ndarray, bool]:
    """One int64 key that orders rows like the tuple of ``columns`` (each value in ``[0, size)``).

    Returns the key and whether it is exact mixed radix (decodable with ``//`` and ``%``); when
    the sizes would overflow 62 bits the key is re-ranked densely on the way, keeping the order.
    """
    key = np.zeros(len(columns[0][0]), dtype=np.int64)
    total, exact = 1, True
    for column, size in columns:
        size = max(int(size), 1)
        if total * size >= _KEY_LIMIT:
            distinct, key = np.unique(key, return_inverse=True)
            total, exact = len(distinct), False
        key = key * size + column
        total *= size
    return key, exact
