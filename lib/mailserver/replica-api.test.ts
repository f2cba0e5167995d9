// A streaming replica on a second mail host, seen through the API. A second private cluster
// streams from the test file's primary (pg_basebackup -R); the production server (`npm start`'s
// lib/runtime/server.mjs over the build in NEXT_DIST_DIR) runs on the primary; a mailbox created over real HTTP
// with HTTP Basic as postmaster is resolved by Postfix's `postmap -q` on the replica (the pgsql map that
// `mailserver config --database postgres --read-hosts <replica>` writes) within 1 s; a replica that falls behind
// (WAL replay paused) or stops does not slow the API. Runs under `npm run test:mail:pg` (TEST_DATABASE=postgres).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { mailReaderSql } from "@/db/pg/mail-reader";
import { stop, type Server } from "@/e2e/api/global-setup";
import { freePort, startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { runCommand } from "@/lib/cli/commands";
import { API_APPLICATION_NAME } from "@/lib/config.mjs";
import { closeTestDatabase, openTestDatabase, testPgCluster } from "./testing/mail-daemons";
import { pgMailConfigArgs } from "./testing/pg-mail-config";
import { describeOnPostgres } from "./testing/several-hosts";
import { callApi, requireProductionBuild, startProductionApi } from "./testing/production-api";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 60_000 });

const D = "replika.test";
const PM = { email: `postmaster@${D}`, password: "Admin-pass1" };
const READER_PASSWORD = "reader-secret";

const describeOnPg = describeOnPostgres("replica API test");

let root: string;
let db: Db;
let primary: PgCluster;
let replica: PgCluster;
let server: Server;
let base: string;
let conf: string;

/** One API call over real HTTP; the status, the JSON body and how long the answer took. */
const call = (method: string, pathname: string, body?: unknown) => callApi(base, PM, method, pathname, body);
const create = (name: string) => call("POST", `/emails/${D}/${name}`, { password: "Konto-pass1" });

