-- Which accounts' search keys changed, in commit order, for the substring tables the server holds in memory
-- (lib/server/held-search.ts). A server process reads the entries after the last one it applied whenever the
-- database has changed, so writes by the CLI or the mail server reach its tables too. Triggers write the log in
-- the same transaction as the change. seq grows by one per entry (AUTOINCREMENT: never reused, even when
-- the log is emptied; a rolled-back entry's number is used again, as its transaction never happened), so a reader that finds
-- a gap knows it missed entries (pruned) and rebuilds.
-- Not in db/schema.ts, like the trigram index (0004): only triggers write it and only held-search.ts reads it.
CREATE TABLE `account_search_changes` (`seq` INTEGER PRIMARY KEY AUTOINCREMENT, `account_id` INTEGER NOT NULL);
--> statement-breakpoint
CREATE TRIGGER account_search_changes_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO account_search_changes(account_id) VALUES (NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER account_search_changes_delete AFTER DELETE ON accounts BEGIN
  INSERT INTO account_search_changes(account_id) VALUES (OLD.id);
END;
--> statement-breakpoint
CREATE TRIGGER account_search_changes_update AFTER UPDATE OF search_key, domain_id ON accounts
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  INSERT INTO account_search_changes(account_id) VALUES (NEW.id);
END;
--> statement-breakpoint
-- The newest 100,000 entries are kept (a reader further behind rebuilds); pruning runs every 1,000th entry.
CREATE TRIGGER account_search_changes_prune AFTER INSERT ON account_search_changes WHEN NEW.seq % 1000 = 0 BEGIN
  DELETE FROM account_search_changes WHERE seq <= NEW.seq - 100000;
END;
