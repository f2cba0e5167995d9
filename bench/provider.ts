// Provider scale on PostgreSQL: a private primary with a streaming replica, many domains of skewed sizes, the mail
// host's lookups measured on the replica with the queries of the maps `mailserver config` writes, and the API through
// the production server on the same database.
//   node --conditions=react-server --import tsx bench/provider.ts [--quick] [--results]
// Writes bench/data/provider.json (git-ignored) after each step, and at the end its section of bench/RESULTS.md and
// bench/results.json (a quick run only with --results). --quick seeds a few thousand domains (CI).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runPgMigrations } from "@/db/pg/client";
import { mailReaderSql } from "@/db/pg/mail-reader";
import { startPgCluster, startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { pgMailConfigArgs } from "@/lib/mailserver/testing/pg-mail-config";
import { cpuProbeMs } from "./host";
import { apiImport, measureApi, startServer, type Server } from "./provider-api";
import { lagDuringImport, lookups, mailQueries, MONITOR, postmapAgrees, READER, sqlImport } from "./provider-mail";
import {
  apiLines,
  providerTargets,
  writeProviderReport,
  type ProviderResult,
  type ReplicaLogged,
} from "./provider-report";
import { clustersStopping, listened, ms, plan, PROVIDER_QUICK_SIZES, PROVIDER_SIZES, seed } from "./provider-seed";
import { buildIfStale, log, quick } from "./run-config";

const SIZES = quick ? PROVIDER_QUICK_SIZES : PROVIDER_SIZES;
/** The API's measurements: as the 100k bench's (bench/run.ts), fewer repetitions in quick mode. */
const API = quick
  ? { serverWarmup: 1, warmup: 0, seconds: 2, runs: 1, putRuns: 2 }
  : { serverWarmup: 4, warmup: 1, seconds: 4, runs: 3, putRuns: 7 };

function cli(args: string[], url: string): { ms: number; out: string; ok: boolean } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, MAIL_DB_PASSWORD: READER.password },
  });
  return { ms: ms(t0), out: (r.stdout + r.stderr).trim(), ok: r.status === 0 };
}

/**
 * Raises a domain's account and capacity limits with `domain set-limits` (never lowering one), as an operator does
 * before a migration: room for `coming` accounts of the capacity the API gives one posted without it (1024 MB).
 */
function makeRoom(primary: PgCluster, domain: string, coming: number) {
  const [accounts, accountLimit, capacity, capacityLimit] = primary
    .psql(`SELECT account_count, account_limit, capacity_sum, capacity_limit FROM domains WHERE name = '${domain}'`)
    .trim()
    .split("|")
    .map(Number) as [number, number, number, number];
  const limits = {
    accountLimit: Math.max(accountLimit, accounts + coming),
    capacityLimit: Math.max(capacityLimit, capacity + coming * 1024),
  };
  const set = cli(
    [
      "domain",
      "set-limits",
      domain,
      "--account-limit",
      String(limits.accountLimit),
      "--capacity-limit",
      String(limits.capacityLimit),
    ],
    primary.url,
  );
  if (!set.ok) throw new Error(`domain set-limits ${domain}: ${set.out}`);
  log(
    `${domain}: ${accounts} accounts (limit ${accountLimit} -> ${limits.accountLimit}), capacity ${capacity} MB (limit ${capacityLimit} -> ${limits.capacityLimit})`,
  );
  return { accounts, capacityMb: capacity, ...limits };
}

