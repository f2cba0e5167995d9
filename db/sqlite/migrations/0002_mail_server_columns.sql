CREATE TABLE `mail_quota` (
	`username` text PRIMARY KEY NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `mail_password_hash` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `usage_warned_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `sieve_version` integer DEFAULT 0 NOT NULL;