"""The results store's schema, as numbered migrations.

``PRAGMA user_version`` records how many migrations a store has had; opening a store applies the
missing ones in one transaction. A store written by a newer xlrating (a higher version than we
know) is refused rather than guessed at. Append migrations; never edit a released one.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
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
)

SCHEMA_VERSION = len(MIGRATIONS)
