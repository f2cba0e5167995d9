// Test support for lib/mailserver/delivery.test.ts: self-contained Postfix and Dovecot instances in a temp folder on
// loopback (the harness before `mailserver sandbox`), with extra dovecot.conf/main.cf lines a test adds (POP3, SASL,
// milter, relay to the outside catcher), configured by the files `mailserver config` generates.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const MAIL_PACKAGES = [
  "postfix",
  "postfix-sqlite",
  "dovecot-core",
  "dovecot-imapd",
  "dovecot-lmtpd",
  "dovecot-sqlite",
  "dovecot-sieve",
];

/** Debian packages of the list that are not installed (the tests skip, saying so, only for this reason). */
export function missingMailPackages(): string[] {
  return MAIL_PACKAGES.filter((p) => {
    try {
      return !execFileSync("dpkg-query", ["-W", "-f=${Status}", p], { encoding: "utf8" }).includes("install ok installed");
    } catch {
      return true;
    }
  });
}

/** Ports the test daemons listen on, on 127.0.0.1. */
export interface MailPorts {
  smtp: number;
  lmtp: number;
  imap: number;
}

/**
 * `count` distinct free TCP ports on 127.0.0.1, found by listening on port 0 (all held open together so that they
 * differ, then released). Several engineers or CI jobs can run the mail tests at once this way.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = net.createServer();
      return new Promise<net.Server>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve(server)));
    }),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export async function chooseMailPorts(): Promise<MailPorts> {
  const [smtp, lmtp, imap] = (await freePorts(3)) as [number, number, number];
  return { smtp, lmtp, imap };
}
/** The unprivileged owner of the test mailboxes (exists on every Debian system). */
export const MAIL_OWNER = { user: "nobody", group: "nogroup" } as const;

/** Starts a daemon that forks into the background: its stdio must not be pipes we wait on. */
function launch(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: "ignore", timeout: 60_000 });
}

