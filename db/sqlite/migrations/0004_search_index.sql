-- Substring search over accounts.search_key without scanning the domain (read by lib/server/list-page.ts).
-- A contentless FTS5 trigram index: case_sensitive 1 because search_key and the search are both lowercased in JS,
-- so a phrase match is exactly "search_key contains the search". Its rowid is domain_id * 2^32 + id: the rows of
-- one domain are a rowid range, so counting a domain's matches never reads the accounts table.
-- Triggers keep it current in the same transaction as every write.
CREATE VIRTUAL TABLE accounts_search USING fts5(
  search_key, content='', contentless_delete=1, tokenize='trigram case_sensitive 1'
);
--> statement-breakpoint
INSERT INTO accounts_search(rowid, search_key) SELECT domain_id * 4294967296 + id, search_key FROM accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_search_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO accounts_search(rowid, search_key) VALUES (NEW.domain_id * 4294967296 + NEW.id, NEW.search_key);
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM accounts_search WHERE rowid = OLD.domain_id * 4294967296 + OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_update AFTER UPDATE OF search_key, domain_id ON accounts
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  DELETE FROM accounts_search WHERE rowid = OLD.domain_id * 4294967296 + OLD.id;
  INSERT INTO accounts_search(rowid, search_key) VALUES (NEW.domain_id * 4294967296 + NEW.id, NEW.search_key);
END;
--> statement-breakpoint
-- Searches under 3 characters have no trigram: they count over this narrow index instead of the wide rows.
-- (Not in db/schema.ts on purpose: list-page.ts names it in INDEXED BY, and nothing else should pick it.)
CREATE INDEX accounts_domain_search ON accounts (domain_id, search_key);
