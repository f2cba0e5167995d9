-- Mail traffic no longer announces a change to every API process (db/pg/change-listener.ts). Dovecot's quota
-- write-back (mail_quota_copy: usage_bytes, usage_messages) ran the statement-level accounts_notify_change on every
-- delivery, and accounts_counters_update's two UPDATEs of domains ran domains_notify_change even when they changed
-- no row: each announcement emptied every process's cached callers, domains and throttle rows, and each such commit
-- took PostgreSQL's notification lock. A statement that changes no row (a repeated login's conditional UPDATE of
-- last_auth_date) announced too. Now an update is announced per changed row, and only when it sets a column other
-- than the usage ones, which no cached value is answered from (an account's record is read again each time);
-- pg.test.ts checks that the list is every column of accounts but those.
DROP TRIGGER accounts_notify_change ON accounts;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_change AFTER INSERT OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_notify_update AFTER UPDATE OF
  id, domain_id, name, email, description, search_key, capacity, password_hash, mail_password_hash,
  usage_warned_at, sieve_version, usage_notification_level, expiration_date, creation_date, last_auth_date,
  last_auth_ip, keep_mail, forwards, forward_limit, alias_limit, alias_creation_priv, inbox_delete_after,
  trash_delete_after, spam_enabled, spam_rule, spam_hits, spam_delete_after, spam_white_list, spam_black_list,
  spam_greylist_whitelist, spam_spf_whitelist, spam_rbl_whitelist, spam_rbl_enabled, spam_spf_enabled,
  spam_greylist_enabled, sms_phone_number_1, sms_phone_number_2, sms_login_1, sms_login_2, sms_password_1,
  sms_password_2, sms_operator_1, sms_operator_2, sms_send_to, sms_cnt, autoresponder_mode,
  autoresponder_start_date, autoresponder_end_date, autoresponder_body, blocked, extra_rules, mail_host
  ON accounts FOR EACH ROW EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
-- The same counters as before; a domain is updated only when its sum or search version moves, so a write that moves
-- neither runs no UPDATE of domains (whose statement-level trigger announces a change even for no row).
CREATE OR REPLACE FUNCTION accounts_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
             WHERE n.capacity IS DISTINCT FROM o.capacity OR n.domain_id IS DISTINCT FROM o.domain_id) THEN
    UPDATE domains d SET capacity_sum = d.capacity_sum + c.delta
    FROM (SELECT domain_id, sum(capacity) AS delta
          FROM (SELECT domain_id, capacity FROM new_rows UNION ALL SELECT domain_id, -capacity FROM old_rows) x
          GROUP BY domain_id) c
    WHERE d.id = c.domain_id AND c.delta <> 0;
  END IF;
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
             WHERE n.search_key IS DISTINCT FROM o.search_key OR n.domain_id IS DISTINCT FROM o.domain_id) THEN
    -- Both domains of a row whose search key or domain changed: the new versions not among the old, and the reverse.
    UPDATE domains d SET search_version = d.search_version + 1
    WHERE d.id IN (SELECT domain_id FROM (SELECT id, domain_id, search_key FROM new_rows
                                          EXCEPT SELECT id, domain_id, search_key FROM old_rows) changed
                   UNION SELECT domain_id FROM (SELECT id, domain_id, search_key FROM old_rows
                                                EXCEPT SELECT id, domain_id, search_key FROM new_rows) was);
  END IF;
  RETURN NULL;
END $$;
