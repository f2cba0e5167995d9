import "server-only";
// `mailserver config`: the Postfix lookup tables and the Dovecot configuration that read the panel's SQLite
// database through the views of migration 0003. The files reference each other by absolute path inside the
// output folder, so the folder is meant to stay where it was generated (for example /etc/mailadmin).
import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_DELIVERY_OPTIONS,
  deliveryFiles,
  deliveryProxyTables,
  postfixDeliverySnippet,
  type DeliveryConfigOptions,
} from "./config-delivery";
import {
  DEFAULT_ANTISPAM_OPTIONS,
  dovecotSieveBefore,
  postfixAntispamLines,
  rspamdLocalFiles,
  type AntispamOptions,
} from "./antispam-config";
import { dovecotPgConnect, postfixMapFile, postfixMapType, type PgsqlMapOptions } from "./config-database";
import { MAILBOXES, QUOTA_ROOT } from "./mailboxes";

export interface MailServerConfigOptions extends Partial<
  Omit<DeliveryConfigOptions, "outDir" | "databasePath" | "mailUser">
> {
  /** Where the files are written (absolute after resolution). */
  outDir: string;
  databasePath: string;
  /** PostgreSQL instead of the SQLite file (config-database.ts): pgsql maps and Dovecot's pgsql driver. */
  pgsql?: PgsqlMapOptions;
  /** Mailboxes live in <maildirRoot>/<domain>/<name>/Maildir. */
  maildirRoot: string;
  /** System user and group owning the mailboxes. */
  mailUser: string;
  mailGroup: string;
  /** Group with write access to the database's folder (SQLite readers in WAL mode write the -shm file). */
  dbGroup: string;
  /** Postfix's virtual_transport: where Dovecot's LMTP listens. */
  lmtp: string;
  /** Where the list service (`lists serve`, docs/lists.md) listens: the transport of list addresses. */
  listsLmtp?: string;
  /** Rspamd, Redis and the policy service (lib/mailserver/antispam-config.ts). */
  antispam?: AntispamOptions;
  /**
   * This host's name in mail_hosts (MAIL_HOST_NAME, docs/mail-hosts.md): mailboxes of other hosts are proxied
   * (Dovecot) and handed to their host's LMTP (Postfix). Unset: every mailbox is served here (one mail host).
   */
  hostName?: string;
}

export const DEFAULT_CONFIG_OPTIONS = {
  maildirRoot: "/var/vmail",
  mailUser: "vmail",
  mailGroup: "vmail",
  dbGroup: "mailadmin",
  lmtp: "lmtp:unix:private/dovecot-lmtp",
  listsLmtp: "lmtp:inet:127.0.0.1:10024",
  ...DEFAULT_DELIVERY_OPTIONS,
} as const;

const delivery = (o: MailServerConfigOptions): DeliveryConfigOptions => ({
  ...DEFAULT_DELIVERY_OPTIONS,
  ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
  outDir: o.outDir,
  databasePath: o.databasePath,
  pgsql: o.pgsql,
  mailUser: o.mailUser,
});

