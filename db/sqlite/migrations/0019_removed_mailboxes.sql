-- A deleted account's Maildir stays on its mail host until that host's `mailserver events` removes it
-- (lib/mailserver/removed-mailboxes.ts); until then an account created again under the address must not log in to the
-- previous owner's mail, so mail_passdb leaves out every address with a pending removal. The PostgreSQL twin is
-- db/pg/migrations/0023_removed_mailboxes.sql.
CREATE TABLE `removed_mailboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`host` text,
	`removed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `removed_mailboxes_email` ON `removed_mailboxes` (`email`);--> statement-breakpoint
DROP VIEW mail_passdb;
--> statement-breakpoint
CREATE VIEW mail_passdb AS
  SELECT email AS user, mail_password_hash AS password FROM accounts
  WHERE blocked = 0 AND (expiration_date = '' OR expiration_date >= date('now')) AND mail_password_hash <> ''
    AND NOT EXISTS (SELECT 1 FROM removed_mailboxes r WHERE r.email = accounts.email);
