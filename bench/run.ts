// `npm run bench [-- --quick] [-- --engines sqlite,postgres]` (issue 4; issue 34: each engine in turn, both by
// default, PostgreSQL on a private cluster of its own): seeds a fresh database, starts the production server and a bare
// node:http baseline on it, loads each endpoint with autocannon (warm-up, then a fixed time; the whole list of
// scenarios is repeated and each figure is the median over the repetitions), checks the targets, and writes
// bench/results.json and bench/RESULTS.md. --quick: small data and short runs, so CI keeps the harness alive.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_TOTALS } from "@/lib/server/resources/page";
import { measureBadSignIns } from "./bad-sign-ins";
import { cpuProbeMs, cpuTimes, stealPercent } from "./host";
import { measureListPut, type ListPutReport } from "./list-put";
import { measure, measurePair, measureUntil, median, peakRssMb, type Load, type Sample } from "./load";
import { CHROMIUM, measurePanel, type PanelResult } from "./panel";
import { checkPrerequisites } from "./prerequisites";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { writeReports, type Report, type Row, type Target } from "./report";
import { accountNames, seed } from "./seed";
import { accountNamesPg, seedPostgres } from "./seed-pg";
import {
  ADMIN_PASSWORD,
  BIG_DOMAIN,
  FULL_LIST,
  FULL_SIZES,
  MID_DOMAIN,
  QUICK_SIZES,
  type SeedResult,
} from "./seed-plan";
import { QUOTA_WRITES_PER_SECOND, type ImportReport, type QuotaReport } from "./writer-messages";

const quick = process.argv.includes("--quick");
const root = path.resolve(import.meta.dirname, "..");
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
type Engine = "sqlite" | "postgres";
const ENGINE_NAMES: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };
/** `--engines sqlite,postgres` (the default: both, one after the other, in this run). */
const engines: Engine[] = (() => {
  const at = process.argv.indexOf("--engines");
  const list = (at >= 0 ? (process.argv[at + 1] ?? "") : "sqlite,postgres")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of list)
    if (e !== "sqlite" && e !== "postgres") throw new Error(`--engines: unknown engine "${e}" (sqlite, postgres)`);
  if (list.length === 0) throw new Error("--engines: name at least one of sqlite, postgres");
  return [...new Set(list)] as Engine[];
})();
const firstPort = Number(process.env.BENCH_PORT ?? 3500);
// Each engine's servers take ports of their own: BENCH_PORT + 10 x the engine's place in --engines, then
let appPort = firstPort;
let basePort = appPort + 1;
/** The same server started with two workers (WORKERS=2), for the workers comparison; the main one has one. */
let twoWorkersPort = appPort + 2;
// (+3: bench/bad-sign-ins.ts's own server)
/** PostgreSQL: a second single-worker server on another port, as a second host would run it (the processes pair). */
let secondProcessPort = appPort + 4;
/** PostgreSQL: the private cluster's port. */
let pgPort = appPort + 5;
function setPorts(k: number) {
  appPort = firstPort + 10 * k;
  basePort = appPort + 1;
  twoWorkersPort = appPort + 2;
  secondProcessPort = appPort + 4;
  pgPort = appPort + 5;
}
const settings = quick
  ? {
      sizes: QUICK_SIZES,
      warmup: 1,
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
/** The server is started exactly as `npm start` starts it: same environment settings before `node`, same flags. */
const startTokens = (
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
const startEnv = Object.fromEntries(
  startTokens.slice(0, startTokens.indexOf("node")).map((t) => t.split("=", 2) as [string, string]),
);
const startArgs = startTokens.slice(startTokens.indexOf("node") + 1);
const CONNECTIONS = 4;
/** The workers comparison loads both servers harder than the rest, so that one worker is saturated. */
const WORKER_CONNECTIONS = 8;

const digest = crypto.createHash("sha1").update(ADMIN_PASSWORD).digest("hex");
const auth = (domain: string) => ({
  authorization: `Basic ${Buffer.from(`postmaster@${domain}:${digest}`).toString("base64")}`,
});

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

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
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return child;
}

/** bench/writer.ts in its own process, with a channel for its messages. */
function startWriter(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/writer.ts", ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
}

/** The next message of `child`; fails if it exits first. */
function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench/writer.ts exited with ${code} before answering`));
    child.once("exit", onExit);
    child.once("message", (message) => {
      child.off("exit", onExit);
      resolve(message as T);
    });
  });
}

interface Scenario {
  name: string;
  group: "server" | "list100k" | "list10k" | "baseline" | "write" | "underWrites" | "import" | "workers" | "processes";
  /** Names the pair this scenario belongs to: 100k/10k list queries, or 1/2 workers. */
  pair?: string;
  load: Load;
  /** The server that answers: the main one (one worker, the default), the baseline, or the one with two workers. */
  on?: "baseline" | "twoWorkers" | "twoProcesses";
  /** Measured while another process upserts mail_quota like a mail server (bench/writer.ts). */
  underWrites?: boolean;
}

const EMPTY_HANDLER = "empty route handler (GET /api/health)";
const ONE_ACCOUNT = "GET one account (auth)";

/** Whether two list scenarios are the 100k and 10k sides of one query. */
const samePair = (a: Scenario, b: Scenario) => a.pair !== undefined && a.pair === b.pair;

/** Whether the ratio of two scenarios is a target: then they are measured together (measurePair). */
const comparedWith = (s: Scenario, next: Scenario) =>
  (s.name === EMPTY_HANDLER && next.name === ONE_ACCOUNT) ||
  (s.group === "list100k" && next.group === "list10k" && samePair(s, next)) ||
  (s.group === "workers" && next.group === "workers" && samePair(s, next)) ||
  (s.group === "processes" && next.group === "processes" && samePair(s, next));

const UNDER_WRITES = ` (under writes: ${QUOTA_WRITES_PER_SECOND} mail_quota upserts/s by another process)`;

/** The same list scenario, measured while another process writes usage like a mail server. */
const underWrites = (s: Scenario): Scenario => ({
  ...s,
  name: `${s.name}${UNDER_WRITES}`,
  group: "underWrites",
  pair: undefined,
  underWrites: true,
});

/** A GET with one worker and the same with two (each its own server, both on the bench's database). */
function workerPair(label: string, path: string, headers: Record<string, string>): Scenario[] {
  // wrk, not autocannon in this process: two workers and autocannon on two cores left the workers short of CPU.
  const load = (port: number): Load => ({
    url: `http://127.0.0.1:${port}${path}`,
    headers,
    connections: WORKER_CONNECTIONS,
    generator: "wrk",
  });
  return [
    {
      name: `${label}, ${WORKER_CONNECTIONS} connections: 1 worker`,
      group: "workers",
      pair: label,
      load: load(appPort),
    },
    {
      name: `${label}, ${WORKER_CONNECTIONS} connections: 2 workers`,
      group: "workers",
      pair: label,
      load: load(twoWorkersPort),
      on: "twoWorkers",
    },
  ];
}

