-- Bazaar store, schema 3: claims on due turn clocks, so that of several processes serving one
-- database (PostgreSQL) exactly one handles each due clock (see Store.claim_due). A claim is its
-- owner's until claim_until (Unix seconds); a lapsed claim may be taken by anyone.

ALTER TABLE games ADD COLUMN claim_owner TEXT;    -- the process holding the clock's claim
ALTER TABLE games ADD COLUMN claim_until REAL;    -- when that claim lapses
CREATE INDEX games_by_deadline ON games (status, deadline);
