-- `mailserver host list` counts, and `mailserver host remove` looks for, the accounts placed on a host apart from
-- their domain: a read of every account per host without this index (about 0.5 s per host at 1,000,000 accounts).
-- Partial: such accounts are few, so the index stays small and the many writes to accounts barely touch it.
CREATE INDEX "accounts_mail_host" ON "accounts" USING btree ("mail_host") WHERE mail_host IS NOT NULL;
