// The Dovecot half of `mailserver config`: the passdb/userdb queries (proxying another host's mailboxes), quota,
// Sieve and the listeners Postfix talks to.
import path from "node:path";
import { dovecotSieveBefore } from "./antispam-config";
import type { MailLookupView } from "@/db/pg/mail-reader";
import { dovecotPgConnect, mailViewFor, primaryFallback, type PgsqlMapOptions } from "./config-database";
import { checkedHostName, type MailServerConfigOptions } from "./config-options";
import { MAILBOXES, QUOTA_ROOT } from "./mailboxes";
import { MAX_FORWARDS } from "@/lib/schemas/account";

/** The user's row of `view` (as `as`) with its mail host's (h, none for a mailbox of no host). */
function withHost(pg: PgsqlMapOptions | undefined, view: MailLookupView, userCol: string, as: string): string {
  return pg
    ? `${view}_for('%u') ${as} LEFT JOIN mail_account_hosts_for('%u') h ON true`
    : `${view} ${as} LEFT JOIN mail_account_hosts h ON h.email = ${as}.${userCol} WHERE ${as}.${userCol} = '%u'`;
}

/**
 * Dovecot's password_query. With a host name, an account whose mailbox lives on another host gets Dovecot's proxy
 * fields for IMAP, POP3, LMTP and ManageSieve (%s): that host's address and port (mail_account_hosts); SMTP AUTH and
 * doveadm are answered here.
 */
function passwordQuery(pg: PgsqlMapOptions | undefined, userCol: string, hostName: string | undefined): string {
  if (!hostName) return `password_query = SELECT ${userCol}, password FROM ${mailViewFor(pg, "mail_passdb", "'%u'")}`;
  const remote = `h.host <> '${hostName}' AND '%s' IN ('imap', 'pop3', 'lmtp', 'sieve')`;
  return [
    "# Mailboxes of another mail host (docs/mail-hosts.md) are proxied to it.",
    `password_query = SELECT p.${userCol}, p.password, CASE WHEN ${remote} THEN 'Y' END AS proxy, ` +
      `CASE WHEN ${remote} THEN h.address END AS host, ` +
      `CASE WHEN ${remote} THEN CASE '%s' WHEN 'imap' THEN h.imap_port WHEN 'pop3' THEN h.pop3_port WHEN 'lmtp' THEN h.lmtp_port ELSE h.sieve_port END END AS port ` +
      `FROM ${withHost(pg, "mail_passdb", userCol, "p")}`,
  ].join("\n");
}

/**
 * Dovecot's user_query. With a host name, a mailbox of another host has its quota read from the database (the
 * usage its own host's quota_clone wrote), so that this host's quota-status refuses mail for it at RCPT when it is
 * full, without opening (and creating) a local copy of the mailbox. Except for doveadm: `doveadm sync` of a move
 * (docs/mail-hosts.md) makes a real copy here, which the database-read quota counted as new mail on top of the
 * owning host's (every message copied added to the account's usage, so a mailbox half full was refused as full at
 * every MX until its next delivery); with the local quota, quota_clone writes the copy's usage, the owner's.
 */
function userQuery(userCol: string, o: MailServerConfigOptions, hostName: string | undefined): string {
  const pg = o.pgsql;
  const ids = `'${o.mailUser}' AS uid, '${o.mailGroup}' AS gid`;
  const remote = `h.host <> '${hostName}' AND '%s' <> 'doveadm'`;
  if (!hostName) return `user_query = SELECT quota_rule, ${ids} FROM ${mailViewFor(pg, "mail_userdb", "'%u'")}`;
  return (
    `user_query = SELECT u.quota_rule, ${ids}, CASE WHEN ${remote} THEN 'dict:User quota::proxy::mailadmin' END AS quota, ` +
    `CASE WHEN ${remote} THEN 'no' END AS mailbox_list_index ` +
    `FROM ${withHost(pg, "mail_userdb", userCol, "u")}`
  );
}

/** The mailboxes every account has, with the special-use flag mail clients find them by, created and subscribed. */
const specialMailboxes = (
  [
    [MAILBOXES.trash, "Trash"],
    [MAILBOXES.spam, "Junk"],
    [MAILBOXES.sent, "Sent"],
    [MAILBOXES.drafts, "Drafts"],
  ] as const
)
  .map(([name, use]) => `  mailbox ${name} {\n    special_use = \\${use}\n    auto = subscribe\n  }`)
  .join("\n");

