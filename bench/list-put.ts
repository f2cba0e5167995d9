// Editing a 50,000-member mailing list (a PUT of `accounts`) must not hold other domains' requests for
// more than 250 ms. `measureListPut` fills a list with `members` subscribers, then runs `concurrent` PUTs of it at
// a time (each adding and removing a few addresses, as an editor does), `rounds` times, while another domain's
// account is PUT one request after another; it reports the list PUTs' times and the other domain's latencies.
// Used by bench/engine.ts and runnable by itself against a running server:
//   node --conditions=react-server --import tsx bench/list-put.ts --standalone   (seeds its own file, starts a server)
//   ... --standalone --runs 5 --compare .next-before,.next   (two builds taking turns; medians of each)
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ListPutReport {
  members: number;
  fillMs: number;
  /** Every list PUT's time, ms. */
  listPutMs: number[];
  /** The other domain's PUT latencies while the list PUTs ran, ms. */
  other: { count: number; p50: number; p99: number; max: number };
  /**
   * The longest delay of a 10 ms timer in the bench's own process meanwhile, ms: when the host stalls every process
   * (load, I/O), this one too, so a slow request of the other domain at such a moment is the host's, not the list's.
   */
  benchStallMs: number;
}

interface Target {
  base: string;
  listDomain: string;
  listName: string;
  listAuth: Record<string, string>;
  otherDomain: string;
  otherAccount: string;
  otherAuth: Record<string, string>;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function put(url: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const started = performance.now();
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(url, {
    method: "PUT",
    headers: { ...headers, "content-type": "application/json" },
    body: text,
  });
  const answer = await res.text();
  if (res.status >= 300) throw new Error(`PUT ${url}: ${res.status} ${answer.slice(0, 300)}`);
  return performance.now() - started;
}

export async function measureListPut(t: Target, members = 50_000, concurrent = 3, rounds = 4): Promise<ListPutReport> {
  // Short addresses: the API takes bodies up to 1 MB, and 50,000 of them must fit (about 0.75 MB here).
  const address = (i: number) => `u${i}@adr.pl`;
  const base = Array.from({ length: members }, (_, i) => address(i));
  const listUrl = `${t.base}/api/v1/mailinglists/${t.listDomain}/${t.listName}`;
  const otherUrl = `${t.base}/api/v1/emails/${t.otherDomain}/${t.otherAccount}`;
  // The account route's first request loads its code (a second on a busy host): not what is measured.
  for (let i = 0; i < 5; i++) await put(otherUrl, t.otherAuth, { description: `Rozgrzewka ${i}` });
  const fillMs = await put(listUrl, t.listAuth, { accounts: base });

  // Every PUT's body is made before the measurement, so that the bench's own work does not delay the other requests.
  let next = members;
  const bodiesByRound = Array.from({ length: rounds }, (_, r) =>
    // Each PUT drops 10 addresses and adds 10 new ones: the difference an editor makes.
    Array.from({ length: concurrent }, (_, c) => {
      const drop = new Set(Array.from({ length: 10 }, (_, k) => (r * 97 + c * 31 + k * 1009) % members));
      const accounts = base.filter((_, i) => !drop.has(i));
      for (let k = 0; k < 10; k++) accounts.push(address(next++));
      return JSON.stringify({ accounts });
    }),
  );

  const other: number[] = [];
  let running = true;
  let benchStallMs = 0;
  let tick = performance.now();
  const stallTimer = setInterval(() => {
    const now = performance.now();
    benchStallMs = Math.max(benchStallMs, now - tick - 10);
    tick = now;
  }, 10);
  const prober = (async () => {
    let i = 0;
    while (running) other.push(await put(otherUrl, t.otherAuth, { description: `Sonda ${i++}` }));
  })();

  const listPutMs: number[] = [];
  for (const bodies of bodiesByRound)
    listPutMs.push(...(await Promise.all(bodies.map((b) => put(listUrl, t.listAuth, b)))));
  running = false;
  await prober;
  clearInterval(stallTimer);
  return {
    members,
    fillMs,
    listPutMs,
    other: { count: other.length, p50: pct(other, 50), p99: pct(other, 99), max: Math.max(...other) },
    benchStallMs,
  };
}

const digestAuth = (email: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${email}:${crypto.createHash("sha1").update(password).digest("hex")}`).toString("base64")}`,
});

