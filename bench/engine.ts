// One engine's bench: seeds its database, starts its servers and writers, measures every scenario, then the
// measurements that run once (the PUT of many names, the list PUT, the panel, the import, the bad sign-ins), and
// returns its report. The panel and the bad sign-ins measure the browser and scrypt, not the database: they run with
// the first engine only.
import fs from "node:fs";
import path from "node:path";
import type { PgCluster } from "@/e2e/support/pg-cluster";
import { MAX_TOTALS } from "@/lib/server/resources/page";
import { measureBadSignIns } from "./bad-sign-ins";
import { measureListPut, type ListPutReport } from "./list-put";
import { measureUntil, peakRssMb } from "./load";
import { CHROMIUM, measurePanel, type PanelResult } from "./panel";
import { putMany } from "./put-many";
import { checkScenarios, measureRepetitions, warmIdleServers } from "./repetitions";
import type { Report } from "./report";
import { auth, distDir, ENGINE_NAMES, log, quick, root, settings, type Engine, type Ports } from "./run-config";
import { buildScenarios, coldTerms, type Scenario } from "./scenarios";
import { accountNames, seed } from "./seed";
import { accountNamesPg, seedPostgres } from "./seed-pg";
import { ADMIN_PASSWORD, BIG_DOMAIN, FULL_LIST, MID_DOMAIN, type SeedResult } from "./seed-plan";
import {
  killAll,
  nextMessage,
  postmasterPid,
  quotaWriting,
  serversReady,
  startBenchCluster,
  startServers,
  startWriter,
  stopAll,
  writerReady,
  type Servers,
} from "./servers";
import { engineReport, type Measured } from "./targets";
import type { ImportReport } from "./writer-messages";

/** Where the caller keeps what stops the engine being measured (on exit and on a signal too). */
export interface Running {
  stop: () => Promise<void>;
}

interface SeededEngine {
  label: string;
  seeded: SeedResult;
  /** The SQLite file or the PostgreSQL URL, as bench/writer.ts takes it. */
  database: string;
  dbEnv: Record<string, string>;
  names: (domain: string, count: number) => Promise<string[]>;
  cluster?: PgCluster;
}

/** A fresh database for `engine`: on PostgreSQL in a private cluster, which `running` then stops. */
async function seedEngine(engine: Engine, ports: Ports, running: Running): Promise<SeededEngine> {
  const label = ENGINE_NAMES[engine];
  const mode = quick ? "quick" : "full";
  if (engine === "postgres") {
    log(`${label}: starting a private cluster on port ${ports.pg} ...`);
    const cluster = await startBenchCluster(ports.pg);
    const url = cluster.url;
    running.stop = () => cluster.stop();
    log(`Seeding ${label} (${mode}) ...`);
    const seeded = await seedPostgres(url, settings.sizes);
    const dbEnv = { DATABASE_URL: url, DATABASE_PATH: "" };
    return { label, seeded, database: url, dbEnv, names: (d, n) => accountNamesPg(url, d, n), cluster };
  }
  const file = path.join(root, settings.file);
  log(`Seeding ${file} (${mode}) ...`);
  const seeded = seed(file, settings.sizes);
  const dbEnv = { DATABASE_PATH: file, DATABASE_URL: "" };
  return { label, seeded, database: file, dbEnv, names: (d, n) => Promise.resolve(accountNames(file, d, n)) };
}

/** PUTs of a large list (3 at a time) while another domain's account is PUT. */
async function listPutUnderLoad(ports: Ports): Promise<ListPutReport> {
  const listMembers = quick ? 5_000 : 50_000;
  const listPut = await measureListPut(
    {
      base: `http://127.0.0.1:${ports.app}`,
      listDomain: BIG_DOMAIN,
      listName: FULL_LIST,
      listAuth: auth(BIG_DOMAIN),
      otherDomain: MID_DOMAIN,
      otherAccount: "postmaster",
      otherAuth: auth(MID_DOMAIN),
    },
    listMembers,
  );
  log(
    `PUT of a ${listMembers}-member list: ${listPut.listPutMs.map((t) => t.toFixed(0)).join(", ")} ms; ` +
      `other domain's PUT meanwhile: p99 ${listPut.other.p99.toFixed(1)} ms, max ${listPut.other.max.toFixed(1)} ms`,
  );
  return listPut;
}

/** The panel in a browser: full runs only (Chromium and Lighthouse take longer than the whole quick run). */
async function panelIfAsked(ports: Ports, first: boolean): Promise<PanelResult | null> {
  const asked = !quick || process.argv.includes("--panel");
  if (!first || !asked || process.argv.includes("--no-panel") || !fs.existsSync(CHROMIUM)) return null;
  log("Panel: account table in Chromium, JavaScript per page, Lighthouse ...");
  const panel = await measurePanel(`http://127.0.0.1:${ports.app}`, `postmaster@${BIG_DOMAIN}`, ADMIN_PASSWORD, 5);
  log(
    `Panel: table visible ${panel.tableVisibleMs.map((t) => t.toFixed(0)).join(", ")} ms; Lighthouse ${panel.lighthouse ?? panel.lighthouseError}`,
  );
  return panel;
}

