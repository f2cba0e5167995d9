// How busy the (shared, virtual) host is while the bench measures: figures taken on a contended host are slower
// and have longer tails, the framework's own ones included, so the report shows these beside them.
import fs from "node:fs";

/** Milliseconds a fixed CPU-bound loop takes here: 340-630 on the hosts seen so far (bench/README.md). */
export function cpuProbeMs(): number {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 3e8; i++) x += i % 7;
  if (x < 0) process.stdout.write("unreachable\n"); // keeps the loop from being optimised away
  return performance.now() - started;
}

export type CpuTimes = { total: number; steal: number } | null;

/** The machine's CPU time counters (/proc/stat, in jiffies): all of them, and those stolen by the hypervisor. */
export function cpuTimes(): CpuTimes {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return null; // not Linux
  }
}

/** Percent of the CPU time between two readings that the hypervisor gave to other guests (a VM's "steal"). */
export function stealPercent(from: CpuTimes, to: CpuTimes): number | null {
  if (!from || !to || to.total <= from.total) return null;
  return Number(((100 * (to.steal - from.steal)) / (to.total - from.total)).toFixed(1));
}
