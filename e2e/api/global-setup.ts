// Vitest global setup of the API integration tests: three throwaway SQLite databases, seeded through the CLI's
// commands, each served by the PRODUCTION server (lib/runtime/server.mjs over the build in NEXT_DIST_DIR):
//   main       - the tests that share one server, each in its own domain;
//   fuzz       - the property-based test, alone, so that it can compare digests of the whole database;
//   isolated   - ALLOWED_CLIENT_IPS=127.0.0.1, and the tests that lock or break the database on purpose.
// At the end it kills the servers and checks that every catalog error was asserted by some test.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { errorCatalog } from "../../lib/errors/catalog";
import { startPgCluster, type PgCluster } from "../support/pg-cluster";
import { assertPortFree } from "../support/port-free";
import { apiTestPort, databaseEnv, onPostgres } from "../support/test-database";
import { CLIENT_HOSTS, DOMAINS, PM_PASSWORD } from "./fixtures";

declare module "vitest" {
  export interface ProvidedContext {
    mainBase: string;
    fuzzBase: string;
    fuzzDbPath: string;
    isolatedBase: string;
    isolatedDbPath: string;
    mainDbPath: string;
    seenFile: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
export const NODE_TSX = ["--conditions=react-server", "--import", "tsx"];

export function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")} failed: ${stderr}`))));
  });
}

const addDomain = (name: string, limits: string[] = []) => [
  "domain",
  "add",
  name,
  "--postmaster-password",
  PM_PASSWORD,
  ...limits,
];

export interface Server {
  child: ChildProcess;
  log: string;
}