const ONE_PROCESS = "1 process (1 worker)";
const TWO_PROCESSES = "2 processes on two ports (1 worker each)";

/**
 * PostgreSQL (issue 34): GET one account from one single-worker server, and from two such servers on two ports
 * against the same database, as two hosts would run them (wrk on each, the connections split). The CPU of each
 * process, of the database and of the whole host is measured while loaded.
 */
function processPair(
  path: string,
  headers: Record<string, string>,
  cpuOf: Record<string, () => number | undefined>,
  cpuOfTwo: Record<string, () => number | undefined>,
): Scenario[] {
  const url = (port: number) => `http://127.0.0.1:${port}${path}`;
  return [
    {
      name: `${ONE_ACCOUNT}, ${WORKER_CONNECTIONS} connections: ${ONE_PROCESS}`,
      group: "processes",
      pair: ONE_ACCOUNT,
      load: { url: url(appPort), headers, connections: WORKER_CONNECTIONS, generator: "wrk", cpuOf },
    },
    {
      name: `${ONE_ACCOUNT}, ${WORKER_CONNECTIONS} connections: ${TWO_PROCESSES}`,
      group: "processes",
      pair: ONE_ACCOUNT,
      on: "twoProcesses",
      load: {
        url: url(appPort),
        alsoUrls: [url(secondProcessPort)],
        headers,
        connections: WORKER_CONNECTIONS,
        generator: "wrk",
        cpuOf: cpuOfTwo,
      },
    },
  ];
}

/** "100k" for 100,000. */
const short = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));

function listScenarios(domain: string, size: "100k" | "10k", terms: string[]): Scenario[] {
  const base = `http://127.0.0.1:${appPort}/api/v1/emails/${domain}`;
  const group = size === "100k" ? "list100k" : "list10k";
  const accounts = size === "100k" ? settings.sizes.bigAccounts : settings.sizes.midAccounts;
  const make = (label: string, query: string, nextPath?: () => string): Scenario => ({
    name: `list ${short(accounts)}: ${label}`,
    group,
    pair: label,
    load: { url: `${base}?${query}`, headers: auth(domain), connections: CONNECTIONS, nextPath },
  });
  const sorts = [
    "name",
    "creation_date",
    "expiration_date",
    "last_auth_date",
    "capacity",
    "description",
    "blocked",
    "usage",
  ];
  let next = 0;
  const cold = () =>
    `/api/v1/emails/${domain}?search=${encodeURIComponent(terms[next++ % terms.length]!)}&sort=capacity`;
  const all = [
    make("no search", ""),
    ...sorts.map((s) => make(`search "kowal", sort=${s}`, `search=kowal&sort=${s}`)),
    make(`search "kowal", sort=description desc`, "search=kowal&sort=description&sort_dir=desc"),
    make(`search "nowak12" (few hits), sort=usage desc`, "search=nowak12&sort=usage&sort_dir=desc"),
    make(`search "ann" (3 chars), sort=name desc`, "search=ann&sort_dir=desc"),
    make(`search "zi" (2 chars, no trigram), sort=name`, "search=zi"),
    make("search, a new term each request (total not cached)", "", cold),
    make("page 150 (offset 7,500), sort=last_auth_date", "page=150&sort=last_auth_date"),
  ];
  if (quick) return all.filter((_, i) => i === 1 || i === 12 || i === all.length - 2);
  // The middle of the big domain: OFFSET costs a walk past every earlier index entry (no 10k counterpart).
  if (size === "100k")
    all.push({ ...make("page 1000 (offset 50,000), sort=capacity", "page=1000&sort=capacity"), pair: undefined });
  return all;
}

