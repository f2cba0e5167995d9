// `mailserver sandbox`: the whole mail system as private instances on 127.0.0.1, configured by the same generator
// as production (`mailserver config`) over the database at DATABASE_PATH, with every file under one folder. The
// tests start it too (lib/mailserver/*.test.ts), so there is one way to run the mail system.
//
// The system is a list of components (./components.ts). Each names its Debian packages and ports, writes its
// files, starts, says when it answers, and stops. A later service (the mailing-list LMTP service, SMS
// notifications...) is one more entry in that list.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ListService } from "@/lib/lists/service";
import { writeMailServerConfig } from "../config";
import { SANDBOX_COMPONENTS, SANDBOX_RBL_ZONE } from "./components";
import type { Running, SandboxComponent } from "./component";
import {
  firstHostedDomain,
  prepareMailReader,
  sandboxPgsqlOptions,
  urlWithoutPassword,
  type SandboxPostgres,
} from "./database";

export { SANDBOX_RBL_ZONE };
import { freePorts, waitUntil } from "./processes";
import { SANDBOX_MYHOSTNAME } from "./daemon-config";
import { CLI } from "@/lib/cli/args";
import { shellWord } from "../shell-word";

export interface SandboxOptions {
  dir: string;
  databasePath: string;
  /**
   * PostgreSQL instead of the SQLite file (./database.ts): pgsql maps and Dovecot's pgsql driver as the mail role,
   * the services on DATABASE_URL (which must name the same database when the process starts).
   */
  postgres?: SandboxPostgres;
  /** Ports from here up, in the order of SANDBOX_PORTS; free ones when undefined. */
  portBase?: number;
  /** Greylisting's wait (seconds). */
  greylistDelayS?: number;
  /** The server's defaults of the three switches (SPAM_*_DEFAULT). */
  defaults: { rbl: 0 | 1; spf: 0 | 1; greylist: 0 | 1 };
  /** SRS domain of the sandbox's postsrsd (default: the database's first hosted domain, else sandbox.test). */
  srsDomain?: string;
  /** Components to run (default all). */
  components?: SandboxComponent[];
  /**
   * Rspamd checks SPF and DMARC for loopback clients too (it skips local addresses by default), so that a test can
   * send DMARC-aligned mail from 127.0.0.1. Off by default: it changes the scores other tests are calibrated to.
   */
  authChecksForLoopback?: boolean;
  /** The DNS server's UDP port (default: with the others). */
  dnsPort?: number;
  /** Publish the records the hosted domains need on the sandbox's DNS at start (./publish-dns.ts). */
  publishDns?: boolean;
  /** Progress lines (stderr for the CLI). */
  log?: (line: string) => void;
  /** Aborted while starting (the CLI's SIGTERM): start stops what it has started and rejects. */
  signal?: AbortSignal;
  /** This instance's mail host name (mailserver config's hostName, docs/mail-hosts.md); unset: one mail host. */
  hostName?: string;
  /**
   * Ports of another sandbox's components that this one does not run (a second mail host beside the first one on
   * loopback: its Postfix uses the first one's Rspamd, Redis, DNS, postsrsd, list service and outbound sink).
   */
  sharedPorts?: Partial<Record<PortName, number>>;
  /** Greylisting's clock (epoch ms); Date.now when unset. */
  clock?: () => number;
  /** The doveadm server's password, the same on every mail host (a random one when unset). */
  doveadmPassword?: string;
  /** How often the events component ends the sessions of users who may no longer log in (ms; SESSION_CHECK_MS). */
  sessionCheckMs?: number;
}

/** Every port the sandbox listens on; with --port-base N they are N, N+1... in this order. */
export const SANDBOX_PORTS = [
  "smtp",
  "submission",
  "internal",
  "imap",
  "pop3",
  "lmtp",
  "auth",
  "dns",
  "redis",
  "rspamd_normal",
  "rspamd_controller",
  "rspamd_milter",
  "policy",
  "outbound",
  "lists_lmtp",
  "lists_http",
  "quota_status",
  "events",
  "srs_forward",
  "srs_reverse",
  "doveadm",
  "rspamd_sign",
  "lists_smtp",
  // Last, so that --port-base keeps the others where they were.
  "sieve",
] as const;
export type PortName = (typeof SANDBOX_PORTS)[number];

