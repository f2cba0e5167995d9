-- What Postfix and Dovecot read (docs/mail-server.md): views over the panel's tables, so the queries in the
-- generated mail-server config stay one-liners and survive schema changes. All decisions on who receives what
-- live here, next to the data.

-- Postfix virtual_mailbox_domains: every hosted domain.
CREATE VIEW mail_domains AS SELECT name AS domain FROM domains;
--> statement-breakpoint
-- Postfix virtual_mailbox_maps: every account has a mailbox, blocked and expired ones included (a block stops
-- logins, forwards and the autoresponder, not delivery: nothing is lost while it is reversible).
CREATE VIEW mail_mailboxes AS
  SELECT a.email AS email, d.name || '/' || a.name || '/' AS maildir
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
-- Postfix virtual_alias_maps: address -> one row per destination. Postfix stops recursing on an address that
-- maps to itself, and the identity rows also keep real accounts out of the domain's catchall ("@domain").
CREATE VIEW mail_alias_map AS
  SELECT email AS address, target AS destination FROM aliases
  UNION ALL
  -- The account itself: unless it forwards without keeping a copy (keep_mail = 0).
  SELECT email, email FROM accounts
  WHERE keep_mail = 1 OR blocked = 1 OR json_array_length(forwards) = 0
  UNION ALL
  -- Forwards, suspended while the account is blocked (a compromised account must not keep leaking mail).
  SELECT a.email, f.value FROM accounts a, json_each(a.forwards) f WHERE a.blocked = 0
  UNION ALL
  -- Open lists (privacy_mode 0) expand to their subscribers. Moderated (1) and closed (2) lists need a
  -- sender check Postfix cannot make from a lookup: their mail goes to the moderators, who resend what they accept.
  SELECT l.email, m.address FROM mailing_lists l
  JOIN list_members m ON m.list_id = l.id AND m.role = CASE l.privacy_mode WHEN 0 THEN 'subscriber' ELSE 'moderator' END
  UNION ALL
  -- Catchall 1 and 2: unknown addresses of the domain go to one address (here or in another domain).
  SELECT '@' || name, catchall_address FROM domains WHERE catchall_type IN (1, 2) AND catchall_address <> ''
  UNION ALL
  -- Catchall 3: "@other" is Postfix's "same user in the other domain".
  SELECT '@' || name, '@' || catchall_address FROM domains WHERE catchall_type = 3 AND catchall_address <> '';
--> statement-breakpoint
-- Dovecot passdb: only accounts that may log in (not blocked, not past expiration_date, same rule as the API)
-- and whose mail password hash exists (accounts created before this migration get it at their next password change).
CREATE VIEW mail_passdb AS
  SELECT email AS user, mail_password_hash AS password FROM accounts
  WHERE blocked = 0 AND (expiration_date = '' OR expiration_date >= date('now')) AND mail_password_hash <> '';
--> statement-breakpoint
-- Dovecot userdb: every mailbox, with its quota from capacity (MB; 0 means unlimited in Dovecot too).
CREATE VIEW mail_userdb AS
  SELECT a.email AS user, d.name AS domain, a.name AS name, '*:storage=' || a.capacity || 'M' AS quota_rule
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
-- Dovecot's quota_clone dict upserts usage here; the account row (what the API's `usage` reads) follows.
CREATE TRIGGER mail_quota_insert AFTER INSERT ON mail_quota BEGIN
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages WHERE email = NEW.username;
END;
--> statement-breakpoint
CREATE TRIGGER mail_quota_update AFTER UPDATE ON mail_quota BEGIN
  UPDATE accounts SET usage_bytes = NEW.bytes, usage_messages = NEW.messages WHERE email = NEW.username;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_mail_quota_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM mail_quota WHERE username = OLD.email;
END;
--> statement-breakpoint
-- The autoresponder as a Sieve script, generated from the row itself, so it is current after every change without
-- any file to rewrite. Dovecot reads it through its dict (priv/sieve/name/<name> -> id, priv/sieve/data/<id> ->
-- script); the id carries sieve_version so a changed script is recompiled. Pigeonhole's vacation never answers
-- lists, bulk or automated mail (List-Id, Precedence, Auto-Submitted, MAILER-DAEMON...) and answers each sender
-- once per :days; :handle names the period, so a new period starts afresh.
CREATE VIEW mail_sieve_scripts AS
  SELECT
    a.email AS username,
    'autoresponder' AS name,
    'ar' || a.id || 'v' || a.sieve_version AS id,
    'require ["vacation", "date", "relational"];' || char(10) ||
    'if ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        'allof(currentdate :value "ge" "date" "' || a.autoresponder_start_date ||
        '", currentdate :value "le" "date" "' || a.autoresponder_end_date || '")'
      WHEN a.autoresponder_start_date <> '' THEN 'currentdate :value "ge" "date" "' || a.autoresponder_start_date || '"'
      WHEN a.autoresponder_end_date <> '' THEN 'currentdate :value "le" "date" "' || a.autoresponder_end_date || '"'
      ELSE 'true'
    END || ' {' || char(10) ||
    '  vacation :days ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        max(1, min(365, CAST(julianday(a.autoresponder_end_date) - julianday(a.autoresponder_start_date) AS INTEGER) + 1))
      ELSE 7
    END ||
    ' :handle "autoresponder ' || a.autoresponder_start_date || ' ' || a.autoresponder_end_date || '"' ||
    coalesce(' :addresses [' || (SELECT group_concat('"' || x.email || '"', ', ') FROM aliases x WHERE x.target = a.email) || ']', '') ||
    ' "' || replace(replace(a.autoresponder_body, '\', '\\'), '"', '\"') || '";' || char(10) ||
    '}' || char(10) AS script
  FROM accounts a
  WHERE a.autoresponder_mode = 1 AND a.blocked = 0 AND a.autoresponder_body <> '';
--> statement-breakpoint
CREATE TRIGGER accounts_sieve_version AFTER UPDATE OF autoresponder_mode, autoresponder_start_date,
  autoresponder_end_date, autoresponder_body, blocked ON accounts
  WHEN NEW.autoresponder_mode IS NOT OLD.autoresponder_mode OR NEW.autoresponder_start_date IS NOT OLD.autoresponder_start_date
    OR NEW.autoresponder_end_date IS NOT OLD.autoresponder_end_date OR NEW.autoresponder_body IS NOT OLD.autoresponder_body
    OR NEW.blocked IS NOT OLD.blocked
BEGIN
  UPDATE accounts SET sieve_version = OLD.sieve_version + 1 WHERE id = NEW.id;
END;
--> statement-breakpoint
-- The script lists the account's aliases as its addresses: alias changes change the script too.
CREATE TRIGGER aliases_sieve_version_insert AFTER INSERT ON aliases BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = NEW.target;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_sieve_version_delete AFTER DELETE ON aliases BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email = OLD.target;
END;
--> statement-breakpoint
CREATE TRIGGER aliases_sieve_version_update AFTER UPDATE OF target ON aliases WHEN NEW.target IS NOT OLD.target BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1 WHERE email IN (OLD.target, NEW.target);
END;
