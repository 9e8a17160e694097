-- Bazaar store, schema 14: the rematch opened from a finished game's final sheet, one per game
-- (a second click on Rematch, from any process, finds the lobby the first one opened).

CREATE TABLE rematches (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    new_game_id INTEGER NOT NULL REFERENCES games (id),
    opened_at   REAL    NOT NULL
);

-- a person's games (/history): their seats, found by the person
CREATE INDEX seats_by_user ON seats (user_id);

-- the result of a finished game once the archive has rebuilt it (/history, /stats), so that
-- it is rebuilt once, not at every ask: engines.outcome.Outcome.as_dict() as JSON
CREATE TABLE outcomes (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    outcome TEXT NOT NULL
);
