// The second process of the bench: it writes to the bench database while the server is measured, so the
// figures describe a service whose data other processes change, as they do in production. The database is a SQLite
// file or a postgres:// URL (the same writes on either engine).
//   writer.ts quota <db>          between "start" and "stop" messages, upserts mail_quota for random accounts of the
//                                 big domain at QUOTA_WRITES_PER_SECOND, one statement per transaction, as Dovecot's
//                                 quota_clone does on deliveries; answers "stop" with what it wrote.
//   writer.ts import <db> <count> once ready and told "start", adds <count> accounts to the big domain, IMPORT_BATCH
//                                 per transaction, as an import by another process would, reports and exits.
import pg from "pg";
import { openDatabase } from "@/db/client";
import { searchKey } from "@/lib/server/resources/page";
import { BIG_DOMAIN, CITY, FIRST, LAST, ROLE } from "./seed-plan";
import { QUOTA_WRITES_PER_SECOND, type ImportReport, type QuotaReport } from "./writer-messages";

const IMPORT_BATCH = 100;

const [mode, target, countArg] = process.argv.slice(2);
if (!target || (mode !== "quota" && mode !== "import"))
  throw new Error("usage: writer.ts quota|import <file|postgres-url> [count]");
const send = (message: unknown) => process.send?.(message);
// The bench going away ends this process too.
process.on("disconnect", () => process.exit(0));

/** What the two modes need of the database, on either engine. */
interface Target {
  domainId: number;
  emails(): Promise<string[]>;
  upsertQuota(username: string, bytes: number, messages: number): Promise<void>;
  passwordHash(): Promise<string>;
  /** One transaction: the rows inserted one statement each (SQLite) or in one multi-row statement (PostgreSQL). */
  importBatch(rows: { name: string; description: string }[], hash: string): Promise<void>;
}

const UPSERT = `INSERT INTO mail_quota (username, bytes, messages) VALUES ($1, $2, $3)
  ON CONFLICT (username) DO UPDATE SET bytes = excluded.bytes, messages = excluded.messages`;

async function open(): Promise<Target> {
  if (/^postgres(ql)?:\/\//i.test(target!)) {
    // PostgreSQL: one connection, as Dovecot's dict or an importing script would hold; autocommit per statement.
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const domainId = (await client.query<{ id: number }>("SELECT id FROM domains WHERE name = $1", [BIG_DOMAIN]))
      .rows[0]!.id;
    return {
      domainId,
      emails: async () =>
        (await client.query("SELECT email FROM accounts WHERE domain_id = $1", [domainId])).rows.map(
          (r: { email: string }) => r.email,
        ),
      upsertQuota: async (u, b, m) => void (await client.query({ name: "upsert", text: UPSERT, values: [u, b, m] })),
      passwordHash: async () =>
        (
          await client.query<{ password_hash: string }>(
            "SELECT password_hash FROM accounts WHERE domain_id = $1 LIMIT 1",
            [domainId],
          )
        ).rows[0]!.password_hash,
      importBatch: async (rows, hash) => {
        await client.query(
          `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
           SELECT $1, n, n || '@' || $2, d, k, 1024, $3 FROM unnest($4::text[], $5::text[], $6::text[]) AS t(n, d, k)`,
          [
            domainId,
            BIG_DOMAIN,
            hash,
            rows.map((r) => r.name),
            rows.map((r) => r.description),
            rows.map((r) => searchKey(r.name, r.description)),
          ],
        );
      },
    };
  }
  const sqlite = openDatabase(target!).$client;
  const domainId = sqlite.prepare("SELECT id FROM domains WHERE name = ?").pluck().get(BIG_DOMAIN) as number;
  const upsert = sqlite.prepare(UPSERT.replace(/\$\d/g, "?"));
  const insert = sqlite.prepare(
    `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const batch = sqlite.transaction((rows: { name: string; description: string }[], hash: string) => {
    for (const r of rows)
      insert.run(
        domainId,
        r.name,
        `${r.name}@${BIG_DOMAIN}`,
        r.description,
        searchKey(r.name, r.description),
        1024,
        hash,
      );
  });
  return {
    domainId,
    emails: () =>
      Promise.resolve(
        sqlite.prepare("SELECT email FROM accounts WHERE domain_id = ?").pluck().all(domainId) as string[],
      ),
    upsertQuota: (u, b, m) => Promise.resolve(void upsert.run(u, b, m)),
    passwordHash: () =>
      Promise.resolve(
        sqlite
          .prepare("SELECT password_hash FROM accounts WHERE domain_id = ? LIMIT 1")
          .pluck()
          .get(domainId) as string,
      ),
    importBatch: (rows, hash) => Promise.resolve(batch(rows, hash)),
  };
}

const db = await open();
if (mode === "quota") {
  const emails = await db.emails();
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  let writes = 0;
  let busy = false;
  // Catches up with the schedule on each tick, so the rate holds even when a tick comes late.
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const due = Math.floor((QUOTA_WRITES_PER_SECOND * (performance.now() - started)) / 1000);
      for (; writes < due && timer; writes++) {
        const bytes = Math.floor(Math.random() * 2 ** 30);
        await db.upsertQuota(emails[Math.floor(Math.random() * emails.length)]!, bytes, Math.floor(bytes / 50_000));
      }
    } finally {
      busy = false;
    }
  };
  process.on("message", (message) => {
    if (message === "start" && !timer) {
      started = performance.now();
      writes = 0;
      timer = setInterval(() => void tick(), 10);
    } else if (message === "stop" && timer) {
      clearInterval(timer);
      timer = undefined;
      send({ writes, seconds: (performance.now() - started) / 1000 } satisfies QuotaReport);
    }
  });
  send("ready");
} else {
  const count = Number(countArg);
  const hash = await db.passwordHash();
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  // Started, connected and ready: the bench begins measuring when it says "start", so that this process's own
  // start-up (Node compiling this file, about a second of a core) is not counted as the import.
  send("ready");
  await new Promise<void>((resolve) => process.once("message", (message) => message === "start" && resolve()));
  const started = performance.now();
  for (let from = 0; from < count; from += IMPORT_BATCH) {
    const rows = [];
    for (let i = from; i < Math.min(count, from + IMPORT_BATCH); i++) {
      rows.push({
        name: `${pick(FIRST)}.${pick(LAST)}.import${i}`,
        description: `${pick(LAST)} – ${pick(ROLE)}, ${pick(CITY)}`,
      });
    }
    await db.importBatch(rows, hash);
  }
  send({ accounts: count, seconds: (performance.now() - started) / 1000 } satisfies ImportReport);
  process.disconnect?.();
}
