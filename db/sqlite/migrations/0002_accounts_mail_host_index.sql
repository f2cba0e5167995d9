-- The few accounts placed on a mail host apart from their domain (db/pg/migrations/0005_accounts_mail_host_index.sql).
CREATE INDEX `accounts_mail_host` ON `accounts` (`mail_host`) WHERE mail_host IS NOT NULL;
