"""The results store's schema, as numbered migrations.

``PRAGMA user_version`` records how many migrations a store has had; opening a store applies the
missing ones in one transaction (all of them or none: a migration that fails, or a process killed in
the middle of one, leaves the store as it was). A store written by a newer xlrating (a higher
version than we know) is refused rather than guessed at. Append migrations; never edit a released
one. A migration is SQL, or a function given the connection when rows must be moved in Python.

Since migration 6 every rating system's events live in one model: ``events`` (each version of an
event, with its system, its number in the system's addresses, and what the system keeps beside as
JSON ``facts``), ``entries`` (its standings or matches) and ``players`` (what a system keeps of a
player: the EMA's names and countries as last submitted), beside ``submissions`` (every file as
received) and ``intake`` (the web's queue).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from xlrating.core.names import fold

Migration = str | Callable[[sqlite3.Connection], None]

ONE_MODEL = """
    CREATE TABLE events (
        id            INTEGER PRIMARY KEY,
        system        TEXT NOT NULL,
        number        INTEGER NOT NULL CHECK (number >= 1),
        event_key     TEXT NOT NULL,
        name_key      TEXT NOT NULL,
        version       INTEGER NOT NULL CHECK (version >= 1),
        submission_id INTEGER NOT NULL REFERENCES submissions(id),
        sheet         TEXT,
        name          TEXT NOT NULL,
        start_date    TEXT NOT NULL,
        end_date      TEXT NOT NULL,
        players       INTEGER NOT NULL CHECK (players >= 1),
        facts         TEXT NOT NULL DEFAULT '{}',
        fingerprint   TEXT NOT NULL,
        stored_at     TEXT NOT NULL,
        replaced_at   TEXT,
        UNIQUE (system, number),
        UNIQUE (system, event_key, version),
        CHECK (end_date >= start_date)
    );
    CREATE UNIQUE INDEX events_current ON events (system, event_key) WHERE replaced_at IS NULL;
    CREATE INDEX events_name ON events (system, name_key);
    CREATE TABLE entries (
        id         INTEGER PRIMARY KEY,
        event_id   INTEGER NOT NULL REFERENCES events(id),
        sheet_row  INTEGER NOT NULL,
        player     TEXT,
        place      INTEGER CHECK (place >= 1),
        opponent   TEXT,
        result     REAL,
        round      INTEGER CHECK (round >= 1),
        entry_date TEXT,
        facts      TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX entries_event ON entries (event_id);
    CREATE INDEX entries_player ON entries (player);
    CREATE TABLE players (
        system     TEXT NOT NULL,
        player     TEXT NOT NULL,
        facts      TEXT NOT NULL DEFAULT '{}',
        updated_by INTEGER NOT NULL REFERENCES submissions(id),
        PRIMARY KEY (system, player)
    );
    CREATE TABLE intake (
        id            INTEGER PRIMARY KEY,
        token         TEXT NOT NULL UNIQUE,
        file_name     TEXT NOT NULL,
        kind          TEXT NOT NULL,
        sha256        TEXT NOT NULL,
        size          INTEGER NOT NULL,
        content       BLOB NOT NULL,
        findings      TEXT NOT NULL,
        valid         INTEGER NOT NULL CHECK (valid IN (0, 1)),
        tournament    TEXT,
        uploaded_at   TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('checked', 'pending', 'accepted', 'rejected')),
        contact       TEXT,
        submitted_at  TEXT,
        decided_at    TEXT,
        decision_note TEXT,
        submission_id INTEGER REFERENCES submissions(id),
        system        TEXT NOT NULL,
        CHECK (status = 'checked' OR contact IS NOT NULL),
        CHECK (status != 'accepted' OR submission_id IS NOT NULL)
    );
    CREATE INDEX intake_status ON intake (status, uploaded_at);
"""


SUBMISSIONS = """
    CREATE TABLE submissions (
        id          INTEGER PRIMARY KEY,
        file_name   TEXT NOT NULL,
        sha256      TEXT NOT NULL UNIQUE,
        size        INTEGER NOT NULL,
        content     BLOB NOT NULL,
        received_at TEXT NOT NULL
    );
