// The API at provider scale: the production server started as `npm start` starts it, on the provider's database;
// GET one account, the list page of a 100,000-account and of a 20-account domain, each measured paired with the
// empty route handler (A B B A), and a PUT of 1,000 names; each compared with the same on the 100k bench
// (bench/results.json) as a ratio to that run's empty route handler, since the two runs' hosts differ.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort } from "@/e2e/support/pg-cluster";
import { measurePair, median, type Load, type Sample } from "./load";
import type { Report } from "./report";
import { PROVIDER_PASSWORD } from "./provider-seed";

const root = path.resolve(import.meta.dirname, "..");
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const CONNECTIONS = 4;
/** The 100k bench's names of the scenarios compared here (bench/run.ts). */
const EMPTY_HANDLER = "empty route handler (GET /api/health)";
const ONE_ACCOUNT = "GET one account (auth)";
const LIST_QUERY = 'search "kowal", sort=name';

export interface ApiSettings {
  warmup: number;
  seconds: number;
  runs: number;
  putRuns: number;
}

export interface ApiFigure {
  name: string;
  /** Medians over the repetitions, of the scenario and of the empty route handler measured with it. */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  emptyRps: number;
  emptyP50: number;
  /** Throughput as a share of the empty route handler's, paired: the median of the repetitions' ratios. */
  ofEmpty: number;
  /** The same share on the 100k bench (bench/results.json), when it has the scenario. */
  benchOfEmpty?: number;
  /** benchOfEmpty ÷ ofEmpty: how many times costlier than on the 100k bench, both against their empty handler. */
  vsBench?: number;
}

export interface ApiResult {
  server: string;
  connections: number;
  settings: ApiSettings;
  bench?: { date: string; engine: string; quick: boolean };
  figures: ApiFigure[];
  put: {
    names: number;
    timesMs: number[];
    medianMs: number;
    /** The median PUT in units of the empty handler's request time (median ms × its req/s ÷ 1000), as on the bench. */
    inEmptyRequests: number;
    benchInEmptyRequests?: number;
    vsBench?: number;
  };
}

/** The production build the server serves, built when missing (as `npm run bench` does). */
export function ensureBuild(): void {
  if (fs.existsSync(path.join(root, distDir, "BUILD_ID"))) return;
  console.log(`No production build in ${distDir}: building ...`);
  const built = spawnSync("npm", ["run", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (built.status !== 0) throw new Error("next build failed");
}

/** `npm start`'s command line from package.json: its environment settings before `node`, and node's arguments. */
function startCommand(): { env: Record<string, string>; args: string[]; text: string } {
  const tokens = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts.start.split(/\s+/);
  const at = tokens.indexOf("node");
  return {
    env: Object.fromEntries(tokens.slice(0, at).map((t) => t.split("=", 2) as [string, string])),
    args: tokens.slice(at + 1),
    text: tokens.join(" "),
  };
}

export interface Server {
  base: string;
  child: ChildProcess;
  command: string;
  stop: () => Promise<void>;
}

/** The production server with one worker (as the 100k bench's main server) on the given PostgreSQL database. */
export async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const cmd = startCommand();
  const child = spawn(process.execPath, cmd.args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_PATH: "",
      NEXT_DIST_DIR: distDir,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      ...cmd.env,
      PORT: String(port),
      WORKERS: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${base}: server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`${base}: server did not start in 60 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, child, command: cmd.text, stop };
}

const auth = (domain: string) => ({
  authorization: `Basic ${Buffer.from(`postmaster@${domain}:${crypto.createHash("sha1").update(PROVIDER_PASSWORD).digest("hex")}`).toString("base64")}`,
});

/** The 100k bench's figures to compare with: its PostgreSQL report in bench/results.json, if there is one. */
function benchReport(): Report | undefined {
  const file = path.join(root, "bench", "results.json");
  if (!fs.existsSync(file)) return undefined;
  const engines = (JSON.parse(fs.readFileSync(file, "utf8")) as { engines?: Report[] }).engines ?? [];
  return engines.find((e) => e.engine === "PostgreSQL");
}

/** A scenario's throughput as a share of the empty handler's on the 100k bench (its medians over the repetitions). */
function benchShare(report: Report | undefined, pick: (r: Report["rows"][number]) => boolean): number | undefined {
  const empty = report?.rows.find((r) => r.name === EMPTY_HANDLER);
  const row = report?.rows.find(pick);
  return empty && row && empty.rps > 0 ? row.rps / empty.rps : undefined;
}

async function ok(url: string, init?: RequestInit): Promise<void> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${init?.method ?? "GET"} ${url}: ${res.status}`);
}

/** Names of accounts of a domain other than its postmaster, in insertion order. */
async function accountNames(databaseUrl: string, domain: string, count: number): Promise<string[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string }>(
      `SELECT a.name FROM accounts a JOIN domains d ON d.id = a.domain_id
       WHERE d.name = $1 AND a.name <> 'postmaster' ORDER BY a.id LIMIT $2`,
      [domain, count],
    );
    return rows.map((r) => r.name);
  } finally {
    await c.end();
  }
}