export function sandboxLayout(dir: string) {
  const root = path.resolve(dir);
  return {
    root,
    conf: path.join(root, "conf"),
    postfix: path.join(root, "postfix"),
    dovecot: path.join(root, "dovecot"),
    dovecotConf: path.join(root, "dovecot", "dovecot.conf"),
    rspamd: path.join(root, "rspamd"),
    redis: path.join(root, "redis"),
    policy: path.join(root, "policy"),
    dnsRecords: path.join(root, "dns", "records.json"),
    vmail: path.join(root, "vmail"),
    outbound: path.join(root, "outbound"),
    logs: path.join(root, "logs"),
    info: path.join(root, "sandbox.json"),
  };
}
export type SandboxLayout = ReturnType<typeof sandboxLayout>;

/** The unprivileged owner of the sandbox's mailboxes (exists on every Debian system). */
export const SANDBOX_MAIL_OWNER = { user: "nobody", group: "nogroup" } as const;

/** What the JSON line (and <dir>/sandbox.json) tells; a field of a component that does not run (`--only`) is left out. */
export interface SandboxInfo {
  smtp?: number;
  submission?: number;
  imap?: number;
  pop3?: number;
  lmtp?: number;
  /** Dovecot's auth service, which Postfix's submission port asks for SASL (`mailserver check --auth-socket`). */
  auth?: number;
  outbound?: string;
  greylist_delay_s?: number;
  dns?: number;
  dns_records?: string;
  rbl_zones?: string[];
  spf?: boolean;
  rbl?: boolean;
  rspamd_controller?: number;
  redis?: number;
  policy?: number;
  /** The mail event service (`mailserver check --events-url http://127.0.0.1:<events>`). */
  events?: number;
  /** Dovecot's quota-status service, which Postfix asks at RCPT (`mailserver check --quota-status`). */
  quota_status?: number;
  /** The list service (docs/lists.md): its LMTP listener and its pages (PUBLIC_URL). */
  lists_lmtp?: number;
  lists_url?: string;
  /** Dovecot's doveadm server: another mail host's `doveadm sync ... tcp:127.0.0.1:<doveadm>` (docs/mail-hosts.md). */
  doveadm?: number;
  /**
   * The ManageSieve port to give `mailserver host set --sieve-port`, so that a host row never names 4190, a real
   * Dovecot's. Nothing listens there: like the generated configuration, the sandbox runs no ManageSieve, whose
   * storage would be the read-only dict of generated scripts (a login ended in "Storage does not support write access").
   */
  sieve?: number;
  /** The mail host this sandbox plays (MAIL_HOST_NAME, a row of mail_hosts), or null for a single mail host. */
  host_name: string | null;
  /**
   * Whether the doveadm server's password was given (DOVEADM_PASSWORD: shared with the other mail hosts) rather
   * than drawn at random at start. The password itself is never written here.
   */
  shared_doveadm_password: boolean;
  /** --port-base (the ports are N, N+1... in SANDBOX_PORTS' order), or null for free ports. */
  port_base: number | null;
  /** --only's components, in start order, or null for the whole system: a hint that restarts it names them. */
  only: string[] | null;
  /** --dns-port, or null for the DNS server's port among the others. */
  dns_port: number | null;
  /** --publish-dns: the DNS server answers with the hosted domains' records. */
  publish_dns: boolean;
  dir: string;
  /** The SQLite file, or on PostgreSQL the database's URL without its password. */
  database: string;
  /** sqlite or postgres. */
  database_engine: "sqlite" | "postgres";
  dovecot_config?: string;
  postfix_config?: string;
  /** postsrsd's domain: forwards to other domains leave as SRS0=…@srs_domain. */
  srs_domain: string;
  /**
   * `mailserver check` against this sandbox, to run with `--account <email> --password <pw>` added (on PostgreSQL
   * with DATABASE_URL in the environment); left out with `--only`, as the check needs every component.
   */
  check?: string;
}

