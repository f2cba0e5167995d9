// Load generation and measurement: autocannon for the traffic, our own latency list (autocannon's histogram
// rounds to whole milliseconds, too coarse for sub-millisecond requests) and the server's resident memory sampled
// from /proc while the load runs.
import autocannon from "autocannon";
import fs from "node:fs";

export interface Load {
  url: string;
  method?: "GET" | "PUT";
  headers?: Record<string, string>;
  body?: string;
  /** A fresh path for every request (e.g. a different search term each time). */
  nextPath?: () => string;
  connections: number;
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  peakRssMb: number;
}

/** Resident set size (kB) of a process and its descendants, from /proc. 0 when it is gone. */
export function rssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    let kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      for (const child of children ? children.split(/\s+/) : []) kb += rssKb(Number(child));
    }
    return kb;
  } catch {
    return 0;
  }
}

/** The kernel's own high-water mark of the process (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
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
      (err: unknown, result) => (err ? reject(err instanceof Error ? err : new Error("autocannon failed", { cause: err })) : resolve(result)),
    );
    if (latencies) {
      instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status < 400) latencies.push(ms);
      });
    }
  });
}

/** Warms up, then measures for `seconds` while sampling the server's memory every 100 ms. */
export async function measure(load: Load, warmupSeconds: number, seconds: number, serverPid: number): Promise<Sample> {
  if (warmupSeconds > 0) await cannon(load, warmupSeconds);
  let peakKb = rssKb(serverPid);
  const timer = setInterval(() => (peakKb = Math.max(peakKb, rssKb(serverPid))), 100);
  const latencies: number[] = [];
  try {
    const result = await cannon(load, seconds, latencies);
    latencies.sort((a, b) => a - b);
    return {
      rps: result.requests.total / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: result.errors + result.timeouts + result.non2xx,
      requests: result.requests.total,
      peakRssMb: Math.max(peakKb, rssKb(serverPid)) / 1024,
    };
  } finally {
    clearInterval(timer);
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
