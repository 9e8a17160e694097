-- Bazaar store, schema 14: the rematch opened from a finished game's final sheet, one per game
-- (a second click on Rematch, from any process, finds the lobby the first one opened).

CREATE TABLE rematches (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    new_game_id INTEGER NOT NULL REFERENCES games (id),
    opened_at   REAL    NOT NULL
);
