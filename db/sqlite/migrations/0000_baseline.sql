-- The schema of release 0.2.0 in one migration. Grouped by table: the table, its indexes, its triggers; then the
-- views Postfix, Dovecot and the list service read (docs/mail-server.md).

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
	`created_at` text DEFAULT (date('now')) NOT NULL,
	-- What a list's total depends on (its rows and their search keys) changes only with the writes that move this
	-- (triggers below); usage, dates and capacities do not, so a total stays good while the mail server writes usage.
	`search_version` integer DEFAULT 0 NOT NULL,
	`customer_id` integer REFERENCES customers(id),
	-- The mailbox host of the domain's accounts (docs/mail-hosts.md); NULL: every host serves them itself.
	`mail_host` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_name_unique` ON `domains` (`name`);--> statement-breakpoint
CREATE INDEX `domains_customer_idx` ON `domains` (`customer_id`);--> statement-breakpoint

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
	`mail_password_hash` text DEFAULT '' NOT NULL,
	`usage_warned_at` text DEFAULT '' NOT NULL,
	`sieve_version` integer DEFAULT 0 NOT NULL,
	-- The account's own mailbox host, overriding its domain's (docs/mail-hosts.md).
	`mail_host` text,
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
-- A searched list page in name order (the default) walks the (domain_id, name) index and tests each entry's search
-- key: with search_key in the index that test runs on the index entry and only the hits read their row. It is also
-- what a search under 3 characters (no trigram) counts over. The other sort indexes stay without search_key: with
-- it, every description change would rewrite each of them too. Not in db/sqlite/schema.ts: page-rows.ts names it in
-- INDEXED BY, and nothing else should pick it.
CREATE INDEX `accounts_domain_name_search` ON `accounts` (`domain_id`,`name`,`search_key`);
--> statement-breakpoint
CREATE INDEX `accounts_sort_usage_bytes` ON `accounts` (`domain_id`,`usage_bytes`,`name`);--> statement-breakpoint
-- Substring search over accounts.search_key without scanning the domain (read by db/sqlite/page-rows.ts).
-- A contentless FTS5 trigram index: case_sensitive 1 because search_key and the search are both lowercased in JS,
-- so a phrase match is exactly "search_key contains the search". Its rowid is domain_id * 2^32 + id: the rows of
-- one domain are a rowid range, so counting a domain's matches never reads the accounts table.
-- Triggers keep it current in the same transaction as every write.
CREATE VIRTUAL TABLE accounts_search USING fts5(
  search_key, content='', contentless_delete=1, tokenize='trigram case_sensitive 1'
);
--> statement-breakpoint
-- Every write adds a small segment that every search then reads; merging at 2 segments per level (FTS5's default
-- is 4) keeps their number low. The daily `db optimize` (lib/server/resources/search-index.ts) merges them into one.
INSERT INTO accounts_search(accounts_search, rank) VALUES ('automerge', 2);
--> statement-breakpoint
CREATE TRIGGER accounts_search_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO accounts_search(rowid, search_key) VALUES (NEW.domain_id * 4294967296 + NEW.id, NEW.search_key);
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM accounts_search WHERE rowid = OLD.domain_id * 4294967296 + OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_update AFTER UPDATE OF search_key, domain_id ON accounts
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  DELETE FROM accounts_search WHERE rowid = OLD.domain_id * 4294967296 + OLD.id;
  INSERT INTO accounts_search(rowid, search_key) VALUES (NEW.domain_id * 4294967296 + NEW.id, NEW.search_key);
END;
--> statement-breakpoint
-- Keep the usage counters of each domain current in the same transaction as the change, so reading a
-- domain record (and checking a limit) costs one row read instead of counting the domain.
CREATE TRIGGER accounts_count_insert AFTER INSERT ON accounts BEGIN
  UPDATE domains SET account_count = account_count + 1, capacity_sum = capacity_sum + NEW.capacity WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_count_delete AFTER DELETE ON accounts BEGIN
  UPDATE domains SET account_count = account_count - 1, capacity_sum = capacity_sum - OLD.capacity WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_capacity_update AFTER UPDATE OF capacity ON accounts WHEN NEW.capacity <> OLD.capacity BEGIN
  UPDATE domains SET capacity_sum = capacity_sum + NEW.capacity - OLD.capacity WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_version_insert AFTER INSERT ON accounts BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_version_delete AFTER DELETE ON accounts BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_search_version_update AFTER UPDATE OF search_key, domain_id ON accounts
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
CREATE TRIGGER accounts_mail_quota_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM mail_quota WHERE username = OLD.email;
END;
--> statement-breakpoint
-- The Sieve scripts' id carries sieve_version (mail_sieve_scripts): a change of the autoresponder's inputs moves it,
-- so Dovecot recompiles the script.
CREATE TRIGGER accounts_sieve_version AFTER UPDATE OF autoresponder_mode, autoresponder_start_date,
  autoresponder_end_date, autoresponder_body, blocked ON accounts
  WHEN NEW.autoresponder_mode IS NOT OLD.autoresponder_mode OR NEW.autoresponder_start_date IS NOT OLD.autoresponder_start_date
    OR NEW.autoresponder_end_date IS NOT OLD.autoresponder_end_date OR NEW.autoresponder_body IS NOT OLD.autoresponder_body
    OR NEW.blocked IS NOT OLD.blocked
BEGIN
  UPDATE accounts SET sieve_version = OLD.sieve_version + 1 WHERE id = NEW.id;
END;
--> statement-breakpoint

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
CREATE TRIGGER aliases_count_insert AFTER INSERT ON aliases BEGIN
  UPDATE domains SET alias_count = alias_count + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_count_delete AFTER DELETE ON aliases BEGIN
  UPDATE domains SET alias_count = alias_count - 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_insert AFTER INSERT ON aliases BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_delete AFTER DELETE ON aliases BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_search_version_update AFTER UPDATE OF search_key, domain_id ON aliases
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
-- The autoresponder's script lists the account's aliases as its addresses: alias changes change the script too.
CREATE TRIGGER aliases_sieve_version_insert AFTER INSERT ON aliases BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = NEW.target;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_sieve_version_delete AFTER DELETE ON aliases BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = OLD.target;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_sieve_version_update AFTER UPDATE OF target ON aliases WHEN NEW.target IS NOT OLD.target BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email IN (OLD.target, NEW.target);
END;
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
CREATE INDEX `mailing_lists_sort_autosubscribe` ON `mailing_lists` (`domain_id`,`autosubscribe_enabled`,`name`);--> statement-breakpoint
CREATE TRIGGER mailing_lists_count_insert AFTER INSERT ON mailing_lists BEGIN
  UPDATE domains SET mailinglist_count = mailinglist_count + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_count_delete AFTER DELETE ON mailing_lists BEGIN
  UPDATE domains SET mailinglist_count = mailinglist_count - 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_insert AFTER INSERT ON mailing_lists BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = NEW.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_delete AFTER DELETE ON mailing_lists BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id = OLD.domain_id;
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_search_version_update AFTER UPDATE OF search_key, domain_id ON mailing_lists
WHEN NEW.search_key IS NOT OLD.search_key OR NEW.domain_id IS NOT OLD.domain_id BEGIN
  UPDATE domains SET search_version = search_version + 1 WHERE id IN (OLD.domain_id, NEW.domain_id);
END;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_member_version_delete AFTER DELETE ON mailing_lists BEGIN
  DELETE FROM list_member_versions WHERE list_id = OLD.id;
END;
--> statement-breakpoint

CREATE TABLE `list_members` (
	`list_id` integer NOT NULL,
	`role` text NOT NULL,
	`address` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`list_id`, `role`, `address`),
	FOREIGN KEY (`list_id`) REFERENCES `mailing_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_members_address` ON `list_members` (`address`);--> statement-breakpoint
CREATE INDEX `list_members_order` ON `list_members` (`list_id`,`role`,`position`,`address`);--> statement-breakpoint
-- Every change of a list's members moves its version (a big PUT checks it before writing its difference).
CREATE TRIGGER list_members_version_insert AFTER INSERT ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (NEW.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint
CREATE TRIGGER list_members_version_delete AFTER DELETE ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (OLD.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint
CREATE TRIGGER list_members_version_update AFTER UPDATE ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (OLD.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
  INSERT INTO list_member_versions (list_id, version) VALUES (NEW.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint

CREATE TABLE `list_member_versions` (
	`list_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint

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
CREATE INDEX `list_tokens_list_address` ON `list_tokens` (`list_id`,`address`);--> statement-breakpoint

