-- Bazaar store, schema 14 (PostgreSQL): the rematch opened from a finished game's final sheet,
-- as migrations/sqlite/0014_rematches.sql.

CREATE TABLE rematches (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    new_game_id BIGINT NOT NULL REFERENCES games (id),
    opened_at   DOUBLE PRECISION NOT NULL
);
