// Load generation and measurement: autocannon for the traffic, our own latency list (autocannon's histogram
// rounds to whole milliseconds, too coarse for sub-millisecond requests) and the server's resident memory sampled
// from /proc while the load runs.
import autocannon from "autocannon";
import { execFile } from "node:child_process";
import fs from "node:fs";

export interface Load {
  url: string;
  method?: "GET" | "PUT";
  headers?: Record<string, string>;
  body?: string;
  /** A fresh path for every request (e.g. a different search term each time). */
  nextPath?: () => string;
  connections: number;
  /**
   * "wrk" runs the load from wrk (one C thread, a separate process) instead of autocannon in this process: for the
   * workers comparison, where the generator must leave the two cores to the server (bench/README.md).
   */
  generator?: "wrk";
  /**
   * wrk only: more servers loaded at the same time as `url` (the same path on other ports: two API processes as two
   * hosts would run them), `connections` split evenly; the sample is their sum.
   */
  alsoUrls?: string[];
  /** Processes (and their descendants) whose CPU time is measured while the load runs, by label. */
  cpuOf?: Record<string, () => number | undefined>;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** The slowest response. */
  max: number;
  errors: number;
  requests: number;
  /** The largest resident set of any one process of the server (a cluster's primary or one of its workers). */
  peakRssMb: number;
  /**
   * Cores used while loaded (CPU seconds / wall seconds) by each process of Load.cpuOf, and "host": every core's busy
   * time (the load generator and other work on the machine included).
   */
  cores?: Record<string, number>;
}

/**
 * CPU seconds (user + system) used so far by a process and its descendants (/proc/<pid>/stat; 100 ticks/s): each
 * living process's own time plus that of its children that ended and were reaped (cutime, cstime), so that a
 * PostgreSQL backend or a worker ending between two readings does not take its time with it.
 */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime: fields 14-17 of proc(5)
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

/** Busy CPU seconds of the whole machine so far, over all cores (/proc/stat: everything but idle and iowait). */
function hostBusySeconds(): number {
  try {
    const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / 100;
  } catch {
    return 0;
  }
}

/** A process and its descendants (a cluster's primary and its workers), from /proc. */
export function processTree(pid: number): number[] {
  try {
    const pids = [pid];
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      for (const child of children ? children.split(/\s+/) : []) pids.push(...processTree(Number(child)));
    }
    return pids;
  } catch {
    return [];
  }
}

/** A field (kB) of /proc/<pid>/status; 0 when the process is gone. */
function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The resident set size (kB) of the largest process of the server's tree: the limit is per worker. */
export function rssKb(pid: number): number {
  return Math.max(0, ...processTree(pid).map((p) => statusKb(p, "VmRSS")));
}

/** The kernel's own high-water mark (VmHWM) of the largest process of the server's tree, in MB. */
export function peakRssMb(pid: number): number {
  return Math.max(0, ...processTree(pid).map((p) => statusKb(p, "VmHWM"))) / 1024;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function cannon(load: Load, seconds: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        method: load.method ?? "GET",
        headers: load.headers,
        body: load.body,
        connections: load.connections,
        duration: seconds,
        requests: load.nextPath
          ? [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: load.nextPath!() }) }]
          : undefined,
      },
      (err: unknown, result) =>
        err ? reject(err instanceof Error ? err : new Error("autocannon failed", { cause: err })) : resolve(result),
    );
    if (latencies) {
      instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status < 400) latencies.push(ms);
      });
    }
  });
}

