-- Bazaar store, schema 11 (PostgreSQL): hints and reviews, as migrations/sqlite/0011_reviews.sql.

CREATE TABLE game_hints (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    hints INTEGER NOT NULL
);

CREATE TABLE hints_taken (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL,
    taken_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat, version)
);

CREATE TABLE reviews (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    body TEXT NOT NULL,
    made_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
