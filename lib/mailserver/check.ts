import "server-only";
import {
  dkimFiles,
  eventsAnswer,
  quotaStatusAnswers,
  submissionLogin,
  submissionRefusesSender,
  tcpTableAnswers,
  userIds,
} from "./delivery-check";
// `mailserver check`: the operator's self-test of a live installation. Each check asks the running daemons
// themselves (postmap through Postfix's proxymap, doveadm through Dovecot's auth and dict services), so a
// permission or socket problem shows up here the way it would for mail, with the tool's own words as the reason.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Db } from "@/db/client";
import { policyAnswers, rspamdAnswers } from "./antispam-check";
import {
  appConnection,
  configUsesPgsql,
  connectionBudget,
  mailRoleReadOnly,
  mailRoleReads,
  pgDefaultAlias,
  pgQuotaWriteBack,
  readPgsqlMapFile,
  withPgQueries,
} from "./check-pg";
import { runTool, ToolError } from "./run-tool";
import { smsRoute, type SmsConfig } from "./sms/config";
import { mailHosts } from "@/lib/server/resources/dns-records";
import { mailHostSet } from "@/lib/config.mjs";

export interface CheckOptions {
  databasePath: string;
  /** DATABASE_URL when the service runs on PostgreSQL: the database checks are the connection and the mail role. */
  postgresUrl?: string;
  /** The folder `mailserver config --out` wrote (its postfix/*.cf are the tables main.cf names). */
  configDir: string;
  /** The group Postfix and Dovecot share the database through. */
  dbGroup: string;
  /** The account to test with, and its password. */
  account: string;
  password: string;
  /** An alias to look up; by default one of the account's domain, else any, else the account's own entry. */
  alias?: string;
  /** Postfix's configuration folder for postmap -c (default: Postfix's own default). */
  postfixConfig?: string;
  /** Dovecot's configuration file for doveadm -c. */
  dovecotConfig?: string;
  /** Dovecot's LMTP and auth listeners: a Unix socket file or host:port (socketAddress). */
  lmtpSocket: string;
  authSocket: string;
  /** Rspamd's controller and the policy service, host:port. */
  rspamdController: string;
  policyService: string;
  /** Delivery: Dovecot's quota-status (host:port), `mailserver events` (URL), the DKIM key folder. */
  quotaStatus: string;
  eventsUrl: string;
  dkimDir: string;
  /** The submission port mail programs send through, host:port. */
  submission: string;
  /** The user Rspamd runs as, which must read the DKIM keys (default _rspamd, Debian's). */
  rspamdUser?: string;
  /** The domain postsrsd rewrites senders into; read from postsrsd's defaults file when not given. */
  srsDomain?: string;
  postsrsdDefaults?: string;
  /**
   * This host's name among several mail hosts (MAIL_HOST_NAME, docs/mail-hosts.md); undefined on a single mail host.
   * The write-back test saves into the account's mailbox here, so it refuses an account placed on another host.
   */
  hostName?: string;
  /** How long to wait for quota_clone's write (ms). */
  quotaWaitMs?: number;
  /** The provider's SMS configuration, as `mailserver events` loads it (SMS_CONFIG, else the built-in defaults). */
  sms: SmsConfig;
}

export interface CheckResult {
  ok: boolean;
  name: string;
  detail: string;
}

type Check = () => { ok: boolean; detail: string } | Promise<{ ok: boolean; detail: string }>;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Numeric gid of a group (getent group). */
function groupOf(name: string): { gid: number } | undefined {
  try {
    const [, , gid] = runTool("getent", ["group", name], undefined, 10_000).trim().split(":");
    return { gid: Number(gid) };
  } catch {
    return undefined;
  }
}

/**
 * The database folder, file, -wal and -shm must be readable and writable by the group (a WAL reader writes the
 * -shm index, and creates -wal/-shm in the folder when they are missing), or by everyone. When the group is what
 * grants it, postfix and dovecot must be in the group.
 */
