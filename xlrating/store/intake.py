"""The web intake's queue in the results store: uploaded sheets, submissions, decisions.

An organiser's upload is kept as a *check* (the bytes as received and the validator's findings)
under an unguessable token; a valid check can be *submitted* to the ranking officer with a contact
address (status ``pending``); the officer *accepts* it (:meth:`~xlrating.store.ledger.Ledger.ingest` with the
``intake_id``, one transaction that stores the results and records the decision) or *rejects* it
with a note. Checks that were never submitted are deleted after :data:`CHECK_LIFETIME`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import sqlite3
from dataclasses import dataclass
from typing import Any, Literal

from xlrating.store.transaction import transaction

IntakeStatus = Literal["checked", "pending", "accepted", "rejected"]
CHECK_LIFETIME = dt.timedelta(hours=24)
"""How long an upload that was never submitted is kept (its page and annotated copy with it)."""


class IntakeError(Exception):
    """An intake action that cannot happen in the item's state; the message says why."""


@dataclass(frozen=True)
class IntakeItem:
    id: int
    token: str
    file_name: str
    kind: str
    sha256: str
    size: int
    findings: list[dict[str, Any]]
    valid: bool
    tournament: str | None
    uploaded_at: str
    status: IntakeStatus
    contact: str | None
    submitted_at: str | None
    decided_at: str | None
    decision_note: str | None
    system: str  # the key of the rating system the file is for
    errors: int  # every error found, those beyond the kept findings included
    warnings: int
    more_findings: dict[str, int]  # code -> findings of it beyond those kept
    records: str | None  # what a valid file says, as the store's records (JSON), kept for the officer

    def public(self) -> dict[str, Any]:
        """What the organiser's page shows, as JSON (no content, no contact)."""
        return {"file_name": self.file_name, "format": self.kind, "sha256": self.sha256, "size": self.size,
                "valid": self.valid, "tournament": self.tournament, "uploaded_at": self.uploaded_at,
                "status": self.status, "submitted_at": self.submitted_at, "decided_at": self.decided_at,
                "decision_note": self.decision_note, "system": self.system, "errors": self.errors,
                "warnings": self.warnings, "findings": self.findings, "more_findings": self.more_findings}


_COLUMNS = ("id, token, file_name, kind, sha256, size, findings, valid, tournament, uploaded_at, status, "
            "contact, submitted_at, decided_at, decision_note, system, errors, warnings, more_findings, records")


def _item(row: tuple[Any, ...]) -> IntakeItem:
    findings = json.loads(row[6])
    errors = row[16] if row[16] is not None else sum(f["severity"] == "error" for f in findings)
    warnings = row[17] if row[17] is not None else sum(f["severity"] == "warning" for f in findings)
    return IntakeItem(row[0], row[1], row[2], row[3], row[4], row[5], findings, bool(row[7]), row[8],
                      row[9], row[10], row[11], row[12], row[13], row[14], row[15], errors, warnings,
                      json.loads(row[18]) if row[18] else {}, row[19])


