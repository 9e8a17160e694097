-- Bazaar store, schema 14 (PostgreSQL): rematches, seats by person, results kept,
-- as migrations/sqlite/0014_archive.sql.

CREATE TABLE rematches (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    new_game_id BIGINT NOT NULL REFERENCES games (id),
    opened_at   DOUBLE PRECISION NOT NULL
);

-- a person's games (/history): their seats, found by the person
CREATE INDEX seats_by_user ON seats (user_id);

-- the result of a finished game once the archive has rebuilt it (/history, /stats), so that
-- it is rebuilt once, not at every ask: engines.outcome.Outcome.as_dict() as JSON
CREATE TABLE outcomes (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    outcome TEXT NOT NULL
);