function databaseAccess(o: CheckOptions): Check {
  return () => {
    const group = groupOf(o.dbGroup);
    if (!group) return { ok: false, detail: `group ${o.dbGroup} does not exist (--db-group)` };
    const problems: string[] = [];
    let viaGroup = false;
    const needs = (file: string, bits: number, what: string) => {
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        problems.push(`${file} is missing`);
        return;
      }
      const mode = st.mode & 0o7777;
      const byGroup = st.gid === group.gid && ((mode >> 3) & bits) === bits;
      const byOthers = (mode & bits) === bits;
      if (byGroup && !byOthers) viaGroup = true;
      if (!byGroup && !byOthers) {
        problems.push(
          `${file} (mode ${mode.toString(8).padStart(4, "0")}, gid ${st.gid}) is not ${what} by group ${o.dbGroup}`,
        );
      }
    };
    needs(path.dirname(o.databasePath), 7, "writable");
    // This command has the database open, so -wal and -shm exist now (SQLite gives them the database's mode).
    for (const suffix of ["", "-wal", "-shm"]) needs(o.databasePath + suffix, 6, "readable and writable");
    const missing = viaGroup ? ["postfix", "dovecot"].filter((u) => !userIds(u)?.gids.has(group.gid)) : [];
    if (missing.length)
      problems.push(`${missing.join(" and ")} not in group ${o.dbGroup} (usermod -aG ${o.dbGroup} <user>)`);
    return problems.length
      ? { ok: false, detail: problems.join("; ") }
      : { ok: true, detail: `folder, file, -wal and -shm open to group ${o.dbGroup}` };
  };
}

function postmap(o: CheckOptions, table: string, key: string): string | undefined {
  const type = configUsesPgsql(o.configDir) ? "pgsql" : "sqlite";
  const args = [
    ...(o.postfixConfig ? ["-c", o.postfixConfig] : []),
    "-q",
    key,
    `proxy:${type}:${path.join(o.configDir, "postfix", `${table}.cf`)}`,
  ];
  try {
    return runTool("postmap", args, undefined, 30_000).trim();
  } catch (err) {
    // Exit 1 without output: the key is not in the table; anything else (the proxymap's error) is the reason.
    if (err instanceof ToolError && err.status === 1 && err.output.trim() === "") return undefined;
    throw err;
  }
}

function lookup(o: CheckOptions, table: string, key: string, expected?: string): Check {
  return () => {
    const found = postmap(o, table, key);
    if (found === undefined) return { ok: false, detail: `postmap -q ${key} ${table}: not found` };
    if (expected !== undefined && found !== expected)
      return { ok: false, detail: `postmap -q ${key} ${table}: '${found}', expected '${expected}'` };
    return { ok: true, detail: `postmap -q ${key} ${table} -> ${found}` };
  };
}

const postconf = (o: CheckOptions, ...args: string[]) =>
  runTool("postconf", [...(o.postfixConfig ? ["-c", o.postfixConfig] : []), ...args], undefined, 30_000).trim();

/**
 * With SRS on (Postfix's recipient_canonical_maps asks postsrsd), its domain must be one Postfix receives mail
 * for, else every bounce to a forwarded message's SRS0=…@<domain> sender is refused ("Relay access denied"). The
 * domain: --srs-domain, else postsrsd's SRS_DOMAIN (/etc/default/postsrsd), else Postfix's mydomain, as Debian's
 * postsrsd takes it.
 */
function srsDomainReceives(o: CheckOptions): Check {
  return async () => {
    if (!/\btcp:/.test(postconf(o, "-h", "recipient_canonical_maps")))
      return { ok: true, detail: "SRS is off (recipient_canonical_maps has no postsrsd table)" };
    // postsrsd itself: Postfix asks its tables about every sender and recipient, and while they do not answer it
    // refuses every recipient with 451 4.3.0 "Temporary lookup failure" (nothing is delivered).
    const tables = new Set(
      ["sender_canonical_maps", "recipient_canonical_maps"].flatMap(
        (name) => postconf(o, "-h", name).match(/\btcp:[^\s,]+/g) ?? [],
      ),
    );
    for (const table of tables) {
      const r = await tcpTableAnswers(table, o.account);
      if (!r.ok)
        return {
          ok: false,
          detail:
            `postsrsd: ${r.detail}: Postfix refuses every recipient with 451 4.3.0 Temporary lookup failure while ` +
            "its tables do not answer (start postsrsd; mailserver config --srs-domain none turns SRS off)",
        };
    }
    let domain = o.srsDomain;
    if (!domain && fs.existsSync(o.postsrsdDefaults ?? "/etc/default/postsrsd"))
      domain = /^\s*SRS_DOMAIN=["']?([^"'\s#]+)/m.exec(
        fs.readFileSync(o.postsrsdDefaults ?? "/etc/default/postsrsd", "utf8"),
      )?.[1];
    domain = (domain || postconf(o, "-h", "mydomain")).toLowerCase();
    const destinations = postconf(o, "-x", "-h", "mydestination")
      .split(/[\s,]+/)
      .map((d) => d.toLowerCase());
    if (destinations.includes(domain)) return { ok: true, detail: `${domain} is in mydestination` };
    if (postmap(o, "virtual-mailbox-domains", domain) !== undefined)
      return { ok: true, detail: `${domain} is a hosted domain` };
    return {
      ok: false,
      detail:
        `SRS domain ${domain} is neither in mydestination (${destinations.join(", ")}) nor hosted: bounces to ` +
        "SRS addresses would be refused; use the host's name (postsrsd's SRS_DOMAIN)",
    };
  };
}