export function run(command: string, args: string[], input?: string, env?: Record<string, string>): string {
  return execFileSync(command, args, {
    encoding: "utf8",
    input,
    stdio: ["pipe", "pipe", "pipe"],
    timeout: 60_000,
    env: env ? { ...process.env, ...env } : undefined,
  });
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The test folders: everything the daemons touch lives under `root`. */
export function mailTestLayout(root: string, ports: MailPorts) {
  return {
    root,
    ports,
    db: path.join(root, "db", "mail.db"),
    conf: path.join(root, "conf"),
    vmail: path.join(root, "vmail"),
    dovecot: path.join(root, "dovecot"),
    postfix: path.join(root, "postfix"),
  };
}
export type MailTestLayout = ReturnType<typeof mailTestLayout>;

/**
 * Folders and permissions. On a real host the database folder belongs to a group shared with postfix and dovecot
 * (docs/mail-server.md); here, without touching the system's groups, the throwaway folder is opened to all.
 */
export function prepareLayout(l: MailTestLayout): void {
  fs.chmodSync(l.root, 0o755);
  fs.mkdirSync(path.dirname(l.db), { recursive: true, mode: 0o777 });
  fs.chmodSync(path.dirname(l.db), 0o777);
  fs.mkdirSync(l.vmail, { recursive: true });
  run("chown", [`${MAIL_OWNER.user}:${MAIL_OWNER.group}`, l.vmail]);
}

/** The database files (main, -wal, -shm) writable by the daemons' users. */
export function openDatabaseFiles(l: MailTestLayout): void {
  for (const suffix of ["", "-wal", "-shm"]) if (fs.existsSync(l.db + suffix)) fs.chmodSync(l.db + suffix, 0o666);
}

export function dovecotConf(l: MailTestLayout): string {
  return path.join(l.dovecot, "dovecot.conf");
}

/** `extra`: more dovecot.conf lines, read after the generated configuration (listeners of other tests). */
export function startDovecot(l: MailTestLayout, extra = ""): void {
  fs.mkdirSync(path.join(l.dovecot, "run"), { recursive: true });
  fs.mkdirSync(path.join(l.dovecot, "state"), { recursive: true });
  fs.writeFileSync(
    dovecotConf(l),
    `# Self-contained test instance around the generated mailadmin.conf.
base_dir = ${l.dovecot}/run
state_dir = ${l.dovecot}/state
log_path = ${l.dovecot}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Refused logins answer at once (a production server keeps the default 2 s delay).
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
# Vacation replies go back through the test Postfix.
submission_host = 127.0.0.1:${l.ports.smtp}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${l.ports.imap}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${l.ports.lmtp}
  }
}
!include ${l.conf}/dovecot/mailadmin.conf
${extra}
`,
  );
  launch("dovecot", ["-c", dovecotConf(l)]);
}

export function stopDovecot(l: MailTestLayout): void {
  try {
    run("doveadm", ["-c", dovecotConf(l), "stop"]);
  } catch {
    // not running
  }
}

/**
 * master.cf with Debian's chroot column (/usr/share/postfix/master.cf.dist): smtpd, cleanup, trivial-rewrite, lmtp
 * and the rest run chrooted in the queue directory, where the database's path does not exist; only proxymap (not
 * chrooted) opens the lookup tables, which is why `mailserver config` writes them as proxy:sqlite: maps.
 */
const masterCf = (smtpPort: number) => `127.0.0.1:${smtpPort} inet n - y - - smtpd
pickup unix n - y 60 1 pickup
cleanup unix n - y - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - y - - trivial-rewrite
bounce unix - - y - 0 bounce
defer unix - - y - 0 bounce
trace unix - - y - 0 bounce
verify unix - - y - 1 verify
flush unix n - y 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - y - - smtp
relay unix - - y - - smtp
showq unix n - y - - showq
error unix - - y - - error
retry unix - - y - - error
discard unix - - y - - discard
lmtp unix - - y - - lmtp
anvil unix - - y - 1 anvil
scache unix - - y - 1 scache
postlog unix-dgram n - n - 1 postlogd
`;

/** main.cf of the test instance: loopback only, no local delivery, then the generated snippet. */
/** `extra`: more main.cf lines after the generated snippet (later lines win). */
export function writePostfixConfig(l: MailTestLayout, extra = ""): void {
  fs.mkdirSync(l.postfix, { recursive: true });
  const main = `compatibility_level = 3.6
queue_directory = ${l.postfix}/queue
data_directory = ${l.postfix}/data
maillog_file_prefixes = ${l.postfix}
maillog_file = ${l.postfix}/maillog
myhostname = mx.mailadmin.test
mydomain = mailadmin.test
myorigin = $myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_transport = error:no local delivery
smtputf8_enable = no
# Nothing leaves the machine: mail for outside domains stays queued.
default_transport = error:no outside delivery in tests
${fs.readFileSync(path.join(l.conf, "postfix", "main.cf.snippet"), "utf8")}
${extra}
`;
  fs.writeFileSync(path.join(l.postfix, "main.cf"), main);
  fs.writeFileSync(path.join(l.postfix, "master.cf"), masterCf(l.ports.smtp));
}

export function startPostfix(l: MailTestLayout, extra = ""): void {
  writePostfixConfig(l, extra);
  fs.mkdirSync(path.join(l.postfix, "queue"), { recursive: true });
  fs.mkdirSync(path.join(l.postfix, "data"), { recursive: true });
  run("chown", ["postfix", path.join(l.postfix, "data")]);
  // What Debian's postfix.service runs before starting: copies /etc/resolv.conf, hosts, services... into the chroot.
  run("/usr/lib/postfix/configure-instance.sh", ["-"], undefined, { MAIL_CONFIG: l.postfix });
  launch("postfix", ["-c", l.postfix, "start"]);
}

export function stopPostfix(l: MailTestLayout): void {
  try {
    run("postfix", ["-c", l.postfix, "stop"]);
  } catch {
    // not running
  }
}

/**
 * `postmap -q key proxy:sqlite:table`, as main.cf names the table: asked through the running instance's proxymap.
 * The answer, or undefined when the table has none (exit 1).
 */
export function postmapQuery(l: MailTestLayout, table: string, key: string): string | undefined {
  try {
    return run("postmap", ["-c", l.postfix, "-q", key, `proxy:sqlite:${path.join(l.conf, "postfix", `${table}.cf`)}`]).trim();
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
  static async connect(port: number): Promise<LineSocket> {
    const socket = net.connect(port, "127.0.0.1");
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

/** Sends one message over SMTP; throws on any non-2xx/3xx reply. */
export async function smtpSend(port: number, from: string, to: string[], message: string): Promise<void> {
  const s = await LineSocket.connect(port);
  const expect = async (code: RegExp) => {
    const reply = await s.until(/^\d{3} /);
    if (!code.test(reply.split("\r\n").at(-1)!)) throw new Error(`SMTP: ${reply}`);
  };
  try {
    await expect(/^220/);
    s.write("EHLO client.mailadmin.test\r\n");
    await expect(/^250/);
    s.write(`MAIL FROM:<${from}>\r\n`);
    await expect(/^250/);
    for (const rcpt of to) {
      s.write(`RCPT TO:<${rcpt}>\r\n`);
      await expect(/^250/);
    }
    s.write("DATA\r\n");
    await expect(/^354/);
    const body = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    s.write(`${body}\r\n.\r\n`);
    await expect(/^250/);
    s.write("QUIT\r\n");
  } finally {
    s.close();
  }
}

/** IMAP APPEND with an explicit INTERNALDATE (how a message gets an old received date). */
export async function imapAppend(port: number, user: string, password: string, mailbox: string, date: Date, message: string) {
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
