// `node --conditions=react-server --import tsx bench/compare-sqlite.ts <old-checkout>`: the SQLite figures of the
// services of two checkouts side by side, in one process and one run, to show that a change loses SQLite nothing. Each
// checkout gets its own copy of one seeded database; the two are measured alternately, round after round, so load
// on the host falls on both alike. Measured in-process (no HTTP): PUT of 1,000 names (updateAccounts) and the
// list page (listAccounts) with a search, p50/p99. The old checkout's services are synchronous, the new async;
// both are awaited. MIGRATIONS_PATH must name the (identical) SQLite migrations folder for both.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { accountNames, seed } from "./seed";
import { BIG_DOMAIN, QUICK_SIZES } from "./seed-plan";

const oldRoot = path.resolve(process.argv[2] ?? "");
const newRoot = path.resolve(import.meta.dirname, "..");
if (!fs.existsSync(path.join(oldRoot, "lib"))) throw new Error("usage: bench/compare-sqlite.ts <old checkout>");
const rounds = Number(process.env.ROUNDS ?? 5);
const listRuns = Number(process.env.LIST_RUNS ?? 200);

interface Side {
  name: string;
  put: (names: string[], description: string) => Promise<unknown>;
  list: (search: string, page: number) => Promise<unknown>;
}

async function side(name: string, root: string, file: string): Promise<Side> {
  const imp = (p: string) => import(path.join(root, p)) as Promise<Record<string, unknown>>;
  const client = await imp("db/client.ts");
  // The new tree moved the services into role folders; the old kept them flat.
  const flat = fs.existsSync(path.join(root, "lib/server/accounts.ts"));
  const accounts = await imp(flat ? "lib/server/accounts.ts" : "lib/server/resources/accounts.ts");
  const domains = await imp(flat ? "lib/server/domains.ts" : "lib/server/resources/domains.ts");
  const db = (client.openDatabase as (f: string) => unknown)(file);
  const domain = await (domains.getDomainOrThrow as (db: unknown, n: string) => unknown)(db, BIG_DOMAIN);
  const principal = { account: { domainId: -1, name: "" }, domain: BIG_DOMAIN, isPostmaster: true };
  const update = accounts.updateAccounts as (...a: unknown[]) => unknown;
  const listAccounts = accounts.listAccounts as (...a: unknown[]) => unknown;
  const parse = accounts.parseAccountListQuery as ((q: URLSearchParams, d: unknown) => unknown) | undefined;
  return {
    name,
    put: async (names, description) => {
      await update(db, principal, domain, names, { description });
    },
    list: async (search, page) => {
      const q = new URLSearchParams({ search, page: String(page), size: "50", sort: "name" });
      return await (parse ? listAccounts(db, domain, parse(q, domain)) : listAccounts(db, domain, q));
    },
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-compare-"));
const seeded = path.join(dir, "seed.db");
seed(seeded, QUICK_SIZES);
const names = accountNames(seeded, BIG_DOMAIN, 1000);
for (const n of ["old", "new"]) fs.copyFileSync(seeded, path.join(dir, `${n}.db`));
const sides = [
  await side("old", oldRoot, path.join(dir, "old.db")),
  await side("new", newRoot, path.join(dir, "new.db")),
];

/** The p-th percentile (nearest rank below). */
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
// Garbage collection while each side's list requests ran: a pause of the collector lands in some request's time.
let gcMs = 0;
let gcCount = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    gcCount++;
  }
}).observe({ entryTypes: ["gc"] });
const gcOf: Record<string, { ms: number; count: number }> = { old: { ms: 0, count: 0 }, new: { ms: 0, count: 0 } };
/** Each round's list p50 and p99 per side: the figures are compared round by round (the rounds alternate A B, B A). */
const perRound: Record<string, { p50: number; p99: number }[]> = { old: [], new: [] };

