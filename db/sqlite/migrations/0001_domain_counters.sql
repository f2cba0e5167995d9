-- Keep the usage counters of each domain current in the same transaction as the change, so reading a
-- domain record (and checking a limit) costs one row read instead of counting the domain.
CREATE TRIGGER accounts_count_insert AFTER INSERT ON accounts BEGIN
  UPDATE domains SET account_count = account_count + 1, capacity_sum = capacity_sum + NEW.capacity WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_count_delete AFTER DELETE ON accounts BEGIN
  UPDATE domains SET account_count = account_count - 1, capacity_sum = capacity_sum - OLD.capacity WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_capacity_update AFTER UPDATE OF capacity ON accounts WHEN NEW.capacity <> OLD.capacity BEGIN
  UPDATE domains SET capacity_sum = capacity_sum + NEW.capacity - OLD.capacity WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_count_insert AFTER INSERT ON aliases BEGIN
  UPDATE domains SET alias_count = alias_count + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_count_delete AFTER DELETE ON aliases BEGIN
  UPDATE domains SET alias_count = alias_count - 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_count_insert AFTER INSERT ON mailing_lists BEGIN
  UPDATE domains SET mailinglist_count = mailinglist_count + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_count_delete AFTER DELETE ON mailing_lists BEGIN
  UPDATE domains SET mailinglist_count = mailinglist_count - 1 WHERE id = OLD.domain_id;
END;
