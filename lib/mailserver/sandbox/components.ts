// The sandbox's components, in start order (stopped in reverse). Each one: the Debian packages it needs, the files
// it writes under the sandbox folder, how it starts, the probe that says it answers, and how it stops. To add a
// service, append an entry (ports go into SANDBOX_PORTS in sandbox.ts).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseGreylist, Greylist } from "../policy/greylist";
import { startPolicyServer } from "../policy/policy-server";
import { SpamPolicy } from "../policy/spam-policy";
import { smsConfigPath } from "@/lib/config.mjs";
import { LIST_SERVICE_DEFAULTS } from "@/lib/lists/options";
import { startListService } from "@/lib/lists/service";
import { startDnsServer } from "./dns-server";
import { openSandboxDb } from "./database";
import { startOutboundSink } from "./outbound-sink";
import { publishHostedDomains } from "./publish-dns";
import { connects, Daemon, greets } from "./processes";
import { writeDovecotConfig, writePostfixConfig } from "./daemon-config";
import { daemonHandle, groupId, inProcess, logFile, userId, type SandboxComponent } from "./component";
import { rspamd } from "./rspamd";

/** The RBL zone the sandbox's policy service asks (its records go into the DNS file). */
export const SANDBOX_RBL_ZONE = "rbl.sandbox.test";

/** The loopback DNS resolver whose records a test writes (SPF, RBL), and with --publish-dns the domains' own. */
const dns: SandboxComponent = {
  name: "dns",
  packages: [],
  async start(ctx) {
    if (ctx.options.publishDns) {
      const { db, close } = await openSandboxDb(ctx.options.databasePath, ctx.options.postgres);
      try {
        ctx.log(`published ${await publishHostedDomains(db, ctx.layout.dnsRecords)} DNS records of the hosted domains`);
      } finally {
        await close();
      }
    }
    const server = await startDnsServer(ctx.layout.dnsRecords, ctx.ports.dns);
    return inProcess(() => server.close());
  },
  ready: () => Promise.resolve(true),
};

const redis: SandboxComponent = {
  name: "redis",
  packages: ["redis-server"],
  files(ctx) {
    fs.mkdirSync(ctx.layout.redis, { recursive: true });
    execFileSync("chown", ["redis:redis", ctx.layout.redis]);
  },
  start(ctx) {
    const d = new Daemon(
      "redis",
      "redis-server",
      [
        "--bind",
        "127.0.0.1",
        "--port",
        String(ctx.ports.redis),
        "--dir",
        ctx.layout.redis,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--logfile",
        "",
      ],
      logFile(ctx, "redis"),
      { uid: userId("redis"), gid: groupId("redis"), cwd: ctx.layout.redis },
    );
    return daemonHandle(d);
  },
  ready: (ctx) => greets(ctx.ports.redis, /\+PONG/, "PING\r\n"),
};

/** The policy service Postfix asks at RCPT (the same code as `mailserver policy`), reading the database. */
const policy: SandboxComponent = {
  name: "policy",
  packages: [],
  async start(ctx) {
    const { db, close: closeDb } = await openSandboxDb(ctx.options.databasePath, ctx.options.postgres);
    // As `mailserver policy` without --state: the shared table on PostgreSQL, the host's own file on SQLite.
    const greylist = ctx.options.postgres
      ? new DatabaseGreylist(db)
      : new Greylist(path.join(ctx.layout.policy, "greylist.db"));
    const log = path.join(ctx.layout.logs, "policy.log");
    const writeLog = (line: string) => fs.appendFileSync(log, `${new Date().toISOString()} ${line}\n`);
    const decider = new SpamPolicy({
      db,
      greylist,
      greylistDelayS: ctx.greylistDelayS,
      rblZones: [SANDBOX_RBL_ZONE],
      defaults: ctx.options.defaults,
      dnsServers: [`127.0.0.1:${ctx.ports.dns}`],
      now: ctx.options.clock,
      quotaStatus: { host: "127.0.0.1", port: ctx.ports.quota_status },
      log: writeLog,
    });
    const server = await startPolicyServer(
      (req) => decider.decide(req),
      { host: "127.0.0.1", port: ctx.ports.policy },
      writeLog,
    );
    return inProcess(async () => {
      await server.close();
      greylist.close();
      await closeDb();
    });
  },
  ready: () => Promise.resolve(true),
};

