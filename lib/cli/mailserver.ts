import "server-only";
// The `mailserver` command group of the operator CLI.
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";
import {
  checkPassword,
  mailDbPassword as mailDbPasswordSetting,
  nodePgConnectionString,
  postgresUrl,
  smsConfigPath,
} from "@/lib/config.mjs";
import { mailReaderSql } from "@/db/pg/mail-reader";
import {
  CLI,
  FailedWithReport,
  operatorPath,
  requiredOption,
  splitHostPort,
  stringOption,
  UsageError,
  type Command,
  type Parsed,
} from "./args";
import { unreadableFile } from "./files";
import { DEFAULT_ANTISPAM_OPTIONS } from "@/lib/mailserver/antispam-config";
import { formatCheck, runMailServerCheck, socketAddress } from "@/lib/mailserver/check";
import { mailHosts } from "@/lib/server/resources/dns-records";
import { DEFAULT_CONFIG_OPTIONS, writeMailServerConfig } from "@/lib/mailserver/config";
import { DEFAULT_MAIL_READER, pgsqlMapOptionsFromUrl, type PgsqlMapOptions } from "@/lib/mailserver/config-database";
import { runHousekeeping } from "@/lib/mailserver/housekeeping";
import { checkedMailHost, localMailHost } from "@/lib/mailserver/mail-hosts";

/**
 * The SMS configuration `mailserver events` and `mailserver check` use (--sms-config, else SMS_CONFIG, else the
 * built-in defaults); a file that cannot be read or is not a valid configuration fails in one line naming it.
 */
async function smsConfigOf(values: Parsed["values"]) {
  const { loadSmsConfig } = await import("@/lib/mailserver/sms/config");
  const file = stringOption(values, "sms-config") ?? smsConfigPath();
  if (!file) return loadSmsConfig(undefined);
  try {
    return loadSmsConfig(file);
  } catch (err) {
    const unreadable = unreadableFile(file, err);
    if (unreadable !== err) throw new Error(`the SMS configuration: ${(unreadable as Error).message}`);
    const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    // Not JSON.parse's message: it quotes the file's text, which may hold the gateway's password.
    const why = issues
      ? issues.map((i) => `${i.path.map(String).join(".") || "(the whole file)"}: ${i.message}`).join("; ")
      : err instanceof SyntaxError
        ? "not JSON"
        : (err as Error).message;
    throw new Error(`the SMS configuration ${file} is not valid (docs/mail-server.md, "SMS notifications"): ${why}`);
  }
}

/** DATABASE_URL when it selects PostgreSQL. */

/** The mail role's password: --mail-db-password, else MAIL_DB_PASSWORD (keeps it out of `ps`); empty is unset. */
const givenMailDbPassword = (values: Parsed["values"]) =>
  stringOption(values, "mail-db-password") || mailDbPasswordSetting();
const mailDbPassword = (values: Parsed["values"]) => {
  const pw = givenMailDbPassword(values);
  if (!pw) throw new Error("the mail role's password: set MAIL_DB_PASSWORD (or --mail-db-password)");
  return pw;
};

function pgsqlOptions(values: Parsed["values"]): PgsqlMapOptions | undefined {
  const engine = stringOption(values, "database") ?? (postgresUrl() ? "postgres" : "sqlite");
  if (engine === "sqlite") return undefined;
  if (engine !== "postgres") throw new Error(`--database ${engine}: expected sqlite or postgres`);
  const url = postgresUrl();
  if (!url) throw new Error("--database postgres needs DATABASE_URL=postgres://... (the primary)");
  const list = (name: string) =>
    stringOption(values, name)
      ?.split(",")
      .map((h) => h.trim())
      .filter(Boolean);
  return pgsqlMapOptionsFromUrl(url, {
    user: stringOption(values, "mail-db-user") ?? DEFAULT_MAIL_READER,
    password: mailDbPassword(values),
    readHosts: list("read-hosts"),
    writeHost: stringOption(values, "write-host"),
  });
}

/** `--lmtp-socket`/`--auth-socket`: host:port as given (socketAddress), a socket file from the operator's directory. */
const dovecotListener = (value: string) => ("host" in socketAddress(value) ? value : operatorPath(value));

