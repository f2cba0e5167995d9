-- VACUUM does not truncate the tables the mail hosts read through the mail_* views. Truncating a table's empty last
-- pages takes an ACCESS EXCLUSIVE lock, which streaming replicas replay: every lookup of that table on a replica waits
-- until the truncation's transaction has been replayed (up to 250 ms per truncating VACUUM on a 2-core host, against a
-- 14 ms slowest lookup without). The pages stay allocated and are reused by new rows; VACUUM FULL returns them.
ALTER TABLE domains SET (vacuum_truncate = false);--> statement-breakpoint
ALTER TABLE accounts SET (vacuum_truncate = false);--> statement-breakpoint
ALTER TABLE aliases SET (vacuum_truncate = false);--> statement-breakpoint
ALTER TABLE mailing_lists SET (vacuum_truncate = false);--> statement-breakpoint
ALTER TABLE mail_hosts SET (vacuum_truncate = false);
