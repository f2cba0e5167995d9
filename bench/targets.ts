// One engine's figures from its samples: the table's rows (medians over the repetitions), the paired ratios, and
// each target with its limit, met or not; then the engine's report for bench/report.ts.
import os from "node:os";
import type { BadSignInsResult } from "./bad-sign-ins";
import type { ListPutReport } from "./list-put";
import { cpuProbeMs } from "./host";
import { median, type Sample } from "./load";
import type { PanelResult } from "./panel";
import type { PutManyResult } from "./put-many";
import type { Repetitions } from "./repetitions";
import { worstP99, type Report, type Row, type Target } from "./report";
import { CONNECTIONS, quick, settings, startTokens, WORKER_CONNECTIONS } from "./run-config";
import {
  BASELINE_ACCOUNT,
  EMPTY_HANDLER,
  FIRST_PAGE,
  ONE_ACCOUNT,
  ONE_PROCESS,
  samePair,
  sideName,
  TWO_PROCESSES,
  type Scenario,
} from "./scenarios";
import type { SeedResult } from "./seed-plan";
import { QUOTA_WRITES_PER_SECOND, type ImportReport, type QuotaReport } from "./writer-messages";

/** Everything one engine measured. */
export interface Measured {
  label: string;
  /** Whether the engine is PostgreSQL (then two API processes were compared too). */
  postgres: boolean;
  seeded: SeedResult;
  scenarios: Scenario[];
  reps: Repetitions;
  quotaWrites: QuotaReport;
  /** The list scenario measured while another process imported accounts. */
  duringImport: { name: string; group: string; sample: Sample; report: ImportReport };
  put: PutManyResult & { names: number };
  listPut: ListPutReport;
  panel: PanelResult | null;
  badSignIns?: BadSignInsResult;
  /** Peak resident memory of the main server and of the two-worker one, per process (MB). */
  peakRssMb: { app: number; app2: number };
}

/** Per label, the median over the repetitions of the cores each sample measured. */
function mediansOf(xs: (Record<string, number> | undefined)[]): Record<string, number> | undefined {
  const present = xs.filter((x): x is Record<string, number> => !!x);
  if (present.length === 0) return undefined;
  const labels = [...new Set(present.flatMap((x) => Object.keys(x)))];
  return Object.fromEntries(labels.map((l) => [l, Number(median(present.map((x) => x[l] ?? 0)).toFixed(2))]));
}

const slowest = (times: number[]) => Math.max(...times);

