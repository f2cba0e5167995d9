// The mail host's lookups on the replica, in a process of their own as Postfix's and Dovecot's are: the bench's own
// work (the API import's clients, and its garbage collection, which paused the shared event loop up to 59 ms while
// the lookups' timers ran) then does not count as the replica's time. Forked by provider-mail.ts (mailHost); it
// answers one job, then exits. The durations go into typed arrays, outside the heap its collector walks.
import pg from "pg";
import { fill, percentiles, type MailHostJob, type Percentiles } from "./provider-mail";

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
  const times = job.queries.map(() => new Durations());
  /** Every map in turn on each connection while `more()`, each lookup's time passed to `took`. */
  const cycle = (more: () => boolean, took?: (qi: number, ms: number) => void) => {
    let next = 0;
    return Promise.all(
      clients.map(async (c) => {
        while (more()) {
          const i = next++;
          const qi = i % job.queries.length;
          const t0 = performance.now();
          await c.query(fill(job.queries[qi]!, job.sample[Math.floor(i / job.queries.length) % job.sample.length]!));
          took?.(qi, performance.now() - t0);
        }
      }),
    );
  };
  try {
    // Unmeasured: a fresh process's first lookups run its client's code before the JIT has compiled it.
    const warm = performance.now() + WARMUP_MS;
    await cycle(() => performance.now() < warm);
    process.send!({ ready: true });
    if (job.perQuery !== undefined) {
      // Each map in turn, perQuery lookups of it spread over the connections.
      for (const [qi, q] of job.queries.entries()) {
        let next = 0;
        await Promise.all(
          clients.map(async (c) => {
            while (next < job.perQuery!) {
              const i = next++;
              const t0 = performance.now();
              await c.query(fill(q, job.sample[i % job.sample.length]!));
              times[qi]!.push(performance.now() - t0);
            }
          }),
        );
      }
    } else {
      // Every map in turn until the bench says stop: the mail host while the primary imports.
      await cycle(
        () => !stopped,
        (qi, ms) => times[qi]!.push(ms),
      );
    }
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return Object.fromEntries(job.queries.map((q, qi) => [q.name, percentiles(times[qi]!.all())]));
}

process.once("message", (job: MailHostJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (err: Error) => process.send!({ error: err.stack ?? String(err) }, () => process.exit(1)),
  );
});
