"""Placements and ties, shared by every rating system.

Standard competition ranking ("1224"): tied players share the best place of their group and the
next place skips. Some older events instead gave a tied group the average of the places it covers;
that is the ``average`` tie policy (a 3-way tie for 26th scores as 27th).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from xlrating.core import checks

TiePolicy = Literal["best", "average"]
TIE_POLICIES: tuple[TiePolicy, ...] = ("best", "average")


def tie_policy(value: object) -> TiePolicy:
    """Validate a tie policy argument."""
    return "average" if checks.choice("ties", value, TIE_POLICIES) == "average" else "best"


def scored_places(places: Sequence[int], ties: TiePolicy = "best") -> list[float]:
    """The place each player is scored at, given the event's places in competition ranking.

    ``best`` keeps the places as they are. ``average`` gives each tied group (players sharing a
    place value) the mean of the places it covers: a group of ``k`` at place ``p`` covers
    ``p .. p + k - 1`` and scores ``p + (k - 1) / 2``.
    """
    if ties == "best":
        return [float(p) for p in places]
    group_size = Counter(places)
    return [p + (group_size[p] - 1) / 2 for p in places]


def competition_places(scores: Sequence[float], *, higher_is_better: bool = True) -> list[int]:
    """Competition-ranking places ("1224") for a list of scores, in the input order."""
    order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=higher_is_better)
    places = [0] * len(scores)
    for position, index in enumerate(order, start=1):
        previous = order[position - 2] if position > 1 else None
        if previous is not None and scores[previous] == scores[index]:
            places[index] = places[previous]
        else:
            places[index] = position
    return places
