// The PostgreSQL dialect's list pages (db/pg/dialect.ts): pages in code point order read from the sort indexes in
// that order (not a sort of the whole domain), and a search's remembered total following every change of the
// domain's rows, made by any connection (another process, another host).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { setDialect, type PageSpec } from "@/db/dialect";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import type { PageQuery } from "@/lib/schemas/page-query";
import { openPostgres, type PgDb } from "./client";
import { pgDialect } from "./dialect";

vi.mock("server-only", () => ({}));

let cluster: PgCluster;
let pdb: PgDb;
let db: Db;

const spec: PageSpec<{ name: string }> = {
  table: "accounts",
  columns: "name",
  sortColumns: { name: "name", description: "description", capacity: "capacity" },
  toItem: (r) => r,
};
const query = (over: Partial<PageQuery>): PageQuery => ({
  page: 0,
  size: 50,
  search: "",
  sort: "name",
  sortDir: "asc",
  ...over,
});
const sql = (text: string, values: unknown[] = []) => pdb.$client.query(text, values);
/** Records the statements the pool is sent (to see which one read a page and how PostgreSQL plans it). */
function recordStatements() {
  const sent: { text: string; values: unknown[] }[] = [];
  const query0 = pdb.$client.query.bind(pdb.$client) as (...a: unknown[]) => unknown;
  const spy = vi.spyOn(pdb.$client, "query").mockImplementation((...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    sent.push(
      typeof first === "string"
        ? { text: first, values: second ?? [] }
        : { text: first.text, values: first.values ?? second ?? [] },
    );
    return query0(...args);
  });
  return { sent, spy };
}

beforeAll(async () => {
  cluster = await startPgCluster();
  pdb = await openPostgres(cluster.url);
  db = setDialect(pdb, pgDialect) as unknown as Db;
  await sql("INSERT INTO domains (name, account_limit) VALUES ('big.test', 100000)");
  // 3,000 accounts, every third one a "kowal"; names with upper case and digits, whose code point order differs
  // from a linguistic one.
  await sql(
    `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
     SELECT 1, n, n || '@big.test', d, lower(n || chr(1) || d), 1 + i % 7, 'x'
     FROM (SELECT i, CASE WHEN i % 3 = 0 THEN 'kowal' ELSE 'Nowak' END || '_' || i AS n, 'Opis ' || (i % 11) AS d
           FROM generate_series(1, 3000) AS i) AS t`,
  );
  await sql("ANALYZE accounts, accounts_order");
}, 120_000);

afterAll(async () => {
  await pdb?.$client.end();
  await cluster?.stop();
});

