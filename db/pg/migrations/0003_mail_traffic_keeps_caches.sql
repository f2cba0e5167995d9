-- Mail traffic no longer announces a change to every API process (db/pg/change-listener.ts). Dovecot's quota
-- write-back (mail_quota_copy: usage_bytes, usage_messages) ran the statement-level accounts_notify_change on every
-- delivery, and accounts_counters_update's two UPDATEs of domains ran domains_notify_change even when they changed
-- no row: each announcement emptied every process's cached callers, domains and throttle rows, and each such commit
-- took PostgreSQL's notification lock. A statement that changes no row (a repeated login's conditional UPDATE of
-- last_auth_date) announced too. Now the write-back marks its own UPDATE (mailadmin.usage_write, for the rest of the
-- statement), which changes nothing a cached value is answered from (an account's record is read again each time):
-- the counters and the announcement leave it alone, and an UPDATE of no row is not announced.
CREATE OR REPLACE FUNCTION mail_quota_copy() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  PERFORM set_config('mailadmin.usage_write', 'on', true);
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages
  WHERE email = NEW.username AND (usage_bytes, usage_messages) IS DISTINCT FROM (NEW.bytes, NEW.messages);
  PERFORM set_config('mailadmin.usage_write', '', true);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER accounts_notify_change ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_change AFTER INSERT OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE FUNCTION accounts_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mailadmin.usage_write', true) IS DISTINCT FROM 'on' AND EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM pg_notify('data_changed', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_update AFTER UPDATE ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_notify_update();
--> statement-breakpoint
-- The same counters as before, skipped for the usage write-back and for an UPDATE of no row.
CREATE OR REPLACE FUNCTION accounts_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mailadmin.usage_write', true) = 'on' OR NOT EXISTS (SELECT 1 FROM new_rows) THEN
    RETURN NULL;
  END IF;
  UPDATE domains d SET capacity_sum = d.capacity_sum + c.delta
  FROM (SELECT domain_id, sum(capacity) AS delta
        FROM (SELECT domain_id, capacity FROM new_rows UNION ALL SELECT domain_id, -capacity FROM old_rows) x
        GROUP BY domain_id) c
  WHERE d.id = c.domain_id AND c.delta <> 0;
  -- Both domains of a row whose search key or domain changed: the new versions not among the old, and the reverse.
  UPDATE domains d SET search_version = d.search_version + 1
  WHERE d.id IN (SELECT domain_id FROM (SELECT id, domain_id, search_key FROM new_rows
                                        EXCEPT SELECT id, domain_id, search_key FROM old_rows) changed
                 UNION SELECT domain_id FROM (SELECT id, domain_id, search_key FROM old_rows
                                              EXCEPT SELECT id, domain_id, search_key FROM new_rows) was);
  RETURN NULL;
END $$;
