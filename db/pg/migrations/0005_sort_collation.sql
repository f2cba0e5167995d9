-- The list pages' sort indexes in code point order (COLLATE "C"), the order the PostgreSQL dialect sorts by
-- (db/pg/dialect.ts: `ORDER BY <column> COLLATE "C"`, SQLite's order whatever locale the cluster was made with).
-- The indexes of 0000/0001 had the columns' default collation (the database's locale): an ORDER BY in another
-- collation cannot read them in order, so every page sorted the whole domain (bench, 100,000 accounts: 650 ms a
-- page). Only the order changes; equality and uniqueness (the *_domain_name indexes) stay as they were. The columns
-- keep their collation: changing it would mean dropping the mail_* views that read them.
DROP INDEX accounts_sort_creation;--> statement-breakpoint
CREATE INDEX accounts_sort_creation ON accounts (domain_id, creation_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_expiration;--> statement-breakpoint
CREATE INDEX accounts_sort_expiration ON accounts (domain_id, expiration_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_last_auth;--> statement-breakpoint
CREATE INDEX accounts_sort_last_auth ON accounts (domain_id, last_auth_date COLLATE "C", name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_capacity;--> statement-breakpoint
CREATE INDEX accounts_sort_capacity ON accounts (domain_id, capacity, name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_description;--> statement-breakpoint
CREATE INDEX accounts_sort_description ON accounts (domain_id, description COLLATE "C", name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_blocked;--> statement-breakpoint
CREATE INDEX accounts_sort_blocked ON accounts (domain_id, blocked, name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_usage;--> statement-breakpoint
CREATE INDEX accounts_sort_usage ON accounts (domain_id, usage_percent, name COLLATE "C");--> statement-breakpoint
DROP INDEX accounts_sort_usage_bytes;--> statement-breakpoint
CREATE INDEX accounts_sort_usage_bytes ON accounts (domain_id, usage_bytes, name COLLATE "C");--> statement-breakpoint
-- The name order (and SQLite 0006's walk testing the search key on the index entry).
DROP INDEX accounts_domain_name_search;--> statement-breakpoint
CREATE INDEX accounts_domain_name_search ON accounts (domain_id, name COLLATE "C", search_key);--> statement-breakpoint
DROP INDEX aliases_sort_target;--> statement-breakpoint
CREATE INDEX aliases_sort_target ON aliases (domain_id, target COLLATE "C", name COLLATE "C");--> statement-breakpoint
CREATE INDEX aliases_sort_name ON aliases (domain_id, name COLLATE "C");--> statement-breakpoint
DROP INDEX mailing_lists_sort_description;--> statement-breakpoint
CREATE INDEX mailing_lists_sort_description ON mailing_lists (domain_id, description COLLATE "C", name COLLATE "C");--> statement-breakpoint
DROP INDEX mailing_lists_sort_privacy;--> statement-breakpoint
CREATE INDEX mailing_lists_sort_privacy ON mailing_lists (domain_id, privacy_mode, name COLLATE "C");--> statement-breakpoint
DROP INDEX mailing_lists_sort_replyto;--> statement-breakpoint
CREATE INDEX mailing_lists_sort_replyto ON mailing_lists (domain_id, replyto_mode, name COLLATE "C");--> statement-breakpoint
DROP INDEX mailing_lists_sort_autosubscribe;--> statement-breakpoint
CREATE INDEX mailing_lists_sort_autosubscribe ON mailing_lists (domain_id, autosubscribe_enabled, name COLLATE "C");--> statement-breakpoint
CREATE INDEX mailing_lists_sort_name ON mailing_lists (domain_id, name COLLATE "C");
