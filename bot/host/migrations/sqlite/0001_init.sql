-- Bazaar store, schema 1: games, seats, the append-only move log, snapshots, posted messages.
-- Times are Unix seconds (REAL). Ids from Discord are INTEGER (64-bit snowflakes).

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL,                -- engine name, e.g. 'pralaya'
    seed          INTEGER NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',   -- JSON, resolved engine options
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,                -- where the lobby was posted
    thread_id     INTEGER,                         -- the game's thread, if one was opened
    creator_id    INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'active', 'finished', 'ended')),
    version       INTEGER NOT NULL DEFAULT 0,      -- number of applied moves
    clock_seconds INTEGER NOT NULL,                -- turn clock length
    deadline      REAL,                            -- when the current turn expires (active only)
    reminded      INTEGER NOT NULL DEFAULT 0,      -- the half-time reminder was sent
    attention     TEXT,                            -- why this game needs attention, else NULL
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX games_by_place ON games (guild_id, channel_id, status);
CREATE INDEX games_by_thread ON games (thread_id);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,
    user_id     INTEGER,                           -- NULL for an AI seat
    name        TEXT    NOT NULL,
    is_ai       INTEGER NOT NULL DEFAULT 0,
    dm_closed   INTEGER NOT NULL DEFAULT 0,        -- a DM failed with 50007; rely on the button
    dm_hash     TEXT,                              -- digest of the private view last sent by DM
    expiries    INTEGER NOT NULL DEFAULT 0,        -- consecutive turn-clock expiries
    ai_takeover INTEGER NOT NULL DEFAULT 0,        -- the AI plays this seat until its owner /moves
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id),
    version INTEGER NOT NULL,                      -- the game version this move produced (1, 2, …)
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,                      -- canonical action text
    by      TEXT    NOT NULL CHECK (by IN ('player', 'ai', 'clock')),
    user_id INTEGER,                               -- who sent it (NULL for the AI or the clock)
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TRIGGER moves_append_only_delete BEFORE DELETE ON moves
BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;

CREATE TABLE snapshots (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    version     INTEGER NOT NULL,
    state       TEXT    NOT NULL,                  -- engines.base.state_fingerprint(state)
    fingerprint TEXT    NOT NULL                   -- sha256 of ``state``
);

CREATE TABLE messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    kind        TEXT    NOT NULL,                  -- 'lobby', 'turn', 'final', 'dm', 'notice'
    seat        INTEGER,                           -- for DMs
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    live        INTEGER NOT NULL DEFAULT 0,        -- still carries buttons to clear later
    posted_at   REAL    NOT NULL
);
CREATE INDEX messages_by_game ON messages (game_id, kind, live);
