"""Dip Pouch and DCI events in the results store: stored, versioned and read back.

A validated table (:class:`~xlrating.sheets.validate.events.EventTable`) is stored in one
``BEGIN IMMEDIATE`` transaction with the file's bytes: all of it or nothing. Each event of the
table is compared with the current version of the same event (system, name accent/case-folded,
first date):

- the same file again (its SHA-256 already stored) changes nothing: ``unchanged``;
- an event not stored yet is stored as version 1;
- an event stored with the same content (its fingerprint: the standings or matches, not their
  order) stays as it is;
- an event stored with other content is ``refused`` (the whole file) unless ``replace``; then the
  new version becomes current and the old one stays in the history (``replaced_at`` set);
- a DCI event whose dates overlap a stored event of the same name with another first date is
  refused: the two could not be told apart when the matches are rated.

When no event is new or changed the file is not kept, except when the ranking officer accepted it
(``intake_id``): then the bytes are kept and the decision recorded, in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from xlrating.core.names import fold
from xlrating.sheets.validate.events import SYSTEM_TITLES, DipPouchEvent, Event, EventTable
from xlrating.store.errors import StoreError
from xlrating.store.intake import record_acceptance, utc_now

if TYPE_CHECKING:  # the rating engines (numpy) are loaded only by what reads them back
    from xlrating.core import dci, dippouch

Status = Literal["stored", "replaced", "unchanged", "refused"]


@dataclass(frozen=True)
class EventChange:
    """What one ingest did to one event: ``stored`` (new), ``replaced``, ``unchanged`` or ``refused``."""

    label: str
    status: Status
    version: int
    reason: str = ""


@dataclass(frozen=True)
class EventsOutcome:
    status: Status  # refused if any event is; else stored/replaced if any event is; else unchanged
    message: str
    events: list[EventChange] = field(default_factory=list)


@dataclass(frozen=True)
class EventVersion:
    """One stored version of a Dip Pouch or DCI event (``current`` False once replaced)."""

    system: str
    key: str
    name: str
    start_date: dt.date
    end_date: dt.date
    version: int
    current: bool
    players: int
    rounds: int
    world_championship: bool | None
    file_name: str
    sha256: str
    stored_at: str
    replaced_at: str | None


class EventStore:
    """The Dip Pouch and DCI methods of :class:`~xlrating.store.sqlite.SQLiteStore` (a mixin)."""

    _db: sqlite3.Connection
    path: str

    def ingest_events(self, file_name: str, content: bytes, table: EventTable, *, replace: bool = False,
                      intake_id: int | None = None) -> EventsOutcome:
        """Store a validated table's events; see the module docstring for the rules."""
        if not table.events:
            raise ValueError("ingest_events needs a table that passed validation")
        sha = hashlib.sha256(content).hexdigest()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")  # waits up to the busy timeout for another writer
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot start writing ({exc})") from None
        try:
            outcome = self._ingest_events(db, file_name, content, sha, table, replace, intake_id)
            keep = outcome.status != "refused" and (intake_id is not None or outcome.status != "unchanged")
            db.execute("COMMIT" if keep else "ROLLBACK")
        except sqlite3.Error as exc:
            db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: could not store {file_name}, nothing was changed ({exc})") from None
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return outcome

    def _ingest_events(self, db: sqlite3.Connection, file_name: str, content: bytes, sha: str, table: EventTable,
                       replace: bool, intake_id: int | None) -> EventsOutcome:
        known = db.execute("SELECT id, file_name, received_at FROM submissions WHERE sha256 = ?", (sha,)).fetchone()
        if known is not None:
            message = f"this file was already stored on {known[2]} (as {known[1]!r}); nothing changed"
            if intake_id is not None:
                record_acceptance(db, intake_id, known[0], message)
            return EventsOutcome("unchanged", message)
        title = SYSTEM_TITLES[table.system]
        plan: list[tuple[Event, tuple[Any, ...] | None, EventChange]] = []
        for event in table.events:
            current = self._current(db, table.system, event)
            plan.append((event, current, self._change(db, table.system, event, current, replace)))
        changes = [change for _, _, change in plan]
        refused = [c for c in changes if c.status == "refused"]
        if refused:
            reasons = "; ".join(f"{c.label}: {c.reason}" for c in refused)
            return EventsOutcome("refused", f"{title} not stored: {reasons}", changes)
        writes = [(e, cur, c) for e, cur, c in plan if c.status != "unchanged"]
        if not writes and intake_id is None:
            return EventsOutcome("unchanged", f"every event of this file is already stored as it is "
                                              f"({_count(len(changes), 'event')}); nothing changed", changes)
        now = utc_now()
        submission_id = db.execute(
            "INSERT INTO submissions (file_name, sha256, size, content, received_at) VALUES (?, ?, ?, ?, ?)",
            (file_name, sha, len(content), content, now)).lastrowid
        assert submission_id is not None
        for event, current, change in writes:
            if current is not None:
                db.execute("UPDATE events SET replaced_at = ? WHERE id = ?", (now, current[0]))
            self._insert_event(db, table, event, change.version, submission_id, now)
        message = _summary(title, changes)
        if intake_id is not None:
            record_acceptance(db, intake_id, submission_id, message)
        status: Status = ("replaced" if any(c.status == "replaced" for c in changes) else
                          "stored" if writes else "unchanged")
        return EventsOutcome(status, message, changes)

    def planned_changes(self, table: EventTable, *, replace: bool = False) -> list[EventChange]:
        """What :meth:`ingest_events` would do to each event of ``table`` now, without writing:
        for showing the ranking officer, before accepting, which events are new, unchanged or
        would replace a stored version."""
        db = self._db
        return [self._change(db, table.system, event, self._current(db, table.system, event), replace)
                for event in table.events]

    @staticmethod
    def _current(db: sqlite3.Connection, system: str, event: Event) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = db.execute(
            "SELECT id, version, fingerprint FROM events WHERE system = ? AND event_key = ? AND replaced_at IS NULL",
            (system, event.key)).fetchone()
        return row

    def _change(self, db: sqlite3.Connection, system: str, event: Event, current: tuple[Any, ...] | None,
                replace: bool) -> EventChange:
        label = event.label()
        if current is not None:
            if current[2] == event.fingerprint:
                return EventChange(label, "unchanged", current[1])
            if not replace:
                return EventChange(label, "refused", current[1],
                                   f"already stored as version {current[1]} with other results (from another file)")
            return EventChange(label, "replaced", current[1] + 1)
        overlap = db.execute(
            "SELECT name, start_date, end_date FROM events WHERE system = ? AND name_key = ? AND event_key != ? "
            "AND replaced_at IS NULL AND start_date <= ? AND end_date >= ?",
            (system, fold(event.name), event.key, event.end_date.isoformat(), event.start_date.isoformat())).fetchone()
        if overlap is not None:
            return EventChange(label, "refused", 0, f"its dates overlap the stored event {overlap[0]!r} "
                                                    f"({overlap[1]} to {overlap[2]}); expected one event per "
                                                    f"name and dates")
        return EventChange(label, "stored", 1)

    def _insert_event(self, db: sqlite3.Connection, table: EventTable, event: Event, version: int,
                      submission_id: int, now: str) -> None:
        championship = int(event.world_championship) if isinstance(event, DipPouchEvent) else None
        location = event.location if isinstance(event, DipPouchEvent) else None
        event_id = db.execute(
            "INSERT INTO events (system, event_key, name_key, version, submission_id, sheet, name, start_date, "
            "end_date, players, rounds, world_championship, fingerprint, stored_at, location) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table.system, event.key, fold(event.name), version, submission_id, table.sheet, event.name,
             event.start_date.isoformat(), event.end_date.isoformat(), event.players, event.rounds, championship,
             event.fingerprint, now, location)).lastrowid
        if isinstance(event, DipPouchEvent):
            details = event.details or ((None, None),) * len(event.results)
            db.executemany(
                "INSERT INTO standings (event_id, sheet_row, player, place, country, score) VALUES (?, ?, ?, ?, ?, ?)",
                [(event_id, r.row or 0, r.player, r.place, country, score)
                 for r, (country, score) in zip(event.results, details)])
        else:
            tiers = event.tiers or (None,) * len(event.matches)
            countries = event.countries or ((None, None),) * len(event.matches)
            db.executemany(
                "INSERT INTO matches (event_id, sheet_row, match_date, round, player, opponent, result, k, tier, "
                "category, player_country, opponent_country) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(event_id, m.row or 0, m.date.isoformat(), m.round, m.player, m.opponent, m.result, m.k, tier,
                  m.category, player_country, opponent_country)
                 for m, tier, (player_country, opponent_country) in zip(event.matches, tiers, countries)])

    # --- reading ------------------------------------------------------------------------------

    def dippouch_results(self) -> list[dippouch.Result]:
        """Every standing of the current version of each Dip Pouch event, as ``rank dippouch``
        reads them from a table (row: the row in the file it came from)."""
        from xlrating.core import dippouch

        rows = self._db.execute(
            "SELECT e.name, e.start_date, e.players, e.rounds, e.world_championship, s.player, s.place, s.sheet_row "
            "FROM events e JOIN standings s ON s.event_id = e.id WHERE e.system = 'dippouch' AND e.replaced_at IS NULL "
            "ORDER BY e.start_date, e.id, s.id").fetchall()
        return [dippouch.Result(name, dt.date.fromisoformat(day), players, rounds, player, place, bool(wc), row)
                for name, day, players, rounds, wc, player, place, row in rows]

    def dci_matches(self) -> list[dci.Match]:
        """Every match of the current version of each DCI event, as ``rank dci`` reads them."""
        from xlrating.core import dci

        rows = self._db.execute(
            "SELECT m.match_date, m.round, m.player, m.opponent, m.result, e.name, m.k, m.category, m.sheet_row "
            "FROM events e JOIN matches m ON m.event_id = e.id WHERE e.system = 'dci' AND e.replaced_at IS NULL "
            "ORDER BY e.start_date, e.id, m.id").fetchall()
        return [dci.Match(dt.date.fromisoformat(day), rnd, player, opponent, result, name, k, category, row)
                for day, rnd, player, opponent, result, name, k, category, row in rows]

    def events(self, system: str | None = None, *, history: bool = False) -> list[EventVersion]:
        """Stored Dip Pouch and DCI events (every version when ``history``), oldest first."""
        rows = self._db.execute(
            "SELECT e.system, e.event_key, e.name, e.start_date, e.end_date, e.version, e.replaced_at IS NULL, "
            "e.players, e.rounds, e.world_championship, s.file_name, s.sha256, e.stored_at, e.replaced_at "
            "FROM events e JOIN submissions s ON s.id = e.submission_id WHERE (? IS NULL OR e.system = ?) "
            "AND (? OR e.replaced_at IS NULL) ORDER BY e.start_date, e.system, e.event_key, e.version",
            (system, system, history)).fetchall()
        return [EventVersion(r[0], r[1], r[2], dt.date.fromisoformat(r[3]), dt.date.fromisoformat(r[4]), r[5],
                             bool(r[6]), r[7], r[8], None if r[9] is None else bool(r[9]), r[10], r[11], r[12],
                             r[13]) for r in rows]

    def event_rows(self, system: str, key: str, version: int | None = None) -> list[dict[str, Any]]:
        """The standings (Dip Pouch) or matches (DCI) of one event, its current version unless
        ``version``, in the file's row order."""
        event = self._db.execute(
            "SELECT id FROM events WHERE system = ? AND event_key = ? AND "
            "(version = ? OR (? IS NULL AND replaced_at IS NULL))", (system, key, version, version)).fetchone()
        if event is None:
            return []
        if system == "dippouch":
            names = ("row", "player", "place", "country")
            sql = "SELECT sheet_row, player, place, country FROM standings WHERE event_id = ? ORDER BY place, id"
        else:
            names = ("row", "date", "round", "player", "opponent", "result", "k", "tier", "category",
                     "player_country", "opponent_country")
            sql = ("SELECT sheet_row, match_date, round, player, opponent, result, k, tier, category, player_country, "
                   "opponent_country FROM matches WHERE event_id = ? ORDER BY id")
        return [dict(zip(names, row)) for row in self._db.execute(sql, (event[0],)).fetchall()]


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _summary(title: str, changes: list[EventChange]) -> str:
    parts = []
    for status, words in (("stored", "new"), ("replaced", "replaced"), ("unchanged", "unchanged")):
        chosen = [c for c in changes if c.status == status]
        if chosen:
            shown = ", ".join(f"{c.label} v{c.version}" if status != "unchanged" else c.label for c in chosen[:5])
            more = f" and {len(chosen) - 5} more" if len(chosen) > 5 else ""
            parts.append(f"{_count(len(chosen), 'event')} {words} ({shown}{more})")
    return f"stored {title}: " + "; ".join(parts)


__all__ = ["EventChange", "EventStore", "EventVersion", "EventsOutcome"]