CREATE TABLE `list_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `list_requests_client` ON `list_requests` (`client`,`created_at`);--> statement-breakpoint

CREATE TABLE `mail_quota` (
	`username` text PRIMARY KEY NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Dovecot's quota_clone dict upserts usage here; the account row (what the API's `usage` reads) follows.
CREATE TRIGGER mail_quota_insert AFTER INSERT ON mail_quota BEGIN
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages WHERE email = NEW.username;
END;
--> statement-breakpoint
CREATE TRIGGER mail_quota_update AFTER UPDATE ON mail_quota BEGIN
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages WHERE email = NEW.username;
END;
--> statement-breakpoint

-- Mailbox hosts: each domain's (and, where the operator overrides, each account's) mailboxes live on one named
-- host; the others proxy IMAP/POP3/LMTP/ManageSieve to it and Postfix hands its mail to that host's LMTP.
CREATE TABLE `mail_hosts` (
	`name` text PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`imap_port` integer DEFAULT 143 NOT NULL,
	`pop3_port` integer DEFAULT 110 NOT NULL,
	`lmtp_port` integer DEFAULT 24 NOT NULL,
	`sieve_port` integer DEFAULT 4190 NOT NULL
);
--> statement-breakpoint

-- Greylisting's triplets in the database, shared by every MX that uses it (`mailserver policy --state database`).
CREATE TABLE `greylist` (
	`client` text NOT NULL,
	`sender` text NOT NULL,
	`recipient` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`passed` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`client`, `sender`, `recipient`)
);
--> statement-breakpoint
CREATE INDEX `greylist_first_seen` ON `greylist` (`first_seen`);
--> statement-breakpoint

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
CREATE INDEX `sms_queue_account` ON `sms_queue` (`account_id`,`created_at`);--> statement-breakpoint

CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`client_ip` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_account_idx` ON `sessions` (`account_id`);--> statement-breakpoint