/**
 * Postfix removes the X-Mailadmin-* headers a message arrives with (main.cf's header_checks, the generated
 * inbound-header-checks), and sendmail's path keeps them (pickup's receive_override_options in master.cf): without
 * the first a sender's own header is trusted while Rspamd does not answer; without the second a forward to an
 * account here loses the headers of its first delivery (docs/mail-server.md, "Internal headers").
 */
function internalHeaders(o: CheckOptions): Check {
  return () => {
    const file = path.join(o.configDir, "postfix", "inbound-header-checks");
    const checks = postconf(o, "-h", "header_checks");
    const pickup = postconf(o, "-P", "-h", "pickup/unix/receive_override_options");
    const problems: string[] = [];
    if (!checks.split(/[\s,]+/).some((map) => map.endsWith(`:${file}`)))
      problems.push(`header_checks is '${checks}', not ${file}: rerun the postconf line of docs/deploy.md, step 5`);
    if (!/\bno_header_body_checks\b/.test(pickup))
      problems.push(
        "pickup does not skip them (forwards would lose their X-Mailadmin headers): " +
          "postconf -P pickup/unix/receive_override_options=no_header_body_checks",
      );
    return problems.length
      ? { ok: false, detail: problems.join("; ") }
      : { ok: true, detail: `removed on arrival (${file}), kept by sendmail's pickup` };
  };
}

/**
 * Postfix's lmtp service writes X-Original-To on each delivery (flags=O in master.cf; the snippet sets one recipient
 * per delivery), which Dovecot reads as the original recipient: without it the autoresponder does not answer mail
 * that a catchall of type 1 or 2 brought (docs/mail-server.md, "Autoresponder").
 */
function originalRecipientHeader(o: CheckOptions): Check {
  return () => {
    // Not -h: postconf -F -h prints the command's words without the spaces between them.
    const command = postconf(o, "-F", "lmtp/unix/command")
      .replace(/^[^=]*=\s*/, "")
      .replace(/\s+/g, " ");
    return /\bflags=\S*O/.test(command)
      ? { ok: true, detail: `the lmtp service writes X-Original-To (${command})` }
      : {
          ok: false,
          detail:
            `the lmtp service runs '${command}', without flags=O: mail a catchall of type 1 or 2 brings gets no ` +
            "autoresponder reply; postconf -F 'lmtp/unix/command=lmtp flags=O' (docs/deploy.md, step 5)",
        };
  };
}

/**
 * Postfix runs every setting of the generated main.cf.snippet: a release that adds or changes one of its lines (a new
 * restriction, a map) protects nothing until the snippet is applied again, and `postfix reload` alone does not do it.
 * Compared as `postconf` prints them, whitespace runs as one space.
 */
export function snippetApplied(o: CheckOptions): Check {
  return () => {
    const file = path.join(o.configDir, "postfix", "main.cf.snippet");
    const norm = (v: string) => v.trim().replace(/\s+/g, " ");
    const wanted = new Map<string, string>();
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const m = /^([a-z0-9_]+)\s*=(.*)$/.exec(line);
      if (m) wanted.set(m[1]!, norm(m[2]!));
    }
    const running = new Map<string, string>();
    for (const line of postconf(o, ...wanted.keys()).split("\n")) {
      const m = /^([a-z0-9_]+) =(.*)$/.exec(line);
      if (m) running.set(m[1]!, norm(m[2]!));
    }
    const differ = [...wanted].filter(([name, value]) => running.get(name) !== value).map(([name]) => name);
    // postconf prints no parameter of the snippet's own (not Postfix's) that no service of master.cf names: Postfix
    // ignores it ("unused parameter"), and rerunning the postconf line changes nothing. The one such setting is
    // mua_sender_restrictions, which only the submission services' -o smtpd_sender_restrictions applies.
    const mainCf = fs.readFileSync(
      path.join(o.postfixConfig ?? postconf(o, "-h", "config_directory"), "main.cf"),
      "utf8",
    );
    const unused = differ.filter((name) => !running.has(name) && new RegExp(`^${name}\\s*=`, "m").test(mainCf));
    const stale = differ.filter((name) => !unused.includes(name));
    const problems = [
      ...(stale.length
        ? [
            `main.cf differs from ${file} in ${stale.join(", ")}: rerun the postconf line of docs/deploy.md, step 5, then postfix reload`,
          ]
        : []),
      ...(unused.length
        ? [
            `${unused.join(", ")} set in main.cf but used by no service of master.cf, so Postfix ignores ` +
              (unused.length > 1 ? "them" : "it") +
              (unused.includes("mua_sender_restrictions")
                ? ": add -o smtpd_sender_restrictions=$mua_sender_restrictions to the submission services " +
                  "(docs/deploy.md, step 5), then postfix reload"
                : ""),
          ]
        : []),
    ];
    return problems.length
      ? { ok: false, detail: problems.join("; ") }
      : { ok: true, detail: `all ${wanted.size} settings of ${file}` };
  };
}

