-- A searched account list sorted by a column other than name walks that column's index and tests each entry's
-- search key (db/sqlite/page-rows.ts). With the key only in the table, every entry passed cost a row read (a 333-byte
-- row of 56 columns, often not in the page cache); with the key in the index the walk reads the index alone, as the
-- name order's accounts_domain_name_search already does. Search "kowal" on 100,000 accounts (a walk of ~900 entries):
-- 0.45-0.85x the time per page in one process. Costs ~6.5 MB per index per 100,000 accounts, and a changed
-- description now rewrites these entries too.
DROP INDEX `accounts_sort_creation`;--> statement-breakpoint
CREATE INDEX `accounts_sort_creation` ON `accounts` (`domain_id`,`creation_date`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_expiration`;--> statement-breakpoint
CREATE INDEX `accounts_sort_expiration` ON `accounts` (`domain_id`,`expiration_date`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_last_auth`;--> statement-breakpoint
CREATE INDEX `accounts_sort_last_auth` ON `accounts` (`domain_id`,`last_auth_date`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_capacity`;--> statement-breakpoint
CREATE INDEX `accounts_sort_capacity` ON `accounts` (`domain_id`,`capacity`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_description`;--> statement-breakpoint
CREATE INDEX `accounts_sort_description` ON `accounts` (`domain_id`,`description`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_blocked`;--> statement-breakpoint
CREATE INDEX `accounts_sort_blocked` ON `accounts` (`domain_id`,`blocked`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_usage`;--> statement-breakpoint
CREATE INDEX `accounts_sort_usage` ON `accounts` (`domain_id`,`usage_percent`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_usage_bytes`;--> statement-breakpoint
CREATE INDEX `accounts_sort_usage_bytes` ON `accounts` (`domain_id`,`usage_bytes`,`name`,`search_key`);--> statement-breakpoint
DROP INDEX `accounts_sort_email`;--> statement-breakpoint
CREATE INDEX `accounts_sort_email` ON `accounts` (`domain_id`,`email`,`name`,`search_key`);
