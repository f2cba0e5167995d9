-- The autoresponder's :addresses list at most VACATION_ADDRESSES_MAX (100) of the account's aliases and names under
-- catchall domains: an account with thousands of aliases got a script larger than Dovecot's dict server sends whole.
-- A forward holding "${" is written so that the spam script's variables extension does not expand it.
-- Replaced in place: the mail role keeps its grant.
-- The autoresponder as a Sieve script, generated from the row itself, so it is current after every change without
-- any file to rewrite. Dovecot reads it through its dict (priv/sieve/name/<name> -> id, priv/sieve/data/<id> ->
-- script); the id carries sieve_version so a changed script is recompiled. Pigeonhole's vacation never answers
-- lists, bulk or automated mail (List-Id, Precedence, Auto-Submitted, MAILER-DAEMON...) and answers each sender
-- once per :days; :handle names the period and the text, so a new period or text starts afresh (RFC 5230 derives
-- the default handle from the reason too). An empty text answers with DEFAULT_AUTORESPONDER_BODY. It answers only mail with one of the
-- account's addresses in To or Cc: its own, its aliases', its name in every domain whose catchall of type 3 leads to
-- its domain (x@other reaches x@here), or the address the message was sent to, which Postfix writes at delivery
-- (X-Original-To; Dovecot's sieve_vacation_use_original_recipient): what a catchall of type 1 or 2 collects too.
-- At most the first 100 of them in order are listed, so the script stays far below the 128 KB the
-- dict server sends whole; the address a message was sent to counts whether it is listed or not.
-- It answers only a verified envelope sender (X-Mailadmin-Sender-Verified: 1, written by Rspamd's milter for a
-- logged-in client or an SPF pass, any copy the sender wrote removed): a forged sender would get the forger's subject.
-- A forward-only account (keep_mail 0 with forwards) answers too, then discards: it keeps nothing.
CREATE OR REPLACE VIEW mail_sieve_scripts AS
  SELECT
    a.email AS username,
    'autoresponder' AS name,
    'ar' || a.id || 'v' || a.sieve_version AS id,
    'require ["vacation", "date", "relational"];' || chr(10) ||
    'if ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN
        'allof(header :is "X-Mailadmin-Sender-Verified" "1", currentdate :value "ge" "date" "' || a.autoresponder_start_date ||
        '", currentdate :value "le" "date" "' || a.autoresponder_end_date || '")'
      WHEN a.autoresponder_start_date <> '' THEN 'allof(header :is "X-Mailadmin-Sender-Verified" "1", currentdate :value "ge" "date" "' || a.autoresponder_start_date || '")'
      WHEN a.autoresponder_end_date <> '' THEN 'allof(header :is "X-Mailadmin-Sender-Verified" "1", currentdate :value "le" "date" "' || a.autoresponder_end_date || '")'
      ELSE 'header :is "X-Mailadmin-Sender-Verified" "1"'
    END || ' {' || chr(10) ||
    '  vacation :days ' || CASE
      WHEN a.autoresponder_start_date <> '' AND a.autoresponder_end_date <> '' THEN greatest(1, least(365, (a.autoresponder_end_date::date - a.autoresponder_start_date::date) + 1))
      ELSE 7
    END ||
    ' :handle ' || '"' || replace(replace('autoresponder ' || a.autoresponder_start_date || ' ' || a.autoresponder_end_date || ' ' || a.autoresponder_body, '\', '\\'), '"', '\"') || '"' ||
    coalesce(' :addresses [' || (SELECT string_agg('"' || x.address || '"', ', ' ORDER BY x.bytewise) FROM (
      SELECT email AS address, email COLLATE "C" AS bytewise FROM aliases WHERE target = a.email
      UNION ALL
      SELECT a.name || '@' || c.name, (a.name || '@' || c.name) COLLATE "C" FROM domains c
      WHERE c.catchall_type = 3 AND c.catchall_address = d.name
      ORDER BY 2 LIMIT 100
    ) x) || ']', '') ||
    ' ' || '"' || replace(replace(CASE WHEN btrim(a.autoresponder_body, ' ' || chr(9) || chr(10) || chr(13)) = '' THEN 'To jest automatyczna odpowiedź: adresat jest nieobecny i przeczyta Twoją wiadomość później.' || chr(10) || '' || chr(10) || 'This is an automatic reply: the recipient is away and will read your message later.' ELSE a.autoresponder_body END, '\', '\\'), '"', '\"') || '"' || ';' || chr(10) ||
    '}' || chr(10) ||
    CASE WHEN (a.keep_mail = 0 AND a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN 'discard;' || chr(10) ELSE '' END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id
  WHERE (a.autoresponder_mode = 1 AND a.blocked = 0)
  UNION ALL
  -- The spam filter (docs/mail-server.md, Anti-spam): one script per account, run by Dovecot's sieve_before
  -- before the account's own scripts. Rspamd's milter wrote the message's score in hundredths into
  -- X-Mailadmin-Spam-Centiscore (replacing any copy the sender sent); from spam_hits on, the message is spam for
  -- this account: moved into Spam ("move") or tagged in the subject ("tag"), unless the envelope sender is on the
  -- account's or the domain's white list. spam_enabled 0 on the account or the domain turns it off. An account with
  -- forwards (not blocked) forwards here: with the filter on, spam tagged and forwarded ("tag") or kept in its Spam
  -- folder and not forwarded ("move"), the rest forwarded as it came; an account that keeps a copy (keep_mail 1)
  -- redirects with :copy and keeps it as any account does. A forward-only account (keep_mail 0) with SMS numbers
  -- hands each forwarded message to the mail event service (vnd.dovecot.execute) for the SMS notification. First of
  -- all, the account's and its domain's black list (the white list beating it) discards what a hosted forward brought
  -- from a listed sender, which no RCPT check asked this account about. The id never
  -- changes and the location has no bindir: the script is compiled at every delivery, so a change applies to the
  -- next message.
  SELECT
    a.email AS username,
    'spam' AS name,
    'sp' || a.id AS id,
    CASE WHEN a.spam_enabled = 1 AND d.spam_enabled = 1 THEN
      'require ["fileinto", "envelope", "relational", "comparator-i;ascii-numeric", "editheader", "variables", "copy"' ||
      CASE WHEN (trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '') THEN ', "vnd.dovecot.execute"' ELSE '' END || '];' || chr(10) || CASE WHEN coalesce((SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0), (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0)) IS NULL THEN '' ELSE 'if allof(' || coalesce('not envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('not envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || '], ', '') || 'anyof(' || coalesce('envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || ']', 'false') || ')) {' || chr(10) || '  discard;' || chr(10) || '  stop;' || chr(10) || '}' || chr(10) END ||
      'if allof(' || coalesce('not envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('not envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || '], ', '') ||
      'header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "' ||
      CAST(round(a.spam_hits * 100) AS INTEGER) || '") {' || chr(10) ||
      CASE a.spam_rule
        WHEN 'tag' THEN
          '  if header :matches "Subject" "*" { set "subject" "${1}"; } else { set "subject" ""; }' || chr(10) ||
          '  deleteheader "Subject";' || chr(10) ||
          '  addheader :last "Subject" "[SPAM] ${subject}";' || chr(10)
        ELSE '  fileinto "Spam";' || chr(10)
      END ||
      '}' || CASE
        WHEN NOT (a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN chr(10)
        WHEN a.spam_rule = 'tag' THEN chr(10) || CASE WHEN (trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '') AND (a.keep_mail = 0 AND a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN '  if execute :pipe "forwarded-mail.sh" { }' || chr(10) ELSE '' END || coalesce((SELECT string_agg(CASE WHEN strpos(f.value, '${') > 0 THEN '  set "dollar" "$";' || chr(10) ELSE '' END || '  redirect' || CASE WHEN a.keep_mail <> 0 OR (a.autoresponder_mode = 1 AND a.blocked = 0) THEN ' :copy ' ELSE ' ' END || '"' || replace(replace(replace(f.value, '${', '${dollar}{'), '\', '\\'), '"', '\"') || '"' || ';' || chr(10), '') FROM jsonb_array_elements_text(a.forwards) f WHERE f.value <> a.email AND NOT EXISTS (SELECT 1 FROM aliases x WHERE x.email = f.value AND x.target = a.email)), '')
        ELSE ' else {' || chr(10) || CASE WHEN (trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '') AND (a.keep_mail = 0 AND a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN '  if execute :pipe "forwarded-mail.sh" { }' || chr(10) ELSE '' END || coalesce((SELECT string_agg(CASE WHEN strpos(f.value, '${') > 0 THEN '  set "dollar" "$";' || chr(10) ELSE '' END || '  redirect' || CASE WHEN a.keep_mail <> 0 OR (a.autoresponder_mode = 1 AND a.blocked = 0) THEN ' :copy ' ELSE ' ' END || '"' || replace(replace(replace(f.value, '${', '${dollar}{'), '\', '\\'), '"', '\"') || '"' || ';' || chr(10), '') FROM jsonb_array_elements_text(a.forwards) f WHERE f.value <> a.email AND NOT EXISTS (SELECT 1 FROM aliases x WHERE x.email = f.value AND x.target = a.email)), '') || '}' || chr(10)
      END
    WHEN (a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN
      '# spam filter off (spam_enabled 0 for the account or its domain): forwarded as it came' || chr(10) ||
      'require ["copy"' || CASE WHEN (trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '') THEN ', "vnd.dovecot.execute"' ELSE '' END || '];' || chr(10) || coalesce('require "envelope";' || chr(10) || nullif(CASE WHEN coalesce((SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0), (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0)) IS NULL THEN '' ELSE 'if allof(' || coalesce('not envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('not envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || '], ', '') || 'anyof(' || coalesce('envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || ']', 'false') || ')) {' || chr(10) || '  discard;' || chr(10) || '  stop;' || chr(10) || '}' || chr(10) END, ''), '') || CASE WHEN (trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '') AND (a.keep_mail = 0 AND a.blocked = 0 AND jsonb_array_length(a.forwards) > 0) THEN '  if execute :pipe "forwarded-mail.sh" { }' || chr(10) ELSE '' END || coalesce((SELECT string_agg('  redirect' || CASE WHEN a.keep_mail <> 0 OR (a.autoresponder_mode = 1 AND a.blocked = 0) THEN ' :copy ' ELSE ' ' END || '"' || replace(replace(f.value, '\', '\\'), '"', '\"') || '"' || ';' || chr(10), '') FROM jsonb_array_elements_text(a.forwards) f WHERE f.value <> a.email AND NOT EXISTS (SELECT 1 FROM aliases x WHERE x.email = f.value AND x.target = a.email)), '')
    ELSE '# spam filter off (spam_enabled 0 for the account or its domain)' || chr(10) || coalesce('require "envelope";' || chr(10) || nullif(CASE WHEN coalesce((SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0), (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0)) IS NULL THEN '' ELSE 'if allof(' || coalesce('not envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('not envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_white_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_white_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || '], ', '') || 'anyof(' || coalesce('envelope :all :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') > 0 AND strpos(e.value, '${') = 0) || '], ', '') || coalesce('envelope :domain :is "from" [' || (SELECT string_agg('"' || replace(replace(e.value, '\', '\\'), '"', '\"') || '"', ', ') FROM (SELECT value FROM jsonb_array_elements_text(a.spam_black_list) UNION SELECT value FROM jsonb_array_elements_text(d.spam_black_list)) e WHERE strpos(e.value, '@') = 0 AND strpos(e.value, '${') = 0) || ']', 'false') || ')) {' || chr(10) || '  discard;' || chr(10) || '  stop;' || chr(10) || '}' || chr(10) END, ''), '')
    END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id;
