// Measuring the list of scenarios: each checked once, the idle servers warmed, then the whole list repeated
// (BENCH_RUNS), pairs whose ratio is a target measured together, each sample kept for the medians.
import os from "node:os";
import { cpuProbeMs, cpuTimes, stealPercent } from "./host";
import { measure, measurePair, type Sample } from "./load";
import { log, quick, settings } from "./run-config";
import { comparedWith, type Scenario } from "./scenarios";
import type { QuotaWriting } from "./servers";

/** Each scenario must answer 2xx before it is measured. */
export async function checkScenarios(scenarios: Scenario[]): Promise<void> {
  for (const s of scenarios) {
    const url = new URL(s.load.nextPath ? `${new URL(s.load.url).origin}${s.load.nextPath()}` : s.load.url);
    const res = await fetch(url, { method: s.load.method ?? "GET", headers: s.load.headers, body: s.load.body });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${s.name}: ${res.status} from ${url}`);
  }
}

/** Whether a scenario runs on a server that idles through the others (two workers, or the second process). */
const onIdleServer = (s: Scenario) => s.on === "twoWorkers" || s.on === "twoProcesses";

/**
 * The main server has been warmed by the checks and will be by every scenario before the workers pair; the
 * two-worker one only sees its own scenarios, so it gets 15 s of each first: a fresh worker needs about 10 s of load
 * to reach its speed.
 */
export async function warmIdleServers(scenarios: Scenario[], pidOf: (s: Scenario) => number): Promise<void> {
  for (const s of scenarios.filter(onIdleServer)) await measure(s.load, 0, quick ? 1 : 15, pidOf(s));
}

export interface Repetitions {
  /** Every scenario's samples, one per repetition, by name. */
  samples: Map<string, Sample[]>;
  loadAtStart: number[];
  probeAtStart: number;
  steal: { overall: number | null; perRun: (number | null)[] };
}

/** One repetition of the list, each sample passed to `record`. */
async function measureOnce(
  scenarios: Scenario[],
  pidOf: (s: Scenario) => number,
  quota: QuotaWriting,
  record: (s: Scenario, sample: Sample) => void,
): Promise<void> {
  for (let i = 0; i < scenarios.length; i++) {
    const s = scenarios[i]!;
    const next = scenarios[i + 1];
    await quota.set(!!s.underWrites);
    if (next && comparedWith(s, next)) {
      // An idle server answers slowly at first: it gets a warm-up of its own right before its pair, as the main
      // server has had.
      if (onIdleServer(next)) await measure(next.load, 0, quick ? 1 : 8, pidOf(next));
      // The workers pair runs in longer halves: in halves of 1 s a stall of the host weighs five times as much.
      const seconds = s.group === "workers" || s.group === "processes" ? settings.workerSeconds : settings.seconds;
      const [a, b] = await measurePair(s.load, next.load, settings.warmup, seconds, pidOf(s), pidOf(next));
      record(s, a);
      record(next, b);
      i++;
    } else {
      record(s, await measure(s.load, settings.warmup, settings.seconds, pidOf(s)));
    }
  }
  await quota.set(false);
}

/** The whole list of scenarios, `settings.runs` times, with the host's load, CPU probe and steal. */
export async function measureRepetitions(
  label: string,
  scenarios: Scenario[],
  pidOf: (s: Scenario) => number,
  quota: QuotaWriting,
): Promise<Repetitions> {
  const loadAtStart = os.loadavg();
  const probeAtStart = cpuProbeMs();
  const cpuAtStart = cpuTimes();
  const perRun: (number | null)[] = [];
  const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
  for (let run = 1; run <= settings.runs; run++) {
    const cpuAtRun = cpuTimes();
    const prefix = `${label} run ${run}/${settings.runs}`;
    await measureOnce(scenarios, pidOf, quota, (s, sample) => {
      samples.get(s.name)!.push(sample);
      log(
        `${prefix}  ${s.name.padEnd(58)} ${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50.toFixed(2)} ms  p99 ${sample.p99.toFixed(2)} ms  errors ${sample.errors}`,
      );
    });
    perRun.push(stealPercent(cpuAtRun, cpuTimes()));
    log(`${prefix}: CPU time stolen by the hypervisor ${perRun.at(-1) ?? "unknown"}%`);
  }
  return { samples, loadAtStart, probeAtStart, steal: { overall: stealPercent(cpuAtStart, cpuTimes()), perRun } };
}
