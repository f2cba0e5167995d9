CREATE TABLE `list_bounces` (
	`list_id` integer NOT NULL,
	`address` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`last_at` integer NOT NULL,
	`last_reason` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`list_id`, `address`),
	FOREIGN KEY (`list_id`) REFERENCES `mailing_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `list_held_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`list_id` integer NOT NULL,
	`sender` text NOT NULL,
	`subject` text NOT NULL,
	`size` integer NOT NULL,
	`message` blob NOT NULL,
	`token_hash` text NOT NULL,
	`status` text DEFAULT 'held' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `mailing_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_held_posts_list` ON `list_held_posts` (`list_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `list_held_posts_token` ON `list_held_posts` (`token_hash`);--> statement-breakpoint
CREATE TABLE `list_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`list_id` integer NOT NULL,
	`action` text NOT NULL,
	`address` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `mailing_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_tokens_expiry` ON `list_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `list_members_address` ON `list_members` (`address`);--> statement-breakpoint
-- Lists are no longer alias expansions (docs/lists.md): their addresses go to the list service over LMTP, which
-- checks the sender, holds, answers SUBSCRIBE/UNSUBSCRIBE and sends the copies. mail_alias_map loses its list rows.
DROP VIEW mail_alias_map;
--> statement-breakpoint
CREATE VIEW mail_alias_map AS
  SELECT email AS address, target AS destination FROM aliases
  UNION ALL
  SELECT email, email FROM accounts
  WHERE keep_mail = 1 OR blocked = 1 OR json_array_length(forwards) = 0
  UNION ALL
  SELECT a.email, f.value FROM accounts a, json_each(a.forwards) f WHERE a.blocked = 0
  UNION ALL
  SELECT '@' || name, catchall_address FROM domains WHERE catchall_type IN (1, 2) AND catchall_address <> ''
  UNION ALL
  SELECT '@' || name, '@' || catchall_address FROM domains WHERE catchall_type = 3 AND catchall_address <> '';
--> statement-breakpoint
-- What the list service receives: each list's address and its VERP bounce addresses (<name>-bounces+<user>=<host>).
-- Postfix asks with the domain (%d) and the local part (%u); the list's rows are found by the domain's index.
CREATE VIEW mail_list_addresses AS
  SELECT d.name AS domain, l.name AS name FROM mailing_lists l JOIN domains d ON d.id = l.domain_id;
