"""The explanation any system has without declaring one: its leaderboard's line of the player
and the rows of :meth:`~xlrating.systems.base.RatingSystem.breakdown` (a replayed rating's history),
as values."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from xlrating.core.explanation import Column, Explanation, PlayerNotFound, close_matches

if TYPE_CHECKING:
    from xlrating.exports import Leaderboard
    from xlrating.store.sqlite import SQLiteStore


class _Option(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def flag(self) -> str: ...


class _System(Protocol):
    """What the default explanation uses of a :class:`~xlrating.systems.base.RatingSystem` (named
    by what it needs, so that the declaration's module and this one do not import each other)."""

    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def rank_options(self) -> Sequence[_Option]: ...

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard: ...

    def breakdown(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]: ...


def explain(system: _System, records: list[Any], player: str, source: str, stored: SQLiteStore | None,
            options: dict[str, Any]) -> Explanation:
    board = system.leaderboard(records, source=source, stored=stored, **options)
    line = next((line for line in board.lines if line["player"] == player), None)
    rows = system.breakdown(records, player, **options)
    if line is None and not rows:
        raise PlayerNotFound(player, source, close_matches(player, (line["player"] for line in board.lines)))
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(key for key, value in row.items() if value is not None))
    columns = tuple(Column(key, key.replace("_", " ").capitalize(), _kind([row.get(key) for row in rows]))
                    for key in keys)
    settings = tuple((option.name, option.flag.lstrip("-").replace("-", " ").capitalize(), options.get(option.name))
                     for option in system.rank_options if options.get(option.name) is not None)
    rating = None if line is None else float(line[board.value_name])
    return Explanation(system.key, system.title, player, board.value_name, rating,
                       int(line["count"]) if line is not None and "count" in line else len(rows), columns,
                       tuple(rows), settings, rule=f"The {system.title} {board.value_name} as `xlrating rank "
                                                   f"{system.key}` computes it; the rows are how it came about.",
                       not_ranked=None if line is not None else f"{player} has no line in the {system.title} ranking")


def _kind(values: list[Any]) -> Any:
    present = [value for value in values if value is not None]
    if present and all(isinstance(value, bool) for value in present):
        return "flag"
    if present and all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in present):
        return "number"
    if present and all(isinstance(value, dt.date) for value in present):
        return "date"
    return "text"