/** The list service (`lists serve`, docs/lists.md) in this process: LMTP for list addresses, its pages. */
const lists: SandboxComponent = {
  name: "lists",
  packages: [],
  async start(ctx) {
    const { db, close: closeDb } = await openSandboxDb(ctx.options.databasePath, ctx.options.postgres);
    const log = path.join(ctx.layout.logs, "lists.log");
    const service = await startListService({
      db,
      lmtp: { host: "127.0.0.1", port: ctx.ports.lists_lmtp },
      http: { host: "127.0.0.1", port: ctx.ports.lists_http },
      publicUrl: `http://127.0.0.1:${ctx.ports.lists_http}`,
      sendmail: "/usr/sbin/sendmail",
      // Copies go through a listener of their own (trusted, no milter), as production's LISTS_SMTP listener.
      smtp: { host: "127.0.0.1", port: ctx.ports.lists_smtp },
      smtpConnections: LIST_SERVICE_DEFAULTS.smtpConnections,
      postfixConfig: ctx.layout.postfix,
      spoolDir: path.join(ctx.layout.root, "lists-spool"),
      batchSize: LIST_SERVICE_DEFAULTS.batchSize,
      heldDays: LIST_SERVICE_DEFAULTS.heldDays,
      requestsPerHour: LIST_SERVICE_DEFAULTS.requestsPerHour,
      tokenHours: LIST_SERVICE_DEFAULTS.tokenHours,
      pollMs: 500,
      log: (line) => fs.appendFileSync(log, `${new Date().toISOString()} ${line}\n`),
    });
    ctx.listService = service;
    return inProcess(async () => {
      await service.close();
      await closeDb();
    });
  },
  ready: (ctx) => greets(ctx.ports.lists_lmtp, /^220 /m),
};

const outbound: SandboxComponent = {
  name: "outbound",
  packages: [],
  async start(ctx) {
    const sink = await startOutboundSink(ctx.layout.outbound, ctx.ports.outbound);
    return inProcess(() => sink.close());
  },
  ready: (ctx) => greets(ctx.ports.outbound, /^220 /m),
};

const dovecot: SandboxComponent = {
  name: "dovecot",
  packages: ["dovecot-core", "dovecot-imapd", "dovecot-pop3d", "dovecot-lmtpd", "dovecot-sqlite", "dovecot-sieve"],
  files: writeDovecotConfig,
  start(ctx) {
    const d = new Daemon("dovecot", "dovecot", ["-F", "-c", ctx.layout.dovecotConf], logFile(ctx, "dovecot-master"));
    return daemonHandle(d);
  },
  ready: async (ctx) =>
    (await greets(ctx.ports.imap, /^\* OK/m)) &&
    (await greets(ctx.ports.pop3, /^\+OK/m)) &&
    (await greets(ctx.ports.lmtp, /^220 /m)),
};

const postfix: SandboxComponent = {
  name: "postfix",
  packages: ["postfix", "postfix-sqlite"],
  // Without the auth service the submission smtpd exits "fatal: no SASL authentication mechanisms" at each
  // connection and the master throttles it: the port never greets.
  needs: { dovecot: "its SASL authentication on the submission port" },
  files(ctx) {
    writePostfixConfig(ctx);
    // What Debian's postfix.service runs before starting: copies /etc/resolv.conf, hosts, services... into the chroot.
    execFileSync("/usr/lib/postfix/configure-instance.sh", ["-"], {
      env: { ...process.env, MAIL_CONFIG: ctx.layout.postfix },
      stdio: "ignore",
    });
  },
  start(ctx) {
    const dir = ctx.layout.postfix;
    // start-fg: postfix-script keeps running while the master does, so the master stays our descendant.
    const d = new Daemon("postfix", "postfix", ["-c", dir, "start-fg"], logFile(ctx, "postfix-master"));
    return daemonHandle(d, async () => {
      try {
        execFileSync("postfix", ["-c", dir, "stop"], { stdio: "ignore", timeout: 20_000 });
      } catch {
        // not running any more
      }
      await d.stop(15_000);
    });
  },
  ready: async (ctx) =>
    (await greets(ctx.ports.smtp, /^220 /m)) &&
    (await greets(ctx.ports.submission, /^220 /m)) &&
    (await greets(ctx.ports.internal, /^220 /m)) &&
    (await greets(ctx.ports.lists_smtp, /^220 /m)),
};