export async function startServer(name: string, port: number, env: NodeJS.ProcessEnv, logDir: string): Promise<Server> {
  await assertPortFree(port, "set API_TEST_PORT to another base");
  const log = path.join(logDir, `${name}.log`);
  const out = fs.openSync(log, "w");
  const child = spawn(process.execPath, ["lib/runtime/server.mjs"], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", out, out],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} server exited: ${fs.readFileSync(log, "utf8")}`);
    try {
      const res = await fetch(`${base}/openapi.json`);
      if (res.ok) return { child, log };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`${name} server did not answer on ${base}: ${fs.readFileSync(log, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    const timer = setTimeout(() => server.child.kill("SIGKILL"), 5000);
    server.child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    server.child.kill("SIGTERM");
  });
}

/**
 * Catalog errors this suite cannot provoke: the list service's pages answer the first two (asserted in
 * lib/lists/lists.test.ts); the PostgreSQL standby and a stopped primary give the last two (asserted against a real
 * replica and a stopped cluster in lib/cli/standby.test.ts).
 */
const OUTSIDE_API = ["listRequestPending", "listRequestBudget", "databaseUnavailable", "databaseReadOnly"] as const;

/** Every catalog key must have been asserted by some test; checked only when every test file of e2e/api ran. */
function checkCatalogCoverage(seenFile: string): void {
  const lines = fs.existsSync(seenFile) ? fs.readFileSync(seenFile, "utf8").split("\n").filter(Boolean) : [];
  const files = new Set(lines.map((l) => l.split("\t")[0]));
  const keys = new Set(lines.map((l) => l.split("\t")[1]).filter((k) => k !== "-"));
  const testFiles = fs.readdirSync(import.meta.dirname).filter((f) => f.endsWith(".test.ts"));
  const missingFiles = testFiles.filter((f) => !files.has(f));
  if (missingFiles.length) {
    console.warn(`[api tests] catalog coverage not checked (partial run): ${missingFiles.join(", ")} did not run`);
    return;
  }
  const missing = Object.keys(errorCatalog).filter(
    (k) => !keys.has(k) && !(OUTSIDE_API as readonly string[]).includes(k),
  );
  if (missing.length) {
    // Vitest only logs errors thrown by a global teardown; the exit code is what makes CI fail.
    process.exitCode = 1;
    throw new Error(`[api tests] catalog errors never asserted by any test: ${missing.join(", ")}`);
  }
  console.log(`[api tests] all ${Object.keys(errorCatalog).length} catalog errors asserted`);
}

export default async function setup(project: TestProject) {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npm run build\` first.`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-admin-api-"));
  const port = apiTestPort();
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_DIST_DIR: distDir,
    NODE_ENV: "production",
    SCRYPT_COST: "1024",
    AUTH_MAX_FAILURES: "10",
    AUTH_LOCKOUT_SECONDS: "60",
    // Every test calls from 127.0.0.1; the budget per client address is tested on servers of its own (state.test.ts).
    AUTH_ADDRESS_MAX_FAILURES: "1000000",
    WORKERS: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    // The operator's hosts the client set-up documents name (client-setup.test.ts); submission with STARTTLS.
    ...CLIENT_HOSTS,
  };
  // The main and fuzz servers use the default rule (loopback and the host's own addresses).
  delete baseEnv.ALLOWED_CLIENT_IPS;
  const db = (name: string) => path.join(dir, `${name}.db`);

  // TEST_DATABASE=postgres (npm run test:api:pg): one private cluster, a database per server (e2e/support).
  let cluster: PgCluster | undefined;
  if (onPostgres()) {
    cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
    cluster.psql(`ALTER ROLE "${cluster.user}" CREATEDB`, "postgres");
    process.env.TEST_PG_URL = cluster.url;
    baseEnv.TEST_PG_URL = cluster.url;
  }
  const dbEnv = {
    main: await databaseEnv("main", db("main")),
    fuzz: await databaseEnv("fuzz", db("fuzz")),
    isolated: await databaseEnv("isolated", db("isolated")),
  };
  // The CLI runs of the tests (`DATABASE_PATH: inject("mainDbPath")`) reach the main database on PostgreSQL too.
  if (dbEnv.main.DATABASE_URL) process.env.DATABASE_URL = dbEnv.main.DATABASE_URL;

  await Promise.all([
    run([...NODE_TSX, "e2e/api/seed.ts", JSON.stringify(DOMAINS.main.map((d) => addDomain(d.name, d.limits)))], {
      ...baseEnv,
      ...dbEnv.main,
    }),
    run([...NODE_TSX, "e2e/api/seed.ts", JSON.stringify(DOMAINS.fuzz.map((d) => addDomain(d.name, d.limits)))], {
      ...baseEnv,
      ...dbEnv.fuzz,
    }),
    run([...NODE_TSX, "e2e/api/seed.ts", JSON.stringify(DOMAINS.isolated.map((d) => addDomain(d.name, d.limits)))], {
      ...baseEnv,
      ...dbEnv.isolated,
    }),
  ]);

  const started = await Promise.allSettled([
    startServer("main", port, { ...baseEnv, ...dbEnv.main }, dir),
    startServer("fuzz", port + 1, { ...baseEnv, ...dbEnv.fuzz }, dir),
    startServer("isolated", port + 2, { ...baseEnv, ...dbEnv.isolated, ALLOWED_CLIENT_IPS: "127.0.0.1" }, dir),
  ]);
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await Promise.all(servers.map(stop));
    await cluster?.stop();
    throw failed.reason;
  }

  const seenFile = path.join(dir, "asserted-errors.tsv");
  project.provide("mainBase", `http://127.0.0.1:${port}/api/v1`);
  project.provide("fuzzBase", `http://127.0.0.1:${port + 1}/api/v1`);
  project.provide("isolatedBase", `http://127.0.0.1:${port + 2}/api/v1`);
  project.provide("mainDbPath", db("main"));
  project.provide("fuzzDbPath", db("fuzz"));
  project.provide("isolatedDbPath", db("isolated"));
  project.provide("seenFile", seenFile);

  return async () => {
    await Promise.all(servers.map(stop));
    await cluster?.stop();
    try {
      // On PostgreSQL the tests that break the SQLite file on purpose are skipped (their errors are SQLite's).
      if (!cluster) checkCatalogCoverage(seenFile);
    } finally {
      if (!process.env.KEEP_API_TEST_DIR) fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