describe("PostgreSQL list pages", () => {
  it("reads pages in code point order from the sort indexes", async () => {
    const all = (await sql("SELECT name, description, capacity FROM accounts WHERE domain_id = 1")).rows as {
      name: string;
      description: string;
      capacity: number;
    }[];
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const byName = all.map((r) => r.name).sort(cp);
    const byCapacity = [...all].sort((a, b) => a.capacity - b.capacity || cp(a.name, b.name)).map((r) => r.name);
    const page = await pgDialect.pageRows(db, spec, 1, query({ page: 3, size: 20 }));
    expect(page.total).toBe(3000);
    expect(page.rows.map((r) => r.name)).toEqual(byName.slice(60, 80));
    const desc = await pgDialect.pageRows(db, spec, 1, query({ sort: "capacity", sortDir: "desc", size: 10 }));
    expect(desc.rows.map((r) => r.name)).toEqual(
      [...all]
        .sort((a, b) => b.capacity - a.capacity || cp(b.name, a.name))
        .map((r) => r.name)
        .slice(0, 10),
    );
    expect(
      (await pgDialect.pageRows(db, spec, 1, query({ sort: "capacity", page: 2, size: 25 }))).rows.map((r) => r.name),
    ).toEqual(byCapacity.slice(50, 75));
    // The plans: an index read in order, no sort of the domain's rows (these sorts walk accounts_order, 0009).
    for (const order of [
      `name COLLATE "C"`,
      `capacity, name COLLATE "C"`,
      `description COLLATE "C", name COLLATE "C"`,
    ]) {
      await sql("SET enable_seqscan = off");
      const plan = (
        await sql(`EXPLAIN SELECT name FROM accounts_order WHERE domain_id = 1 ORDER BY ${order} LIMIT 50`)
      ).rows
        .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
        .join("\n");
      await sql("RESET enable_seqscan");
      expect(plan).toMatch(/Index (Only )?Scan/);
      expect(plan).not.toMatch(/Sort/);
    }
  });

  it("keeps a search's total only while the domain's rows are unchanged, whoever changes them", async () => {
    const kowal = () => pgDialect.pageRows(db, spec, 1, query({ search: "kowal" }));
    expect((await kowal()).total).toBe(1000);
    expect((await kowal()).total).toBe(1000); // remembered
    // Another connection (another process or host) adds a match...
    const other = new (await import("pg")).default.Client({ connectionString: cluster.url });
    await other.connect();
    try {
      await other.query(
        `INSERT INTO accounts (domain_id, name, email, search_key, password_hash) VALUES (1, 'kowalska', 'kowalska@big.test', 'kowalska', 'x')`,
      );
      expect((await kowal()).total).toBe(1001);
      // ...changes a search key so that a row stops matching...
      await other.query(`UPDATE accounts SET description = 'x', search_key = 'nowak_3' WHERE name = 'kowal_3'`);
      expect((await kowal()).total).toBe(1000);
      // ...or writes usage (the mail server's quota write-back), which leaves the search version alone.
      await other.query(`INSERT INTO mail_quota (username, bytes, messages) VALUES ('kowal_6@big.test', 1000, 1)`);
      expect((await kowal()).total).toBe(1000);
      await other.query(`DELETE FROM accounts WHERE name IN ('kowal_9', 'kowal_12')`);
      expect((await kowal()).total).toBe(998);
    } finally {
      await other.end();
    }
  });
});