function rowsOf(m: Measured): Row[] {
  const rows: Row[] = m.scenarios.map((s) => {
    const xs = m.reps.samples.get(s.name)!;
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
  const i = m.duringImport;
  rows.push({
    name: i.name,
    group: i.group,
    rps: i.sample.rps,
    p50: i.sample.p50,
    p99: i.sample.max,
    errors: i.sample.errors,
    peakRssMb: i.sample.peakRssMb,
  });
  rows.push({
    name: `PUT ${m.put.names} names in one request (sequential, ${m.put.times.length}x; p99 column = slowest)`,
    group: "write",
    rps: 1000 / median(m.put.times),
    p50: median(m.put.times),
    p99: slowest(m.put.times),
    errors: 0,
    peakRssMb: m.peakRssMb.app,
  });
  return rows;
}

/** The median over the repetitions of a/b, each repetition's two figures measured one right after the other. */
function pairedRatio(a: Sample[], b: Sample[], figure: (x: Sample) => number): number {
  return median(a.map((x, i) => figure(x) / figure(b[i]!)));
}

/** Ratios are paired: per repetition, between two scenarios measured together (measurePair), then the median. */
function ratiosOf(m: Measured): Report["ratios"] {
  const of = (name: string) => m.reps.samples.get(name)!;
  const throughput = (a: string, b: string) => pairedRatio(of(a), of(b), (x) => x.rps);
  const workers = (label: string) => throughput(sideName(label, "2 workers"), sideName(label, "1 worker"));
  return {
    accountToEmptyHandler: throughput(ONE_ACCOUNT, EMPTY_HANDLER),
    accountToBaseline: throughput(ONE_ACCOUNT, BASELINE_ACCOUNT),
    workersOnAccount: workers(ONE_ACCOUNT),
    workersOnList: workers(FIRST_PAGE),
    processesOnAccount: m.postgres
      ? throughput(sideName(ONE_ACCOUNT, TWO_PROCESSES), sideName(ONE_ACCOUNT, ONE_PROCESS))
      : undefined,
  };
}

/** Each 100k list query against its 10k counterpart: throughput of 10k over 100k, latencies of 100k over 10k. */
function pairsOf(m: Measured): Report["pairs"] {
  const of = (name: string) => m.reps.samples.get(name)!;
  return m.scenarios
    .filter((s) => s.group === "list100k")
    .flatMap((big) => {
      const mid = m.scenarios.find((s) => s.group === "list10k" && samePair(s, big));
      if (!mid) return [];
      const [b, d] = [of(big.name), of(mid.name)];
      return [
        {
          pair: big.pair!,
          rps: pairedRatio(d, b, (x) => x.rps),
          p50: pairedRatio(b, d, (x) => x.p50),
          p99: pairedRatio(b, d, (x) => x.p99),
        },
      ];
    });
}

type TargetOf = (name: string, value: number, limit: number, unit: string, met: boolean) => Target;

/** The targets every engine has: the API's throughput and tails, the writes, and memory. */
function apiTargets(m: Measured, rows: Row[], ratios: Report["ratios"], pairs: Report["pairs"], target: TargetOf) {
  // Tails against the empty handler's p99 at the same connections in the same run: a loaded host stretches both.
  const tail = (group: string) => worstP99(rows, group).ofEmpty;
  const worstPair = pairs.reduce((w, p) => (Math.max(p.rps, p.p50) > Math.max(w.rps, w.p50) ? p : w));
  const importMax = m.duringImport.sample.max;
  const putMedian = median(m.put.times);
  const peak = Math.max(
    m.peakRssMb.app,
    m.peakRssMb.app2,
    ...rows.filter((r) => r.group !== "baseline").map((r) => r.peakRssMb),
  );
  const workers = ratios.workersOnAccount!;
  return [
    target(
      "GET one account / empty route handler throughput (1 worker)",
      ratios.accountToEmptyHandler,
      0.7,
      "ratio (min)",
      ratios.accountToEmptyHandler >= 0.7,
    ),
    target(
      `List on 100k accounts (search, any sort, ${CONNECTIONS} connections): worst p99 / the empty handler's`,
      tail("list100k"),
      2.5,
      "x (max)",
      tail("list100k") <= 2.5,
    ),
    target(
      `List on 100k accounts under writes (${QUOTA_WRITES_PER_SECOND} mail_quota upserts/s; search, any sort, ${CONNECTIONS} connections): worst p99 / the empty handler's`,
      tail("underWrites"),
      2.5,
      "x (max)",
      tail("underWrites") <= 2.5,
    ),
    target(
      `List during an import of ${m.duringImport.report.accounts} accounts by another process: slowest request`,
      importMax,
      250,
      "ms (max)",
      importMax <= 250,
    ),
    target(
      `GET one account, ${WORKER_CONNECTIONS} connections: 2 workers / 1 worker throughput (workers)`,
      workers,
      1.4,
      "ratio (min)",
      workers >= 1.4,
    ),
    target(
      `List 100k vs 10k: worst of req/s ratio and p50 ratio (${worstPair.pair})`,
      Math.max(worstPair.rps, worstPair.p50),
      1.5,
      "x (max)",
      pairs.every((p) => p.rps <= 1.5 && p.p50 <= 1.5),
    ),
    target(
      `PUT 1,000 names: median of ${m.put.times.length} (slowest ${slowest(m.put.times).toFixed(0)} ms)`,
      putMedian,
      500,
      "ms (max)",
      putMedian < 500,
    ),
    target("PUT 1,000 names: atomic (a missing name changes nothing)", m.put.atomic ? 1 : 0, 1, "bool", m.put.atomic),
    target(
      `Another domain's account PUT while a ${m.listPut.members}-member list is PUT (3 at a time): slowest`,
      m.listPut.other.max,
      250,
      "ms (max)",
      m.listPut.other.max <= 250,
    ),
    target("Server peak RSS under load, per process (each worker)", peak, 300, "MB (max)", peak < 300),
  ];
}

/** The targets of what only some runs measure: two processes, bad sign-ins, seeding (full runs), the panel. */
function otherTargets(m: Measured, ratios: Report["ratios"], target: TargetOf): Target[] {
  const targets: Target[] = [];
  const processes = ratios.processesOnAccount;
  if (processes !== undefined)
    targets.push(
      target(
        `GET one account, ${WORKER_CONNECTIONS} connections: two API processes on two ports / one (same database)`,
        processes,
        1.3,
        "ratio (min)",
        processes >= 1.3,
      ),
    );
  const bad = m.badSignIns;
  if (bad)
    targets.push(
      target(
        `Real user's median GET while 4 clients send bad sign-ins (${bad.badSignInsPerSecond.toFixed(0)}/s) / quiet`,
        bad.ratio,
        2,
        "x (max)",
        bad.ratio <= 2,
      ),
    );
  if (!quick)
    targets.push(
      target("Seeding 100,000 accounts (and the rest)", m.seeded.seconds, 60, "s (max)", m.seeded.seconds < 60),
    );
  if (m.panel) targets.push(...panelTargets(m.panel, target));
  return targets;
}

function panelTargets(panel: PanelResult, target: TargetOf): Target[] {
  const worstJs = panel.js.reduce((w, p) => (p.gzipKb > w.gzipKb ? p : w));
  return [
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
  ];
}

/** The engine's report: the host, the settings, the figures and the targets. */
export function engineReport(m: Measured): Report {
  const rows = rowsOf(m);
  const ratios = ratiosOf(m);
  const pairs = pairsOf(m);
  const target: TargetOf = (name, value, limit, unit, met) => ({
    name: `${m.label}: ${name}`,
    value: Number(value.toFixed(3)),
    limit,
    unit,
    met,
  });
  const targets = [...apiTargets(m, rows, ratios, pairs, target), ...otherTargets(m, ratios, target)];
  const { quotaWrites: q, duringImport: i } = m;
  return {
    engine: m.label,
    quick,
    date: new Date().toISOString(),
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "",
    node: process.version,
    nice: os.getPriority(),
    serverCommand: startTokens.join(" "),
    load: { start: m.reps.loadAtStart, end: os.loadavg() },
    cpuProbeMs: { start: m.reps.probeAtStart, end: cpuProbeMs() },
    stealPercent: m.reps.steal,
    runs: settings.runs,
    seconds: settings.seconds,
    warmup: settings.warmup,
    connections: CONNECTIONS,
    seed: {
      ...settings.sizes,
      seconds: Number(m.seeded.seconds.toFixed(1)),
      accounts: m.seeded.accounts,
      listMembers: m.seeded.listMembers,
    },
    ratios,
    badSignIns: m.badSignIns,
    conditions: {
      quotaWrites: { ...q, perSecond: q.seconds ? q.writes / q.seconds : 0 },
      import: { ...i.report, requests: i.sample.requests, slowestMs: i.sample.max, errors: i.sample.errors },
    },
    pairs,
    panel: m.panel,
    rows,
    targets,
  };
}