/** The fields of the JSON line each component fills: a component that does not run (`--only`) has none there. */
const INFO_FIELDS: Record<string, (keyof SandboxInfo)[]> = {
  postfix: ["smtp", "submission", "postfix_config"],
  dovecot: ["imap", "pop3", "lmtp", "auth", "quota_status", "doveadm", "sieve", "dovecot_config"],
  outbound: ["outbound"],
  policy: ["policy", "greylist_delay_s", "spf", "rbl"],
  dns: ["dns", "dns_records", "rbl_zones"],
  rspamd: ["rspamd_controller"],
  redis: ["redis"],
  events: ["events"],
  lists: ["lists_lmtp", "lists_url"],
};

/**
 * `mailserver check`'s options for a sandbox, less --account and --password: every port and file where this
 * sandbox has them, Dovecot's LMTP and auth on their TCP listeners (the ones Postfix uses).
 */
export function sandboxCheckOptions(ctx: Pick<SandboxContext, "layout" | "ports" | "srsDomain">): string[] {
  const { layout: l, ports: p } = ctx;
  const at = (port: number) => `127.0.0.1:${port}`;
  return [
    ...["--config-dir", l.conf, "--db-group", SANDBOX_MAIL_OWNER.group],
    ...["--postfix-config", l.postfix, "--dovecot-config", l.dovecotConf],
    ...["--lmtp-socket", at(p.lmtp), "--auth-socket", at(p.auth)],
    ...["--rspamd-controller", at(p.rspamd_controller), "--policy-service", at(p.policy)],
    ...["--quota-status", at(p.quota_status), "--events-url", `http://${at(p.events)}`],
    ...["--dkim-dir", path.join(l.root, "dkim"), "--srs-domain", ctx.srsDomain, "--submission", at(p.submission)],
  ];
}

/**
 * The `check` of the JSON line: `mailserver check` against this sandbox, less --account and --password. MAIL_HOST:
 * Postfix's myhostname here (daemon-config.ts), a domain name as the check wants one. MAIL_HOST_NAME: the mail host
 * it plays, whose accounts the check's quota line writes for (it refuses another host's: check.ts, placedElsewhere).
 */
export function sandboxCheckCommand(
  ctx: Pick<SandboxContext, "layout" | "ports" | "srsDomain"> & {
    options: Pick<SandboxOptions, "hostName" | "postgres" | "databasePath">;
  },
): string {
  return [
    `MAIL_HOST=${SANDBOX_MYHOSTNAME}`,
    ...(ctx.options.hostName ? [`MAIL_HOST_NAME=${ctx.options.hostName}`] : []),
    ...(ctx.options.postgres ? [] : [`DATABASE_PATH=${ctx.options.databasePath}`]),
    ...CLI.split(" "),
    "mailserver",
    "check",
    ...sandboxCheckOptions(ctx),
  ]
    .map(shellWord)
    .join(" ");
}

export interface SandboxContext {
  options: SandboxOptions;
  layout: SandboxLayout;
  ports: Record<PortName, number>;
  greylistDelayS: number;
  /** The domain postsrsd rewrites senders into (SRS0=…@srsDomain). */
  srsDomain: string;
  log: (line: string) => void;
  /** The running list service (set by its component), for tests that pump approved posts at once. */
  listService?: ListService;
  /** Dovecot's doveadm_password: `doveadm sync ... tcp:` from another mail host authenticates with it. */
  doveadmPassword: string;
}

/**
 * The characters a doveadm password may have: it is written as is into Dovecot's configuration, where a space, a
 * newline, `#`, `<` or `$` would end it, start another setting, or read a file or another setting instead. Hex
 * and base64 (`openssl rand -hex 24`, `openssl rand -base64 24`) fit.
 */
const DOVEADM_PASSWORD = /^[A-Za-z0-9._+/=~-]+$/;

