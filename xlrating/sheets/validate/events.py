"""What a validated Dip Pouch results or DCI matches table says: its events, each with its rows.

A table file holds any number of events; the store keeps each event separately, versioned (see
:mod:`xlrating.store.events`). An event's :attr:`fingerprint` is a hash of what it says (not of
the row order or the file's format), so that a file saved again, or another file holding the same
event unchanged, is recognised as the same version.

- Dip Pouch: an event is the rows with one event name and one date (as ``rank dippouch`` groups
  them); it declares players, rounds and whether it is a World Championship.
- DCI: an event is the rows with one event name (an empty name is an event too) on consecutive
  days whose round numbers continue (a two-day event's second day starts after the first day's
  last round; the same name a week later, or starting again at round 1, is another event).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xlrating.core.names import fold

if TYPE_CHECKING:  # the rating engines load numpy; recognising a table does not need them
    from xlrating.core import dci, dippouch



@dataclass(frozen=True)
class DipPouchEvent:
    name: str
    date: dt.date
    players: int
    rounds: int
    world_championship: bool
    results: tuple[dippouch.Result, ...]
    location: str | None = None  # where it was played, when the table says
    details: tuple[tuple[str | None, float | None], ...] = ()  # each result's (country, score), when given

    system = "dippouch"

    @property
    def key(self) -> str:
        return f"{fold(self.name)}|{self.date.isoformat()}"

    @property
    def start_date(self) -> dt.date:
        return self.date

    @property
    def end_date(self) -> dt.date:
        return self.date

    @property
    def fingerprint(self) -> str:
        standings = sorted([r.place, r.player] for r in self.results)
        content: list[object] = [self.name, self.date.isoformat(), self.players, self.rounds,
                                 self.world_championship, standings]
        if self.location is not None or any(d != (None, None) for d in self.details):
            # only then: an event stored before the table had these columns keeps its fingerprint
            shown = sorted([r.place, r.player, country or "", score] for r, (country, score)
                           in zip(self.results, self.details or ((None, None),) * len(self.results)))
            content += [self.location or "", shown]
        return _digest(content)

    def label(self) -> str:
        return f"{self.name} ({self.date.isoformat()})"


@dataclass(frozen=True)
class DciEvent:
    name: str  # "" when the table has no event name for these matches
    matches: tuple[dci.Match, ...]
    tiers: tuple[str | None, ...] = field(default=())  # the tier named on each match's row, if any
    # each match's (player's country, opponent's country) as its row gives them, when the table has them
    countries: tuple[tuple[str | None, str | None], ...] = field(default=())

    system = "dci"

    @property
    def start_date(self) -> dt.date:
        return min(m.date for m in self.matches)

    @property
    def end_date(self) -> dt.date:
        return max(m.date for m in self.matches)

    @property
    def key(self) -> str:
        return f"{fold(self.name)}|{self.start_date.isoformat()}"

    @property
    def players(self) -> int:
        return len({m.player for m in self.matches} | {m.opponent for m in self.matches if m.opponent})

    @property
    def rounds(self) -> int:
        return max(m.round for m in self.matches)

    @property
    def fingerprint(self) -> str:
        n = len(self.matches)
        shown = any(pair != (None, None) for pair in self.countries)
        rows = sorted([m.date.isoformat(), m.round, m.player, m.opponent or "", m.result, m.k, m.category,
                       tier or "", *((player or "", opponent or "") if shown else ())]
                      for m, tier, (player, opponent) in zip(self.matches, self.tiers or (None,) * n,
                                                             self.countries or ((None, None),) * n))
        # the countries only when given: an event stored before the table had them keeps its fingerprint
        return _digest([self.name, rows])

    def player_countries(self) -> dict[str, str]:
        """Each player's country in this event, as its rows give it (a valid table gives one per
        player and event); players without one are left out."""
        found: dict[str, str] = {}
        for m, (player, opponent) in zip(self.matches, self.countries):
            for name, country in ((m.player, player), (m.opponent, opponent)):
                if name is not None and country is not None:
                    found.setdefault(name, country)
        return found

    def label(self) -> str:
        name = self.name or "matches without an event name"
        days = self.start_date.isoformat() + (f" to {self.end_date.isoformat()}"
                                              if self.end_date != self.start_date else "")
        return f"{name} ({days})"


Event = DipPouchEvent | DciEvent


@dataclass
class EventTable:
    """A whole table as read: complete only when validation found no errors. ``title`` is what the
    table is (``Dip Pouch results``); its events are the system's (each with a ``label()``)."""

    system: str
    title: str
    sheet: str | None = None
    events: list[Any] = field(default_factory=list)

    def label(self) -> str:
        """``Dip Pouch results: Spring Cup (2023-04-16), ... (4 events)``, for the intake queue."""
        names = ", ".join(e.label() for e in self.events[:3])
        more = f" and {len(self.events) - 3} more" if len(self.events) > 3 else ""
        count = f" ({len(self.events)} events)" if len(self.events) > 1 else ""
        return f"{self.title}: {names}{more}{count}" if self.events else self.title


def _digest(content: object) -> str:
    return hashlib.sha256(json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


def event_groups(keys: list[tuple[str, dt.date, int]]) -> list[list[int]]:
    """The indices of ``(event name, date, round)`` keys grouped into DCI events (see the module
    docstring), each group in index order, the groups in the order of their first index."""
    by_name: dict[str, list[int]] = {}
    for i, (name, _, _) in enumerate(keys):
        by_name.setdefault(fold(name), []).append(i)
    groups: list[list[int]] = []
    for indices in by_name.values():
        days: dict[dt.date, list[int]] = {}
        for i in indices:
            days.setdefault(keys[i][1], []).append(i)
        current: list[int] = []
        last_day: dt.date | None = None
        for day in sorted(days):
            first_round = min(keys[i][2] for i in days[day])
            continues = (last_day is not None and (day - last_day).days == 1
                         and first_round > max(keys[i][2] for i in current))
            if current and not continues:
                groups.append(current)
                current = []
            current = current + days[day]
            last_day = day
        groups.append(current)
    groups.sort(key=min)
    return [sorted(g) for g in groups]


def dci_events(matches: list[dci.Match], tiers: list[str | None],
               countries: list[tuple[str | None, str | None]] | None = None) -> list[DciEvent]:
    """The matches of a valid table grouped into events (see the module docstring), in table order
    of their first row; ``countries[i]``: the player's and the opponent's country on match i's row."""
    groups = event_groups([(m.event, m.date, m.round) for m in matches])
    given = countries or [(None, None)] * len(matches)
    return [DciEvent(matches[g[0]].event, tuple(matches[i] for i in g), tuple(tiers[i] for i in g),
                     tuple(given[i] for i in g)) for g in groups]
