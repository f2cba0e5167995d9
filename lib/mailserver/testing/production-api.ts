// Test support: the production server (lib/runtime/server.mjs over the build in NEXT_DIST_DIR) on a database the
// test names, as the operator runs it, and one API call to it over real HTTP with HTTP Basic.
import fs from "node:fs";
import path from "node:path";
import { basic, type Creds } from "@/e2e/api/client";
import { startServer, type Server } from "@/e2e/api/global-setup";

const distDir = process.env.NEXT_DIST_DIR ?? ".next";

/** Throws unless the build the server runs is there (call it first in beforeAll). */
export function requireProductionBuild(): void {
  if (!fs.existsSync(path.join(distDir, "BUILD_ID")))
    throw new Error(`No production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npm run build\` first.`);
}

/** The server on `port` with DATABASE_URL at `url`, one worker, the default client-address rule; its log in `logDir`. */
export function startProductionApi(name: string, port: number, url: string, logDir: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    NEXT_DIST_DIR: distDir,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    WORKERS: "1",
    SCRYPT_COST: "1024",
  };
  delete env.ALLOWED_CLIENT_IPS;
  return startServer(name, port, env, logDir);
}

/** One API call as `who`: the status, Retry-After, the JSON body and how long the answer took. */
export async function callApi(base: string, who: Creds, method: string, pathname: string, body?: unknown) {
  const started = performance.now();
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { authorization: basic(who), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, retryAfter: res.headers.get("retry-after"), json, ms: performance.now() - started };
}
