-- Lists are searched and sorted by SQLite alone (lib/server/list-page.ts): nothing reads the change log
-- the in-memory search tables followed any more (migrations 0007-0009), so its triggers and table go. The trigram
-- index (0004-0005), the covering name index (0006) and the domain counters (0001) stay.
DROP TRIGGER IF EXISTS `account_search_changes_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `account_search_changes_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `account_search_changes_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `account_search_changes_sort`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `account_search_changes_prune`;--> statement-breakpoint
DROP TABLE IF EXISTS `account_search_changes`;
--> statement-breakpoint
-- What a list's total depends on (its rows and their search keys) changes only with these writes; usage, dates and
-- capacities do not move it, so a total stays good while the mail server writes usage (lib/server/list-page.ts).
ALTER TABLE `domains` ADD `search_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TRIGGER accounts_search_version_insert AFTER INSERT ON accounts BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_version_delete AFTER DELETE ON accounts BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_version_update AFTER UPDATE OF search_key, domain_id ON accounts
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_insert AFTER INSERT ON aliases BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_delete AFTER DELETE ON aliases BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_update AFTER UPDATE OF search_key, domain_id ON aliases
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_insert AFTER INSERT ON mailing_lists BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_delete AFTER DELETE ON mailing_lists BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_update AFTER UPDATE OF search_key, domain_id ON mailing_lists
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
-- The list's usage_bytes sort (contract §6) walks this index like the other sort columns instead of sorting the
-- whole domain.
CREATE INDEX `accounts_sort_usage_bytes` ON `accounts` (`domain_id`,`usage_bytes`,`name`);
