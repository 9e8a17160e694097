-- Bazaar store, schema 2 (PostgreSQL): drafts of prompt forms, as migrations/sqlite/0002_drafts.sql.

CREATE TABLE drafts (
    game_id  BIGINT  NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    form     TEXT    NOT NULL,                     -- the form's key in the seat's prompt
    version  INTEGER NOT NULL,                     -- the game version the draft was made at
    data     TEXT    NOT NULL,                     -- JSON: pick key -> list of values
    PRIMARY KEY (game_id, seat, form)
);