def utc_now() -> str:
    """The store's timestamps: UTC, ISO 8601, to the second."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class IntakeQueue:
    """The intake methods of :class:`~xlrating.store.sqlite.SQLiteStore` (a mixin over its ``_db``)."""

    _db: sqlite3.Connection
    path: str

    def _write(self, statements: Any) -> Any:
        """Run ``statements(db)`` in one transaction; returns its result."""
        with transaction(self._db, self.path) as block:
            return statements(block.db)

    def add_check(self, token: str, file_name: str, kind: str, content: bytes, findings: list[dict[str, Any]],
                  valid: bool, tournament: str | None, system: str, *, errors: int | None = None,
                  warnings: int | None = None, more_findings: dict[str, int] | None = None,
                  records: str | None = None) -> IntakeItem:
        """Keep an uploaded sheet and its findings under ``token`` (``system``: the key of the rating
        system the file is for; ``findings``: those kept, ``errors`` and ``warnings`` every one found,
        ``more_findings`` the rest counted by code; ``records``: a valid file's records as JSON);
        drops expired checks."""
        errors = sum(f["severity"] == "error" for f in findings) if errors is None else errors
        warnings = sum(f["severity"] == "warning" for f in findings) if warnings is None else warnings
        now = dt.datetime.now(dt.UTC)
        expired = (now - CHECK_LIFETIME).isoformat(timespec="seconds")

        def statements(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM intake WHERE status = 'checked' AND uploaded_at < ?", (expired,))
            db.execute(
                "INSERT INTO intake (token, file_name, kind, sha256, size, content, findings, valid, tournament, "
                "uploaded_at, status, system, errors, warnings, more_findings, records) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'checked', ?, ?, ?, ?, ?)",
                (token, file_name, kind, hashlib.sha256(content).hexdigest(), len(content), content,
                 json.dumps(findings), int(valid), tournament, now.isoformat(timespec="seconds"), system, errors,
                 warnings, json.dumps(more_findings or {}), records))

        self._write(statements)
        item = self.intake_by_token(token)
        assert item is not None
        return item

    def intake_by_token(self, token: str) -> IntakeItem | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM intake WHERE token = ?", (token,)).fetchone()
        return None if row is None else _item(row)

    def intake_by_id(self, intake_id: int) -> IntakeItem | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM intake WHERE id = ?", (intake_id,)).fetchone()
        return None if row is None else _item(row)

    def intake_content(self, intake_id: int) -> bytes:
        row = self._db.execute("SELECT content FROM intake WHERE id = ?", (intake_id,)).fetchone()
        if row is None:
            raise IntakeError(f"no upload number {intake_id}")
        return bytes(row[0])

    def submit_check(self, token: str, contact: str) -> IntakeItem:
        """Send a valid check to the ranking officer (status ``pending``)."""
        def statements(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT valid, status, sha256 FROM intake WHERE token = ?", (token,)).fetchone()
            if row is None:
                raise IntakeError("this upload is no longer kept; upload the sheet again")
            if not row[0]:
                raise IntakeError("the sheet has errors; correct them and upload it again before submitting")
            if row[1] != "checked":
                raise IntakeError(f"this sheet was already submitted (status: {row[1]})")
            waiting = db.execute("SELECT 1 FROM intake WHERE sha256 = ? AND status = 'pending'", (row[2],)).fetchone()
            if waiting is not None:
                raise IntakeError("the same file is already waiting for the ranking officer")
            db.execute("UPDATE intake SET status = 'pending', contact = ?, submitted_at = ? WHERE token = ?",
                       (contact, utc_now(), token))

        self._write(statements)
        item = self.intake_by_token(token)
        assert item is not None
        return item

    def intake_queue(self, *, decided: int = 50) -> list[IntakeItem]:
        """The pending submissions (oldest first), then the ``decided`` latest decisions."""
        pending = self._db.execute(f"SELECT {_COLUMNS} FROM intake WHERE status = 'pending' ORDER BY submitted_at, id"
                                   ).fetchall()
        done = self._db.execute(f"SELECT {_COLUMNS} FROM intake WHERE status IN ('accepted', 'rejected') "
                                f"ORDER BY decided_at DESC, id DESC LIMIT ?", (decided,)).fetchall()
        return [_item(row) for row in pending + done]

    def reject_intake(self, intake_id: int, note: str) -> IntakeItem:
        """Reject a pending submission with a note for the organiser."""
        def statements(db: sqlite3.Connection) -> None:
            changed = db.execute("UPDATE intake SET status = 'rejected', decided_at = ?, decision_note = ? "
                                 "WHERE id = ? AND status = 'pending'", (utc_now(), note, intake_id)).rowcount
            if changed != 1:
                raise IntakeError(_not_pending(db, intake_id))

        self._write(statements)
        item = self.intake_by_id(intake_id)
        assert item is not None
        return item


class OfficerSessions:
    """The ranking officer's sessions (a mixin over the store's ``_db``): started at sign-in, ended
    at sign-out or after ``hours``; a session cookie is only as good as the session it names."""

    _db: sqlite3.Connection
    path: str

    def start_session(self, user: str) -> str:
        """A new session of ``user``; its id (unguessable) goes in the signed cookie."""
        session = secrets.token_urlsafe(32)
        with transaction(self._db, self.path) as block:
            block.db.execute("INSERT INTO officer_sessions (id, user, started_at) VALUES (?, ?, ?)",
                             (session, user, utc_now()))
        return session

    def session_user(self, session: str, hours: float) -> str | None:
        """The user of a session that is neither ended nor older than ``hours``, else None."""
        row = self._db.execute("SELECT user, started_at FROM officer_sessions WHERE id = ? AND ended_at IS NULL",
                               (session,)).fetchone()
        if row is None:
            return None
        age = dt.datetime.now(dt.UTC) - dt.datetime.fromisoformat(row[1])
        return str(row[0]) if age <= dt.timedelta(hours=hours) else None

    def end_session(self, session: str) -> None:
        with transaction(self._db, self.path) as block:
            block.db.execute("UPDATE officer_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                             (utc_now(), session))


def _not_pending(db: sqlite3.Connection, intake_id: int) -> str:
    row = db.execute("SELECT status FROM intake WHERE id = ?", (intake_id,)).fetchone()
    if row is None:
        return f"no submission number {intake_id}"
    return f"submission {intake_id} is not waiting for a decision (status: {row[0]})"


def record_acceptance(db: sqlite3.Connection, intake_id: int, submission_id: int, note: str) -> None:
    """Inside the ingest transaction: mark the pending intake item accepted, or raise."""
    changed = db.execute("UPDATE intake SET status = 'accepted', decided_at = ?, decision_note = ?, "
                         "submission_id = ? WHERE id = ? AND status = 'pending'",
                         (utc_now(), note, submission_id, intake_id)).rowcount
    if changed != 1:
        raise IntakeError(_not_pending(db, intake_id))
