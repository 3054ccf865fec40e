"""How one player's rating comes about, as a record every layer can show: :class:`Explanation`.

A system explains a rating (``xlrating explain``, the players' explanation pages) as rows, one per
thing counted (a MERS result or padding, a Dip Pouch event, a DCI match), with the inputs of each
and every number derived from them, the intermediate results (MERS Part A and Part B, say) and
the rating itself, which is the leaderboard's. :class:`PlayerNotFound` is the error of a player
the records do not hold, naming the closest names they do.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from xlrating.core.errors import RatingError
from xlrating.core.names import fold

Kind = Literal["text", "number", "whole", "date", "flag"]


@dataclass(frozen=True)
class Column:
    """A column of an explanation's rows: ``key`` in each row, ``title`` as people read it,
    ``kind`` of value, ``given`` True for an input (what the results say) and False for a number
    derived from the inputs by the rules; ``brief`` columns are the ones a terminal shows, a number
    to ``decimals`` places."""

    key: str
    title: str
    kind: Kind = "number"
    given: bool = False
    brief: bool = True
    decimals: int = 2


@dataclass(frozen=True)
class Explanation:
    """One player's rating under the options chosen, with its working.

    ``rating`` is the leaderboard's value for the player (``value_name`` says what it is called:
    ``total`` or ``rating``), None when the player is not ranked (``not_ranked`` says why);
    ``settings`` are ``(key, label, value)`` of the options it was computed with; ``parts`` the
    intermediate results ``(key, label, value)``; ``rule`` says in words how the rows make the
    rating."""

    system: str
    title: str
    player: str
    value_name: str
    rating: float | None
    count: int
    columns: tuple[Column, ...]
    rows: tuple[dict[str, Any], ...]
    settings: tuple[tuple[str, str, Any], ...] = ()
    parts: tuple[tuple[str, str, float | None], ...] = ()
    rule: str = ""
    name: str | None = None
    not_ranked: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # what a system's workbook needs beside the rows

    def setting(self, key: str) -> Any:
        """The value of the setting ``key`` (None when the explanation has none)."""
        return next((value for k, _, value in self.settings if k == key), None)

    def as_dict(self) -> dict[str, Any]:
        """The explanation as JSON takes it: dates as ``YYYY-MM-DD``."""
        return {"system": self.system, "player": self.player, "name": self.name, "value_name": self.value_name,
                "rating": self.rating, "count": self.count, "not_ranked": self.not_ranked,
                "settings": {key: _plain(value) for key, _, value in self.settings},
                "parts": {key: value for key, _, value in self.parts}, "rule": self.rule,
                "columns": [column.key for column in self.columns],
                "rows": [{key: _plain(value) for key, value in row.items()} for row in self.rows]}


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


class PlayerNotFound(RatingError, LookupError):
    """``player`` is not among the players of the records (``where`` names them: a file, a store);
    ``close`` are the nearest names there, best first."""

    def __init__(self, player: str, where: str, close: tuple[str, ...], *, what: str = "player"):
        self.player = player
        self.close = close
        hint = (f"; close matches: {', '.join(close)}" if close else "; no name there is close to it")
        super().__init__(f"no {what} {player!r} in {where}{hint}")


_HOMONYM = re.compile(r"\s*\(\d+\)$")


def named(wanted: str, names: Iterable[str], where: str) -> str:
    """``wanted`` as the records write it: itself when it is one of ``names``; else the one name
    that is ``wanted`` but for accents, capitals and spacing (a homonym's number, ``Name (2)``,
    aside: "jean dupont" may be either Jean Dupont); else ``wanted`` unchanged (the caller says it
    is not found). Several such names: a :class:`RatingError` naming them."""
    known = set(names)
    text = wanted.strip()
    if text in known or not text:
        return text
    key = fold(_HOMONYM.sub("", text))
    same = sorted(name for name in known if name and fold(_HOMONYM.sub("", name)) == key)
    if len(same) > 1:
        raise RatingError(f"{len(same)} players in {where} bear the name {text!r} but for accents and capitals "
                          f"({', '.join(repr(name) for name in same)}); give one as written")
    return same[0] if same else text


def close_matches(wanted: str, names: Iterable[str], *, shown: int = 5) -> tuple[str, ...]:
    """The names most like ``wanted``, best first: the same name but for accents and capitals
    first, then those whose folded spelling is near (difflib's ratio of at least 0.6)."""
    candidates = sorted(set(names))
    key = fold(wanted)
    same = [name for name in candidates if fold(name) == key and name != wanted]
    by_fold: dict[str, list[str]] = {}
    for name in candidates:
        by_fold.setdefault(fold(name), []).append(name)
    near = difflib.get_close_matches(key, list(by_fold), n=shown, cutoff=0.6)
    found = same + [name for folded in near for name in by_fold[folded] if name not in same and name != wanted]
    contained = [name for name in candidates if key and key in fold(name) and name not in found and name != wanted]
    return tuple((found + contained)[:shown])
