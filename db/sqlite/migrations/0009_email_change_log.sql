-- A held domain's list pages are built from the held values (lib/server/held-search.ts) while every account's
-- email is its name at the domain, so the change log (0007, 0008) also lists an account whose email changed.
DROP TRIGGER account_search_changes_sort;--> statement-breakpoint
CREATE TRIGGER account_search_changes_sort AFTER UPDATE OF
  name, email, description, creation_date, expiration_date, last_auth_date, capacity, blocked, usage_bytes ON accounts
WHEN NEW.name IS NOT OLD.name OR NEW.email IS NOT OLD.email OR NEW.description IS NOT OLD.description
  OR NEW.creation_date IS NOT OLD.creation_date OR NEW.expiration_date IS NOT OLD.expiration_date
  OR NEW.last_auth_date IS NOT OLD.last_auth_date OR NEW.capacity IS NOT OLD.capacity OR NEW.blocked IS NOT OLD.blocked
  OR NEW.usage_bytes IS NOT OLD.usage_bytes
BEGIN
  INSERT INTO account_search_changes(account_id) VALUES (NEW.id);
END;
