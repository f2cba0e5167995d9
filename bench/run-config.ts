// What `npm run bench` reads from its flags, the environment and package.json: the engines, the ports, the sizes
// and durations of a quick or full run, and how the production server is started.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ADMIN_PASSWORD, FULL_SIZES, QUICK_SIZES } from "./seed-plan";

export const quick = process.argv.includes("--quick");
export const root = path.resolve(import.meta.dirname, "..");
export const distDir = process.env.NEXT_DIST_DIR ?? ".next";

export type Engine = "sqlite" | "postgres";
export const ENGINE_NAMES: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

/** `--engines sqlite,postgres` (the default: both, one after the other, in this run). */
export function enginesOf(argv: string[]): Engine[] {
  const at = argv.indexOf("--engines");
  const list = (at >= 0 ? (argv[at + 1] ?? "") : "sqlite,postgres")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of list)
    if (e !== "sqlite" && e !== "postgres") throw new Error(`--engines: unknown engine "${e}" (sqlite, postgres)`);
  if (list.length === 0) throw new Error("--engines: name at least one of sqlite, postgres");
  return [...new Set(list)] as Engine[];
}

export interface Ports {
  /** The main server (one worker). */
  app: number;
  /** The bare node:http baseline. */
  baseline: number;
  /** The same server started with two workers (WORKERS=2), for the workers comparison. */
  twoWorkers: number;
  /** bench/bad-sign-ins.ts's own server. */
  badSignIns: number;
  /** PostgreSQL: a second single-worker server on another port, as a second host would run it. */
  secondProcess: number;
  /** PostgreSQL: the private cluster's port. */
  pg: number;
}

const firstPort = Number(process.env.BENCH_PORT ?? 3500);

/** The ports of the k-th engine of --engines: each engine's servers take BENCH_PORT + 10 k and up. */
export function portsFor(k: number): Ports {
  const app = firstPort + 10 * k;
  return { app, baseline: app + 1, twoWorkers: app + 2, badSignIns: app + 3, secondProcess: app + 4, pg: app + 5 };
}

export const settings = quick
  ? {
      sizes: QUICK_SIZES,
      // Quick runs keep the harness alive (CI); their figures are not targets, so no warm-up.
      warmup: 0,
      seconds: 2,
      workerSeconds: 2,
      runs: 1,
      putManyRuns: 2,
      imported: 1_000,
      file: "bench/data/quick.db",
    }
  : {
      sizes: FULL_SIZES,
      warmup: 1,
      seconds: 2,
      workerSeconds: 10,
      runs: Number(process.env.BENCH_RUNS ?? 5),
      putManyRuns: 7,
      imported: 10_000,
      file: "bench/data/bench.db",
    };

export const CONNECTIONS = 4;
/** The workers comparison loads both servers harder than the rest, so that one worker is saturated. */
export const WORKER_CONNECTIONS = 8;

/** The server is started exactly as `npm start` starts it: same environment settings before `node`, same flags. */
export const startTokens = (
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
export const startEnv = Object.fromEntries(
  startTokens.slice(0, startTokens.indexOf("node")).map((t) => t.split("=", 2) as [string, string]),
);
export const startArgs = startTokens.slice(startTokens.indexOf("node") + 1);

const digest = crypto.createHash("sha1").update(ADMIN_PASSWORD).digest("hex");
/** The postmaster's Basic authorization header for `domain`. */
export const auth = (domain: string) => ({
  authorization: `Basic ${Buffer.from(`postmaster@${domain}:${digest}`).toString("base64")}`,
});

export function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** What the production build is made of: a change to any of these after the build makes it stale. */
const BUILD_SOURCES = ["app", "components", "db", "lib", "next.config.mjs", "package-lock.json"];

/** The newest modification time (ms) of a file or of any file below a folder. */
function newestChange(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce((newest, entry) => Math.max(newest, newestChange(path.join(target, entry))), stat.mtimeMs);
}

/** Builds the production server when there is no build or a source changed after it: a bench measures this code. */
export function buildIfStale(): void {
  const built = fs.statSync(path.join(root, distDir, "BUILD_ID"), { throwIfNoEntry: false });
  const changed = Math.max(...BUILD_SOURCES.map((s) => newestChange(path.join(root, s))));
  if (built && built.mtimeMs >= changed) return;
  log(
    built
      ? `The build in ${distDir} is older than the sources: building ...`
      : `No production build in ${distDir}: building ...`,
  );
  const run = spawnSync("npm", ["run", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (run.status !== 0) throw new Error("next build failed");
}
