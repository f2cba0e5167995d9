-- A list's deep pages seek past remembered entries of a sort order (db/page-anchors.ts) while the domain's
-- search_version is unchanged, so it now also moves when an account's sort key outside its search key changes.
-- (description and name are in the search key; last_auth_date and usage are the mail server's and keep OFFSET.)
CREATE TRIGGER accounts_search_version_sort_keys AFTER UPDATE OF capacity, blocked, creation_date, expiration_date ON accounts
WHEN NEW.capacity IS NOT OLD.capacity OR NEW.blocked IS NOT OLD.blocked OR NEW.creation_date IS NOT OLD.creation_date
  OR NEW.expiration_date IS NOT OLD.expiration_date BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
