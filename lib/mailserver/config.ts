import "server-only";
// `mailserver config`: the Postfix lookup tables and the Dovecot configuration that read the panel's SQLite
// database through its mail_* views (db/sqlite/migrations). The files reference each other by absolute path inside the
// output folder, so the folder is meant to stay where it was generated (for example /etc/mailadmin).
import fs from "node:fs";
import path from "node:path";
import { deliveryFiles, deliveryProxyTables, postfixDeliverySnippet } from "./config-delivery";
import {
  DEFAULT_ANTISPAM_OPTIONS,
  INTERNAL_HEADER_PREFIX,
  INTERNAL_HEADERS,
  postfixAntispamLines,
  rspamdLocalFiles,
} from "./antispam-config";
import {
  mailViewFor,
  pgPassFile,
  pgUsesTls,
  postfixMapFile,
  postfixMapType,
  primaryFallback,
  type PgsqlMapOptions,
} from "./config-database";
import type { MailLookupView } from "@/db/pg/mail-reader";
import { checkedHostName, DEFAULT_CONFIG_OPTIONS, delivery, type MailServerConfigOptions } from "./config-options";
import { dovecotFiles } from "./config-dovecot";

export { DEFAULT_CONFIG_OPTIONS, MAIL_HOST_NAME, type MailServerConfigOptions } from "./config-options";

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

/**
 * Rows of mail_list_addresses matching the address Postfix asks about (%d domain, %u local part): the list's own
 * address, or a VERP bounce address `<name>-bounces+<signature>=<user>=<host>` (at least something around an "=";
 * the signature is the policy service's to check at RCPT, lib/lists/bounce-address.ts). Any other
 * `<name>-bounces+...` is refused at RCPT: the list service would refuse it only after Postfix accepted it, and Postfix
 * would return the message to its (perhaps forged) sender. List names hold no LIKE wildcard; `%%` is Postfix's `%`.
 */
