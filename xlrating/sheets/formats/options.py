"""What the user says about an event that the file read does not (or says otherwise): the options
of ``xlrating import FORMAT FILE``. An option given wins over the file; a value neither gives is a
finding naming the option."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

PlayerKey = Literal["name", "id"]


@dataclass(frozen=True)
class ImportOptions:
    event: str | None = None  # the event's name
    date: dt.date | None = None  # its (last) date; DCI: every match's date
    rounds: int | None = None  # Dip Pouch: the number of rounds
    players: int | None = None  # Dip Pouch: the declared number of players
    world_championship: bool | None = None  # Dip Pouch: a World Championship
    location: str | None = None  # Dip Pouch: where the event was played
    category: str | None = None  # DCI: the rating category
    tier: str | None = None  # DCI: the event tier
    k: float | None = None  # DCI: the K-value
    player: PlayerKey = "name"  # DCI: players by name or by their DCI number
    sheet: str | None = None  # EMA workbook: only this sheet
