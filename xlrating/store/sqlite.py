"""The SQLite results store: players, tournaments (every version), results and each accepted
submission as submitted (bytes + SHA-256).

One ingest is one transaction (``BEGIN IMMEDIATE``, so two writers never interleave): either the
whole sheet is stored or nothing is, and a refused ingest does not touch the file. A tournament is
identified by ruleset, name (accent/case-insensitive) and start date; a new file for it replaces
the current version only when asked, and the old version stays in the history.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from xlrating.core.mers import Result
from xlrating.core.names import fold
from xlrating.sheets.validate.ema.submission import Submission
from xlrating.store.errors import StoreError
from xlrating.store.events import EventStore, Status
from xlrating.store.intake import IntakeQueue, record_acceptance, utc_now
from xlrating.store.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = ["IngestOutcome", "SQLiteStore", "StoreError", "TournamentVersion"]



@dataclass(frozen=True)
class IngestOutcome:
    status: Status
    tournament: str
    version: int
    message: str


@dataclass(frozen=True)
class TournamentVersion:
    """One stored version of a tournament (``current`` False once replaced)."""

    name: str
    ruleset: str
    start_date: dt.date
    end_date: dt.date
    version: int
    current: bool
    file_name: str
    sha256: str
    players: int
    weight: float


def tournament_key(submission: Submission) -> str:
    t = submission.tournament
    assert t.name and t.ruleset and t.start_date
    return f"{t.ruleset}|{fold(t.name)}|{t.start_date.isoformat()}"


class SQLiteStore(IntakeQueue, EventStore):
    """A results store in one SQLite file (``:memory:`` for a throwaway one)."""

    def __init__(self, path: str, *, read_only: bool = False):
        self.path = path
        try:
            if read_only:  # readers (rank) never create, migrate or otherwise write a store
                self._db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                           isolation_level=None, timeout=30)
                version = self._schema_version()
                if version == 0:
                    holds = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                    raise StoreError(f"{path}: a SQLite database that is not an xlrating store (it holds other "
                                     f"tables); choose another file with --db" if holds else
                                     f"{path}: an empty database, not a results store; ingest result sheets "
                                     f"into it first")
                if version != SCHEMA_VERSION:
                    raise StoreError(f"{path}: store schema version {version}, this xlrating reads "
                                     f"{SCHEMA_VERSION}; ingest a sheet into it once to upgrade it")
            else:
                self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
                self._db.execute("PRAGMA foreign_keys = ON")
                self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a usable xlrating store ({exc})") from None

    # --- lifecycle ----------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        version = self._schema_version()
        if version == SCHEMA_VERSION:
            return  # nothing to write: opening an up-to-date store leaves the file untouched
        self._db.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have migrated meanwhile.
            version = self._schema_version()
            if version == 0 and self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"{self.path}: a SQLite database that is not an xlrating store (it holds "
                                 f"other tables); choose another file with --db")
            for number in range(version, SCHEMA_VERSION):
                step = MIGRATIONS[number]
                if callable(step):  # a migration that moves rows in Python, inside the same transaction
                    step(self._db)
                    continue
                for statement in step.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def _schema_version(self) -> int:
        version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: store schema version {version} is newer than this xlrating "
                             f"understands ({SCHEMA_VERSION}); upgrade xlrating")
        return version

    # --- writing ------------------------------------------------------------------------------

    def ingest(self, file_name: str, content: bytes, submission: Submission, *, replace: bool = False,
               intake_id: int | None = None) -> IngestOutcome:
        """Store a validated submission in one transaction; see the module docstring for the rules.
        ``intake_id``: the pending web submission this is; it is marked accepted in the same
        transaction (raises :class:`~xlrating.store.intake.IntakeError` if it is not pending)."""
        t = submission.tournament
        if not (t.name and t.ruleset and t.start_date and t.end_date and t.players and t.mers_weight):
            raise ValueError("ingest needs a submission that passed validation")
        sha = hashlib.sha256(content).hexdigest()
        key = tournament_key(submission)
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")  # waits up to the timeout for another writer to finish
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot start writing ({exc})") from None
        try:
            known = db.execute(
                "SELECT t.name, t.version, t.replaced_at, s.id FROM submissions s JOIN tournaments t "
                "ON t.submission_id = s.id WHERE s.sha256 = ?", (sha,)).fetchone()
            if known is not None:
                state = "replaced since" if known[2] else "current"
                message = f"already stored as version {known[1]} of {known[0]!r} ({state}); nothing changed"
                if intake_id is None:
                    db.execute("ROLLBACK")
                else:  # the officer accepted a file the store already holds: recorded, nothing else
                    record_acceptance(db, intake_id, known[3], message)
                    db.execute("COMMIT")
                return IngestOutcome("unchanged", known[0], known[1], message)
            current = db.execute("SELECT id, version FROM tournaments WHERE tournament_key = ? AND replaced_at IS NULL",
                                 (key,)).fetchone()
            if current is not None and not replace:
                db.execute("ROLLBACK")
                return IngestOutcome("refused", t.name, current[1],
                                     f"{t.name!r} ({t.ruleset}, {t.start_date}) is already stored as version "
                                     f"{current[1]} from a different file; use --replace to replace it")
            now = utc_now()
            submission_id = db.execute(
                "INSERT INTO submissions (file_name, sha256, size, content, received_at) VALUES (?, ?, ?, ?, ?)",
                (file_name, sha, len(content), content, now)).lastrowid
            version = 1
            if current is not None:
                db.execute("UPDATE tournaments SET replaced_at = ? WHERE id = ?", (now, current[0]))
                version = current[1] + 1
            tournament_id = db.execute(
                "INSERT INTO tournaments (tournament_key, version, submission_id, name, ruleset, city, country, "
                "start_date, end_date, days, players, countries, declared_weight, qualification, weight, "
                "effective_date, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, version, submission_id, t.name, t.ruleset, t.city, t.country, t.start_date.isoformat(),
                 t.end_date.isoformat(), t.days, t.players, t.countries, t.weight,
                 None if t.qualification is None else int(t.qualification), t.mers_weight,
                 t.effective_date.isoformat() if t.effective_date else None, now)).lastrowid
            self._store_players(submission, submission_id, tournament_id)
            if intake_id is not None:
                record_acceptance(db, intake_id, submission_id, f"stored as version {version}")
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: could not store {file_name}, nothing was changed ({exc})") from None
        except BaseException:
            db.execute("ROLLBACK")
            raise
        status: Status = "replaced" if current is not None else "stored"
        what = f"replaced version {version - 1}" if current is not None else "new tournament"
        return IngestOutcome(status, t.name, version,
                             f"stored {t.name!r} ({t.ruleset}, {t.start_date}) as version {version} "
                             f"({what}), {len(submission.players)} results")

    def _store_players(self, submission: Submission, submission_id: int, tournament_id: int) -> None:
        db = self._db
        for p in submission.players:
            if p.ema_id is not None:
                # The latest submission's spelling of a player's name wins.
                db.execute(
                    "INSERT INTO players (ema_id, last_name, first_name, country, updated_by) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (ema_id) DO UPDATE SET last_name = excluded.last_name, "
                    "first_name = excluded.first_name, country = excluded.country, updated_by = excluded.updated_by",
                    (p.ema_id, p.last_name, p.first_name, p.country, submission_id))
            db.execute(
                "INSERT INTO results (tournament_id, sheet_row, place, ema_id, last_name, first_name, country, "
                "table_points, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, p.row, p.place, p.ema_id, p.last_name, p.first_name, p.country,
                 p.table_points, p.score))

    # --- reading ------------------------------------------------------------------------------

    def mers_results(self, ruleset: str | None = None) -> list[Result]:
        """Every result of the current version of each tournament (optionally one ruleset), as
        :class:`xlrating.core.mers.Result`: date = end date, players = declared N, weight = the
        declared MERS weight or the 2018 weight computed from its components."""
        rows = self._db.execute(
            "SELECT t.id, t.name, t.start_date, t.end_date, t.players, t.weight, t.ruleset, t.effective_date, "
            "r.ema_id, r.place, r.sheet_row FROM tournaments t JOIN results r ON r.tournament_id = t.id "
            "WHERE t.replaced_at IS NULL AND (? IS NULL OR t.ruleset = ?) ORDER BY t.end_date, t.id, r.place, r.id",
            (ruleset, ruleset)).fetchall()
        # Results are grouped by tournament name downstream: tell same-named events apart by date.
        names: dict[str, set[int]] = {}
        for row in rows:
            names.setdefault(row[1], set()).add(row[0])
        results = []
        for (tid, name, start, end, players, weight, rules, effective, ema_id, place, sheet_row) in rows:
            label = name if len(names[name]) == 1 else f"{name} ({start})"
            results.append(Result(label, dt.date.fromisoformat(end), players, weight, ema_id, place, rules,
                                  dt.date.fromisoformat(effective) if effective else None, None, sheet_row))
        return results

    def tournaments(self, *, history: bool = False) -> list[TournamentVersion]:
        """Stored tournaments (every version when ``history``), oldest first."""
        rows = self._db.execute(
            "SELECT t.name, t.ruleset, t.start_date, t.end_date, t.version, t.replaced_at IS NULL, s.file_name, "
            "s.sha256, t.players, t.weight FROM tournaments t JOIN submissions s ON s.id = t.submission_id "
            "WHERE ? OR t.replaced_at IS NULL ORDER BY t.start_date, t.tournament_key, t.version",
            (history,)).fetchall()
        return [TournamentVersion(r[0], r[1], dt.date.fromisoformat(r[2]), dt.date.fromisoformat(r[3]), r[4],
                                  bool(r[5]), r[6], r[7], r[8], r[9]) for r in rows]

    def submission_content(self, sha256: str) -> bytes | None:
        """The bytes of a stored submission, exactly as submitted."""
        row = self._db.execute("SELECT content FROM submissions WHERE sha256 = ?", (sha256,)).fetchone()
        return None if row is None else bytes(row[0])

    def player_count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM players").fetchone()[0])

    def player_names(self) -> dict[str, str]:
        """EMA ID -> "First Last" as last submitted, for showing leaderboards to people."""
        rows = self._db.execute("SELECT ema_id, first_name, last_name FROM players").fetchall()
        return {ema_id: " ".join(p for p in (first, last) if p) for ema_id, first, last in rows}

    def player(self, ema_id: str) -> dict[str, str | None] | None:
        """A player's name and country as last submitted, or None when the store has no such ID."""
        row = self._db.execute("SELECT ema_id, last_name, first_name, country FROM players WHERE ema_id = ?",
                               (ema_id,)).fetchone()
        if row is None:
            return None
        return {"ema_id": row[0], "last_name": row[1], "first_name": row[2], "country": row[3]}

    def player_results(self, ema_id: str) -> list[dict[str, object]]:
        """Every result of a player in the current versions of the tournaments, newest first."""
        rows = self._db.execute(
            "SELECT t.name, t.ruleset, t.city, t.country, t.start_date, t.end_date, t.players, t.weight, r.place "
            "FROM results r JOIN tournaments t ON t.id = r.tournament_id "
            "WHERE r.ema_id = ? AND t.replaced_at IS NULL ORDER BY t.end_date DESC, t.id DESC", (ema_id,)).fetchall()
        keys = ("tournament", "ruleset", "city", "country", "start_date", "end_date", "players", "weight", "place")
        return [dict(zip(keys, row)) for row in rows]
