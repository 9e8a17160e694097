-- Bazaar store, schema 9: channels where Discord refused a Components V2 message (the flag is
-- not available there), so the bot posts today's message shape (text, files, rows of buttons)
-- there from then on instead of being refused again on every board (see Store.message_shape).

CREATE TABLE channel_shapes (
    channel_id INTEGER PRIMARY KEY,
    shape TEXT NOT NULL,             -- 'classic' (V2 refused here) or 'v2'
    noted_at REAL NOT NULL           -- Unix seconds when it was learned
);