/** One standalone measurement: a fresh database with two domains, the production server (one worker) over `distDir`. */
async function standalone(
  distDir: string | undefined,
  members: number,
  concurrent: number,
  rounds: number,
): Promise<ListPutReport> {
  const root = path.resolve(import.meta.dirname, "..");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-list-put-"));
  const db = path.join(dir, "mail.db");
  const password = "Bench-admin1";
  const cli = (...args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_PATH: db },
        stdio: ["ignore", "ignore", "inherit"],
      });
      c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`cli ${args.join(" ")}: ${code}`))));
    });
  for (const d of ["listy.example.com", "inna.example.com"])
    await cli("domain", "add", d, "--postmaster-password", password);
  const port = Number(process.env.BENCH_PORT ?? 3500);
  const startTokens = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts.start.split(/\s+/);
  const startEnv = Object.fromEntries(
    startTokens.slice(0, startTokens.indexOf("node")).map((x) => x.split("=", 2) as [string, string]),
  );
  const server = spawn(process.execPath, startTokens.slice(startTokens.indexOf("node") + 1), {
    cwd: root,
    env: {
      ...process.env,
      ...startEnv,
      ...(distDir ? { NEXT_DIST_DIR: distDir } : {}),
      DATABASE_PATH: db,
      PORT: String(port),
      HOST: "127.0.0.1",
      WORKERS: process.env.WORKERS ?? "1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).status < 500) break;
      } catch {
        // not yet
      }
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    const listAuth = digestAuth("postmaster@listy.example.com", password);
    const created = await fetch(`${base}/api/v1/mailinglists/listy.example.com/duza`, {
      method: "POST",
      headers: { ...listAuth, "content-type": "application/json" },
      body: "{}",
    });
    if (created.status !== 201) throw new Error(`create list: ${created.status} ${await created.text()}`);
    return await measureListPut(
      {
        base,
        listDomain: "listy.example.com",
        listName: "duza",
        listAuth,
        otherDomain: "inna.example.com",
        otherAccount: "postmaster",
        otherAuth: digestAuth("postmaster@inna.example.com", password),
      },
      members,
      concurrent,
      rounds,
    );
  } finally {
    server.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const median = (xs: number[]) => pct(xs, 50);
const r0 = (x: number) => x.toFixed(0);

function describe(report: ListPutReport, concurrent: number): string {
  return (
    `${report.members}-member list: fill ${r0(report.fillMs)} ms; ${report.listPutMs.length} PUTs (${concurrent} at a time) ` +
    `median ${r0(pct(report.listPutMs, 50))} ms, slowest ${r0(Math.max(...report.listPutMs))} ms; ` +
    `other domain's PUT during them: ${report.other.count} requests, p50 ${report.other.p50.toFixed(1)} ms, ` +
    `p99 ${report.other.p99.toFixed(1)} ms, max ${report.other.max.toFixed(1)} ms (target: max <= 250); ` +
    `the bench's own longest timer delay ${r0(report.benchStallMs)} ms`
  );
}

/**
 * --standalone [--members N] [--concurrent C] [--rounds R] [--runs K] [--compare <distA>,<distB>]: K measurements
 * (each on a fresh file and server); with --compare, the builds in the two dist folders take turns (A B B A ...), so
 * that both see the host of the same minutes. Prints each run and the medians; exits 1 if a run missed the target.
 */
async function main() {
  const members = Number(option("--members") ?? 50_000);
  const concurrent = Number(option("--concurrent") ?? 3);
  const rounds = Number(option("--rounds") ?? 4);
  const runs = Number(option("--runs") ?? 1);
  const dists = option("--compare")?.split(",") ?? [undefined];
  const { cpuProbeMs } = await import("./host");
  console.log(
    `CPU probe ${r0(cpuProbeMs())} ms; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  const results = new Map<string, ListPutReport[]>(dists.map((d) => [d ?? "build", []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? dists : [...dists].reverse();
    for (const dist of order) {
      const report = await standalone(dist, members, concurrent, rounds);
      results.get(dist ?? "build")!.push(report);
      console.log(`run ${run + 1} ${dist ?? ""}: ${describe(report, concurrent)}`);
    }
  }
  console.log(
    `CPU probe ${r0(cpuProbeMs())} ms; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  let met = true;
  for (const [dist, reports] of results) {
    const maxes = reports.map((x) => x.other.max);
    console.log(
      `${dist}: medians over ${reports.length} runs: other domain's PUT p50 ${median(reports.map((x) => x.other.p50)).toFixed(1)} ms, ` +
        `p99 ${median(reports.map((x) => x.other.p99)).toFixed(1)} ms, max ${median(maxes).toFixed(1)} ms (worst run ${Math.max(...maxes).toFixed(1)}); ` +
        `list PUT median ${r0(median(reports.flatMap((x) => x.listPutMs)))} ms; fill ${r0(median(reports.map((x) => x.fillMs)))} ms`,
    );
    if (dist === (dists.at(-1) ?? "build")) met = Math.max(...maxes) <= 250;
  }
  process.exitCode = met ? 0 : 1;
}

if (process.argv.includes("--standalone")) await main();