/** What wrk reports of one run: its own latency percentiles (it keeps no per-response list for us). */
interface WrkResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/** wrk's durations: "812.00us", "5.12ms", "1.02s", in ms. */
function wrkMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk: unreadable duration "${text}"`);
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us" | "ms" | "s" | "m"];
}

/** One wrk per URL of the load, at the same time; their requests and errors summed, the worst of their latencies. */
async function runWrk(load: Load, seconds: number): Promise<WrkResult> {
  const urls = [load.url, ...(load.alsoUrls ?? [])];
  if (urls.length === 1) return runOneWrk(load, seconds);
  const connections = Math.max(1, Math.round(load.connections / urls.length));
  const results = await Promise.all(urls.map((url) => runOneWrk({ ...load, url, connections }, seconds)));
  return {
    requests: results.reduce((n, r) => n + r.requests, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    max: Math.max(...results.map((r) => r.max)),
  };
}

function runOneWrk(load: Load, seconds: number): Promise<WrkResult> {
  if ((load.method ?? "GET") !== "GET" || load.nextPath) throw new Error("wrk loads here are plain GETs");
  const args = ["-t1", `-c${load.connections}`, `-d${Math.max(1, Math.round(seconds))}s`, "--latency"];
  for (const [k, v] of Object.entries(load.headers ?? {})) args.push("-H", `${k}: ${v}`);
  return new Promise((resolve, reject) => {
    execFile("wrk", [...args, load.url], (err, out) => {
      if (err) return reject(new Error(`wrk failed (apt-get install wrk): ${err.message}`));
      const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
      const dur = (re: RegExp) => {
        const m = re.exec(out);
        if (!m) throw new Error(`wrk: no ${re} in its output:\n${out}`);
        return wrkMs(m[1]!);
      };
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      resolve({
        requests: num(/(\d+) requests in/),
        errors:
          num(/Non-2xx or 3xx responses: (\d+)/) + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
        p50: dur(/^\s+50%\s+(\S+)/m),
        p99: dur(/^\s+99%\s+(\S+)/m),
        max: dur(/^\s+Latency\s+\S+\s+\S+\s+(\S+)/m),
      });
    });
  });
}

/** What the slices of one load measured so far. */
interface Tally {
  /** Every response time (autocannon), or each wrk slice's own figures. */
  latencies: number[];
  wrk: WrkResult[];
  requests: number;
  errors: number;
  seconds: number;
  peakKb: number;
  /** CPU seconds used while loaded, per label of Load.cpuOf and "host". */
  cpu: Record<string, number>;
}

const tally = (serverPid: number): Tally => ({
  latencies: [],
  wrk: [],
  requests: 0,
  errors: 0,
  seconds: 0,
  peakKb: rssKb(serverPid),
  cpu: {},
});

/** CPU seconds so far of each process of the load's cpuOf, and of the host. */
function cpuReading(load: Load): Record<string, number> {
  const reading: Record<string, number> = { host: hostBusySeconds() };
  for (const [label, pid] of Object.entries(load.cpuOf ?? {})) {
    const p = pid();
    if (p !== undefined) reading[label] = treeCpuSeconds(p);
  }
  return reading;
}

/** A warm-up: the load for `seconds`, nothing kept. */
const warm = (load: Load, seconds: number) =>
  load.generator === "wrk" ? runWrk(load, seconds) : cannon(load, seconds);

/**
 * A pause before each measured run: the previous run's last requests (up to one per connection, dropped by
 * autocannon when it stopped) are still being answered, and the new run's first requests would wait behind them.
 */
const SETTLE_MS = 50;

/**
 * Runs `load` for `seconds` into `into`, sampling the server's memory every 100 ms. The time counted is the time
 * it took: autocannon runs whole seconds (0.7 runs for 1).
 */
async function slice(load: Load, seconds: number, serverPid: number, into: Tally): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const timer = setInterval(() => (into.peakKb = Math.max(into.peakKb, rssKb(serverPid))), 100);
  const cpuBefore = load.cpuOf ? cpuReading(load) : undefined;
  try {
    const start = performance.now();
    if (load.generator === "wrk") {
      const result = await runWrk(load, seconds);
      into.seconds += (performance.now() - start) / 1000;
      into.requests += result.requests;
      into.errors += result.errors;
      into.wrk.push(result);
      return;
    }
    const result = await cannon(load, seconds, into.latencies);
    into.seconds += (performance.now() - start) / 1000;
    into.requests += result.requests.total;
    into.errors += result.errors + result.timeouts + result.non2xx;
  } finally {
    clearInterval(timer);
    if (cpuBefore) {
      for (const [label, after] of Object.entries(cpuReading(load)))
        into.cpu[label] = (into.cpu[label] ?? 0) + after - (cpuBefore[label] ?? after);
    }
  }
}

function sampleOf(t: Tally, serverPid: number): Sample {
  const latencies = [...t.latencies].sort((a, b) => a - b);
  const cores = Object.keys(t.cpu).length
    ? Object.fromEntries(Object.entries(t.cpu).map(([k, v]) => [k, Number((v / t.seconds).toFixed(2))]))
    : undefined;
  if (t.wrk.length > 0) {
    // wrk's percentiles cannot be merged: the median of the slices' p50, the worst of their p99 and maxima.
    return {
      rps: t.requests / t.seconds,
      p50: median(t.wrk.map((w) => w.p50)),
      p99: Math.max(...t.wrk.map((w) => w.p99)),
      max: Math.max(...t.wrk.map((w) => w.max)),
      errors: t.errors,
      requests: t.requests,
      peakRssMb: Math.max(t.peakKb, rssKb(serverPid)) / 1024,
      cores,
    };
  }
  return {
    rps: t.requests / t.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    errors: t.errors,
    requests: t.requests,
    peakRssMb: Math.max(t.peakKb, rssKb(serverPid)) / 1024,
    cores,
  };
}

/** Warms up, then measures for `seconds` while sampling the server's memory every 100 ms. */
export async function measure(load: Load, warmupSeconds: number, seconds: number, serverPid: number): Promise<Sample> {
  if (warmupSeconds > 0) await warm(load, warmupSeconds);
  const t = tally(serverPid);
  await slice(load, seconds, serverPid, t);
  return sampleOf(t, serverPid);
}

/** Which load each slice of a paired measurement runs: A B B A. */
const PAIR_ORDER = [0, 1, 1, 0];

/**
 * Two loads on one server measured against each other (their ratio is a target): both warmed up, then
 * `seconds` of each in two halves taken in turns, A B B A, so that a drift of the host's speed (this virtual
 * machine's moves by a third within minutes) falls on both alike. Measured one after the other instead, one
 * repetition gave GET one account 1.16 times the empty handler's throughput and another 0.56.
 */
export async function measurePair(
  a: Load,
  b: Load,
  warmupSeconds: number,
  seconds: number,
  serverPid: number,
  serverPidB = serverPid,
): Promise<[Sample, Sample]> {
  if (warmupSeconds > 0) {
    await warm(a, warmupSeconds);
    await warm(b, warmupSeconds);
  }
  const sides = [
    { load: a, pid: serverPid, t: tally(serverPid) },
    { load: b, pid: serverPidB, t: tally(serverPidB) },
  ];
  for (const i of PAIR_ORDER) await slice(sides[i]!.load, seconds / 2, sides[i]!.pid, sides[i]!.t);
  return [sampleOf(sides[0]!.t, serverPid), sampleOf(sides[1]!.t, serverPidB)];
}

/** Runs `load` in slices of one second from now until `until` settles (an import by another process, say). */
export async function measureUntil(load: Load, until: Promise<unknown>, serverPid: number): Promise<Sample> {
  let settled = false;
  const done = until.finally(() => (settled = true));
  const t = tally(serverPid);
  while (!settled) await slice(load, 1, serverPid, t);
  await done;
  return sampleOf(t, serverPid);
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