/** The 100k scenarios, each followed by the 10k scenario of the same pair (if any). */
function pairedLists(big: Scenario[], mid: Scenario[]): Scenario[] {
  return big
    .flatMap((b) => {
      const m = mid.find((x) => samePair(x, b));
      return m ? [b, m] : [b];
    })
    .concat(mid.filter((m) => !big.some((b) => samePair(b, m))));
}

/** The median over the repetitions of a/b, each repetition's two figures measured one right after the other. */
function pairedRatio(a: Sample[], b: Sample[], figure: (x: Sample) => number): number {
  return median(a.map((x, i) => figure(x) / figure(b[i]!)));
}

/**
 * Terms of 4-6 characters taken from real names, so each matches a different set. More of them than the server
 * remembers totals for (MAX_TOTALS), cycled in order, so every request of the scenario counts afresh.
 */
function coldTerms(names: string[]): string[] {
  const terms = new Set<string>();
  for (const n of names) {
    const stem = n.replace(/[0-9]+$/, "");
    const at = Math.floor(stem.length / 3);
    terms.add(stem.slice(at, at + 4 + (n.length % 3)));
    if (terms.size >= 2_000) break;
  }
  return [...terms];
}

async function putMany(names: string[]): Promise<{ times: number[]; atomic: boolean }> {
  const url = (list: string[]) => `http://127.0.0.1:${appPort}/api/v1/emails/${BIG_DOMAIN}/${list.join(",")}`;
  const put = (list: string[], description: string) =>
    fetch(url(list), {
      method: "PUT",
      headers: { ...auth(BIG_DOMAIN), "content-type": "application/json" },
      body: JSON.stringify({ description }),
    });
  const times: number[] = [];
  for (let i = 0; i < settings.putManyRuns; i++) {
    const started = performance.now();
    const res = await put(names, `Zmiana zbiorcza ${i}`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 204) throw new Error(`PUT of ${names.length} names: ${res.status}`);
  }
  // Atomic: one missing name among 1,000 must leave the other 999 untouched.
  const description = async () =>
    ((await (await fetch(url([names[0]!]), { headers: auth(BIG_DOMAIN) })).json()) as { description: string })
      .description;
  const before = await description();
  const failed = await put([...names.slice(0, -1), "nie-ma-takiego-konta"], "Nie powinno się zapisać");
  await failed.arrayBuffer();
  const after = await description();
  const atomic = failed.status >= 400 && before === after && after !== "Nie powinno się zapisać";
  return { times, atomic };
}

/** What stops the servers and the cluster of the engine being measured (on exit and on a signal too). */
let cleanup: () => Promise<void> = async () => {};

async function main() {
  // Before anything is seeded: a missing tool is named in one line, not found minutes later.
  checkPrerequisites(CHROMIUM, { postgres: engines.includes("postgres") });
  // Issue 29's scenario alone, on a server and database of its own (bench/bad-sign-ins.ts).
  if (process.argv.includes("--bad-sign-ins")) {
    const result = await measureBadSignIns({ root, port: appPort + 3, distDir, seconds: quick ? 4 : 20, log });
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    log(`No production build in ${distDir}: building ...`);
    const built = spawnSync("npm", ["run", "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_DIST_DIR: distDir },
    });
    if (built.status !== 0) throw new Error("next build failed");
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      void cleanup().finally(() => process.exit(130));
    });
  }
  const reports: Report[] = [];
  for (const [k, engine] of engines.entries()) {
    setPorts(k);
    try {
      reports.push(await benchEngine(engine, k === 0));
    } finally {
      await cleanup();
      cleanup = async () => {};
    }
  }
  // Quick runs write next to their data (git-ignored): the committed results come from a full run.
  writeReports(path.join(root, quick ? "bench/data" : "bench"), reports);
  if (quick && !reports.every((r) => r.targets.every((t) => t.met)))
    log("(quick mode: targets are reported, not enforced)");
}