/** Postfix 3.7's default proxy_read_maps (`postconf -d proxy_read_maps`), so that setting it takes nothing away. */
const PROXY_READ_MAPS_DEFAULT = [
  "$local_recipient_maps $mydestination $virtual_alias_maps $virtual_alias_domains",
  "$virtual_mailbox_maps $virtual_mailbox_domains $relay_recipient_maps $relay_domains $canonical_maps",
  "$sender_canonical_maps $recipient_canonical_maps $relocated_maps $transport_maps $mynetworks",
  "$smtpd_sender_login_maps $sender_bcc_maps $recipient_bcc_maps $smtp_generic_maps $lmtp_generic_maps",
  "$alias_maps $smtpd_client_restrictions $smtpd_helo_restrictions $smtpd_sender_restrictions",
  "$smtpd_relay_restrictions $smtpd_recipient_restrictions",
  "$address_verify_sender_dependent_default_transport_maps",
  "$address_verify_sender_dependent_relayhost_maps $address_verify_transport_maps",
  "$fallback_transport_maps $lmtp_discard_lhlo_keyword_address_maps $lmtp_pix_workaround_maps",
  "$lmtp_sasl_password_maps $lmtp_tls_policy_maps $mailbox_command_maps $mailbox_transport_maps",
  "$postscreen_discard_ehlo_keyword_address_maps $rbl_reply_maps",
  "$sender_dependent_default_transport_maps $sender_dependent_relayhost_maps",
  "$smtp_discard_ehlo_keyword_address_maps $smtp_pix_workaround_maps $smtp_sasl_password_maps",
  "$smtp_tls_policy_maps $smtpd_discard_ehlo_keyword_address_maps $smtpd_milter_maps $virtual_gid_maps",
  "$virtual_uid_maps $local_login_sender_maps $postscreen_reject_footer_maps $smtpd_reject_footer_maps",
  "$tls_server_sni_maps $tlsproxy_client_policy_maps $default_delivery_status_filter",
  "$lmtp_delivery_status_filter $lmtp_dns_reply_filter $lmtp_reply_filter $local_delivery_status_filter",
  "$pipe_delivery_status_filter $postscreen_command_filter $smtp_delivery_status_filter",
  "$smtp_dns_reply_filter $smtp_reply_filter $smtpd_command_filter $smtpd_dns_reply_filter",
  "$virtual_delivery_status_filter $body_checks $header_checks $lmtp_body_checks $lmtp_header_checks",
  "$lmtp_mime_header_checks $lmtp_nested_header_checks $milter_header_checks $mime_header_checks",
  "$nested_header_checks $smtp_body_checks $smtp_header_checks $smtp_mime_header_checks",
  "$smtp_nested_header_checks",
].join(" ");

/** Rows of mail_list_addresses matching the address Postfix asks about (%d domain, %u local part). */
const listQuery = (value: string) =>
  `SELECT ${value} FROM mail_list_addresses WHERE domain = '%d' AND ('%u' = name OR substr('%u', 1, length(name) + 9) = name || '-bounces+')`;

/** A mail host's name: written into the generated queries, so only letters, digits, dots and dashes. */
export const MAIL_HOST_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$/;

function checkedHostName(o: MailServerConfigOptions): string | undefined {
  if (o.hostName !== undefined && !MAIL_HOST_NAME.test(o.hostName))
    throw new Error(`mail host name '${o.hostName}': lowercase letters, digits, dots and dashes`);
  return o.hostName;
}

/** The mailbox tables Postfix uses: with a host name, mail for another host's mailboxes goes to that host's LMTP. */
const hostTables = (o: MailServerConfigOptions) => (checkedHostName(o) ? ["mailbox-transport.cf"] : []);

