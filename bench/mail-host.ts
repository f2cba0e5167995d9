// The mail host's lookups on the replica, in a process of their own as Postfix's and Dovecot's are: the bench's own
// work (the API import's clients, and its garbage collection, which paused the shared event loop up to 59 ms while
// the lookups' timers ran) then does not count as the replica's time. Forked by provider-mail.ts (mailHost); it
// answers one job, then exits. The durations go into typed arrays, outside the heap its collector walks.
import pg from "pg";
import { fill, percentiles, type MailHostJob, type MailQuery, type Percentiles } from "./provider-mail";

const WARMUP_MS = 1000;

/** A growing list of durations in Float64Array chunks. */
class Durations {
  private chunks: Float64Array[] = [];
  private used = 0;
  push(x: number) {
    let last = this.chunks[this.chunks.length - 1];
    if (!last || this.used === last.length) {
      last = new Float64Array(1 << 16);
      this.chunks.push(last);
      this.used = 0;
    }
    last[this.used++] = x;
  }
  all(): Float64Array {
    const n = this.chunks.length ? (this.chunks.length - 1) * (1 << 16) + this.used : 0;
    const out = new Float64Array(n);
    this.chunks.forEach((c, i) => out.set(i === this.chunks.length - 1 ? c.subarray(0, this.used) : c, i << 16));
    return out;
  }
}

async function run(job: MailHostJob): Promise<Record<string, Percentiles>> {
  let stopped = false;
  process.on("message", (m) => {
    if (m === "stop") stopped = true;
  });
  const clients = await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      const c = new pg.Client({ connectionString: job.url });
      // An idle connection's error is emitted: unheard it would end this process without a word.
      c.on("error", (err) => console.error(`mail host: connection error: ${err.message}`));
      await c.connect();
      return c;
    }),
  );
  const times = new Map(job.queries.map((q) => [q, new Durations()]));
  /** `queries` in turn on each connection while `more(i)` for the i-th lookup; each one's time goes to `times`. */
  const cycle = (queries: MailQuery[], more: (i: number) => boolean, measured = true) => {
    let next = 0;
    return Promise.all(
      clients.map(async (c) => {
        for (let i = next++; more(i); i = next++) {
          const q = queries[i % queries.length]!;
          const t0 = performance.now();
          await c.query(fill(q, job.sample[Math.floor(i / queries.length) % job.sample.length]!));
          if (measured) times.get(q)!.push(performance.now() - t0);
        }
      }),
    );
  };
  try {
    // Unmeasured: a fresh process's first lookups run its client's code before the JIT has compiled it.
    const warm = performance.now() + WARMUP_MS;
    await cycle(job.queries, () => performance.now() < warm, false);
    process.send!({ ready: true });
    if (job.perQuery !== undefined) {
      // Each map in turn, perQuery lookups of it spread over the connections.
      for (const q of job.queries) await cycle([q], (i) => i < job.perQuery!);
    } else {
      // Every map in turn until the bench says stop: the mail host while the primary imports.
      await cycle(job.queries, () => !stopped);
    }
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return Object.fromEntries(job.queries.map((q) => [q.name, percentiles(times.get(q)!.all())]));
}

process.once("message", (job: MailHostJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.stack ?? String(err) }, () => process.exit(1)),
  );
});