/** The postmaster process of a cluster (the first line of its postmaster.pid): its tree is the whole server. */
const postmasterPid = (dataDir: string) => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
};

/**
 * Seeds one engine's database, starts its servers and writers, measures every scenario and returns its report.
 * The browser and bad sign-in measurements (which measure the panel and scrypt, not the database) run with the
 * first engine only.
 */
async function benchEngine(engine: Engine, first: boolean): Promise<Report> {
  const label = ENGINE_NAMES[engine];
  let cluster: PgCluster | undefined;
  let file = path.join(root, settings.file);
  let seeded: SeedResult;
  let dbEnv: Record<string, string>;
  let names: (domain: string, count: number) => Promise<string[]>;
  if (engine === "postgres") {
    log(`${label}: starting a private cluster on port ${pgPort} ...`);
    cluster = await startPgCluster({ port: pgPort, database: "bench", ...pgLogging() });
    const url = cluster.url;
    cleanup = () => cluster!.stop();
    log(`Seeding ${label} (${quick ? "quick" : "full"}) ...`);
    seeded = await seedPostgres(url, settings.sizes);
    file = url;
    dbEnv = { DATABASE_URL: url, DATABASE_PATH: "" };
    names = (domain, count) => accountNamesPg(url, domain, count);
  } else {
    log(`Seeding ${file} (${quick ? "quick" : "full"}) ...`);
    seeded = seed(file, settings.sizes);
    dbEnv = { DATABASE_PATH: file, DATABASE_URL: "" };
    names = (domain, count) => Promise.resolve(accountNames(file, domain, count));
  }
  log(
    `${label}: seeded ${seeded.accounts} accounts, ${seeded.listMembers} list members in ${seeded.seconds.toFixed(1)} s`,
  );

  const env = { ...dbEnv, NEXT_DIST_DIR: distDir, NODE_ENV: "production", HOST: "127.0.0.1" };
  // WORKERS (lib/runtime/server.mjs): the main server has one worker, so that its figures compare with the
  // single-process baseline; the second server, idle until the workers comparison, has two.
  const app = start(startArgs, { ...env, ...startEnv, PORT: String(appPort), WORKERS: "1" });
  const app2 = start(startArgs, { ...env, ...startEnv, PORT: String(twoWorkersPort), WORKERS: "2" });
  // PostgreSQL: another single-worker server, as on a second host (idle until the processes comparison).
  const app3 = cluster
    ? start(startArgs, { ...env, ...startEnv, PORT: String(secondProcessPort), WORKERS: "1" })
    : undefined;
  const baseline = start(["--conditions=react-server", "--import", "tsx", "bench/baseline-server.ts"], {
    ...env,
    PORT: String(basePort),
  });
  const quotaWriter = startWriter(["quota", file]);
  const children = [app, app2, baseline, quotaWriter, ...(app3 ? [app3] : [])];
  const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill("SIGTERM"));
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r));
  process.on("exit", stopAll);
  cleanup = async () => {
    stopAll();
    await Promise.all(children.map(exited));
    await cluster?.stop();
  };
  try {
    await waitFor(`http://127.0.0.1:${appPort}/api/health`, app);
    await waitFor(`http://127.0.0.1:${basePort}/`, baseline);
    await waitFor(`http://127.0.0.1:${twoWorkersPort}/api/health`, app2);
    if (app3) await waitFor(`http://127.0.0.1:${secondProcessPort}/api/health`, app3);
    if ((await nextMessage<string>(quotaWriter)) !== "ready") throw new Error("bench/writer.ts did not start");
    /** Turns the mail-server-like writes on or off; turning them off adds what was written to `quotaWrites`. */
    const quotaWrites: QuotaReport = { writes: 0, seconds: 0 };
    let writing = false;
    const setWriting = async (on: boolean) => {
      if (on === writing) return;
      writing = on;
      quotaWriter.send(on ? "start" : "stop");
      if (!on) {
        const report = await nextMessage<QuotaReport>(quotaWriter);
        quotaWrites.writes += report.writes;
        quotaWrites.seconds += report.seconds;
      }
    };
    const pidOf = (s: Scenario) =>
      (s.on === "baseline" ? baseline : s.on === "twoWorkers" ? app2 : s.on === "twoProcesses" ? app3! : app).pid!;

    const [someone] = await names(BIG_DOMAIN, 1);
    const many = await names(BIG_DOMAIN, 1000);
    const cold = coldTerms(await names(BIG_DOMAIN, 20_000));
    if (!quick && cold.length <= MAX_TOTALS)
      throw new Error(`only ${cold.length} search terms: the server would remember their totals`);
    const accountPath = `/api/v1/emails/${BIG_DOMAIN}/${someone}`;
    const big = listScenarios(BIG_DOMAIN, "100k", cold);
    const scenarios: Scenario[] = [
      {
        name: EMPTY_HANDLER,
        group: "server",
        load: { url: `http://127.0.0.1:${appPort}/api/health`, connections: CONNECTIONS },
      },
      {
        name: ONE_ACCOUNT,
        group: "server",
        load: { url: `http://127.0.0.1:${appPort}${accountPath}`, headers: auth(BIG_DOMAIN), connections: CONNECTIONS },
      },
      {
        name: "baseline node:http: GET one account (auth)",
        group: "baseline",
        on: "baseline",
        load: {
          url: `http://127.0.0.1:${basePort}${accountPath}`,
          headers: auth(BIG_DOMAIN),
          connections: CONNECTIONS,
        },
      },
      {
        name: `GET domain (${short(settings.sizes.bigAccounts)} accounts)`,
        group: "server",
        load: {
          url: `http://127.0.0.1:${appPort}/api/v1/domains/${BIG_DOMAIN}`,
          headers: auth(BIG_DOMAIN),
          connections: CONNECTIONS,
        },
      },
      {
        name: `GET mailing list (${settings.sizes.maxSubscribers} subscribers)`,
        group: "server",
        load: {
          url: `http://127.0.0.1:${appPort}/api/v1/mailinglists/${BIG_DOMAIN}/${FULL_LIST}`,
          headers: auth(BIG_DOMAIN),
          connections: CONNECTIONS,
        },
      },
      {
        name: "PUT one account",
        group: "write",
        load: {
          url: `http://127.0.0.1:${appPort}${accountPath}`,
          method: "PUT",
          headers: { ...auth(BIG_DOMAIN), "content-type": "application/json" },
          body: JSON.stringify({ description: "Zmieniony opis" }),
          connections: CONNECTIONS,
        },
      },
      // Each 100k list query is measured together with its 10k counterpart (measurePair), so the two figures of a
      // pair share the host's load of that moment (this virtual machine's speed drifts by a third within minutes).
      ...pairedLists(big, listScenarios(MID_DOMAIN, "10k", cold)),
      // Issue 19: every list scenario of the 100k domain again, while another process writes as a mail server does.
      ...big.map(underWrites),
      ...workerPair(ONE_ACCOUNT, accountPath, auth(BIG_DOMAIN)),
      ...workerPair(
        `list ${short(settings.sizes.bigAccounts)}: first page`,
        `/api/v1/emails/${BIG_DOMAIN}`,
        auth(BIG_DOMAIN),
      ),
      ...(cluster
        ? processPair(
            accountPath,
            auth(BIG_DOMAIN),
            { "process A": () => app.pid, postgres: () => postmasterPid(cluster.dataDir) },
            {
              "process A": () => app.pid,
              "process B": () => app3?.pid,
              postgres: () => postmasterPid(cluster.dataDir),
            },
          )
        : []),
    ];
    // The workers pair: the CPU of the server and of the database too.
    for (const s of scenarios.filter((x) => x.group === "workers")) {
      const server = s.on === "twoWorkers" ? app2 : app;
      s.load.cpuOf = {
        server: () => server.pid,
        ...(cluster ? { postgres: () => postmasterPid(cluster.dataDir) } : {}),
      };
    }

    // Each scenario must answer 2xx before it is measured.
    for (const s of scenarios) {
      const url = new URL(s.load.nextPath ? `${new URL(s.load.url).origin}${s.load.nextPath()}` : s.load.url);
      const res = await fetch(url, { method: s.load.method ?? "GET", headers: s.load.headers, body: s.load.body });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`${s.name}: ${res.status} from ${url}`);
    }

    // The main server has been warmed by the checks above and will be by every scenario before the workers pair;
    // the two-worker one only sees its own scenarios, so it gets 15 s of each first: a fresh worker needs about
    // 10 s of load to reach its speed (bench/README.md).
    for (const s of scenarios.filter((x) => x.on === "twoWorkers" || x.on === "twoProcesses"))
      await measure(s.load, 0, quick ? 1 : 15, pidOf(s));

    const loadAtStart = os.loadavg();
    const probeAtStart = cpuProbeMs();
    const cpuAtStart = cpuTimes();
    const stealPerRun: (number | null)[] = [];
    const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
    for (let run = 1; run <= settings.runs; run++) {
      const cpuAtRun = cpuTimes();
      const record = (s: Scenario, sample: Sample) => {
        samples.get(s.name)!.push(sample);
        log(
          `${label} run ${run}/${settings.runs}  ${s.name.padEnd(58)} ${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50.toFixed(2)} ms  p99 ${sample.p99.toFixed(2)} ms  errors ${sample.errors}`,
        );
      };
      for (let i = 0; i < scenarios.length; i++) {
        const s = scenarios[i]!;
        const next = scenarios[i + 1];
        await setWriting(!!s.underWrites);
        if (next && comparedWith(s, next)) {
          // The two-worker server idles through every other scenario, and an idle server answers slowly at first
          // (bench/README.md): it gets a warm-up of its own right before its pair, as the main server has had.
          if (next.on === "twoWorkers" || next.on === "twoProcesses")
            await measure(next.load, 0, quick ? 1 : 8, pidOf(next));
          // The workers pair runs in halves of 5 s: in halves of 1 s a stall of the host weighs five times as much
          // (one repetition of the 2026-11-25 01:04 run gave 0.99x, the others 1.28-1.57x; bench/README.md).
          const seconds = s.group === "workers" || s.group === "processes" ? settings.workerSeconds : settings.seconds;
          const [a, b] = await measurePair(s.load, next.load, settings.warmup, seconds, pidOf(s), pidOf(next));
          record(s, a);
          record(next, b);
          i++;
        } else {
          record(s, await measure(s.load, settings.warmup, settings.seconds, pidOf(s)));
        }
      }
      await setWriting(false);
      stealPerRun.push(stealPercent(cpuAtRun, cpuTimes()));
      log(
        `${label} run ${run}/${settings.runs}: CPU time stolen by the hypervisor ${stealPerRun.at(-1) ?? "unknown"}%`,
      );
    }
    const steal = { overall: stealPercent(cpuAtStart, cpuTimes()), perRun: stealPerRun };
    const put = await putMany(many);
    log(
      `${label}: PUT ${many.length} names: ${put.times.map((t) => t.toFixed(0)).join(", ")} ms; atomic: ${put.atomic}`,
    );

    // Issue 31: PUTs of a 50,000-member list (3 at a time) while another domain's account is PUT.
    const listMembers = quick ? 5_000 : 50_000;
    const listPut: ListPutReport = await measureListPut(
      {
        base: `http://127.0.0.1:${appPort}`,
        listDomain: BIG_DOMAIN,
        listName: FULL_LIST,
        listAuth: auth(BIG_DOMAIN),
        otherDomain: MID_DOMAIN,
        otherAccount: "postmaster",
        otherAuth: auth(MID_DOMAIN),
      },
      listMembers,
    );
    log(
      `PUT of a ${listMembers}-member list: ${listPut.listPutMs.map((t) => t.toFixed(0)).join(", ")} ms; ` +
        `other domain's PUT meanwhile: p99 ${listPut.other.p99.toFixed(1)} ms, max ${listPut.other.max.toFixed(1)} ms`,
    );

    // The panel in a browser: full runs only (Chromium and Lighthouse take longer than the whole quick run).
    let panel: PanelResult | null = null;
    if (
      first &&
      (!quick || process.argv.includes("--panel")) &&
      !process.argv.includes("--no-panel") &&
      fs.existsSync(CHROMIUM)
    ) {
      log("Panel: account table in Chromium, JavaScript per page, Lighthouse ...");
      panel = await measurePanel(`http://127.0.0.1:${appPort}`, `postmaster@${BIG_DOMAIN}`, ADMIN_PASSWORD, 5);
      log(
        `Panel: table visible ${panel.tableVisibleMs.map((t) => t.toFixed(0)).join(", ")} ms; Lighthouse ${panel.lighthouse ?? panel.lighthouseError}`,
      );
    }

    // Issue 19: a list scenario while another process imports accounts into the same domain; the slowest
    // request counts. Last, since the import changes the data the other scenarios read.
    log(`Import: ${settings.imported} accounts into ${BIG_DOMAIN} by another process, while searching ...`);
    const importer = startWriter(["import", file, String(settings.imported)]);
    children.push(importer);
    const duringImport: Scenario = { ...big.find((s) => s.load.nextPath)!, group: "import", pair: undefined };
    // Measured from the importer's first insert: its start-up (Node compiling bench/writer.ts) is not the import
    // (bench/README.md: the slowest requests of earlier runs came while it started).
    if ((await nextMessage<string>(importer)) !== "ready") throw new Error("bench/writer.ts did not start");
    const imported = nextMessage<ImportReport>(importer);
    importer.send("start");
    const importSample = await measureUntil(duringImport.load, imported, app.pid!);
    const importReport = await imported;
    duringImport.name = `${duringImport.name}, while another process imports ${importReport.accounts} accounts (${importReport.seconds.toFixed(1)} s; p99 column = slowest)`;
    log(
      `Import: ${importReport.accounts} accounts in ${importReport.seconds.toFixed(1)} s; slowest list request ${importSample.max.toFixed(1)} ms`,
    );

    // Issue 29: a real user's median while 4 clients send bad sign-ins, on a server of its own (last: it loads both cores).
    const badSignIns = first
      ? await measureBadSignIns({ root, port: appPort + 3, distDir, seconds: quick ? 4 : 20, log })
      : undefined;

    const rows: Row[] = scenarios.map((s) => {
      const xs = samples.get(s.name)!;
      return {
        name: s.name,
        group: s.group,
        pair: s.pair,
        rps: median(xs.map((x) => x.rps)),
        p50: median(xs.map((x) => x.p50)),
        p99: median(xs.map((x) => x.p99)),
        errors: xs.reduce((n, x) => n + x.errors, 0),
        peakRssMb: Math.max(...xs.map((x) => x.peakRssMb)),
        cores: mediansOf(xs.map((x) => x.cores)),
      };
    });
    rows.push({
      name: duringImport.name,
      group: duringImport.group,
      rps: importSample.rps,
      p50: importSample.p50,
      p99: importSample.max,
      errors: importSample.errors,
      peakRssMb: importSample.peakRssMb,
    });
    const sortedPut = [...put.times].sort((a, b) => a - b);
    rows.push({
      name: `PUT ${many.length} names in one request (sequential, ${put.times.length}x; p99 column = slowest)`,
      group: "write",
      rps: 1000 / median(put.times),
      p50: median(put.times),
      p99: sortedPut[sortedPut.length - 1]!,
      errors: 0,
      peakRssMb: peakRssMb(app.pid!),
    });
    const workerRatio = (label: string) =>
      pairedRatio(
        of(`${label}, ${WORKER_CONNECTIONS} connections: 2 workers`),
        of(`${label}, ${WORKER_CONNECTIONS} connections: 1 worker`),
        (x) => x.rps,
      );
    // Ratios are paired: per repetition, between two scenarios measured together (measurePair), then the median.
    const of = (name: string) => samples.get(name)!;
    const accountRatio = pairedRatio(of(ONE_ACCOUNT), of(EMPTY_HANDLER), (x) => x.rps);
    const baselineRatio = pairedRatio(of(ONE_ACCOUNT), of("baseline node:http: GET one account (auth)"), (x) => x.rps);
    const list100k = rows.filter((r) => r.group === "list100k");
    const listUnderWrites = rows.filter((r) => r.group === "underWrites");
    const workersOnAccount = workerRatio(ONE_ACCOUNT);
    const workersOnList = workerRatio(`list ${short(settings.sizes.bigAccounts)}: first page`);
    const processesOnAccount = cluster
      ? pairedRatio(
          of(`${ONE_ACCOUNT}, ${WORKER_CONNECTIONS} connections: ${TWO_PROCESSES}`),
          of(`${ONE_ACCOUNT}, ${WORKER_CONNECTIONS} connections: ${ONE_PROCESS}`),
          (x) => x.rps,
        )
      : undefined;
    const pairs = scenarios
      .filter((s) => s.group === "list100k")
      .flatMap((big) => {
        const mid = scenarios.find((s) => s.group === "list10k" && samePair(s, big));
        if (!mid) return [];
        const [b, m] = [of(big.name), of(mid.name)];
        return [
          {
            pair: big.pair!,
            rps: pairedRatio(m, b, (x) => x.rps),
            p50: pairedRatio(b, m, (x) => x.p50),
            p99: pairedRatio(b, m, (x) => x.p99),
          },
        ];
      });
    const worstPair = pairs.reduce((w, p) => (Math.max(p.rps, p.p50) > Math.max(w.rps, w.p50) ? p : w));
    const peak = Math.max(
      peakRssMb(app.pid!),
      peakRssMb(app2.pid!),
      ...rows.filter((r) => r.group !== "baseline").map((r) => r.peakRssMb),
    );
    const target = (name: string, value: number, limit: number, unit: string, met: boolean): Target => ({
      name: `${label}: ${name}`,
      value: Number(value.toFixed(3)),
      limit,
      unit,
      met,
    });
    const targets: Target[] = [
      target(
        "GET one account / empty route handler throughput (1 worker)",
        accountRatio,
        0.7,
        "ratio (min)",
        accountRatio >= 0.7,
      ),
      // Issue 19 set the lists' limit at 50 ms, under writes; the earlier 25 ms was met by the in-memory engine it removed.
      target(
        "List on 100k accounts (search, any sort, 4 connections): worst p99",
        Math.max(...list100k.map((r) => r.p99)),
        50,
        "ms (max)",
        list100k.every((r) => r.p99 <= 50),
      ),
      target(
        `List on 100k accounts under writes (${QUOTA_WRITES_PER_SECOND} mail_quota upserts/s; search, any sort, 4 connections): worst p99`,
        Math.max(...listUnderWrites.map((r) => r.p99)),
        50,
        "ms (max)",
        listUnderWrites.every((r) => r.p99 <= 50),
      ),
      target(
        `List during an import of ${importReport.accounts} accounts by another process: slowest request`,
        importSample.max,
        250,
        "ms (max)",
        importSample.max <= 250,
      ),
      target(
        `GET one account, ${WORKER_CONNECTIONS} connections: 2 workers / 1 worker throughput (workers)`,
        workersOnAccount,
        1.4,
        "ratio (min)",
        workersOnAccount >= 1.4,
      ),
      target(
        `List 100k vs 10k: worst of req/s ratio and p50 ratio (${worstPair.pair})`,
        Math.max(worstPair.rps, worstPair.p50),
        1.5,
        "x (max)",
        pairs.every((p) => p.rps <= 1.5 && p.p50 <= 1.5),
      ),
      target(
        `PUT 1,000 names: median of ${put.times.length} (slowest ${sortedPut[sortedPut.length - 1]!.toFixed(0)} ms)`,
        median(put.times),
        500,
        "ms (max)",
        median(put.times) < 500,
      ),
      target("PUT 1,000 names: atomic (a missing name changes nothing)", put.atomic ? 1 : 0, 1, "bool", put.atomic),
      target(
        `Another domain's account PUT while a ${listPut.members}-member list is PUT (3 at a time): slowest`,
        listPut.other.max,
        250,
        "ms (max)",
        listPut.other.max <= 250,
      ),
      target("Server peak RSS under load, per process (each worker)", peak, 300, "MB (max)", peak < 300),
    ];
    if (processesOnAccount !== undefined) {
      targets.push(
        target(
          `GET one account, ${WORKER_CONNECTIONS} connections: two API processes on two ports / one (same database)`,
          processesOnAccount,
          1.3,
          "ratio (min)",
          processesOnAccount >= 1.3,
        ),
      );
    }
    if (badSignIns) {
      targets.push(
        target(
          `Real user's median GET while 4 clients send bad sign-ins (${badSignIns.badSignInsPerSecond.toFixed(0)}/s) / quiet`,
          badSignIns.ratio,
          2,
          "x (max)",
          badSignIns.ratio <= 2,
        ),
      );
    }
    if (!quick)
      targets.push(
        target("Seeding 100,000 accounts (and the rest)", seeded.seconds, 60, "s (max)", seeded.seconds < 60),
      );
    if (panel) {
      const worstJs = panel.js.reduce((w, p) => (p.gzipKb > w.gzipKb ? p : w));
      targets.push(
        target(
          "Panel: account table rows visible after navigation (100k domain, median)",
          panel.tableVisibleMedianMs,
          1000,
          "ms (max)",
          panel.tableVisibleMedianMs < 1000,
        ),
        target(
          `Panel: JavaScript on first load, worst page (${worstJs.page}), gzipped`,
          worstJs.gzipKb,
          250,
          "kB (max)",
          worstJs.gzipKb < 250,
        ),
        target(
          "Panel: Lighthouse 12 mobile performance, account table",
          panel.lighthouse ?? 0,
          90,
          "score (min)",
          (panel.lighthouse ?? 0) >= 90,
        ),
      );
    }

    return {
      engine: label,
      quick,
      date: new Date().toISOString(),
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? "",
      node: process.version,
      nice: os.getPriority(),
      serverCommand: startTokens.join(" "),
      load: { start: loadAtStart, end: os.loadavg() },
      cpuProbeMs: { start: probeAtStart, end: cpuProbeMs() },
      stealPercent: steal,
      runs: settings.runs,
      seconds: settings.seconds,
      warmup: settings.warmup,
      connections: CONNECTIONS,
      seed: {
        ...settings.sizes,
        seconds: Number(seeded.seconds.toFixed(1)),
        accounts: seeded.accounts,
        listMembers: seeded.listMembers,
      },
      ratios: {
        accountToEmptyHandler: accountRatio,
        accountToBaseline: baselineRatio,
        workersOnAccount,
        workersOnList,
        processesOnAccount,
      },
      badSignIns,
      conditions: {
        quotaWrites: { ...quotaWrites, perSecond: quotaWrites.seconds ? quotaWrites.writes / quotaWrites.seconds : 0 },
        import: {
          ...importReport,
          requests: importSample.requests,
          slowestMs: importSample.max,
          errors: importSample.errors,
        },
      },
      pairs,
      panel,
      rows,
      targets,
    };
  } finally {
    await cleanup();
    process.off("exit", stopAll);
  }
}

/** Per label, the median over the repetitions of the cores each sample measured. */
function mediansOf(xs: (Record<string, number> | undefined)[]): Record<string, number> | undefined {
  const present = xs.filter((x): x is Record<string, number> => !!x);
  if (present.length === 0) return undefined;
  const labels = [...new Set(present.flatMap((x) => Object.keys(x)))];
  return Object.fromEntries(labels.map((l) => [l, Number(median(present.map((x) => x[l] ?? 0)).toFixed(2))]));
}

await main();