/** `db migrate` with one more migration that adds a column to accounts (a copy of the migrations folder). */
async function migrateAddingColumn(primary: PgCluster, work: string) {
  const folder = path.join(work, "migrations");
  fs.cpSync(path.join("db", "pg", "migrations"), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as {
    entries: { idx: number; when: number; tag: string }[];
  };
  const last = journal.entries.at(-1)!;
  const tag = "9999_bench_added_column";
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  fs.writeFileSync(
    path.join(folder, `${tag}.sql`),
    "ALTER TABLE accounts ADD COLUMN bench_note text NOT NULL DEFAULT '';\n",
  );
  const pool = listened(new pg.Pool({ connectionString: primary.url, max: 2 }), "migration on the primary");
  const t0 = performance.now();
  await runPgMigrations(pool, folder);
  const took = ms(t0);
  await pool.end();
  return { ms: took };
}

/**
 * The replica logs what made a lookup wait inside PostgreSQL (over the 50 ms a lookup may take during an import): a
 * statement that ran that long, and a lock or recovery-conflict wait that long. A lookup the client timed over 50 ms
 * with none of these waited outside the statement (its process or its backend waiting for a core).
 */
const REPLICA_LOGGING = [
  "log_min_duration_statement = '50ms'",
  "log_lock_waits = on",
  "log_recovery_conflict_waits = on",
  "deadlock_timeout = '50ms'",
];

/** What the replica's log `lines` (one or more lines each, as the server wrote them) say of REPLICA_LOGGING's waits. */
function replicaLogged(lines: string[]): ReplicaLogged {
  const of = lines
    .flatMap((l) => l.split("\n"))
    .filter((l) => /LOG: {2}(duration: |process \d+ still waiting|recovery still waiting)/.test(l));
  return {
    slowStatements: of.filter((l) => l.includes("duration: ")).length,
    waits: of.filter((l) => !l.includes("duration: ")).length,
    lines: of.slice(0, 50).map((l) => l.slice(0, 400)),
  };
}

async function main() {
  // Before anything is timed: the server needs a production build.
  buildIfStale();
  const started = performance.now();
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
  const probeStart = cpuProbeMs();
  const loadStart = load();
  const primary = await startPgCluster({
    replicationUser: "replicator",
    settings: { shared_buffers: "'256MB'", max_wal_size: "'2GB'" },
  });
  let replica: PgCluster | undefined;
  const replicaLog: string[] = [];
  let server: Promise<Server> | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-provider-"));
  try {
    const domains = plan(SIZES);
    const result: Record<string, unknown> = {
      mode: quick ? "quick" : "provider",
      date: new Date().toISOString(),
      host: { cores: os.cpus().length, cpuProbeMs: [probeStart], loadBefore: loadStart },
    };
    const save = () => {
      (result.host as Record<string, unknown>).loadNow = load();
      fs.mkdirSync(path.join("bench", "data"), { recursive: true });
      fs.writeFileSync(
        path.join("bench", "data", quick ? "provider-quick.json" : "provider.json"),
        JSON.stringify(result, null, 2) + "\n",
      );
    };
    const seeded = await seed(primary, domains, SIZES);
    result.domains = domains.length;
    result.accounts = seeded.accounts;
    result.seeding = { seconds: seeded.seedingSeconds, withVacuumAnalyzeSeconds: seeded.withVacuumSeconds };
    save();
    primary.psql(mailReaderSql(READER.role, READER.password, primary.database));
    primary.psql(`CREATE ROLE ${MONITOR.role} LOGIN PASSWORD '${MONITOR.password}' IN ROLE pg_monitor`);
    // The API's server starts while the replica is made and the maps written (unmeasured steps); it idles until used.
    server = startServer(primary.url);
    server.catch(() => {}); // awaited, and its failure reported, at the API's step
    log(`seeded ${domains.length} domains, ${seeded.accounts} accounts in ${seeded.seedingSeconds.toFixed(1)} s`);
    // After a checkpoint the WAL left is PostgreSQL's recycled segments, which max_wal_size bounds, not the accounts.
    primary.psql("CHECKPOINT");
    const sizes = primary
      .psql(`SELECT pg_database_size(current_database()), (SELECT sum(size) FROM pg_ls_waldir())`)
      .trim()
      .split("|")
      .map(Number) as [number, number];
    replica = await startReplica(primary, { replicationUser: "replicator", log: (l) => replicaLog.push(l) });
    for (const setting of REPLICA_LOGGING) replica.psql(`ALTER SYSTEM SET ${setting}`);
    replica.psql("SELECT pg_reload_conf()");
    const conf = path.join(work, "conf");
    const written = cli(
      pgMailConfigArgs(conf, [`127.0.0.1:${replica.port}`], `127.0.0.1:${primary.port}`, path.join(work, "vmail")),
      primary.url,
    );
    if (!written.ok) throw new Error(`mailserver config: ${written.out}`);
    const queries = mailQueries(conf);
    if (!queries.length) throw new Error(`no queries found in ${conf}`);
    result.postmapAgrees = await postmapAgrees(replica, queries, seeded.sample, work);
    const perQuery = quick ? 300 : 3_000;
    result.sizeBytes = {
      database: sizes[0],
      wal: sizes[1],
      per100kAccounts: Math.round((sizes[0] * 100_000) / seeded.accounts),
    };
    result.lookupsOnReplica = { at1: await lookups(replica, queries, seeded.sample, 1, perQuery) };
    save();
    (result.lookupsOnReplica as Record<string, unknown>).at8 = await lookups(
      replica,
      queries,
      seeded.sample,
      8,
      perQuery,
    );
    save();
    // Before the import below adds accounts to the big domain.
    const small = domains.find((d) => d.accounts === 20)!;
    result.api = await measureApi(await server, primary.url, domains[0]!, small, API, log);
    save();
    const imported = quick ? 1_000 : 10_000;
    let mark = replicaLog.length;
    result.replicaLagDuringImport = {
      ...(await lagDuringImport(
        primary,
        replica,
        queries,
        seeded.sample,
        sqlImport(primary, domains[0]!.name, imported),
      )),
      inDatabase: replicaLogged(replicaLog.slice(mark)),
    };
    save();
    // Each POST hashes a password twice (the API's scrypt and the mail system's), about 12 a second on 2 cores
    // beside the lookups: a quick run imports fewer through the API to stay within its 2 minutes.
    const viaApi = quick ? 150 : 10_000;
    log(`inserted ${imported} accounts 100 per transaction; the API imports ${viaApi} more`);
    const before = makeRoom(primary, domains[0]!.name, viaApi);
    mark = replicaLog.length;
    result.replicaLagDuringApiImport = {
      accounts: viaApi,
      domainBefore: before,
      ...(await lagDuringImport(
        primary,
        replica,
        queries,
        seeded.sample,
        apiImport(await server, domains[0]!.name, viaApi),
      )),
      inDatabase: replicaLogged(replicaLog.slice(mark)),
    };
    save();
    const backupFile = path.join(work, "backup.dump");
    const backup = cli(["db", "backup", backupFile], primary.url);
    result.backup = { ms: backup.ms, ok: backup.ok, out: backup.out.slice(0, 300) };
    save();
    const restore = backup.ok
      ? cli(["db", "restore", "--yes", backupFile], primary.url)
      : { ms: NaN, ok: false, out: "no backup" };
    result.restore = { ms: restore.ms, ok: restore.ok, out: restore.out.slice(0, 300) };
    save();
    result.migrateAddingColumn = await migrateAddingColumn(primary, work);
    (result.host as Record<string, unknown>).cpuProbeMs = [probeStart, cpuProbeMs()];
    (result.host as Record<string, unknown>).loadAfter = load();
    result.seconds = ms(started) / 1000;
    const done = result as unknown as ProviderResult;
    done.targets = providerTargets(done, quick);
    save();
    // The whole result is in the file save() writes; stdout gets the API's rows and the targets.
    log(`results in bench/data/${quick ? "provider-quick.json" : "provider.json"}`);
    const host = result.host as { cpuProbeMs: number[]; loadBefore: string; loadAfter: string };
    log(
      `host: CPU probe ${host.cpuProbeMs.map((v) => v.toFixed(0)).join(" then ")} ms, load ${host.loadBefore} then ${host.loadAfter}`,
    );
    if (done.api) for (const line of apiLines(done.api)) console.log(line);
    // The committed results come from a full run, or from a quick one asked to (--results).
    if (!quick || process.argv.includes("--results")) writeProviderReport("bench", done);
    for (const t of done.targets)
      console.log(`${t.met ? "met    " : "NOT MET"} ${t.name}: ${t.value.toFixed(2)} (limit ${t.limit} ${t.unit})`);
    const failed = [backup, restore].filter((r) => !r.ok);
    if (failed.length) throw new Error(failed.map((r) => r.out).join("; "));
  } finally {
    clustersStopping();
    await server?.then(
      (s) => s.stop(),
      () => {},
    );
    await replica?.stop();
    await primary.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
