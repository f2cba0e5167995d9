// The Sieve scripts Dovecot runs for each account (the autoresponder and the spam filter), written once as one SQL
// view rendered for each engine: a migration that (re)creates the view holds this function's output for its engine,
// and db/sieve-scripts-view.test.ts checks that the newest one does.

export type Engine = "sqlite" | "pg";

/** The program a forward-only account's script runs for each message it forwards (lib/mailserver/config-delivery.ts). */
export const FORWARDED_MAIL_PROGRAM = "forwarded-mail.sh";

/**
 * The header Rspamd's milter writes, "1", when the envelope sender is verified: the client logged in (SMTP AUTH, and
 * Postfix lets a login send only as its own addresses) or the sender's domain passed SPF for the client
 * (R_SPF_ALLOW). Any copy a message arrives with is removed first (lib/mailserver/antispam-config.ts). The
 * autoresponder answers only such mail: its reply goes to the envelope sender, and answering a forged one sends the
 * forger's subject to whoever's address was forged.
 */
export const SENDER_VERIFIED_HEADER = "X-Mailadmin-Sender-Verified";

/**
 * The reply of an autoresponder switched on with no text of its own (the API accepts autoresponder_mode 1 with an
 * empty autoresponder_body, and the record must still mean what it says: a reply goes out).
 */
export const DEFAULT_AUTORESPONDER_BODY =
  "To jest automatyczna odpowiedź: adresat jest nieobecny i przeczyta Twoją wiadomość później.\n\n" +
  "This is an automatic reply: the recipient is away and will read your message later.";

/**
 * The score (in Rspamd's points) from which a message is not sent on to another server by an alias, a list or an
 * account's forward: the highest spam_hits an account may have (2, 5, 7, 9: lib/schemas/account.ts), so a message
 * every account's spam script would call spam whatever its setting (docs/mail-server.md, Anti-spam). Not the default
 * 5: this is a refusal, not a Spam folder, and ordinary Polish text scores near 5 on Debian's Rspamd (R_MIXED_CHARSET,
 * 5 points, fires on one word with diacritics). None of the customer's settings (spam_enabled, spam_rule, the white
 * lists) raises or lifts it: what it protects is the server's standing with other providers. The policy service
 * refuses it for an alias, a list and a forward-only account (spamSentOn, lib/mailserver/policy/spam-policy.ts); an
 * account's spam script keeps it instead of redirecting it outside (FORWARD_WITHHELD_HEADER).
 */
export const FORWARDED_SPAM_HITS = 9;

/**
 * The header an account's spam script adds to the copy it keeps when it does not redirect a message scored
 * FORWARDED_SPAM_HITS or more to its forwards on other servers, saying why. One header, not one naming each forward:
 * 50 forwards of 254 characters would take the largest script past the 128 KB Dovecot's dict server sends whole.
 */
export const FORWARD_WITHHELD_HEADER = "X-Mailadmin-Forward-Withheld";
const WITHHELD_REASON = `not forwarded to another server: it scores as spam (${FORWARDED_SPAM_HITS} or more)`;

/**
 * The most addresses (aliases, names under catchall domains) a vacation script lists in :addresses. Dovecot's dict
 * server sends a script only as far as its 128 KB output buffer and the socket take it, and an account with
 * thousands of aliases would get a script it cuts short; 100 of 290 bytes and a text of 10,000 three-byte characters
 * (in the script twice) fit. The first ones in order are listed; past the limit nothing is
 * lost for mail sent to an alias: the address a message was sent to is the account's too
 * (sieve_vacation_use_original_recipient).
 */
export const VACATION_ADDRESSES_MAX = 100;

/**
 * The longest line of an autoresponder's reply, in bytes. Pigeonhole sends the text as 8bit, as it is, and Postfix's
 * SMTP and LMTP clients break a line over 999 bytes with CRLF and a space wherever it falls: inside a word or a UTF-8
 * character, and after Rspamd's DKIM signature. A longer line of the text is broken after its last space that keeps
 * it within this (a word longer than this is cut).
 */
export const REPLY_LINE_BYTES = 900;

