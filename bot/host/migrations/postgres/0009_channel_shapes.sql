-- Bazaar store, schema 9 (PostgreSQL): channels where Discord refused a Components V2 message
-- (see Store.message_shape), as migrations/sqlite/0009_channel_shapes.sql.

CREATE TABLE channel_shapes (
    channel_id BIGINT PRIMARY KEY,
    shape TEXT NOT NULL,
    noted_at DOUBLE PRECISION NOT NULL
);
