-- Bazaar store, schema 8: claims on posts, so that of several processes serving one database
-- exactly one posts a game's board (or final sheet) of a version, and its recap (see
-- Store.claim_post). A claim is its owner's until lease_until (Unix seconds), then anyone's;
-- done = 1 once the post is made, after which nobody posts it again.

CREATE TABLE posts (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- 'board' (a turn's board or the final sheet) or 'recap'
    owner TEXT NOT NULL,             -- the process that claimed it (bot.host.clock_shared.claim_owner)
    lease_until REAL NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, version, kind)
);