/** The doveadm password as given, or an error naming what is wrong with it (never the password itself). */
export function checkDoveadmPassword(password: string, what = "the doveadm password"): string {
  if (!DOVEADM_PASSWORD.test(password))
    throw new Error(
      `${what}: letters, digits and . _ + / = ~ - only (it goes into Dovecot's configuration), e.g. from openssl rand -hex 24`,
    );
  return password;
}

/** A sandbox error the CLI reports on one line with exit 2 (missing packages, not root). */
export class SandboxPrerequisiteError extends Error {}

export function missingPackages(packages: string[]): string[] {
  return [...new Set(packages)].filter((p) => {
    try {
      return !execFileSync("dpkg-query", ["-W", "-f=${Status}", p], { encoding: "utf8" }).includes(
        "install ok installed",
      );
    } catch {
      return true;
    }
  });
}

/** The map and driver packages of PostgreSQL, needed on top of the components' own. */
export const SANDBOX_PGSQL_PACKAGES = ["postfix-pgsql", "dovecot-pgsql"];

export function checkPrerequisites(components: SandboxComponent[] = SANDBOX_COMPONENTS, postgres = false): void {
  const missing = missingPackages([
    ...components.flatMap((c) => c.packages),
    ...(postgres ? SANDBOX_PGSQL_PACKAGES : []),
  ]);
  if (missing.length) {
    throw new SandboxPrerequisiteError(
      `missing Debian packages: ${missing.join(" ")} (install them: apt-get install -y ${missing.join(" ")})`,
    );
  }
  // Postfix's master runs as root; a sandbox of in-process components only (--only dns) needs no privilege.
  if (process.getuid?.() !== 0 && components.some((c) => c.packages.length > 0)) {
    throw new SandboxPrerequisiteError(
      "mailserver sandbox needs root: Postfix's master process runs as root (run it in a root shell)",
    );
  }
}

/**
 * For a chosen set of components (`--only`), what is missing that one of them needs to start: one line saying what
 * to add, or undefined when nothing is.
 */
export function missingNeeds(components: SandboxComponent[]): string | undefined {
  const chosen = new Set(components.map((c) => c.name));
  const missing = components.flatMap((c) =>
    Object.entries(c.needs ?? {})
      .filter(([name]) => !chosen.has(name))
      .map(([name, why]) => ({ name, line: `${c.name} needs ${name} (${why})` })),
  );
  if (!missing.length) return undefined;
  // In start order, as --only lists them in the help.
  const wanted = new Set([...chosen, ...missing.map((m) => m.name)]);
  const order = SANDBOX_COMPONENTS.map((c) => c.name).filter((n) => wanted.has(n));
  return `${missing.map((m) => m.line).join("; ")}: add it, e.g. --only ${order.join(",")}`;
}

export class Sandbox {
  private running = new Map<string, Running>();
  readonly components: SandboxComponent[];

  private constructor(readonly ctx: SandboxContext) {
    this.components = ctx.options.components ?? SANDBOX_COMPONENTS;
  }

