// db backup / db restore on PostgreSQL: a pg_dump archive of a private cluster, checked, restored over later
// changes in one transaction; bad archives refused without touching the database.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type PgDb } from "@/db/pg/client";
import { accounts, domains, loginThrottle, sessions } from "@/db/pg/schema";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { MAIL_VIEWS, mailReaderSql } from "@/db/pg/mail-reader";
import { backupPostgres, optimizePostgres, pgToolConnection, restorePostgres, verifyPgArchive } from "./pg-backup";

let cluster: PgCluster;
let db: PgDb;
let dir: string;

/** The operator's CLI in its own process, on the database at `url`. */
function cli(url: string, args: string[]) {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const emails = async () => (await db.select({ e: accounts.email }).from(accounts)).map((r) => r.e).sort();
const counters = async () => (await db.select({ n: domains.accountCount }).from(domains))[0]?.n;

beforeAll(async () => {
  cluster = await startPgCluster();
  db = await openPostgres(cluster.url);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-pgbackup-"));
  const [d] = await db.insert(domains).values({ name: "b.test" }).returning();
  await db.insert(accounts).values([
    { domainId: d!.id, name: "a", email: "a@b.test", passwordHash: "x" },
    { domainId: d!.id, name: "b", email: "b@b.test", passwordHash: "x" },
  ]);
}, 120_000);

afterAll(async () => {
  await db?.$client.end();
  await cluster?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("db backup / db restore on PostgreSQL", () => {
  it("writes a checked pg_dump archive, mode 0600, and never overwrites a file", () => {
    const file = path.join(dir, "one.dump");
    const report = backupPostgres(cluster.url, file);
    expect(report.bytes).toBeGreaterThan(1000);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(() => verifyPgArchive(file)).not.toThrow();
    expect(() => backupPostgres(cluster.url, file)).toThrow(/already exists/);
  });

  it("gives pg_dump and pg_restore the password in the environment, never on the command line", () => {
    const conn = pgToolConnection(cluster.urlFor({ password: "pa ss'wd@x" }));
    expect(conn.dbname).not.toContain("pa");
    expect(conn.dbname).toMatch(/^postgres:\/\/mailadmin@127\.0\.0\.1:\d+\/mailadmin$/);
    expect(conn.env).toEqual({ PGPASSWORD: "pa ss'wd@x" });
    // scram-sha-256 on TCP: the dump below only succeeds with the password taken from PGPASSWORD.
    const file = path.join(dir, "env.dump");
    backupPostgres(cluster.url, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.rmSync(file);
  });

  it("restores the backup over later changes, triggers and counters included", async () => {
    const file = path.join(dir, "one.dump");
    const [d] = await db.select().from(domains);
    await db.insert(accounts).values({ domainId: d!.id, name: "later", email: "later@b.test", passwordHash: "x" });
    expect(await counters()).toBe(3);
    // The pool's connections would hold locks: the service is stopped for a restore.
    await db.$client.end();
    await restorePostgres(cluster.url, file);
    db = await openPostgres(cluster.url);
    expect(await emails()).toEqual(["a@b.test", "b@b.test"]);
    expect(await counters()).toBe(2);
    // The triggers came back with the schema.
    await db.insert(accounts).values({ domainId: d!.id, name: "after", email: "after@b.test", passwordHash: "x" });
    expect(await counters()).toBe(3);
    expect(cluster.psql("SELECT count(*) FROM pg_views WHERE viewname LIKE 'mail\\_%'").trim()).toBe(
      String(MAIL_VIEWS.length),
    );
  });

  it("restores onto a new cluster where a superuser made pg_trgm and mail_reader does not exist; grants for the roles that do", async () => {
    cluster.psql(mailReaderSql("mail_reader", "reader-secret", cluster.database));
    const file = path.join(dir, "new-cluster.dump");
    backupPostgres(cluster.url, file);
    const other = await startPgCluster();
    try {
      // The docs' alternative: a superuser creates the extension, so the owner cannot drop it.
      other.psql("CREATE EXTENSION pg_trgm");
      const r = cli(other.url, ["db", "restore", file, "--yes"]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        "Not granted (no such role here): mail_reader; with MAIL_DB_PASSWORD set to the password in the mail hosts' " +
          "maps, run `npm run --silent cli -- mailserver db-role --print | runuser -u postgres -- psql -v ON_ERROR_STOP=1 " +
          `-p ${new URL(other.url).port} -d ${other.database} -f -\` (docs/postgresql.md).`,
      );
      expect(other.psql("SELECT string_agg(email, ',' ORDER BY email) FROM accounts").trim()).toBe(
        (await emails()).join(","),
      );
      // The planner's statistics are made by the restore (pg_restore carries none).
      expect(
        other
          .psql(
            "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('accounts', 'list_members', 'aliases') AND last_analyze IS NOT NULL",
          )
          .trim(),
      ).toBe("3");
      // The role made afterwards (as the docs say) reads the views.
      other.psql(mailReaderSql("mail_reader", "reader-secret", other.database));
      expect(other.psql("SET ROLE mail_reader; SELECT count(*) FROM mail_mailboxes").trim()).toBe(
        String((await emails()).length),
      );
      // With the role present, the archive's grants are applied by the restore itself.
      other.psql("REVOKE SELECT ON mail_mailboxes FROM mail_reader");
      // Changed after the backup: an account created, the domain placed on a mail host. The restore names both, since
      // the new account's mailbox stays on its host and the domain's mail goes back to where its mailboxes are not.
      other.psql(
        "INSERT INTO mail_hosts (name, address) VALUES ('imap1', '10.0.0.1');" +
          "UPDATE domains SET mail_host = 'imap1' WHERE name = 'b.test';" +
          "INSERT INTO accounts (domain_id, name, email, password_hash) SELECT id, 'nowy', 'nowy@b.test', 'x' FROM domains WHERE name = 'b.test'",
      );
      const again = cli(other.url, ["db", "restore", file, "--yes"]);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).not.toContain("Not granted");
      expect(again.stdout).toMatch(
        /^1 account created after the backup is gone, and the mailboxes stay on their hosts\./m,
      );
      expect(again.stdout).toMatch(/^ {2}not in the backup: nowy@b\.test \(mailbox on imap1\)$/m);
      expect(again.stdout).toMatch(/^ {2}domain b\.test: imap1 -> no host$/m);
      expect(other.psql("SELECT has_table_privilege('mail_reader', 'mail_mailboxes', 'SELECT')").trim()).toBe("t");

      // A restore that fails into a new database leaves it empty: no schema migrated before it.
      other.psql(`CREATE DATABASE fresh OWNER ${other.user}`);
      const cut = path.join(dir, "cut.dump");
      const whole = fs.readFileSync(file);
      fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.7)));
      const failed = cli(other.urlFor({ database: "fresh" }), ["db", "restore", cut, "--yes"]);
      expect(failed.status).toBe(1);
      expect(
        other
          .psql("SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')", "fresh")
          .trim(),
      ).toBe("0");
      expect(other.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'drizzle'", "fresh").trim()).toBe("0");
    } finally {
      await other.stop();
    }
  }, 120_000);

  it("refuses a file that is not an archive of this service, leaving the database alone", async () => {
    const junk = path.join(dir, "junk.dump");
    fs.writeFileSync(junk, "not an archive");
    await expect(restorePostgres(cluster.url, junk)).rejects.toThrow(/not a pg_dump archive/);
    await expect(restorePostgres(cluster.url, path.join(dir, "missing.dump"))).rejects.toThrow(
      `cannot read ${path.join(dir, "missing.dump")}: there is no such file`,
    );
    expect(await counters()).toBe(3);
  });

  it("db migrate on an empty database says how many migrations it applied, then that none were pending", () => {
    // The CLI migrated a PostgreSQL database before running any command that did not open its own connection, this
    // one too: on a fresh database it applied every migration and then printed "already up to date".
    cluster.psql(`CREATE DATABASE migrate_fresh OWNER ${cluster.user}`);
    const url = cluster.urlFor({ database: "migrate_fresh" });
    const journal = JSON.parse(fs.readFileSync("db/pg/migrations/meta/_journal.json", "utf8")) as {
      entries: unknown[];
    };
    const first = cli(url, ["db", "migrate"]);
    expect(first.stderr).toBe("");
    expect(first.stdout.trim()).toBe(
      `Database migrated: ${new URL(url).host}/migrate_fresh (${journal.entries.length} migrations applied)`,
    );
    expect(cluster.psql("SELECT count(*) FROM drizzle.__drizzle_migrations", "migrate_fresh").trim()).toBe(
      String(journal.entries.length),
    );
    const again = cli(url, ["db", "migrate"]);
    expect(again.stdout.trim()).toBe(`Database migrated: ${new URL(url).host}/migrate_fresh (already up to date)`);
  });

  it("db migrate and db optimize run on PostgreSQL", async () => {
    // The operator's command, in its own process: which database, and that nothing was pending.
    const migrated = cli(cluster.url, ["db", "migrate"]);
    expect(migrated.stderr).toBe("");
    expect(migrated.stdout.trim()).toBe(
      `Database migrated: ${new URL(cluster.url).host}/mailadmin (already up to date)`,
    );
    const r = await optimizePostgres(cluster.url);
    expect(r.ms).toBeGreaterThan(0);
    expect(
      cluster
        .psql(
          "SELECT last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'accounts'",
        )
        .trim(),
    ).toBe("t");
  });

  it("db optimize deletes expired sessions and stale login-throttle rows, as on SQLite, and keeps live ones", async () => {
    const now = Date.now();
    const [a] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, "a@b.test"));
    await db.insert(sessions).values([
      {
        idHash: "idle",
        accountId: a!.id,
        createdAt: now - 3_600_000,
        lastSeenAt: now - 31 * 60_000,
        clientIp: "127.0.0.1",
      },
      {
        idHash: "old",
        accountId: a!.id,
        createdAt: now - 13 * 3_600_000,
        lastSeenAt: now - 60_000,
        clientIp: "127.0.0.1",
      },
      { idHash: "live", accountId: a!.id, createdAt: now - 60_000, lastSeenAt: now - 1000, clientIp: "127.0.0.1" },
    ]);
    await db.insert(loginThrottle).values([
      { clientIp: "*", email: "a@b.test", failures: 5, lockedUntil: now - 20 * 60_000, lastFailure: now - 20 * 60_000 },
      { clientIp: "*", email: "b@b.test", failures: 5, lockedUntil: now + 60_000, lastFailure: now - 1000 },
    ]);
    // The CLI in its own process, as the daily timer runs it (DATABASE_URL picks the engine when it starts).
    const r = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "db", "optimize"],
      {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: cluster.url },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /VACUUM \(ANALYZE\) done in \d+ ms; deleted 2 expired sessions and 1 stale login-throttle rows\./,
    );
    expect((await db.select({ id: sessions.idHash }).from(sessions)).map((s) => s.id)).toEqual(["live"]);
    expect((await db.select({ e: loginThrottle.email }).from(loginThrottle)).map((t) => t.e)).toEqual(["b@b.test"]);
  });
});
