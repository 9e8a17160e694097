-- Bazaar store, schema 3 (PostgreSQL): claims on due turn clocks (see Store.claim_due), as
-- migrations/sqlite/0003_clock_claims.sql. Processes take due rows FOR UPDATE SKIP LOCKED.

ALTER TABLE games ADD COLUMN claim_owner TEXT;
ALTER TABLE games ADD COLUMN claim_until DOUBLE PRECISION;
CREATE INDEX games_by_deadline ON games (status, deadline);