/** The first list requests after each PUT: the ones that read pages the PUT's commit took out of the cache. */
const AFTER_PUT = Number(process.env.AFTER_PUT ?? 10);
const results: Record<
  string,
  { put: number[]; list: number[]; firstAfterPut: number[]; rest: number[]; byQuery: Map<string, number[]> }
> = {
  old: { put: [], list: [], firstAfterPut: [], rest: [], byQuery: new Map() },
  new: { put: [], list: [], firstAfterPut: [], rest: [], byQuery: new Map() },
};
for (let r = 0; r < rounds; r++) {
  for (const s of r % 2 ? [...sides].reverse() : sides) {
    let t = performance.now();
    await s.put(names, `round ${r}`);
    results[s.name]!.put.push(performance.now() - t);
    const gcBefore = { ms: gcMs, count: gcCount };
    const round: number[] = [];
    for (let i = 0; i < listRuns; i++) {
      t = performance.now();
      await s.list(i % 2 ? "kowal" : "an", i % 5);
      const ms = performance.now() - t;
      results[s.name]!.list.push(ms);
      round.push(ms);
      results[s.name]![i < AFTER_PUT ? "firstAfterPut" : "rest"].push(ms);
      const key = `${i % 2 ? "kowal" : "an"} page ${i % 5}`;
      const byQuery = results[s.name]!.byQuery;
      byQuery.set(key, [...(byQuery.get(key) ?? []), ms]);
    }
    // The observer reports after the fact: give it a turn before reading.
    await new Promise((r) => setImmediate(r));
    perRound[s.name]!.push({ p50: pct(round, 50), p99: pct(round, 99) });
    gcOf[s.name]!.ms += gcMs - gcBefore.ms;
    gcOf[s.name]!.count += gcCount - gcBefore.count;
  }
}
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name}: PUT 1000 names median ${pct(r.put, 50).toFixed(1)} ms (${r.put.map((x) => x.toFixed(0)).join(", ")}); ` +
      `list (search, page of 50) p50 ${pct(r.list, 50).toFixed(2)} ms p99 ${pct(r.list, 99).toFixed(2)} ms over ${r.list.length}; ` +
      `the first ${AFTER_PUT} after each PUT: p50 ${pct(r.firstAfterPut, 50).toFixed(2)} max ${pct(r.firstAfterPut, 100).toFixed(2)} ms; ` +
      `the others: p50 ${pct(r.rest, 50).toFixed(2)} p99 ${pct(r.rest, 99).toFixed(2)} ms; ` +
      `over 3 ms: ${r.list.filter((x) => x > 3).length}; mean ${(r.list.reduce((a, b) => a + b, 0) / r.list.length).toFixed(3)} ms; ` +
      `GC during the lists ${gcOf[name]!.count}x, ${gcOf[name]!.ms.toFixed(1)} ms`,
  );
}
const med = (xs: number[]) => pct(xs, 50);
const ratios = (f: "p50" | "p99") => perRound.new!.map((n, i) => n[f] / perRound.old![i]![f]);
console.log(
  `new / old, round by round (${rounds} rounds): list p50 median ${med(ratios("p50")).toFixed(2)}x (${ratios("p50")
    .map((x) => x.toFixed(2))
    .join(", ")}); ` +
    `list p99 median ${med(ratios("p99")).toFixed(2)}x (${ratios("p99")
      .map((x) => x.toFixed(2))
      .join(", ")}); ` +
    `PUT median ${med(results.new!.put.map((x, i) => x / results.old!.put[i]!)).toFixed(2)}x`,
);
// Per query (search and page): the median of each side, and new / old.
for (const key of results.old!.byQuery.keys()) {
  const [o, n] = [pct(results.old!.byQuery.get(key)!, 50), pct(results.new!.byQuery.get(key)!, 50)];
  console.log(`  ${key.padEnd(14)} median old ${o.toFixed(3)} ms, new ${n.toFixed(3)} ms (${(n / o).toFixed(2)}x)`);
}
fs.rmSync(dir, { recursive: true, force: true });
