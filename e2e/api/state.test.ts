/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// One state for every process, and what a hostile client got through when the service was probed, over
// real HTTP against the production server. This file starts servers of its own:
//   A and B    two `npm start` servers (A with 1 worker, B with 2) on ONE database file, the real scrypt cost;
//   budget     a server on a database of its own whose client-address budget is 4 failed logins.
// Sessions, sign-out, lockouts, restarts, password change and block are shown across A and B; then the import of
// 10,000 accounts by another process, the timing of unknown and wrong logins, bodies of 256 MB, and kill -9 of a
// worker.
import { apiTestPort, databaseEnv, onPostgres } from "../support/test-database";
import Database from "better-sqlite3";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, basic, expectError, expectErrorBody, expectStatus, sha1Hex, type Creds } from "./client";
import { NODE_TSX, run, startServer, stop, type Server } from "./global-setup";
import { getOnce, hangUpMidBody, hugeBody } from "./state-requests";

const D = "state.example.com";
const PM: Creds = { email: `postmaster@${D}`, password: "Postmaster-1" };
const JAN: Creds = { email: `jan@${D}`, password: "Jan-pass-1" };
const port0 = apiTestPort() + 5;
const PORTS = { a: port0, b: port0 + 1, budget: port0 + 2 };

let dir: string;
let dbPath: string;
/** The databases of the shared servers and of the budget server (a file each, or a PostgreSQL database each). */
let sharedDb: Record<string, string>;
let budgetDb: Record<string, string>;
const servers: Record<string, Server> = {};
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_MAX_FAILURES: "3",
    AUTH_LOCKOUT_SECONDS: "600",
    AUTH_ADDRESS_MAX_FAILURES: "1000000",
    ...extra,
  };
  // The real cost, so that the timing test compares real scrypt work.
  delete e.SCRYPT_COST;
  delete e.ALLOWED_CLIENT_IPS;
  return e;
};
const origin = (port: number) => `http://127.0.0.1:${port}`;
const v1 = (port: number) => `${origin(port)}/api/v1`;

async function start(name: "a" | "b" | "budget") {
  const extra: Record<string, Record<string, string>> = {
    a: { ...sharedDb, WORKERS: "1" },
    b: { ...sharedDb, WORKERS: "2" },
    budget: { ...budgetDb, WORKERS: "1", AUTH_MAX_FAILURES: "100", AUTH_ADDRESS_MAX_FAILURES: "4" },
  };
  servers[name] = await startServer(`state-${name}`, PORTS[name], env(extra[name]!), dir);
}

const workerPids = (server: Server): number[] => {
  const pid = server.child.pid!;
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
};
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);
const peakRssMb = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

interface PanelResponse {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  cookie: string | null;
}

