// The mail host's side of the provider bench: the lookups of the generated Postfix maps and Dovecot's passdb/userdb,
// made on the replica as the mail reader role, and the replica's lag while the primary takes an import.
import fs from "node:fs";
import path from "node:path";
import { fork, spawnSync } from "node:child_process";
import pg from "pg";
import type { PgCluster } from "@/e2e/support/pg-cluster";
import { int, listened, ms } from "./provider-seed";

export const READER = { role: "mail_reader", password: "reader-secret" };
/** The role the replica's lag is read as (in pg_monitor): see lagDuringImport. */
export const MONITOR = { role: "lag_monitor", password: "monitor-secret" };

/** The p-th percentile of xs sorted ascending. */
const pct = (sorted: ArrayLike<number>, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/** The largest of xs (0 if none) without spreading them: Math.max(...xs) overflows the stack past about 120,000. */
const maxOf = (xs: number[]) => xs.reduce((m, x) => (x > m ? x : m), 0);

export interface MailQuery {
  name: string;
  sql: string;
  /** Postfix's map file (for postmap -q), or undefined for Dovecot's passdb/userdb. */
  postfixMap?: string;
  /**
   * What the daemon looks up: the address, its domain (virtual_mailbox_domains: a map of domains keyed by %s), or
   * "@domain" (a catchall). A %d query needs an address: pgsql_table(5) skips a key without a domain part.
   */
  key: "address" | "domain" | "catchall";
}

/** The lookups of the generated Postfix maps and Dovecot's passdb/userdb, as the daemons make them. */
export function mailQueries(confDir: string): MailQuery[] {
  const out: MailQuery[] = [];
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  // The maps asked of the primary (virtual-mailbox-maps-primary.cf, dovecot-sql-primary.conf.ext) only when the
  // replica does not know an address or login: not the replica's lookups, and never asked for the keys used here.
  for (const file of walk(confDir).filter((f) => !/-primary\.(cf|conf\.ext)$/.test(f))) {
    const text = fs.readFileSync(file, "utf8");
    const relative = path.relative(confDir, file);
    const postfixMap = relative.startsWith("postfix") ? file : undefined;
    for (const m of text.matchAll(/^\s*(query|password_query|user_query)\s*=\s*(.+(?:\n\s+.+)*)/gm)) {
      const sql = m[2]!.replace(/\s+/g, " ").trim();
      const name = `${relative}:${m[1]}`;
      out.push({
        name,
        sql,
        postfixMap,
        key: /FROM mail_domains(_for\(|\b)/.test(sql) && !sql.includes("%d") ? "domain" : "address",
      });
      // virtual_alias_maps: an address that is no alias is looked up again as "@domain" (a catchall).
      if (relative.endsWith("virtual-alias-maps.cf"))
        out.push({ name: `${name} (@domain)`, sql, postfixMap, key: "catchall" });
    }
  }
  return out;
}

/** The key the daemon passes for one recipient or login. */
function keyOf(q: MailQuery, address: string): string {
  const domain = address.slice(address.indexOf("@") + 1);
  return q.key === "domain" ? domain : q.key === "catchall" ? `@${domain}` : address;
}

/** The query with its %-expansions filled in as the daemon does: pgsql_table(5) for Postfix, Dovecot's variables. */
export function fill(q: MailQuery, address: string): string {
  const key = keyOf(q, address);
  const at = key.indexOf("@");
  const local = at > 0 ? key.slice(0, at) : "";
  const domain = at >= 0 ? key.slice(at + 1) : key;
  const lit = (s: string) => s.replace(/'/g, "''");
  if (q.postfixMap) return q.sql.replace(/%s/g, lit(key)).replace(/%u/g, lit(local)).replace(/%d/g, lit(domain));
  // Dovecot: %s is the service (imap here), %u the user, %n its local part, %d its domain.
  return q.sql
    .replace(/%s|%\{service\}/g, "imap")
    .replace(/%u|%\{user\}/g, lit(key))
    .replace(/%n|%\{username\}/g, lit(local))
    .replace(/%d|%\{domain\}/g, lit(domain));
}

const readerClient = async (replica: PgCluster) => {
  const c = listened(
    new pg.Client({ connectionString: replica.urlFor({ user: READER.role, password: READER.password }) }),
    "mail reader on the replica",
  );
  await c.connect();
  return c;
};

/**
 * Postfix's own answer (postmap -q on the generated map file, which names the replica) against the same SQL run
 * here, for a few keys per map: the loop below measures what Postfix runs.
 */
export async function postmapAgrees(replica: PgCluster, queries: MailQuery[], sample: string[], work: string) {
  const configDir = path.join(work, "postfix-main");
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(path.join(configDir, "main.cf"), "");
  const c = await readerClient(replica);
  const checked: Record<string, number> = {};
  try {
    for (const q of queries.filter((x) => x.postfixMap)) {
      for (const address of sample.slice(0, 5)) {
        const key = keyOf(q, address);
        const r = spawnSync("postmap", ["-c", configDir, "-q", key, `pgsql:${q.postfixMap}`], { encoding: "utf8" });
        if (r.status !== 0 && r.status !== 1)
          throw new Error(`postmap -q ${key} pgsql:${q.postfixMap}: ${r.stderr.trim()}`);
        const theirs = r.status === 0 ? r.stdout.trim() : "";
        const ours = (await c.query<Record<string, unknown>>(fill(q, address))).rows
          .map((row) => String(Object.values(row)[0]))
          .join(",");
        if (theirs !== ours) throw new Error(`${q.name}, key ${key}: postmap answered "${theirs}", the SQL "${ours}"`);
        checked[q.name] = (checked[q.name] ?? 0) + 1;
      }
    }
  } finally {
    await c.end();
  }
  return checked;
}

/** `slow`: how many took over 50 ms (the issue's limit for any lookup during an import). */
export type Percentiles = { p50: number; p99: number; max: number; n: number; slow: number };

/** `slow`: how many took over 50 ms (the issue's limit for any lookup during an import). */
export function percentiles(durations: Float64Array): Percentiles {
  const sorted = durations.slice().sort(); // numeric: a typed array's sort
  const firstSlow = sorted.findIndex((x) => x > 50);
  return {
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : 0,
    n: sorted.length,
    slow: firstSlow < 0 ? 0 : sorted.length - firstSlow,
  };
}

/** What bench/mail-host.ts is asked to do: `perQuery` lookups of each map in turn, or every map until told "stop". */
export interface MailHostJob {
  url: string;
  queries: MailQuery[];
  sample: string[];
  concurrency: number;
  perQuery?: number;
}

/**
 * The mail host (bench/mail-host.ts, a process of its own) making `job`'s lookups on the replica as the mail reader
 * role; `stop()` ends a job without `perQuery`. Resolves to each map's percentiles.
 */
function mailHost(replica: PgCluster, job: Omit<MailHostJob, "url">) {
  const child = fork(path.join(import.meta.dirname, "mail-host.ts"), {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let isReady: () => void;
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  const result = new Promise<Record<string, Percentiles>>((resolve, reject) => {
    let answer: { result?: Record<string, Percentiles>; error?: string } | undefined;
    child.on("message", (m: { ready?: true } & typeof answer) => (m.ready ? isReady() : (answer = m)));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (answer?.result) resolve(answer.result);
      else reject(new Error(`mail host lookups: ${answer?.error ?? `exited with ${code ?? signal}`}`));
    });
  });
  child.send({ ...job, url: replica.urlFor({ user: READER.role, password: READER.password }) } satisfies MailHostJob);
  // A failed start settles `ready` too, so that a caller waiting for it hears of the failure from `result`.
  result.catch(() => isReady());
  return { ready, result, stop: () => child.connected && child.send("stop") };
}

/** `perQuery` lookups of each map in turn at `concurrency` connections. */
export function lookups(
  replica: PgCluster,
  queries: MailQuery[],
  sample: string[],
  concurrency: number,
  perQuery: number,
) {
  return mailHost(replica, { queries, sample, concurrency, perQuery }).result;
}

/** Imports accounts until done or until `stop()` says another part of the measurement failed. */
export type Importer = (stop: () => boolean) => Promise<void>;

/** Accounts going into a domain, 100 per transaction on one connection, as another process's import would. */
export function sqlImport(primary: PgCluster, domainName: string, count: number): Importer {
  return async (stop) => {
    const client = listened(new pg.Client({ connectionString: primary.url }), "import on the primary");
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number }>("SELECT id FROM domains WHERE name = $1", [domainName]);
      for (let i = 0; i < count && !stop(); i += 100) {
        const names = Array.from({ length: Math.min(100, count - i) }, (_, k) => `import${i + k}`);
        await client.query(
          `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
           SELECT $1, n, n || '@' || $2, 'import', n, 1000, 'x' FROM unnest($3::text[]) AS t(n)`,
          [rows[0]!.id, domainName, names],
        );
      }
    } finally {
      await client.end();
    }
  };
}

/**
 * Replica lag sampled every 100 ms while `importAccounts` runs on the primary and usage is written, with the mail
 * host's lookups running on the replica at 8 connections all the while. The first failure of any of them stops the
 * others and is thrown once every connection is closed.
 */
export async function lagDuringImport(
  primary: PgCluster,
  replica: PgCluster,
  queries: MailQuery[],
  sample: string[],
  importAccounts: Importer,
) {
  const pool = listened(new pg.Pool({ connectionString: primary.url, max: 1 }), "usage on the primary");
  // pg_stat_replication shows the replica's positions only to pg_read_all_stats (the owner sees NULLs there): the
  // sampler reads it as a monitoring role, as an operator's monitoring would.
  const monitor = listened(
    new pg.Pool({ connectionString: primary.urlFor({ user: MONITOR.role, password: MONITOR.password }), max: 1 }),
    "lag sampler on the primary",
  );
  const samples: { bytes: number; seconds: number }[] = [];
  let done = false;
  let failed: { err: unknown } | undefined;
  const fail = (err: unknown) => {
    failed ??= { err };
    done = true;
  };
  const sampler = (async () => {
    while (!done) {
      const r = await monitor.query<{ bytes: number | null; seconds: number }>(
        `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS bytes,
                coalesce(extract(epoch FROM replay_lag), 0)::float8 AS seconds FROM pg_stat_replication`,
      );
      // No row, or no replay position: the replica is not streaming, and a lag of 0 would be a lie.
      const row = r.rows[0];
      if (!row || row.bytes === null) throw new Error("no streaming replica in pg_stat_replication");
      samples.push({ bytes: row.bytes, seconds: row.seconds });
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  const usage = (async () => {
    let i = 0;
    while (!done) {
      await pool.query(
        `INSERT INTO mail_quota (username, bytes, messages) VALUES ($1, $2, $3)
         ON CONFLICT (username) DO UPDATE SET bytes = EXCLUDED.bytes, messages = EXCLUDED.messages`,
        [sample[i++ % sample.length], int(0, 1e9), int(0, 1e5)],
      );
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  // Every map in turn at 8 connections until the import ends.
  const host = mailHost(replica, { queries, sample, concurrency: 8 });
  const mailHostDone = host.result;
  for (const side of [sampler, usage, mailHostDone]) side.catch(fail);
  await host.ready;
  const t0 = performance.now();
  await importAccounts(() => done).catch(fail);
  const importMs = ms(t0);
  done = true;
  host.stop();
  const [, , lookupsMeanwhile] = await Promise.allSettled([sampler, usage, mailHostDone]);
  await Promise.all([pool.end(), monitor.end()]);
  if (failed) throw failed.err;
  return {
    importMs,
    lookupsOnReplica: (lookupsMeanwhile as PromiseFulfilledResult<Record<string, Percentiles>>).value,
    samples: samples.length,
    maxBytes: maxOf(samples.map((s) => s.bytes)),
    maxSeconds: maxOf(samples.map((s) => s.seconds)),
  };
}
