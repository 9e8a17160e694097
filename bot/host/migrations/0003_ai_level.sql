-- Bazaar store, schema 3: the level an AI seat plays at (easy, normal or hard; engines.search
-- LEVELS). NULL: the game's default level (an AI seat added before levels existed, a seat the AI
-- took over for an idle player).

ALTER TABLE seats ADD COLUMN ai_level TEXT;