const DOVECOT_CONFIG = {
  type: "string",
  value: "<file>",
  path: "file",
  help: "Dovecot's configuration when it is not the default (doveadm -c)",
} as const;

export const MAILSERVER_COMMANDS: Command[] = [
  {
    name: "mailserver config",
    summary:
      "Writes the Postfix lookup tables and the Dovecot configuration that read this database (DATABASE_PATH or DATABASE_URL).",
    notes:
      "Run again when the database or the mailbox root moves; account changes never need it. The folder's\nREADME.md says where each file goes (docs/mail-server.md explains it all).",
    example: `DATABASE_PATH=/var/lib/mailadmin/mail.db ${CLI} mailserver config --out /etc/mailadmin --maildir-root /var/vmail`,
    options: {
      out: {
        type: "string",
        value: "<dir>",
        path: "file",
        required: true,
        help: "the folder to write (required), for example /etc/mailadmin",
      },
      "maildir-root": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: `mailboxes live in <dir>/<domain>/<name> (default ${DEFAULT_CONFIG_OPTIONS.maildirRoot})`,
      },
      "mail-user": {
        type: "string",
        value: "U",
        help: `system user owning the mailboxes (default ${DEFAULT_CONFIG_OPTIONS.mailUser})`,
      },
      "mail-group": { type: "string", value: "G", help: `its group (default ${DEFAULT_CONFIG_OPTIONS.mailGroup})` },
      "db-group": {
        type: "string",
        value: "G",
        help: `group sharing the database with Postfix and Dovecot (default ${DEFAULT_CONFIG_OPTIONS.dbGroup})`,
      },
      lmtp: {
        type: "string",
        value: "<transport>",
        help: `Postfix's virtual_transport (default ${DEFAULT_CONFIG_OPTIONS.lmtp})`,
      },
      "lists-lmtp": {
        type: "string",
        value: "<transport>",
        help: `where the list service listens (default ${DEFAULT_CONFIG_OPTIONS.listsLmtp}; \`lists serve\`)`,
      },
      "events-url": {
        type: "string",
        value: "<url>",
        help: `where \`mailserver events\` listens (default ${DEFAULT_CONFIG_OPTIONS.eventsUrl})`,
      },
      "quota-status-port": {
        type: "string",
        value: "N",
        help: `loopback port of Dovecot's quota-status service (default ${DEFAULT_CONFIG_OPTIONS.quotaStatusPort})`,
      },
      "srs-domain": {
        type: "string",
        value: "<domain>",
        help: "SRS rewrites senders to this domain (the host name in mydestination, or a hosted domain); none: no SRS",
      },
      "srs-forward": {
        type: "string",
        value: "<host:port>",
        help: `postsrsd's forward table (default ${DEFAULT_CONFIG_OPTIONS.srsForward})`,
      },
      "srs-reverse": {
        type: "string",
        value: "<host:port>",
        help: `postsrsd's reverse table (default ${DEFAULT_CONFIG_OPTIONS.srsReverse})`,
      },
      "dkim-dir": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: `where \`mailserver events\` writes the DKIM keys for Rspamd (default ${DEFAULT_CONFIG_OPTIONS.dkimDir})`,
      },
      database: {
        type: "string",
        value: "<engine>",
        help: "sqlite (DATABASE_PATH) or postgres (DATABASE_URL); default postgres when DATABASE_URL is set",
      },
      "read-hosts": {
        type: "string",
        value: "<h[:p],...>",
        help: "PostgreSQL: hosts the lookups read, the local replica first (default DATABASE_URL's host)",
      },
      "write-host": {
        type: "string",
        value: "<h[:p]>",
        help: "PostgreSQL: the primary, where Dovecot writes usage (default DATABASE_URL's host)",
      },
      "mail-db-user": {
        type: "string",
        value: "<role>",
        help: `PostgreSQL: the read-only role of Postfix and Dovecot (default ${DEFAULT_MAIL_READER}; \`mailserver db-role\`)`,
      },
      "mail-db-password": {
        type: "string",
        value: "<pw>",
        help: "PostgreSQL: its password (default MAIL_DB_PASSWORD)",
      },
      "host-name": {
        type: "string",
        value: "<name>",
        help: "this host's name in `mailserver host list` (default MAIL_HOST_NAME): other hosts' mailboxes are proxied to them",
      },
    },
    async run(ctx, { values }) {
      const out = requiredOption(this, values, "out");
      // Checked against mail_hosts before anything is written: under a name no host has, every placed mailbox (this
      // host's own too) would be proxied away.
      const given = stringOption(values, "host-name") ?? localMailHost();
      const hostName = given === undefined ? undefined : await checkedMailHost(ctx.db(), given);
      const option = (name: string, fallback: string) => stringOption(values, name) ?? fallback;
      // An empty value is a command substitution that found nothing ("$(cat /etc/mailname)"), not a choice: without
      // this, SRS went off without a word.
      if (stringOption(values, "srs-domain")?.trim() === "")
        throw new UsageError(
          `${this.name}: --srs-domain is empty: give the SRS domain (this host's mail name), or none`,
        );
      const files = writeMailServerConfig({
        outDir: out,
        databasePath: databasePath(),
        pgsql: pgsqlOptions(values),
        maildirRoot: option("maildir-root", DEFAULT_CONFIG_OPTIONS.maildirRoot),
        mailUser: option("mail-user", DEFAULT_CONFIG_OPTIONS.mailUser),
        mailGroup: option("mail-group", DEFAULT_CONFIG_OPTIONS.mailGroup),
        dbGroup: option("db-group", DEFAULT_CONFIG_OPTIONS.dbGroup),
        lmtp: option("lmtp", DEFAULT_CONFIG_OPTIONS.lmtp),
        listsLmtp: option("lists-lmtp", DEFAULT_CONFIG_OPTIONS.listsLmtp),
        eventsUrl: option("events-url", DEFAULT_CONFIG_OPTIONS.eventsUrl).replace(/\/+$/, ""),
        quotaStatusPort: Number(option("quota-status-port", String(DEFAULT_CONFIG_OPTIONS.quotaStatusPort))),
        srsDomain: option("srs-domain", DEFAULT_CONFIG_OPTIONS.srsDomain),
        srsForward: option("srs-forward", DEFAULT_CONFIG_OPTIONS.srsForward),
        srsReverse: option("srs-reverse", DEFAULT_CONFIG_OPTIONS.srsReverse),
        dkimDir: option("dkim-dir", DEFAULT_CONFIG_OPTIONS.dkimDir),
        hostName,
      });
      return `Wrote ${files.length} files; read ${path.join(out, "README.md")}.`;
    },
  },
  {
    name: "mailserver db-role",
    summary:
      "PostgreSQL: creates or updates the read-only role Postfix and Dovecot connect as (views only, mail_quota).",
    notes:
      "Runs as DATABASE_URL's role, which needs CREATEROLE (or run the SQL that --print shows as a superuser).\n" +
      "With a password (MAIL_DB_PASSWORD or --mail-db-password) it creates the role or sets its password; without\n" +
      "one it only grants, to the role as it is: run it so after `db migrate` adds a view, and the password every\n" +
      "mail host's configuration holds stays valid. A restore into a new cluster needs the password. docs/postgresql.md.",
    example: `DATABASE_URL=postgres://mailadmin@db1/mailadmin ${CLI} mailserver db-role --print`,
    options: {
      role: { type: "string", value: "<role>", help: `default ${DEFAULT_MAIL_READER}` },
      "mail-db-password": {
        type: "string",
        value: "<pw>",
        help: "its new password (default MAIL_DB_PASSWORD; none: grants only)",
      },
      print: { type: "boolean", help: "print the SQL instead of running it" },
    },
    async run(_ctx, { values }) {
      const url = postgresUrl();
      if (!url) throw new Error("mailserver db-role: DATABASE_URL=postgres://... is not set (SQLite needs no role)");
      const role = stringOption(values, "role") ?? DEFAULT_MAIL_READER;
      const password = givenMailDbPassword(values);
      const sql = mailReaderSql(role, password, decodeURIComponent(new URL(url).pathname.slice(1)));
      if (values.print === true) return sql.trimEnd();
      const { ensureMailReader } = await import("@/db/pg/mail-reader");
      const pg = (await import("pg")).default;
      const client = new pg.Client({ connectionString: nodePgConnectionString(url) });
      await client.connect();
      try {
        await ensureMailReader(client, role, password);
      } finally {
        await client.end();
      }
      return `Role ${role}${password === undefined ? " (password unchanged)" : ""}: reads the mail views, writes mail_quota; nothing else.`;
    },
  },
  {
    name: "mailserver housekeeping",
    summary: "Daily (systemd timer): expunges mail past each account's *_delete_after days, delivers usage warnings.",
    notes: "Runs doveadm, so it needs the right to use Dovecot's doveadm socket (root, or a member of its group).",
    example: `${CLI} mailserver housekeeping --dovecot-config /etc/dovecot/dovecot.conf`,
    options: {
      doveadm: {
        type: "string",
        value: "<path>",
        path: "program",
        help: "the doveadm program (default doveadm from PATH)",
      },
      "dovecot-config": DOVECOT_CONFIG,
    },
    async run(ctx, { values }) {
      const config = stringOption(values, "dovecot-config");
      const doveadm = [stringOption(values, "doveadm") ?? "doveadm", ...(config ? ["-c", config] : [])];
      const report = await runHousekeeping(ctx.db(), { doveadm, hostName: localMailHost() });
      const out =
        [
          ...report.expunged.map((l) => `expunge ${l}`),
          ...report.warned.map((l) => `warned ${l}`),
          ...(report.audit.deleted
            ? [`audit: ${report.audit.deleted} entries older than ${report.audit.days} days deleted`]
            : []),
          ...(report.sms.deleted
            ? [`sms: ${report.sms.deleted} notifications older than ${report.sms.days} days deleted`]
            : []),
        ].join("\n") || "nothing to do";
      // The rest of the run was done; the exit status tells the timer (and its operator) that some of it was not.
      // One line per failure (doveadm's own words), then what was done.
      if (report.failed.length)
        throw new Error(
          [...report.failed, ...(out === "nothing to do" ? [] : [`done: ${out.split("\n").join("; ")}`])].join("\n"),
        );
      return out;
    },
  },
  {
    name: "mailserver events",
    summary: "Runs the mail event service Dovecot calls (last login, usage warning at delivery, SMS notifications).",
    notes:
      "Long-running (systemd unit in docs/deploy.md); listens on loopback only. Runs doveadm (fetch, save), so it\n" +
      "needs the right to use Dovecot's doveadm socket, like housekeeping. Every 5 s it ends the open IMAP and POP3\n" +
      "sessions of accounts that may no longer log in (blocked, expired, deleted) or whose password changed\n" +
      "(doveadm who, doveadm kick).\n" +
      "SMS_CONFIG names the provider's SMS configuration (docs/mail-server.md); e-mail notifications are submitted\n" +
      "to the local Postfix (--smtp).",
    example: `${CLI} mailserver events --listen 127.0.0.1:10180 --dovecot-config /etc/dovecot/dovecot.conf`,
    options: {
      listen: {
        type: "string",
        value: "<host:port>",
        help: "default 127.0.0.1:10180 (what `mailserver config --events-url` points at)",
      },
      smtp: {
        type: "string",
        value: "<host:port>",
        help: "where e-mail notifications are submitted (default 127.0.0.1:25)",
      },
      "dkim-dir": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: `where to keep Rspamd's DKIM keys from the database (default ${DEFAULT_CONFIG_OPTIONS.dkimDir})`,
      },
      "dkim-group": { type: "string", value: "G", help: "group that may read the keys (default _rspamd)" },
      "sms-config": {
        type: "string",
        value: "<file>",
        path: "file",
        help: "the provider's SMS configuration (JSON; default SMS_CONFIG, else the built-in defaults)",
      },
      doveadm: {
        type: "string",
        value: "<path>",
        path: "program",
        help: "the doveadm program (default doveadm from PATH)",
      },
      "dovecot-config": DOVECOT_CONFIG,
    },
    async run(ctx, { values }) {
      const config = stringOption(values, "dovecot-config");
      const [host, port] = splitHostPort(stringOption(values, "listen") ?? "127.0.0.1:10180");
      const [smtpHost, smtpPort] = splitHostPort(stringOption(values, "smtp") ?? "127.0.0.1:25");
      // Loaded here: the other commands start faster without nodemailer and mailparser.
      const { startMailEvents } = await import("@/lib/mailserver/events");
      const events = await startMailEvents({
        db: ctx.db(),
        doveadm: [stringOption(values, "doveadm") ?? "doveadm", ...(config ? ["-c", config] : [])],
        sms: await smsConfigOf(values),
        transport: { smtp: { host: smtpHost, port: smtpPort } },
        host,
        port,
        dkim: {
          dir: stringOption(values, "dkim-dir") ?? DEFAULT_CONFIG_OPTIONS.dkimDir,
          group: stringOption(values, "dkim-group") ?? "_rspamd",
        },
        hostName: localMailHost(),
      });
      console.log(`mail events listening on ${events.url}`);
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => resolve());
      });
      await events.close();
      return "stopped";
    },
  },
  {
    name: "mailserver check",
    summary: "Self-test of a live installation: one line per check, ✓ or ✗ with the reason; exit 1 when any fails.",
    notes:
      "Checks: the database. On SQLite, its folder, file, -wal and -shm open to the mail group; on PostgreSQL\n" +
      "(DATABASE_URL=postgres://...), the connection, the connections every process may open against\n" +
      "max_connections, the mail role reading the views on every read host (and on the primary when the read hosts\n" +
      "are replicas) and unable to write. Then: postmap -q (through Postfix's proxymap) finds the account's domain,\n" +
      "its mailbox and an alias; doveadm user and doveadm auth test for the account; the LMTP and auth sockets accept\n" +
      "connections (a socket file, or host:port for Dovecot's inet_listener); quota_clone writes the account's usage\n" +
      "back (a marked message is saved into the account's inbox and expunged again; refused, writing nothing, for an\n" +
      "account whose mailbox lives on another mail host than this one, MAIL_HOST_NAME); Rspamd's controller answers\n" +
      "/ping; the policy service, quota-status and `mailserver events` answer; no deleted account's mailbox has\n" +
      "waited over a minute for its removal; every SMS number of an account has a gateway in the SMS configuration\n" +
      "(--sms-config or SMS_CONFIG, as `mailserver events` reads it); Postfix runs every\n" +
      "setting of the generated main.cf.snippet; postsrsd's tables answer (SRS on);\n" +
      "the account's domain has its DKIM key; the account logs in on the submission port over TLS, and there a MAIL FROM\n" +
      "it does not own is refused.\n" +
      "Run it as root. Against `mailserver sandbox`: the command in its JSON line's `check` field, with --account\n" +
      "and --password added (docs/mail-server.md, Sandbox).",
    example: `${CLI} mailserver check --account check@example.org`,
    options: {
      account: {
        type: "string",
        value: "<email>",
        required: true,
        help: "an account to test with (required; a dedicated one is best; with several mail hosts, one placed on this one)",
      },
      password: {
        type: "string",
        value: "<pw>",
        help: "its password, else the environment's CHECK_PASSWORD (which keeps it out of ps); one of the two is required",
      },
      alias: {
        type: "string",
        value: "<address>",
        help: "an alias to look up (default: one of the account's domain, else the account's own entry)",
      },
      "config-dir": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: "the folder `mailserver config` wrote (default /etc/mailadmin)",
      },
      "db-group": {
        type: "string",
        value: "G",
        help: `the database's group (default ${DEFAULT_CONFIG_OPTIONS.dbGroup})`,
      },
      "postfix-config": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: "Postfix's configuration folder (postmap -c; default Postfix's own)",
      },
      "dovecot-config": DOVECOT_CONFIG,
      // Not path: "file": a host:port is no file of the operator's directory (dovecotListener reads it).
      "lmtp-socket": {
        type: "string",
        value: "<path|host:port>",
        help:
          "Dovecot's LMTP: a Unix socket file, or host:port (inet:host:port) for an inet_listener " +
          "(default /var/spool/postfix/private/dovecot-lmtp)",
      },
      "auth-socket": {
        type: "string",
        value: "<path|host:port>",
        help: "Dovecot's auth service for Postfix's SASL, the same two forms (default /var/spool/postfix/private/auth)",
      },
      "rspamd-controller": {
        type: "string",
        value: "<host:port>",
        help: `Rspamd's controller (default ${DEFAULT_ANTISPAM_OPTIONS.rspamdController})`,
      },
      "policy-service": {
        type: "string",
        value: "<host:port>",
        help: `the policy service (default ${DEFAULT_ANTISPAM_OPTIONS.policyService.replace("inet:", "")})`,
      },
      "quota-status": {
        type: "string",
        value: "<host:port>",
        help: `Dovecot's quota-status service (default 127.0.0.1:${DEFAULT_CONFIG_OPTIONS.quotaStatusPort})`,
      },
      "events-url": {
        type: "string",
        value: "<url>",
        help: `\`mailserver events\` (default ${DEFAULT_CONFIG_OPTIONS.eventsUrl})`,
      },
      "dkim-dir": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: `the DKIM key folder (default ${DEFAULT_CONFIG_OPTIONS.dkimDir})`,
      },
      "rspamd-user": {
        type: "string",
        value: "<user>",
        help: "the user Rspamd runs as, which must read the DKIM keys (default _rspamd)",
      },
      "srs-domain": {
        type: "string",
        value: "<domain>",
        help: "postsrsd's domain (default: SRS_DOMAIN of /etc/default/postsrsd, else Postfix's mydomain)",
      },
      submission: {
        type: "string",
        value: "<host:port>",
        help: "the submission port (default 127.0.0.1:SUBMISSION_PORT; TLS from the start on 465, STARTTLS on others)",
      },
      "sms-config": {
        type: "string",
        value: "<file>",
        path: "file",
        help: "the provider's SMS configuration, as `mailserver events` reads it (default SMS_CONFIG, else built-in)",
      },
    },
    async run(ctx, { values }) {
      const password = stringOption(values, "password") || checkPassword();
      if (!password)
        throw new UsageError(`${this.name}: --password or CHECK_PASSWORD is required (docs/deploy.md, step 6)`);
      const pgUrl = postgresUrl();
      if (!pgUrl && !fs.existsSync(databasePath())) throw new Error(`${databasePath()} does not exist (DATABASE_PATH)`);
      const results = await runMailServerCheck(pgUrl ? undefined : ctx.db(), {
        databasePath: databasePath(),
        postgresUrl: pgUrl,
        account: requiredOption(this, values, "account").toLowerCase(),
        password,
        hostName: localMailHost(),
        alias: stringOption(values, "alias"),
        configDir: stringOption(values, "config-dir") ?? "/etc/mailadmin",
        dbGroup: stringOption(values, "db-group") ?? DEFAULT_CONFIG_OPTIONS.dbGroup,
        postfixConfig: stringOption(values, "postfix-config"),
        dovecotConfig: stringOption(values, "dovecot-config"),
        lmtpSocket: dovecotListener(stringOption(values, "lmtp-socket") ?? "/var/spool/postfix/private/dovecot-lmtp"),
        authSocket: dovecotListener(stringOption(values, "auth-socket") ?? "/var/spool/postfix/private/auth"),
        rspamdController: stringOption(values, "rspamd-controller") ?? DEFAULT_ANTISPAM_OPTIONS.rspamdController,
        policyService: stringOption(values, "policy-service") ?? DEFAULT_ANTISPAM_OPTIONS.policyService,
        quotaStatus: stringOption(values, "quota-status") ?? `127.0.0.1:${DEFAULT_CONFIG_OPTIONS.quotaStatusPort}`,
        eventsUrl: (stringOption(values, "events-url") ?? DEFAULT_CONFIG_OPTIONS.eventsUrl).replace(/\/+$/, ""),
        dkimDir: stringOption(values, "dkim-dir") ?? DEFAULT_CONFIG_OPTIONS.dkimDir,
        rspamdUser: stringOption(values, "rspamd-user"),
        srsDomain: stringOption(values, "srs-domain"),
        submission: stringOption(values, "submission") ?? `127.0.0.1:${mailHosts().submission.port}`,
        sms: await smsConfigOf(values),
      });
      const output = results.map(formatCheck).join("\n");
      const failed = results.filter((r) => !r.ok).length;
      if (failed) throw new FailedWithReport(output, `${failed} of ${results.length} checks failed`);
      return `${output}\nall ${results.length} checks passed`;
    },
  },
];
