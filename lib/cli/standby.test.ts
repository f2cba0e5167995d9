// A PostgreSQL standby serves reads: the CLI's read-only commands work with DATABASE_URL at a streaming replica
// (nothing is migrated there), `mailserver check` says it is a standby, a write is refused as needing the primary,
// and the API's answer while the database is gone or has no connection left is a 503 with Retry-After, not 500.100.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgres, type PgDb } from "@/db/pg/client";
import { domains } from "@/db/pg/schema";
import { startPgCluster, startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { freePort } from "@/lib/mailserver/sandbox/processes";
import { toApiError } from "@/lib/server/http/http";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let primary: PgCluster;
let replica: PgCluster;
let db: PgDb;

const cli = (url: string, ...argsAndInput: (string | { input: string })[]) => {
  const input = argsAndInput.find((a) => typeof a !== "string")?.input;
  const args = argsAndInput.filter((a) => typeof a === "string");
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    encoding: "utf8",
    input,
    env: { ...process.env, DATABASE_URL: url, DATABASE_PATH: "" },
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
};

beforeAll(async () => {
  primary = await startPgCluster({ replicationUser: "replicator" });
  db = await openPostgres(primary.url);
  await db.insert(domains).values({ name: "standby.test" });
  replica = await startReplica(primary, { replicationUser: "replicator" });
  // Wait for the replica to have replayed the domain (polled: replay has no event to wait on from here).
  await vi.waitFor(
    () => expect(replica.psql("SELECT count(*) FROM domains WHERE name = 'standby.test'").trim()).toBe("1"),
    {
      timeout: 30_000,
      interval: 100,
    },
  );
}, 180_000);

afterAll(async () => {
  await db?.$client.end().catch(() => {});
  await replica?.stop();
  await primary?.stop();
});

// Each test starts the CLI (tsx compiles it each time), which takes several times longer beside the mail tests (CI runs
// them in two lanes, .ci/test.sh).
describe("a standby serves reads", { timeout: 90_000 }, () => {
  it("domain list and audit list work against the standby without migrating", () => {
    const list = cli(replica.url, "domain", "list");
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("standby.test");
    const audit = cli(replica.url, "audit", "list");
    expect(audit.stderr).toBe("");
    expect(audit.status).toBe(0);
  });

  it("db migrate and a write against the standby fail with one line naming the primary, exit 1", () => {
    const migrate = cli(replica.url, "db", "migrate");
    expect(migrate.status).toBe(1);
    expect(migrate.stderr).toMatch(
      /^error: Database not migrated: 127\.0\.0\.1:\d+\/\w+ is a standby \(migrate its primary\)\n$/,
    );
    const write = cli(replica.url, "domain", "add", "w.test", "--postmaster-password", "Admin-pass1");
    expect(write.status).toBe(1);
    expect(write.stderr).toBe(
      "error: the database is a read-only standby: DATABASE_URL must name the primary (nothing was written)\n",
    );
  });

  it("domain import against the standby stops at its first domain with the same one line and the counts, exit 1", () => {
    // Each line used to fail on its own after hashing its password: a line per domain, minutes for a big file.
    const r = cli(replica.url, "domain", "import", "-", { input: "i1.test -\ni2.test -\ni3.test -\n" });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("0 added, 0 already hosted, 0 failed, 3 not added\n");
    expect(r.stderr).toBe(
      "error: the database is a read-only standby: DATABASE_URL must name the primary (nothing was written)\n",
    );
    // A domain already hosted is read, and counted; the lines from the refused one on are not added. Before, the
    // summary was left out: the exists line alone, as if the file had held one domain.
    const hosted = cli(replica.url, "domain", "import", "-", { input: "standby.test -\ni1.test -\ni2.test -\n" });
    expect(hosted.status).toBe(1);
    expect(hosted.stdout).toBe("exists\tstandby.test\n0 added, 1 already hosted, 0 failed, 2 not added\n");
    expect(hosted.stderr).toBe(
      "error: the database is a read-only standby: DATABASE_URL must name the primary (nothing was written)\n",
    );
  });

  it("mailserver check says the database is a standby", async () => {
    // Every service the check probes is named at a closed port or a missing socket: a mail host running on this
    // machine must not see a failed login from a test.
    const closed = `127.0.0.1:${await freePort()}`;
    const r = cli(
      replica.url,
      "mailserver",
      "check",
      "--account",
      "a@standby.test",
      "--password",
      "x",
      "--config-dir",
      "/nonexistent",
      ...["--submission", closed, "--rspamd-controller", closed, "--policy-service", closed],
      ...["--quota-status", closed, "--events-url", `http://${closed}`],
      ...["--lmtp-socket", "/nonexistent/lmtp", "--auth-socket", "/nonexistent/auth"],
    );
    expect(`${r.stdout}${r.stderr}`).toMatch(/is a standby \(read-only\)/);
  });

  it("a write on the standby is answered 503.3, needing the primary", async () => {
    const standby = await openPostgres(replica.url);
    try {
      const err = await standby
        .insert(domains)
        .values({ name: "w.test" })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(toApiError(err).toBody()).toMatchObject({ code: "503.3" });
      expect(toApiError(err).status).toBe(503);
    } finally {
      await standby.$client.end();
    }
  });

  it("a connection refused for want of a free one (53300) is answered 503.2, not 500.100", async () => {
    // The role's limit refuses as max_connections does, with the same SQLSTATE.
    primary.psql("CREATE ROLE no_slots LOGIN PASSWORD 'no-slots' CONNECTION LIMIT 0");
    const full = await openPostgres(primary.urlFor({ user: "no_slots", password: "no-slots" }), { migrate: false });
    try {
      const err = await full
        .select()
        .from(domains)
        .then(
          () => null,
          (e: unknown) => e,
        );
      // drizzle wraps the driver's error ("Failed query: ..."), the original as its cause.
      expect((err as { cause?: { code?: string } }).cause?.code).toBe("53300");
      expect(toApiError(err).toBody()).toMatchObject({ code: "503.2" });
      expect(toApiError(err).status).toBe(503);
    } finally {
      await full.$client.end();
    }
  });

  it("a query while the primary is gone is answered 503.2, not 500.100", async () => {
    await db.select().from(domains);
    await primary.stop();
    const err = await db
      .select()
      .from(domains)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeNull();
    expect(toApiError(err).toBody()).toMatchObject({ code: "503.2" });
  });
});
