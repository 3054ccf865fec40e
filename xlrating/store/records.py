"""What goes into the results store and what comes out of it, for every rating system alike.

A system hands the store :class:`EventRecord` values (an event with its :class:`EntryRecord` rows:
standings or matches) and gets back :class:`StoredEvent` and :class:`StoredEntry` values. What only
one system keeps (a ruleset, a tournament weight, a K-value, a player's score) travels in ``facts``,
a JSON object the store keeps as it is and never reads; the store itself knows events, versions,
entries, players and the files received.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["stored", "replaced", "unchanged", "refused"]
Facts = Mapping[str, Any]


@dataclass(frozen=True)
class EntryRecord:
    """One row of an event as its system stores it: a standing (``place``) or a match (``opponent``,
    ``result``, ``round``, ``date``); ``player`` None for a player without a key (MERS: no EMA ID)."""

    row: int
    player: str | None
    place: int | None = None
    opponent: str | None = None
    result: float | None = None
    round: int | None = None
    date: dt.date | None = None
    facts: Facts = field(default_factory=dict)


@dataclass(frozen=True)
class EventRecord:
    """One event of a validated submission. ``key`` tells its versions apart from other events of
    the system (a name folded and a first date, say); ``fingerprint`` changes exactly when what the
    system considers its content changes; ``label`` is how messages name it."""

    key: str
    name: str
    start_date: dt.date
    end_date: dt.date
    players: int
    fingerprint: str
    label: str
    entries: tuple[EntryRecord, ...]
    facts: Facts = field(default_factory=dict)
    sheet: str | None = None


@dataclass(frozen=True)
class PlayerRecord:
    """What a submission says of a player that the system keeps beside its entries (the EMA's
    register: a name and a country as last submitted)."""

    player: str
    facts: Facts


@dataclass(frozen=True)
class StoredEvent:
    """One stored version of an event. ``number`` is its number in its system's addresses
    (``/tournaments/3``); ``current`` is False once a later version replaced it."""

    id: int
    system: str
    number: int
    key: str
    name: str
    start_date: dt.date
    end_date: dt.date
    players: int
    version: int
    current: bool
    facts: Facts
    fingerprint: str
    sheet: str | None
    file_name: str
    sha256: str
    stored_at: str
    replaced_at: str | None


@dataclass(frozen=True)
class StoredEntry:
    """One stored row of an event version, in the order of the file it came from."""

    event_id: int
    row: int
    player: str | None
    place: int | None
    opponent: str | None
    result: float | None
    round: int | None
    date: dt.date | None
    facts: Facts


@dataclass(frozen=True)
class StoredPlayer:
    system: str
    player: str
    facts: Facts


@dataclass(frozen=True)
class EventChange:
    """What one ingest did (or would do) to one event: ``stored`` (new), ``replaced``, ``unchanged``
    or ``refused`` (``reason`` says why); ``version`` is the version it is (or would be) stored as,
    or for a refusal the current version (0: none)."""

    label: str
    status: Status
    version: int
    reason: str = ""
    name: str = ""


@dataclass(frozen=True)
class KnownFile:
    """The same file was stored before: when, under which name, and the event versions it gave."""

    file_name: str
    received_at: str
    versions: tuple[tuple[str, int, bool], ...]  # (event name, version, still current)


@dataclass(frozen=True)
class IngestOutcome:
    """What an ingest did: ``refused`` if any event is; else ``replaced`` or ``stored`` if any
    event was written; else ``unchanged``. ``message`` is the system's sentence for people."""

    status: Status
    message: str
    changes: tuple[EventChange, ...] = ()
    known: KnownFile | None = None
    accepted: bool = False  # the ranking officer accepted the file: it is kept even when nothing changed

    @property
    def replaceable(self) -> bool:
        """Whether ``--replace`` (the officer's "replace the stored version") would store it:
        refused only because a stored event has other content."""
        return any(c.status == "refused" and c.version > 0 for c in self.changes)


@dataclass(frozen=True)
class Submission:
    """A validated file as its system hands it to the store: its events, what it says of players,
    how the system words an outcome, and whether two events of one name may overlap in time."""

    system: str
    events: tuple[EventRecord, ...]
    describe: Callable[[IngestOutcome], str]
    players: tuple[PlayerRecord, ...] = ()
    refuse_overlap: bool = False
    # the note kept with the ranking officer's acceptance (default: the message)
    note: Callable[[IngestOutcome], str] | None = None

    def decision_note(self, outcome: IngestOutcome) -> str:
        return self.note(outcome) if self.note is not None else outcome.message


def records_json(events: Sequence[EventRecord], players: Sequence[PlayerRecord] = ()) -> str:
    """A submission's records as JSON, for keeping what a checked file said until it is accepted."""
    def entry(e: EntryRecord) -> dict[str, Any]:
        return {"row": e.row, "player": e.player, "place": e.place, "opponent": e.opponent, "result": e.result,
                "round": e.round, "date": e.date.isoformat() if e.date else None, "facts": dict(e.facts)}

    return json.dumps({
        "events": [{"key": e.key, "name": e.name, "start_date": e.start_date.isoformat(),
                    "end_date": e.end_date.isoformat(), "players": e.players, "fingerprint": e.fingerprint,
                    "label": e.label, "entries": [entry(x) for x in e.entries], "facts": dict(e.facts),
                    "sheet": e.sheet} for e in events],
        "players": [{"player": p.player, "facts": dict(p.facts)} for p in players],
    }, ensure_ascii=False, separators=(",", ":"))


def records_from_json(text: str) -> tuple[tuple[EventRecord, ...], tuple[PlayerRecord, ...]]:
    """The records :func:`records_json` kept."""
    data = json.loads(text)

    def day(value: str | None) -> dt.date | None:
        return dt.date.fromisoformat(value) if value else None

    events = tuple(EventRecord(
        e["key"], e["name"], dt.date.fromisoformat(e["start_date"]), dt.date.fromisoformat(e["end_date"]),
        e["players"], e["fingerprint"], e["label"],
        tuple(EntryRecord(x["row"], x["player"], x["place"], x["opponent"], x["result"], x["round"], day(x["date"]),
                          x["facts"]) for x in e["entries"]), e["facts"], e["sheet"]) for e in data["events"])
    return events, tuple(PlayerRecord(p["player"], p["facts"]) for p in data["players"])