function postfixFiles(o: MailServerConfigOptions): Record<string, string> {
  const dir = path.join(o.outDir, "postfix");
  // proxy: makes Postfix's proxymap service (never chrooted) open the database for the daemons that Debian runs
  // chrooted in the queue directory (smtpd, cleanup, trivial-rewrite...), where the database's path does not
  // exist: plain sqlite: maps fail there with "SQL prepare failed: disk I/O error" and Postfix refuses mail.
  // The same holds for proxy:pgsql: (one connection pool in proxymap instead of one per daemon process).
  const table = (file: string) => `proxy:${postfixMapType(o.pgsql)}:${path.join(dir, file)}`;
  const postfixTable = (_db: string, what: string, query: string) =>
    postfixMapFile(o.databasePath, o.pgsql, what, query);
  return {
    "postfix/virtual-mailbox-domains.cf": postfixTable(
      o.databasePath,
      "Hosted domains",
      "SELECT domain FROM mail_domains WHERE domain = '%s'",
    ),
    "postfix/virtual-mailbox-maps.cf": postfixTable(
      o.databasePath,
      "Addresses with a mailbox (delivered over LMTP to Dovecot)",
      "SELECT maildir FROM mail_mailboxes WHERE email = '%s'",
    ),
    "postfix/virtual-alias-maps.cf": postfixTable(
      o.databasePath,
      "Aliases, forwards and catchalls (@domain keys)",
      "SELECT destination FROM mail_alias_map WHERE address = '%s'",
    ),
    // Lists (docs/lists.md): the list address and its VERP bounce addresses are valid recipients (each maps to
    // itself, after the first table so the catchall never takes them) and go to the list service over LMTP.
    "postfix/list-addresses.cf": postfixTable(
      o.databasePath,
      "Mailing list addresses and their bounce addresses",
      listQuery("'%s'"),
    ),
    "postfix/list-transport.cf": postfixTable(
      o.databasePath,
      "Mailing list addresses go to the list service",
      listQuery(`'${(o.listsLmtp ?? DEFAULT_CONFIG_OPTIONS.listsLmtp).replace(/'/g, "")}'`),
    ),
    ...(checkedHostName(o)
      ? {
          "postfix/mailbox-transport.cf": postfixTable(
            o.databasePath,
            `Mailboxes of other mail hosts than ${o.hostName} go to their host's LMTP (mail_hosts, docs/mail-hosts.md)`,
            `SELECT 'lmtp:inet:' || address || ':' || lmtp_port FROM mail_account_hosts WHERE email = '%s' AND host <> '${o.hostName}'`,
          ),
        }
      : {}),
    "postfix/main.cf.snippet": [
      "# Append to Postfix's main.cf (generated by `mailserver config`).",
      `virtual_mailbox_domains = ${table("virtual-mailbox-domains.cf")}`,
      `virtual_mailbox_maps = ${table("virtual-mailbox-maps.cf")}`,
      `virtual_alias_maps = ${table("virtual-alias-maps.cf")} ${table("list-addresses.cf")}`,
      `virtual_transport = ${o.lmtp}`,
      `transport_maps = ${[table("list-transport.cf"), ...hostTables(o).map(table)].join(" ")}`,
      "# proxymap answers only for tables listed here. Postfix's default list already names the three parameters",
      "# above; repeating it with the tables spelt out keeps them allowed if another line of main.cf sets the list.",
      `proxy_read_maps = ${PROXY_READ_MAPS_DEFAULT} ${[...["virtual-mailbox-domains.cf", "virtual-mailbox-maps.cf", "virtual-alias-maps.cf", "list-addresses.cf", "list-transport.cf", ...hostTables(o)].map(table), ...deliveryProxyTables(delivery(o))].join(" ")}`,
      "# Mail to addresses that exist nowhere is refused during the SMTP dialogue, not bounced later.",
      "smtpd_reject_unlisted_recipient = yes",
      ...postfixAntispamLines(o.antispam ?? DEFAULT_ANTISPAM_OPTIONS),
      postfixDeliverySnippet(delivery(o)),
    ].join("\n"),
  };
}

/**
 * Dovecot's password_query. With a host name, an account whose mailbox lives on another host gets Dovecot's proxy
 * fields for IMAP, POP3, LMTP and ManageSieve (%s): that host's address and port (mail_account_hosts); SMTP AUTH and
 * doveadm are answered here.
 */
function passwordQuery(userCol: string, hostName: string | undefined): string {
  if (!hostName) return `password_query = SELECT ${userCol}, password FROM mail_passdb WHERE ${userCol} = '%u'`;
  const remote = `h.host <> '${hostName}' AND '%s' IN ('imap', 'pop3', 'lmtp', 'sieve')`;
  return [
    "# Mailboxes of another mail host (docs/mail-hosts.md) are proxied to it.",
    `password_query = SELECT p.${userCol}, p.password, CASE WHEN ${remote} THEN 'Y' END AS proxy, ` +
      `CASE WHEN ${remote} THEN h.address END AS host, ` +
      `CASE WHEN ${remote} THEN CASE '%s' WHEN 'imap' THEN h.imap_port WHEN 'pop3' THEN h.pop3_port WHEN 'lmtp' THEN h.lmtp_port ELSE h.sieve_port END END AS port ` +
      `FROM mail_passdb p LEFT JOIN mail_account_hosts h ON h.email = p.${userCol} WHERE p.${userCol} = '%u'`,
  ].join("\n");
}

/**
 * Dovecot's user_query. With a host name, a mailbox of another host has its quota read from the database (the
 * usage its own host's quota_clone wrote), so that this host's quota-status refuses mail for it at RCPT when it is
 * full, without opening (and creating) a local copy of the mailbox.
 */