describe("the sorts the mail server does not change (accounts_order)", () => {
  it("are every sort of the accounts but usage", async () => {
    const onCopy = (
      await sql("SELECT indexname FROM pg_indexes WHERE tablename = 'accounts_order' ORDER BY 1")
    ).rows.map((r: { indexname: string }) => r.indexname);
    expect(onCopy).toEqual([
      "accounts_order_blocked",
      "accounts_order_capacity",
      "accounts_order_creation",
      "accounts_order_description",
      "accounts_order_expiration",
      "accounts_order_last_auth",
      "accounts_order_name",
      "accounts_order_pkey",
      "accounts_order_words_trgm",
    ]);
    const onAccounts = (await sql("SELECT indexname FROM pg_indexes WHERE tablename = 'accounts' ORDER BY 1")).rows.map(
      (r: { indexname: string }) => r.indexname,
    );
    // accounts_mail_host is partial: a delivery's new row version adds to it only for an account placed apart.
    expect(onAccounts).toEqual([
      "accounts_domain_name",
      "accounts_email",
      "accounts_mail_host",
      "accounts_pkey",
      "accounts_sort_email",
      "accounts_sort_usage",
      "accounts_sort_usage_bytes",
    ]);
  });

  it("walk accounts_order, whose index answers without the table while deliveries update the accounts", async () => {
    // Vacuumed until its pages are all-visible (an autovacuum's ANALYZE of the accounts just inserted may hold a
    // snapshot for a moment, and a page is marked only once no snapshot can miss its rows).
    const bareWalk = async () =>
      (
        await sql(
          `EXPLAIN (ANALYZE) SELECT name FROM accounts_order WHERE domain_id = 1 ORDER BY capacity, name COLLATE "C" LIMIT 50 OFFSET 2000`,
        )
      ).rows
        .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
        .join("\n");
    for (let i = 0; i < 40; i++) {
      await sql("VACUUM (ANALYZE) accounts_order");
      if (/Heap Fetches: 0\b/.test(await bareWalk())) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await bareWalk()).toMatch(/Heap Fetches: 0\b/);
    // Deliveries (Dovecot's quota write-back) to a third of the accounts: each is a new version of an account's row.
    await sql(`INSERT INTO mail_quota (username, bytes, messages) SELECT email, 1000 + id, 1 FROM accounts WHERE domain_id = 1 AND id % 3 = 0
               ON CONFLICT (username) DO UPDATE SET bytes = excluded.bytes`);
    const all = (await sql("SELECT name, capacity FROM accounts WHERE domain_id = 1")).rows as {
      name: string;
      capacity: number;
    }[];
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const byCapacity = [...all].sort((a, b) => a.capacity - b.capacity || cp(a.name, b.name)).map((r) => r.name);
    const { sent, spy } = recordStatements();
    try {
      const page = await pgDialect.pageRows(db, spec, 1, query({ sort: "capacity", page: 40, size: 50 }));
      expect(page.rows.map((r) => r.name)).toEqual(byCapacity.slice(2000, 2050));
    } finally {
      spy.mockRestore();
    }
    const walk = sent.find((s) => s.text.includes("accounts_order"));
    expect(walk).toBeDefined();
    await sql("SET enable_seqscan = off");
    const plan = (await sql(`EXPLAIN (ANALYZE, FORMAT TEXT) ${walk!.text}`, walk!.values)).rows
      .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
      .join("\n");
    await sql("RESET enable_seqscan");
    expect(plan).toMatch(/Index Only Scan using accounts_order_capacity/);
    expect(plan).toMatch(/Heap Fetches: 0\b/);
    // The same walk over the accounts' own rows would visit the table for every row a delivery changed.
    const onAccounts = (
      await sql(
        `EXPLAIN (ANALYZE) SELECT name FROM accounts WHERE domain_id = 1 ORDER BY usage_bytes, name COLLATE "C" LIMIT 50 OFFSET 2000`,
      )
    ).rows
      .map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"])
      .join("\n");
    expect(onAccounts).toMatch(/Heap Fetches: [1-9]/);
  });

  it("keep every account's sort keys in step, whatever the write", async () => {
    const drift = () =>
      sql(`SELECT a.id, o.account_id FROM accounts a FULL JOIN accounts_order o ON o.account_id = a.id
           WHERE a.id IS NULL OR o.account_id IS NULL
              OR (a.domain_id, a.name, a.search_key, a.description, a.capacity, a.blocked, a.creation_date, a.expiration_date, a.last_auth_date)
                 IS DISTINCT FROM (o.domain_id, o.name, o.search_key, o.description, o.capacity, o.blocked, o.creation_date, o.expiration_date, o.last_auth_date)`);
    expect((await drift()).rows).toEqual([]);
    await sql(`INSERT INTO accounts (domain_id, name, email, search_key, password_hash)
               SELECT 1, 'sort' || i, 'sort' || i || '@big.test', 'sort' || i, 'x' FROM generate_series(1, 4) AS i`);
    await sql(
      "UPDATE accounts SET name = 'sorted1', email = 'sorted1@big.test', search_key = 'sorted1' WHERE name = 'sort1'",
    );
    await sql(
      "UPDATE accounts SET capacity = 77, blocked = 1, description = 'opis', expiration_date = '2030-01-01' WHERE name = 'sort2'",
    );
    await sql("UPDATE accounts SET creation_date = '2020-02-02', last_auth_date = '2026-01-01' WHERE name = 'sort3'");
    await sql("DELETE FROM accounts WHERE name = 'sort4'");
    expect((await drift()).rows).toEqual([]);
    expect((await sql("SELECT capacity, blocked FROM accounts_order WHERE name = 'sort2'")).rows).toEqual([
      { capacity: 77, blocked: 1 },
    ]);
    expect((await sql("SELECT last_auth_date FROM accounts_order WHERE name = 'sort3'")).rows).toEqual([
      { last_auth_date: "2026-01-01" },
    ]);
  });
});