export function dovecotFiles(o: MailServerConfigOptions): Record<string, string> {
  const dir = path.join(o.outDir, "dovecot");
  const pg = o.pgsql;
  // "user" is a reserved word in PostgreSQL (unquoted it is CURRENT_USER): the pgsql queries quote it.
  const userCol = pg ? '"user"' : "user";
  const sqlConf = path.join(dir, "dovecot-sql.conf.ext");
  const dictConf = path.join(dir, "dovecot-dict-sql.conf.ext");
  const dictMap = (
    pattern: string,
    table: string,
    valueField: string,
    fields: Record<string, string> = {},
    type = "",
  ) =>
    [
      "map {",
      `  pattern = ${pattern}`,
      `  table = ${table}`,
      "  username_field = username",
      `  value_field = ${valueField}`,
      ...(type ? [`  value_type = ${type}`] : []),
      ...(Object.keys(fields).length
        ? ["  fields {", ...Object.entries(fields).map(([k, v]) => `    ${k} = ${v}`), "  }"]
        : []),
      "}",
    ].join("\n");
  const sieveMaps = [
    "# The autoresponder, generated as a Sieve script by the mail_sieve_scripts view.",
    dictMap("priv/sieve/name/$name", "mail_sieve_scripts", "id", { name: "$name" }),
    dictMap("priv/sieve/data/$id", "mail_sieve_scripts", "script", { id: "$id" }),
    "",
  ];
  const sieveDict = pg ? "mailadmin_sieve" : "mailadmin";
  const fallback = primaryFallback(pg);
  const sqlPrimary = path.join(dir, "dovecot-sql-primary.conf.ext");
  /** passdb/userdb on the read hosts (or SQLite), or, `primary`, the same lookups asked of the primary. */
  const sqlFile = (pgConnect: string | undefined, primary = false) =>
    [
      primary
        ? "# Dovecot passdb/userdb asked of the primary when the read hosts do not know the user (generated by `mailserver config`)."
        : "# Dovecot passdb/userdb over the panel's database (generated by `mailserver config`).",
      ...(pgConnect
        ? [
            "driver = pgsql",
            primary
              ? "# An account created a moment ago logs in and gets its mail while the replica is behind."
              : "# Lookups: the read hosts (a local replica first); Dovecot balances over those that answer.",
            `connect = ${pgConnect}`,
          ]
        : ["driver = sqlite", `connect = ${o.databasePath}`]),
      "default_pass_scheme = SHA512-CRYPT",
      "# mail_passdb holds only accounts that may log in: not blocked, not past expiration_date.",
      passwordQuery(pg, userCol, checkedHostName(o)),
      "# Every mailbox, blocked ones included (they still receive mail); the quota comes from capacity.",
      "# uid/gid spelt out so that services running as the mail user (quota-status) may look users up.",
      userQuery(userCol, o, checkedHostName(o)),
      primary
        ? `# Listing every user (doveadm -A) reads the first userdb alone: none here.\niterate_query = SELECT ${userCol} FROM mail_userdb WHERE false`
        : `iterate_query = SELECT ${userCol} FROM mail_userdb`,
      "",
    ].join("\n");
  return {
    "dovecot/dovecot-sql.conf.ext": sqlFile(pg ? dovecotPgConnect(pg, pg.readHosts) : undefined),
    ...(fallback
      ? {
          "dovecot/dovecot-sql-primary.conf.ext": sqlFile(dovecotPgConnect(pg!, [fallback]), true),
        }
      : {}),
    "dovecot/dovecot-dict-sql.conf.ext": [
      `# Dovecot's SQL dict (generated by \`mailserver config\`): quota usage written back${pg ? "" : ", Sieve scripts read"}.`,
      ...(pg
        ? [
            "# The primary: quota_clone writes here (the mail role may write mail_quota only).",
            `connect = ${dovecotPgConnect(pg, [pg.writeHost])}`,
          ]
        : [`connect = ${o.databasePath}`]),
      "",
      "# quota_clone upserts usage into mail_quota; a trigger copies it into the account the API reads.",
      dictMap("priv/quota/storage", "mail_quota", "bytes", {}, "uint"),
      dictMap("priv/quota/messages", "mail_quota", "messages", {}, "uint"),
      "",
      ...(pg ? [] : sieveMaps),
    ].join("\n"),
    ...(pg
      ? {
          "dovecot/dovecot-dict-sieve-sql.conf.ext": [
            "# Dovecot's SQL dict for the Sieve scripts (generated by `mailserver config`): read from the read hosts, so",
            "# that delivery with its filters goes on while only a replica answers.",
            `connect = ${dovecotPgConnect(pg, pg.readHosts)}`,
            "",
            ...sieveMaps,
          ].join("\n"),
        }
      : {}),
    "dovecot/mailadmin.conf": `# Include from dovecot.conf: !include ${path.join(dir, "mailadmin.conf")}
# Generated by \`mailserver config\`; see README.md beside this folder.

mail_home = ${o.maildirRoot}/%d/%n
mail_location = maildir:~/Maildir
# The save date (housekeeping's savedbefore) is cached when a message is saved: uncached, maildir takes it from the
# file's ctime, which every flag change (a rename, e.g. marking Spam read) moves on, restarting the days.
mail_always_cache_fields = date.save
mail_uid = ${o.mailUser}
mail_gid = ${o.mailGroup}
mail_plugins = $mail_plugins quota quota_clone
# LOGIN beside PLAIN: the one mechanism some mail programs (older Outlook among them) offer; both only over TLS.
auth_mechanisms = plain login

namespace inbox {
  inbox = yes
${specialMailboxes}
}

passdb {
  driver = sql
  args = ${sqlConf}
}${fallback ? `\n# A login the read hosts do not know: asked of the primary (docs/postgresql.md).\npassdb {\n  driver = sql\n  args = ${sqlPrimary}\n}` : ""}
userdb {
  driver = sql
  args = ${sqlConf}
}${fallback ? `\nuserdb {\n  driver = sql\n  args = ${sqlPrimary}\n}` : ""}

dict {
  mailadmin = ${pg ? "pgsql" : "sqlite"}:${dictConf}${pg ? `\n  mailadmin_sieve = pgsql:${path.join(dir, "dovecot-dict-sieve-sql.conf.ext")}` : ""}
}

plugin {
  # Per-user limit from the userdb (capacity in MB); usage counted from Dovecot's index.
  quota = ${QUOTA_ROOT}
  quota_vsizes = yes
  quota_rule = *:storage=0
  quota_clone_dict = proxy::mailadmin
  # The autoresponder: one script per account, read from the database (no files to keep in sync).
  sieve = dict:proxy::${sieveDict};name=autoresponder;bindir=~/sieve-bin
  sieve_vacation_min_period = 1d
  sieve_vacation_max_period = 365d
  # Vacation answers only mail addressed to the account (To, Cc): the original recipient (lda_original_recipient_header)
  # counts as its address too, so mail a catchall of type 1 or 2 brought is answered, as its other settings apply there.
  sieve_vacation_use_original_recipient = yes
  # A forward-only account with its spam filter on forwards with Sieve redirects (one per forward; 4 by default).
  sieve_max_redirects = ${MAX_FORWARDS}
  # Each redirect is an action too, beside the keep or fileinto, the SMS hand-over and the autoresponder: Pigeonhole's
  # default of 32 failed the script of an account with 32 forwards, which then kept its mail and forwarded none.
  # Twice the forwards leaves room for those few others without a count to keep in step.
  sieve_max_actions = ${2 * MAX_FORWARDS}
${dovecotSieveBefore(sieveDict)}
}

protocol lmtp {
  # The address the message was sent to, before aliases and catchalls: Postfix's lmtp client writes the header
  # (flags=O in master.cf; main.cf.snippet) and removes any the sender wrote.
  lda_original_recipient_header = X-Original-To
  # push_notification_lua: new mail in the inbox is reported to the mail event service (SMS notifications).
  mail_plugins = $mail_plugins sieve mail_lua notify push_notification push_notification_lua${checkedHostName(o) ? "\n  # Recipients whose mailbox lives on another mail host are proxied to its LMTP (passdb proxy fields).\n  lmtp_proxy = yes" : ""}
}
protocol imap {
  mail_plugins = $mail_plugins imap_quota
}

!include ${path.join(dir, "delivery.conf")}

service dict {
${
  pg
    ? ""
    : `  # The dict process writes to the SQLite database: it needs the database folder's group.
  extra_groups = ${o.dbGroup}
`
}  unix_listener dict {
    mode = 0660
    user = ${o.mailUser}
    group = ${o.mailGroup}
  }
}
`,
  };
}
