-- Bazaar store, schema 12 (PostgreSQL): channels where Discord keeps refusing V2 media edits
-- (see Store.media_edits), as migrations/sqlite/0012_v2_media.sql.

CREATE TABLE channel_media (
    channel_id BIGINT PRIMARY KEY,
    refusals INTEGER NOT NULL,
    noted_at DOUBLE PRECISION NOT NULL
);
