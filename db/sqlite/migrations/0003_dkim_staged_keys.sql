-- A DKIM rotation stages the new key until DNS has it (db/pg/migrations/0006_dkim_staged_keys.sql).
ALTER TABLE `dkim_keys` ADD `signing` integer DEFAULT 1 NOT NULL;
