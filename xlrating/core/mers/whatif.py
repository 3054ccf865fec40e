"""What if: a player's MERS total and place with one more result, and a ranking under each era.

- :func:`what_if`: the ranking of a ruleset on a date, computed by :func:`xlrating.core.mers.rankings`
  twice, once over the results as they are and once with one hypothetical result added: the player
  finishing ``place`` of ``players`` at a tournament of weight ``weight`` on ``date`` (a tournament
  of its own, where no other ranked player played, so nobody else's total changes). The player's
  total and place before and after, the base rank and age factor the new result counts with, and
  the players the player passes (ranked ahead before, not after) or is passed by.
- :func:`eras`: the same results ranked under each rule era (2005, 2010, 2018) on one date, side by
  side: each player's place and total under each, and how far their place moves between eras.

Places are competition places ("1224"), as every leaderboard numbers them.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from xlrating.core import checks
from xlrating.core.dates import as_date
from xlrating.core.errors import InvalidArgument
from xlrating.core.explanation import PlayerNotFound, close_matches
from xlrating.core.mers import Ranking, Result, aged_factor, base_rank, era_of, rankings
from xlrating.core.mers.results import ruleset as ruleset_name
from xlrating.core.mers.rules import RULES
from xlrating.core.names import fold
from xlrating.core.placement import TiePolicy, competition_places

HYPOTHETICAL = "(what if)"
"""The name of the hypothetical tournament (no stored tournament's name has brackets around it all)."""


@dataclass(frozen=True)
class Standing:
    """A player's line in a ranking: ``rank`` and ``total`` None when not ranked; ``count`` the
    results that count on the day (ranked or not); ``of`` the ranked players."""

    rank: int | None
    total: float | None
    count: int
    of: int


@dataclass(frozen=True)
class Overtaken:
    """Another player whose place against the player changes: their total and their place before
    and after (their total does not change)."""

    player: str
    total: float
    rank_before: int
    rank_after: int


@dataclass(frozen=True)
class WhatIf:
    """The player's standing without and with the hypothetical result."""

    player: str
    ruleset: str
    rules: str
    as_of: dt.date
    place: int
    players: int
    weight: float
    date: dt.date
    base_rank: float  # as the era counts it (whole under 2018)
    age_factor: float  # on as_of
    before: Standing
    after: Standing
    passed: tuple[Overtaken, ...]  # ahead before, not ahead after
    passed_by: tuple[Overtaken, ...]  # not ahead before, ahead after

    def data(self, names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """As JSON: dates as YYYY-MM-DD, ``change`` the total's change (None unless ranked both times);
        with ``names`` (EMA ID -> name), a ``name`` for the player and each player passed."""
        out = asdict(self)
        out["as_of"], out["date"] = self.as_of.isoformat(), self.date.isoformat()
        out["change"] = (self.after.total - self.before.total
                         if self.after.total is not None and self.before.total is not None else None)
        if names is not None:
            out["name"] = names.get(self.player, "")
            for key in ("passed", "passed_by"):
                out[key] = [o | {"name": names.get(o["player"], "")} for o in out[key]]
        return out


def find_player(results: Iterable[Result], wanted: str, names: Mapping[str, str], where: str) -> str:
    """The EMA ID of ``wanted``: itself when the results hold it, else the one player whose name
    (``names``: EMA ID -> name) is ``wanted``, accents and capitals aside. Raises
    :class:`~xlrating.core.errors.InvalidArgument` naming ``player`` for a name several players bear,
    :class:`~xlrating.core.explanation.PlayerNotFound` (with the closest players) for nobody."""
    ids = {r.player for r in results if r.player is not None}
    text = wanted.strip()
    if text in ids:
        return text
    named = sorted(ema_id for ema_id, name in names.items() if ema_id in ids and name and fold(name) == fold(text))
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise InvalidArgument("player", "one player's EMA ID or name", text,
                              note=f"{len(named)} players bear that name ({', '.join(named)}): give the EMA ID")
    close = list(close_matches(text, ids))
    by_name = {name: ema_id for ema_id, name in names.items() if ema_id in ids and name}
    close += [by_name[name] for name in close_matches(text, by_name) if by_name[name] not in close]
    shown = tuple(f"{c} ({names[c]})" if names.get(c) else c for c in close[:5])
    raise PlayerNotFound(text, where, shown, what="player with MERS results (EMA ID or name)")


def hypothetical_result(player: str, place: Any, players: Any, weight: Any, date: Any, ruleset: str) -> Result:
    """The result of ``player`` finishing ``place`` of ``players`` at a tournament of ``weight`` on
    ``date``; each argument checked (an error names it)."""
    players = checks.whole("players", players, minimum=2)
    if isinstance(place, bool) or not isinstance(place, (int, float)) or not 1 <= place <= players:
        raise InvalidArgument("place", f"a place from 1 to players ({players})", place)
    place = checks.whole("place", place, minimum=1, maximum=players)
    weight = checks.number("weight", weight)
    if not weight > 0:
        raise InvalidArgument("weight", "a weight > 0", weight)
    return Result(HYPOTHETICAL, as_date("date", date), players, weight, player, place, ruleset_name(ruleset))


def _standing(board: Sequence[Ranking], counts: dict[str, int], player: str) -> Standing:
    places = competition_places([line.total for line in board])
    for rank, line in zip(places, board):
        if line.player == player:
            return Standing(rank, line.total, line.count, len(board))
    return Standing(None, None, counts.get(player, 0), len(board))


def _counted(results: Iterable[Result], player: str, as_of: dt.date, rules: str, ruleset: str) -> int:
    """The player's results that count on ``as_of`` (age factor > 0), ranked or not."""
    era = era_of(rules, as_of)
    return sum(1 for r in results if r.player == player and r.ruleset == ruleset and r.date <= as_of
               and aged_factor(r.effective_date or r.date, as_of, era) > 0)


def what_if(results: Iterable[Result], player: str, *, place: Any, players: Any, weight: Any, date: Any,
            ruleset: str, as_of: Any = None, rules: str | None = None, ties: TiePolicy = "best") -> WhatIf:
    """The player's total and place on ``as_of`` (default ``date``) under ``rules`` (default the era
    in force then) without and with the hypothetical result (:func:`hypothetical_result`).

    Raises :class:`~xlrating.core.errors.InvalidArgument` naming ``player`` when the results hold no
    result of the player, ``place``, ``players``, ``weight`` or ``date`` when one is not what a
    result can be, and ``as_of`` when it is before ``date`` (the result would not count yet)."""
    items = list(results)
    ruleset = ruleset_name(ruleset)
    if not any(r.player == player for r in items):
        raise InvalidArgument("player", "a player with results", player, note="who has no result in these results")
    added = hypothetical_result(player, place, players, weight, date, ruleset)
    day = added.date if as_of is None else as_date("as_of", as_of)
    if day < added.date:
        raise InvalidArgument("as_of", f"a ranking date on or after the tournament's date ({added.date.isoformat()})",
                              day.isoformat(), note="the result would not count yet")
    era = era_of(rules, day)
    before = rankings(items, day, era.name, ruleset_name=ruleset, ties=ties)
    after = rankings([*items, added], day, era.name, ruleset_name=ruleset, ties=ties)
    counts = {player: _counted(items, player, day, era.name, ruleset)}
    was = _standing(before, counts, player)
    now = _standing(after, {player: counts[player] + 1}, player)
    ranks_before = dict(zip((line.player for line in before), competition_places([line.total for line in before])))
    ranks_after = dict(zip((line.player for line in after), competition_places([line.total for line in after])))
    passed, passed_by = [], []
    for line in after:
        if line.player == player:
            continue
        ahead_before = was.total is None or line.total > was.total
        ahead_after = now.total is None or line.total > now.total
        moved = Overtaken(line.player, line.total, ranks_before[line.player], ranks_after[line.player])
        if was.total is not None and now.total is not None and ahead_before and not ahead_after:
            passed.append(moved)
        elif was.total is not None and now.total is not None and not ahead_before and ahead_after:
            passed_by.append(moved)
    place = added.place or 0
    base = base_rank(added.players, place, "round" if era.integer_base_ranks else "none")
    return WhatIf(player, ruleset, era.name, day, place, added.players, added.weight, added.date, base,
                  aged_factor(added.date, day, era), was, now, tuple(passed), tuple(passed_by))


# --- the eras side by side ----------------------------------------------------------------------

@dataclass(frozen=True)
class EraPlaces:
    """A player's place and total under each era (None where not ranked) and ``spread``: the
    places between their best and worst era (None unless ranked under at least two)."""

    player: str
    ranks: dict[str, int | None]
    totals: dict[str, float | None]
    spread: int | None


def eras(results: Iterable[Result], as_of: Any, *, ruleset: str, ties: TiePolicy = "best") -> list[EraPlaces]:
    """Every player ranked under any era on ``as_of``, ranked under each of :data:`RULES`; in the
    order of the ranking under the era in force on ``as_of``, then of the other eras, then by ID."""
    items = list(results)
    day = as_date("as_of", as_of)
    ruleset = ruleset_name(ruleset)
    ranks: dict[str, dict[str, int | None]] = {}
    totals: dict[str, dict[str, float | None]] = {}
    for rules in RULES:
        board = rankings(items, day, rules, ruleset_name=ruleset, ties=ties)
        for rank, line in zip(competition_places([line.total for line in board]), board):
            ranks.setdefault(line.player, dict.fromkeys(RULES))[rules] = rank
            totals.setdefault(line.player, dict.fromkeys(RULES))[rules] = line.total
    in_force = era_of(None, day).name
    order = (in_force, *(r for r in RULES if r != in_force))
    rows = []
    for player, places in ranks.items():
        known = [p for p in places.values() if p is not None]
        rows.append(EraPlaces(player, places, totals[player], max(known) - min(known) if len(known) > 1 else None))
    rows.sort(key=lambda row: (*(row.ranks[r] if row.ranks[r] is not None else math.inf for r in order), row.player))
    return rows


ERA_COLUMNS = ("player", "name", *(f"rank_{r}" for r in RULES), *(f"total_{r}" for r in RULES), "spread")
"""The columns of :func:`era_line`, in every output's order."""


def era_line(row: EraPlaces, names: Mapping[str, str]) -> dict[str, Any]:
    """One player's line of the eras side by side (``names``: EMA ID -> name)."""
    return ({"player": row.player, "name": names.get(row.player, "")}
            | {f"rank_{r}": row.ranks[r] for r in RULES} | {f"total_{r}": row.totals[r] for r in RULES}
            | {"spread": row.spread})


def moved_most(rows: Sequence[EraPlaces], shown: int = 10) -> list[EraPlaces]:
    """The players whose place differs most between eras, the largest spread first (then by the
    order of ``rows``)."""
    moving = [row for row in rows if row.spread]
    return sorted(moving, key=lambda row: -(row.spread or 0))[:shown]