describe("a new search with few matches", () => {
  it("reads its page by the ids the count found, in the same order as the sort index would give", async () => {
    // "opis 10": every 11th account (272 of 3,000), fewer than byIdsUpTo's bound for a first page (387).
    const all = (await sql("SELECT name, capacity FROM accounts WHERE domain_id = 1 AND search_key LIKE '%opis 10%'"))
      .rows as { name: string; capacity: number }[];
    expect(all.length).toBeGreaterThan(100);
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const byCapacityDesc = [...all].sort((a, b) => b.capacity - a.capacity || cp(b.name, a.name)).map((r) => r.name);
    // Many small domains besides (as on a hosting server): a plan made for any domain then expects a few rows per
    // domain, which is what made `id = ANY($1)` walk the domain's index.
    await sql(`INSERT INTO domains (name) SELECT 'small' || i || '.test' FROM generate_series(1, 400) AS i`);
    await sql(`INSERT INTO accounts (domain_id, name, email, search_key, password_hash)
               SELECT d.id, 'a' || j, 'a' || j || '@' || d.name, 'a' || j, 'x' FROM domains d, generate_series(1, 2) AS j WHERE d.name LIKE 'small%'`);
    await sql("ANALYZE accounts");
    // The statements the pool is sent, to see which one read the page and how PostgreSQL plans it.
    const { sent, spy } = recordStatements();
    try {
      const page = await pgDialect.pageRows(
        db,
        spec,
        1,
        query({ search: "opis 10", sort: "capacity", sortDir: "desc", page: 2, size: 25 }),
      );
      expect(page.total).toBe(all.length);
      expect(page.rows.map((r) => r.name)).toEqual(byCapacityDesc.slice(50, 75));
    } finally {
      spy.mockRestore();
    }
    const byId = sent.filter((s) => s.text.includes("unnest("));
    expect(byId).toHaveLength(1);
    // Planned for this domain and these ids: the ids joined, not the domain's sort index walked (a plan kept for
    // "any domain" did that). On this small table a scan and a hash join; at 100,000 accounts, lookups by id.
    const plan = await pdb.$client.query(`EXPLAIN ${byId[0]!.text}`, byId[0]!.values);
    const text = plan.rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
    expect(text).toMatch(/Function Scan on unnest/);
    expect(text).not.toMatch(/accounts_sort_/);
    // Past the last match: the total and no rows.
    expect(await pgDialect.pageRows(db, spec, 1, query({ search: "opis 10", page: 100, size: 25 }))).toEqual({
      total: all.length,
      rows: [],
    });
  });
});

