// Test support: the whole mail system started by the sandbox (lib/mailserver/sandbox), on free ports in a temp
// folder, configured by the files `mailserver config` generates, plus the small SMTP and IMAP clients the tests
// talk to it with. Under TEST_DATABASE=postgres (`npm run test:mail:pg`) the same tests run on PostgreSQL: the
// setup file ./pg-setup.ts gives each test file a private cluster and DATABASE_URL, the services use it, and the
// sandbox writes proxy:pgsql: maps and Dovecot's pgsql driver reading it as the mail role.
import { execFileSync } from "node:child_process";
import { Resolver } from "node:dns/promises";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { closeDb, getReadyDb, openDatabase, type Db } from "@/db/client";
import { SANDBOX_COMPONENTS } from "../sandbox/components";
import type { SandboxPostgres } from "../sandbox/database";
import {
  missingPackages,
  Sandbox,
  sandboxLayout,
  SANDBOX_MAIL_OWNER,
  SANDBOX_PGSQL_PACKAGES,
  type SandboxOptions,
} from "../sandbox/sandbox";
import { mailTestsOnPostgres, requiredInCi, testPgCluster } from "./test-environment";

export { inCi, mailTestsOnPostgres, requiredInCi, testPgCluster } from "./test-environment";

// mailauth has no type declarations: its dkimVerify(message, { resolver }) -> { results: [{ status, ... }] }.
export const { dkimVerify } = createRequire(import.meta.url)("mailauth/lib/dkim/verify") as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{
    results: { signingDomain: string; selector: string; status: { result: string; comment?: string } }[];
  }>;
};

/** A resolver on the sandbox's DNS (TXT only), for dkimVerify: what a receiving provider would ask. */
export function sandboxTxtResolver(l: MailTestLayout) {
  return (name: string, type: string) => {
    if (type !== "TXT") return Promise.reject(Object.assign(new Error(`no ${type} ${name}`), { code: "ENOTFOUND" }));
    const r = new Resolver({ timeout: 2000, tries: 2 });
    r.setServers([`127.0.0.1:${l.ports.dns}`]);
    return r.resolveTxt(name);
  };
}

/**
 * The sandbox's Rspamd as another provider's receiving filter would judge `raw` (its normal worker, not the milter):
 * the symbols it finds for the message coming from `ip` with that HELO and envelope, DNS from the sandbox's resolver.
 */
