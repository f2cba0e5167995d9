// The provider bench's part of bench/RESULTS.md and bench/results.json (`provider`), and its targets.
import fs from "node:fs";
import path from "node:path";
import type { ApiResult } from "./provider-api";
import type { Percentiles } from "./provider-mail";
import { PROVIDER_HEADING, targetsTable, type Target } from "./report";
import { short } from "./scenarios";

/** The provider bench's result (bench/provider.ts), the parts this section reads. */
interface ImportLag {
  importMs: number;
  samples: number;
  maxBytes: number;
  maxSeconds: number;
  lookupsOnReplica: Record<string, Percentiles>;
  /** What the replica logged meanwhile (absent in results written before): see REPLICA_LOGGING in provider.ts. */
  inDatabase?: ReplicaLogged;
}

/** Statements the replica ran for over 50 ms, and lock or recovery-conflict waits over 50 ms, with their log lines. */
export interface ReplicaLogged {
  slowStatements: number;
  waits: number;
  lines: string[];
}

export interface ProviderResult {
  mode: string;
  date: string;
  seconds: number;
  host: { cores: number; cpuProbeMs: number[]; loadBefore: string; loadAfter: string };
  domains: number;
  accounts: number;
  seeding: { seconds: number; withVacuumAnalyzeSeconds: number };
  /** The database's own size (tables, indexes, TOAST) per 100,000 accounts; the WAL after a checkpoint beside it. */
  sizeBytes: { database: number; wal: number; per100kAccounts: number };
  postmapAgrees: Record<string, number>;
  lookupsOnReplica: { at1: Record<string, Percentiles>; at8: Record<string, Percentiles> };
  /** While another connection inserts accounts 100 per transaction. */
  replicaLagDuringImport: ImportLag;
  /** While the API imports as many, one POST with a password each (absent in results written before). */
  replicaLagDuringApiImport?: ImportLag & {
    accounts: number;
    /** The domain before the import, with the limits raised for it (`domain set-limits`). */
    domainBefore?: { accounts: number; capacityMb: number; accountLimit: number; capacityLimit: number };
  };
  backup: { ms: number };
  restore: { ms: number };
  migrateAddingColumn: { ms: number };
  /** Absent in results written before the API was measured here. */
  api?: ApiResult;
  targets: Target[];
}

/** Puts the provider bench's figures into `dir`'s results.json (`provider`) and RESULTS.md (its own section, last). */
export function writeProviderReport(dir: string, r: ProviderResult): void {
  const jsonFile = path.join(dir, "results.json");
  const mdFile = path.join(dir, "RESULTS.md");
  const json = fs.existsSync(jsonFile)
    ? (JSON.parse(fs.readFileSync(jsonFile, "utf8")) as Record<string, unknown>)
    : {};
  fs.writeFileSync(jsonFile, `${JSON.stringify({ ...json, provider: r }, null, 2)}\n`);
  const md = fs.existsSync(mdFile) ? fs.readFileSync(mdFile, "utf8") : "";
  const at = md.indexOf(PROVIDER_HEADING);
  fs.writeFileSync(mdFile, `${(at >= 0 ? md.slice(0, at) : md).trimEnd()}\n\n${providerSection(r)}`);
}