/** `postmap -q` on the replica's map (pgsql: opened by postmap itself); undefined when not found. */
function postmap(key: string): string | undefined {
  const r = spawnSync(
    "postmap",
    ["-c", path.join(root, "postfix-etc"), "-q", key, `pgsql:${path.join(conf, "postfix", "virtual-mailbox-maps.cf")}`],
    { encoding: "utf8" },
  );
  if (r.status === 1 && !r.stderr.includes("fatal")) return undefined;
  if (r.status !== 0) throw new Error(`postmap failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** Polls postmap until it resolves `key` or `limitMs` passes since `since`; the answer and the time taken. */
function resolvedWithin(key: string, since: number, limitMs: number): { found?: string; ms: number } {
  let found: string | undefined;
  while (!found && performance.now() - since < limitMs) found = postmap(key);
  return { found, ms: performance.now() - since };
}

describeOnPg("a streaming replica behind the API (PostgreSQL)", () => {
  beforeAll(async () => {
    requireProductionBuild();
    primary = testPgCluster();
    root = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-replica-api-"));
    fs.mkdirSync(path.join(root, "postfix-etc"));
    fs.writeFileSync(path.join(root, "postfix-etc", "main.cf"), "compatibility_level = 3.6\n");
    db = await openTestDatabase(path.join(root, "unused.db"));
    await runCommand(db, ["domain", "add", D, "--postmaster-password", PM.password]);
    primary.psql(mailReaderSql("mail_reader", READER_PASSWORD, primary.database));
    replica = await startReplica(primary, { replicationUser: "replicator" });
    // The second mail host's configuration: lookups on its replica, quota write-back to the primary.
    conf = path.join(root, "conf");
    process.env.MAIL_DB_PASSWORD = READER_PASSWORD;
    await runCommand(
      db,
      pgMailConfigArgs(conf, [`127.0.0.1:${replica.port}`], `127.0.0.1:${primary.port}`, path.join(root, "vmail")),
    );
    delete process.env.MAIL_DB_PASSWORD;
    const port = await freePort();
    server = await startProductionApi("replica-api", port, primary.url, root);
    base = `http://127.0.0.1:${port}/api/v1`;
  }, 180_000);

  afterAll(async () => {
    if (server) await stop(server);
    await replica?.stop();
    await closeTestDatabase(db);
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  });

  it("the second host's map reads the replica, a hot standby", () => {
    expect(replica.psql("SELECT pg_is_in_recovery()").trim()).toBe("t");
    expect(fs.readFileSync(path.join(conf, "postfix", "virtual-mailbox-maps.cf"), "utf8")).toContain(
      `hosts = 127.0.0.1:${replica.port}\nuser = mail_reader\n`,
    );
    expect(postmap(`postmaster@${D}`)).toBe(`${D}/postmaster/`);
  });

  it("a mailbox created through the API is resolved by postmap on the replica within 1 s", async () => {
    // The server's first create compiles and caches its route: not part of what is measured.
    expect((await create("rozgrzewka")).status).toBe(201);
    // The server's connections carry its application_name, by which `mailserver check` counts them once.
    expect(
      Number(primary.psql(`SELECT count(*) FROM pg_stat_activity WHERE application_name = '${API_APPLICATION_NAME}'`)),
    ).toBeGreaterThan(0);
    const afterAnswer: number[] = [];
    const total: number[] = [];
    for (const name of ["nowa1", "nowa2", "nowa3"]) {
      expect(postmap(`${name}@${D}`)).toBeUndefined();
      const r = await create(name);
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      // From the API's answer (the commit on the primary) to the replica's lookup finding it; one postmap run
      // (a process start and a connection) takes about 50-150 ms of that.
      const answered = performance.now();
      const { found, ms } = resolvedWithin(`${name}@${D}`, answered, 5_000);
      expect(found).toBe(`${D}/${name}/`);
      afterAnswer.push(ms);
      total.push(ms + r.ms);
    }
    console.log(
      `replica via API: resolved by postmap on the replica ${afterAnswer.map((t) => t.toFixed(0)).join(", ")} ms after the API's 201 ` +
        `(${total.map((t) => t.toFixed(0)).join(", ")} ms from sending the request)`,
    );
    for (const t of total) expect(t).toBeLessThan(1000);
  });

  it("a replica that falls behind (replay paused) does not slow the API; it catches up when replay resumes", async () => {
    replica.psql("SELECT pg_wal_replay_pause()");
    try {
      const r = await create("zaleglosc");
      expect(r.status).toBe(201);
      const read = await call("GET", `/emails/${D}/zaleglosc`);
      expect(read.status).toBe(200);
      expect(read.json.email).toBe(`zaleglosc@${D}`);
      console.log(`replica paused: API create ${r.ms.toFixed(0)} ms, read ${read.ms.toFixed(0)} ms`);
      expect(r.ms).toBeLessThan(1000);
      expect(read.ms).toBeLessThan(1000);
      // The replica is really behind: its lookup does not know the new mailbox.
      const behind = resolvedWithin(`zaleglosc@${D}`, performance.now(), 1500);
      expect(behind.found).toBeUndefined();
    } finally {
      replica.psql("SELECT pg_wal_replay_resume()");
    }
    const resumed = performance.now();
    const { found, ms } = resolvedWithin(`zaleglosc@${D}`, resumed, 5_000);
    expect(found).toBe(`${D}/zaleglosc/`);
    expect(ms).toBeLessThan(1000);
  });

  it("a stopped replica does not stop the API: creates and reads answer promptly; the replica's lookups fail (Postfix defers)", async () => {
    await replica.kill();
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await create(`bez-repliki${i}`);
      expect(r.status).toBe(201);
      const read = await call("GET", `/emails/${D}/bez-repliki${i}`);
      expect(read.status).toBe(200);
      times.push(r.ms, read.ms);
    }
    const list = await call("GET", `/emails/${D}?search=bez-repliki`);
    expect(list.status).toBe(200);
    console.log(
      `replica stopped: API create/read ${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)} ms, list ${list.ms.toFixed(0)} ms`,
    );
    for (const t of [...times, list.ms]) expect(t).toBeLessThan(1000);
    expect(() => postmap(`bez-repliki0@${D}`)).toThrow(/postmap failed/);
  });
});
