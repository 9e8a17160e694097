-- Bazaar store, schema 12: channels where Discord keeps refusing edits that bring new pictures
-- into a Components V2 message (400, discord-api-docs#7529), so that after a few in a row the bot
-- posts a turn anew there at once instead of trying the edit first (see Store.media_edits).

CREATE TABLE channel_media (
    channel_id INTEGER PRIMARY KEY,
    refusals INTEGER NOT NULL,       -- V2 media edits refused in a row (0 after one went through)
    noted_at REAL NOT NULL           -- Unix seconds of the last refusal or success noted
);

-- Each server's own settings (/settings, Manage Server): NULL is "the bot's default" (confirm:
-- BAZAAR_CONFIRM).
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    confirm INTEGER,                 -- 1: ask before irreversible moves, 0: do not, NULL: default
    updated_at REAL NOT NULL         -- Unix seconds of the last change
);
