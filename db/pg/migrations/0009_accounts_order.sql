-- The accounts' sort keys in a narrow table of their own, `accounts_order`, kept by triggers like accounts_search
-- (0007): the list pages sorted by name, creation, expiration or last login date, capacity, description or blocked
-- walk its indexes, never the accounts'. The reason is the mail server (docs/postgresql.md, "Performance"): every
-- delivery updates an account's usage (mail_quota_copy), and on PostgreSQL each update is a new row version that clears the
-- visibility-map bit of its page. A page past the first reads the names it skips from a sort index, and each entry on
-- a page whose bit is clear costs a visit to the table: on 100,000 accounts under 50 usage writes a second, page
-- 1000 by capacity went from 8 ms to 24-52 ms between two autovacuums (16,595 heap fetches for 50,000 entries).
-- This table changes only when an account's name, description, capacity, dates or blocked flag do (the last login
-- date at most once a day per account), so its pages stay all-visible; and each usage write now updates 5 indexes
-- of the accounts instead of 12. The sorts by usage stay on the accounts: they change with every delivery anyway.
CREATE TABLE accounts_order (
  account_id integer PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  domain_id integer NOT NULL,
  name text NOT NULL,
  search_key text NOT NULL,
  description text NOT NULL,
  capacity integer NOT NULL,
  blocked integer NOT NULL,
  creation_date text NOT NULL,
  expiration_date text NOT NULL,
  last_auth_date text NOT NULL
);--> statement-breakpoint
INSERT INTO accounts_order (account_id, domain_id, name, search_key, description, capacity, blocked, creation_date, expiration_date, last_auth_date)
  SELECT id, domain_id, name, search_key, description, capacity, blocked, creation_date, expiration_date, last_auth_date FROM accounts;--> statement-breakpoint
ANALYZE accounts_order;--> statement-breakpoint
ALTER TABLE accounts_order SET (
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_vacuum_insert_threshold = 1000
);--> statement-breakpoint
-- Every sort index ends in the name, the tie-breaker of every order; the name order's index carries the search key,
-- so a search sorted by name tests it on the index entry (as accounts_domain_name_search did).
CREATE INDEX accounts_order_name ON accounts_order (domain_id, name COLLATE "C", search_key);--> statement-breakpoint
CREATE INDEX accounts_order_creation ON accounts_order (domain_id, creation_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
CREATE INDEX accounts_order_expiration ON accounts_order (domain_id, expiration_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
CREATE INDEX accounts_order_last_auth ON accounts_order (domain_id, last_auth_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
CREATE INDEX accounts_order_capacity ON accounts_order (domain_id, capacity, name COLLATE "C");--> statement-breakpoint
CREATE INDEX accounts_order_description ON accounts_order (domain_id, description COLLATE "C", name COLLATE "C");--> statement-breakpoint
CREATE INDEX accounts_order_blocked ON accounts_order (domain_id, blocked, name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_domain_name_search;--> statement-breakpoint
DROP INDEX accounts_sort_creation;--> statement-breakpoint
DROP INDEX accounts_sort_expiration;--> statement-breakpoint
DROP INDEX accounts_sort_last_auth;--> statement-breakpoint
DROP INDEX accounts_sort_capacity;--> statement-breakpoint
DROP INDEX accounts_sort_description;--> statement-breakpoint
DROP INDEX accounts_sort_blocked;--> statement-breakpoint
-- Kept in the writing transaction, one statement per statement on accounts; a delete cascades through the key.
CREATE FUNCTION accounts_order_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounts_order (account_id, domain_id, name, search_key, description, capacity, blocked, creation_date, expiration_date, last_auth_date)
  SELECT id, domain_id, name, search_key, description, capacity, blocked, creation_date, expiration_date, last_auth_date FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_order_insert AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_order_insert();
--> statement-breakpoint
CREATE FUNCTION accounts_order_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts_order s SET domain_id = n.domain_id, name = n.name, search_key = n.search_key,
    description = n.description, capacity = n.capacity, blocked = n.blocked, creation_date = n.creation_date,
    expiration_date = n.expiration_date, last_auth_date = n.last_auth_date
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE s.account_id = n.id
    AND (n.domain_id, n.name, n.search_key, n.description, n.capacity, n.blocked, n.creation_date, n.expiration_date, n.last_auth_date)
      IS DISTINCT FROM (o.domain_id, o.name, o.search_key, o.description, o.capacity, o.blocked, o.creation_date, o.expiration_date, o.last_auth_date);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_order_update AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_order_update();
