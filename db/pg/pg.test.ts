// A fresh private PostgreSQL cluster migrates (db/pg/migrations), and its triggers and views answer exactly what
// SQLite's answer for the same rows: the domain counters and search version, the mail_quota write-back, the
// sieve version, and every view Postfix, Dovecot and the list service read.
import { eq } from "drizzle-orm";
import fs from "node:fs";
import pg from "pg";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { runPgMigrations } from "../migrate.mjs";
import { openPostgres, type PgDb } from "./client";
import { MAIL_LOOKUP_KEYS, MAIL_VIEWS } from "./mail-reader";
import * as p from "./schema";

let cluster: PgCluster;
let pdb: PgDb;
let sdb: Db;
let dir: string;

const sortRows = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
const pgRows = async (q: string) => (await pdb.$client.query(q)).rows as Record<string, unknown>[];
const sqliteRows = (q: string) => sdb.$client.prepare(q).all() as Record<string, unknown>[];

/** The same SQL on both engines (the fixture and the changes are plain SQL both dialects accept). */
async function both(sqlText: string): Promise<void> {
  sdb.$client.exec(sqlText);
  await pdb.$client.query(sqlText);
}

const domainCounters = async () => {
  const cols = "name, account_count, alias_count, mailinglist_count, capacity_sum";
  return {
    sqlite: sqliteRows(`SELECT ${cols} FROM domains ORDER BY name`),
    pg: await pgRows(`SELECT ${cols} FROM domains ORDER BY name`),
  };
};

beforeAll(async () => {
  cluster = await startPgCluster();
  pdb = await openPostgres(cluster.url);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-pg-views-"));
  sdb = openDatabase(path.join(dir, "mail.db"));
  // Two domains: one with a catchall to an address, one with "same user in the other domain".
  await both(`
    INSERT INTO domains (name, catchall_type, catchall_address, spam_white_list) VALUES
      ('one.test', 1, 'ola@one.test', '["boss@partner.test", "trusted.test"]');
    INSERT INTO domains (name, catchall_type, catchall_address, spam_enabled) VALUES ('two.test', 3, 'one.test', 0);
    INSERT INTO accounts (domain_id, name, email, password_hash, mail_password_hash, search_key, capacity,
      autoresponder_mode, autoresponder_start_date, autoresponder_end_date, autoresponder_body, spam_white_list, spam_rule, spam_hits)
      VALUES (1, 'ola', 'ola@one.test', 'x', '{SHA512-CRYPT}$6$x', 'ola', 100, 1, '2026-07-01', '2026-07-14',
        'Urlop \\ "do 14.07".', '["a@b.test"]', 'tag', 6.5);
    INSERT INTO accounts (domain_id, name, email, password_hash, mail_password_hash, search_key, capacity, forwards, keep_mail)
      VALUES (1, 'jan', 'jan@one.test', 'x', '{SHA512-CRYPT}$6$x', 'jan', 200, '["x@ext.test", "y@ext.test"]', 0);
    INSERT INTO accounts (domain_id, name, email, password_hash, mail_password_hash, search_key, blocked, forwards, keep_mail)
      VALUES (1, 'blocked', 'blocked@one.test', 'x', '{SHA512-CRYPT}$6$x', 'blocked', 1, '["z@ext.test"]', 0);
    INSERT INTO accounts (domain_id, name, email, password_hash, mail_password_hash, search_key, expiration_date)
      VALUES (1, 'expired', 'expired@one.test', 'x', '{SHA512-CRYPT}$6$x', 'expired', '2001-01-01');
    INSERT INTO accounts (domain_id, name, email, password_hash, search_key, autoresponder_mode, autoresponder_body)
      VALUES (1, 'nopass', 'nopass@one.test', 'x', 'nopass', 1, 'Away');
    INSERT INTO accounts (domain_id, name, email, password_hash, mail_password_hash, search_key, capacity, forwards)
      VALUES (2, 'ewa', 'ewa@two.test', 'x', '{SHA512-CRYPT}$6$x', 'ewa', 0, '["ola@one.test"]');
    INSERT INTO aliases (domain_id, name, email, target, search_key) VALUES (1, 'info', 'info@one.test', 'ola@one.test', 'info');
    INSERT INTO aliases (domain_id, name, email, target, search_key) VALUES (2, 'kontakt', 'kontakt@two.test', 'ewa@two.test', 'kontakt');
    INSERT INTO mailing_lists (domain_id, name, email, subscribe_request_mail_body, subscribe_request_mail_subject,
      unsubscribe_request_mail_body, unsubscribe_request_mail_subject, subscribe_mail_body, subscribe_mail_subject,
      unsubscribe_mail_body, unsubscribe_mail_subject) VALUES (1, 'news', 'news@one.test', 'b', 's', 'b', 's', 'b', 's', 'b', 's');
    INSERT INTO list_members (list_id, role, address, position) VALUES (1, 'subscriber', 'a@ext.test', 0), (1, 'moderator', 'ola@one.test', 0);
    INSERT INTO mail_hosts (name, address) VALUES ('imap1', '192.0.2.1');
    INSERT INTO mail_hosts (name, address, imap_port, lmtp_port) VALUES ('imap2', '192.0.2.2', 1143, 2424);
    UPDATE domains SET mail_host = 'imap1' WHERE name = 'one.test';
    UPDATE accounts SET mail_host = 'imap2' WHERE email IN ('jan@one.test', 'ewa@two.test');
  `);
}, 120_000);