const listQuery = (pg: PgsqlMapOptions | undefined, value: string) =>
  `SELECT ${value} FROM ${mailViewFor(pg, "mail_list_addresses", "'%d'", { where: "('%u' = name OR '%u' LIKE (name || '-bounces+_%%=_%%'))" })}`;

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
  const fallback = primaryFallback(o.pgsql);
  const rows = (view: MailLookupView, key: string, where?: string) => mailViewFor(o.pgsql, view, key, { where });
  const mailboxTables = ["virtual-mailbox-maps.cf", ...(fallback ? ["virtual-mailbox-maps-primary.cf"] : [])];
  return {
    "postfix/virtual-mailbox-domains.cf": postfixTable(
      o.databasePath,
      "Hosted domains",
      `SELECT domain FROM ${rows("mail_domains", "'%s'")}`,
    ),
    "postfix/virtual-mailbox-maps.cf": postfixTable(
      o.databasePath,
      "Addresses with a mailbox (delivered over LMTP to Dovecot)",
      `SELECT maildir FROM ${rows("mail_mailboxes", "'%s'")}`,
    ),
    ...(fallback
      ? {
          // Only after the read hosts answered "no such mailbox": a recipient of a hosted domain only (Postfix asks
          // this map for those alone), and %u@%d leaves out the "@domain" key Postfix tries next (pgsql_table(5)
          // suppresses a query whose %u is empty), so the primary sees new mailboxes and unknown recipients only.
          "postfix/virtual-mailbox-maps-primary.cf": postfixMapFile(
            o.databasePath,
            o.pgsql,
            "Addresses with a mailbox, asked of the primary when the read hosts do not know them",
            `SELECT maildir FROM ${rows("mail_mailboxes", "'%u@%d'")}`,
            [fallback],
          ),
        }
      : {}),
    "postfix/virtual-alias-maps.cf": postfixTable(
      o.databasePath,
      "Aliases, forwards and catchalls (@domain keys)",
      `SELECT destination FROM ${rows("mail_alias_map", "'%s'")}`,
    ),
    // Lists (docs/lists.md): the list address and its VERP bounce addresses are valid recipients (each maps to
    // itself, after the first table so the catchall never takes them) and go to the list service over LMTP.
    "postfix/list-addresses.cf": postfixTable(
      o.databasePath,
      "Mailing list addresses and their bounce addresses",
      listQuery(o.pgsql, "'%s'"),
    ),
    "postfix/list-transport.cf": postfixTable(
      o.databasePath,
      "Mailing list addresses go to the list service",
      listQuery(o.pgsql, `'${(o.listsLmtp ?? DEFAULT_CONFIG_OPTIONS.listsLmtp).replace(/'/g, "")}'`),
    ),
    "postfix/sender-login-maps.cf": postfixTable(
      o.databasePath,
      "The logins that may send as an address: its account, or the account its alias leads to",
      `SELECT login FROM ${rows("mail_sender_logins", "'%s'")}`,
    ),
    ...(checkedHostName(o)
      ? {
          "postfix/mailbox-transport.cf": postfixTable(
            o.databasePath,
            `Mailboxes of other mail hosts than ${o.hostName} go to their host's LMTP (mail_hosts, docs/mail-hosts.md)`,
            `SELECT 'lmtp:inet:' || address || ':' || lmtp_port FROM ${rows("mail_account_hosts", "'%s'", `host <> '${o.hostName}'`)}`,
          ),
        }
      : {}),
    "postfix/inbound-header-checks": [
      "# Headers removed from mail as it arrives (header_checks in main.cf.snippet): the X-Mailadmin-* headers only",
      "# this host may write (Rspamd's milter adds them after these checks, and they do not apply to its headers).",
      `/^${INTERNAL_HEADER_PREFIX}/ IGNORE`,
      "# And X-Original-To: the lmtp client writes the real one at delivery (main.cf.snippet).",
      "/^X-Original-To:/ IGNORE",
      "",
    ].join("\n"),
    "postfix/outbound-header-checks": [
      "# Headers removed from mail leaving over SMTP (smtp_header_checks in main.cf.snippet).",
      `/^(${INTERNAL_HEADERS.join("|")}):/ IGNORE`,
      "",
    ].join("\n"),
    "postfix/main.cf.snippet": [
      "# Set in Postfix's main.cf line by line with `postconf -e` (docs/deploy.md, step 5), which replaces a setting",
      "# already there (Debian's recipient_delimiter); generated by `mailserver config`.",
      `virtual_mailbox_domains = ${table("virtual-mailbox-domains.cf")}`,
      `virtual_mailbox_maps = ${mailboxTables.map(table).join(" ")}`,
      `virtual_alias_maps = ${table("virtual-alias-maps.cf")} ${table("list-addresses.cf")}`,
      `virtual_transport = ${o.lmtp}`,
      "# One recipient per LMTP delivery, each with X-Original-To: the address the message was sent to, prepended by",
      "# the lmtp service's flags=O in master.cf (docs/deploy.md, step 5). Dovecot takes it as the original recipient,",
      "# so the autoresponder answers mail that a catchall of type 1 or 2 brought to the account (contract §10).",
      "lmtp_destination_recipient_limit = 1",
      `transport_maps = ${[table("list-transport.cf"), ...hostTables(o).map(table)].join(" ")}`,
      "# proxymap answers only for tables listed here. Postfix's default list already names the three parameters",
      "# above; repeating it with the tables spelt out keeps them allowed if another line of main.cf sets the list.",
      `proxy_read_maps = ${PROXY_READ_MAPS_DEFAULT} ${[...["virtual-mailbox-domains.cf", ...mailboxTables, "virtual-alias-maps.cf", "list-addresses.cf", "list-transport.cf", "sender-login-maps.cf", ...hostTables(o)].map(table), ...deliveryProxyTables(delivery(o))].join(" ")}`,
      "# The MX (port 25) takes no logins: it neither offers AUTH nor reads a sender rule about logins, which Postfix",
      "# ignored there with a warning for each message (no SASL support). The submission services of master.cf turn",
      "# SASL on and apply mua_sender_restrictions (docs/deploy.md, step 5):",
      "#   -o smtpd_sasl_auth_enable=yes -o smtpd_sender_restrictions=$mua_sender_restrictions",
      "smtpd_sasl_auth_enable = no",
      "smtpd_sender_restrictions =",
      "# A signed-in user sends as its own addresses only (its account's, its aliases'): any other MAIL FROM is",
      "# refused (553), so nobody sends as another customer with that domain's DKIM signature.",
      `smtpd_sender_login_maps = ${table("sender-login-maps.cf")}`,
      "# The null sender (MAIL FROM:<>) passes this check: read receipts are sent with it (RFC 8098). Rspamd's",
      "# end-of-DATA question to the policy service then checks the header From (a signed-in sender waits while the",
      "# service does not answer) and takes a signed-in <> only for a report or an automatic reply. With Rspamd down",
      "# (milter_default_action accept) neither is asked, and nothing is DKIM-signed either.",
      "mua_sender_restrictions = reject_authenticated_sender_login_mismatch",
      "# No DSN (RFC 3461) but on the submission services, which set -o smtpd_discard_ehlo_keywords=silent-discard",
      "# (docs/deploy.md, step 5). On the MX anyone could ask NOTIFY=SUCCESS for a forged sender, which then got a",
      "# report with the message's headers (this host's internal ones too) and the aliases' expansion. Failures are",
      "# still returned to the envelope sender as before; silent-discard keeps each session from logging the discard.",
      "smtpd_discard_ehlo_keywords = silent-discard, dsn",
      "# Mail to addresses that exist nowhere is refused during the SMTP dialogue, not bounced later.",
      "smtpd_reject_unlisted_recipient = yes",
      "# No VRFY: it told anyone which addresses exist, outside any transaction and before the policy service's",
      "# checks (RBL, black list), and a client that greets the MX has no use for it.",
      "disable_vrfy_command = yes",
      "# SMTP smuggling (CVE-2023-51764): Postfix before 3.9 took <LF>.<CR><LF> as the end of DATA, so a message that",
      "# another server relays with such a line in its text carried a second transaction (a hosted sender's MAIL FROM,",
      "# from that server's address) that this MX accepted as new mail. normalize (3.9's default) ends DATA only at",
      "# <CR><LF>.<CR><LF> and reads any other bare <LF> as a line end.",
      "smtpd_forbid_bare_newline = normalize",
      "# No address extensions (jan+tag@): Debian's installer sets recipient_delimiter = +, and Postfix would then take",
      "# jan+tag@ into jan's mailbox while the policy service, deciding on the exact address, applied the domain's",
      "# settings: not jan's black list, spam switches, or the sending limit's count.",
      "recipient_delimiter =",
      "# Mail leaving for other servers loses the headers Rspamd adds for this host's own use (the score, and the",
      "# authenticated poster, which names the sender's login): DKIM does not sign them.",
      `smtp_header_checks = regexp:${path.join(o.outDir, "postfix", "outbound-header-checks")}`,
      "# Mail arriving loses every X-Mailadmin-* header its sender wrote, also when Rspamd does not answer and Postfix",
      "# accepts it unfiltered: the autoresponder and the list service trust them. Rspamd's milter writes its own after",
      "# these checks. Only the message's own headers: an attached message is left whole. The sendmail path (pickup:",
      "# Dovecot's forwards keep the headers the first delivery got) is exempt in master.cf (docs/deploy.md).",
      `header_checks = regexp:${path.join(o.outDir, "postfix", "inbound-header-checks")}`,
      "nested_header_checks =",
      ...postfixAntispamLines(o.antispam ?? DEFAULT_ANTISPAM_OPTIONS),
      postfixDeliverySnippet(delivery(o)),
    ].join("\n"),
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
| postfix/main.cf.snippet | set in /etc/postfix/main.cf line by line with \`postconf -e\` (it points at the .cf files in this folder, as \`proxy:${pg ? "pgsql" : "sqlite"}:\` maps: Debian chroots smtpd, cleanup and trivial-rewrite, and only the unchrooted proxymap can open the database) |
| postfix/virtual-mailbox-domains.cf | read by Postfix from here: hosted domains |${pg && pgUsesTls(pg) ? "\n| postfix/pgpass | read by Postfix's libpq from here (`passfile=` in the maps' URIs): the mail role's password, 0600 and owned by postfix, so that the URIs Postfix logs when a connection fails hold none |" : ""}
| postfix/virtual-mailbox-maps.cf | read by Postfix from here: addresses with a mailbox |${primaryFallback(pg) ? "\n| postfix/virtual-mailbox-maps-primary.cf, dovecot/dovecot-sql-primary.conf.ext | read by Postfix and Dovecot from here: the same lookups asked of the primary when the read hosts do not know the address or login (an account created a moment ago, the replica behind) |" : ""}
| postfix/virtual-alias-maps.cf | read by Postfix from here: aliases, forwards, catchalls |
| postfix/list-addresses.cf, postfix/list-transport.cf | read by Postfix from here: mailing list addresses, delivered to the list service at ${o.listsLmtp ?? DEFAULT_CONFIG_OPTIONS.listsLmtp} |
| postfix/sender-login-maps.cf | read by Postfix from here: the addresses a signed-in user may send as |${hostTables(o).length > 0 ? `\n| postfix/mailbox-transport.cf | read by Postfix from here (\`transport_maps\`): the mailboxes of mail hosts other than ${checkedHostName(o)}, delivered to their host's LMTP (docs/mail-hosts.md) |` : ""}
| postfix/inbound-header-checks, postfix/outbound-header-checks | read by Postfix from here: the X-Mailadmin-* headers removed from arriving mail, and this host's headers removed from mail leaving |
| dovecot/mailadmin.conf | \`!include ${path.join(o.outDir, "dovecot", "mailadmin.conf")}\` at the end of /etc/dovecot/dovecot.conf; disable the other passdb/userdb (auth-system.conf.ext) |
| dovecot/dovecot-sql.conf.ext | read by Dovecot from here: passdb and userdb |
| dovecot/dovecot-dict-sql.conf.ext | read by Dovecot's dict service from here: quota usage${pg ? " (written to the primary)" : " and Sieve scripts"} |${pg ? "\n| dovecot/dovecot-dict-sieve-sql.conf.ext | read by Dovecot's dict service from here: Sieve scripts, from the read hosts |" : ""}
| dovecot/delivery.conf, quota-warning.sh, new-mail.lua, sieve-execute/forwarded-mail.sh | included by mailadmin.conf: auth policy report, quota-status, quota_warning, new-mail and forwarded-mail hooks to \`mailserver events\` |
| postfix/srs-keep-sender.cf | read by Postfix from here when SRS is on: hosted senders keep their address |
| rspamd/local.d/dkim_signing.conf | link into /etc/rspamd/local.d/: DKIM signing with the keys \`mailserver events\` writes |
| rspamd/local.d/*.conf, *.inc | linked into /etc/rspamd/local.d/ (docs/deploy.md, step 5): Redis, Rspamd only scoring (no actions), the score headers, the milter worker, the signing worker's settings |
| rspamd/rspamd.conf.local | link to /etc/rspamd/rspamd.conf.local: Rspamd's signing worker, Postfix's non_smtpd_milters (DKIM for vacation replies and other mail composed here) |

Requirements on the host:

- Packages: postfix postfix-${pg ? "pgsql" : "sqlite"} dovecot-core dovecot-imapd dovecot-lmtpd dovecot-${pg ? "pgsql" : "sqlite"} dovecot-sieve rspamd
  redis-server.
- The policy service runs: \`npm run --silent cli -- mailserver policy\` (systemd unit in docs/deploy.md), where
  \`check_policy_service\` in the snippet points.${o.srsDomain ? `\n- postsrsd runs (package postsrsd, SRS_DOMAIN=${o.srsDomain} in /etc/default/postsrsd), its forward and reverse\n  tables at ${o.srsForward} and ${o.srsReverse}: while they do not answer, Postfix refuses every recipient with\n  451 4.3.0 Temporary lookup failure.` : ""}
- Dovecot's LMTP must listen where \`virtual_transport = ${o.lmtp}\` points (for the default, a
  \`unix_listener /var/spool/postfix/private/dovecot-lmtp\` in \`service lmtp\`, mode 0600, user postfix).
- Mailboxes under ${o.maildirRoot}, owned by ${o.mailUser}:${o.mailGroup}.
- sendmail's path keeps the X-Mailadmin-* headers (Dovecot's forwards carry those of their first delivery):
  \`postconf -P pickup/unix/receive_override_options=no_header_body_checks\`.
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
- Check the installation: \`npm run --silent cli -- mailserver check --account <email>\`, with the account's
  password in the environment's CHECK_PASSWORD (\`read -rs CHECK_PASSWORD && export CHECK_PASSWORD\`).
`;
}

