CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`account_limit` integer,
	`alias_limit` integer,
	`mailinglist_limit` integer,
	`capacity_limit` integer,
	`created_at` text DEFAULT (date('now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `domains` ADD `customer_id` integer REFERENCES customers(id);--> statement-breakpoint
CREATE INDEX `domains_customer_idx` ON `domains` (`customer_id`);--> statement-breakpoint
-- Every domain already served becomes a customer of its own, named after it, with per-domain limits (no pool).
INSERT INTO `customers` (`id`, `name`, `created_at`) SELECT `id`, `name`, `created_at` FROM `domains`;--> statement-breakpoint
UPDATE `domains` SET `customer_id` = `id`;