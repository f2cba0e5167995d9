// The bench's output: the table on stdout, bench/results.json (with `targets`) and bench/RESULTS.md.
import type { BadSignInsResult } from "./bad-sign-ins";
import type { PanelResult } from "./panel";
import fs from "node:fs";
import path from "node:path";

export interface Row {
  name: string;
  group: string;
  pair?: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
  /** Cores used while loaded, per process (measured pairs only; bench/load.ts). */
  cores?: Record<string, number>;
}

export interface Target {
  name: string;
  value: number;
  limit: number;
  unit: string;
  met: boolean;
}

export interface Report {
  /** The engine measured (SQLite and PostgreSQL are measured in one run). */
  engine?: string;
  quick: boolean;
  /** The real user's latency while 4 clients send bad sign-ins (bench/bad-sign-ins.ts). */
  badSignIns?: BadSignInsResult;
  date: string;
  cores: number;
  cpu: string;
  node: string;
  /** Scheduling priority the bench (and the servers it started) ran at. */
  nice: number;
  serverCommand: string;
  /** os.loadavg() (1, 5, 15 min) when the measuring started and ended: other work on the machine skews figures. */
  load: { start: number[]; end: number[] };
  /**
   * Milliseconds a fixed CPU-bound loop took at the start and the end (cpuProbeMs in host.ts): the same code on this
   * virtual machine has taken 340 to 630 ms (bench/README.md), so absolute figures move with the host.
   */
  cpuProbeMs?: { start: number; end: number };
  /** Share of the machine's CPU time taken by the hypervisor for other guests while measuring (/proc/stat). */
  stealPercent?: { overall: number | null; perRun: (number | null)[] };
  runs: number;
  seconds: number;
  warmup: number;
  connections: number;
  seed: Record<string, number>;
  /** workersOn*: throughput with two workers over that with one (absent in older reports). */
  ratios: {
    accountToEmptyHandler: number;
    accountToBaseline: number;
    workersOnAccount?: number;
    workersOnList?: number;
    processesOnAccount?: number;
  };
  /** What the other processes wrote while the "under writes" and import scenarios ran. */
  conditions?: {
    quotaWrites: { writes: number; seconds: number; perSecond: number };
    import: { accounts: number; seconds: number; requests: number; slowestMs: number; errors: number };
  };
  pairs: { pair: string; rps: number; p50: number; p99: number }[];
  panel: PanelResult | null;
  rows: Row[];
  targets: Target[];
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

export function table(report: Report): string {
  const lines = [
    "| Scenario | req/s | p50 ms | p99 ms | errors | peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|",
    ...report.rows.map(
      (r) =>
        `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} | ${r.peakRssMb.toFixed(0)} |`,
    ),
  ];
  return lines.join("\n");
}

export function targetsTable(targets: Target[]): string {
  return [
    "| Target | value | limit | met |",
    "|---|---:|---:|:---:|",
    ...targets.map((t) => `| ${t.name} | ${t.value} | ${t.limit} ${t.unit} | ${t.met ? "yes" : "**no**"} |`),
  ].join("\n");
}

/**
 * A group of rows' worst p99 (ms) and its multiple of the empty route handler's p99 in the same run, the lists' tail
 * targets' figure: hosts differ (the bare node:http baseline has served 4,274 and 12,136 req/s in two runs of one day).
 */
export function worstP99(rows: Row[], group: string): { ms: number; ofEmpty: number } {
  const empty = rows.find((r) => r.group === "server" && r.name.startsWith("empty route handler"));
  const worst = Math.max(0, ...rows.filter((r) => r.group === group).map((r) => r.p99));
  return { ms: worst, ofEmpty: empty && empty.p99 > 0 ? worst / empty.p99 : NaN };
}

function listTails(report: Report): string {
  const empty = report.rows.find((r) => r.group === "server" && r.name.startsWith("empty route handler"));
  if (!empty || empty.p99 <= 0) return "";
  const part = (label: string, group: string) => {
    const w = worstP99(report.rows, group);
    return `${label} ${ms(w.ms)} ms (${w.ofEmpty.toFixed(2)}x)`;
  };
  return (
    `Lists on the 100k domain, worst p99 and its multiple of the empty route handler's p99 (${ms(empty.p99)} ms): ` +
    `${part("quiet", "list100k")}, ${part("under writes", "underWrites")}.`
  );
}

export function badSignInsText(b: BadSignInsResult): string {
  return (
    `bench/bad-sign-ins.ts: one real user reading its account record (Basic, one kept-alive connection) in ` +
    `${b.rounds.length} quiet and ${b.rounds.length} attacked windows of 2 s, alternating; during the attacked ones 4 clients sent ` +
    `panel sign-ins for made-up addresses from rotating X-Forwarded-For addresses, back to back: ${b.badSignIns} in all ` +
    `(${b.badSignInsPerSecond.toFixed(1)}/s, each one scrypt at the real cost). Real user's median ${ms(b.quietMedianMs)} ms quiet, ` +
    `${ms(b.attackMedianMs)} ms attacked (slowest ${ms(b.quietMaxMs)} / ${ms(b.attackMaxMs)} ms); ratio ${b.ratio.toFixed(2)}x ` +
    `(median of the rounds: ${b.rounds.join(", ")}).`
  );
}

/** The CPU each process used in the measured pairs that record it (workers, processes). */
function coresTable(report: Report): string[] {
  const rows = report.rows.filter((r) => r.cores);
  if (rows.length === 0) return [];
  const labels = [...new Set(rows.flatMap((r) => Object.keys(r.cores!)))];
  return [
    "Cores used while loaded (CPU seconds per second, median of the repetitions; `host` is every busy core of the machine: the load generator wrk and any other work included):",
    "",
    `| Scenario | req/s | ${labels.join(" | ")} |`,
    `|---|---:|${labels.map(() => "---:").join("|")}|`,
    ...rows.map(
      (r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${labels.map((l) => r.cores![l]?.toFixed(2) ?? "").join(" | ")} |`,
    ),
    "",
  ];
}

/** Every engine's report: bench/results.json ({ engines, targets }) and bench/RESULTS.md (a section per engine). */
export function writeReports(dir: string, reports: Report[]): void {
  fs.mkdirSync(dir, { recursive: true });
  const targets = reports.flatMap((r) => r.targets);
  // The provider-scale figures come from another command (bench/provider.ts): kept as they are.
  const kept = keptProviderReport(dir);
  fs.writeFileSync(
    path.join(dir, "results.json"),
    `${JSON.stringify({ engines: reports, targets, ...kept.json }, null, 2)}\n`,
  );
  const md = [
    `# Benchmark results${reports[0]?.quick ? " (quick mode: small data, short runs)" : ""}`,
    "",
    `Engines measured in this run, one after the other on the same data: ${reports.map((r) => r.engine ?? "SQLite").join(", ")}.`,
    "",
    ...reports.map((r) => section(r, reports.length > 1)),
    "## Targets",
    "",
    targetsTable(targets),
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "RESULTS.md"), md + kept.md);
  process.stdout.write(`\n${md}\n`);
}

export const PROVIDER_HEADING = "## Provider scale on PostgreSQL (`npm run bench:provider`)";

/** What `writeProviderReport` last wrote into `dir`'s results: results.json's `provider`, RESULTS.md's section. */
function keptProviderReport(dir: string): { json: { provider?: unknown }; md: string } {
  const read = (file: string) =>
    fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), "utf8") : "";
  const json = read("results.json");
  const md = read("RESULTS.md");
  const provider = json ? (JSON.parse(json) as { provider?: unknown }).provider : undefined;
  const at = md.indexOf(PROVIDER_HEADING);
  return { json: provider === undefined ? {} : { provider }, md: at >= 0 ? `\n${md.slice(at)}` : "" };
}

