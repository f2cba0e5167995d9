-- What SQLite does in triggers and views (db/migrations 0001, 0003, 0004, 0011, 0013, 0014), in PostgreSQL's
-- dialect. Keep in step with those files: a view Postfix or Dovecot reads must return the same rows on both engines
-- (db/pg/pg.test.ts checks them on a fixture).

-- Substring search (where SQLite keeps the FTS5 trigram table accounts_search): pg_trgm's GIN indexes answer
-- `search_key LIKE '%...%'` / `ILIKE`. pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may
-- create it without being a superuser (docs/postgresql.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX accounts_search_trgm ON accounts USING gin (search_key gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX aliases_search_trgm ON aliases USING gin (search_key gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX mailing_lists_search_trgm ON mailing_lists USING gin (search_key gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX audit_log_search_trgm ON audit_log USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
-- SQLite's 0006: a name-ordered walk of a domain that tests the search key on the index entry.
CREATE INDEX accounts_domain_name_search ON accounts (domain_id, name, search_key);
--> statement-breakpoint

-- Domain usage counters (SQLite 0001) and the search version (SQLite 0011), kept in the same transaction as the
-- change. Statement-level triggers with transition tables: an import of 10,000 accounts in one statement updates
-- each domain row once, not 10,000 times.
CREATE FUNCTION accounts_counters_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE domains d SET account_count = d.account_count + c.n, capacity_sum = d.capacity_sum + c.cap,
    search_version = d.search_version + 1
  FROM (SELECT domain_id, count(*) AS n, sum(capacity) AS cap FROM new_rows GROUP BY domain_id) c
  WHERE d.id = c.domain_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_counters_insert AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_counters_insert();
--> statement-breakpoint
CREATE FUNCTION accounts_counters_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE domains d SET account_count = d.account_count - c.n, capacity_sum = d.capacity_sum - c.cap,
    search_version = d.search_version + 1
  FROM (SELECT domain_id, count(*) AS n, sum(capacity) AS cap FROM old_rows GROUP BY domain_id) c
  WHERE d.id = c.domain_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_counters_delete AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_counters_delete();
--> statement-breakpoint
-- A changed capacity moves the sum; a changed search key (or domain) moves the search version of both domains.
CREATE FUNCTION accounts_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE domains d SET capacity_sum = d.capacity_sum + c.delta
  FROM (SELECT n.domain_id, sum(n.capacity - o.capacity) AS delta FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.capacity <> o.capacity GROUP BY n.domain_id) c
  WHERE d.id = c.domain_id AND c.delta <> 0;
  UPDATE domains d SET search_version = d.search_version + 1
  WHERE d.id IN (SELECT unnest(ARRAY[o.domain_id, n.domain_id]) FROM new_rows n JOIN old_rows o ON o.id = n.id
                 WHERE n.search_key IS DISTINCT FROM o.search_key OR n.domain_id IS DISTINCT FROM o.domain_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_counters_update AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_counters_update();
--> statement-breakpoint
-- Aliases and mailing lists: the count column is named per table (alias_count, mailinglist_count).
CREATE FUNCTION names_counters() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  col text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('UPDATE domains d SET %1$I = d.%1$I + c.n, search_version = d.search_version + 1
      FROM (SELECT domain_id, count(*) AS n FROM new_rows GROUP BY domain_id) c WHERE d.id = c.domain_id', col);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('UPDATE domains d SET %1$I = d.%1$I - c.n, search_version = d.search_version + 1
      FROM (SELECT domain_id, count(*) AS n FROM old_rows GROUP BY domain_id) c WHERE d.id = c.domain_id', col);
  ELSE
    UPDATE domains d SET search_version = d.search_version + 1
    WHERE d.id IN (SELECT unnest(ARRAY[o.domain_id, n.domain_id]) FROM new_rows n JOIN old_rows o ON o.id = n.id
                   WHERE n.search_key IS DISTINCT FROM o.search_key OR n.domain_id IS DISTINCT FROM o.domain_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER aliases_counters_insert AFTER INSERT ON aliases REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('alias_count');
--> statement-breakpoint
CREATE TRIGGER aliases_counters_delete AFTER DELETE ON aliases REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('alias_count');
--> statement-breakpoint
CREATE TRIGGER aliases_counters_update AFTER UPDATE ON aliases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('alias_count');
--> statement-breakpoint
CREATE TRIGGER mailing_lists_counters_insert AFTER INSERT ON mailing_lists REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('mailinglist_count');
--> statement-breakpoint
CREATE TRIGGER mailing_lists_counters_delete AFTER DELETE ON mailing_lists REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('mailinglist_count');
--> statement-breakpoint
CREATE TRIGGER mailing_lists_counters_update AFTER UPDATE ON mailing_lists REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION names_counters('mailinglist_count');
--> statement-breakpoint

-- Dovecot's quota_clone dict upserts usage into mail_quota; the account row (what the API's `usage` reads) follows
-- (SQLite 0003). SECURITY DEFINER: Dovecot writes mail_quota as the read-only mail role (db/pg/mail-reader.ts),
-- which may not update accounts itself; the copy runs with the owner's rights and touches only the usage columns.
CREATE FUNCTION mail_quota_copy() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages
  WHERE email = NEW.username AND (usage_bytes, usage_messages) IS DISTINCT FROM (NEW.bytes, NEW.messages);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mail_quota_copy AFTER INSERT OR UPDATE ON mail_quota FOR EACH ROW EXECUTE FUNCTION mail_quota_copy();
--> statement-breakpoint
CREATE FUNCTION accounts_mail_quota_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM mail_quota WHERE username IN (SELECT email FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_mail_quota_delete AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION accounts_mail_quota_delete();
--> statement-breakpoint

-- The Sieve scripts' data id carries sieve_version: bumped when the autoresponder's inputs change (SQLite 0003).
CREATE FUNCTION accounts_sieve_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.autoresponder_mode IS DISTINCT FROM OLD.autoresponder_mode
    OR NEW.autoresponder_start_date IS DISTINCT FROM OLD.autoresponder_start_date
    OR NEW.autoresponder_end_date IS DISTINCT FROM OLD.autoresponder_end_date
    OR NEW.autoresponder_body IS DISTINCT FROM OLD.autoresponder_body
    OR NEW.blocked IS DISTINCT FROM OLD.blocked THEN
    NEW.sieve_version := OLD.sieve_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_sieve_version BEFORE UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION accounts_sieve_version();
--> statement-breakpoint
-- The script lists the account's aliases as its addresses: alias changes change the script too.
CREATE FUNCTION aliases_sieve_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = NEW.target;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = OLD.target;
  ELSIF NEW.target IS DISTINCT FROM OLD.target THEN
    UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email IN (OLD.target, NEW.target);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER aliases_sieve_version AFTER INSERT OR DELETE OR UPDATE OF target ON aliases
  FOR EACH ROW EXECUTE FUNCTION aliases_sieve_version();
--> statement-breakpoint

-- The views Postfix, Dovecot and the list service read (final definitions of SQLite 0003, 0013, 0014; the
-- comments there explain each rule). "user" is a reserved word in PostgreSQL: queries quote it.
CREATE VIEW mail_domains AS SELECT name AS domain FROM domains;
--> statement-breakpoint
CREATE VIEW mail_mailboxes AS
  SELECT a.email AS email, d.name || '/' || a.name || '/' AS maildir
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
CREATE VIEW mail_alias_map AS
  SELECT email AS address, target AS destination FROM aliases
  UNION ALL
  SELECT email, email FROM accounts
  WHERE keep_mail = 1 OR blocked = 1 OR jsonb_array_length(forwards) = 0
  UNION ALL
  SELECT a.email, f.value FROM accounts a, jsonb_array_elements_text(a.forwards) AS f(value) WHERE a.blocked = 0
  UNION ALL
  SELECT '@' || name, catchall_address FROM domains WHERE catchall_type IN (1, 2) AND catchall_address <> ''
  UNION ALL
  SELECT '@' || name, '@' || catchall_address FROM domains WHERE catchall_type = 3 AND catchall_address <> '';
--> statement-breakpoint
CREATE VIEW mail_list_addresses AS
  SELECT d.name AS domain, l.name AS name FROM mailing_lists l JOIN domains d ON d.id = l.domain_id;
--> statement-breakpoint
CREATE VIEW mail_passdb AS
  SELECT email AS "user", mail_password_hash AS password FROM accounts
  WHERE blocked = 0 AND (expiration_date = '' OR expiration_date >= to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD'))
    AND mail_password_hash <> '';
--> statement-breakpoint
CREATE VIEW mail_userdb AS
  SELECT a.email AS "user", d.name AS domain, a.name AS name, '*:storage=' || a.capacity || 'M' AS quota_rule
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
CREATE VIEW mail_sieve_scripts AS
  SELECT
    a.email AS username,
    'autoresponder' AS name,
    'ar' || a.id || 'v' || a.sieve_version AS id,
    'require ["vacation", "date", "relational"];' || chr(10) ||
    'if ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        'allof(currentdate :value "ge" "date" "' || a.autoresponder_start_date ||
        '", currentdate :value "le" "date" "' || a.autoresponder_end_date || '")'
      WHEN a.autoresponder_start_date <> '' THEN 'currentdate :value "ge" "date" "' || a.autoresponder_start_date || '"'
      WHEN a.autoresponder_end_date <> '' THEN 'currentdate :value "le" "date" "' || a.autoresponder_end_date || '"'
      ELSE 'true'
    END || ' {' || chr(10) ||
    '  vacation :days ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        greatest(1, least(365, (a.autoresponder_end_date::date - a.autoresponder_start_date::date) + 1))
      ELSE 7
    END ||
    ' :handle "autoresponder ' || a.autoresponder_start_date || ' ' || a.autoresponder_end_date || '"' ||
    coalesce(' :addresses [' || (SELECT string_agg('"' || x.email || '"', ', ') FROM aliases x WHERE x.target = a.email) || ']', '') ||
    ' "' || replace(replace(a.autoresponder_body, '\', '\\'), '"', '\"') || '";' || chr(10) ||
    '}' || chr(10) AS script
  FROM accounts a
  WHERE a.autoresponder_mode = 1 AND a.blocked = 0 AND a.autoresponder_body <> ''
  UNION ALL
  SELECT
    a.email AS username,
    'spam' AS name,
    'sp' || a.id AS id,
    CASE WHEN a.spam_enabled = 1 AND d.spam_enabled = 1 THEN
      'require ["fileinto", "envelope", "relational", "comparator-i;ascii-numeric", "editheader", "variables"];' || chr(10) ||
      'if allof(' ||
      coalesce('not envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (
      SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) w
      WHERE strpos(w.value, '@') > 0) || '], ', '') ||
      coalesce('not envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (
      SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) w
      WHERE strpos(w.value, '@') = 0) || '], ', '') ||
      'header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "' ||
      CAST(round(a.spam_hits * 100) AS INTEGER) || '") {' || chr(10) ||
      CASE a.spam_rule
        WHEN 'tag' THEN
          '  if header :matches "Subject" "*" { set "subject" "${1}"; } else { set "subject" ""; }' || chr(10) ||
          '  deleteheader "Subject";' || chr(10) ||
          '  addheader :last "Subject" "[SPAM] ${subject}";' || chr(10)
        ELSE '  fileinto "Spam";' || chr(10)
      END ||
      '}' || chr(10)
    ELSE '# spam filter off (spam_enabled 0 for the account or its domain)' || chr(10)
    END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