export async function receiverSymbols(
  l: MailTestLayout,
  raw: string,
  env: { ip: string; helo: string; from: string; rcpt: string },
): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${l.ports.rspamd_normal}/checkv2`, {
    method: "POST",
    headers: { IP: env.ip, Helo: env.helo, From: env.from, Rcpt: env.rcpt },
    body: raw,
  });
  if (!res.ok) throw new Error(`Rspamd answered ${res.status}`);
  const body = (await res.json()) as { symbols?: Record<string, unknown> };
  return Object.keys(body.symbols ?? {}).sort();
}

/** Debian packages the sandbox needs that are not installed (skip outside CI, throw in CI: requiredInCi). */
export function missingMailPackages(): string[] {
  const pg = mailTestsOnPostgres() ? [...SANDBOX_PGSQL_PACKAGES, "postgresql-15"] : [];
  return requiredInCi(missingPackages([...SANDBOX_COMPONENTS.flatMap((c) => c.packages), ...pg]));
}

/**
 * The test's database: the SQLite file `file`, or under TEST_DATABASE=postgres the process's pool on the test
 * file's cluster (DATABASE_URL), migrated. Close it with closeTestDatabase.
 */
export async function openTestDatabase(file: string): Promise<Db> {
  if (!mailTestsOnPostgres()) return openDatabase(file);
  testPgCluster();
  return getReadyDb();
}

export async function closeTestDatabase(db: Db | undefined): Promise<void> {
  if (!db) return;
  if (mailTestsOnPostgres()) await closeDb();
  else db.$client.close();
}

/** The sandbox's PostgreSQL settings under TEST_DATABASE=postgres (the mail role made by the cluster's superuser). */
export function testSandboxPostgres(): SandboxPostgres | undefined {
  if (!mailTestsOnPostgres()) return undefined;
  const cluster = testPgCluster();
  return { url: cluster.url, readerPassword: "reader-secret", superuserSql: (sql) => void cluster.psql(sql) };
}

/** The unprivileged owner of the test mailboxes (exists on every Debian system). */
export const MAIL_OWNER = SANDBOX_MAIL_OWNER;

export function run(command: string, args: string[], input?: string, env?: Record<string, string>): string {
  return execFileSync(command, args, {
    encoding: "utf8",
    input,
    stdio: ["pipe", "pipe", "pipe"],
    timeout: 60_000,
    env: env ? { ...process.env, ...env } : undefined,
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The test folders: the sandbox's layout plus the database (root/db/mail.db) and the ports. */
export function mailTestLayout(root: string, sandbox?: Sandbox) {
  return {
    ...sandboxLayout(path.join(root, "sandbox")),
    db: path.join(root, "db", "mail.db"),
    ports: sandbox?.ports ?? ({} as Sandbox["ports"]),
    sandbox: sandbox!,
  };
}
export type MailTestLayout = ReturnType<typeof mailTestLayout>;

/** A temp folder for a test run, with the database's folder (mode 0755 so the daemons' users reach it). */
export function newMailTestRoot(prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, "db"), { recursive: true });
  return root;
}

/** Starts the sandbox over root/db/mail.db (seed the database first); stop it with `l.sandbox.stop()`. */
export async function startMailSystem(root: string, options: Partial<SandboxOptions> = {}): Promise<MailTestLayout> {
  const sandbox = await Sandbox.start({
    dir: path.join(root, "sandbox"),
    databasePath: path.join(root, "db", "mail.db"),
    postgres: testSandboxPostgres(),
    greylistDelayS: 3,
    defaults: { rbl: 1, spf: 1, greylist: 0 },
    ...options,
  });
  return mailTestLayout(root, sandbox);
}

/** What a second mail host runs itself; the rest (Rspamd, Redis, DNS, postsrsd, lists, outbound) it shares. */
const SECOND_HOST_COMPONENTS = ["events", "policy", "dovecot", "postfix"];
const SHARED_PORTS = [
  "dns",
  "redis",
  "rspamd_normal",
  "rspamd_controller",
  "rspamd_milter",
  "rspamd_sign",
  "outbound",
  "lists_lmtp",
  "lists_http",
  "srs_forward",
  "srs_reverse",
] as const;

/**
 * A second mail host on loopback beside `first` (docs/mail-hosts.md): its own Postfix, Dovecot, policy service and
 * mail events over the same database, in root/<name>, using the first one's shared services.
 */
export async function startSecondMailHost(
  root: string,
  first: MailTestLayout,
  name: string,
  options: Partial<SandboxOptions> = {},
): Promise<MailTestLayout> {
  const dir = path.join(root, name);
  const sandbox = await Sandbox.start({
    dir,
    databasePath: path.join(root, "db", "mail.db"),
    postgres: testSandboxPostgres(),
    greylistDelayS: 3,
    defaults: { rbl: 1, spf: 1, greylist: 0 },
    components: SANDBOX_COMPONENTS.filter((c) => SECOND_HOST_COMPONENTS.includes(c.name)),
    sharedPorts: Object.fromEntries(SHARED_PORTS.map((p) => [p, first.ports[p]])),
    doveadmPassword: first.sandbox.doveadmPassword,
    ...options,
  });
  return { ...sandboxLayout(dir), db: path.join(root, "db", "mail.db"), ports: sandbox.ports, sandbox };
}

/** The database files (main, -wal, -shm) writable by the daemons' users. */
export function openDatabaseFiles(l: MailTestLayout): void {
  for (const suffix of ["", "-wal", "-shm"]) if (fs.existsSync(l.db + suffix)) fs.chmodSync(l.db + suffix, 0o666);
}

export function dovecotConf(l: MailTestLayout): string {
  return l.dovecotConf;
}

/**
 * `postmap -q key proxy:sqlite:table` (proxy:pgsql: on PostgreSQL), as main.cf names the table: asked through the
 * running instance's proxymap.
 * The answer, or undefined when the table has none (exit 1).
 */
export function postmapQuery(l: MailTestLayout, table: string, key: string): string | undefined {
  try {
    return run("postmap", [
      "-c",
      l.postfix,
      "-q",
      key,
      `proxy:${mailTestsOnPostgres() ? "pgsql" : "sqlite"}:${path.join(l.conf, "postfix", `${table}.cf`)}`,
    ]).trim();
  } catch (err) {
    if ((err as { status?: number }).status === 1) return undefined;
    throw err;
  }
}

/** The number of messages still in the test Postfix's queue. */
export function queuedCount(l: MailTestLayout): number {
  const out = run("postqueue", ["-c", l.postfix, "-j"]).trim();
  return out ? out.split("\n").length : 0;
}

/** One of the sandbox's logs (`postfix.log`, `dovecot.log`, `events.log`...): "" before its first line. */
export function sandboxLog(l: MailTestLayout, name: string): string {
  const file = path.join(l.logs, name);
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

/** The mail event service's log (the sandbox's events component). */
export const eventsLog = (l: MailTestLayout): string => sandboxLog(l, "events.log");

/** A mark in the events log: `wait` returns the first line written after the mark that matches `line`. */
export function eventsLogMark(l: MailTestLayout) {
  const start = eventsLog(l).length;
  const after = () => eventsLog(l).slice(start).split("\n").filter(Boolean);
  return {
    after,
    wait: (what: string, line: RegExp, timeoutMs = 20_000) =>
      waitFor(what, () => after().find((x) => line.test(x)), timeoutMs),
  };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let markers = 0;

/**
 * Waits until the mail system has moved past everything sent so far, instead of sleeping: Postfix's queue empty
 * (what earlier mail causes, a bounce, a forward, a Sieve redirect, is queued before that mail leaves the queue),
 * then a marker sent through the MX to `markerTo` (an inbox without spam filtering) delivered and reported to the
 * mail event service (its log line), then the queue empty again.
 */
export async function settleMail(l: MailTestLayout, markerTo: string, timeoutMs = 30_000): Promise<void> {
  await waitFor("an empty queue", () => queuedCount(l) === 0, timeoutMs);
  const subject = `marker-${process.pid}-${++markers}`;
  const log = eventsLogMark(l);
  const from = "marker@far.test";
  await smtpSend(
    l.ports.smtp,
    from,
    [markerTo],
    `From: <${from}>\nTo: <${markerTo}>\nSubject: ${subject}\nMessage-ID: <${subject}@client.test>\nDate: ${new Date().toUTCString()}\n\nA marker.\n`,
  );
  await waitFor(
    "the marker's delivery",
    () => readMessages(l, markerTo).some((m) => m.includes(`Subject: ${subject}`)),
    timeoutMs,
  );
  await log.wait(
    "the marker's new-mail event",
    new RegExp(` new-mail ${escapeRe(markerTo)} INBOX uid \\d+: `, "i"),
    timeoutMs,
  );
  await waitFor("an empty queue", () => queuedCount(l) === 0, timeoutMs);
}

// --- line protocols ---

export class LineSocket {
  private buffer = "";
  private waiters: (() => void)[] = [];
  constructor(readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (const w of this.waiters.splice(0)) w();
    });
  }
  /** `from`: the loopback address to connect from (Dovecot delays each client address's failed logins on its own). */
  static async connect(port: number, from?: string): Promise<LineSocket> {
    const socket = net.connect({ port, host: "127.0.0.1", ...(from ? { localAddress: from } : {}) });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return new LineSocket(socket);
  }
  /** Reads until a line matches `done`; returns everything read. */
  async until(done: RegExp, timeoutMs = 10_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const lines = this.buffer.split("\r\n");
      const idx = lines.slice(0, -1).findIndex((line) => done.test(line));
      if (idx >= 0) {
        const taken = lines.slice(0, idx + 1).join("\r\n");
        this.buffer = lines.slice(idx + 1).join("\r\n");
        return taken;
      }
      if (Date.now() > end) throw new Error(`no reply matching ${done}: ${this.buffer}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  write(text: string) {
    this.socket.write(text);
  }
  close() {
    this.socket.destroy();
  }
}

