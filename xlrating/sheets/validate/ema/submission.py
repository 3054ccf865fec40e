"""What a validated EMA results sheet says: the tournament and one row per player."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from xlrating.core import mers


@dataclass
class Tournament:
    """The tournament block. A field is None when missing or unreadable (a finding says which)."""

    name: str | None = None
    ruleset: str | None = None
    city: str | None = None
    country: str | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    days: int | None = None
    players: int | None = None
    countries: int | None = None
    weight: float | None = None  # the declared MERS weight
    qualification: bool | None = None
    effective_date: dt.date | None = None

    @property
    def mers_weight(self) -> float | None:
        """The declared weight, else the 2018 weight computed from its components (qualification
        missing counts as not required); None when neither is available."""
        if self.weight is not None:
            return self.weight
        if self.days is None or self.players is None or self.countries is None:
            return None
        return mers.tournament_weight(self.days, self.players, self.countries, bool(self.qualification))


@dataclass
class PlayerRow:
    """One player's line of the results table (``row`` is the sheet row)."""

    row: int
    place: int | None
    ema_id: str | None  # None: a player from outside the EMA
    last_name: str | None
    first_name: str | None
    country: str | None
    table_points: float | None = None
    score: float | None = None


@dataclass
class Submission:
    """A whole sheet as read: complete only when validation found no errors."""

    tournament: Tournament
    players: list[PlayerRow] = field(default_factory=list)
    results_sheet: str | None = None
