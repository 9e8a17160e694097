-- Bazaar store, schema 5: indexes for the two lookups that scanned a whole table (checked by
-- tests/test_store_plans.py with EXPLAIN QUERY PLAN): the games played in a channel or thread
-- (every /move without a game number; thread_id already had games_by_thread, channel_id was only
-- the second column of games_by_place), and a posted message by its Discord id (each board or DM
-- edited in place).

CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX messages_by_message ON messages (message_id);
