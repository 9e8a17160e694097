-- Bazaar store, schema 12 (PostgreSQL): channels where Discord keeps refusing V2 media edits
-- (see Store.media_edits), as migrations/sqlite/0012_v2_media.sql.

CREATE TABLE channel_media (
    channel_id BIGINT PRIMARY KEY,
    refusals INTEGER NOT NULL,
    noted_at DOUBLE PRECISION NOT NULL
);

-- Each server's own settings (see migrations/sqlite/0012_v2_media.sql).
CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    confirm INTEGER,
    updated_at DOUBLE PRECISION NOT NULL
);
