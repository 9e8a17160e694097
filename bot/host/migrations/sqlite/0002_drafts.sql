-- Bazaar store, schema 2: drafts of prompt forms (the values a player has picked so far in a form
-- such as a Kathai offer), kept between clicks and across restarts. One draft per game, seat and
-- form; a draft made at another game version is stale and is ignored (and replaced on next use).

CREATE TABLE drafts (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    form     TEXT    NOT NULL,                     -- the form's key in the seat's prompt
    version  INTEGER NOT NULL,                     -- the game version the draft was made at
    data     TEXT    NOT NULL,                     -- JSON: pick key -> list of values
    PRIMARY KEY (game_id, seat, form)
);