"""
SCHEMA = SUBMISSIONS + ONE_MODEL
SCHEMA_BASE = 6
"""A new store is created with :data:`SCHEMA`, the schema of migration 6, written at once (it has no
emptied tables' pages left over), then the migrations after it; ``tests/store/test_schema.py``
holds a new store and a migrated one equal."""


def facts(**values: Any) -> str:
    """The JSON of an event's, entry's or player's facts, without the ones not given."""
    return json.dumps({k: v for k, v in values.items() if v is not None}, ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True)


def _one_model(db: sqlite3.Connection) -> None:
    """6: the EMA tournaments and their results, the Dip Pouch and DCI events with their standings
    and matches, and the EMA's players, moved into one model (``events``, ``entries``, ``players``).
    Every version keeps its number in its pages' addresses: a tournament's is its old id, an event's
    its old id. The intake no longer lists the systems it may hold (the registry of systems does)."""
    for table in ("events", "players", "intake"):
        db.execute(f"ALTER TABLE {table} RENAME TO {table}_5")
    for index in ("events_current", "events_name", "intake_status"):  # their names are the new tables' now
        db.execute(f"DROP INDEX {index}")
    for statement in ONE_MODEL.split(";"):
        if statement.strip():
            db.execute(statement)
    offset = db.execute("SELECT coalesce(max(id), 0) FROM events_5").fetchone()[0]
    for row in db.execute("SELECT id, system, event_key, name_key, version, submission_id, sheet, name, start_date, "
                          "end_date, players, rounds, world_championship, location, fingerprint, stored_at, "
                          "replaced_at FROM events_5").fetchall():
        (id_, system, key, name_key, version, submission, sheet, name, start, end, players, rounds, championship,
         location, fingerprint, stored, replaced) = row
        kept = (facts(rounds=rounds, world_championship=bool(championship), location=location)
                if system == "dippouch" else facts(rounds=rounds))
        db.execute("INSERT INTO events (id, system, number, event_key, name_key, version, submission_id, sheet, name, "
                   "start_date, end_date, players, facts, fingerprint, stored_at, replaced_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (id_, system, id_, key, name_key, version, submission, sheet, name, start, end, players, kept,
                    fingerprint, stored, replaced))
    for row in db.execute("SELECT t.id, t.tournament_key, t.version, t.submission_id, t.name, t.ruleset, t.city, "
                          "t.country, t.start_date, t.end_date, t.days, t.players, t.countries, t.declared_weight, "
                          "t.qualification, t.weight, t.effective_date, t.stored_at, t.replaced_at, s.sha256 "
                          "FROM tournaments t JOIN submissions s ON s.id = t.submission_id").fetchall():
        (id_, key, version, submission, name, ruleset, city, country, start, end, days, players, countries,
         declared, qualification, weight, effective, stored, replaced, sha) = row
        kept = facts(ruleset=ruleset, city=city, country=country, days=days, countries=countries,
                     declared_weight=declared, qualification=None if qualification is None else bool(qualification),
                     weight=weight, effective_date=effective)
        db.execute("INSERT INTO events (id, system, number, event_key, name_key, version, submission_id, sheet, name, "
                   "start_date, end_date, players, facts, fingerprint, stored_at, replaced_at) "
                   "VALUES (?, 'mers', ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (id_ + offset, id_, key, fold(name), version, submission, name, start, end, players, kept, sha,
                    stored, replaced))
    db.execute("INSERT INTO entries (event_id, sheet_row, player, place, facts) "
               "SELECT event_id, sheet_row, player, place, json_object('country', country, 'score', score) "
               "FROM standings ORDER BY id")
    db.execute("INSERT INTO entries (event_id, sheet_row, player, opponent, result, round, entry_date, facts) "
               "SELECT event_id, sheet_row, player, opponent, result, round, match_date, json_object('k', k, "
               "'tier', tier, 'category', category, 'player_country', player_country, 'opponent_country', "
               "opponent_country) FROM matches ORDER BY id")
    db.execute("INSERT INTO entries (event_id, sheet_row, player, place, facts) "
               "SELECT tournament_id + ?, sheet_row, ema_id, place, json_object('last_name', last_name, 'first_name', "
               "first_name, 'country', country, 'table_points', table_points, 'score', score) FROM results ORDER BY id",
               (offset,))
    # json_object keeps a NULL as null: drop them, as facts() does for what is written from now on
    db.execute("UPDATE entries SET facts = (SELECT json_group_object(key, value) FROM json_each(entries.facts) "
               "WHERE type != 'null')")
    db.execute("INSERT INTO players (system, player, facts, updated_by) SELECT 'mers', ema_id, (SELECT "
               "json_group_object(key, value) FROM json_each(json_object('last_name', last_name, 'first_name', "
               "first_name, 'country', country)) WHERE type != 'null'), updated_by FROM players_5")
    db.execute("INSERT INTO intake SELECT id, token, file_name, kind, sha256, size, content, findings, valid, tournament, "
               "uploaded_at, status, contact, submitted_at, decided_at, decision_note, submission_id, system "
               "FROM intake_5")
    for table in ("standings", "matches", "results", "tournaments", "events_5", "players_5", "intake_5"):
        db.execute(f"DROP TABLE {table}")