describe("a new search sorted by a key of accounts_order", () => {
  it("counts its matches and takes its page's ids in one scan, whatever the page", async () => {
    const all = (
      await sql("SELECT name, description, capacity FROM accounts WHERE domain_id = 1 AND search_key LIKE '%owal%'")
    ).rows as { name: string; description: string; capacity: number }[];
    // More matches than byIdsUpTo's bound for a first page: a count alone would not have handed over the ids.
    expect(all.length).toBeGreaterThan(900);
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const byCapacityDesc = [...all].sort((a, b) => b.capacity - a.capacity || cp(b.name, a.name)).map((r) => r.name);
    const byDescription = [...all].sort((a, b) => cp(a.description, b.description) || cp(a.name, b.name));
    const cases: [Partial<PageQuery>, string[]][] = [
      [{ sort: "capacity", sortDir: "desc", page: 0, size: 20 }, byCapacityDesc.slice(0, 20)],
      [{ sort: "capacity", sortDir: "desc", page: 7, size: 20 }, byCapacityDesc.slice(140, 160)],
      [{ sort: "description", page: 3, size: 30 }, byDescription.map((r) => r.name).slice(90, 120)],
      [
        { sort: "name", page: 1, size: 50 },
        all
          .map((r) => r.name)
          .sort(cp)
          .slice(50, 100),
      ],
      // The last page, partly filled.
      [
        { sort: "capacity", sortDir: "desc", page: Math.floor(all.length / 50), size: 50 },
        byCapacityDesc.slice(Math.floor(all.length / 50) * 50),
      ],
    ];
    let i = 0;
    for (const [over, expected] of cases) {
      // Not remembered: a change of a search key elsewhere in the domain moves its search version.
      await sql("UPDATE accounts SET search_key = $1 WHERE name = 'Nowak_1'", [`nowak_1\u0001opis 1#${i++}`]);
      const { sent, spy } = recordStatements();
      let page;
      try {
        page = await pgDialect.pageRows(db, spec, 1, query({ search: "owal", ...over }));
      } finally {
        spy.mockRestore();
      }
      const label = JSON.stringify(over);
      expect(page.total, label).toBe(all.length);
      expect(
        page.rows.map((r) => r.name),
        label,
      ).toEqual(expected);
      // The domain's row, the one scan of the matches, the page's rows by id: no walk of a sort index.
      expect(sent, label).toHaveLength(3);
      expect(sent[1]!.text, label).toContain("MATERIALIZED");
      expect(sent[2]!.text, label).toContain("unnest(");
    }
  });

  it("answers no match, and a page past the last match, with the total", async () => {
    await sql("UPDATE accounts SET search_key = $1 WHERE name = 'Nowak_1'", ["nowak_1\u0001opis 1#none"]);
    expect(await pgDialect.pageRows(db, spec, 1, query({ search: "brak", sort: "capacity" }))).toEqual({
      total: 0,
      rows: [],
    });
    const [{ n }] = (
      await sql("SELECT count(*)::int AS n FROM accounts WHERE domain_id = 1 AND search_key LIKE '%owal_2%'")
    ).rows as [{ n: number }];
    expect(n).toBeGreaterThan(100);
    const past = query({ search: "owal_2", sort: "capacity", page: Math.ceil(n / 25) + 3, size: 25 });
    expect(await pgDialect.pageRows(db, spec, 1, past)).toEqual({ total: n, rows: [] });
    // Remembered: the next page of the same search has the same total.
    const first = await pgDialect.pageRows(db, spec, 1, query({ search: "owal_2", sort: "capacity", size: 25 }));
    expect(first.total).toBe(n);
    expect(first.rows).toHaveLength(25);
  });
});

describe("a search with a dot, a dash or an underscore (trigram_form)", () => {
  it("counts exactly what contains it, though its trigram form is shared with q, x and v", async () => {
    await sql("INSERT INTO domains (name) VALUES ('marks.test')");
    const names = ["ab.cd", "abqcd", "ab-cd", "abxcd", "ab_cd", "abvcd", "ab.cd.ef"];
    await sql(
      `INSERT INTO accounts (domain_id, name, email, search_key, password_hash)
               SELECT d.id, n, n || '@marks.test', n, 'x' FROM domains d, unnest($1::text[]) AS n WHERE d.name = 'marks.test'`,
      [names],
    );
    const [{ id }] = (await sql("SELECT id FROM domains WHERE name = 'marks.test'")).rows as [{ id: number }];
    for (const term of ["b.c", "bqc", "b-c", "bxc", "b_c", "bvc", "d.e", "."]) {
      const page = await pgDialect.pageRows(db, spec, id, query({ search: term }));
      expect(
        page.rows.map((r) => r.name),
        term,
      ).toEqual(names.filter((n) => n.includes(term)).sort());
      expect(page.total, term).toBe(names.filter((n) => n.includes(term)).length);
    }
    // The big domain's names have underscores: "l_3" finds every kowal_3... (strpos: no pattern), nothing else.
    const [{ n }] = (
      await sql("SELECT count(*)::int AS n FROM accounts WHERE domain_id = 1 AND strpos(search_key, 'l_3') > 0")
    ).rows as [{ n: number }];
    const found = await pgDialect.pageRows(db, spec, 1, query({ search: "l_3", size: 200 }));
    expect(found.total).toBe(n);
    expect(found.total).toBeGreaterThan(30);
  });

  it("finds its candidates by trigrams that span the dot", async () => {
    const [{ t }] = (await sql("SELECT trigram_form('jan.kowal-ski_1') AS t")).rows as [{ t: string }];
    expect(t).toBe("janqkowalxskiv1");
    const client = await pdb.$client.connect();
    try {
      await client.query("SET enable_seqscan = off");
      // As the dialect sends it: the escaped pattern through trigram_form, as a parameter of an unnamed statement.
      const plan = await client.query(
        "EXPLAIN SELECT account_id FROM accounts_order WHERE trigram_key LIKE trigram_form($1)",
        ["%l\\_3%"],
      );
      expect(plan.rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n")).toContain(
        "accounts_order_words_trgm",
      );
      // pg_trgm's own reading of the two forms: "l_3" is the words "l" and "3"; "lv3" is one word.
      const words = (await client.query("SELECT show_trgm('l_3') AS plain, show_trgm('lv3') AS joined")).rows as [
        { plain: string[]; joined: string[] },
      ];
      expect(words[0].joined).toContain("lv3");
      expect(words[0].plain).not.toContain("l_3");
    } finally {
      client.release();
    }
  });
});

