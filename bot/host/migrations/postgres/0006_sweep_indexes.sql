-- Bazaar store, schema 6: indexes for what a process sharing the database with others looks up
-- while it runs (checked by tests/test_store_plans.py with EXPLAIN QUERY PLAN): the games whose
-- last change falls in a window (the sweep that posts a board another process stored and never
-- posted, see Store.unposted), and the clock claims one process holds (given back when it stops).

CREATE INDEX games_by_update ON games (status, updated_at);
CREATE INDEX games_by_claim_owner ON games (claim_owner);
