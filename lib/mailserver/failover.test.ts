// The failover of docs/postgresql.md ("Connections from the mail hosts, and failover") run end to end on two private
// clusters: the production server (lib/runtime/server.mjs over the build in NEXT_DIST_DIR) writes to the primary; the
// primary stops; meanwhile the API answers 503.2 with Retry-After; the standby is promoted with the docs' `pg_ctl
// promote`; the server restarts with DATABASE_URL at the new primary and the mail host's configuration is written
// for it; every write made before and after is there; the old primary rejoins as a standby of the new one with the
// docs' `pg_rewind -R` (after it came back as a primary and took a write of its own, which the rewind undoes) and
// replays a write made after it rejoined. Runs under `npm run test:mail:pg`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { stop, type Server } from "@/e2e/api/global-setup";
import { freePort, runPgBin, startPgCluster, startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { waitFor } from "./testing/mail-daemons";
import { pgMailConfigArgs } from "./testing/pg-mail-config";
import { describeOnPostgres } from "./testing/several-hosts";
import { callApi, requireProductionBuild, startProductionApi } from "./testing/production-api";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 120_000 });

const D = "failover.test";
const PM = { email: `postmaster@${D}`, password: "Admin-pass1" };

const describeOnPg = describeOnPostgres("failover test");

let root: string;
let primary: PgCluster;
let standby: PgCluster;
let server: Server | undefined;
let port: number;
const base = () => `http://127.0.0.1:${port}/api/v1`;

const call = (method: string, pathname: string, body?: unknown) => callApi(base(), PM, method, pathname, body);
const create = (name: string) => call("POST", `/emails/${D}/${name}`, { password: "Konto-pass1" });
const names = async () => {
  const r = await call("GET", `/emails/${D}?limit=100`);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return JSON.stringify(r.json);
};