/**
 * Sends one message over SMTP; throws on any non-2xx/3xx reply. A reply may take a minute, as a real client allows
 * (RFC 5321 4.5.3.2 allows far more): on a loaded 2-core CI host the policy checks and milters have taken over 10 s.
 */
export async function smtpSend(port: number, from: string, to: string[], message: string): Promise<void> {
  const s = await LineSocket.connect(port);
  let step = "the greeting";
  const expect = async (code: RegExp) => {
    const reply = await s.until(/^\d{3} /, 60_000).catch((e: Error) => {
      throw new Error(`SMTP, waiting for the reply to ${step}: ${e.message}`);
    });
    if (!code.test(reply.split("\r\n").at(-1)!)) throw new Error(`SMTP: ${reply}`);
  };
  const send = (command: string) => {
    step = command.split(/[: ]/)[0]!;
    s.write(`${command}\r\n`);
  };
  try {
    await expect(/^220/);
    send("EHLO client.mailadmin.test");
    await expect(/^250/);
    send(`MAIL FROM:<${from}>`);
    await expect(/^250/);
    for (const rcpt of to) {
      send(`RCPT TO:<${rcpt}>`);
      await expect(/^250/);
    }
    send("DATA");
    await expect(/^354/);
    const body = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    s.write(`${body}\r\n.\r\n`);
    step = "the end of DATA";
    await expect(/^250/);
    s.write("QUIT\r\n");
  } finally {
    s.close();
  }
}