/**
 * The services of master.cf that take logins (`-o smtpd_sasl_auth_enable=yes`) without the sender rule
 * (`-o smtpd_sender_restrictions=$mua_sender_restrictions`): the live check tries only the one submission port the
 * mail programs' settings name, and port 587 is often opened too (docs/deploy.md, step 5). As `postconf -P` names them,
 * `submission/inet`.
 */
export function loginServicesWithoutSenderRule(o: CheckOptions): string[] {
  const overrides = new Map<string, Map<string, string>>();
  for (const line of postconf(o, "-P").split("\n")) {
    const m = /^(.+\/[a-z-]+)\/([a-z0-9_]+) =(.*)$/.exec(line);
    if (!m) continue;
    if (!overrides.has(m[1]!)) overrides.set(m[1]!, new Map());
    overrides.get(m[1]!)!.set(m[2]!, m[3]!.trim());
  }
  return [...overrides]
    .filter(([, params]) => params.get("smtpd_sasl_auth_enable") === "yes")
    .filter(
      ([, params]) =>
        !/\$\{?mua_sender_restrictions\b|sender_login_mismatch/.test(params.get("smtpd_sender_restrictions") ?? ""),
    )
    .map(([service]) => service);
}

/**
 * Address extensions are off (the snippet's `recipient_delimiter =`): with Debian's `+`, Postfix delivers jan+tag@
 * to jan while the policy service decides on the exact address, past jan's black list and the sending limit.
 */
function noAddressExtensions(o: CheckOptions): Check {
  return () => {
    const delimiter = postconf(o, "-h", "recipient_delimiter");
    return delimiter
      ? {
          ok: false,
          detail:
            `recipient_delimiter is '${delimiter}': mail to jan${delimiter[0]}tag@ would reach jan past jan's black list; ` +
            "rerun the postconf line of docs/deploy.md, step 5 (the snippet clears it)",
        }
      : { ok: true, detail: "recipient_delimiter is empty" };
  };
}

/**
 * Mail composed on this host (vacation replies) is DKIM-signed by Rspamd's signing worker, which Postfix's
 * non_smtpd_milters names and the generated rspamd.conf.local defines: without that link Rspamd runs no such worker,
 * Postfix logs a refused milter connection and the replies leave unsigned (docs/mail-server.md, DKIM).
 */
function signingWorkerListens(o: CheckOptions): Check {
  return () => {
    const milter = postconf(o, "-h", "non_smtpd_milters");
    const at = /^inet:(.+):(\d+)$/.exec(milter.trim());
    if (!at)
      return Promise.resolve({
        ok: false,
        detail: `non_smtpd_milters is '${milter}', not Rspamd's signing worker: rerun the postconf line of docs/deploy.md, step 5`,
      });
    const [host, port] = [at[1]!, Number(at[2])];
    return accepts(
      { host, port },
      `${host}:${port} (non_smtpd_milters)`,
      (err) =>
        `${err.code ?? err.message}: link ${path.join(o.configDir, "rspamd", "rspamd.conf.local")} to ` +
        "/etc/rspamd/rspamd.conf.local and restart Rspamd",
    );
  };
}

/** Whether something accepts a connection at `to` within 5 s; `failed` words a connection error. */
function accepts(
  to: net.NetConnectOpts,
  name: string,
  failed: (err: NodeJS.ErrnoException) => string,
): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const client = net.connect(to);
    client.setTimeout(5000, () => {
      client.destroy();
      resolve({ ok: false, detail: `${name}: no answer within 5 s` });
    });
    client.once("connect", () => {
      client.destroy();
      resolve({ ok: true, detail: `${name} accepts connections` });
    });
    client.once("error", (err: NodeJS.ErrnoException) => resolve({ ok: false, detail: `${name}: ${failed(err)}` }));
  });
}

/**
 * MAIL_HOST is every hosted domain's MX and the mail programs' server name (the DNS page, autoconfig): unset, it is
 * the machine's own name, which on Debian is a short one ("mx") that no one else can resolve. Postfix greets other
 * servers with myhostname, Debian's default the same short name, which receivers refuse or score.
 */
