-- Every committed change to accounts or domains is announced on the channel data_changed, so each process can keep
-- what it read from them (a verified caller, a domain by name) until the next announcement (db/pg/change-listener.ts).
-- One notification per transaction: PostgreSQL folds identical ones, and delivers them only after the commit.
CREATE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('data_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER domains_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON domains
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