MIGRATIONS: tuple[Migration, ...] = (
    # 1: players, submissions (the file as submitted), tournament versions, results.
    """
    CREATE TABLE players (
        ema_id      TEXT PRIMARY KEY CHECK (length(ema_id) = 8 AND ema_id NOT GLOB '*[^0-9]*'),
        last_name   TEXT,
        first_name  TEXT,
        country     TEXT,
        updated_by  INTEGER NOT NULL REFERENCES submissions(id)
    );
    CREATE TABLE submissions (
        id          INTEGER PRIMARY KEY,
        file_name   TEXT NOT NULL,
        sha256      TEXT NOT NULL UNIQUE,
        size        INTEGER NOT NULL,
        content     BLOB NOT NULL,
        received_at TEXT NOT NULL
    );
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY,
        tournament_key  TEXT NOT NULL,
        version         INTEGER NOT NULL,
        submission_id   INTEGER NOT NULL REFERENCES submissions(id),
        name            TEXT NOT NULL,
        ruleset         TEXT NOT NULL CHECK (ruleset IN ('MCR', 'Riichi')),
        city            TEXT,
        country         TEXT,
        start_date      TEXT NOT NULL,
        end_date        TEXT NOT NULL,
        days            INTEGER,
        players         INTEGER NOT NULL CHECK (players >= 2),
        countries       INTEGER,
        declared_weight REAL,
        qualification   INTEGER,
        weight          REAL NOT NULL CHECK (weight > 0),
        effective_date  TEXT,
        stored_at       TEXT NOT NULL,
        replaced_at     TEXT,
        UNIQUE (tournament_key, version)
    );
    -- At most one current (not replaced) version of each tournament.
    CREATE UNIQUE INDEX tournaments_current ON tournaments (tournament_key) WHERE replaced_at IS NULL;
    CREATE TABLE results (
        id            INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        sheet_row     INTEGER NOT NULL,
        place         INTEGER NOT NULL CHECK (place >= 1),
        ema_id        TEXT REFERENCES players(ema_id),
        last_name     TEXT,
        first_name    TEXT,
        country       TEXT,
        table_points  REAL,
        score         REAL,
        UNIQUE (tournament_id, ema_id)
    );
    CREATE INDEX results_tournament ON results (tournament_id);
    """,
    # 2: the web intake: sheets organisers uploaded for checking, those they submitted to the
    # ranking officer, and the officer's decision (accepted ones point at the stored submission).
    """
    CREATE TABLE intake (
        id            INTEGER PRIMARY KEY,
        token         TEXT NOT NULL UNIQUE,
        file_name     TEXT NOT NULL,
        kind          TEXT NOT NULL,
        sha256        TEXT NOT NULL,
        size          INTEGER NOT NULL,
        content       BLOB NOT NULL,
        findings      TEXT NOT NULL,
        valid         INTEGER NOT NULL CHECK (valid IN (0, 1)),
        tournament    TEXT,
        uploaded_at   TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('checked', 'pending', 'accepted', 'rejected')),
        contact       TEXT,
        submitted_at  TEXT,
        decided_at    TEXT,
        decision_note TEXT,
        submission_id INTEGER REFERENCES submissions(id),
        CHECK (status = 'checked' OR contact IS NOT NULL),
        CHECK (status != 'accepted' OR submission_id IS NOT NULL)
    );
    CREATE INDEX intake_status ON intake (status, uploaded_at);
    """,
    # 3: Dip Pouch events with their standings and DCI events with their matches, versioned as
    # tournaments are (one current version per system and event key; replaced ones kept), each
    # version pointing at the submission it came from; the intake says which system an upload is.
    """
    ALTER TABLE intake ADD COLUMN system TEXT NOT NULL DEFAULT 'mers'
        CHECK (system IN ('mers', 'dippouch', 'dci'));
    CREATE TABLE events (
        id                 INTEGER PRIMARY KEY,
        system             TEXT NOT NULL CHECK (system IN ('dippouch', 'dci')),
        event_key          TEXT NOT NULL,
        name_key           TEXT NOT NULL,
        version            INTEGER NOT NULL CHECK (version >= 1),
        submission_id      INTEGER NOT NULL REFERENCES submissions(id),
        sheet              TEXT,
        name               TEXT NOT NULL,
        start_date         TEXT NOT NULL,
        end_date           TEXT NOT NULL,
        players            INTEGER NOT NULL CHECK (players >= 1),
        rounds             INTEGER NOT NULL CHECK (rounds >= 1),
        world_championship INTEGER CHECK (world_championship IN (0, 1)),
        fingerprint        TEXT NOT NULL,
        stored_at          TEXT NOT NULL,
        replaced_at        TEXT,
        UNIQUE (system, event_key, version),
        CHECK (end_date >= start_date)
    );
    CREATE UNIQUE INDEX events_current ON events (system, event_key) WHERE replaced_at IS NULL;
    CREATE INDEX events_name ON events (system, name_key);
    CREATE TABLE standings (
        id        INTEGER PRIMARY KEY,
        event_id  INTEGER NOT NULL REFERENCES events(id),
        sheet_row INTEGER NOT NULL,
        player    TEXT NOT NULL,
        place     INTEGER NOT NULL CHECK (place >= 1)
    );
    CREATE INDEX standings_event ON standings (event_id);
    CREATE TABLE matches (
        id         INTEGER PRIMARY KEY,
        event_id   INTEGER NOT NULL REFERENCES events(id),
        sheet_row  INTEGER NOT NULL,
        match_date TEXT NOT NULL,
        round      INTEGER NOT NULL CHECK (round >= 1),
        player     TEXT NOT NULL,
        opponent   TEXT,
        result     REAL NOT NULL CHECK (result IN (0, 0.5, 1)),
        k          REAL NOT NULL CHECK (k >= 0),
        tier       TEXT,
        category   TEXT NOT NULL
    );
    CREATE INDEX matches_event ON matches (event_id);
    """,
    # 4: what the Dip Pouch public pages show beside the rating, when the table gives it: where an
    # event was played, and each player's nationality and tournament score.
    """
    ALTER TABLE events ADD COLUMN location TEXT;
    ALTER TABLE standings ADD COLUMN country TEXT;
    ALTER TABLE standings ADD COLUMN score REAL;
    """,
    # 5: what the DCI public pages show beside the ratings, when the table gives it: the
    # nationality of each match's player and opponent.
    """
    ALTER TABLE matches ADD COLUMN player_country TEXT;
    ALTER TABLE matches ADD COLUMN opponent_country TEXT;
    """,
    _one_model,
    # 7: what the intake keeps of a checked upload beside its findings: the counts of errors and
    # warnings, the findings beyond those kept of each code (as {code: count}), and what a valid file
    # says as records (JSON), which the officer's page and acceptance read instead of checking again.
    """
    ALTER TABLE intake ADD COLUMN errors INTEGER;
    ALTER TABLE intake ADD COLUMN warnings INTEGER;
    ALTER TABLE intake ADD COLUMN more_findings TEXT;
    ALTER TABLE intake ADD COLUMN records TEXT;
    """,
    # 8: the ranking officer's sessions, so that signing out ends one on the server (a copy of its
    # cookie opens nothing after), and a session ends after its hours whatever the cookie says.
    """
    CREATE TABLE officer_sessions (
        id         TEXT PRIMARY KEY,
        user       TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at   TEXT
    );
    """,
    # 9: a player's page finds the matches in which the player was the opponent without reading
    # every entry.
    """
    CREATE INDEX entries_opponent ON entries (opponent);
    """,
    # 10: the register of players, kept by the ranking officer beside what the files say: a name (or
    # ID) merged into another person's, the results of one person at some events given to another
    # (a split), a country from a date, a name known to be borne by several people; each change in
    # a log with who, when and why. The entries stay as submitted; every reading applies the register.
    """
    CREATE TABLE register_log (
        id        INTEGER PRIMARY KEY,
        system    TEXT NOT NULL,
        at        TEXT NOT NULL,
        by        TEXT NOT NULL,
        action    TEXT NOT NULL CHECK (action IN ('merge', 'split', 'country', 'homonym', 'undo')),
        details   TEXT NOT NULL,
        why       TEXT NOT NULL,
        undoes    INTEGER REFERENCES register_log(id),
        undone_by INTEGER REFERENCES register_log(id)
    );
    CREATE TABLE register_aliases (
        system TEXT NOT NULL,
        alias  TEXT NOT NULL,
        player TEXT NOT NULL,
        log_id INTEGER NOT NULL REFERENCES register_log(id),
        PRIMARY KEY (system, alias)
    );
    CREATE TABLE register_splits (
        system     TEXT NOT NULL,
        event_key  TEXT NOT NULL,
        player     TEXT NOT NULL,
        new_player TEXT NOT NULL,
        log_id     INTEGER NOT NULL REFERENCES register_log(id),
        PRIMARY KEY (system, event_key, player)
    );
    CREATE TABLE register_countries (
        system  TEXT NOT NULL,
        player  TEXT NOT NULL,
        country TEXT NOT NULL,
        since   TEXT NOT NULL,
        log_id  INTEGER NOT NULL REFERENCES register_log(id),
        PRIMARY KEY (system, player, since)
    );
    CREATE TABLE register_homonyms (
        system TEXT NOT NULL,
        name   TEXT NOT NULL,
        log_id INTEGER NOT NULL REFERENCES register_log(id),
        PRIMARY KEY (system, name)
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