CREATE TABLE `login_throttle` (
	`client_ip` text NOT NULL,
	`email` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`lockouts` integer DEFAULT 0 NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL,
	`last_failure` integer NOT NULL,
	PRIMARY KEY(`client_ip`, `email`)
);
--> statement-breakpoint

CREATE TABLE `login_challenges` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`client_ip` text NOT NULL,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint

CREATE TABLE `account_totp` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`enabled_at` integer DEFAULT 0 NOT NULL,
	`last_step` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint

CREATE TABLE `totp_recovery_codes` (
	`account_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `code_hash`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint

CREATE TABLE `domain_policies` (
	`domain_id` integer PRIMARY KEY NOT NULL,
	`require_2fa` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint

CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`domain` text NOT NULL,
	`actor` text NOT NULL,
	`client_ip` text DEFAULT '' NOT NULL,
	`via` text NOT NULL,
	`action` text NOT NULL,
	`resource` text NOT NULL,
	`names` text NOT NULL,
	`changes` text NOT NULL,
	`search_text` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_domain_at_idx` ON `audit_log` (`domain`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint

CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint

-- What Postfix and Dovecot read (docs/mail-server.md): views over the panel's tables, so the queries in the
-- generated mail-server config stay one-liners and survive schema changes. All decisions on who receives what
-- live here, next to the data.

-- Postfix virtual_mailbox_domains: every hosted domain.
CREATE VIEW mail_domains AS SELECT name AS domain FROM domains;
--> statement-breakpoint
-- Postfix virtual_mailbox_maps: every account has a mailbox, blocked and expired ones included (a block stops
-- logins, forwards and the autoresponder, not delivery: nothing is lost while it is reversible).
CREATE VIEW mail_mailboxes AS
  SELECT a.email AS email, d.name || '/' || a.name || '/' AS maildir
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
-- Postfix virtual_alias_maps: address -> one row per destination. Postfix stops recursing on an address that
-- maps to itself, and the identity rows also keep real accounts out of the domain's catchall ("@domain"). Rows:
-- aliases; the account itself, unless it forwards without keeping a copy (keep_mail = 0); its forwards, suspended
-- while the account is blocked (a compromised account must not keep leaking mail); catchall 1 and 2 (unknown
-- addresses of the domain go to one address, here or in another domain); catchall 3 ("@other" is Postfix's "same
-- user in the other domain"). Lists are not here: their addresses go to the list service (mail_list_addresses).
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
-- What the list service receives over LMTP (docs/lists.md): each list's address and its VERP bounce addresses
-- (<name>-bounces+<user>=<host>). Postfix asks with the domain (%d) and the local part (%u); the list's rows are
-- found by the domain's index.
CREATE VIEW mail_list_addresses AS
  SELECT d.name AS domain, l.name AS name FROM mailing_lists l JOIN domains d ON d.id = l.domain_id;
--> statement-breakpoint
-- Dovecot passdb: only accounts that may log in (not blocked, not past expiration_date, same rule as the API)
-- and whose mail password hash exists (an account without one gets it at its next password change).
CREATE VIEW mail_passdb AS
  SELECT email AS user, mail_password_hash AS password FROM accounts
  WHERE blocked = 0 AND (expiration_date = '' OR expiration_date >= date('now')) AND mail_password_hash <> '';
--> statement-breakpoint
-- Dovecot userdb: every mailbox, with its quota from capacity (MB; 0 means unlimited in Dovecot too).
CREATE VIEW mail_userdb AS
  SELECT a.email AS user, d.name AS domain, a.name AS name, '*:storage=' || a.capacity || 'M' AS quota_rule
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
-- Where each account's mailbox lives (docs/mail-hosts.md): the account's own host, else its domain's. Accounts of no
-- host are absent: every host serves them itself (one mail host). Postfix's transport to the owning host's LMTP and
-- Dovecot's proxy fields are read from here.
CREATE VIEW mail_account_hosts AS
  SELECT a.email AS email, h.name AS host, h.address AS address, h.imap_port AS imap_port, h.pop3_port AS pop3_port,
         h.lmtp_port AS lmtp_port, h.sieve_port AS sieve_port
  FROM accounts a JOIN domains d ON d.id = a.domain_id JOIN mail_hosts h ON h.name = COALESCE(a.mail_host, d.mail_host);
--> statement-breakpoint
-- Rendered by db/sieve-scripts-view.ts (written there once for both engines; db/sieve-scripts-view.test.ts checks it).
-- The autoresponder as a Sieve script, generated from the row itself, so it is current after every change without
-- any file to rewrite. Dovecot reads it through its dict (priv/sieve/name/<name> -> id, priv/sieve/data/<id> ->
-- script); the id carries sieve_version so a changed script is recompiled. Pigeonhole's vacation never answers
-- lists, bulk or automated mail (List-Id, Precedence, Auto-Submitted, MAILER-DAEMON...) and answers each sender
-- once per :days; :handle names the period, so a new period starts afresh.
CREATE VIEW mail_sieve_scripts AS
  SELECT
    a.email AS username,
    'autoresponder' AS name,
    'ar' || a.id || 'v' || a.sieve_version AS id,
    'require ["vacation", "date", "relational"];' || char(10) ||
    'if ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        'allof(currentdate :value "ge" "date" "' || a.autoresponder_start_date ||
        '", currentdate :value "le" "date" "' || a.autoresponder_end_date || '")'
      WHEN a.autoresponder_start_date <> '' THEN 'currentdate :value "ge" "date" "' || a.autoresponder_start_date || '"'
      WHEN a.autoresponder_end_date <> '' THEN 'currentdate :value "le" "date" "' || a.autoresponder_end_date || '"'
      ELSE 'true'
    END || ' {' || char(10) ||
    '  vacation :days ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN max(1, min(365, CAST(julianday(a.autoresponder_end_date) - julianday(a.autoresponder_start_date) AS INTEGER) + 1))
      ELSE 7
    END ||
    ' :handle "autoresponder ' || a.autoresponder_start_date || ' ' || a.autoresponder_end_date || '"' ||
    coalesce(' :addresses [' || (SELECT group_concat('"' || x.email || '"', ', ') FROM aliases x WHERE x.target = a.email) || ']', '') ||
    ' ' || '"' || replace(replace(a.autoresponder_body, '\', '\\'), '"', '\"') || '"' || ';' || char(10) ||
    '}' || char(10) AS script
  FROM accounts a
  WHERE a.autoresponder_mode = 1 AND a.blocked = 0 AND a.autoresponder_body <> ''
  UNION ALL
  -- The spam filter (docs/mail-server.md, Anti-spam): one script per account, run by Dovecot's sieve_before
  -- before the account's own scripts. Rspamd's milter wrote the message's score in hundredths into
  -- X-Mailadmin-Spam-Centiscore (replacing any copy the sender sent); from spam_hits on, the message is spam for
  -- this account: moved into Spam ("move") or tagged in the subject ("tag"), unless the envelope sender is on the
  -- account's or the domain's white list. spam_enabled 0 on the account or the domain turns it off. The id never
  -- changes and the location has no bindir: the script is compiled at every delivery, so a change applies to the
  -- next message.
  SELECT
    a.email AS username,
    'spam' AS name,
    'sp' || a.id AS id,
    CASE WHEN a.spam_enabled = 1 AND d.spam_enabled = 1 THEN
      'require ["fileinto", "envelope", "relational", "comparator-i;ascii-numeric", "editheader", "variables"];' || char(10) ||
      'if allof(' ||
      coalesce('not envelope :all :is "from" [' || (SELECT group_concat('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM json_each(a.spam_white_list) UNION SELECT value FROM json_each(d.spam_white_list)) w WHERE instr(w.value, '@') > 0) || '], ', '') ||
      coalesce('not envelope :domain :is "from" [' || (SELECT group_concat('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM json_each(a.spam_white_list) UNION SELECT value FROM json_each(d.spam_white_list)) w WHERE instr(w.value, '@') = 0) || '], ', '') ||
      'header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "' ||
      CAST(round(a.spam_hits * 100) AS INTEGER) || '") {' || char(10) ||
      CASE a.spam_rule
        WHEN 'tag' THEN
          '  if header :matches "Subject" "*" { set "subject" "${1}"; } else { set "subject" ""; }' || char(10) ||
          '  deleteheader "Subject";' || char(10) ||
          '  addheader :last "Subject" "[SPAM] ${subject}";' || char(10)
        ELSE '  fileinto "Spam";' || char(10)
      END ||
      '}' || char(10)
    ELSE '# spam filter off (spam_enabled 0 for the account or its domain)' || char(10)
    END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
