// A production server of the test file's own (lib/runtime/server.mjs over the build, as the global setup starts
// them) on a database of its own, seeded with three domains: a and b of one customer, c of another.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { apiTestPort, databaseEnv } from "../support/test-database";
import { api, expectStatus, type Creds } from "./client";
import { NODE_TSX, run, startServer, stop, type Server } from "./global-setup";

export const PW = "Postmaster-1";
export const pm = (d: string): Creds => ({ email: `postmaster@${d}`, password: PW });

export interface OwnServerOptions {
  /** Names the temporary directory, the database and the server's log. */
  name: string;
  /** Added to API_TEST_PORT: each file's own port. */
  portOffset: number;
  domains: { a: string; b: string; c: string };
  /** The file's own settings, over the common ones. */
  env: Record<string, string>;
}

/** Starts the server before the file's tests and stops it after them. */
export function ownServer(options: OwnServerOptions) {
  const PORT = apiTestPort() + options.portOffset;
  const ORIGIN = `http://127.0.0.1:${PORT}`;
  const V1 = `${ORIGIN}/api/v1`;
  let dir: string;
  let dbPath: string;
  /** Its database: the file, or a PostgreSQL database of its own (e2e/support/test-database.ts). */
  let dbEnv: Record<string, string> = {};
  let server: Server;
  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_PATH: dbPath,
      ...dbEnv,
      SCRYPT_COST: "1024",
      AUTH_MAX_FAILURES: "5",
      AUTH_LOCKOUT_SECONDS: "60",
      AUTH_ADDRESS_MAX_FAILURES: "50",
      ...options.env,
    };
    delete e.ALLOWED_CLIENT_IPS;
    return e;
  };

  /** The operator CLI on this server's database; its standard output. */
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [...NODE_TSX, "lib/cli/index.ts", ...args], { env: env(), encoding: "utf8" });

  async function createAccount(
    d: string,
    name: string,
    password = "Secret-123",
    extra: Record<string, unknown> = {},
  ): Promise<Creds> {
    expectStatus(
      await api("POST", `emails/${d}/${name}`, { base: V1, auth: pm(d), body: { password, capacity: 1, ...extra } }),
      201,
    );
    return { email: `${name}@${d}`, password };
  }

  beforeAll(async () => {
    const { a, b, c } = options.domains;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `mail-admin-${options.name}-`));
    dbPath = path.join(dir, `${options.name}.db`);
    dbEnv = await databaseEnv(options.name, dbPath);
    const add = (d: string, ...more: string[]) => ["domain", "add", d, "--postmaster-password", PW, ...more];
    await run([...NODE_TSX, "e2e/api/seed.ts", JSON.stringify([add(a), add(b, "--customer", a), add(c)])], env());
    server = await startServer(options.name, PORT, env(), dir);
  }, 120_000);

  afterAll(async () => {
    if (server) await stop(server);
    if (!process.env.KEEP_API_TEST_DIR) fs.rmSync(dir, { recursive: true, force: true });
  });

  return { PORT, ORIGIN, V1, env, cli, createAccount };
}