function providerSection(r: ProviderResult): string {
  const f = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const trio = (p: Percentiles | undefined) => (p ? `${f(p.p50)} / ${f(p.p99)} / ${f(p.max)}` : "");
  const during = r.replicaLagDuringImport;
  const viaApi = r.replicaLagDuringApiImport;
  const mb = (b: number) => (b / 1e6).toFixed(0);
  return [
    PROVIDER_HEADING,
    "",
    `${r.date.slice(0, 16).replace("T", " ")} UTC, ${r.mode} mode, ${r.host.cores} cores; the whole run took ${r.seconds.toFixed(0)} s. ` +
      `CPU probe (a fixed loop) ${r.host.cpuProbeMs.map((x) => x.toFixed(0)).join(" ms at the start, ")} ms at the end; ` +
      `load average (1/5/15 min) ${r.host.loadBefore} at the start, ${r.host.loadAfter} at the end.`,
    "",
    `Data: ${r.domains.toLocaleString("en")} domains, ${r.accounts.toLocaleString("en")} accounts, seeded in ${r.seeding.seconds.toFixed(1)} s ` +
      `(${r.seeding.withVacuumAnalyzeSeconds.toFixed(1)} s with VACUUM (ANALYZE)); database ${mb(r.sizeBytes.database)} MB with every index, ` +
      `${mb(r.sizeBytes.per100kAccounts)} MB per 100,000 accounts; WAL after a checkpoint ${mb(r.sizeBytes.wal)} MB (recycled segments, bounded by the primary's max_wal_size, not by the accounts). db backup ${(r.backup.ms / 1000).toFixed(1)} s, db restore ${(r.restore.ms / 1000).toFixed(1)} s, ` +
      `a migration adding a column to accounts ${(r.migrateAddingColumn.ms / 1000).toFixed(1)} s.`,
    "",
    "The mail host's lookups on the streaming replica, as the mail reader role, with the queries of the generated " +
      "`proxy:pgsql:` maps and Dovecot's passdb/userdb, keyed as the daemons key them; each Postfix map's SQL gave " +
      `the same answer as \`postmap -q\` on the generated file (${Object.values(r.postmapAgrees).reduce((a, b) => a + b, 0)} keys). ` +
      `Milliseconds, p50 / p99 / max; during an import: 8 connections cycling over every map while usage was written ` +
      `and another connection inserted accounts 100 per transaction (${(during.importMs / 1000).toFixed(1)} s; the ` +
      `replica's lag peaked at ${mb(during.maxBytes)} MB, ${during.maxSeconds.toFixed(3)} s in ${during.samples} samples)` +
      (viaApi
        ? `, then the API imported ${viaApi.accounts.toLocaleString("en")} accounts, 4 clients each POSTing one with a ` +
          `password (${(viaApi.importMs / 1000).toFixed(1)} s, ${(viaApi.accounts / (viaApi.importMs / 1000)).toFixed(1)} ` +
          `accounts a second; lag peak ${mb(viaApi.maxBytes)} MB, ` +
          `${viaApi.maxSeconds.toFixed(3)} s in ${viaApi.samples} samples).`
        : "."),
    "",
    `| Map (query) | 1 connection | 8 connections | 8, during the insert |${viaApi ? " 8, during the API import |" : ""}`,
    `|---|---:|---:|---:|${viaApi ? "---:|" : ""}`,
    ...Object.keys(r.lookupsOnReplica.at1).map(
      (m) =>
        `| ${m} | ${trio(r.lookupsOnReplica.at1[m])} | ${trio(r.lookupsOnReplica.at8[m])} | ${trio(during.lookupsOnReplica[m])} |` +
        (viaApi ? ` ${trio(viaApi.lookupsOnReplica[m])} |` : ""),
    ),
    "",
    ...[during, viaApi].flatMap((lag, i) => {
      if (!lag) return [];
      const all = Object.values(lag.lookupsOnReplica);
      const slow = all.reduce((a, p) => a + p.slow, 0);
      const n = all.reduce((a, p) => a + p.n, 0);
      const db = lag.inDatabase;
      return [
        `Lookups over 50 ms during the ${i ? "API import" : "insert"}: ${slow.toLocaleString("en")} of ${n.toLocaleString("en")}.` +
          (db
            ? ` The replica itself ran ${db.slowStatements} statement(s) for over 50 ms and logged ${db.waits} lock or ` +
              "recovery-conflict wait(s) over 50 ms (log_min_duration_statement, log_lock_waits, " +
              `log_recovery_conflict_waits)${slow > db.slowStatements ? `; the other ${slow - db.slowStatements} lookup(s) waited outside their statement (the mail host's process or its backend waiting for a core)` : ""}.`
            : ""),
        "",
      ];
    }),
    ...(r.api ? [apiSection(r.api), ""] : []),
    targetsTable(r.targets.map((t) => ({ ...t, value: Number(t.value.toFixed(3)) }))),
    "",
  ].join("\n");
}

const x = (v: number | undefined) => (v === undefined ? "" : `${v.toFixed(2)}x`);

function apiSection(api: ApiResult): string {
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const bench = api.bench
    ? `the ${api.bench.engine} run of the 100k bench in bench/results.json (${api.bench.date.slice(0, 16).replace("T", " ")} UTC${api.bench.quick ? ", quick mode" : ""})`
    : "no 100k bench run in bench/results.json";
  return [
    `The API on the primary, through the production server (\`${api.server}\`, WORKERS=1), ${api.connections} connections: ` +
      `each scenario paired with the empty route handler (A B B A, ${api.settings.seconds} s ${api.settings.warmup ? `after a ${api.settings.warmup} s warm-up` : "with no warm-up"}, ` +
      `${api.settings.runs} repetition(s), medians), its throughput as a share of the empty handler's, and that share ` +
      `against the same on ${bench}, where the lists were measured apart from the empty handler ("vs bench": the bench's share ÷ this ` +
      `one; above 1 is costlier here).`,
    "",
    "| Scenario | req/s | p50 ms | p99 ms | empty handler req/s | share of empty | on the bench | vs bench |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...api.figures.map(
      (f) =>
        `| ${f.name} | ${f.rps.toFixed(0)} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.emptyRps.toFixed(0)} | ${f.ofEmpty.toFixed(2)} | ${f.benchOfEmpty?.toFixed(2) ?? ""} | ${x(f.vsBench)} |`,
    ),
    "",
    `PUT of ${api.put.names} names of the ${short(api.put.domainAccounts)}-account domain (new descriptions), sequential: ${api.put.timesMs.map((t) => t.toFixed(0)).join(", ")} ms, ` +
      `median ${api.put.medianMs.toFixed(0)} ms, the time of ${api.put.inEmptyRequests.toFixed(1)} empty-handler requests` +
      (api.put.benchInEmptyRequests !== undefined
        ? ` (on the bench ${api.put.benchInEmptyRequests.toFixed(1)}: ${x(api.put.vsBench)}).`
        : "."),
  ].join("\n");
}