/**
 * A list scenario while another process imports accounts into the same domain; the slowest request counts. Last,
 * since the import changes the data the other scenarios read.
 */
async function listDuringImport(
  db: SeededEngine,
  servers: Servers,
  big: Scenario[],
): Promise<Measured["duringImport"]> {
  log(`Import: ${settings.imported} accounts into ${BIG_DOMAIN} by another process, while searching ...`);
  const importer = startWriter(["import", db.database, String(settings.imported)]);
  servers.children.push(importer);
  const scenario = big.find((s) => s.load.nextPath)!;
  // Measured from the importer's first insert: its start-up (Node compiling bench/writer.ts) is not the import.
  await writerReady(importer);
  const imported = nextMessage<ImportReport>(importer);
  importer.send("start");
  const sample = await measureUntil(scenario.load, imported, servers.app.pid!);
  const report = await imported;
  log(
    `Import: ${report.accounts} accounts in ${report.seconds.toFixed(1)} s; slowest list request ${sample.max.toFixed(1)} ms`,
  );
  const name = `${scenario.name}, while another process imports ${report.accounts} accounts (${report.seconds.toFixed(1)} s; p99 column = slowest)`;
  return { name, group: "import", sample, report };
}

/** Every scenario and the measurements that run once, on running servers. */
async function measureEngine(db: SeededEngine, servers: Servers, ports: Ports, first: boolean): Promise<Measured> {
  const { app, app2, app3, baseline } = servers;
  const quota = quotaWriting(servers.quotaWriter);
  const pidOf = (s: Scenario) =>
    (s.on === "baseline" ? baseline : s.on === "twoWorkers" ? app2 : s.on === "twoProcesses" ? app3! : app).pid!;
  const [someone] = await db.names(BIG_DOMAIN, 1);
  const many = await db.names(BIG_DOMAIN, 1000);
  const cold = coldTerms(await db.names(BIG_DOMAIN, 20_000));
  if (!quick && cold.length <= MAX_TOTALS)
    throw new Error(`only ${cold.length} search terms: the server would remember their totals`);
  const dataDir = db.cluster?.dataDir;
  const { scenarios, big } = buildScenarios({
    ports,
    someone: someone!,
    cold,
    pids: { app: () => app.pid, app2: () => app2.pid, app3: () => app3?.pid },
    postgres: dataDir === undefined ? undefined : () => postmasterPid(dataDir),
  });
  await checkScenarios(scenarios);
  await warmIdleServers(scenarios, pidOf);
  const reps = await measureRepetitions(db.label, scenarios, pidOf, quota);
  const put = await putMany(ports.app, many);
  log(
    `${db.label}: PUT ${many.length} names: ${put.times.map((t) => t.toFixed(0)).join(", ")} ms; atomic: ${put.atomic}`,
  );
  const listPut = await listPutUnderLoad(ports);
  const panel = await panelIfAsked(ports, first);
  const duringImport = await listDuringImport(db, servers, big);
  // A real user's median while 4 clients send bad sign-ins, on a server of its own (last: it loads both cores).
  const badSignIns = first
    ? await measureBadSignIns({ root, port: ports.badSignIns, distDir, seconds: quick ? 4 : 20, log })
    : undefined;
  return {
    label: db.label,
    postgres: db.cluster !== undefined,
    seeded: db.seeded,
    scenarios,
    reps,
    quotaWrites: quota.totals,
    duringImport,
    put: { ...put, names: many.length },
    listPut,
    panel,
    badSignIns,
    peakRssMb: { app: peakRssMb(app.pid!), app2: peakRssMb(app2.pid!) },
  };
}

/** Seeds one engine's database, starts its servers and writers, measures every scenario and returns its report. */
export async function benchEngine(engine: Engine, ports: Ports, first: boolean, running: Running): Promise<Report> {
  const db = await seedEngine(engine, ports, running);
  log(
    `${db.label}: seeded ${db.seeded.accounts} accounts, ${db.seeded.listMembers} list members in ${db.seeded.seconds.toFixed(1)} s`,
  );
  const servers = startServers(ports, db.dbEnv, db.database, db.cluster !== undefined);
  const killOnExit = () => killAll(servers.children);
  process.on("exit", killOnExit);
  running.stop = async () => {
    await stopAll(servers.children);
    await db.cluster?.stop();
  };
  try {
    await serversReady(servers, ports);
    return engineReport(await measureEngine(db, servers, ports, first));
  } finally {
    await running.stop();
    process.off("exit", killOnExit);
  }
}