afterAll(async () => {
  await pdb?.$client.end();
  await cluster?.stop();
  sdb?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("PostgreSQL migrations on a fresh cluster", () => {
  it("applies every migration once, and again is a no-op (several processes may start at once)", async () => {
    const again = await Promise.all([openPostgres(cluster.url), openPostgres(cluster.url)]);
    for (const d of again) await d.$client.end();
    const applied = await pgRows("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
    const journal = JSON.parse(
      fs.readFileSync(path.join("db", "pg", "migrations", "meta", "_journal.json"), "utf8"),
    ) as { entries: unknown[] };
    expect(applied[0]!.n).toBe(journal.entries.length);
    expect((await pgRows("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'")).length).toBe(1);
  });

  it("migrates through a pool of one connection (DATABASE_POOL_MAX=1): the lock's connection runs the migrations", async () => {
    cluster.psql(`CREATE DATABASE pool_of_one OWNER ${cluster.user}`, "postgres");
    const pool = new pg.Pool({ connectionString: cluster.urlFor({ database: "pool_of_one" }), max: 1 });
    try {
      const journal = JSON.parse(
        fs.readFileSync(path.join("db", "pg", "migrations", "meta", "_journal.json"), "utf8"),
      ) as { entries: unknown[] };
      expect(await runPgMigrations(pool)).toBe(journal.entries.length);
      expect(await runPgMigrations(pool)).toBe(0);
      expect((await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts")).rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  // db/migrate.mjs's guard (the SQLite twin is db/migrate.test.ts): the migrations start from one baseline dated
  // like release 0.1.0's newest migration (0018_sieve_scripts_view).
  describe("from the baseline", () => {
    const RELEASE_0_1_0_NEWEST = 1796000018000;
    const journal = JSON.parse(
      fs.readFileSync(path.join("db", "pg", "migrations", "meta", "_journal.json"), "utf8"),
    ) as { entries: { when: number; tag: string }[] };

    /** A database of its own whose drizzle.__drizzle_migrations holds rows dated `times`, and one table of its own. */
    async function migratedBefore(database: string, times: number[]): Promise<pg.Pool> {
      cluster.psql(`CREATE DATABASE ${database} OWNER ${cluster.user}`, "postgres");
      const pool = new pg.Pool({ connectionString: cluster.urlFor({ database }), max: 2 });
      await pool.query(`CREATE SCHEMA drizzle;
        CREATE TABLE drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);
        CREATE TABLE kept (id integer PRIMARY KEY)`);
      for (const t of times)
        await pool.query("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('h', $1)", [t]);
      return pool;
    }
    /** Everything that could change: the tables and views of both schemas, and the migrations table's rows. */
    const state = async (pool: pg.Pool) => ({
      relations: (
        await pool.query(
          "SELECT relname FROM pg_class WHERE relnamespace IN ('public'::regnamespace, 'drizzle'::regnamespace) ORDER BY 1",
        )
      ).rows,
      migrations: (await pool.query("SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id")).rows,
    });

    /** A copy of the migrations folder whose journal ends at the baseline. */
    function baselineOnly(): string {
      const from = path.join("db", "pg", "migrations");
      const to = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-pg-baseline-"));
      fs.mkdirSync(path.join(to, "meta"));
      const first = journal.entries[0]!;
      fs.copyFileSync(path.join(from, `${first.tag}.sql`), path.join(to, `${first.tag}.sql`));
      fs.writeFileSync(path.join(to, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: [first] }));
      return to;
    }

    it("created this fresh database from the baseline and the migrations after it, dated as the journal says", async () => {
      expect(journal.entries[0]!.when).toBe(RELEASE_0_1_0_NEWEST);
      const rows = await pgRows("SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY id");
      expect(rows.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));
    });

    it("leaves a database of the release before the baseline as it is (its newest migration is dated like it)", async () => {
      const pool = await migratedBefore("at_baseline", [RELEASE_0_1_0_NEWEST - 5000, RELEASE_0_1_0_NEWEST]);
      const folder = baselineOnly();
      try {
        const before = await state(pool);
        expect(await runPgMigrations(pool, folder)).toBe(0);
        expect(await state(pool)).toEqual(before);
      } finally {
        await pool.end();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it("upgrades a database at the baseline: its accounts are found through accounts_order's trigram key", async () => {
      cluster.psql(`CREATE DATABASE upgraded OWNER ${cluster.user}`, "postgres");
      const pool = new pg.Pool({ connectionString: cluster.urlFor({ database: "upgraded" }), max: 2 });
      const folder = baselineOnly();
      try {
        await runPgMigrations(pool, folder);
        await pool.query("INSERT INTO domains (name) VALUES ('up.test')");
        await pool.query(`INSERT INTO accounts (domain_id, name, email, password_hash, search_key)
          SELECT 1, n, n || '@up.test', 'x', n FROM unnest(ARRAY['jan.kowal', 'ewa_nowak', 'ola']) AS n`);
        // Every migration after the baseline (0001 fills accounts_order's trigram key).
        const journal = JSON.parse(
          fs.readFileSync(path.join("db", "pg", "migrations", "meta", "_journal.json"), "utf8"),
        ) as { entries: unknown[] };
        expect(await runPgMigrations(pool)).toBe(journal.entries.length - 1);
        const rows = await pool.query(
          "SELECT name, trigram_key FROM accounts_order WHERE trigram_key LIKE trigram_form('%n.k%') ORDER BY name",
        );
        expect(rows.rows).toEqual([{ name: "jan.kowal", trigram_key: "janqkowal" }]);
        const gone = await pool.query("SELECT to_regclass('accounts_search') AS t");
        expect(gone.rows).toEqual([{ t: null }]);
      } finally {
        await pool.end();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it("refuses a database migrated by an older release, naming the release to migrate it with first, and changes nothing", async () => {
      const pool = await migratedBefore("older_release", [RELEASE_0_1_0_NEWEST - 5000, RELEASE_0_1_0_NEWEST - 3000]);
      try {
        const before = await state(pool);
        await expect(runPgMigrations(pool)).rejects.toThrow(
          /older than the schema baseline of release 0\.2\.0.*release 0\.1\.0 \(commit dda88ef\)/,
        );
        expect(await state(pool)).toEqual(before);
      } finally {
        await pool.end();
      }
    });
  });

  it.each(MAIL_VIEWS)("view %s returns the same rows as SQLite's", async (view) => {
    const pgr = await pgRows(`SELECT * FROM ${view}`);
    expect(pgr.length).toBeGreaterThan(0);
    expect(sortRows(pgr)).toEqual(sortRows(sqliteRows(`SELECT * FROM ${view}`)));
  });

  it.each(Object.entries(MAIL_LOOKUP_KEYS))(
    "%s_for(key) returns the view's rows for each of its keys and none for another",
    async (view, column) => {
      const keys = (await pgRows(`SELECT DISTINCT "${column}" AS k FROM ${view}`)).map((r) => String(r.k));
      expect(keys.length).toBeGreaterThan(0);
      for (const k of [...keys, "nobody@nowhere.test"]) {
        const literal = `'${k.replace(/'/g, "''")}'`;
        const want = await pgRows(`SELECT * FROM ${view} WHERE "${column}" = ${literal}`);
        expect(sortRows(await pgRows(`SELECT * FROM ${view}_for(${literal})`))).toEqual(sortRows(want));
      }
    },
  );

  it("resolves the fixture's addresses as Postfix and Dovecot will ask", async () => {
    const dest = async (a: string) =>
      (await pgRows(`SELECT destination FROM mail_alias_map WHERE address = '${a}'`)).map((r) => r.destination).sort();
    // Forwards, with or without a copy kept: Dovecot gets the message, its Sieve script forwards it.
    expect(await dest("jan@one.test")).toEqual(["jan@one.test"]);
    expect(await dest("ewa@two.test")).toEqual(["ewa@two.test"]);
    expect(await dest("blocked@one.test")).toEqual(["blocked@one.test"]);
    expect(await dest("@two.test")).toEqual(["@one.test"]);
    const users = (await pgRows(`SELECT "user" FROM mail_passdb`)).map((r) => r.user).sort();
    expect(users).toEqual(["ewa@two.test", "jan@one.test", "ola@one.test"]);
    const spam = (
      await pgRows("SELECT script FROM mail_sieve_scripts WHERE username = 'ola@one.test' AND name = 'spam'")
    )[0]!.script;
    expect(spam).toContain('not envelope :all :is "from" ["a@b.test", "boss@partner.test"]');
    expect(spam).toContain('"X-Mailadmin-Spam-Centiscore" "650"');
    // ewa keeps a copy; her domain's filter is off: kept and forwarded as it came.
    const ewa = (
      await pgRows("SELECT script FROM mail_sieve_scripts WHERE username = 'ewa@two.test' AND name = 'spam'")
    )[0]!.script;
    expect(ewa).toContain('  redirect :copy "ola@one.test";\n');
  });

  it("keeps the domain counters like SQLite's triggers: inserts, capacity changes, deletes, cascades", async () => {
    let c = await domainCounters();
    expect(c.pg[0]!).toEqual({
      name: "one.test",
      account_count: 5,
      alias_count: 1,
      mailinglist_count: 1,
      capacity_sum: 100 + 200 + 3 * 1024,
    });
    expect(c.pg).toEqual(c.sqlite);
    await both(`
      UPDATE accounts SET capacity = 300 WHERE name IN ('jan', 'ewa');
      DELETE FROM accounts WHERE name = 'expired';
      DELETE FROM aliases WHERE name = 'kontakt';
    `);
    c = await domainCounters();
    expect(c.pg).toEqual([
      { name: "one.test", account_count: 4, alias_count: 1, mailinglist_count: 1, capacity_sum: 100 + 300 + 2 * 1024 },
      { name: "two.test", account_count: 1, alias_count: 0, mailinglist_count: 0, capacity_sum: 300 },
    ]);
    expect(c.pg).toEqual(c.sqlite);
  });

  it("moves the search version on search-key and anchored sort-key changes, not on the mail server's", async () => {
    const version = async () =>
      (await pgRows("SELECT search_version AS v FROM domains WHERE name = 'one.test'"))[0]!.v as number;
    const v0 = await version();
    await pdb.update(p.accounts).set({ lastAuthDate: "2026-01-01" }).where(eq(p.accounts.name, "jan"));
    expect(await version()).toBe(v0);
    await pdb.update(p.accounts).set({ searchKey: "jan\u0001kowalski" }).where(eq(p.accounts.name, "jan"));
    expect(await version()).toBe(v0 + 1);
    await pdb.insert(p.aliases).values({ domainId: 1, name: "x", email: "x@one.test", target: "jan@one.test" });
    expect(await version()).toBe(v0 + 2);
    // The sort keys db/page-anchors.ts remembers entries of; writing the same value moves nothing.
    await pdb.update(p.accounts).set({ capacity: 400 }).where(eq(p.accounts.name, "jan"));
    await pdb.update(p.accounts).set({ capacity: 400 }).where(eq(p.accounts.name, "jan"));
    await pdb.update(p.accounts).set({ blocked: 1, expirationDate: "2030-01-01" }).where(eq(p.accounts.name, "jan"));
    expect(await version()).toBe(v0 + 4);
    // A description change the search key does not show (its letter case alone, in the services).
    await pdb.update(p.accounts).set({ description: "Opis ZMIANY" }).where(eq(p.accounts.name, "jan"));
    expect(await version()).toBe(v0 + 5);
  });

  it("copies mail_quota upserts (Dovecot's quota_clone) into the account, and forgets them with it", async () => {
    const upsert = (bytes: number, messages: number) =>
      pdb.$client.query(
        "INSERT INTO mail_quota (username, bytes, messages) VALUES ('ola@one.test', $1, $2) ON CONFLICT (username) DO UPDATE SET bytes = EXCLUDED.bytes, messages = EXCLUDED.messages",
        [bytes, messages],
      );
    await upsert(50 * 1048576, 7);
    const [a] = await pdb.select().from(p.accounts).where(eq(p.accounts.name, "ola"));
    expect([a!.usageBytes, a!.usageMessages, a!.usagePercent]).toEqual([50 * 1048576, 7, 50]);
    await upsert(6_000_000_000, 9); // past 2^32: bigint
    const [b] = await pdb.select().from(p.accounts).where(eq(p.accounts.name, "ola"));
    expect([b!.usageBytes, b!.usageMessages, typeof b!.usageBytes]).toEqual([6_000_000_000, 9, "number"]);
    await pdb.delete(p.accounts).where(eq(p.accounts.name, "ola"));
    expect(await pgRows("SELECT * FROM mail_quota")).toEqual([]);
  });

  describe("change announcements (data_changed, db/pg/change-listener.ts)", () => {
    /**
     * Runs each step in its own transaction and returns how many announcements each brought. Announcements arrive in
     * commit order, so a marker notified after a step (a payload of its own) arrives after anything the step sent.
     */
    async function announcementsOf(steps: string[]): Promise<number[]> {
      const listener = new pg.Client({ connectionString: cluster.url });
      await listener.connect();
      let heard = 0;
      let awaited: { payload: string; resolve: () => void } | undefined;
      listener.on("notification", (n) => {
        if (n.payload === "") heard += 1;
        else if (awaited && n.payload === awaited.payload) awaited.resolve();
      });
      try {
        await listener.query("LISTEN data_changed");
        const counts: number[] = [];
        for (const [i, step] of steps.entries()) {
          const before = heard;
          const marker = new Promise<void>((resolve) => (awaited = { payload: `marker ${i}`, resolve }));
          await pdb.$client.query(step);
          await pdb.$client.query(`NOTIFY data_changed, 'marker ${i}'`);
          await marker;
          counts.push(heard - before);
        }
        return counts;
      } finally {
        await listener.end();
      }
    }

    it("mail traffic announces nothing: usage written back, a login's update of no row; a setting does", async () => {
      const quota = (bytes: number) =>
        `INSERT INTO mail_quota (username, bytes, messages) VALUES ('jan@one.test', ${bytes}, 3)
         ON CONFLICT (username) DO UPDATE SET bytes = EXCLUDED.bytes, messages = EXCLUDED.messages`;
      expect(
        await announcementsOf([
          quota(1_000_000),
          quota(2_000_000),
          "UPDATE accounts SET last_auth_date = last_auth_date WHERE name = 'jan' AND false",
          "UPDATE accounts SET blocked = 1 WHERE name = 'jan'",
          "UPDATE accounts SET blocked = 0, last_auth_ip = '192.0.2.9' WHERE name = 'jan'",
          "UPDATE accounts SET capacity = capacity + 1 WHERE name = 'jan'",
        ]),
      ).toEqual([0, 0, 0, 1, 1, 1]);
      const [jan] = await pdb.select().from(p.accounts).where(eq(p.accounts.name, "jan"));
      expect([jan!.usageBytes, jan!.usageMessages]).toEqual([2_000_000, 3]);
    });
  });

  it("expires greylist triplets through the index on (passed, last_seen), both kinds, not by reading the table", async () => {
    const client = await pdb.$client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const plan = await client.query<{ "QUERY PLAN": string }>(
        "EXPLAIN DELETE FROM greylist WHERE (passed = 1 AND last_seen < 100) OR (passed = 0 AND last_seen < 200)",
      );
      const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text.match(/Index Cond: \(\(passed = \d\) AND \(last_seen < \d+\)\)/g)).toHaveLength(2);
      expect(text).toContain("greylist_expiry");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("counts and finds the accounts placed on a mail host through the partial index, not by reading accounts", async () => {
    const client = await pdb.$client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      for (const query of [
        "EXPLAIN SELECT count(*) FROM accounts WHERE mail_host = 'mx2'",
        "EXPLAIN SELECT email FROM accounts WHERE mail_host = 'mx2' LIMIT 1",
      ]) {
        const plan = await client.query<{ "QUERY PLAN": string }>(query);
        expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("accounts_mail_host");
      }
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("bumps the sieve version on autoresponder and alias changes, like SQLite", async () => {
    const v = async () =>
      (await pgRows("SELECT sieve_version AS v FROM accounts WHERE name = 'nopass'"))[0]!.v as number;
    const v0 = await v();
    await pdb.update(p.accounts).set({ autoresponderBody: "Away again" }).where(eq(p.accounts.name, "nopass"));
    expect(await v()).toBe(v0 + 1);
    await pdb.update(p.accounts).set({ capacity: 10 }).where(eq(p.accounts.name, "nopass"));
    expect(await v()).toBe(v0 + 1);
    await pdb.insert(p.aliases).values({ domainId: 1, name: "np", email: "np@one.test", target: "nopass@one.test" });
    expect(await v()).toBe(v0 + 2);
  });

  it("records a change of the mail password hash like SQLite, whatever writes it, and nothing for other updates", async () => {
    const changes = `SELECT email, changed_at > 0 AS dated FROM mail_password_changes ORDER BY id`;
    // A bulk update of two accounts, a one-row update, and updates that keep the hash.
    await both(`
      UPDATE accounts SET mail_password_hash = mail_password_hash || 'y' WHERE email IN ('blocked@one.test', 'jan@one.test');
      UPDATE accounts SET mail_password_hash = '' WHERE email = 'ewa@two.test';
      UPDATE accounts SET mail_password_hash = mail_password_hash, capacity = capacity + 1;
      UPDATE accounts SET usage_bytes = 7 WHERE email = 'jan@one.test';
    `);
    const pgChanges = (await pgRows(changes)).map((r) => ({ ...r, dated: r.dated ? 1 : 0 }));
    expect(sortRows(pgChanges)).toEqual(sortRows(sqliteRows(changes)));
    expect(sortRows(pgChanges)).toEqual(
      sortRows(["blocked@one.test", "jan@one.test", "ewa@two.test"].map((email) => ({ email, dated: 1 }))),
    );
    const [row] = await pgRows(`SELECT changed_at FROM mail_password_changes ORDER BY id LIMIT 1`);
    expect(Math.abs(Number(row!.changed_at) - Date.now())).toBeLessThan(60_000);
  });

  it("deletes a domain with everything in it (ON DELETE CASCADE) and its triggers do not get in the way", async () => {
    await pdb.delete(p.domains).where(eq(p.domains.name, "one.test"));
    expect(await pgRows("SELECT email FROM accounts ORDER BY email")).toEqual([{ email: "ewa@two.test" }]);
    expect(await pgRows("SELECT * FROM list_members")).toEqual([]);
  });

  it("answers a substring search of the accounts through the trigram index of accounts_order", async () => {
    const client = await pdb.$client.connect();
    try {
      // A handful of rows: the planner would scan the table; forbidding the scan shows the index answers ILIKE.
      await client.query("SET enable_seqscan = off");
      const plan = (await client.query("EXPLAIN SELECT account_id FROM accounts_order WHERE trigram_key LIKE '%ewa%'"))
        .rows as Record<string, unknown>[];
      expect(plan.map((r) => Object.values(r)[0]).join("\n")).toContain("accounts_order_words_trgm");
      expect(
        (
          await client.query(
            "SELECT a.email FROM accounts_order s JOIN accounts a ON a.id = s.account_id WHERE s.search_key LIKE '%ewa%'",
          )
        ).rows,
      ).toEqual([{ email: "ewa@two.test" }]);
    } finally {
      client.release();
    }
  });

  it("keeps the trigram indexes' pending lists small and the accounts vacuumed often", async () => {
    const rows = await pgRows(
      "SELECT relname, reloptions FROM pg_class WHERE relkind = 'i' AND relname LIKE '%trgm' ORDER BY relname",
    );
    expect(rows.map((r) => r.relname)).toEqual([
      "accounts_order_words_trgm",
      "aliases_search_trgm",
      "audit_log_search_trgm",
      "mailing_lists_search_trgm",
    ]);
    for (const r of rows) expect(r.reloptions, String(r.relname)).toEqual(["gin_pending_list_limit=256"]);
    // ...and vacuumed (the visibility map refreshed) after 1% of the accounts changed, not 20%.
    const [accounts] = await pgRows("SELECT reloptions FROM pg_class WHERE relname = 'accounts'");
    expect(accounts?.reloptions).toEqual(
      expect.arrayContaining(["autovacuum_vacuum_scale_factor=0.01", "autovacuum_vacuum_insert_scale_factor=0.01"]),
    );
  });

  it("never truncates a table the mail views read: replicas would replay the truncation's lock and stall lookups", async () => {
    // The tables behind MAIL_VIEWS, through views of views too, from the views' rewrite rules.
    const rows = await pdb.$client.query(
      `WITH RECURSIVE used(oid) AS (
         SELECT oid FROM pg_class WHERE relname = ANY($1) AND relkind = 'v'
         UNION
         SELECT d.refobjid FROM used u JOIN pg_rewrite r ON r.ev_class = u.oid
           JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass
       )
       SELECT c.relname, c.reloptions FROM used JOIN pg_class c ON c.oid = used.oid WHERE c.relkind = 'r' ORDER BY 1`,
      [MAIL_VIEWS],
    );
    const tables = rows.rows as { relname: string; reloptions: string[] | null }[];
    expect(tables.map((t) => t.relname)).toEqual([
      "accounts",
      "aliases",
      "domains",
      "mail_hosts",
      "mailing_lists",
      "removed_mailboxes",
    ]);
    for (const t of tables) expect(t.reloptions ?? [], t.relname).toContain("vacuum_truncate=false");
  });

  it("mirrors every account's domain and search key (and its trigram form) in accounts_order, whatever the write", async () => {
    const drift = () =>
      pgRows(`SELECT a.id, s.account_id FROM accounts a FULL JOIN accounts_order s ON s.account_id = a.id
              WHERE a.id IS NULL OR s.account_id IS NULL OR s.search_key <> a.search_key OR s.domain_id <> a.domain_id
                 OR s.trigram_key <> trigram_form(a.search_key)`);
    const rows = async () => Number((await pgRows("SELECT count(*) AS n FROM accounts_order"))[0]?.n);
    expect(await drift()).toEqual([]);
    const before = await rows();
    await pdb.$client.query(`INSERT INTO accounts (domain_id, name, email, password_hash, search_key)
      SELECT id, 'nowy' || i, 'nowy' || i || '@two.test', 'x', 'nowy' || i FROM domains, generate_series(1, 3) AS i WHERE name = 'two.test'`);
    expect(await rows()).toBe(before + 3);
    await pdb.$client.query(
      "UPDATE accounts SET search_key = 'zmieniony.opis', description = 'zmieniony.opis' WHERE name = 'nowy1'",
    );
    await pdb.$client.query("INSERT INTO mail_quota (username, bytes, messages) VALUES ('nowy2@two.test', 5, 1)");
    await pdb.$client.query("DELETE FROM accounts WHERE name = 'nowy3'");
    expect(await drift()).toEqual([]);
    expect(await pgRows("SELECT search_key FROM accounts_order WHERE trigram_key = 'zmienionyqopis'")).toHaveLength(1);
    expect(await rows()).toBe(before + 2);
  });

  it("keeps a bulk update linear after one-row updates on the same connection", async () => {
    // PL/pgSQL plans a trigger's statements once per connection, for the first call's transition tables: after
    // one-row updates (a delivery's usage, a login), a join of old_rows and new_rows became a nested loop, and
    // 2,000 rows took 2,000 x 2,000 comparisons per such statement (tens of seconds here; ~0.2 s without the joins).
    await pdb.$client.query("INSERT INTO domains (name) VALUES ('bulk.test')");
    await pdb.$client.query(`INSERT INTO accounts (domain_id, name, email, password_hash, search_key, capacity)
      SELECT d.id, 'b' || i, 'b' || i || '@bulk.test', 'x', 'b' || i, 100 FROM domains d, generate_series(1, 2000) AS i WHERE d.name = 'bulk.test'`);
    const counters = async () =>
      (
        await pgRows(
          "SELECT account_count AS n, capacity_sum AS cap, search_version AS v FROM domains WHERE name = 'bulk.test'",
        )
      )[0] as { n: number; cap: number; v: number };
    const before = await counters();
    expect([before.n, Number(before.cap)]).toEqual([2000, 200_000]);
    // A connection of its own: the plans it caches are made by the calls below.
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      for (let i = 1; i <= 3; i++) {
        await client.query("UPDATE accounts SET usage_bytes = $1, capacity = 101, search_key = $2 WHERE email = $3", [
          i,
          `b${i}!`,
          `b${i}@bulk.test`,
        ]);
      }
      const started = performance.now();
      await client.query(
        "UPDATE accounts SET description = 'opis', search_key = name || '\u0001opis', capacity = 200 WHERE domain_id = (SELECT id FROM domains WHERE name = 'bulk.test')",
      );
      const ms = performance.now() - started;
      expect(ms).toBeLessThan(3000);
    } finally {
      await client.end();
    }
    const after = await counters();
    expect([after.n, Number(after.cap)]).toEqual([2000, 400_000]);
    // Once for each of the three one-row key changes, once for the bulk statement.
    expect(Number(after.v)).toBe(Number(before.v) + 4);
    const stale = await pgRows(`SELECT a.name FROM accounts a
      JOIN accounts_order o ON o.account_id = a.id
      WHERE a.domain_id = (SELECT id FROM domains WHERE name = 'bulk.test')
        AND (o.trigram_key <> trigram_form(a.search_key) OR o.search_key <> a.search_key
             OR o.description <> a.description OR o.capacity <> a.capacity)`);
    expect(stale).toEqual([]);
  }, 60_000);
});
