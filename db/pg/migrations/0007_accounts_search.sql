-- The accounts' search keys in a narrow table of their own, as SQLite keeps them in its FTS5 table accounts_search
-- (SQLite 0004): a new search's count reads this table, never the accounts. Two reasons (bench data, 100,000
-- accounts; docs/postgresql.md, "Performance"):
-- - a count rechecks every candidate the trigram index gives (pg_trgm splits "j.piot" into words, so it gave 10,365
--   candidates for 104 matches) on its row: on the accounts, a row of ~600 bytes, that visited 5,000-6,800 of 8,558
--   pages; here rows are ~60 bytes (1,700 pages). Median of six bench terms, measured in turns, 23 -> 13 ms;
-- - an account's usage changes with every delivery (mail_quota_copy), and each change is a new row version with new
--   entries in every index of accounts, its trigram index included. This table changes only when a name or
--   a description does.
-- The accounts' own trigram index goes: a page of few matches is read by the ids the count found, a page of many by
-- walking a sort index (db/pg/dialect.ts), and neither needs it. Every usage change paid for it.
CREATE TABLE accounts_search (
  account_id integer PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  domain_id integer NOT NULL,
  search_key text NOT NULL
);--> statement-breakpoint
INSERT INTO accounts_search (account_id, domain_id, search_key) SELECT id, domain_id, search_key FROM accounts;--> statement-breakpoint
-- A big domain's search through the trigram index; a small domain's by walking its entries here (index-only).
CREATE INDEX accounts_search_key_trgm ON accounts_search USING gin (search_key gin_trgm_ops) WITH (gin_pending_list_limit = 256);--> statement-breakpoint
CREATE INDEX accounts_search_domain ON accounts_search (domain_id) INCLUDE (account_id, search_key);--> statement-breakpoint
-- Kept in the writing transaction, one statement per statement on accounts (an import of 10,000 accounts: one insert).
-- A delete cascades through the foreign key.
CREATE FUNCTION accounts_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounts_search (account_id, domain_id, search_key) SELECT id, domain_id, search_key FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_search_insert AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_search_insert();
--> statement-breakpoint
CREATE FUNCTION accounts_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts_search s SET domain_id = n.domain_id, search_key = n.search_key
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE s.account_id = n.id AND (n.search_key IS DISTINCT FROM o.search_key OR n.domain_id IS DISTINCT FROM o.domain_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_search_update AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_search_update();
--> statement-breakpoint
DROP INDEX accounts_search_trgm;