function hostNamesAreDomainNames(o: CheckOptions): Check {
  return () => {
    const mx = mailHosts().mx;
    const greets = postconf(o, "-h", "myhostname");
    const problems: string[] = [];
    if (!mx.includes("."))
      problems.push(
        `MAIL_HOST is '${mx}'${mailHostSet() ? "" : " (the machine's name; MAIL_HOST is not set)"}, not a domain ` +
          "name: set MAIL_HOST=<this host's name in DNS> in service.env; every domain's MX record and the mail " +
          "programs' settings name it",
      );
    if (!greets.includes("."))
      problems.push(
        `Postfix's myhostname is '${greets}', not a domain name: postconf -e myhostname=<this host's name in DNS>`,
      );
    return problems.length
      ? { ok: false, detail: problems.join("; ") }
      : { ok: true, detail: `the domains' MX and the mail programs' server ${mx}; Postfix greets as ${greets}` };
  };
}

const doveadm = (o: Pick<CheckOptions, "dovecotConfig">, args: string[], input?: string) =>
  runTool("doveadm", [...(o.dovecotConfig ? ["-c", o.dovecotConfig] : []), ...args], input, 30_000);

/**
 * Where `--lmtp-socket` and `--auth-socket` point: host:port (optionally `inet:host:port`, as Postfix writes
 * `lmtp:inet:host:port` and `inet:host:port`) is TCP, anything else a Unix socket file. The one rule: a value
 * without a `/` that ends in `:<digits>` is TCP (a socket file's path is absolute once the CLI has read it).
 */
export function socketAddress(value: string): { path: string } | { host: string; port: number } {
  const m = /^(?:inet:)?([^/]+):(\d+)$/.exec(value);
  if (!m) return { path: value };
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw new Error(`${value}: port ${m[2]} is not 1-65535`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, "$1"), port };
}

/**
 * A daemon accepts connections at `value` (socketAddress): on TCP at host:port; on a Unix socket, the file exists
 * and is a socket too (a stopped Dovecot leaves its socket files).
 */
export function socketAccepts(value: string, service: string, purpose = ""): Check {
  return async () => {
    const to = socketAddress(value);
    const refused = (err: NodeJS.ErrnoException) =>
      `${err.code ?? err.message}${err.code === "ECONNREFUSED" ? " (nothing listens: is Dovecot running?)" : ""}`;
    if ("host" in to) return accepts(to, `${to.host}:${to.port}`, refused);
    try {
      if (!fs.statSync(to.path).isSocket()) return { ok: false, detail: `${to.path} is not a socket` };
    } catch {
      return { ok: false, detail: `${to.path} does not exist (${service} unix_listener${purpose})` };
    }
    return accepts(to, to.path, refused);
  };
}

/**
 * Removes the account's usage row, then saves a marked message into its inbox and expunges it again with doveadm:
 * both change the quota, so quota_clone must write the row again through the dict service (the account's usage
 * columns keep their value meanwhile: only an insert or update of mail_quota copies into them).
 */
/** The marked message saved and expunged again: a quota change for quota_clone to write. */
function quotaChange(o: Pick<CheckOptions, "account" | "dovecotConfig">): void {
  const token = `${process.pid}-${Date.now()}`;
  const message = `From: <postmaster@localhost>\nSubject: mailserver check\nX-Mailadmin-Check: ${token}\n\nA test message of \`mailserver check\`, removed at once.\n`;
  doveadm(o, ["save", "-u", o.account, "-m", "INBOX"], message);
  doveadm(o, ["expunge", "-u", o.account, "mailbox", "INBOX", "header", "X-Mailadmin-Check", token]);
}

/**
 * Why the write-back test must not run here, or undefined when it may: the account's mailbox (its own placement, else
 * its domain's, docs/mail-hosts.md) lives on another mail host than this one. doveadm on this host would save into a
 * local copy (the userdb serves doveadm locally, for a move's sync), create a stray Maildir here, and its
 * quota_clone would overwrite the owner's usage with the copy's: 0 bytes, 0 messages, reported as a pass.
 */
export async function placedElsewhere(
  db: Db | undefined,
  o: Pick<CheckOptions, "account" | "hostName" | "postgresUrl">,
): Promise<string | undefined> {
  const placement =
    "SELECT COALESCE(a.mail_host, d.mail_host) AS host FROM accounts a JOIN domains d ON d.id = a.domain_id WHERE a.email = $1";
  if (!o.postgresUrl && !db) throw new Error("no database");
  const [row] = o.postgresUrl
    ? await withPgQueries(o.postgresUrl, (query) => query<{ host: string | null }>(placement, [o.account]))
    : [db?.$client.prepare(placement.replace("$1", "?")).get(o.account) as { host: string | null } | undefined];
  const host = row?.host;
  if (!host || host === o.hostName) return undefined;
  const where = o.hostName
    ? `not on this host (${o.hostName}, MAIL_HOST_NAME)`
    : "and this host has no MAIL_HOST_NAME (docs/mail-hosts.md)";
  const todo = o.hostName
    ? `check with a test account of this host (one with no mail of its own: account set-mail-host <email> --mail-host ${o.hostName} moves where its mail goes, not the mail), or run it on ${host}`
    : `set MAIL_HOST_NAME=<this host's name> in /etc/mailadmin/service.env, or run the check on ${host}`;
  return (
    `${o.account}'s mailbox lives on mail host ${host}, ${where}: a doveadm save here would create a stray copy and ` +
    `overwrite its usage, so nothing was written; ${todo}`
  );
}