/** The CLI as an operator runs it, with DATABASE_URL at `url`. */
function cli(url: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, DATABASE_PATH: "", ...env },
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** The production server with DATABASE_URL at `url` (a restart after the operator changed the unit's env file). */
async function startApi(url: string) {
  server = await startProductionApi("failover-api", port, url, root);
}

const accountCount = (c: PgCluster, like: string) =>
  Number(c.psql(`SELECT count(*) FROM accounts WHERE email LIKE '${like}'`).trim());

describeOnPg("failover to the standby, as docs/postgresql.md says (PostgreSQL)", () => {
  beforeAll(async () => {
    requireProductionBuild();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-failover-"));
    // pg_rewind needs wal_log_hints (or data checksums) and full_page_writes on the old primary.
    primary = await startPgCluster({
      replicationUser: "replicator",
      settings: { wal_log_hints: "on", full_page_writes: "on" },
    });
    // What the docs grant, on the primary before the standby is made: pg_rewind connects as the replication role.
    primary.psql(
      [
        "GRANT EXECUTE ON FUNCTION pg_catalog.pg_ls_dir(text, boolean, boolean) TO replicator;",
        "GRANT EXECUTE ON FUNCTION pg_catalog.pg_stat_file(text, boolean) TO replicator;",
        "GRANT EXECUTE ON FUNCTION pg_catalog.pg_read_binary_file(text) TO replicator;",
        "GRANT EXECUTE ON FUNCTION pg_catalog.pg_read_binary_file(text, bigint, bigint, boolean) TO replicator;",
      ].join("\n"),
      "postgres",
    );
    cli(primary.url, ["db", "migrate"]);
    cli(primary.url, ["domain", "add", D, "--postmaster-password", PM.password]);
    standby = await startReplica(primary, { replicationUser: "replicator" });
    port = await freePort();
    await startApi(primary.url);
  }, 180_000);

  afterAll(async () => {
    if (server) await stop(server);
    await standby?.stop();
    await primary?.stop();
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  });

  it("writes before, 503 with Retry-After while the primary is gone, promote, repoint, writes after: nothing lost", async () => {
    for (const name of ["przed1", "przed2", "przed3"]) expect((await create(name)).status).toBe(201);

    // Host A's primary is lost (a clean stop: what it wrote has been streamed to the standby).
    await primary.kill();
    for (const r of [await create("w-trakcie"), await call("GET", `/emails/${D}/przed1`)]) {
      expect(r.status, JSON.stringify(r.json)).toBe(503);
      expect(r.json.code).toBe("503.2");
      expect(r.retryAfter).toBe("10");
    }

    // The docs' first step, on host B: promote the standby.
    runPgBin("pg_ctl", ["promote", "-D", standby.dataDir]);
    expect(standby.psql("SELECT pg_is_in_recovery()").trim()).toBe("f");
    // The docs' CHECKPOINT: until it, the new primary's control file names the old timeline, and pg_rewind from it
    // would find "no rewind required" and leave the old primary's diverged write in place.
    standby.psql("CHECKPOINT");
    // Every API host: DATABASE_URL names the new primary, then a restart.
    await stop(server!);
    await startApi(standby.url);
    expect(await names()).toMatch(/przed1.*przed2.*przed3/s);
    // The create refused during the outage left nothing behind; retried now, it is made.
    expect(await names()).not.toContain("w-trakcie");
    expect((await create("w-trakcie")).status).toBe(201);
    for (const name of ["po1", "po2"]) expect((await create(name)).status).toBe(201);
    expect(accountCount(standby, `%@${D}`)).toBe(7); // postmaster, 3 before, the retried one, 2 after

    // Every mail host: the quota write-back goes to the new primary.
    const conf = path.join(root, "mail-conf");
    cli(
      standby.url,
      pgMailConfigArgs(conf, [`127.0.0.1:${standby.port}`], `127.0.0.1:${standby.port}`, path.join(root, "vmail")),
      { MAIL_DB_PASSWORD: "reader-secret" },
    );
    expect(fs.readFileSync(path.join(conf, "dovecot", "dovecot-dict-sql.conf.ext"), "utf8")).toContain(
      `host=127.0.0.1 port=${standby.port} `,
    );
  });

  it("the old primary rejoins as a standby of the new one with pg_rewind and replays a later write", async () => {
    // Host A comes back and its PostgreSQL starts as a primary again (why the docs' rejoin begins by stopping it);
    // a write there (a host not yet repointed) puts it on a timeline the new primary does not have.
    await primary.start();
    expect(primary.psql("SELECT pg_is_in_recovery()").trim()).toBe("f");
    primary.psql("CREATE TABLE stray (x int); INSERT INTO stray VALUES (1);");
    await primary.kill();
    // The docs' rejoin: pg_rewind from the new primary as the replication role, -R making it a standby.
    const out = runPgBin(
      "pg_rewind",
      [
        "-D",
        primary.dataDir,
        `--source-server=host=127.0.0.1 port=${standby.port} user=replicator dbname=postgres`,
        "-R",
      ],
      { PGPASSWORD: primary.password },
    );
    console.log(`pg_rewind: ${out.trim()}`);
    expect(out).toMatch(/rewinding from last common checkpoint/);
    expect(out).toMatch(/Done!/);
    // -R: the standby's connection to the new primary, with the password, in a file only postgres reads.
    const autoConf = path.join(primary.dataDir, "postgresql.auto.conf");
    expect(fs.readFileSync(autoConf, "utf8")).toMatch(
      new RegExp(`primary_conninfo = '.*user=replicator.*password=.*port=${standby.port}`),
    );
    expect(fs.statSync(autoConf).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(primary.dataDir, "standby.signal"))).toBe(true);
    await primary.start();
    expect(primary.psql("SELECT pg_is_in_recovery()").trim()).toBe("t");
    // The diverged write is gone: the old primary now follows the new one's timeline.
    expect(primary.psql("SELECT to_regclass('stray') IS NULL").trim()).toBe("t");
    expect((await create("po-powrocie")).status).toBe(201);
    // Replay has no event to wait on from here: polled.
    await waitFor(
      "the rejoined standby replaying the write",
      () => accountCount(primary, `po-powrocie@${D}`) === 1,
      30_000,
    );
    expect(accountCount(primary, `%@${D}`)).toBe(8);
    expect(primary.psql("SELECT status FROM pg_stat_wal_receiver").trim()).toBe("streaming");
  });
});