  static async start(options: SandboxOptions): Promise<Sandbox> {
    const components = options.components ?? SANDBOX_COMPONENTS;
    // In-process components only (--only dns) read the database with the service's role: no mail role, no packages.
    const daemons = components.some((c) => c.packages.length > 0);
    checkPrerequisites(components, !!options.postgres && daemons);
    if (options.postgres && daemons) await prepareMailReader(options.postgres);
    const layout = sandboxLayout(options.dir);
    const numbers = await freePorts(SANDBOX_PORTS.length, options.portBase);
    const ports = {
      ...Object.fromEntries(SANDBOX_PORTS.map((name, i) => [name, numbers[i]!])),
      ...options.sharedPorts,
    } as Record<PortName, number>;
    if (options.dnsPort) ports.dns = options.dnsPort;
    const sandbox = new Sandbox({
      options,
      layout,
      ports,
      greylistDelayS: options.greylistDelayS ?? 3,
      srsDomain:
        options.srsDomain ?? (await firstHostedDomain(options.databasePath, options.postgres)) ?? "sandbox.test",
      log: options.log ?? (() => {}),
      doveadmPassword:
        options.doveadmPassword !== undefined
          ? checkDoveadmPassword(options.doveadmPassword)
          : crypto.randomBytes(18).toString("hex"),
    });
    const { signal } = options;
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error("stopped while starting"));
      if (signal?.aborted) stop();
      else signal?.addEventListener("abort", stop, { once: true });
    });
    aborted.catch(() => {});
    try {
      sandbox.prepare();
      // A component still waiting to be ready is given up on at once; stop() then stops every one that was started.
      for (const c of sandbox.components) await Promise.race([sandbox.startComponent(c.name), aborted]);
      fs.writeFileSync(layout.info, `${JSON.stringify(sandbox.info)}\n`);
    } catch (err) {
      await sandbox.stop();
      throw err;
    }
    return sandbox;
  }

  get layout() {
    return this.ctx.layout;
  }
  get ports() {
    return this.ctx.ports;
  }
  /** The doveadm server's password (another mail host's doveadm sync uses it). */
  get doveadmPassword() {
    return this.ctx.doveadmPassword;
  }
  /** The list service component's running service, when it runs. */
  get listService() {
    return this.ctx.listService;
  }

  get info(): SandboxInfo {
    const { ports, layout } = this.ctx;
    const info: SandboxInfo = {
      smtp: ports.smtp,
      submission: ports.submission,
      imap: ports.imap,
      pop3: ports.pop3,
      lmtp: ports.lmtp,
      auth: ports.auth,
      outbound: layout.outbound,
      greylist_delay_s: this.ctx.greylistDelayS,
      dns: ports.dns,
      dns_records: layout.dnsRecords,
      rbl_zones: [SANDBOX_RBL_ZONE],
      spf: true,
      rbl: true,
      rspamd_controller: ports.rspamd_controller,
      redis: ports.redis,
      policy: ports.policy,
      events: ports.events,
      quota_status: ports.quota_status,
      lists_lmtp: ports.lists_lmtp,
      lists_url: `http://127.0.0.1:${ports.lists_http}`,
      doveadm: ports.doveadm,
      sieve: ports.sieve,
      host_name: this.ctx.options.hostName ?? null,
      shared_doveadm_password: this.ctx.options.doveadmPassword !== undefined,
      dir: layout.root,
      database: this.ctx.options.postgres
        ? urlWithoutPassword(this.ctx.options.postgres.url)
        : this.ctx.options.databasePath,
      database_engine: this.ctx.options.postgres ? "postgres" : "sqlite",
      dovecot_config: layout.dovecotConf,
      postfix_config: layout.postfix,
      srs_domain: this.ctx.srsDomain,
      port_base: this.ctx.options.portBase ?? null,
      only: this.ctx.options.components ? this.components.map((c) => c.name) : null,
      dns_port: this.ctx.options.dnsPort ?? null,
      publish_dns: this.ctx.options.publishDns === true,
      check: sandboxCheckCommand(this.ctx),
    };
    if (this.ctx.options.components) delete info.check;
    const running = new Set(this.components.map((c) => c.name));
    for (const [component, fields] of Object.entries(INFO_FIELDS))
      if (!running.has(component)) for (const field of fields) delete info[field];
    return info;
  }

  /** Folders, permissions and the generated configuration every component reads. */
  private prepare() {
    const { layout: l, ports, options } = this.ctx;
    // The daemons' own users (postfix, dovecot, _rspamd, redis, nobody) must reach the folder and the database;
    // components that run in this process only (--only dns) need neither.
    const daemons = this.components.some((c) => c.packages.length > 0);
    for (const target of daemons
      ? [path.dirname(l.root), ...(options.postgres ? [] : [path.dirname(options.databasePath)])]
      : []) {
      for (let d = path.resolve(target); ; d = path.dirname(d)) {
        if (fs.existsSync(d) && (fs.statSync(d).mode & 0o001) === 0) {
          throw new SandboxPrerequisiteError(
            `${d} is not searchable by other users (chmod o+x ${d}): the daemons' users must reach ${target}`,
          );
        }
        if (d === path.dirname(d)) break;
      }
    }
    for (const d of [l.root, l.conf, l.logs, l.outbound, path.dirname(l.dnsRecords), l.policy])
      fs.mkdirSync(d, { recursive: true });
    fs.chmodSync(l.root, 0o755);
    for (const sub of ["tmp", "new", "cur"]) fs.mkdirSync(path.join(l.outbound, sub), { recursive: true });
    fs.mkdirSync(l.vmail, { recursive: true });
    if (daemons) execFileSync("chown", [`${SANDBOX_MAIL_OWNER.user}:${SANDBOX_MAIL_OWNER.group}`, l.vmail]);
    if (!fs.existsSync(l.dnsRecords)) fs.writeFileSync(l.dnsRecords, "{}\n");
    // The daemons' users read (and Dovecot's dict writes) the database: a sandbox opens its folder and files to
    // all local users instead of the group a production host sets up (docs/mail-server.md).
    // (On PostgreSQL they connect as the mail role instead: no file to open.)
    if (!options.postgres && daemons) {
      const dbDir = path.dirname(options.databasePath);
      fs.chmodSync(dbDir, 0o777);
      for (const suffix of ["", "-wal", "-shm"]) {
        if (fs.existsSync(options.databasePath + suffix)) fs.chmodSync(options.databasePath + suffix, 0o666);
      }
    }
    writeMailServerConfig({
      outDir: l.conf,
      hostName: options.hostName,
      databasePath: options.databasePath,
      pgsql: options.postgres && sandboxPgsqlOptions(options.postgres),
      maildirRoot: l.vmail,
      mailUser: SANDBOX_MAIL_OWNER.user,
      mailGroup: SANDBOX_MAIL_OWNER.group,
      dbGroup: SANDBOX_MAIL_OWNER.group,
      lmtp: `lmtp:inet:127.0.0.1:${ports.lmtp}`,
      listsLmtp: `lmtp:inet:127.0.0.1:${ports.lists_lmtp}`,
      // Dovecot's quota-status service, and the mail event service (the `events` component).
      quotaStatusPort: ports.quota_status,
      eventsUrl: `http://127.0.0.1:${ports.events}`,
      dkimDir: path.join(l.root, "dkim"),
      // SRS through the sandbox's postsrsd (the postsrsd component), as `mailserver config --srs-domain` writes it.
      srsDomain: this.ctx.srsDomain,
      srsForward: `127.0.0.1:${ports.srs_forward}`,
      srsReverse: `127.0.0.1:${ports.srs_reverse}`,
      antispam: {
        rspamdMilter: `inet:127.0.0.1:${ports.rspamd_milter}`,
        rspamdSignMilter: `inet:127.0.0.1:${ports.rspamd_sign}`,
        rspamdController: `127.0.0.1:${ports.rspamd_controller}`,
        policyService: `inet:127.0.0.1:${ports.policy}`,
        redis: `127.0.0.1:${ports.redis}`,
      },
    });
  }

  private component(name: string): SandboxComponent {
    const c = this.components.find((x) => x.name === name);
    if (!c) throw new Error(`no sandbox component ${name}`);
    return c;
  }

  /** Writes a component's files, starts it, and waits until it answers (30 s). */
  async startComponent(name: string): Promise<void> {
    const c = this.component(name);
    this.ctx.log(`starting ${name}`);
    c.files?.(this.ctx);
    const r = await c.start(this.ctx);
    this.running.set(name, r);
    await waitUntil(
      `${name} did not start`,
      () => c.ready(this.ctx),
      c.readyTimeoutMs ?? 30_000,
      () => r.failed?.(),
    );
  }

  async stopComponent(name: string): Promise<void> {
    const r = this.running.get(name);
    if (!r) return;
    this.running.delete(name);
    this.ctx.log(`stopping ${name}`);
    await r.stop();
  }

  /** Stops every running component, last started first. */
  async stop(): Promise<void> {
    for (const c of [...this.components].reverse()) {
      try {
        await this.stopComponent(c.name);
      } catch (err) {
        this.ctx.log(`stopping ${c.name} failed: ${(err as Error).message}`);
      }
    }
  }
}
