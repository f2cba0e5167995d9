-- The held tables of lib/server/held-search.ts also hold each account's sort columns (held-order.ts), so the
-- change log (0007) also lists accounts whose sortable values changed: the mail server's last_auth_date and usage,
-- a PUT's capacity, and a name or description change that leaves the lowercased search key as it was.
CREATE TRIGGER account_search_changes_sort AFTER UPDATE OF
  name, description, creation_date, expiration_date, last_auth_date, capacity, blocked, usage_bytes ON accounts
WHEN NEW.name IS NOT OLD.name OR NEW.description IS NOT OLD.description OR NEW.creation_date IS NOT OLD.creation_date
  OR NEW.expiration_date IS NOT OLD.expiration_date OR NEW.last_auth_date IS NOT OLD.last_auth_date
  OR NEW.capacity IS NOT OLD.capacity OR NEW.blocked IS NOT OLD.blocked OR NEW.usage_bytes IS NOT OLD.usage_bytes
BEGIN
  INSERT INTO account_search_changes(account_id) VALUES (NEW.id);
END;
