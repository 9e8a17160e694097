-- Bazaar store, schema 10: ratings (openskill's Plackett–Luce, see bot/host/ratings.py). Everything
-- here but unrated_games is a function of the finished games in finish order, recomputed from
-- scratch by `bazaar db rate` (and by the first start after this migration, see Ratings.catch_up).

CREATE TABLE unrated_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id)   -- opened with /game new rated:false
);

CREATE TABLE game_results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    kind        TEXT    NOT NULL,
    guild_id    INTEGER,
    finished_at REAL    NOT NULL,                  -- the last move's time: the rating order
    ranks       TEXT    NOT NULL,                  -- JSON list, the engine's rank of each seat
    players     TEXT    NOT NULL,                  -- JSON list, each seat's rated player or null
    ladder      TEXT    NOT NULL CHECK (ladder IN ('people', 'ai', 'unrated'))
);
CREATE INDEX game_results_in_order ON game_results (finished_at, game_id);

CREATE TABLE ratings (
    kind     TEXT    NOT NULL,
    scope    INTEGER NOT NULL,                     -- a guild id, or 0: across all servers
    ladder   TEXT    NOT NULL CHECK (ladder IN ('people', 'ai')),
    player   TEXT    NOT NULL,                     -- 'u<user id>' or 'ai:<level>'
    user_id  INTEGER,                              -- NULL for an AI level
    name     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    rating   INTEGER NOT NULL,                     -- the shown number (rating_math.shown)
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    best     INTEGER NOT NULL,                     -- the highest shown number reached
    best_game INTEGER NOT NULL,
    last_at  REAL    NOT NULL,
    PRIMARY KEY (kind, scope, ladder, player)
);
CREATE INDEX ratings_board ON ratings (kind, scope, ladder, rating, games);
CREATE INDEX ratings_by_user ON ratings (user_id, scope);

CREATE TABLE rating_changes (
    game_id  INTEGER NOT NULL,
    scope    INTEGER NOT NULL,
    player   TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    ladder   TEXT    NOT NULL,
    user_id  INTEGER,
    seat     INTEGER NOT NULL,
    players  INTEGER NOT NULL,                     -- seats in the game
    place    INTEGER NOT NULL,                     -- the engine's rank (1 best; ties share)
    was      INTEGER,                              -- shown number before (NULL: first game)
    now      INTEGER NOT NULL,
    new_best INTEGER NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, scope, player)
);
CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, at);