// What the two engines spell differently; everything else is the same SQL.
const dialects = {
  sqlite: {
    newline: "char(10)",
    tab: "char(9)",
    // The rows' order (a subquery's ORDER BY) is the order joined.
    join: (value: string, separator: string, _order?: string) => `group_concat(${value}, ${separator})`,
    bytewise: (text: string) => text,
    daysBetween: (start: string, end: string) =>
      `max(1, min(365, CAST(julianday(${end}) - julianday(${start}) AS INTEGER) + 1))`,
    jsonValues: (column: string) => `json_each(${column})`,
    jsonLength: (column: string) => `json_array_length(${column})`,
    indexOf: (text: string, part: string) => `instr(${text}, ${part})`,
    blank: (text: string) => `trim(${text}, ' ' || char(9) || char(10) || char(13)) = ''`,
    greatest: (x: string, y: string) => `max(${x}, ${y})`,
    bytes: (text: string) => `length(CAST(${text} AS BLOB))`,
    text: (value: string) => value,
    // SQLite has no CREATE OR REPLACE VIEW: its migration drops the view first.
    create: "CREATE VIEW",
  },
  pg: {
    newline: "chr(10)",
    tab: "chr(9)",
    join: (value: string, separator: string, order?: string) =>
      `string_agg(${value}, ${separator}${order ? ` ORDER BY ${order}` : ""})`,
    // Code point order, as SQLite's, whatever locale the cluster was made with.
    bytewise: (text: string) => `${text} COLLATE "C"`,
    daysBetween: (start: string, end: string) => `greatest(1, least(365, (${end}::date - ${start}::date) + 1))`,
    jsonValues: (column: string) => `jsonb_array_elements_text(${column})`,
    jsonLength: (column: string) => `jsonb_array_length(${column})`,
    indexOf: (text: string, part: string) => `strpos(${text}, ${part})`,
    blank: (text: string) => `btrim(${text}, ' ' || chr(9) || chr(10) || chr(13)) = ''`,
    greatest: (x: string, y: string) => `greatest(${x}, ${y})`,
    bytes: (text: string) => `octet_length(${text})`,
    // A recursive query's columns need their type in the first row.
    text: (value: string) => `CAST(${value} AS text)`,
    // Replaced in place, so the mail role keeps its SELECT on it (docs/postgresql.md: the role's grants).
    create: "CREATE OR REPLACE VIEW",
  },
} as const;