/** Measures on `server` (started on `databaseUrl` by startServer), which it does not stop. */
export async function measureApi(
  server: Server,
  databaseUrl: string,
  bigDomain: string,
  smallDomain: string,
  settings: ApiSettings,
  log: (line: string) => void,
): Promise<ApiResult> {
  const names = await accountNames(databaseUrl, bigDomain, 1000);
  const { base } = server;
  {
    const bench = benchReport();
    const empty: Load = { url: `${base}/api/health`, connections: CONNECTIONS };
    const get = (p: string, domain: string): Load => ({
      url: `${base}${p}`,
      headers: auth(domain),
      connections: CONNECTIONS,
    });
    const list = `?search=kowal&sort=name`;
    const scenarios = [
      {
        name: `${ONE_ACCOUNT}, 100k domain`,
        load: get(`/api/v1/emails/${bigDomain}/${names[0]}`, bigDomain),
        bench: bench ? bench.ratios.accountToEmptyHandler : undefined,
      },
      {
        name: `list, 100k domain: ${LIST_QUERY}`,
        load: get(`/api/v1/emails/${bigDomain}${list}`, bigDomain),
        bench: benchShare(bench, (r) => r.group === "list100k" && r.pair === LIST_QUERY),
      },
      {
        name: `list, 20-account domain: ${LIST_QUERY}`,
        load: get(`/api/v1/emails/${smallDomain}${list}`, smallDomain),
        bench: undefined,
      },
    ];
    for (const s of [{ load: empty }, ...scenarios]) await ok(s.load.url, { headers: s.load.headers });
    const samples = new Map<string, { a: Sample; e: Sample }[]>(scenarios.map((s) => [s.name, []]));
    for (let run = 1; run <= settings.runs; run++) {
      for (const s of scenarios) {
        const [e, a] = await measurePair(empty, s.load, settings.warmup, settings.seconds, server.child.pid!);
        samples.get(s.name)!.push({ a, e });
        log(
          `API run ${run}/${settings.runs}  ${s.name.padEnd(52)} ${a.rps.toFixed(0).padStart(5)} req/s (empty handler ${e.rps.toFixed(0)})  p50 ${a.p50.toFixed(2)} ms  p99 ${a.p99.toFixed(2)} ms`,
        );
      }
    }
    const figures: ApiFigure[] = scenarios.map((s) => {
      const xs = samples.get(s.name)!;
      const ofEmpty = median(xs.map((x) => x.a.rps / x.e.rps));
      return {
        name: s.name,
        rps: median(xs.map((x) => x.a.rps)),
        p50: median(xs.map((x) => x.a.p50)),
        p99: median(xs.map((x) => x.a.p99)),
        errors: xs.reduce((n, x) => n + x.a.errors + x.e.errors, 0),
        emptyRps: median(xs.map((x) => x.e.rps)),
        emptyP50: median(xs.map((x) => x.e.p50)),
        ofEmpty,
        benchOfEmpty: s.bench,
        vsBench: s.bench !== undefined ? s.bench / ofEmpty : undefined,
      };
    });

    const url = `${base}/api/v1/emails/${bigDomain}/${names.join(",")}`;
    const timesMs: number[] = [];
    for (let i = 0; i < settings.putRuns; i++) {
      const t0 = performance.now();
      await ok(url, {
        method: "PUT",
        headers: { ...auth(bigDomain), "content-type": "application/json" },
        body: JSON.stringify({ description: `Zmiana zbiorcza ${i}` }),
      });
      timesMs.push(performance.now() - t0);
    }
    log(`API: PUT ${names.length} names: ${timesMs.map((t) => t.toFixed(0)).join(", ")} ms`);
    const medianMs = median(timesMs);
    const emptyRps = median(figures.map((f) => f.emptyRps));
    const benchEmpty = bench?.rows.find((r) => r.name === EMPTY_HANDLER);
    const benchPut = bench?.rows.find((r) => r.group === "write" && r.name.startsWith("PUT 1000 names"));
    const benchInEmptyRequests = benchEmpty && benchPut ? (benchPut.p50 * benchEmpty.rps) / 1000 : undefined;
    const inEmptyRequests = (medianMs * emptyRps) / 1000;
    return {
      server: server.command,
      connections: CONNECTIONS,
      settings,
      bench: bench ? { date: bench.date, engine: bench.engine ?? "", quick: bench.quick } : undefined,
      figures,
      put: {
        names: names.length,
        timesMs,
        medianMs,
        inEmptyRequests,
        benchInEmptyRequests,
        vsBench: benchInEmptyRequests !== undefined ? inEmptyRequests / benchInEmptyRequests : undefined,
      },
    };
  }
}
