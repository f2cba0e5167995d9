-- The autoresponder answers mail to an account's name in every domain whose catchall of type 3 leads to its domain
-- (docs/mail-server.md, Autoresponder): that address joins :addresses. Its compiled script is kept under its id
-- (sieve_version), so a change of such a catchall, or the deletion of its domain, gives the accounts of the domain it
-- leads to a new id.
DROP VIEW mail_sieve_scripts;
--> statement-breakpoint
-- The autoresponder as a Sieve script, generated from the row itself, so it is current after every change without
-- any file to rewrite. Dovecot reads it through its dict (priv/sieve/name/<name> -> id, priv/sieve/data/<id> ->
-- script); the id carries sieve_version so a changed script is recompiled. Pigeonhole's vacation never answers
-- lists, bulk or automated mail (List-Id, Precedence, Auto-Submitted, MAILER-DAEMON...) and answers each sender
-- once per :days; :handle names the period, so a new period starts afresh. It answers only mail with one of the
-- account's addresses in To or Cc: its own, its aliases', and its name in every domain whose catchall of type 3
-- leads to its domain (x@other reaches x@here); not what a catchall of type 1 or 2 collects for unknown addresses.
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
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN max(1, min(365, CAST(julianday(a.autoresponder_end_date) - julianday(a.autoresponder_start_date) AS INTEGER) + 1))
      ELSE 7
    END ||
    ' :handle "autoresponder ' || a.autoresponder_start_date || ' ' || a.autoresponder_end_date || '"' ||
    coalesce(' :addresses [' || (SELECT group_concat('"' || x.address || '"', ', ') FROM (
      SELECT email AS address FROM aliases WHERE target = a.email
      UNION ALL
      SELECT a.name || '@' || c.name FROM domains c WHERE c.catchall_type = 3 AND c.catchall_address = d.name
    ) x) || ']', '') ||
    ' ' || '"' || replace(replace(a.autoresponder_body, '\', '\\'), '"', '\"') || '"' || ';' || char(10) ||
    '}' || char(10) AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id
  WHERE a.autoresponder_mode = 1 AND a.blocked = 0 AND a.autoresponder_body <> ''
  UNION ALL
  -- The spam filter (docs/mail-server.md, Anti-spam): one script per account, run by Dovecot's sieve_before
  -- before the account's own scripts. Rspamd's milter wrote the message's score in hundredths into
  -- X-Mailadmin-Spam-Centiscore (replacing any copy the sender sent); from spam_hits on, the message is spam for
  -- this account: moved into Spam ("move") or tagged in the subject ("tag"), unless the envelope sender is on the
  -- account's or the domain's white list. spam_enabled 0 on the account or the domain turns it off. The id never
  -- changes and the location has no bindir: the script is compiled at every delivery, so a change applies to the
  -- next message.
  SELECT
    a.email AS username,
    'spam' AS name,
    'sp' || a.id AS id,
    CASE WHEN a.spam_enabled = 1 AND d.spam_enabled = 1 THEN
      'require ["fileinto", "envelope", "relational", "comparator-i;ascii-numeric", "editheader", "variables"];' || char(10) ||
      'if allof(' ||
      coalesce('not envelope :all :is "from" [' || (SELECT group_concat('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM json_each(a.spam_white_list) UNION SELECT value FROM json_each(d.spam_white_list)) w WHERE instr(w.value, '@') > 0) || '], ', '') ||
      coalesce('not envelope :domain :is "from" [' || (SELECT group_concat('"' || replace(replace(w.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM json_each(a.spam_white_list) UNION SELECT value FROM json_each(d.spam_white_list)) w WHERE instr(w.value, '@') = 0) || '], ', '') ||
      'header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "' ||
      CAST(round(a.spam_hits * 100) AS INTEGER) || '") {' || char(10) ||
      CASE a.spam_rule
        WHEN 'tag' THEN
          '  if header :matches "Subject" "*" { set "subject" "${1}"; } else { set "subject" ""; }' || char(10) ||
          '  deleteheader "Subject";' || char(10) ||
          '  addheader :last "Subject" "[SPAM] ${subject}";' || char(10)
        ELSE '  fileinto "Spam";' || char(10)
      END ||
      '}' || char(10)
    ELSE '# spam filter off (spam_enabled 0 for the account or its domain)' || char(10)
    END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
--> statement-breakpoint
CREATE TRIGGER domains_catchall_sieve_version AFTER UPDATE OF catchall_type, catchall_address ON domains
  WHEN (OLD.catchall_type = 3 OR NEW.catchall_type = 3)
    AND (NEW.catchall_type IS NOT OLD.catchall_type OR NEW.catchall_address IS NOT OLD.catchall_address)
BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1
  WHERE autoresponder_mode = 1
    AND domain_id IN (SELECT id FROM domains WHERE name IN (OLD.catchall_address, NEW.catchall_address));
END;
--> statement-breakpoint
CREATE TRIGGER domains_delete_sieve_version AFTER DELETE ON domains WHEN OLD.catchall_type = 3
BEGIN
  UPDATE accounts SET sieve_version = sieve_version + 1
  WHERE autoresponder_mode = 1 AND domain_id IN (SELECT id FROM domains WHERE name = OLD.catchall_address);
END;
--> statement-breakpoint
-- Compiled scripts are kept under their id: the accounts behind a catchall of type 3 get a new one now.
UPDATE accounts SET sieve_version = sieve_version + 1
WHERE autoresponder_mode = 1
  AND domain_id IN (SELECT t.id FROM domains t JOIN domains c ON c.catchall_address = t.name WHERE c.catchall_type = 3);