/** libpq's password file of Postfix's maps, where they connect with TLS (postgresql:// URIs; config-database.ts). */
export const POSTFIX_PGPASS = "postfix/pgpass";

/** All files, by path relative to the output folder. */
export function mailServerConfigFiles(options: MailServerConfigOptions): Record<string, string> {
  const passfile = options.pgsql && pgUsesTls(options.pgsql) ? path.join(options.outDir, POSTFIX_PGPASS) : undefined;
  const o = passfile ? { ...options, pgsql: { ...options.pgsql!, passfile } } : options;
  return {
    ...(passfile ? { [POSTFIX_PGPASS]: pgPassFile(o.pgsql!) } : {}),
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
 * Postfix's libpq password file (TLS) is 0600 postfix's own.
 */
export function configFileOwner(rel: string, content: string): { mode: number; group?: string; user?: string } {
  if (rel.endsWith(".sh")) return { mode: 0o755 };
  // libpq ignores a password file with any group or other bit: proxymap (user postfix) must own it.
  if (rel === POSTFIX_PGPASS) return { mode: 0o600, user: "postfix" };
  if (!/^\s*(password\s*=|connect\s*=.*password=)/m.test(content)) return { mode: 0o644 };
  return { mode: 0o640, group: rel.startsWith("postfix/") ? "postfix" : "dovecot" };
}

/**
 * The id of a system user (/etc/passwd) or group (/etc/group), or undefined where it does not exist (a test, a host
 * without that daemon).
 */
function systemId(file: "/etc/passwd" | "/etc/group", name: string): number | undefined {
  try {
    const line = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    return line ? Number(line.split(":")[2]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Files a run writes only in some configurations (the primary's lookups when the read hosts are replicas). A later
 * run that does not write them removes them: after a failover they would name the lost primary, keep the mail role's
 * password, and make `mailserver check` test a file nothing reads.
 */
const OPTIONAL_FILES = [
  "postfix/virtual-mailbox-maps-primary.cf",
  "dovecot/dovecot-sql-primary.conf.ext",
  POSTFIX_PGPASS,
];

export function writeMailServerConfig(o: MailServerConfigOptions): string[] {
  const files = mailServerConfigFiles(o);
  // The hint keeps Turbopack from tracing the whole project into the build for a path it cannot resolve.
  for (const rel of OPTIONAL_FILES)
    if (!(rel in files)) fs.rmSync(path.join(/*turbopackIgnore: true*/ o.outDir, rel), { force: true });
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(o.outDir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { mode, group, user } = configFileOwner(rel, content);
    // Written 0600 first, so the password is never readable by others, then given its group and mode.
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, content, { mode: mode & 0o700 });
    const uid = user && process.getuid?.() === 0 ? systemId("/etc/passwd", user) : undefined;
    if (uid !== undefined) fs.chownSync(file, uid, -1);
    const gid = group && process.getuid?.() === 0 ? systemId("/etc/group", group) : undefined;
    if (gid !== undefined) fs.chownSync(file, 0, gid);
    fs.chmodSync(file, gid !== undefined || !group ? mode : 0o600);
  }
  return Object.keys(files).map((rel) => path.join(o.outDir, rel));
}
