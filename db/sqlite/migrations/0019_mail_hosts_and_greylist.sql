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
ALTER TABLE `domains` ADD `mail_host` text;
--> statement-breakpoint
ALTER TABLE `accounts` ADD `mail_host` text;
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
-- Where each account's mailbox lives (docs/mail-hosts.md): the account's own host, else its domain's. Accounts of no
-- host are absent: every host serves them itself (one mail host). Postfix's transport to the owning host's LMTP and
-- Dovecot's proxy fields are read from here.
CREATE VIEW mail_account_hosts AS
  SELECT a.email AS email, h.name AS host, h.address AS address, h.imap_port AS imap_port, h.pop3_port AS pop3_port,
         h.lmtp_port AS lmtp_port, h.sieve_port AS sieve_port
  FROM accounts a JOIN domains d ON d.id = a.domain_id JOIN mail_hosts h ON h.name = COALESCE(a.mail_host, d.mail_host);