/**
 * Logs in over IMAP and waits in IDLE on the inbox (tag `c`): a session that stays open until the server ends it
 * (`closed` resolves then).
 */
export async function imapIdle(port: number, user: string, password: string) {
  const s = await LineSocket.connect(port);
  const closed = new Promise<void>((resolve) => s.socket.once("close", () => resolve()));
  await s.until(/^\* OK/);
  s.write(`a LOGIN "${user}" "${password}"\r\n`);
  const login = await s.until(/^a /);
  if (!/^a OK/m.test(login)) throw new Error(`IMAP login of ${user}: ${login}`);
  s.write("b SELECT INBOX\r\n");
  await s.until(/^b OK/);
  s.write("c IDLE\r\n");
  await s.until(/^\+ /);
  return { s, closed };
}

/** IMAP APPEND with an explicit INTERNALDATE (how a message gets an old received date). */
export async function imapAppend(
  port: number,
  user: string,
  password: string,
  mailbox: string,
  date: Date,
  message: string,
) {
  const s = await LineSocket.connect(port);
  const tagged = async (tag: string) => {
    const reply = await s.until(new RegExp(`^${tag} `));
    if (!new RegExp(`^${tag} OK`, "m").test(reply)) throw new Error(`IMAP: ${reply}`);
  };
  try {
    await s.until(/^\* OK/);
    s.write(`a LOGIN "${user}" "${password}"\r\n`);
    await tagged("a");
    const literal = Buffer.from(message.replace(/\r?\n/g, "\r\n"), "utf8");
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const d = `${String(date.getUTCDate()).padStart(2, "0")}-${months[date.getUTCMonth()]}-${date.getUTCFullYear()} 12:00:00 +0000`;
    s.write(`b APPEND ${mailbox} "${d}" {${literal.length}}\r\n`);
    await s.until(/^\+/);
    s.socket.write(literal);
    s.write("\r\n");
    await tagged("b");
    s.write("c LOGOUT\r\n");
  } finally {
    s.close();
  }
}

/** Message files of a maildir folder ("" is the inbox), new and cur. */
export function maildirFiles(l: MailTestLayout, email: string, folder = ""): string[] {
  const [name, domain] = email.split("@") as [string, string];
  const base = path.join(l.vmail, domain, name, "Maildir", folder ? `.${folder}` : "");
  return ["new", "cur"].flatMap((sub) => {
    const dir = path.join(base, sub);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
  });
}

export const readMessages = (l: MailTestLayout, email: string, folder = "") =>
  maildirFiles(l, email, folder).map((f) => fs.readFileSync(f, "utf8"));

export interface SmtpOutcome {
  /** Recipients the server accepted the message for. */
  accepted: string[];
  /** Refused recipients with the reply code (5xx refused, 4xx deferred: greylisting). */
  refused: { address: string; code: number; response: string }[];
}

/**
 * Sends one message over SMTP (nodemailer) and reports per recipient what the server answered at RCPT, instead of
 * throwing: how the anti-spam tests see refusals and deferrals. With `auth`, logged in (SMTP AUTH, the submission port).
 */
export async function smtpTry(
  port: number,
  from: string,
  to: string[],
  message: string,
  auth?: { user: string; pass: string },
): Promise<SmtpOutcome> {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    name: "client.mailadmin.test",
    ...(auth ? { auth } : {}),
  });
  type RcptError = { recipient?: string; responseCode?: number; response?: string };
  const refusals = (errors: RcptError[] | undefined) =>
    (errors ?? []).map((e) => ({ address: e.recipient ?? "", code: e.responseCode ?? 0, response: e.response ?? "" }));
  try {
    const info = await transport.sendMail({ envelope: { from, to }, raw: message.replace(/\r?\n/g, "\r\n") });
    const asText = (a: unknown) => (typeof a === "string" ? a : (a as { address: string }).address);
    return {
      accepted: info.accepted.map(asText),
      refused: refusals((info as unknown as { rejectedErrors?: RcptError[] }).rejectedErrors),
    };
  } catch (err) {
    const e = err as { code?: string; rejectedErrors?: RcptError[] };
    if (e.code === "EENVELOPE" && e.rejectedErrors) return { accepted: [], refused: refusals(e.rejectedErrors) };
    throw err;
  } finally {
    transport.close();
  }
}