/** One engine's part of RESULTS.md (its headings one level down when there are several engines). */
function section(report: Report, several: boolean): string {
  const h = (title: string) => `${several ? "###" : "##"} ${title}`;
  const pairs = [
    "| List query | 10k req/s ÷ 100k req/s | 100k p50 ÷ 10k p50 | 100k p99 ÷ 10k p99 |",
    "|---|---:|---:|---:|",
    ...report.pairs.map((p) => `| ${p.pair} | ${p.rps.toFixed(2)} | ${p.p50.toFixed(2)} | ${p.p99.toFixed(2)} |`),
  ].join("\n");
  return [
    ...(several ? [`## ${report.engine ?? "SQLite"}`, ""] : []),
    `${report.date.slice(0, 16).replace("T", " ")} UTC, ${report.cores} cores (${report.cpu}), Node ${report.node}. ` +
      `Each figure is the median of ${report.runs} run(s) of ${report.seconds} s ${report.warmup ? `after a ${report.warmup} s warm-up` : "with no warm-up"}, ` +
      `${report.connections} connections. Produced by \`npm run bench\` (bench/run.ts); server: \`${report.serverCommand}\`` +
      `${report.nice !== 0 ? `, bench and servers at nice ${report.nice}` : ""}. Load average (1/5/15 min) ` +
      `${report.load.start.map((x) => x.toFixed(1)).join("/")} at the start, ${report.load.end.map((x) => x.toFixed(1)).join("/")} ` +
      `at the end${report.cpuProbeMs ? `; CPU probe (a fixed loop) ${report.cpuProbeMs.start.toFixed(0)} ms at the start, ${report.cpuProbeMs.end.toFixed(0)} ms at the end (340-630 on the hosts seen so far)` : ""}` +
      `${report.stealPercent?.overall != null ? `; CPU time stolen by the hypervisor while measuring ${report.stealPercent.overall}% (per run: ${report.stealPercent.perRun.map((x) => x ?? "?").join(", ")})` : ""}: ` +
      `absolute figures move with the host's load. Ratios (GET one account vs the empty handler, 100k vs 10k) are paired: ` +
      `in each repetition the two scenarios are measured in alternating halves (A B B A, ` +
      `half the duration each), and the ratio is the median of the per-repetition ratios.`,
    "",
    `Data: ${Object.entries(report.seed)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
    table(report),
    "",
    `GET one account: ${(report.ratios.accountToEmptyHandler * 100).toFixed(0)}% of the empty route handler's throughput, ` +
      `${(report.ratios.accountToBaseline * 100).toFixed(0)}% of the bare node:http baseline doing the same work.`,
    "",
    listTails(report),
    "",
    ...(report.conditions
      ? [
          h("Under writes, during an import, with two workers"),
          "",
          `Under writes: another process upserted mail_quota ${report.conditions.quotaWrites.writes} times in ` +
            `${report.conditions.quotaWrites.seconds.toFixed(0)} s (${report.conditions.quotaWrites.perSecond.toFixed(1)}/s) ` +
            `while the "under writes" scenarios ran. Import: another process added ${report.conditions.import.accounts} accounts to the ` +
            `big domain in ${report.conditions.import.seconds.toFixed(1)} s; ${report.conditions.import.requests} list requests ran meanwhile, ` +
            `the slowest took ${ms(report.conditions.import.slowestMs)} ms (${report.conditions.import.errors} errors). ` +
            `Two workers vs one (paired, ${report.rows.find((r) => r.group === "workers")?.name.match(/(\d+) connections/)?.[1] ?? "?"} connections): ` +
            `GET one account ${report.ratios.workersOnAccount?.toFixed(2) ?? "?"}x, list page ${report.ratios.workersOnList?.toFixed(2) ?? "?"}x the throughput.` +
            (report.ratios.processesOnAccount !== undefined
              ? ` Two API processes on two ports (one worker each, the same database, as two hosts would run them) vs one: GET one account ${report.ratios.processesOnAccount.toFixed(2)}x.`
              : ""),
          "",
          ...coresTable(report),
        ]
      : []),
    h("100k vs 10k accounts"),
    "",
    pairs,
    "",
    ...(report.panel
      ? [
          h("Panel (Chromium, signed in as the postmaster of the 100k domain)"),
          "",
          `Account table: first data row in the DOM ${report.panel.tableVisibleMs.map((t) => t.toFixed(0)).join(", ")} ms after navigation ` +
            `(fresh browser context each time; median ${report.panel.tableVisibleMedianMs.toFixed(0)} ms). ` +
            `Lighthouse 12 (mobile preset) performance of /accounts: ${report.panel.lighthouse ?? `not measured (${report.panel.lighthouseError})`}` +
            (report.panel.lighthouseRuns?.length
              ? ` (median of ${report.panel.lighthouseRuns.length} runs, each in a fresh Chrome: ${report.panel.lighthouseRuns.map((r) => r.score).join(", ")})`
              : "") +
            (report.panel.lighthouse !== null && report.panel.lighthouseError
              ? `; failed runs: ${report.panel.lighthouseError}`
              : "") +
            ".",
          "",
          ...(report.panel.lighthouseRuns?.length
            ? [
                "| Lighthouse run | score | FCP ms | LCP ms | TBT ms | Speed Index ms | CLS | CPU stolen by the hypervisor % |",
                "|---|---:|---:|---:|---:|---:|---:|---:|",
                ...report.panel.lighthouseRuns.map(
                  (r, i) =>
                    `| ${i + 1} | ${r.score} | ${r.fcpMs} | ${r.lcpMs} | ${r.tbtMs} | ${r.speedIndexMs} | ${r.cls} | ${r.stealPercent ?? "?"} |`,
                ),
                "",
              ]
            : []),
          "| Page | JS files | JS transferred kB | JS gzipped kB |",
          "|---|---:|---:|---:|",
          ...report.panel.js.map(
            (p) => `| ${p.page} | ${p.files} | ${p.transferredKb.toFixed(0)} | ${p.gzipKb.toFixed(0)} |`,
          ),
          "",
        ]
      : [
          "Panel: not measured with this engine (quick mode, --no-panel, no Chromium, or measured with the first engine only).",
          "",
        ]),
    ...(report.badSignIns
      ? [h("A real user while 4 clients send bad sign-ins"), "", badSignInsText(report.badSignIns), ""]
      : []),
  ].join("\n");
}