export function quotaWriteBack(
  db: Db | undefined,
  o: Pick<CheckOptions, "account" | "hostName" | "postgresUrl" | "quotaWaitMs" | "dovecotConfig">,
): Check {
  return async () => {
    const elsewhere = await placedElsewhere(db, o);
    if (elsewhere) return { ok: false, detail: elsewhere };
    if (o.postgresUrl) return pgQuotaWriteBack(o.postgresUrl, o.account, () => quotaChange(o), o.quotaWaitMs);
    if (!db) throw new Error("no database");
    const row = db.$client.prepare("SELECT bytes, messages FROM mail_quota WHERE username = ?");
    db.$client.prepare("DELETE FROM mail_quota WHERE username = ?").run(o.account);
    quotaChange(o);
    const end = Date.now() + (o.quotaWaitMs ?? 5000);
    for (;;) {
      const written = row.get(o.account) as { bytes: number; messages: number } | undefined;
      if (written)
        return { ok: true, detail: `usage written back: ${written.bytes} bytes, ${written.messages} messages` };
      if (Date.now() > end)
        return {
          ok: false,
          detail: `no usage row for ${o.account} after a doveadm save and expunge (quota_clone, dict service, database permissions?)`,
        };
      sleep(100);
    }
  };
}

/** A deleted account's mailbox still recorded after this long: no `mailserver events` removes it. */
export const REMOVAL_OVERDUE_MS = 60_000;
/** How long overdue removals are watched for progress: longer than `mailserver events`' pass interval (5 s). */
export const REMOVAL_PROGRESS_MS = 8_000;

/**
 * Every deleted account's mailbox removed within REMOVAL_OVERDUE_MS, on whichever host held it (removed-mailboxes.ts).
 * A large domain's removal takes minutes (about 1,100 folders a second in the sandbox): overdue ones that go while
 * watched for REMOVAL_PROGRESS_MS, on every host that has some, are a removal under way, not a stopped service.
 */
export function removalsDone(db: Db | undefined, pgUrl: string | undefined): Check {
  const byHost =
    "SELECT coalesce(host, '') AS host, count(*) AS n FROM removed_mailboxes WHERE removed_at < $1 GROUP BY coalesce(host, '')";
  const oldest =
    "SELECT email FROM removed_mailboxes WHERE removed_at < $1 AND coalesce(host, '') = $2 ORDER BY id LIMIT 1";
  type Query = <R>(text: string, values: unknown[]) => Promise<R[]>;
  const watch = async (query: Query) => {
    const before = Date.now() - REMOVAL_OVERDUE_MS;
    const counts = async () =>
      new Map((await query<{ host: string; n: number | string }>(byHost, [before])).map((r) => [r.host, Number(r.n)]));
    const first = await counts();
    const waiting = [...first.values()].reduce((a, b) => a + b, 0);
    if (waiting === 0) return { ok: true, detail: "none waits longer than a minute" };
    const started = Date.now();
    let stuck = [...first.keys()];
    let left = waiting;
    while (Date.now() - started < REMOVAL_PROGRESS_MS) {
      await new Promise((r) => setTimeout(r, 500));
      const now = await counts();
      stuck = stuck.filter((host) => (now.get(host) ?? 0) >= first.get(host)!);
      left = [...now.values()].reduce((a, b) => a + b, 0);
      if (stuck.length === 0)
        return {
          ok: true,
          detail:
            `${waiting} waited longer than a minute and ${waiting > 1 ? "are" : "is"} being removed ` +
            `(${waiting - left} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${left} left)`,
        };
    }
    // Every host that made no progress, up to five, each with its oldest record (and its count when several).
    const named = stuck.sort().slice(0, 5);
    const oldestOf = await Promise.all(
      named.map(async (host) => {
        const [row] = await query<{ email: string }>(oldest, [before, host]);
        const where = host ? `on mail host ${host}` : "placed on no host";
        return `${row?.email ?? "?"} (${where}${stuck.length > 1 ? `, ${first.get(host)!} waiting` : ""})`;
      }),
    );
    const n = stuck.reduce((sum, host) => sum + first.get(host)!, 0);
    return {
      ok: false,
      detail:
        `${n} wait${n > 1 ? "" : "s"} longer than a minute, none removed in ${REMOVAL_PROGRESS_MS / 1000} s, ` +
        `the oldest ${oldestOf.join(", ")}${stuck.length > named.length ? `, and ${stuck.length - named.length} more host(s)` : ""}: ` +
        `is \`mailserver events\` running${stuck.length > 1 ? " on each" : ""}? Until it removes them, an account created ` +
        `again under those addresses cannot log in (docs/mail-server.md, "Deleted accounts' mailboxes")`,
    };
  };
  return async () => {
    if (pgUrl) return withPgQueries(pgUrl, watch);
    if (!db) throw new Error("no database");
    return watch(<R>(text: string, values: unknown[]) =>
      Promise.resolve(db.$client.prepare(text.replace(/\$\d/g, "?")).all(...values) as R[]),
    );
  };
}

