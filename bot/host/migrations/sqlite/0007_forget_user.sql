-- Bazaar store, schema 7: forgetting a person (``bazaar db forget-user``, bot/host/forget.py). The
-- move log stays append-only, with one exception: the id of who sent a move may be erased
-- (user_id set to NULL, every other column unchanged), so a person's id can be removed from a
-- finished game whose moves still replay. Any other UPDATE, and every DELETE, is refused as before.

DROP TRIGGER moves_append_only_update;
CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
WHEN NOT (NEW.user_id IS NULL AND NEW.game_id = OLD.game_id AND NEW.version = OLD.version
          AND NEW.seat = OLD.seat AND NEW.action = OLD.action AND NEW.by = OLD.by AND NEW.at = OLD.at)
BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
