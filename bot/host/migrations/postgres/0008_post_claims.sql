-- Bazaar store, schema 8 (PostgreSQL): claims on posts (see Store.claim_post), as
-- migrations/sqlite/0008_post_claims.sql.

CREATE TABLE posts (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, version, kind)
);
