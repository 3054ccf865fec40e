"""The events of every rating system in the results store: stored, versioned and read back.

A validated submission (:class:`~xlrating.store.records.Submission`: its system's events, each with
its entries) is stored in one transaction with the file's bytes: all of it or nothing. Each event
is compared with the current version of the same event (same system and ``key``):

- the same file again (its SHA-256 already stored) changes nothing: ``unchanged``;
- an event not stored yet is stored as version 1 (when the system refuses overlaps, only if no
  current event of the same name covers any of its days: the two could not be told apart);
- an event stored with the same ``fingerprint`` stays as it is;
- an event stored with another fingerprint is ``refused`` (the whole file) unless ``replace``; then
  the new version becomes current and the old one stays in the history (``replaced_at`` set).

When no event is new or changed the file is not kept, except when the ranking officer accepted it
(``intake_id``): then the bytes are kept and the decision recorded, in the same transaction. The
system words the outcome (``Submission.describe``); the store only decides it.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from xlrating.core.names import fold
from xlrating.store.intake import record_acceptance, utc_now
from xlrating.store.records import (
    EventChange,
    EventRecord,
    IngestOutcome,
    KnownFile,
    Status,
    StoredEntry,
    StoredEvent,
    StoredPlayer,
    Submission,
)
from xlrating.store.register import identities_of, registered
from xlrating.store.transaction import transaction

_EVENT = ("SELECT e.id, e.system, e.number, e.event_key, e.name, e.start_date, e.end_date, e.players, e.version, "
          "e.replaced_at IS NULL, e.facts, e.fingerprint, e.sheet, s.file_name, s.sha256, e.stored_at, e.replaced_at "
          "FROM events e JOIN submissions s ON s.id = e.submission_id")
_ENTRY = "SELECT event_id, sheet_row, player, place, opponent, result, round, entry_date, facts FROM entries"


def _event(row: Sequence[Any]) -> StoredEvent:
    return StoredEvent(row[0], row[1], row[2], row[3], row[4], dt.date.fromisoformat(row[5]),
                       dt.date.fromisoformat(row[6]), row[7], row[8], bool(row[9]), json.loads(row[10]), row[11],
                       row[12], row[13], row[14], row[15], row[16])


@functools.lru_cache(maxsize=4096)
def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _entry(row: Sequence[Any]) -> StoredEntry:
    return StoredEntry(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                       dt.date.fromisoformat(row[7]) if row[7] else None, json.loads(row[8]))


def _json(values: Any) -> str:
    given = [(k, type(v), v) for k, v in dict(values).items() if v is not None]
    try:
        return _json_of(tuple(given))
    except TypeError:  # a list or a mapping among the values: encoded each time
        return _encoded({k: v for k, _, v in given})


# The facts of a history's entries repeat (the same K, category and countries on thousands of
# matches): each distinct set encoded once. Keyed by type too: 16 and 16.0 are equal but encode apart.
@functools.lru_cache(maxsize=4096)
def _json_of(given: tuple[tuple[str, type[Any], Any], ...]) -> str:
    return _encoded({k: v for k, _, v in given})


def _encoded(values: dict[str, Any]) -> str:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Ledger:
    """The events methods of :class:`~xlrating.store.sqlite.SQLiteStore` (a mixin over its ``_db``)."""

    _db: sqlite3.Connection
    path: str

    # --- writing --------------------------------------------------------------------------------

    def ingest(self, file_name: str, content: bytes, submission: Submission, *, replace: bool = False,
               intake_id: int | None = None, progress: Callable[[int, int], None] | None = None) -> IngestOutcome:
        """Store a validated submission; see the module docstring for the rules. ``intake_id``: the
        pending web submission this is; it is marked accepted in the same transaction (raises
        :class:`~xlrating.store.intake.IntakeError` if it is not pending). ``progress`` is told
        ``(events written, events to write)`` as the events are written (a federation's history
        has thousands); the transaction is still one."""
        if not submission.events:
            raise ValueError("ingest needs a submission that passed validation")
        sha = hashlib.sha256(content).hexdigest()
        with transaction(self._db, self.path, f"store {file_name}") as block:
            outcome = self._ingest(block.db, file_name, content, sha, submission, replace, intake_id, progress)
            if outcome.status == "refused" or (intake_id is None and outcome.status == "unchanged"):
                block.discard()
        return outcome

    def _ingest(self, db: sqlite3.Connection, file_name: str, content: bytes, sha: str, submission: Submission,
                replace: bool, intake_id: int | None,
                progress: Callable[[int, int], None] | None = None) -> IngestOutcome:
        known = db.execute("SELECT id, file_name, received_at FROM submissions WHERE sha256 = ?", (sha,)).fetchone()
        if known is not None:
            versions = tuple((name, version, bool(current)) for name, version, current in db.execute(
                "SELECT name, version, replaced_at IS NULL FROM events WHERE submission_id = ? AND system = ? "
                "ORDER BY id", (known[0], submission.system)))
            file = KnownFile(known[1], known[2], versions)
            accepted = intake_id is not None
            outcome = IngestOutcome("unchanged", submission.describe(IngestOutcome("unchanged", "", (), file, accepted)),
                                    (), file, accepted)
            if intake_id is not None:
                record_acceptance(db, intake_id, known[0], submission.decision_note(outcome))
            return outcome
        plan = [(event, self._current(db, submission.system, event.key)) for event in submission.events]
        changes = tuple(self._change(db, submission, event, current, replace) for event, current in plan)
        status: Status = ("refused" if any(c.status == "refused" for c in changes) else
                          "replaced" if any(c.status == "replaced" for c in changes) else
                          "stored" if any(c.status == "stored" for c in changes) else "unchanged")
        accepted = intake_id is not None
        outcome = IngestOutcome(status, submission.describe(IngestOutcome(status, "", changes, None, accepted)), changes,
                                None, accepted)
        writes = [(event, current, change) for (event, current), change in zip(plan, changes)
                  if change.status in ("stored", "replaced")]
        if status == "refused" or (not writes and intake_id is None):
            return outcome
        now = utc_now()
        submission_id = db.execute(
            "INSERT INTO submissions (file_name, sha256, size, content, received_at) VALUES (?, ?, ?, ?, ?)",
            (file_name, sha, len(content), content, now)).lastrowid
        assert submission_id is not None
        for done, (event, current, change) in enumerate(writes, start=1):
            if current is not None:
                db.execute("UPDATE events SET replaced_at = ? WHERE id = ?", (now, current[0]))
            self._insert(db, submission.system, event, change.version, submission_id, now)
            if progress is not None:
                progress(done, len(writes))
        if writes:
            db.executemany(
                "INSERT INTO players (system, player, facts, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (system, player) "
                "DO UPDATE SET facts = excluded.facts, updated_by = excluded.updated_by",
                [(submission.system, p.player, _json(p.facts), submission_id) for p in submission.players])
        if intake_id is not None:
            record_acceptance(db, intake_id, submission_id, submission.decision_note(outcome))
        return outcome

    def planned_changes(self, submission: Submission, *, replace: bool = False) -> list[EventChange]:
        """What :meth:`ingest` would do to each event of ``submission`` now, without writing: for
        showing the ranking officer, before accepting, which events are new, unchanged or would
        replace a stored version."""
        db = self._db
        return [self._change(db, submission, event, self._current(db, submission.system, event.key), replace)
                for event in submission.events]

    @staticmethod
    def _current(db: sqlite3.Connection, system: str, key: str) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = db.execute(
            "SELECT id, version, fingerprint FROM events WHERE system = ? AND event_key = ? AND replaced_at IS NULL",
            (system, key)).fetchone()
        return row

    @staticmethod
    def _change(db: sqlite3.Connection, submission: Submission, event: EventRecord, current: tuple[Any, ...] | None,
                replace: bool) -> EventChange:
        if current is not None:
            if current[2] == event.fingerprint:
                return EventChange(event.label, "unchanged", current[1], name=event.name)
            if not replace:
                return EventChange(event.label, "refused", current[1],
                                   f"already stored as version {current[1]} with other results (from another file)",
                                   event.name)
            return EventChange(event.label, "replaced", current[1] + 1, name=event.name)
        if submission.refuse_overlap:
            overlap = db.execute(
                "SELECT name, start_date, end_date FROM events WHERE system = ? AND name_key = ? AND event_key != ? "
                "AND replaced_at IS NULL AND start_date <= ? AND end_date >= ?",
                (submission.system, fold(event.name), event.key, event.end_date.isoformat(),
                 event.start_date.isoformat())).fetchone()
            if overlap is not None:
                return EventChange(event.label, "refused", 0, f"its dates overlap the stored event {overlap[0]!r} "
                                                              f"({overlap[1]} to {overlap[2]}); expected one event per "
                                                              f"name and dates", event.name)
        return EventChange(event.label, "stored", 1, name=event.name)

    @staticmethod
    def _insert(db: sqlite3.Connection, system: str, event: EventRecord, version: int, submission_id: int,
                now: str) -> None:
        number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM events WHERE system = ?", (system,)).fetchone()[0]
        event_id = db.execute(
            "INSERT INTO events (system, number, event_key, name_key, version, submission_id, sheet, name, start_date, "
            "end_date, players, facts, fingerprint, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (system, number, event.key, fold(event.name), version, submission_id, event.sheet, event.name,
             event.start_date.isoformat(), event.end_date.isoformat(), event.players, _json(event.facts),
             event.fingerprint, now)).lastrowid
        db.executemany(
            "INSERT INTO entries (event_id, sheet_row, player, place, opponent, result, round, entry_date, facts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(event_id, e.row, e.player, e.place, e.opponent, e.result, e.round,
              e.date.isoformat() if e.date else None, _json(e.facts)) for e in event.entries])

    # --- reading --------------------------------------------------------------------------------

    def events(self, system: str, *, history: bool = False) -> list[StoredEvent]:
        """The system's stored events (every version when ``history``), in the order they were stored."""
        rows = self._db.execute(f"{_EVENT} WHERE e.system = ? AND (? OR e.replaced_at IS NULL) ORDER BY e.number",
                                (system, history)).fetchall()
        return [_event(row) for row in rows]

    def event(self, system: str, number: int) -> StoredEvent | None:
        """One stored version of an event (current or replaced), by its number, or None."""
        row = self._db.execute(f"{_EVENT} WHERE e.system = ? AND e.number = ?", (system, number)).fetchone()
        return None if row is None else _event(row)

    def versions(self, event: StoredEvent) -> list[StoredEvent]:
        """Every version of the event that ``event`` is a version of, oldest first."""
        rows = self._db.execute(f"{_EVENT} WHERE e.system = ? AND e.event_key = ? ORDER BY e.version",
                                (event.system, event.key)).fetchall()
        return [_event(row) for row in rows]

    def entries(self, events: Iterable[StoredEvent]) -> dict[int, list[StoredEntry]]:
        """Each event's entries (by the event's ``id``), in the order of the file they came from,
        each player as the register says who they are."""
        events = list(events)
        ids = [event.id for event in events]
        found: dict[int, list[StoredEntry]] = {i: [] for i in ids}
        for start in range(0, len(ids), 500):  # SQLite's limit on parameters
            chunk = ids[start:start + 500]
            for row in self._db.execute(f"{_ENTRY} WHERE event_id IN ({','.join('?' * len(chunk))}) ORDER BY id",
                                        chunk):
                found[row[0]].append(_entry(row))
        register = {system: identities_of(self._db, system) for system in {event.system for event in events}}
        for event in events:
            if register[event.system]:
                found[event.id] = [registered(e, event.key, register[event.system]) for e in found[event.id]]
        return found

    def current_entries(self, system: str, *, facts: bool = True) -> list[tuple[StoredEvent, StoredEntry]]:
        """Every entry of the current version of each of the system's events, with its event: the
        events in the order they were stored, each one's entries in its file's order. ``facts``
        False leaves each entry's facts out (``{}``): a leaderboard reads none, and a federation's
        history has hundreds of thousands of entries."""
        events = {e.id: e for e in self.events(system)}
        columns = _ENTRY if facts else _ENTRY.replace(", facts FROM", ", '{}' FROM")
        rows = self._db.execute(
            f"{columns} WHERE event_id IN (SELECT id FROM events WHERE system = ? AND replaced_at IS NULL) ORDER BY id",
            (system,)).fetchall()
        by_event: dict[int, list[StoredEntry]] = {}
        empty: dict[str, Any] = {}
        for row in rows:
            entry = StoredEntry(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                                _day(row[7]) if row[7] else None, json.loads(row[8]) if facts else empty)
            by_event.setdefault(row[0], []).append(entry)
        identities = identities_of(self._db, system)
        if identities:  # each player as the register says who they are
            return [(event, registered(entry, event.key, identities))
                    for event in events.values() for entry in by_event.get(event.id, ())]
        return [(event, entry) for event in events.values() for entry in by_event.get(event.id, ())]

    def player_entries(self, system: str, player: str) -> list[tuple[StoredEvent, StoredEntry]]:
        """Every entry naming ``player`` (as the player or the opponent) in the current version of the
        system's events, with its event, in the order stored; the register applied (the entries of
        every name merged into ``player`` and of the results split to it, not those split away)."""
        identities = identities_of(self._db, system)
        names = sorted(identities.names_of(player)) if identities else [player]
        columns = _ENTRY.removeprefix("SELECT ").removesuffix(" FROM entries")
        lookups = " UNION ".join(f"SELECT id, {columns} FROM entries WHERE player = ? UNION "
                                 f"SELECT id, {columns} FROM entries WHERE opponent = ?" for _ in names)
        rows = self._db.execute(  # indexed lookups (an OR would read every entry)
            f"SELECT {columns} FROM ({lookups}) WHERE event_id IN "
            "(SELECT id FROM events WHERE system = ? AND replaced_at IS NULL) ORDER BY id",
            (*(name for name in names for _ in range(2)), system)).fetchall()
        entries = [_entry(row) for row in rows]
        ids = sorted({e.event_id for e in entries})
        events: dict[int, StoredEvent] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for row in self._db.execute(f"{_EVENT} WHERE e.id IN ({','.join('?' * len(chunk))})", chunk):
                event = _event(row)
                events[event.id] = event
        if identities:
            mapped = [(events[e.event_id], registered(e, events[e.event_id].key, identities)) for e in entries]
            return [(event, e) for event, e in mapped if player in (e.player, e.opponent)]
        return [(events[e.event_id], e) for e in entries]

    def players(self, system: str) -> dict[str, StoredPlayer]:
        """What the system keeps of each player (see :class:`~xlrating.store.records.PlayerRecord`),
        but the names the register merged into another (their player is that one)."""
        rows = self._db.execute("SELECT player, facts FROM players WHERE system = ?", (system,)).fetchall()
        merged = identities_of(self._db, system).aliases
        return {player: StoredPlayer(system, player, json.loads(kept)) for player, kept in rows if player not in merged}

    def revision(self, system: str | None = None) -> tuple[int, ...]:
        """What changes whenever the system's stored events do (a version stored or replaced: events
        are only ever added or marked replaced) or its register does, for keeping what is computed
        from them; every system's when ``system`` is None."""
        row = self._db.execute("SELECT count(*), coalesce(max(id), 0), count(replaced_at), "
                               "(SELECT count(*) FROM register_log WHERE ? IS NULL OR system = ?) FROM events "
                               "WHERE ? IS NULL OR system = ?", (system, system, system, system)).fetchone()
        return int(row[0]), int(row[1]), int(row[2]), int(row[3])

    def submission_content(self, sha256: str) -> bytes | None:
        """The bytes of a stored submission, exactly as submitted."""
        row = self._db.execute("SELECT content FROM submissions WHERE sha256 = ?", (sha256,)).fetchone()
        return None if row is None else bytes(row[0])

    def holds_anything(self) -> bool:
        """Whether the store holds any event or upload at all."""
        return bool(self._db.execute("SELECT EXISTS (SELECT 1 FROM events) OR EXISTS (SELECT 1 FROM intake)"
                                     ).fetchone()[0])
