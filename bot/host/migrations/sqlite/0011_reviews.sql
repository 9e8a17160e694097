-- Bazaar store, schema 11: hints and reviews (see bot/host/store_reviews.py). A game created
-- with hints off, the hint each seat took in a turn (at most one a turn, kept across a
-- restart), and each seat's review of a finished game, stored so asking again is instant.

CREATE TABLE game_hints (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    hints INTEGER NOT NULL               -- 1: hints on (the default), 0: created with hints:off
);

CREATE TABLE hints_taken (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL,            -- the game's version when the seat's turn began
    taken_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat, version)
);

CREATE TABLE reviews (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    body TEXT NOT NULL,                  -- JSON: the moments (see bot/host/coaching.py)
    made_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
