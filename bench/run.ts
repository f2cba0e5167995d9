// `npm run bench [-- --quick] [-- --engines sqlite,postgres]`: for each engine in turn (both by default, PostgreSQL
// on a private cluster of its own), seeds a fresh database, starts the production server and a bare node:http
// baseline on it, loads each endpoint (warm-up, then a fixed time; the whole list of scenarios is repeated and each
// figure is the median over the repetitions), checks the targets, and writes bench/results.json and
// bench/RESULTS.md. --quick: small data and short runs, so CI keeps the harness alive.
import path from "node:path";
import { measureBadSignIns } from "./bad-sign-ins";
import { benchEngine, type Running } from "./engine";
import { CHROMIUM } from "./panel";
import { checkPrerequisites } from "./prerequisites";
import { writeReports, type Report } from "./report";
import { buildIfStale, distDir, enginesOf, log, portsFor, quick, root } from "./run-config";

async function main() {
  const engines = enginesOf(process.argv);
  // Before anything is seeded: a missing tool is named in one line, not found minutes later.
  checkPrerequisites(CHROMIUM, { postgres: engines.includes("postgres") });
  // The bad sign-ins scenario alone, on a server and database of its own (bench/bad-sign-ins.ts).
  if (process.argv.includes("--bad-sign-ins")) {
    const port = portsFor(0).badSignIns;
    const result = await measureBadSignIns({ root, port, distDir, seconds: quick ? 4 : 20, log });
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  buildIfStale();
  const running: Running = { stop: async () => {} };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      void running.stop().finally(() => process.exit(130));
    });
  }
  const reports: Report[] = [];
  for (const [k, engine] of engines.entries()) {
    try {
      reports.push(await benchEngine(engine, portsFor(k), k === 0, running));
    } finally {
      await running.stop();
      running.stop = async () => {};
    }
  }
  // Quick runs write next to their data (git-ignored): the committed results come from a full run.
  writeReports(path.join(root, quick ? "bench/data" : "bench"), reports);
  if (quick && !reports.every((r) => r.targets.every((t) => t.met)))
    log("(quick mode: targets are reported, not enforced)");
}

await main();
