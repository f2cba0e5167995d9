// The API at provider scale: the production server started as `npm start` starts it, on the provider's database;
// GET one account, the list page of a 100,000-account and of a 20-account domain, each measured paired with the
// empty route handler (A B B A), and a PUT of 1,000 names; each compared with the same on the 100k bench
// (bench/results.json) as a ratio to that run's empty route handler, since the two runs' hosts differ.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort } from "@/e2e/support/pg-cluster";
import { measure, measurePair, median, type Load, type Sample } from "./load";
import type { Report } from "./report";
import { CONNECTIONS, distDir, root, startArgs, startEnv, startTokens } from "./run-config";
import { EMPTY_HANDLER, ONE_ACCOUNT, short } from "./scenarios";
import type { Importer } from "./provider-mail";
import { listened, PROVIDER_PASSWORD, type DomainPlan } from "./provider-seed";

/** The 100k bench's list query compared here (its pair name in bench/results.json), and its query string. */
const LIST_QUERY = 'search "kowal", sort=name';
const LIST_SEARCH = "?search=kowal&sort=name";

export interface ApiSettings {
  /** Seconds of each load, unmeasured, on the fresh server before the first pair: a new worker starts slow. */
  serverWarmup: number;
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
    /** The accounts of the domain the names belong to. */
    domainAccounts: number;
    names: number;
    timesMs: number[];
    medianMs: number;
    /** The median PUT in units of the empty handler's request time (median ms × its req/s ÷ 1000), as on the bench. */
    inEmptyRequests: number;
    benchInEmptyRequests?: number;
    vsBench?: number;
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
  const child = spawn(process.execPath, startArgs, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_PATH: "",
      NEXT_DIST_DIR: distDir,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      ...startEnv,
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
  return { base, child, command: startTokens.join(" "), stop };
}

const auth = (domain: string) => ({
  authorization: `Basic ${Buffer.from(`postmaster@${domain}:${crypto.createHash("sha1").update(PROVIDER_PASSWORD).digest("hex")}`).toString("base64")}`,
});

/**
 * The API imports `count` accounts into `domain` as a provider's client would: one POST each with a password (which
 * the server hashes with scrypt), `concurrency` at a time. The first refused or failed POST stops every client and
 * is thrown, with the server's answer, once the others' requests have returned.
 */
export function apiImport(server: Server, domain: string, count: number, concurrency = 4): Importer {
  return async (stop) => {
    let next = 0;
    let failed: Error | undefined;
    const client = async () => {
      for (let i = next++; i < count && !failed && !stop(); i = next++) {
        const url = `${server.base}/api/v1/emails/${domain}/apiimport${i}`;
        try {
          const res = await fetch(url, {
            method: "POST",
            headers: { ...auth(domain), "content-type": "application/json" },
            body: JSON.stringify({ password: `Import-${i}x`, description: "API import" }),
          });
          const body = await res.text();
          if (res.status !== 201) throw new Error(`answered ${res.status}: ${body}`);
        } catch (err) {
          failed ??= new Error(`POST ${url} (account ${i + 1} of ${count}): ${(err as Error).message}`, { cause: err });
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    if (failed) throw failed;
  };
}

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

/** A GET that must answer 200 with JSON; its body, so the caller can check it answered about real rows. */
async function getJson(load: Load): Promise<Record<string, unknown>> {
  const res = await fetch(load.url, { headers: load.headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${load.url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The list's total, which must be above zero: a list that finds nothing would measure an empty page. */
function listTotal(body: Record<string, unknown>, url: string): number {
  const total = (body.result_info as { total?: number } | undefined)?.total ?? 0;
  if (!(total > 0)) throw new Error(`GET ${url}: no accounts found`);
  return total;
}

/** Names of accounts of a domain other than its postmaster, in insertion order. */
async function accountNames(databaseUrl: string, domain: string, count: number): Promise<string[]> {
  const c = listened(new pg.Client({ connectionString: databaseUrl }), "account names on the primary");
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

interface ApiScenario {
  name: string;
  load: Load;
  bench?: number;
}

/** Each scenario paired with the empty handler, `settings.runs` times; medians, and the share of the empty handler. */
async function measureFigures(
  server: Server,
  empty: Load,
  scenarios: ApiScenario[],
  settings: ApiSettings,
  log: (line: string) => void,
): Promise<ApiFigure[]> {
  for (const load of [empty, ...scenarios.map((s) => s.load)])
    await measure(load, 0, settings.serverWarmup, server.child.pid!);
  const samples = new Map<string, { a: Sample; e: Sample }[]>(scenarios.map((s) => [s.name, []]));
  for (let run = 1; run <= settings.runs; run++) {
    for (const s of scenarios) {
      const [e, a] = await measurePair(empty, s.load, settings.warmup, settings.seconds, server.child.pid!);
      samples.get(s.name)!.push({ a, e });
      log(
        `API run ${run}/${settings.runs}  ${s.name.padEnd(48)} ${a.rps.toFixed(0).padStart(5)} req/s (empty handler ${e.rps.toFixed(0)})  p50 ${a.p50.toFixed(2)} ms  p99 ${a.p99.toFixed(2)} ms  errors ${a.errors + e.errors}`,
      );
    }
  }
  return scenarios.map((s) => {
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
}

/** Sequential PUTs of one new description to `names` of `domain`; their times in ms. */
async function putTimes(base: string, domain: string, names: string[], runs: number): Promise<number[]> {
  const url = `${base}/api/v1/emails/${domain}/${names.join(",")}`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(url, {
      method: "PUT",
      headers: { ...auth(domain), "content-type": "application/json" },
      body: JSON.stringify({ description: `Zmiana zbiorcza ${i}` }),
    });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 204) throw new Error(`PUT of ${names.length} names: ${res.status}`);
  }
  return times;
}

/**
 * Measures on `server` (started on `databaseUrl` by startServer), which it does not stop: GET one account and the
 * list page of the big and of the small domain, each paired with the empty handler, then the PUT of 1,000 names.
 */
export async function measureApi(
  server: Server,
  databaseUrl: string,
  big: DomainPlan,
  small: DomainPlan,
  settings: ApiSettings,
  log: (line: string) => void,
): Promise<ApiResult> {
  const names = await accountNames(databaseUrl, big.name, 1000);
  const { base } = server;
  const bench = benchReport();
  const empty: Load = { url: `${base}/api/health`, connections: CONNECTIONS };
  const get = (p: string, domain: string): Load => ({
    url: `${base}${p}`,
    headers: auth(domain),
    connections: CONNECTIONS,
  });
  const bigSize = `${short(big.accounts)} domain`;
  const smallSize = `${small.accounts}-account domain`;
  const scenarios: ApiScenario[] = [
    {
      name: `${ONE_ACCOUNT}, ${bigSize}`,
      load: get(`/api/v1/emails/${big.name}/${names[0]}`, big.name),
      bench: bench?.ratios.accountToEmptyHandler,
    },
    {
      name: `list, ${bigSize}: ${LIST_QUERY}`,
      load: get(`/api/v1/emails/${big.name}${LIST_SEARCH}`, big.name),
      bench: benchShare(bench, (r) => r.group === "list100k" && r.pair === LIST_QUERY),
    },
    { name: `list, ${smallSize}: ${LIST_QUERY}`, load: get(`/api/v1/emails/${small.name}${LIST_SEARCH}`, small.name) },
  ];
  // Each answers with what it is meant to measure before it is measured: the account, and lists that find rows.
  await getJson(empty);
  const account = await getJson(scenarios[0]!.load);
  if (account.name !== names[0]) throw new Error(`GET ${scenarios[0]!.load.url}: answered ${JSON.stringify(account)}`);
  const totals = [listTotal(await getJson(scenarios[1]!.load), scenarios[1]!.load.url)];
  totals.push(listTotal(await getJson(scenarios[2]!.load), scenarios[2]!.load.url));
  log(`API: ${base}; the lists find ${totals.join(" and ")} accounts`);
  const figures = await measureFigures(server, empty, scenarios, settings, log);

  const timesMs = await putTimes(base, big.name, names, settings.putRuns);
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
      domainAccounts: big.accounts,
      names: names.length,
      timesMs,
      medianMs,
      inEmptyRequests,
      benchInEmptyRequests,
      vsBench: benchInEmptyRequests !== undefined ? inEmptyRequests / benchInEmptyRequests : undefined,
    },
  };
}