/**
 * Every SMS number of an account that may be notified has a gateway in the provider's SMS configuration (the queue's
 * own rule, smsRoute). Without one each notification is stored as failed while the panel shows the number as set.
 * A number the account's owner got wrong (no operator known for it) is the owner's to fix and fails nothing.
 */
export function smsGateways(db: Db | undefined, pgUrl: string | undefined, config: SmsConfig): Check {
  const numbers =
    "SELECT email, sms_send_to, sms_phone_number_1, sms_operator_1, sms_phone_number_2, sms_operator_2 FROM accounts " +
    "WHERE blocked = 0 AND (trim(sms_phone_number_1) <> '' OR trim(sms_phone_number_2) <> '')";
  type Row = Record<"email" | "sms_phone_number_1" | "sms_phone_number_2", string> &
    Record<"sms_send_to" | "sms_operator_1" | "sms_operator_2", number | string>;
  const judge = (rows: Row[]) => {
    let total = 0;
    const ways = { email: 0, http: 0 };
    const missing: string[] = [];
    const ownersToFix: string[] = [];
    for (const r of rows) {
      for (const [number, operator] of [
        [r.sms_phone_number_1, r.sms_operator_1],
        [r.sms_phone_number_2, r.sms_operator_2],
      ] as const) {
        if (number.trim() === "") continue;
        total++;
        const route = smsRoute(config, Number(r.sms_send_to), number.trim(), Number(operator));
        if (!("error" in route)) ways[route.channel]++;
        else (route.provider ? missing : ownersToFix).push(`${r.email}: ${route.error}`);
      }
    }
    if (total === 0) return { ok: true, detail: "no account has an SMS number" };
    const owners = ownersToFix.length ? `; ${ownersToFix.length} its owner must fix, the first ${ownersToFix[0]}` : "";
    if (missing.length === 0)
      return {
        ok: true,
        detail:
          `${ways.http + ways.email} of ${total} number(s) of ${rows.length} account(s) have one ` +
          `(${ways.http} HTTP, ${ways.email} e-mail)${owners}`,
      };
    return {
      ok: false,
      detail:
        `${missing.length} of ${total} number(s) have none, so their notifications fail: ` +
        `${missing.slice(0, 3).join("; ")}${missing.length > 3 ? "; ..." : ""} ` +
        `(SMS_CONFIG or --sms-config, the file \`mailserver events\` reads; docs/mail-server.md, "SMS notifications")`,
    };
  };
  return async () => {
    if (pgUrl) return withPgQueries(pgUrl, async (query) => judge(await query<Row>(numbers, [])));
    if (!db) throw new Error("no database");
    return judge(db.$client.prepare(numbers).all() as Row[]);
  };
}

function defaultAlias(db: Db, account: string): string | undefined {
  const domain = account.slice(account.indexOf("@") + 1);
  const pick = db.$client.prepare(
    "SELECT a.name || '@' || d.name AS address FROM aliases a JOIN domains d ON d.id = a.domain_id ORDER BY d.name <> ?, a.id LIMIT 1",
  );
  return (pick.get(domain) as { address: string } | undefined)?.address;
}