function userQuery(userCol: string, o: MailServerConfigOptions, hostName: string | undefined): string {
  const ids = `'${o.mailUser}' AS uid, '${o.mailGroup}' AS gid`;
  const remote = `h.host <> '${hostName}'`;
  if (!hostName) return `user_query = SELECT quota_rule, ${ids} FROM mail_userdb WHERE ${userCol} = '%u'`;
  return (
    `user_query = SELECT u.quota_rule, ${ids}, CASE WHEN ${remote} THEN 'dict:User quota::proxy::mailadmin' END AS quota, ` +
    `CASE WHEN ${remote} THEN 'no' END AS mailbox_list_index ` +
    `FROM mail_userdb u LEFT JOIN mail_account_hosts h ON h.email = u.${userCol} WHERE u.${userCol} = '%u'`
  );
}

function dovecotFiles(o: MailServerConfigOptions): Record<string, string> {
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
  return {
    "dovecot/dovecot-sql.conf.ext": [
      "# Dovecot passdb/userdb over the panel's database (generated by `mailserver config`).",
      ...(pg
        ? [
            "driver = pgsql",
            "# Lookups: the read hosts (a local replica first); Dovecot balances over those that answer.",
            `connect = ${dovecotPgConnect(pg, pg.readHosts)}`,
          ]
        : ["driver = sqlite", `connect = ${o.databasePath}`]),
      "default_pass_scheme = SHA512-CRYPT",
      "# mail_passdb holds only accounts that may log in: not blocked, not past expiration_date.",
      passwordQuery(userCol, checkedHostName(o)),
      "# Every mailbox, blocked ones included (they still receive mail); the quota comes from capacity.",
      "# uid/gid spelt out so that services running as the mail user (quota-status) may look users up.",
      userQuery(userCol, o, checkedHostName(o)),
      `iterate_query = SELECT ${userCol} FROM mail_userdb`,
      "",
    ].join("\n"),
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
mail_uid = ${o.mailUser}
mail_gid = ${o.mailGroup}
mail_plugins = $mail_plugins quota quota_clone

namespace inbox {
  inbox = yes
  mailbox ${MAILBOXES.trash} {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox ${MAILBOXES.spam} {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox ${MAILBOXES.sent} {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox ${MAILBOXES.drafts} {
    special_use = \\Drafts
    auto = subscribe
  }
}

passdb {
  driver = sql
  args = ${sqlConf}
}
userdb {
  driver = sql
  args = ${sqlConf}
}

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
${dovecotSieveBefore(sieveDict)}
}

protocol lmtp {
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

function readme(o: MailServerConfigOptions): string {
  const pg = o.pgsql;
  const where = pg
    ? `PostgreSQL database ${pg.dbname} (lookups: ${pg.readHosts.join(", ")}; quota write-back: ${pg.writeHost})`
    : o.databasePath;
  return `# Mail server configuration for ${where}

Generated by \`npm run --silent cli -- mailserver config --out ${o.outDir}\`. Regenerate after moving the database
or the mailboxes; the account data itself is read live from the database, nothing here needs regenerating when
accounts, aliases, lists or autoresponders change. Full explanation: docs/mail-server.md in the panel's repository.

| file | where it goes |
|---|---|
| postfix/main.cf.snippet | append to /etc/postfix/main.cf (it points at the three .cf files in this folder, as \`proxy:${pg ? "pgsql" : "sqlite"}:\` maps: Debian chroots smtpd, cleanup and trivial-rewrite, and only the unchrooted proxymap can open the database) |
| postfix/virtual-mailbox-domains.cf | read by Postfix from here: hosted domains |
| postfix/virtual-mailbox-maps.cf | read by Postfix from here: addresses with a mailbox |
| postfix/virtual-alias-maps.cf | read by Postfix from here: aliases, forwards, catchalls |
| postfix/list-addresses.cf, postfix/list-transport.cf | read by Postfix from here: mailing list addresses, delivered to the list service at ${o.listsLmtp ?? DEFAULT_CONFIG_OPTIONS.listsLmtp} |
| dovecot/mailadmin.conf | \`!include ${path.join(o.outDir, "dovecot", "mailadmin.conf")}\` at the end of /etc/dovecot/dovecot.conf; disable the other passdb/userdb (auth-system.conf.ext) |
| dovecot/dovecot-sql.conf.ext | read by Dovecot from here: passdb and userdb |
| dovecot/dovecot-dict-sql.conf.ext | read by Dovecot's dict service from here: quota usage${pg ? " (written to the primary)" : " and Sieve scripts"} |${pg ? "\n| dovecot/dovecot-dict-sieve-sql.conf.ext | read by Dovecot's dict service from here: Sieve scripts, from the read hosts |" : ""}
| dovecot/delivery.conf, quota-warning.sh, new-mail.lua | included by mailadmin.conf: auth policy report, quota-status, quota_warning and new-mail hooks to \`mailserver events\` |
| postfix/srs-keep-sender.cf | read by Postfix from here when SRS is on: hosted senders keep their address |
| rspamd/local.d/dkim_signing.conf | link into /etc/rspamd/local.d/: DKIM signing with the keys \`mailserver events\` writes |
| rspamd/local.d/*.conf, *.inc | copy into /etc/rspamd/local.d/: Redis, Rspamd only scoring (no actions), the score headers, the milter worker |

Requirements on the host:

- Packages: postfix postfix-${pg ? "pgsql" : "sqlite"} dovecot-core dovecot-imapd dovecot-lmtpd dovecot-${pg ? "pgsql" : "sqlite"} dovecot-sieve rspamd
  redis-server.
- The policy service runs: \`npm run --silent cli -- mailserver policy\` (systemd unit in docs/deploy.md), where
  \`check_policy_service\` in the snippet points.
- Dovecot's LMTP must listen where \`virtual_transport = ${o.lmtp}\` points (for the default, a
  \`unix_listener /var/spool/postfix/private/dovecot-lmtp\` in \`service lmtp\`, mode 0600, user postfix).
- Mailboxes under ${o.maildirRoot}, owned by ${o.mailUser}:${o.mailGroup}.
${
  pg
    ? `- The files holding the mail role's (${pg.user}) password are 0640 root:postfix (postfix/*.cf) and root:dovecot
  (dovecot/*.ext) when generated as root; keep them so. pg_hba.conf on every database host lets ${pg.user} in from
  this host (docs/postgresql.md).`
    : `- The database's folder and files belong to group ${o.dbGroup} with group write (SQLite readers in WAL mode write
  the -shm file): add the users postfix and dovecot to ${o.dbGroup}; Dovecot's dict service gets it by
  \`extra_groups\`.`
}
- Daily: \`npm run --silent cli -- mailserver housekeeping\` (expunges old mail, sends usage warnings); the
  systemd timers are in docs/deploy.md.
- Check the installation: \`npm run --silent cli -- mailserver check --account <email> --password <pw>\`.
`;
}

/** All files, by path relative to the output folder. */
export function mailServerConfigFiles(o: MailServerConfigOptions): Record<string, string> {
  return {
    ...postfixFiles(o),
    ...dovecotFiles(o),
    ...rspamdLocalFiles(o.antispam ?? DEFAULT_ANTISPAM_OPTIONS),
    ...deliveryFiles(delivery(o)),
    "README.md": readme(o),
  };
}

/**
 * Who reads a file holding the database password: Postfix's proxymap (user postfix) reads postfix/*.cf, Dovecot's
 * auth worker and dict (user dovecot) read dovecot/*.ext. Such files are 0640 root:<group>; the rest stay 0644.
 */
export function configFileOwner(rel: string, content: string): { mode: number; group?: string } {
  if (rel.endsWith(".sh")) return { mode: 0o755 };
  if (!/^\s*(password\s*=|connect\s*=.*password=)/m.test(content)) return { mode: 0o644 };
  return { mode: 0o640, group: rel.startsWith("postfix/") ? "postfix" : "dovecot" };
}

/** The gid of a system group, or undefined where it does not exist (a test, a host without that daemon). */
function groupId(name: string): number | undefined {
  try {
    const line = fs
      .readFileSync("/etc/group", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    return line ? Number(line.split(":")[2]) : undefined;
  } catch {
    return undefined;
  }
}

export function writeMailServerConfig(o: MailServerConfigOptions): string[] {
  const files = mailServerConfigFiles(o);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(o.outDir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { mode, group } = configFileOwner(rel, content);
    // Written 0600 first, so the password is never readable by others, then given its group and mode.
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, content, { mode: mode & 0o700 });
    const gid = group && process.getuid?.() === 0 ? groupId(group) : undefined;
    if (gid !== undefined) fs.chownSync(file, 0, gid);
    fs.chmodSync(file, gid !== undefined || !group ? mode : 0o600);
  }
  return Object.keys(files).map((rel) => path.join(o.outDir, rel));
}
