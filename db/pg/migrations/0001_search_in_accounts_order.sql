-- A new search's matches are counted in accounts_order, whose rows carry the trigram form of the search key and its
-- trigram index: the count and the page's top names come from one scan of the matches (db/pg/dialect.ts), and an
-- account is written to one narrow copy instead of two. accounts_search goes.
ALTER TABLE accounts_order ADD COLUMN trigram_key text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE accounts_order SET trigram_key = trigram_form(search_key);--> statement-breakpoint
-- GIN's fast update appends new entries to an unsorted pending list that every search reads: 256 kB instead of 4 MB
-- keeps it short (docs/postgresql.md, "Performance").
CREATE INDEX accounts_order_words_trgm ON accounts_order USING gin (trigram_key gin_trgm_ops) WITH (gin_pending_list_limit = 256);--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_order_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounts_order (account_id, domain_id, name, search_key, trigram_key, description, capacity, blocked, creation_date, expiration_date, last_auth_date)
  SELECT id, domain_id, name, search_key, trigram_form(search_key), description, capacity, blocked, creation_date, expiration_date, last_auth_date FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_order_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts_order s SET domain_id = n.domain_id, name = n.name, search_key = n.search_key,
    trigram_key = trigram_form(n.search_key), description = n.description, capacity = n.capacity, blocked = n.blocked,
    creation_date = n.creation_date, expiration_date = n.expiration_date, last_auth_date = n.last_auth_date
  FROM new_rows n
  WHERE s.account_id = n.id
    AND (s.domain_id, s.name, s.search_key, s.description, s.capacity, s.blocked, s.creation_date, s.expiration_date, s.last_auth_date)
      IS DISTINCT FROM (n.domain_id, n.name, n.search_key, n.description, n.capacity, n.blocked, n.creation_date, n.expiration_date, n.last_auth_date);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER accounts_search_insert ON accounts;--> statement-breakpoint
DROP TRIGGER accounts_search_update ON accounts;--> statement-breakpoint
DROP FUNCTION accounts_search_insert();--> statement-breakpoint
DROP FUNCTION accounts_search_update();--> statement-breakpoint
DROP TABLE accounts_search;--> statement-breakpoint
ANALYZE accounts_order;