/** `db` is the SQLite database; on PostgreSQL (o.postgresUrl) it is not used. */
export async function runMailServerCheck(db: Db | undefined, o: CheckOptions): Promise<CheckResult[]> {
  const [name, domain] = o.account.split("@") as [string, string | undefined];
  const alias =
    o.alias ?? (o.postgresUrl ? await pgDefaultAlias(o.postgresUrl, o.account) : db && defaultAlias(db, o.account));
  const pgUrl = o.postgresUrl;
  const mapFile = path.join(o.configDir, "postfix", "virtual-mailbox-maps.cf");
  // Written when the read hosts are replicas: what they do not know yet is asked of the primary (config-database.ts).
  const primaryMapFile = path.join(o.configDir, "postfix", "virtual-mailbox-maps-primary.cf");
  const databaseChecks: [string, Check][] = pgUrl
    ? [
        ["PostgreSQL connection (DATABASE_URL)", () => appConnection(pgUrl)],
        ["PostgreSQL connections fit max_connections", () => connectionBudget(pgUrl)],
        ["mail role reads the views on every read host", () => mailRoleReads(readPgsqlMapFile(mapFile))],
        ...(fs.existsSync(primaryMapFile)
          ? ([
              [
                "mail role reads the views on the primary (new mailboxes the replica does not know yet)",
                () => mailRoleReads(readPgsqlMapFile(primaryMapFile)),
              ],
            ] as [string, Check][])
          : []),
        ["mail role is read-only", () => mailRoleReadOnly(pgUrl, readPgsqlMapFile(mapFile).user)],
      ]
    : [["database readable by the mail group", databaseAccess(o)]];
  const checks: [string, Check][] = [
    ...databaseChecks,
    ["postmap finds the domain", lookup(o, "virtual-mailbox-domains", domain ?? "", domain)],
    ["postmap finds the mailbox", lookup(o, "virtual-mailbox-maps", o.account, `${domain}/${name}/`)],
    // Without any alias, the account's own row of the table (every account maps to itself) is looked up.
    ["postmap finds an alias", lookup(o, "virtual-alias-maps", alias ?? o.account)],
    [
      "doveadm user",
      () => ({ ok: true, detail: doveadm(o, ["user", "-f", "quota_rule", o.account]).trim() || "found" }),
    ],
    [
      "doveadm auth test",
      () => {
        let out: string;
        try {
          out = doveadm(o, ["auth", "test", "-x", "no-penalty", o.account, o.password]);
        } catch (err) {
          // The failure quotes doveadm's command line: not the password (CHECK_PASSWORD keeps it out of the shell's).
          throw err instanceof Error ? new Error(err.message.split(o.password).join("<password>")) : err;
        }
        return /auth succeeded/.test(out) ? { ok: true, detail: "auth succeeded" } : { ok: false, detail: out.trim() };
      },
    ],
    ["LMTP socket", socketAccepts(o.lmtpSocket, "Dovecot's service lmtp")],
    ["auth socket", socketAccepts(o.authSocket, "Dovecot's service auth", " for Postfix's SASL")],
    ["quota_clone writes usage back", quotaWriteBack(db, o)],
    ["Rspamd answers", rspamdAnswers(o.rspamdController)],
    ["policy service answers", policyAnswers(o.policyService)],
    ["quota-status answers at RCPT", quotaStatusAnswers(o.quotaStatus, o.account)],
    ["mail events service answers", eventsAnswer(o.eventsUrl)],
    ["deleted accounts' mailboxes removed", removalsDone(db, o.postgresUrl)],
    ["SMS numbers have a gateway", smsGateways(db, o.postgresUrl, o.sms)],
    ["main.cf has the snippet's settings", snippetApplied(o)],
    ["X-Mailadmin headers removed on arrival", internalHeaders(o)],
    ["lmtp writes X-Original-To", originalRecipientHeader(o)],
    ["no address extensions (recipient_delimiter)", noAddressExtensions(o)],
    ["Rspamd's signing worker answers", signingWorkerListens(o)],
    ["SRS domain receives mail here", srsDomainReceives(o)],
    ["MAIL_HOST and myhostname are domain names", hostNamesAreDomainNames(o)],
    ["DKIM key for the account's domain", dkimFiles(o.dkimDir, domain ?? "", o.rspamdUser ?? "_rspamd")],
    ["submission port takes a login over TLS", submissionLogin(o.submission, o.account, o.password)],
    [
      "submission port refuses a sender the login does not own",
      async () => {
        const tried = await submissionRefusesSender(o.submission, o.account, o.password)();
        const lacking = tried.ok ? loginServicesWithoutSenderRule(o) : [];
        return !lacking.length
          ? tried
          : {
              ok: false,
              detail:
                `${tried.detail}; but ${lacking.join(", ")} of master.cf take${lacking.length > 1 ? "" : "s"} logins ` +
                "without -o smtpd_sender_restrictions=$mua_sender_restrictions: " +
                lacking
                  .map((service) => `postconf -P '${service}/smtpd_sender_restrictions=$mua_sender_restrictions'`)
                  .join(", ") +
                " (docs/deploy.md, step 5), then postfix reload",
            };
      },
    ],
  ];
  const results: CheckResult[] = [];
  for (const [label, check] of checks) {
    try {
      const { ok, detail } = await check();
      results.push({ ok, name: label, detail });
    } catch (err) {
      results.push({ ok: false, name: label, detail: (err as Error).message });
    }
  }
  return results;
}

export const formatCheck = (r: CheckResult) => `${r.ok ? "✓" : "✗"} ${r.name}: ${r.detail}`;
