// The mail system on PostgreSQL: real Postfix and Dovecot read a private cluster through the files
// `mailserver config` writes with pgsql (proxy:pgsql: maps, Dovecot's pgsql driver), as the read-only mail role.
// Then a streaming replica: what the primary writes is resolved by Postfix on the replica within a second, and the
// primary keeps taking writes while the replica is down.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailReaderSql } from "@/db/pg/mail-reader";
import { API_APPLICATION_NAME } from "@/lib/config.mjs";
import { openPostgres, type PgDb } from "@/db/pg/client";
import { accounts, aliases, domains, mailingLists } from "@/db/pg/schema";
import { freePort, startPgCluster, startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { appConnection, connectionBudget, mailRoleReadOnly, mailRoleReads, readPgsqlMapFile } from "./check-pg";
import { mailPasswordHash } from "./sha512-crypt";
import { missingMailPackages, requiredInCi, waitFor } from "./testing/mail-daemons";
import { pgMailConfigArgs } from "./testing/pg-mail-config";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 60_000 });

const missing = [
  ...missingMailPackages(),
  ...requiredInCi(
    ["postfix-pgsql", "dovecot-pgsql", "postgresql-15"].filter(
      (p) => spawnSync("dpkg", ["-s", p], { stdio: "ignore" }).status !== 0,
    ),
  ),
];
if (missing.length) console.warn(`pgsql mail tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

const READER = { role: "mail_reader", password: "reader-secret" };
let primary: PgCluster;
let db: PgDb;
let root: string;
let conf: string;
let dovecot: ChildProcess | undefined;

const postmap = (file: string, key: string, confDir = conf) => {
  // pgsql: without proxy: the same file proxymap would open; postmap -q connects itself.
  const r = spawnSync(
    "postmap",
    ["-c", path.join(root, "postfix-etc"), "-q", key, `pgsql:${path.join(confDir, "postfix", `${file}.cf`)}`],
    { encoding: "utf8" },
  );
  // Exit 1 without a word: not found. A table that cannot be queried is fatal (Postfix defers the mail).
  if (r.status === 1 && !r.stderr.includes("fatal")) return undefined;
  if (r.status !== 0) throw new Error(`postmap failed: ${r.stderr}`);
  return r.stdout.trim();
};
const doveadm = (...args: string[]) =>
  spawnSync("doveadm", ["-c", path.join(root, "dovecot.conf"), ...args], { encoding: "utf8" });

/** The operator's CLI in its own process, with DATABASE_URL naming the primary. */
function cli(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: primary.url, MAIL_DB_PASSWORD: READER.password, ...env },
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(" ")}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * `mailserver config --database postgres` for a mail host reading readHosts and writing usage to writeHost. Its
 * quota-status listener takes a free port: on the default 10190 the test's Dovecot stopped at start (its auth socket
 * refusing connections) whenever a mail host on this machine held that port.
 */
async function writeConfig(dir: string, readHosts: string[], writeHost: string) {
  const quotaStatusPort = String(await freePort());
  cli([
    ...pgMailConfigArgs(dir, readHosts, writeHost, path.join(root, "vmail")),
    "--quota-status-port",
    quotaStatusPort,
  ]);
}

describe.skipIf(missing.length > 0)("mail system on PostgreSQL", () => {
  beforeAll(async () => {
    primary = await startPgCluster({ replicationUser: "replicator" });
    db = await openPostgres(primary.url);
    // What `mailserver db-role --print` shows, run by the superuser (the owner role of the test has no CREATEROLE).
    const sql = cli(["mailserver", "db-role", "--print"]);
    expect(sql).toBe(mailReaderSql(READER.role, READER.password, primary.database).trimEnd() + "\n");
    primary.psql(sql);
    root = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-pgsql-"));
    fs.chmodSync(root, 0o755);
    fs.mkdirSync(path.join(root, "postfix-etc"));
    fs.writeFileSync(path.join(root, "postfix-etc", "main.cf"), "compatibility_level = 3.6\n");
    fs.mkdirSync(path.join(root, "vmail"));
    spawnSync("chown", ["nobody:nogroup", path.join(root, "vmail")]);
    conf = path.join(root, "conf");
    await writeConfig(conf, [`127.0.0.1:${primary.port}`], `127.0.0.1:${primary.port}`);

    const [d] = await db.insert(domains).values({ name: "pg.test" }).returning();
    await db.insert(accounts).values([
      {
        domainId: d!.id,
        name: "ola",
        email: "ola@pg.test",
        passwordHash: "x",
        mailPasswordHash: mailPasswordHash("Ola-pass1"),
        capacity: 10,
      },
      {
        domainId: d!.id,
        name: "jan",
        email: "jan@pg.test",
        passwordHash: "x",
        forwards: ["out@ext.test"],
        keepMail: 0,
      },
    ]);
    await db.insert(aliases).values({ domainId: d!.id, name: "info", email: "info@pg.test", target: "ola@pg.test" });
    const subjects = {
      subscribeRequestMailBody: "b",
      subscribeRequestMailSubject: "s",
      unsubscribeRequestMailBody: "b",
      unsubscribeRequestMailSubject: "s",
      subscribeMailBody: "b",
      subscribeMailSubject: "s",
      unsubscribeMailBody: "b",
      unsubscribeMailSubject: "s",
    };
    await db.insert(mailingLists).values({ domainId: d!.id, name: "news", email: "news@pg.test", ...subjects });
  }, 120_000);

  afterAll(async () => {
    if (dovecot && dovecot.exitCode === null) {
      const exited = new Promise((r) => dovecot!.once("exit", r));
      dovecot.kill("SIGTERM");
      await exited;
    }
    await db?.$client.end();
    await primary?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("writes proxy:pgsql: maps and Dovecot's pgsql driver with the mail role", () => {
    const snippet = fs.readFileSync(path.join(conf, "postfix", "main.cf.snippet"), "utf8");
    expect(snippet).toContain(`virtual_mailbox_maps = proxy:pgsql:${conf}/postfix/virtual-mailbox-maps.cf`);
    expect(snippet).not.toContain("sqlite");
    const map = fs.readFileSync(path.join(conf, "postfix", "virtual-alias-maps.cf"), "utf8");
    expect(map).toContain(
      `hosts = 127.0.0.1:${primary.port}\nuser = mail_reader\npassword = reader-secret\ndbname = mailadmin\n`,
    );
    const sql = fs.readFileSync(path.join(conf, "dovecot", "dovecot-sql.conf.ext"), "utf8");
    expect(sql).toContain(`driver = pgsql\n`);
    expect(sql).toContain(
      `connect = host=127.0.0.1 port=${primary.port} dbname='mailadmin' user='mail_reader' password='reader-secret'`,
    );
    expect(fs.readFileSync(path.join(conf, "dovecot", "mailadmin.conf"), "utf8")).toContain(
      `mailadmin = pgsql:${conf}/dovecot/dovecot-dict-sql.conf.ext`,
    );
  });

  it("Postfix resolves a mailbox, an alias, a forward, a list address and its bounce address; not an unknown one", () => {
    expect(postmap("virtual-mailbox-domains", "pg.test")).toBe("pg.test");
    expect(postmap("virtual-mailbox-maps", "ola@pg.test")).toBe("pg.test/ola/");
    expect(postmap("virtual-alias-maps", "info@pg.test")).toBe("ola@pg.test");
    // A forward-only account maps to itself: its Sieve script forwards (docs/mail-server.md, Anti-spam).
    expect(postmap("virtual-alias-maps", "jan@pg.test")).toBe("jan@pg.test");
    expect(postmap("list-transport", "news@pg.test")).toBe("lmtp:inet:127.0.0.1:10024");
    expect(postmap("list-addresses", "news-bounces+a=ext.test@pg.test")).toBe("news-bounces+a=ext.test@pg.test");
    expect(postmap("list-addresses", "news-bounces+a@pg.test")).toBeUndefined();
    expect(postmap("list-addresses", "news-bounces+a=@pg.test")).toBeUndefined();
    expect(postmap("virtual-mailbox-maps", "nobody@pg.test")).toBeUndefined();
  });

  it("through Postfix's proxymap (proxy:pgsql:, the form main.cf uses), with the snippet's proxy_read_maps", async () => {
    // A Postfix instance with only what proxymap needs: main.cf's proxy_read_maps line from the generated snippet.
    const dir = path.join(root, "postfix-proxy");
    fs.mkdirSync(path.join(dir, "queue"), { recursive: true });
    fs.mkdirSync(path.join(dir, "data"), { recursive: true });
    spawnSync("chown", ["postfix", path.join(dir, "data")]);
    const snippet = fs.readFileSync(path.join(conf, "postfix", "main.cf.snippet"), "utf8");
    const proxyReadMaps = snippet.split("\n").find((l) => l.startsWith("proxy_read_maps ="))!;
    fs.writeFileSync(
      path.join(dir, "main.cf"),
      `compatibility_level = 3.6\nqueue_directory = ${dir}/queue\ndata_directory = ${dir}/data\nmaillog_file_prefixes = ${root}\n` +
        `maillog_file = ${root}/postfix.log\ninet_interfaces = 127.0.0.1\ninet_protocols = ipv4\nmydestination =\nalias_maps =\nalias_database =\n${proxyReadMaps}\n`,
    );
    fs.writeFileSync(
      path.join(dir, "master.cf"),
      "proxymap unix - - n - - proxymap\npostlog unix-dgram n - n - 1 postlogd\n",
    );
    const master = spawn("postfix", ["-c", dir, "start-fg"], { stdio: "ignore" });
    try {
      const q = (table: string, key: string) =>
        spawnSync("postmap", ["-c", dir, "-q", key, `proxy:pgsql:${path.join(conf, "postfix", `${table}.cf`)}`], {
          encoding: "utf8",
        });
      const deadline = Date.now() + 20_000;
      // A client that finds no proxymap socket sleeps 10 s before it tries again: query once master has made it.
      const socket = path.join(dir, "queue", "private", "proxymap");
      await waitFor("proxymap's socket", () => fs.existsSync(socket), 20_000);
      let r = q("virtual-mailbox-maps", "ola@pg.test");
      while (r.stdout.trim() !== "pg.test/ola/" && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 250));
        r = q("virtual-mailbox-maps", "ola@pg.test");
      }
      expect(r.stdout.trim(), r.stderr).toBe("pg.test/ola/");
      expect(q("virtual-alias-maps", "info@pg.test").stdout.trim()).toBe("ola@pg.test");
      expect(q("list-addresses", "news@pg.test").stdout.trim()).toBe("news@pg.test");
      // A table proxy_read_maps does not list is refused by proxymap.
      fs.copyFileSync(path.join(conf, "postfix", "virtual-alias-maps.cf"), path.join(conf, "postfix", "unlisted.cf"));
      expect(q("unlisted", "info@pg.test").stderr).toMatch(/not configured for table/);
    } finally {
      spawnSync("postfix", ["-c", dir, "stop"], { stdio: "ignore", timeout: 20_000 });
      if (master.exitCode === null) await new Promise((res) => master.once("exit", res));
    }
  });

  it("the mail role reads the views only and writes nothing but mail_quota", async () => {
    const pg = await import("pg");
    const client = new pg.default.Client({
      connectionString: primary.urlFor({ user: READER.role, password: READER.password }),
    });
    await client.connect();
    try {
      expect((await client.query<{ n: number }>("SELECT count(*) AS n FROM mail_mailboxes")).rows[0]!.n).toBe(2);
      await expect(client.query("SELECT * FROM accounts")).rejects.toThrow(/permission denied/);
      await expect(client.query("UPDATE accounts SET blocked = 1")).rejects.toThrow(/permission denied/);
      await expect(client.query("DELETE FROM mail_quota")).rejects.toThrow(/permission denied/);
    } finally {
      await client.end();
    }
  });

  it("mailserver check's database checks: the connection, the mail role on every read host, read-only", async () => {
    expect(await appConnection(primary.url)).toMatchObject({ ok: true });
    const settings = readPgsqlMapFile(path.join(conf, "postfix", "virtual-mailbox-maps.cf"));
    expect(await mailRoleReads(settings)).toMatchObject({ ok: true });
    expect(await mailRoleReadOnly(primary.url, settings.user)).toMatchObject({ ok: true });
    // Maps written with the owner's credentials fail the read-only check; a wrong password fails the read check.
    expect(await mailRoleReadOnly(primary.url, primary.user)).toMatchObject({ ok: false });
    expect((await mailRoleReads({ ...settings, password: "wrong" })).detail).toMatch(/password authentication failed/);
    // The maps ask the views' lookup functions: a database that denies the role EXECUTE fails every lookup.
    primary.psql("REVOKE EXECUTE ON FUNCTION mail_sender_logins_for(text) FROM PUBLIC");
    try {
      expect((await mailRoleReads(settings)).detail).toMatch(/permission denied for function mail_sender_logins_for/);
    } finally {
      primary.psql("GRANT EXECUTE ON FUNCTION mail_sender_logins_for(text) TO PUBLIC");
    }
    expect(await mailRoleReads(settings)).toMatchObject({ ok: true });
  });

  it("mailserver check fails when this host's API would not fit in max_connections beside what is open", async () => {
    expect(primary.psql("SHOW max_connections").trim()).toBe("100");
    expect(await connectionBudget(primary.url, 16, 3)).toMatchObject({ ok: true });
    const over = await connectionBudget(primary.url, 16, 10);
    expect(over.ok).toBe(false);
    expect(over.detail).toMatch(
      /16 workers × \(10 pooled \+ 1 listening\) = 176, \d+ open now besides it, max_connections 100 \(3 reserved\): \d+ would not fit in 97/,
    );
    // Each worker's listening connection counts: a pool that would just fit beside what is open does not with it.
    const open = Number(
      primary.psql(
        "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      ),
    );
    const pool = Math.floor((97 - open) / 12);
    expect((await connectionBudget(primary.url, 12, pool)).ok).toBe(false);
    expect((await connectionBudget(primary.url, 12, pool - 1)).ok).toBe(true);
  });

  it("mailserver check counts its host's running API once: its connections are not also counted as open", async () => {
    const openNow = async () => {
      const r = await connectionBudget(primary.url, 2, 2);
      return { used: Number(/(\d+) open now besides it/.exec(r.detail)![1]), detail: r.detail };
    };
    const base = await openNow();
    // Five connections as the API server names them (lib/runtime/server.mjs), from this host.
    const api = new pg.Pool({ connectionString: primary.url, application_name: API_APPLICATION_NAME, max: 5 });
    const other = new pg.Pool({ connectionString: primary.url, application_name: "something-else", max: 5 });
    const held: pg.PoolClient[] = [];
    try {
      held.push(...(await Promise.all(Array.from({ length: 5 }, () => api.connect()))));
      const withApi = await openNow();
      expect(withApi.used).toBe(base.used);
      expect(withApi.detail).toContain("(and 5 of its own)");
      // Any other connection counts.
      held.push(...(await Promise.all(Array.from({ length: 5 }, () => other.connect()))));
      expect((await openNow()).used).toBe(base.used + 5);
    } finally {
      for (const c of held) c.release();
      await Promise.all([api.end(), other.end()]);
    }
  });

  it("Dovecot authenticates and looks users up over pgsql, and quota_clone writes usage back through the role", async () => {
    const port = await freePort();
    fs.mkdirSync(path.join(root, "dovecot-run"));
    fs.writeFileSync(
      path.join(root, "dovecot.conf"),
      `base_dir = ${root}/dovecot-run
state_dir = ${root}/dovecot-run
log_path = ${root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
!include ${conf}/dovecot/mailadmin.conf
`,
    );
    dovecot = spawn("dovecot", ["-F", "-c", path.join(root, "dovecot.conf")], { stdio: "ignore" });
    const deadline = Date.now() + 20_000;
    while (!fs.existsSync(path.join(root, "dovecot-run", "auth-userdb"))) {
      if (Date.now() > deadline || dovecot.exitCode !== null)
        throw new Error(
          `dovecot did not start: ${fs.existsSync(path.join(root, "dovecot.log")) ? fs.readFileSync(path.join(root, "dovecot.log"), "utf8") : ""}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
    // The socket exists before the auth process answers on a busy host: wait for its first answer, whatever it is.
    let ok = doveadm("auth", "test", "-x", "no-penalty", "ola@pg.test", "Ola-pass1");
    while (!/auth (succeeded|failed)/.test(ok.stdout) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      ok = doveadm("auth", "test", "-x", "no-penalty", "ola@pg.test", "Ola-pass1");
    }
    expect(ok.stdout, ok.stderr).toContain("auth succeeded");
    expect(doveadm("auth", "test", "-x", "no-penalty", "ola@pg.test", "wrong").stdout).not.toContain("auth succeeded");
    // jan has no mail password: not in mail_passdb.
    expect(doveadm("auth", "test", "-x", "no-penalty", "jan@pg.test", "x").stdout).not.toContain("auth succeeded");
    const user = doveadm("user", "ola@pg.test");
    expect(user.stdout).toContain("quota_rule\t*:storage=10M");
    expect(doveadm("user", "nobody@pg.test").status).not.toBe(0);
    expect(doveadm("user", "*@pg.test").stdout.split("\n").filter(Boolean).sort()).toEqual([
      "jan@pg.test",
      "ola@pg.test",
    ]);
    // A message saved into ola's inbox: quota_clone writes its size into mail_quota (as the mail role), the
    // SECURITY DEFINER trigger copies it into the account.
    const save = spawnSync("doveadm", ["-c", path.join(root, "dovecot.conf"), "save", "-u", "ola@pg.test"], {
      input: "From: a@b.test\nSubject: quota\n\n" + "x".repeat(20_000) + "\n",
      encoding: "utf8",
    });
    expect(save.status, save.stderr).toBe(0);
    doveadm("quota", "recalc", "-u", "ola@pg.test");
    const waitUsage = Date.now() + 10_000;
    let usage = 0;
    while (Date.now() < waitUsage) {
      const [a] = await db.select({ u: accounts.usageBytes }).from(accounts).where(eq(accounts.email, "ola@pg.test"));
      usage = a!.u;
      if (usage > 20_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(usage).toBeGreaterThan(20_000);
  });

  describe("a streaming replica on a second mail host", () => {
    let replica: PgCluster;
    let replicaConf: string;

    beforeAll(async () => {
      replica = await startReplica(primary, { replicationUser: "replicator" });
      // The second host's maps read its local replica; its Dovecot dict writes to the primary.
      replicaConf = path.join(root, "conf-replica");
      await writeConfig(replicaConf, [`127.0.0.1:${replica.port}`], `127.0.0.1:${primary.port}`);
    }, 120_000);

    afterAll(async () => {
      await replica?.stop();
    });

    it("is a hot standby that refuses writes, and the generated maps point at it", () => {
      expect(replica.psql("SELECT pg_is_in_recovery()").trim()).toBe("t");
      expect(() => replica.psql("INSERT INTO mail_quota (username) VALUES ('x')")).toThrow(/read-only transaction/);
      expect(fs.readFileSync(path.join(replicaConf, "postfix", "virtual-mailbox-maps.cf"), "utf8")).toContain(
        `hosts = 127.0.0.1:${replica.port}\n`,
      );
      const writeDict = fs.readFileSync(path.join(replicaConf, "dovecot", "dovecot-dict-sql.conf.ext"), "utf8");
      expect(writeDict).toContain(`host=127.0.0.1 port=${primary.port} `);
      expect(writeDict).not.toContain("mail_sieve_scripts");
      // Sieve scripts are read where the lookups read (the replica), so delivery does not need the primary.
      const sieveDict = fs.readFileSync(path.join(replicaConf, "dovecot", "dovecot-dict-sieve-sql.conf.ext"), "utf8");
      expect(sieveDict).toContain(`connect = host=127.0.0.1 port=${replica.port} `);
      expect(sieveDict).toContain("table = mail_sieve_scripts");
      const main = fs.readFileSync(path.join(replicaConf, "dovecot", "mailadmin.conf"), "utf8");
      expect(main).toContain(`mailadmin_sieve = pgsql:${replicaConf}/dovecot/dovecot-dict-sieve-sql.conf.ext`);
      expect(main).toContain("sieve = dict:proxy::mailadmin_sieve;");
      // The spam filter (sieve_before) too: the dict `mailadmin` has no Sieve maps on PostgreSQL.
      expect(main).toContain("sieve_before = dict:proxy::mailadmin_sieve;name=spam");
      expect(fs.statSync(path.join(replicaConf, "dovecot", "dovecot-dict-sieve-sql.conf.ext")).mode & 0o777).toBe(
        0o640,
      );
    });

    it("resolves a mailbox created on the primary through Postfix on the replica within 1 s", async () => {
      // Created through the PostgreSQL db layer on the primary (the API on PostgreSQL is wired by i34a's branch).
      const [d] = await db.select().from(domains).where(eq(domains.name, "pg.test"));
      expect(postmap("virtual-mailbox-maps", "nowa@pg.test", replicaConf)).toBeUndefined();
      const started = performance.now();
      await db.insert(accounts).values({ domainId: d!.id, name: "nowa", email: "nowa@pg.test", passwordHash: "x" });
      let found: string | undefined;
      while (performance.now() - started < 5_000 && !found)
        found = postmap("virtual-mailbox-maps", "nowa@pg.test", replicaConf);
      const ms = performance.now() - started;
      console.log(
        `replica lookup: nowa@pg.test resolved on the replica ${ms.toFixed(0)} ms after the commit on the primary`,
      );
      expect(found).toBe("pg.test/nowa/");
      expect(ms).toBeLessThan(1000);
    });

    it("asks the primary about a mailbox the replica does not know yet", async () => {
      const primaryMap = path.join(replicaConf, "postfix", "virtual-mailbox-maps-primary.cf");
      expect(fs.readFileSync(primaryMap, "utf8")).toContain(`hosts = 127.0.0.1:${primary.port}\n`);
      const main = fs.readFileSync(path.join(replicaConf, "postfix", "main.cf.snippet"), "utf8");
      expect(main).toContain(
        `virtual_mailbox_maps = proxy:pgsql:${replicaConf}/postfix/virtual-mailbox-maps.cf proxy:pgsql:${primaryMap}\n`,
      );
      // mailserver check's line for it: the mail role reads the views there.
      const reads = await mailRoleReads(readPgsqlMapFile(primaryMap));
      expect(reads.ok).toBe(true);
      expect(reads.detail).toContain(`on 127.0.0.1:${primary.port}`);
      const [d] = await db.select().from(domains).where(eq(domains.name, "pg.test"));
      replica.psql("SELECT pg_wal_replay_pause()");
      try {
        await db.insert(accounts).values({ domainId: d!.id, name: "later", email: "later@pg.test", passwordHash: "x" });
        expect(postmap("virtual-mailbox-maps", "later@pg.test", replicaConf)).toBeUndefined();
        expect(postmap("virtual-mailbox-maps-primary", "later@pg.test", replicaConf)).toBe("pg.test/later/");
      } finally {
        replica.psql("SELECT pg_wal_replay_resume()");
      }
      // Host A's maps read the primary itself: no second map there.
      expect(fs.existsSync(path.join(conf, "postfix", "virtual-mailbox-maps-primary.cf"))).toBe(false);
    });

    it("mailserver check fails on a read host whose replay is paused (its maps go stale), and passes once it resumes", async () => {
      // PostgreSQL pauses a standby's replay by itself when the primary raised max_connections above the standby's.
      const settings = readPgsqlMapFile(path.join(replicaConf, "postfix", "virtual-mailbox-maps.cf"));
      expect(await mailRoleReads(settings)).toMatchObject({ ok: true });
      replica.psql("SELECT pg_wal_replay_pause()");
      try {
        const r = await mailRoleReads(settings);
        expect(r.ok).toBe(false);
        expect(r.detail).toMatch(
          new RegExp(
            `^127\\.0\\.0\\.1:${replica.port} is a standby whose replay is (paused|pause requested):.*max_connections`,
          ),
        );
      } finally {
        replica.psql("SELECT pg_wal_replay_resume()");
      }
      expect(await mailRoleReads(settings)).toMatchObject({ ok: true });
      // The primary is no standby: never paused.
      expect(
        await mailRoleReads(readPgsqlMapFile(path.join(conf, "postfix", "virtual-mailbox-maps.cf"))),
      ).toMatchObject({
        ok: true,
      });
    });

    it("a replica that stops does not stop writes on the primary", async () => {
      await replica.kill();
      const started = performance.now();
      const [d] = await db.select().from(domains).where(eq(domains.name, "pg.test"));
      const before = d!.accountCount;
      for (let i = 0; i < 20; i++) {
        await db
          .insert(accounts)
          .values({ domainId: d!.id, name: `down${i}`, email: `down${i}@pg.test`, passwordHash: "x" });
      }
      await db
        .update(accounts)
        .set({ description: "changed while the replica is down" })
        .where(eq(accounts.name, "ola"));
      const ms = performance.now() - started;
      expect(ms).toBeLessThan(2000);
      const [c] = await db.select({ n: domains.accountCount }).from(domains).where(eq(domains.id, d!.id));
      expect(c!.n).toBe(before + 20);
      // A lookup against the stopped replica fails (Postfix defers the mail, it does not bounce it).
      expect(() => postmap("virtual-mailbox-maps", "down0@pg.test", replicaConf)).toThrow(/postmap failed/);
    });
  });
});