/** The CREATE VIEW statement of mail_sieve_scripts for one engine. */
export function sieveScriptsView(engine: Engine): string {
  const {
    newline: nl,
    tab,
    join,
    bytewise,
    daysBetween,
    jsonValues,
    jsonLength,
    indexOf,
    blank,
    greatest,
    bytes,
    text,
    create,
  } = dialects[engine];
  // Forwards without keeping a copy (keep_mail 0): the script forwards the message and stores none of it but the spam
  // "move" keeps; the autoresponder's script, when it runs, discards the keep. A blocked account keeps everything (its
  // forwards are suspended), so it is not forward-only.
  const forwardOnly = `(a.keep_mail = 0 AND a.blocked = 0 AND ${jsonLength("a.forwards")} > 0)`;
  const quoted = (value: string) => `'"' || replace(replace(${value}, '\\', '\\\\'), '"', '\\"') || '"'`;
  const start = "a.autoresponder_start_date";
  const end = "a.autoresponder_end_date";
  // Only a verified envelope sender is answered (SENDER_VERIFIED_HEADER): the Sieve test, inside SQL quotes.
  const verified = `header :is "${SENDER_VERIFIED_HEADER}" "1"`;
  // Every account with forwards (not blocked) gets its mail from Postfix itself (mail_alias_map: its own row, not its
  // forwards) and forwards it here, after its spam filter when that is on: "tag" forwards spam marked, "move" keeps it
  // in the account's Spam folder instead of forwarding it (docs/mail-server.md, Anti-spam). An account that keeps a
  // copy (keep_mail 1) redirects with :copy, so the implicit keep stores the message as for any account; before,
  // Postfix expanded it to its forwards too, and they got spam untouched. A forward-only account's redirects are
  // :copy only while its autoresponder is on: Dovecot runs the account's own script (the autoresponder) after this
  // one only while the implicit keep stands, and that script's discard then drops the keep. With SMS numbers set, each
  // message a forward-only account forwards is also handed to the mail event service (SMS notifications), as a
  // message saved into an inbox is (an account that keeps a copy is notified of that copy).
  const forwards = `(a.blocked = 0 AND ${jsonLength("a.forwards")} > 0)`;
  const autoresponderOn = "(a.autoresponder_mode = 1 AND a.blocked = 0)";
  // The reply: the account's text, or DEFAULT_AUTORESPONDER_BODY when it has none (white space only counts as none).
  const sqlText = (text: string) =>
    text
      .split("\n")
      .map((line) => `'${line.replace(/'/g, "''")}'`)
      .join(` || ${nl} || `);
  const reply = `CASE WHEN ${blank("a.autoresponder_body")} THEN ${sqlText(DEFAULT_AUTORESPONDER_BODY)} ELSE ${wrapped("a.autoresponder_body")} END`;
  // The account's text with no line over REPLY_LINE_BYTES, one line of the reply per step: the next line of the text
  // when it fits, else as many of its words as fit (the most characters that fit, cut back to their last space or
  // tab: rtrim with every other character they hold), else a word that does not fit, cut. Lines that fit are left as
  // they are.
  function wrapped(body: string): string {
    const max = REPLY_LINE_BYTES;
    const end = indexOf("w.rest", nl);
    const fits = `(${end} > 0 AND ${bytes(`substr(w.rest, 1, ${end})`)} <= ${max + 1})`;
    const most = `substr(w.rest, 1, ${max})`;
    // Each character takes one byte or more: without as many of the last characters as there are bytes over `max`,
    // what is left fits; a quarter of `max` characters (of four bytes) always does.
    const fitting = `substr(${most}, 1, ${greatest(String(max / 4), `length(${most}) - ${greatest("0", `${bytes(most)} - ${max}`)}`)})`;
    const words = `rtrim(${fitting}, replace(replace(${fitting}, ' ', ''), ${tab}, ''))`;
    const taken = `CASE WHEN ${fits} THEN substr(w.rest, 1, ${end}) WHEN ${words} = '' THEN ${fitting} ELSE ${words} END`;
    // A text of at most `max` bytes has no line over it: as it is, without the query (most texts).
    return (
      `CASE WHEN ${bytes(body)} <= ${max} THEN ${body} ELSE ` +
      `(WITH RECURSIVE s(text) AS (SELECT ${body} || ${nl}), ` +
      `w(pos, rest, line) AS (SELECT 1, ${text(`substr(s.text, 1, ${max + 1})`)}, ${text("NULL")} FROM s ` +
      `UNION ALL SELECT w.pos + length(${taken}), substr(s.text, w.pos + length(${taken}), ${max + 1}), ` +
      `${taken} || CASE WHEN ${fits} THEN '' ELSE ${nl} END FROM w, s WHERE w.rest <> '') ` +
      `SELECT substr(t.text, 1, length(t.text) - 1) FROM (SELECT ${join("l.line", "''", "l.pos")} AS text ` +
      `FROM (SELECT pos, line FROM w WHERE line IS NOT NULL ORDER BY pos) l) t) END`
    );
  }
  const smsOn = "(trim(a.sms_phone_number_1) <> '' OR trim(a.sms_phone_number_2) <> '')";
  // With the variables extension (the spam filter's script requires it) Sieve would expand "${x}" in an address
  // ("a${x}b@..." is a valid one) and forward to "ab@...": written as "${dollar}{x}" after set "dollar" "$" instead,
  // which substitution, a single pass, leaves as "${x}".
  // Each line of a forward, indented by `pad` (the redirects to other servers sit inside the score's test).
  const dollar = (variables: boolean, pad: string) =>
    variables
      ? `CASE WHEN ${indexOf("f.value", "'${'")} > 0 THEN '${pad}set "dollar" "$";' || ${nl} ELSE '' END || `
      : "";
  const address = (variables: boolean) => (variables ? "replace(f.value, '${', '${dollar}{')" : "f.value");
  const forwardTo = (variables: boolean, pad = "  ") =>
    dollar(variables, pad) +
    `'${pad}redirect' || CASE WHEN a.keep_mail <> 0 OR ${autoresponderOn} THEN ' :copy ' ELSE ' ' END || ` +
    `${quoted(address(variables))} || ';' || ${nl}`;
  // A forward that leads straight back to the account (its own address, or an alias of it) is left out: Postfix
  // used to fold it into the account's own delivery, while a redirect to it would store a second copy (Pigeonhole's
  // duplicate check ends the round there). With every forward left out, no redirect at all (coalesce: not NULL).
  const sent = `FROM ${jsonValues("a.forwards")} f WHERE f.value <> a.email AND NOT EXISTS (SELECT 1 FROM aliases x WHERE x.email = f.value AND x.target = a.email)`;
  // An account of this server, whose own spam script then applies its settings (and holds back what it would send
  // outside). Any other address is held back like another server's, a hosted one too: Postfix expands an alias,
  // catchall or list address of this server to wherever it leads with no spam check on the redirected copy.
  const hosted = `EXISTS (SELECT 1 FROM accounts h WHERE h.email = f.value)`;
  const each = (line: string, where: string) => `(SELECT ${join(line, "''")} ${sent} AND ${where})`;
  // Spam (FORWARDED_SPAM_HITS or more) is not redirected to another server's address, whatever the account's filter
  // says (docs/mail-server.md, Anti-spam, "An account's forwards to another server"): the copy the account keeps
  // says so (FORWARD_WITHHELD_HEADER), and a forward-only account keeps it (an explicit keep, which its
  // autoresponder's discard leaves), since the policy service refuses such a message sent to it only directly.
  const forwarding = (variables: boolean) =>
    `CASE WHEN ${smsOn} AND ${forwardOnly} THEN '  if execute :pipe "${FORWARDED_MAIL_PROGRAM}" { }' || ${nl} ELSE '' END || ` +
    `coalesce(${each(forwardTo(variables), hosted)}, '') || ` +
    `coalesce('  if header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "${FORWARDED_SPAM_HITS * 100}" {' || ${nl} || ` +
    `'    addheader "${FORWARD_WITHHELD_HEADER}" "${WITHHELD_REASON}";' || ${nl} || ` +
    `CASE WHEN ${forwardOnly} THEN '    keep;' || ${nl} ELSE '' END || '  } else {' || ${nl} || ` +
    `${each(forwardTo(variables, "    "), `NOT ${hosted}`)} || '  }' || ${nl}, '')`;
  const sms = `CASE WHEN ${smsOn} THEN ', "vnd.dovecot.execute"' ELSE '' END`;
  // The entries of the account's and its domain's list, quoted for Sieve: addresses ("> 0") or domains ("= 0").
  // An entry holding "${" is left out: with the variables extension (the "tag" rule) Sieve would expand it, and
  // "p${x}est@..." would match pest@...; the policy service still applies it literally at RCPT.
  const listed = (list: "spam_white_list" | "spam_black_list", condition: string) =>
    `(SELECT ${join(quoted("e.value"), "', '")} FROM (SELECT value FROM ${jsonValues(`a.${list}`)} ` +
    `UNION SELECT value FROM ${jsonValues(`d.${list}`)}) e WHERE ${indexOf("e.value", "'@'")} ${condition} ` +
    `AND ${indexOf("e.value", "'${'")} = 0)`;
  const whiteList = (condition: string) => listed("spam_white_list", condition);
  const notWhite =
    `coalesce('not envelope :all :is "from" [' || ${whiteList("> 0")} || '], ', '') || ` +
    `coalesce('not envelope :domain :is "from" [' || ${whiteList("= 0")} || '], ', '')`;
  // The black list (white list beating it) drops mail that reached the account without Postfix asking the policy
  // service about this account: a hosted account's forward, or anything else injected on the host. Mail sent to the
  // account itself was already refused at RCPT. Dropped, not returned: the sender may be forged, and the account that
  // forwarded it accepted it. Empty ('') when neither list has an entry.
  const blackAddresses = listed("spam_black_list", "> 0");
  const blackDomains = listed("spam_black_list", "= 0");
  const blackRule =
    `CASE WHEN coalesce(${blackAddresses}, ${blackDomains}) IS NULL THEN '' ELSE ` +
    `'if allof(' || ${notWhite} || 'anyof(' || ` +
    `coalesce('envelope :all :is "from" [' || ${blackAddresses} || '], ', '') || ` +
    `coalesce('envelope :domain :is "from" [' || ${blackDomains} || ']', 'false') || ')) {' || ${nl} || ` +
    `'  discard;' || ${nl} || '  stop;' || ${nl} || '}' || ${nl} END`;
  // The same with its own require, for the scripts whose require does not name envelope.
  const blackRuleAlone = `coalesce('require "envelope";' || ${nl} || nullif(${blackRule}, ''), '')`;
  return `-- The autoresponder as a Sieve script, generated from the row itself, so it is current after every change without
-- any file to rewrite. Dovecot reads it through its dict (priv/sieve/name/<name> -> id, priv/sieve/data/<id> ->
-- script); the id carries sieve_version so a changed script is recompiled. Pigeonhole's vacation never answers
-- lists, bulk or automated mail (List-Id, Precedence, Auto-Submitted, MAILER-DAEMON...) and answers each sender
-- once per :days; :handle names the period and the text, so a new period or text starts afresh (RFC 5230 derives
-- the default handle from the reason too). An empty text answers with DEFAULT_AUTORESPONDER_BODY; a line of the text
-- over ${REPLY_LINE_BYTES} bytes is broken between words (Postfix would break it anywhere). It answers only mail with one of the
-- account's addresses in To or Cc: its own, its aliases', its name in every domain whose catchall of type 3 leads to
-- its domain (x@other reaches x@here), or the address the message was sent to, which Postfix writes at delivery
-- (X-Original-To; Dovecot's sieve_vacation_use_original_recipient): what a catchall of type 1 or 2 collects too.
-- At most the first ${VACATION_ADDRESSES_MAX} of them in order are listed, so the script stays far below the 128 KB the
-- dict server sends whole; the address a message was sent to counts whether it is listed or not.
-- It answers only a verified envelope sender (${SENDER_VERIFIED_HEADER}: 1, written by Rspamd's milter for a
-- logged-in client or an SPF pass, any copy the sender wrote removed): a forged sender would get the forger's subject.
-- A forward-only account (keep_mail 0 with forwards) answers too, then discards: it keeps nothing.
${create} mail_sieve_scripts AS
  SELECT
    a.email AS username,
    'autoresponder' AS name,
    'ar' || a.id || 'v' || a.sieve_version AS id,
    'require ["vacation", "date", "relational"];' || ${nl} ||
    'if ' || CASE
      WHEN ${start} <> '' AND ${end} <> '' THEN
        'allof(${verified}, currentdate :value "ge" "date" "' || ${start} ||
        '", currentdate :value "le" "date" "' || ${end} || '")'
      WHEN ${start} <> '' THEN 'allof(${verified}, currentdate :value "ge" "date" "' || ${start} || '")'
      WHEN ${end} <> '' THEN 'allof(${verified}, currentdate :value "le" "date" "' || ${end} || '")'
      ELSE '${verified}'
    END || ' {' || ${nl} ||
    '  vacation :days ' || CASE
      WHEN ${start} <> '' AND ${end} <> '' THEN ${daysBetween(start, end)}
      ELSE 7
    END ||
    ' :handle ' || ${quoted(`'autoresponder ' || ${start} || ' ' || ${end} || ' ' || a.autoresponder_body`)} ||
    coalesce(' :addresses [' || (SELECT ${join(`'"' || x.address || '"'`, "', '", "x.bytewise")} FROM (
      SELECT email AS address, ${bytewise("email")} AS bytewise FROM aliases WHERE target = a.email
      UNION ALL
      SELECT a.name || '@' || c.name, ${bytewise("(a.name || '@' || c.name)")} FROM domains c
      WHERE c.catchall_type = 3 AND c.catchall_address = d.name
      ORDER BY 2 LIMIT ${VACATION_ADDRESSES_MAX}
    ) x) || ']', '') ||
    ' ' || ${quoted(reply)} || ';' || ${nl} ||
    '}' || ${nl} ||
    CASE WHEN ${forwardOnly} THEN 'discard;' || ${nl} ELSE '' END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id
  WHERE ${autoresponderOn}
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
      ${sms} || '];' || ${nl} || ${blackRule} ||
      'if allof(' || ${notWhite} ||
      'header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "' ||
      CAST(round(a.spam_hits * 100) AS INTEGER) || '") {' || ${nl} ||
      CASE a.spam_rule
        WHEN 'tag' THEN
          '  if header :matches "Subject" "*" { set "subject" "\${1}"; } else { set "subject" ""; }' || ${nl} ||
          '  deleteheader "Subject";' || ${nl} ||
          '  addheader :last "Subject" "[SPAM] \${subject}";' || ${nl}
        ELSE '  fileinto "Spam";' || ${nl}
      END ||
      '}' || CASE
        WHEN NOT ${forwards} THEN ${nl}
        WHEN a.spam_rule = 'tag' THEN ${nl} || ${forwarding(true)}
        ELSE ' else {' || ${nl} || ${forwarding(true)} || '}' || ${nl}
      END
    WHEN ${forwards} THEN
      '# spam filter off (spam_enabled 0 for the account or its domain): forwarded as it came' || ${nl} ||
      'require ["copy", "relational", "comparator-i;ascii-numeric", "editheader"' || ${sms} || '];' || ${nl} ||
      ${blackRuleAlone} || ${forwarding(false)}
    ELSE '# spam filter off (spam_enabled 0 for the account or its domain)' || ${nl} || ${blackRuleAlone}
    END AS script
  FROM accounts a JOIN domains d ON d.id = a.domain_id;`;
}
