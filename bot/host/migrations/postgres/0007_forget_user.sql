-- Bazaar store, schema 7 (PostgreSQL): forgetting a person, as migrations/sqlite/0007_forget_user.sql:
-- the only UPDATE the move log accepts sets user_id to NULL and leaves every other column as it is.

DROP TRIGGER moves_append_only_update ON moves;
CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
FOR EACH ROW WHEN (NOT (NEW.user_id IS NULL AND NEW.game_id = OLD.game_id AND NEW.version = OLD.version
                        AND NEW.seat = OLD.seat AND NEW.action = OLD.action AND NEW.by = OLD.by AND NEW.at = OLD.at))
EXECUTE FUNCTION bazaar_moves_append_only();