/** The API's rows for stdout: each scenario's share of the empty handler and the PUT, with the 100k bench's. */
export function apiLines(api: ApiResult): string[] {
  const bench = (of: number | undefined, vs: number | undefined, d: number) =>
    of !== undefined && vs !== undefined ? `; 100k bench ${of.toFixed(d)}, ${x(vs)}` : "";
  const { put } = api;
  return [
    ...api.figures.map(
      (f) =>
        `API    ${f.name}: ${f.rps.toFixed(0)} req/s, ${f.ofEmpty.toFixed(2)} of the empty handler's ${f.emptyRps.toFixed(0)}` +
        bench(f.benchOfEmpty, f.vsBench, 2),
    ),
    `API    PUT ${put.names} names: median ${put.medianMs.toFixed(0)} ms, ${put.inEmptyRequests.toFixed(0)} empty-handler requests` +
      bench(put.benchInEmptyRequests, put.vsBench, 0),
  ];
}

const max = (name: string, value: number, limit: number, unit: string): Target => ({
  name,
  value,
  limit,
  unit: `${unit} (max)`,
  met: value <= limit,
});

/** The API's targets: the 100k domain's list against the 100k bench's, the 20-account domain's against the empty handler. */
function apiTargets(api: ApiResult): Target[] {
  const [, big, small] = api.figures;
  const out: Target[] = [];
  if (big?.vsBench !== undefined)
    out.push(
      max(`${big.name}: share of the empty handler's throughput, the 100k bench's ÷ this run's`, big.vsBench, 1.2, "x"),
    );
  if (small)
    out.push(max(`${small.name}: the empty handler's throughput ÷ the list's (paired)`, 1 / small.ofEmpty, 1.5, "x"));
  return out;
}

/** The issue's targets that this run measures; the absolute ones for seeding, backup and restore are for the full scale. */
export function providerTargets(r: ProviderResult, quickRun: boolean): Target[] {
  const imports: [string, ImportLag | undefined][] = [
    ["accounts are inserted 100 per transaction", r.replicaLagDuringImport],
    [
      `the API imports ${r.replicaLagDuringApiImport?.accounts.toLocaleString("en")} accounts`,
      r.replicaLagDuringApiImport,
    ],
  ];
  const out = [
    ...(["at1", "at8"] as const).flatMap((at) =>
      Object.entries(r.lookupsOnReplica[at]).map(([map, p]) =>
        max(`lookup on the replica, ${map}, p99 at ${at.slice(2)} concurrent`, p.p99, 5, "ms"),
      ),
    ),
    ...imports.flatMap(([what, lag]) =>
      lag
        ? [
            max(
              `slowest lookup on the replica while ${what} (every map, 8 concurrent)`,
              Math.max(...Object.values(lag.lookupsOnReplica).map((p) => p.max)),
              50,
              "ms",
            ),
            max(`replica lag at every sample while ${what}`, lag.maxSeconds, 1, "s"),
          ]
        : [],
    ),
    ...(r.api ? apiTargets(r.api) : []),
  ];
  if (quickRun) out.push(max("quick run, start to end", r.seconds, 120, "s"));
  else {
    // Only at full scale: a few thousand domains say little about the size per account.
    out.push(max("database with every index per 100,000 accounts", r.sizeBytes.per100kAccounts / 1e6, 300, "MB"));
    out.push(max("seeding 1,000,000 accounts", r.seeding.seconds / 60, 15, "min"));
    out.push(max("db backup", r.backup.ms / 60_000, 5, "min"));
    out.push(max("db restore", r.restore.ms / 60_000, 10, "min"));
  }
  return out;
}
