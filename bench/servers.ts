// The processes a bench run starts and stops: the private PostgreSQL cluster, the production servers (one worker,
// two workers, and on PostgreSQL a second single-worker process), the bare baseline and bench/writer.ts.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { distDir, root, startArgs, startEnv, type Ports } from "./run-config";
import type { QuotaReport } from "./writer-messages";

/**
 * The bench's PostgreSQL cluster (e2e/support/pg-cluster.ts, private, in a temp folder): durable writes as in
 * production (fsync and full_page_writes on, which the test clusters turn off), commits not waiting for their WAL
 * flush (synchronous_commit off: like SQLite's WAL with synchronous=NORMAL, a crash may lose the last commits,
 * never consistency), and PostgreSQL 15's default 128 MB of shared buffers.
 */
const PG_SETTINGS = {
  fsync: "on",
  full_page_writes: "on",
  synchronous_commit: "off",
  shared_buffers: "'128MB'",
  max_connections: 100,
};

/**
 * BENCH_PG_LOG=<file>: the cluster's statements over 100 ms, lock waits over 50 ms, autovacuum runs and checkpoints,
 * each line with the time it was logged, go to that file (to explain a slow request after a run).
 */
function pgLogging(): { settings: Record<string, string | number>; log?: (line: string) => void } {
  const file = process.env.BENCH_PG_LOG;
  if (!file) return { settings: PG_SETTINGS };
  fs.writeFileSync(file, "");
  return {
    settings: {
      ...PG_SETTINGS,
      log_min_duration_statement: 100,
      log_lock_waits: "on",
      deadlock_timeout: "'50ms'",
      log_autovacuum_min_duration: 0,
      log_checkpoints: "on",
    },
    log: (line) => fs.appendFileSync(file, `${new Date().toISOString().slice(11, 23)} ${line}\n`),
  };
}

export const startBenchCluster = (port: number): Promise<PgCluster> =>
  startPgCluster({ port, database: "bench", ...pgLogging() });

/** The postmaster process of a cluster (the first line of its postmaster.pid): its tree is the whole server. */
export const postmasterPid = (dataDir: string) => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
};

/** Polls `check` every 200 ms until it says yes; fails with `failure` after `seconds`. */
async function waitUntil(check: () => Promise<boolean>, seconds: number, failure: string): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(failure);
}

async function waitFor(url: string, child: ChildProcess, seconds = 60): Promise<void> {
  const answers = async () => {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`);
    try {
      return (await fetch(url)).status < 500;
    } catch {
      return false; // not listening yet
    }
  };
  await waitUntil(answers, seconds, `${url}: server did not start in ${seconds}s`);
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** bench/writer.ts in its own process, with a channel for its messages. */
export function startWriter(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/writer.ts", ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
}

/** The next message of `child`; fails if it exits first. */
export function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench/writer.ts exited with ${code} before answering`));
    child.once("exit", onExit);
    child.once("message", (message) => {
      child.off("exit", onExit);
      resolve(message as T);
    });
  });
}

/** Waits for a writer's "ready", sent once it has compiled and opened the database. */
export async function writerReady(writer: ChildProcess): Promise<void> {
  if ((await nextMessage<string>(writer)) !== "ready") throw new Error("bench/writer.ts did not start");
}

/** The mail-server-like writes of a quota writer, turned on and off between scenarios. */
export interface QuotaWriting {
  set(on: boolean): Promise<void>;
  /** What was written while on, summed over every stop. */
  totals: QuotaReport;
}

export function quotaWriting(writer: ChildProcess): QuotaWriting {
  const totals: QuotaReport = { writes: 0, seconds: 0 };
  let writing = false;
  const set = async (on: boolean) => {
    if (on === writing) return;
    writing = on;
    writer.send(on ? "start" : "stop");
    if (!on) {
      const report = await nextMessage<QuotaReport>(writer);
      totals.writes += report.writes;
      totals.seconds += report.seconds;
    }
  };
  return { set, totals };
}

export interface Servers {
  /** The main server: one worker, so that its figures compare with the single-process baseline. */
  app: ChildProcess;
  /** Two workers, idle until the workers comparison. */
  app2: ChildProcess;
  /** PostgreSQL: another single-worker server, as on a second host (idle until the processes comparison). */
  app3?: ChildProcess;
  baseline: ChildProcess;
  /** bench/writer.ts upserting mail_quota on demand. */
  quotaWriter: ChildProcess;
  /** Every process started, stopped together (a writer started later is added here). */
  children: ChildProcess[];
}

/** Starts an engine's servers and quota writer on `database` (env for the servers, file or URL for the writer). */
export function startServers(
  ports: Ports,
  dbEnv: Record<string, string>,
  database: string,
  secondProcess: boolean,
): Servers {
  const env = { ...dbEnv, NEXT_DIST_DIR: distDir, NODE_ENV: "production", HOST: "127.0.0.1" };
  // WORKERS: lib/runtime/server.mjs.
  const server = (port: number, workers: string) =>
    start(startArgs, { ...env, ...startEnv, PORT: String(port), WORKERS: workers });
  const app = server(ports.app, "1");
  const app2 = server(ports.twoWorkers, "2");
  const app3 = secondProcess ? server(ports.secondProcess, "1") : undefined;
  const baseline = start(["--conditions=react-server", "--import", "tsx", "bench/baseline-server.ts"], {
    ...env,
    PORT: String(ports.baseline),
  });
  const quotaWriter = startWriter(["quota", database]);
  return {
    app,
    app2,
    app3,
    baseline,
    quotaWriter,
    children: [app, app2, baseline, quotaWriter, ...(app3 ? [app3] : [])],
  };
}

/** Until every server answers and the quota writer is ready. */
export async function serversReady(s: Servers, ports: Ports): Promise<void> {
  await waitFor(`http://127.0.0.1:${ports.app}/api/health`, s.app);
  await waitFor(`http://127.0.0.1:${ports.baseline}/`, s.baseline);
  await waitFor(`http://127.0.0.1:${ports.twoWorkers}/api/health`, s.app2);
  if (s.app3) await waitFor(`http://127.0.0.1:${ports.secondProcess}/api/health`, s.app3);
  await writerReady(s.quotaWriter);
}

/** Sends SIGTERM to every child still running. */
export const killAll = (children: ChildProcess[]) => children.forEach((c) => c.exitCode === null && c.kill("SIGTERM"));

const exited = (c: ChildProcess) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r));

/** Stops every child and waits for each to exit. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  killAll(children);
  await Promise.all(children.map(exited));
}
