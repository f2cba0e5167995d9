-- A changed mail password ends the account's open IMAP, POP3 and ManageSieve sessions (docs/mail-server.md, "Open
-- sessions"): the trigger records every change, whatever wrote it, and `mailserver events` on each mail host ends the
-- sessions its Dovecot serves and records that it did in mail_password_changes_handled. The PostgreSQL twin is
-- db/pg/migrations/0016_mail_password_changes.sql.
CREATE TABLE `mail_password_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_password_changes_changed_at` ON `mail_password_changes` (`changed_at`);--> statement-breakpoint
CREATE TABLE `mail_password_changes_handled` (
	`change_id` integer NOT NULL,
	`host` text NOT NULL,
	PRIMARY KEY(`change_id`, `host`),
	FOREIGN KEY (`change_id`) REFERENCES `mail_password_changes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Epoch milliseconds from julianday(), which every SQLite version has (unixepoch('subsec') needs 3.42).
CREATE TRIGGER accounts_mail_password_change AFTER UPDATE OF mail_password_hash ON accounts
WHEN NEW.mail_password_hash IS NOT OLD.mail_password_hash BEGIN
  INSERT INTO mail_password_changes (email, changed_at)
  VALUES (NEW.email, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
