CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`search_key` text DEFAULT '' NOT NULL,
	`capacity` integer DEFAULT 1024 NOT NULL,
	`usage_bytes` integer DEFAULT 0 NOT NULL,
	`usage_messages` integer DEFAULT 0 NOT NULL,
	`usage_percent` integer GENERATED ALWAYS AS ((CASE WHEN capacity > 0 THEN usage_bytes * 100 / (capacity * 1048576) ELSE 0 END)) STORED NOT NULL,
	`password_hash` text NOT NULL,
	`usage_notification_level` integer DEFAULT 90 NOT NULL,
	`expiration_date` text DEFAULT '' NOT NULL,
	`creation_date` text DEFAULT (date('now')) NOT NULL,
	`last_auth_date` text DEFAULT '' NOT NULL,
	`last_auth_ip` text DEFAULT '' NOT NULL,
	`keep_mail` integer DEFAULT 1 NOT NULL,
	`forwards` text DEFAULT '[]' NOT NULL,
	`forward_limit` integer DEFAULT 3 NOT NULL,
	`alias_limit` integer DEFAULT 10 NOT NULL,
	`alias_creation_priv` integer DEFAULT 0 NOT NULL,
	`inbox_delete_after` integer DEFAULT 0 NOT NULL,
	`trash_delete_after` integer DEFAULT 30 NOT NULL,
	`spam_enabled` integer DEFAULT 1 NOT NULL,
	`spam_rule` text DEFAULT 'move' NOT NULL,
	`spam_hits` real DEFAULT 5 NOT NULL,
	`spam_delete_after` integer DEFAULT 30 NOT NULL,
	`spam_white_list` text DEFAULT '[]' NOT NULL,
	`spam_black_list` text DEFAULT '[]' NOT NULL,
	`spam_greylist_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_spf_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_rbl_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_rbl_enabled` integer DEFAULT -1 NOT NULL,
	`spam_spf_enabled` integer DEFAULT -1 NOT NULL,
	`spam_greylist_enabled` integer DEFAULT -1 NOT NULL,
	`sms_phone_number_1` text DEFAULT '' NOT NULL,
	`sms_phone_number_2` text DEFAULT '' NOT NULL,
	`sms_login_1` text DEFAULT '' NOT NULL,
	`sms_login_2` text DEFAULT '' NOT NULL,
	`sms_password_1` text DEFAULT '' NOT NULL,
	`sms_password_2` text DEFAULT '' NOT NULL,
	`sms_operator_1` integer DEFAULT 0 NOT NULL,
	`sms_operator_2` integer DEFAULT 0 NOT NULL,
	`sms_send_to` integer DEFAULT 0 NOT NULL,
	`sms_cnt` integer DEFAULT 0 NOT NULL,
	`autoresponder_mode` integer DEFAULT 0 NOT NULL,
	`autoresponder_start_date` text DEFAULT '' NOT NULL,
	`autoresponder_end_date` text DEFAULT '' NOT NULL,
	`autoresponder_body` text DEFAULT '' NOT NULL,
	`blocked` integer DEFAULT 0 NOT NULL,
	`extra_rules` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_domain_name` ON `accounts` (`domain_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email` ON `accounts` (`email`);--> statement-breakpoint
CREATE INDEX `accounts_sort_creation` ON `accounts` (`domain_id`,`creation_date`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_expiration` ON `accounts` (`domain_id`,`expiration_date`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_last_auth` ON `accounts` (`domain_id`,`last_auth_date`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_capacity` ON `accounts` (`domain_id`,`capacity`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_description` ON `accounts` (`domain_id`,`description`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_blocked` ON `accounts` (`domain_id`,`blocked`,`name`);--> statement-breakpoint
CREATE INDEX `accounts_sort_usage` ON `accounts` (`domain_id`,`usage_percent`,`name`);--> statement-breakpoint
CREATE TABLE `aliases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`target` text NOT NULL,
	`search_key` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `aliases_domain_name` ON `aliases` (`domain_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `aliases_email` ON `aliases` (`email`);--> statement-breakpoint
CREATE INDEX `aliases_sort_target` ON `aliases` (`domain_id`,`target`,`name`);--> statement-breakpoint
CREATE INDEX `aliases_target` ON `aliases` (`target`);--> statement-breakpoint
CREATE TABLE `domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`catchall_type` integer DEFAULT 0 NOT NULL,
	`catchall_address` text DEFAULT '' NOT NULL,
	`spam_enabled` integer DEFAULT 1 NOT NULL,
	`spam_white_list` text DEFAULT '[]' NOT NULL,
	`spam_black_list` text DEFAULT '[]' NOT NULL,
	`spam_greylist_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_spf_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_rbl_whitelist` text DEFAULT '[]' NOT NULL,
	`spam_rbl_enabled` integer DEFAULT -1 NOT NULL,
	`spam_spf_enabled` integer DEFAULT -1 NOT NULL,
	`spam_greylist_enabled` integer DEFAULT -1 NOT NULL,
	`account_limit` integer DEFAULT 1000 NOT NULL,
	`alias_limit` integer DEFAULT 1000 NOT NULL,
	`mailinglist_limit` integer DEFAULT 100 NOT NULL,
	`capacity_limit` integer DEFAULT 102400 NOT NULL,
	`account_count` integer DEFAULT 0 NOT NULL,
	`alias_count` integer DEFAULT 0 NOT NULL,
	`mailinglist_count` integer DEFAULT 0 NOT NULL,
	`capacity_sum` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (date('now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_name_unique` ON `domains` (`name`);--> statement-breakpoint
CREATE TABLE `list_members` (
	`list_id` integer NOT NULL,
	`role` text NOT NULL,
	`address` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`list_id`, `role`, `address`),
	FOREIGN KEY (`list_id`) REFERENCES `mailing_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mailing_lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`search_key` text DEFAULT '' NOT NULL,
	`privacy_mode` integer DEFAULT 0 NOT NULL,
	`replyto_mode` integer DEFAULT 0 NOT NULL,
	`replyto_email` text DEFAULT '' NOT NULL,
	`replyto_catchall` integer DEFAULT 0 NOT NULL,
	`confirm_url` text DEFAULT '' NOT NULL,
	`autosubscribe_enabled` integer DEFAULT 0 NOT NULL,
	`subscribe_request_mail_body` text NOT NULL,
	`subscribe_request_mail_subject` text NOT NULL,
	`unsubscribe_request_mail_body` text NOT NULL,
	`unsubscribe_request_mail_subject` text NOT NULL,
	`subscribe_mail_body` text NOT NULL,
	`subscribe_mail_subject` text NOT NULL,
	`unsubscribe_mail_body` text NOT NULL,
	`unsubscribe_mail_subject` text NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mailing_lists_domain_name` ON `mailing_lists` (`domain_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `mailing_lists_email` ON `mailing_lists` (`email`);--> statement-breakpoint
CREATE INDEX `mailing_lists_sort_description` ON `mailing_lists` (`domain_id`,`description`,`name`);--> statement-breakpoint
CREATE INDEX `mailing_lists_sort_privacy` ON `mailing_lists` (`domain_id`,`privacy_mode`,`name`);--> statement-breakpoint
CREATE INDEX `mailing_lists_sort_replyto` ON `mailing_lists` (`domain_id`,`replyto_mode`,`name`);--> statement-breakpoint
CREATE INDEX `mailing_lists_sort_autosubscribe` ON `mailing_lists` (`domain_id`,`autosubscribe_enabled`,`name`);