/** A panel call as the browser makes it: same Origin, the session cookie. */
async function panel(
  port: number,
  method: string,
  pathname: string,
  cookie: string | null,
  body?: unknown,
): Promise<PanelResponse> {
  const headers: Record<string, string> = { origin: origin(port) };
  if (cookie) headers.cookie = `mailadmin_session=${cookie}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${origin(port)}${pathname}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const set = res.headers.get("set-cookie");
  const id = set && /mailadmin_session=([^;]*)/.exec(set)?.[1];
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null, cookie: id || null };
}
const signIn = (port: number, c: Creds) =>
  panel(port, "POST", "/api/panel/session", null, { email: c.email, digest: sha1Hex(c.password) });
const whoAmI = (port: number, cookie: string) => panel(port, "GET", "/api/panel/session", cookie);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-admin-state-"));
  dbPath = path.join(dir, "shared.db");
  sharedDb = await databaseEnv("state_shared", dbPath);
  budgetDb = await databaseEnv("state_budget", path.join(dir, "budget.db"));
  const seed = (db: Record<string, string>) =>
    run(
      [
        ...NODE_TSX,
        "e2e/api/seed.ts",
        JSON.stringify([["domain", "add", D, "--postmaster-password", PM.password, "--account-limit", "20000"]]),
      ],
      {
        ...env({}),
        ...db,
      },
    );
  await Promise.all([seed(sharedDb), seed(budgetDb)]);
  await Promise.all([start("a"), start("b"), start("budget")]);
  for (const name of ["jan", "victim", ...Array.from({ length: 10 }, (_, i) => `t${i}`)]) {
    const res = await api("POST", `emails/${D}/${name}`, {
      base: v1(PORTS.a),
      auth: PM,
      body: { password: name === "jan" ? JAN.password : "Secret-123", capacity: 1 },
    });
    expectStatus(res, 201);
  }
}, 300_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map(stop));
  if (!process.env.KEEP_API_TEST_DIR) fs.rmSync(dir, { recursive: true, force: true });
});

describe("two processes on one database", () => {
  let session: string;

  it("a session made on one works on the other, for the panel's calls to the service too", async () => {
    const res = await signIn(PORTS.a, PM);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ email: PM.email, domain: D, isPostmaster: true });
    session = res.cookie!;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await whoAmI(PORTS.b, session)).json).toMatchObject({ email: PM.email });
    const record = await panel(PORTS.b, "GET", `/api/panel/v1/emails/${D}/jan`, session);
    expect(record.status).toBe(200);
    expect(record.json.email).toBe(JAN.email);
    // The same permission rules as /api/v1: the postmaster of one domain reads nothing of another.
    expect(
      (await panel(PORTS.b, "GET", `/api/panel/v1/domains/other.example.com`, session)).status,
    ).toBeGreaterThanOrEqual(403);
  });

  it("signing out on one ends the session on the other", async () => {
    const other = (await signIn(PORTS.b, PM)).cookie!;
    expect((await whoAmI(PORTS.a, other)).status).toBe(200);
    expect((await panel(PORTS.a, "DELETE", "/api/panel/session", other)).status).toBe(204);
    const after = await whoAmI(PORTS.b, other);
    expect(after.status).toBe(401);
    expect(after.json.code).toBe("401.1");
    expect((await panel(PORTS.b, "GET", `/api/panel/v1/emails/${D}/jan`, other)).status).toBe(401);
    expect((await whoAmI(PORTS.b, session)).status).toBe(200);
  });

  it("a lockout made on one holds on the other, for the panel's sign-in too", async () => {
    const victim = { email: `victim@${D}`, password: "Secret-123" };
    for (let i = 0; i < 3; i++) {
      expectError(
        await api("GET", `emails/${D}/victim`, { base: v1(PORTS.a), auth: { ...victim, password: `Wrong-${i}` } }),
        "badCredentials",
      );
    }
    const locked = await api("GET", `emails/${D}/victim`, { base: v1(PORTS.b), auth: victim });
    expectError(locked, "tooManyFailures");
    expect(locked.json.attributes.retry_after).toBeGreaterThan(500);
    const viaPanel = await signIn(PORTS.b, victim);
    expect(viaPanel.status).toBe(403);
    expectErrorBody(viaPanel.json, "tooManyFailures");
  });

  it("both survive a restart: sessions and locks are kept, and SIGTERM stops every worker", async () => {
    const workers = [...workerPids(servers.a!), ...workerPids(servers.b!)];
    expect(workers).toHaveLength(3);
    await Promise.all([stop(servers.a!), stop(servers.b!)]);
    expect(servers.a!.child.exitCode).toBe(0);
    expect(servers.b!.child.exitCode).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
    await Promise.all([start("a"), start("b")]);
    for (const port of [PORTS.a, PORTS.b]) {
      expect((await whoAmI(port, session)).json).toMatchObject({ email: PM.email });
      expectError(
        await api("GET", `emails/${D}/victim`, {
          base: v1(port),
          auth: { email: `victim@${D}`, password: "Secret-123" },
        }),
        "tooManyFailures",
      );
    }
  }, 180_000);

  it("a password change ends the account's other sessions, and keeps the one that made it", async () => {
    const mine = (await signIn(PORTS.a, JAN)).cookie!;
    const elsewhere = (await signIn(PORTS.b, JAN)).cookie!;
    // Through the record, the panel refuses it (the current password is asked for); the password page changes it.
    const refused = await panel(PORTS.b, "PUT", `/api/panel/v1/emails/${D}/jan`, mine, { password: "Jan-pass-2" });
    expect(refused.status).toBe(403);
    expect(refused.json.source).toBe("password");
    const changed = await panel(PORTS.b, "PUT", "/api/panel/password", mine, {
      current_password: JAN.password,
      password: "Jan-pass-2",
      password_retype: "Jan-pass-2",
    });
    expect(changed.status).toBe(200);
    JAN.password = "Jan-pass-2";
    expect((await whoAmI(PORTS.a, mine)).status).toBe(200);
    expect((await whoAmI(PORTS.a, elsewhere)).status).toBe(401);
    expect((await whoAmI(PORTS.b, elsewhere)).status).toBe(401);
    // Changed by the postmaster through /api/v1: every session of the account ends.
    expectStatus(
      await api("PUT", `emails/${D}/jan`, { base: v1(PORTS.a), auth: PM, body: { password: "Jan-pass-3" } }),
      200,
    );
    JAN.password = "Jan-pass-3";
    expect((await whoAmI(PORTS.b, mine)).status).toBe(401);
    // The postmaster's own session is untouched.
    expect((await whoAmI(PORTS.b, session)).status).toBe(200);
  });

  it("a block ends the account's sessions on every process", async () => {
    const jan = (await signIn(PORTS.b, JAN)).cookie!;
    expect((await whoAmI(PORTS.a, jan)).status).toBe(200);
    expectStatus(await api("PUT", `emails/${D}/jan`, { base: v1(PORTS.b), auth: PM, body: { blocked: 1 } }), 200);
    expect((await whoAmI(PORTS.a, jan)).status).toBe(401);
    const refused = await signIn(PORTS.a, JAN);
    expect(refused.status).toBe(403);
    expect(refused.json.attributes).toEqual({ reason: "blocked" });
    expectStatus(await api("PUT", `emails/${D}/jan`, { base: v1(PORTS.a), auth: PM, body: { blocked: 0 } }), 200);
  });

  // Reads the SQLite file itself; on PostgreSQL the same columns are checked by the schema test (db/pg).
  it.skipIf(onPostgres())("the database holds no digest and no session id after panel sign-ins", async () => {
    const ids = [session, (await signIn(PORTS.a, JAN)).cookie!];
    const secrets = [sha1Hex(PM.password), sha1Hex(JAN.password), ...ids];
    const reader = new Database(dbPath, { readonly: true });
    try {
      const sessions = reader.prepare("SELECT * FROM sessions").all() as Record<string, unknown>[];
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(sessions[0]!).sort()).toEqual([
        "account_id",
        "client_ip",
        "created_at",
        "id_hash",
        "last_seen_at",
      ]);
      const hashes = sessions.map((s) => s.id_hash);
      for (const id of ids) expect(hashes).toContain(crypto.createHash("sha256").update(id).digest("hex"));
      const tables = reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      for (const table of tables) {
        const dump = JSON.stringify(reader.prepare(`SELECT * FROM "${table}"`).raw().all());
        for (const secret of secrets) expect(dump.includes(secret), `${table} holds a secret`).toBe(false);
      }
    } finally {
      reader.close();
    }
  });

  // e2e/api/import-accounts.ts writes the SQLite file directly (the bulk load of bench/).
  it.skipIf(onPostgres())(
    "after another process imports 10,000 accounts, the next search answers without a stall",
    async () => {
      const search = async (port: number) => {
        const t0 = performance.now();
        const res = await api("GET", `emails/${D}?search=port&sort=description&size=50`, { base: v1(port), auth: PM });
        expectStatus(res, 200);
        return { ms: performance.now() - t0, res };
      };
      await search(PORTS.a);
      await search(PORTS.b);
      await run([...NODE_TSX, "e2e/api/import-accounts.ts", D, "10000", "imp"], { ...env({}), DATABASE_PATH: dbPath });
      const firstA = await search(PORTS.a);
      const firstB = await search(PORTS.b);
      const again: number[] = [];
      for (let i = 0; i < 5; i++) again.push((await search(PORTS.a)).ms);
      const median = again.sort((x, y) => x - y)[2]!;
      console.log(
        `[state] first search after the import: A ${firstA.ms.toFixed(0)} ms, B ${firstB.ms.toFixed(0)} ms; then median ${median.toFixed(0)} ms`,
      );
      expect(JSON.stringify(firstA.res.json)).toContain("imp00000");
      // A stall is the first request paying for the import (the old in-memory engine took seconds to catch up).
      for (const first of [firstA.ms, firstB.ms]) expect(first).toBeLessThan(Math.max(250, 5 * median));
    },
    120_000,
  );

  it("a login for an unknown address takes as long as a wrong password (medians within 2x)", async () => {
    const timed = async (creds: Creds) => {
      const t0 = performance.now();
      expectError(await api("GET", `domains/${D}`, { base: v1(PORTS.a), auth: creds }), "badCredentials");
      return performance.now() - t0;
    };
    await timed({ email: `warm-up@${D}`, password: "x" });
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 20; i++) {
      unknown.push(await timed({ email: `nobody-${i}@${D}`, password: "Wrong-1" }));
      // Two failures per account stay under the pair lock (3).
      wrong.push(await timed({ email: `t${i % 10}@${D}`, password: `Wrong-${i}` }));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
    const [u, w] = [median(unknown), median(wrong)];
    console.log(`[state] login medians: unknown address ${u.toFixed(1)} ms, wrong password ${w.toFixed(1)} ms`);
    expect(u / w).toBeGreaterThan(0.5);
    expect(u / w).toBeLessThan(2);
  }, 120_000);
});

describe("the budget of one client address", () => {
  it("covers the panel's sign-in: past it failures are answered slowly, and the right password is never refused", async () => {
    for (let i = 0; i < 4; i++) {
      const res = await signIn(PORTS.budget, { email: `guess-${i}@${D}`, password: "Guess-1" });
      expect(res.status).toBe(403);
      expectErrorBody(res.json, "badCredentials");
    }
    const t0 = performance.now();
    const slow = await signIn(PORTS.budget, { email: `guess-x@${D}`, password: "Guess-1" });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    expectErrorBody(slow.json, "badCredentials");
    const right = await signIn(PORTS.budget, PM);
    expect(right.status).toBe(200);
    expectStatus(await api("GET", `domains/${D}`, { base: v1(PORTS.budget), auth: PM }), 200);
  });
});

describe("bodies", () => {
  it("a 256 MB chunked body to the panel's sign-in and to /api/v1 is refused before it is sent in full, in little memory", async () => {
    const port = PORTS.a;
    const [worker] = workerPids(servers.a!);
    const answers = [
      await hugeBody(port, "POST", "/api/panel/session", { origin: origin(port) }),
      await hugeBody(port, "PUT", `/api/v1/emails/${D}/t1`, { authorization: basic(PM) }),
      await hugeBody(port, "PUT", `/api/panel/v1/emails/${D}/t1`, {
        origin: origin(port),
        cookie: `mailadmin_session=${(await signIn(port, PM)).cookie}`,
      }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(500);
      expectErrorBody(JSON.parse(a.body), "bodyTooLarge");
      expect(a.sent).toBeLessThan(a.total / 4);
    }
    expect(peakRssMb(worker!)).toBeLessThan(300);
    // The worker goes on answering.
    expectStatus(await api("GET", `domains/${D}`, { base: v1(port), auth: PM }), 200);
  }, 120_000);

  it("a client that hangs up in the middle of its body is not logged as a server fault", async () => {
    const logged = () => fs.readFileSync(servers.a!.log, "utf8");
    const before = logged().length;
    for (let i = 0; i < 3; i++) await hangUpMidBody(PORTS.a, `/api/v1/emails/${D}/jan`, basic(PM));
    // The server saw the requests (each waits for its body for the 300 ms before the hang-up) and goes on answering.
    expectStatus(await api("GET", `domains/${D}`, { base: v1(PORTS.a), auth: PM }), 200);
    expect(logged().slice(before)).not.toMatch(/Unexpected error|aborted|ECONNRESET/);
  });
});

describe("supervision", () => {
  it("kill -9 of a worker: requests go on being answered within 5 s, and the worker is replaced", async () => {
    const before = workerPids(servers.b!);
    expect(before).toHaveLength(2);
    process.kill(before[0]!, "SIGKILL");
    const until = Date.now() + 6000;
    let answered = 0;
    while (Date.now() < until) {
      expect(await getOnce(PORTS.b, "/api/v1/openapi.json")).toBe(200);
      answered++;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(answered).toBeGreaterThan(10);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && workerPids(servers.b!).filter((p) => p !== before[0]).length < 2) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = workerPids(servers.b!);
    expect(after).toHaveLength(2);
    expect(after).not.toContain(before[0]);
    // The replacement serves sessions like the others.
    const s = (await signIn(PORTS.b, PM)).cookie!;
    for (let i = 0; i < 4; i++) expect((await whoAmI(PORTS.b, s)).status).toBe(200);
  }, 120_000);
});