describe("a list that fits in one page", () => {
  it("is read with its total and the domain's row in one statement, which never reads a bigger domain's rows", async () => {
    const inserted = await sql("INSERT INTO domains (name, account_limit) VALUES ('small.test', 10) RETURNING id");
    const id = (inserted.rows[0] as { id: number }).id;
    await sql(
      `INSERT INTO accounts (domain_id, name, email, search_key, password_hash)
               SELECT $1::integer, n, n || '@small.test', lower(n), 'x' FROM unnest(ARRAY['kowal_b', 'Kowal_a', 'nowak']) AS n`,
      [id],
    );
    const { sent, spy } = recordStatements();
    try {
      const small = await pgDialect.pageRows(db, spec, id, query({ search: "kowal" }));
      expect(small).toEqual({ total: 2, rows: [{ name: "Kowal_a" }, { name: "kowal_b" }] });
      expect(await pgDialect.pageRows(db, spec, id, query({ page: 1, size: 3 }))).toEqual({ total: 3, rows: [] });
      expect(sent).toHaveLength(2);
      sent.length = 0;
      await pgDialect.pageRows(db, spec, 1, query({ search: "kowal" }));
      // The same statement on the 3,000-account domain: its rows are not read.
      const plan = await sql(`EXPLAIN (ANALYZE, COSTS OFF) ${sent[0]!.text}`, sent[0]!.values);
      const lines = (plan.rows as { "QUERY PLAN": string }[]).map((r) => r["QUERY PLAN"]);
      expect(lines.join("\n")).toMatch(/One-Time Filter/);
      expect(lines.filter((l) => / on accounts\b/.test(l)).every((l) => l.includes("never executed"))).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("statements prepared once (lib/server/store/prepared.ts)", () => {
  it("are named on PostgreSQL, so each connection parses and plans them once", async () => {
    const { prepared } = await import("@/lib/server/store/prepared");
    const { eq, sql: drizzleSql } = await import("drizzle-orm");
    const { domains } = await import("@/db/schema");
    // One connection, so that pg_prepared_statements (per connection) sees what the statement did.
    const one = await openPostgres(cluster.url, { max: 1, migrate: false });
    try {
      const oneDb = setDialect(one, pgDialect) as unknown as Db;
      const statements = prepared((d) => ({
        byName: d
          .select({ id: domains.id })
          .from(domains)
          .where(eq(domains.name, drizzleSql.placeholder("name")))
          .prepare(),
      }));
      for (let i = 0; i < 3; i++)
        expect(await statements(oneDb).byName.execute({ name: "big.test" })).toEqual([{ id: 1 }]);
      const named = await one.$client.query<{ name: string }>(
        "SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%from \"domains\"%'",
      );
      expect(named.rows).toHaveLength(1);
      expect(named.rows[0]?.name).toMatch(/^s_[0-9a-f]{20}$/);
    } finally {
      await one.$client.end();
    }
  });
});

describe("deep pages without a search (db/page-anchors.ts)", () => {
  const SORTS = ["name", "capacity", "creation_date", "expiration_date", "description", "blocked"];
  const deepSpec: PageSpec<{ name: string }> = {
    table: "accounts",
    columns: "name",
    sortColumns: Object.fromEntries(SORTS.map((s) => [s, s])),
    toItem: (r) => r,
  };
  let deepId: number;

  /** The deep `pages` of every anchored sort, both ways, in that order, against plain OFFSET in code point order. */
  async function expectPagesAsOffset(pages: number[]) {
    for (const sort of SORTS)
      for (const dir of ["ASC", "DESC"] as const)
        for (const page of pages) {
          const got = await pgDialect.pageRows(
            db,
            deepSpec,
            deepId,
            query({ page, sort, sortDir: dir === "DESC" ? "desc" : "asc" }),
          );
          const key = sort === "capacity" || sort === "blocked" ? sort : `${sort} COLLATE "C"`;
          const want = await sql(
            `SELECT name FROM accounts WHERE domain_id = $1 ORDER BY ${key} ${dir}, name COLLATE "C" ${dir} LIMIT 50 OFFSET $2`,
            [deepId, page * 50],
          );
          expect(
            got.rows.map((r) => r.name),
            `${sort} ${dir} page ${page}`,
          ).toEqual(want.rows.map((r) => (r as { name: string }).name));
        }
  }

  beforeAll(async () => {
    const inserted = await sql("INSERT INTO domains (name, account_limit) VALUES ('deep.test', 10000) RETURNING id");
    deepId = (inserted.rows[0] as { id: number }).id;
    await sql(
      `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, blocked, creation_date,
                            expiration_date, password_hash)
       SELECT $1::integer, 'u' || i, 'u' || i || '@deep.test', 'Opis ' || (i % 11), 'u' || i, 1 + i % 7,
              CASE WHEN i % 5 = 0 THEN 1 ELSE 0 END, to_char(date '2020-01-01' + i % 97, 'YYYY-MM-DD'),
              CASE WHEN i % 3 = 0 THEN '' ELSE to_char(date '2030-01-01' + i % 13, 'YYYY-MM-DD') END, 'x'
       FROM generate_series(1, 3000) AS i`,
      [deepId],
    );
    await sql("ANALYZE accounts, accounts_order");
  });

  it("are plain OFFSET's pages, read and read again", async () => {
    // Anchor 2 found from none, then anchor 1; then both known.
    await expectPagesAsOffset([40, 20, 59, 19, 21]);
    await expectPagesAsOffset([19, 20, 21, 40, 59]);
  });

  it("follow another connection's change of each sort key, a new account and a deleted one", async () => {
    const changes = [
      `UPDATE accounts SET capacity = 99 WHERE domain_id = $1 AND name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET blocked = 1 - blocked WHERE domain_id = $1 AND name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET creation_date = '2019-01-01' WHERE domain_id = $1 AND name BETWEEN 'u1000' AND 'u1100'`,
      `UPDATE accounts SET expiration_date = '' WHERE domain_id = $1 AND name BETWEEN 'u2000' AND 'u2100'`,
      `UPDATE accounts SET description = 'A', search_key = 'a' WHERE domain_id = $1 AND name BETWEEN 'u2000' AND 'u2100'`,
      // The letter case alone: the lowercased search key stays as it was.
      `UPDATE accounts SET description = lower(description) WHERE domain_id = $1 AND name BETWEEN 'u1000' AND 'u1900'`,
      `INSERT INTO accounts (domain_id, name, email, search_key, password_hash) VALUES ($1, 'a0', 'a0@deep.test', 'a0', 'x')`,
      `DELETE FROM accounts WHERE domain_id = $1 AND name IN ('u1', 'u10', 'u100')`,
    ];
    // Another process's writes: a connection of its own, not the pool the pages are read through.
    const { Client } = await import("pg");
    const writer = new Client({ connectionString: cluster.url });
    await writer.connect();
    try {
      for (const change of changes) {
        await writer.query(change, [deepId]);
        await expectPagesAsOffset([20, 59, 40, 19, 21]); // anchor 2 found from anchor 1
      }
    } finally {
      await writer.end();
    }
  });
});
