CREATE TABLE `dkim_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain_id` integer NOT NULL,
	`selector` text NOT NULL,
	`private_key` text NOT NULL,
	`public_key` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dkim_keys_domain_selector` ON `dkim_keys` (`domain_id`,`selector`);--> statement-breakpoint
CREATE TABLE `sms_queue` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`slot` integer NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`parts` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`sent_at` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_queue_due` ON `sms_queue` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `sms_queue_account` ON `sms_queue` (`account_id`,`created_at`);