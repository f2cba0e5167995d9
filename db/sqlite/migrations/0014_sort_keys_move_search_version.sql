-- A list's deep pages seek past remembered entries of a sort order (db/page-anchors.ts) while the domain's
-- search_version is unchanged, so it now also moves when an account's sort key changes outside its search key: the
-- capacity, the block, the dates, and the description's letter case (the search key is lowercased). The name is the
-- search key's own; last_auth_date and usage are the mail server's and keep OFFSET. A change of the search key or the
-- domain as well is counted once, by accounts_search_version_update.
CREATE TRIGGER accounts_search_version_sort_keys
AFTER UPDATE OF capacity, blocked, creation_date, expiration_date, description ON accounts
WHEN (NEW.capacity IS NOT OLD.capacity OR NEW.blocked IS NOT OLD.blocked OR NEW.creation_date IS NOT OLD.creation_date
  OR NEW.expiration_date IS NOT OLD.expiration_date OR NEW.description IS NOT OLD.description)
  AND NEW.search_key IS OLD.search_key AND NEW.domain_id IS OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