/**
 * `mailserver events` in-process: last logins, the usage warning at delivery, SMS notifications (e-mail ones go
 * through Postfix's internal port to the outbound Maildir; SMS_CONFIG may point the HTTP gateway at a test's
 * receiver) and the DKIM key files Rspamd signs with. Started before Rspamd, so the keys exist when it loads.
 */
const events: SandboxComponent = {
  name: "events",
  packages: ["curl"],
  async start(ctx) {
    const { db, close: closeDb } = await openSandboxDb(ctx.options.databasePath, ctx.options.postgres);
    const { startMailEvents } = await import("../events");
    const { loadSmsConfig } = await import("../sms/config");
    const log = path.join(ctx.layout.logs, "events.log");
    const server = await startMailEvents({
      db,
      doveadm: ["doveadm", "-c", ctx.layout.dovecotConf],
      sms: loadSmsConfig(smsConfigPath()),
      transport: { smtp: { host: "127.0.0.1", port: ctx.ports.internal } },
      port: ctx.ports.events,
      queueIntervalMs: 1000,
      sessionCheckMs: ctx.options.sessionCheckMs,
      // As MAIL_HOST_NAME for `mailserver events`: each host records the password changes it has handled.
      hostName: ctx.options.hostName,
      dkim: { dir: path.join(ctx.layout.root, "dkim"), group: "_rspamd", intervalMs: 1000 },
      log: (line) => fs.appendFileSync(log, `${new Date().toISOString()} ${line}\n`),
    });
    return inProcess(async () => {
      await server.close();
      await closeDb();
    });
  },
  ready: () => Promise.resolve(true),
};

/**
 * Debian's postsrsd (1.10: settings on the command line) for the sandbox's SRS domain, on two loopback ports, with
 * its own secret under the sandbox folder; Postfix's sender/recipient_canonical_maps ask it (tcp: tables).
 */
const postsrsd: SandboxComponent = {
  name: "postsrsd",
  packages: ["postsrsd"],
  files(ctx) {
    const dir = path.join(ctx.layout.root, "postsrsd");
    fs.mkdirSync(dir, { recursive: true });
    const secret = path.join(dir, "postsrsd.secret");
    if (!fs.existsSync(secret))
      fs.writeFileSync(secret, `${crypto.randomBytes(24).toString("base64")}\n`, { mode: 0o600 });
  },
  start(ctx) {
    const p = ctx.ports;
    const secret = path.join(ctx.layout.root, "postsrsd", "postsrsd.secret");
    // Reads the secret and binds as root, then runs as nobody.
    const d = new Daemon(
      "postsrsd",
      "postsrsd",
      [
        `-s${secret}`,
        `-d${ctx.srsDomain}`,
        "-l127.0.0.1",
        "-4",
        `-f${p.srs_forward}`,
        `-r${p.srs_reverse}`,
        "-unobody",
      ],
      logFile(ctx, "postsrsd"),
    );
    return daemonHandle(d);
  },
  ready: async (ctx) => (await connects(ctx.ports.srs_forward)) && (await connects(ctx.ports.srs_reverse)),
};

export const SANDBOX_COMPONENTS: SandboxComponent[] = [
  dns,
  redis,
  events,
  rspamd,
  policy,
  outbound,
  lists,
  dovecot,
  postsrsd,
  postfix,
];
