// PostgreSQL's side of db/dialect.ts (docs/architecture.md). Transactions are drizzle's node-postgres ones (one
// pooled connection each, READ COMMITTED; a savepoint when nested); lockDomain takes the domain row's lock.
// changeStamp follows the announcements of committed changes to accounts and domains (db/pg/change-listener.ts),
// so a verified caller and a domain by name are reused between requests as on SQLite. A search's total is kept per
// domain while the domain's search_version (moved by the triggers of 0001 in the writing transaction, whichever
// process or host writes) is unchanged, as SQLite's page-rows.ts does. Lists search with pg_trgm's GIN indexes (db/pg/migrations).
import { createHash } from "node:crypto";
import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { setBounded } from "../../lib/server/store/bounded-map";
import { changeStampOf, noteOwnCommit } from "./change-listener";
import type { PgDb } from "./client";
import { setDialect, type Db, type Dialect, type PageSpec } from "../dialect";
import { anchorFor, ANCHORED_SORTS, AnchorStore, type Anchor } from "../page-anchors";
import { containsPattern } from "../like";
import type { PageQuery } from "../../lib/schemas/page-query";
import { ACCOUNT_LIST_COLUMNS, NUMERIC_SORT_COLUMNS, sortColumnOf } from "../../lib/schemas/list-columns";

/** What node-postgres answers for a statement (the part used here). */
interface PgResult<T> {
  rows: T[];
  rowCount: number | null;
}
interface PgHandle {
  execute<T>(query: SQL): Promise<PgResult<T>>;
  transaction<R>(fn: (tx: PgHandle) => Promise<R>): Promise<R>;
}
const pgOf = (db: Db) => db as unknown as PgHandle;

/**
 * Per list kind: the domains column counting its rows (kept by triggers), and the table a new search counts its
 * matches in, with that table's column holding the row's id. Accounts count theirs in accounts_order, a narrow copy
 * of their search and sort keys; aliases and lists are counted in their own rows. `trigram`: a column holding the
 * search key with "." "-" "_" as letters, which the trigram index is on (trigram_form). `order`: the narrow copy
 * whose indexes serve the listed sorts (accounts_order): deliveries rewrite the accounts' rows, not the copy's, so its
 * pages stay all-visible for the index-only walks of OFFSET pages. The copy holds every sort column of the accounts
 * but the usage ones, which every delivery changes; a new search sorted by one of them counts its matches and takes
 * its page's ids in the same scan.
 */
const USAGE_SORTS = new Set(["usage_percent", "usage_bytes"]);
const TABLES: Record<
  string,
  { counter: string; matches: string; id: string; trigram?: string; order?: { table: string; sorts: Set<string> } }
> = {
  accounts: {
    counter: "account_count",
    matches: "accounts_order",
    id: "account_id",
    trigram: "trigram_key",
    order: {
      table: "accounts_order",
      sorts: new Set(
        Object.values(ACCOUNT_LIST_COLUMNS)
          .map(sortColumnOf)
          // The address is not in the copy either: its order walks the accounts' own rows.
          .filter((c) => !USAGE_SORTS.has(c) && c !== "email"),
      ),
    },
  },
  aliases: { counter: "alias_count", matches: "aliases", id: "id" },
  mailing_lists: { counter: "mailinglist_count", matches: "mailing_lists", id: "id" },
};
/** Only plain column names reach SQL text (they come from the services' PageSpec, never from a request). */
const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a column name: ${name}`);
  return sql.raw(`"${name}"`);
};

/** What drizzle's node-postgres prepared query hands to `pg` (drizzle-orm/node-postgres/session.js). */
interface NodePgPrepared {
  queryString: string;
  queryConfig: { name?: string };
  rawQueryConfig: { name?: string };
}
const isNodePgPrepared = (v: unknown): v is NodePgPrepared =>
  typeof v === "object" &&
  v !== null &&
  "queryConfig" in v &&
  "rawQueryConfig" in v &&
  typeof (v as NodePgPrepared).queryString === "string";

/**
 * drizzle's `.prepare()` without a name sends an unnamed statement, which PostgreSQL parses and plans on every
 * execution. Named after a hash of its text, a statement is parsed once per pooled connection (node-postgres
 * remembers which names each connection has prepared) and its plan can be reused. Only the statements a service
 * builds once get a name: a name per distinct text of ad-hoc SQL would grow every connection without bound.
 */
function keepPrepared<T>(statements: T): T {
  for (const value of isNodePgPrepared(statements) ? [statements] : Object.values(statements as object)) {
    if (!isNodePgPrepared(value) || value.queryConfig.name) continue;
    const name = statementName(value.queryString);
    value.queryConfig.name = name;
    value.rawQueryConfig.name = name;
  }
  return statements;
}

/** The pool's handle a transaction's handle was opened from (set by `transaction` below). */
const POOL = Symbol("mail-admin.pg-pool-handle");
type TxHandle = Db & { [POOL]?: Db };

/**
 * The pool's statements run on a transaction's connection: each a copy whose `client` (what drizzle's execute sends
 * the query to) is the transaction's. Building them per transaction cost more than its statements did: drizzle
 * makes the SQL text of every statement of the module again (a PUT of 1,000 names that ended 59 accounts' sessions,
 * one at a time, spent ~100 ms of its ~370 in it). Null when `statements` holds anything but prepared statements
 * (a function closing over the pool's handle would run outside the transaction): those are built on `tx`.
 */
function onConnection<T>(statements: T, tx: Db): T | null {
  const values = isNodePgPrepared(statements) ? [statements] : Object.values(statements as object);
  if (!values.every(isNodePgPrepared)) return null;
  const client = (tx as unknown as DrizzleInternals).session.client;
  // The query configs are copied too: node-postgres writes the call's callback and values into the config it is
  // given (the pool's calls pass a callback), and a config with a callback makes the client's query return nothing.
  const config = ({ callback: _callback, values: _values, ...rest }: Record<string, unknown>) => rest;
  const bind = (v: NodePgPrepared) =>
    Object.assign(Object.create(Object.getPrototypeOf(v) as object) as object, v, {
      client,
      queryConfig: config(v.queryConfig),
      rawQueryConfig: config(v.rawQueryConfig),
    }) as NodePgPrepared;
  if (isNodePgPrepared(statements)) return bind(statements) as T;
  return Object.fromEntries(
    Object.entries(statements as Record<string, NodePgPrepared>).map(([k, v]) => [k, bind(v)]),
  ) as T;
}

const statementName = (text: string) => `s_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;

/** What drizzle's node-postgres handle holds: its SQL builder, and the Pool (or a transaction's client) it runs on. */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    client: {
      query<T>(config: { name: string; text: string; values: unknown[]; rowMode?: "array" }): Promise<PgResult<T>>;
    };
  };
}

/**
 * Runs `query` as a named statement, like keepPrepared's: only for statements whose text comes from a small set
 * (a list page's: per table, sort and direction, every value a parameter), so that each connection prepares a
 * bounded number of them.
 */
function executeNamed<T>(db: Db, query: SQL): Promise<PgResult<T>> {
  const handle = db as unknown as DrizzleInternals;
  const { sql: text, params } = handle.dialect.sqlToQuery(query);
  return handle.session.client.query<T>({ name: statementName(text), text, values: params });
}

/**
 * Up to how many matches a new search's page is read by id. Walking a sort index until a page fills passes about
 * (offset + size) x rows / matches entries; reading the matches by id costs one lookup per match. Below the geometric
 * mean of the two, the lookups are fewer. Bench data (100,000 accounts, first page): up to 2,236 matches; "j.piot",
 * 104 matches among 10,365 trigram candidates, read its page in 2.7 ms by id against 23-30 ms walking or rechecking.
 */
const byIdsUpTo = (needed: number, rows: number) => Math.min(10_000, Math.floor(Math.sqrt(needed * rows)));

/** Remembered search totals, per list kind, domain and search, with the search version they were counted at. */
const totals = new Map<string, { version: number; total: number }>();
/** As many as SQLite's connection keeps (db/sqlite/page-rows.ts, MAX_TOTALS). */
const MAX_TOTALS = 1000;

/** Anchors of deep pages without a search, per list kind, domain, sort and direction (db/page-anchors.ts). */
const anchors = new AnchorStore();

/**
 * Where a page without a search at `offset` starts: past the anchor it stands on, then `skip` entries. An unknown
 * anchor is walked to (db/page-anchors.ts) in a statement that reads the domain's version too (one snapshot); null
 * for a shallow page, a sort the mail server writes, or a version other than the page's.
 */
async function seekFor(
  db: Db,
  order: { table: string; walked: SQL; column: string; asc: boolean; orderBy: SQL },
  domainId: number,
  version: number | undefined,
  offset: number,
): Promise<{ condition: SQL; skip: number } | null> {
  const { table, walked, column, asc, orderBy } = order;
  const { k, skip } = anchorFor(offset);
  if (k === 0 || version === undefined || !ANCHORED_SORTS[table]?.has(column)) return null;
  const key = (c: string) => (NUMERIC_SORT_COLUMNS.has(c) ? ident(c) : sql`${ident(c)} COLLATE "C"`);
  const keys = column === "name" ? key("name") : sql`${key(column)}, ${key("name")}`;
  const cmp = sql.raw(asc ? ">" : "<");
  const after = (a: Anchor) =>
    column === "name" ? sql`(${keys}) ${cmp} (${a.name})` : sql`(${keys}) ${cmp} (${a.value}, ${a.name})`;
  const name = `${table}:${domainId}:${column}:${asc}`;
  const known = anchors.find(name, version, k);
  let anchor: Anchor;
  if ("anchor" in known) anchor = known.anchor;
  else {
    const found = await executeNamed<{ version: string; value: unknown; name: string }>(
      db,
      sql`SELECT (SELECT search_version FROM domains WHERE id = ${domainId}) AS version, ${ident(column)} AS value, name
          FROM ${walked} WHERE domain_id = ${domainId} ${known.from ? sql`AND ${after(known.from)}` : sql``}
          ORDER BY ${orderBy} LIMIT 1 OFFSET ${known.offset}`,
    );
    const row = found.rows[0];
    if (!row || Number(row.version) !== version) return null;
    anchor = { value: row.value, name: row.name };
    if (!(db instanceof PgTransaction)) anchors.remember(name, version, k, anchor);
  }
  return { condition: after(anchor), skip };
}

/** A row of the first statement of `pageRows` without the domain's columns and the position. */
function pageRow<Row>({
  domain_rows: _rows,
  domain_version: _version,
  page_pos: _pos,
  ...row
}: Record<string, unknown>) {
  return row as Row;
}

async function pageRows<Row>(
  db: Db,
  spec: PageSpec<Row>,
  domainId: number,
  q: PageQuery,
): Promise<{ total: number; rows: Row[] }> {
  const table = ident(spec.table);
  const kind = TABLES[spec.table];
  if (!kind) throw new Error(`no list of ${spec.table}`);
  const column = spec.sortColumns[q.sort] ?? "name";
  const dir = sql.raw(q.sortDir === "desc" ? "DESC" : "ASC");
  // COLLATE "C": code point order, as SQLite's (whatever locale the cluster was made with).
  const order = (c: string) => sql`${ident(c)} COLLATE "C" ${dir}`;
  const sortBy = (c: string) => (NUMERIC_SORT_COLUMNS.has(c) ? sql`${ident(c)} ${dir}` : order(c));
  const orderBy = column === "name" ? sortBy("name") : sql`${sortBy(column)}, ${order("name")}`;
  const columns = sql.raw(
    spec.columns
      .split(",")
      .map((c) => `"${c.trim()}"`)
      .join(", "),
  );
  const offset = q.page * q.size;
  let total: number;
  // search_key and the search are both lowercased in JS, so LIKE is the contract's case-insensitive substring test.
  const pattern = q.search ? containsPattern(q.search) : "";
  const where = q.search ? sql`domain_id = ${domainId} AND search_key LIKE ${pattern}` : sql`domain_id = ${domainId}`;
  /** A new search's matches, when few: their page is read by id (`byIdsUpTo`). */
  let ids: string | null = null;
  // The domain's counter and search version, and, when the whole list fits in one page, every match in order: a
  // small domain's page and total come in this one round trip (the gate keeps a big domain's rows unread). The
  // version is read before counting: a total counted after a newer commit is then kept under the older version,
  // which no later request asks for (never the other way round).
  const first = await executeNamed<Record<string, unknown>>(
    db,
    sql`SELECT d.domain_rows, d.domain_version, m.* FROM
          (SELECT ${ident(kind.counter)} AS domain_rows, search_version AS domain_version FROM domains WHERE id = ${domainId}) d
          LEFT JOIN LATERAL (SELECT ${columns}, row_number() OVER (ORDER BY ${orderBy}) AS page_pos FROM ${table}
                             WHERE ${where} AND d.domain_rows <= ${q.size}) m ON true
        ORDER BY m.page_pos`,
  );
  const domainRows = Number(first.rows[0]?.domain_rows ?? 0);
  if (domainRows <= q.size) {
    const all = first.rows.filter((r) => r.page_pos !== null).map(pageRow<Row>);
    return { total: all.length, rows: all.slice(offset, offset + q.size) };
  }
  if (!q.search) {
    total = domainRows;
  } else {
    // The matches are counted through a pg_trgm GIN index (accounts: on accounts_order); a page of many matches
    // walks the sort index testing each row, a page of few is read by id.
    const key = `${spec.table}\u0000${domainId}\u0000${q.search}`;
    const version = first.rows[0]?.domain_version as number | undefined;
    const known = totals.get(key);
    const upTo = byIdsUpTo(offset + q.size, domainRows);
    // The trigram key picks the candidates, search_key decides (trigram_form maps "q" and "."
    // alike). The statements are unnamed, so PostgreSQL folds trigram_form of the pattern before choosing the index.
    const candidates = kind.trigram ? sql`${ident(kind.trigram)} LIKE trigram_form(${pattern}) AND ` : sql``;
    const matching = sql`domain_id = ${domainId} AND ${candidates}search_key LIKE ${pattern}`;
    const remember = () => {
      // Not inside a transaction: its own uncommitted rows may be in the count.
      if (version !== undefined && !(db instanceof PgTransaction))
        setBounded(totals, MAX_TOTALS, key, { version: Number(version), total });
    };
    if (known && version !== undefined && known.version === Number(version) && known.total > upTo) {
      total = known.total;
    } else if (kind.order?.sorts.has(column)) {
      // Sorted by a key of the copy the matches are counted in: one scan of the matches counts them and keeps the
      // page's ids (a top-N sort), where counting and then walking the sort index read the matches twice. The
      // matches are MATERIALIZED, read once for the count and once for the page: PostgreSQL 15 priced a count(*)
      // OVER () under a LIMIT as if the window could stop early, and walked the whole domain's sort index instead of
      // the trigram index's few candidates. One row, also when the page is past the last match.
      const keys = column === "name" ? ident("name") : sql`${ident(column)}, ${ident("name")}`;
      const counted = await pgOf(db).execute<{ n: number; ids: number[] }>(
        sql`WITH m AS MATERIALIZED (SELECT ${ident(kind.id)} AS id, ${keys} FROM ${ident(kind.order.table)} WHERE ${matching})
            SELECT (SELECT count(*) FROM m) AS n,
                   ARRAY(SELECT id FROM m ORDER BY ${orderBy} LIMIT ${q.size} OFFSET ${offset}) AS ids`,
      );
      total = Number(counted.rows[0]?.n ?? 0);
      ids = `{${(counted.rows[0]?.ids ?? []).join(",")}}`;
      remember();
      if (offset >= total) return { total, rows: [] };
      const byId = sql`SELECT ${columns} FROM ${table} JOIN unnest(${ids}::integer[]) AS matched(id) USING (id)
                       WHERE domain_id = ${domainId} ORDER BY ${orderBy}`;
      return { total, rows: (await pgOf(db).execute<Row>(byId)).rows };
    } else {
      // The count visits every match, so it hands over their ids too when there are few: their page is then read by
      // id and sorted, where walking the sort index would pass many rows that do not match before a page fills. (A
      // remembered total that small is counted again, for the ids.)
      const counted = await pgOf(db).execute<{ n: number; ids: number[] | null }>(
        sql`SELECT count(*) AS n, CASE WHEN count(*) <= ${upTo} THEN array_agg(${ident(kind.id)}) END AS ids
            FROM ${ident(kind.matches)} WHERE ${matching}`,
      );
      total = Number(counted.rows[0]?.n ?? 0);
      const found = counted.rows[0]?.ids;
      if (found) ids = `{${found.join(",")}}`;
      remember();
    }
  }
  if (offset >= total) return { total, rows: [] };
  if (ids !== null) {
    // Unnamed, like a search's other statements: a plan kept for any domain expects a domain of average size (a few
    // rows on a host of many small domains) and read the whole domain's index to meet 35 ids (158 ms at 100,000
    // accounts, against 0.5 ms looking the ids up).
    const byId = sql`SELECT ${columns} FROM ${table} JOIN unnest(${ids}::integer[]) AS matched(id) USING (id)
                     WHERE domain_id = ${domainId} ORDER BY ${orderBy} LIMIT ${q.size} OFFSET ${offset}`;
    return { total, rows: (await pgOf(db).execute<Row>(byId)).rows };
  }
  // A search's statements stay unnamed: PostgreSQL then plans them for the pattern at hand (a generic plan, once
  // chosen for a named statement, is one plan for "kowal", "zi" and a name that matches once).
  const run = (query: SQL) => (q.search ? pgOf(db).execute<Row>(query) : executeNamed<Row>(db, query));
  // The accounts' sorts that deliveries do not change walk their narrow copy (its pages stay all-visible while the
  // mail server updates the accounts), names first on every page; the other sorts walk the table's own index.
  const walked = kind.order?.sorts.has(column) ? ident(kind.order.table) : null;
  if (offset === 0 && !walked)
    return {
      total,
      rows: (await run(sql`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT ${q.size}`)).rows,
    };
  // Past the first page, the page's names first, then their rows: the names come from the sort index alone (every
  // sort index ends in name; an index-only scan where the visibility map allows), so the rows skipped by OFFSET are
  // not read from the table. Read whole, page 1000 of 100,000 accounts fetched 50,050 rows to keep 50 (7x slower).
  // A deep page without a search seeks past its anchor first.
  const sortOrder = { table: spec.table, walked: walked ?? table, column, asc: q.sortDir !== "desc", orderBy };
  const version = first.rows[0]?.domain_version as number | undefined;
  const seek = q.search
    ? null
    : await seekFor(db, sortOrder, domainId, version === undefined ? undefined : Number(version), offset);
  const page = await run(
    sql`SELECT ${columns} FROM ${table} WHERE domain_id = ${domainId} AND name IN (
          SELECT name FROM ${walked ?? table} WHERE ${where} ${seek ? sql`AND ${seek.condition}` : sql``}
          ORDER BY ${orderBy} LIMIT ${q.size} OFFSET ${seek ? seek.skip : offset})
        ORDER BY ${orderBy}`,
  );
  return { total, rows: page.rows };
}

export const pgDialect: Dialect = {
  name: "postgres",

  async transaction(db, fn) {
    const pool = (db as TxHandle)[POOL] ?? db;
    const result = await pgOf(db).transaction((tx) => {
      const handle = setDialect(tx, pgDialect) as unknown as TxHandle;
      handle[POOL] = pool;
      return fn(handle);
    });
    noteOwnCommit((pool as unknown as PgDb).$client);
    return result;
  },

  async lockDomain(tx, domainId) {
    await pgOf(tx).execute(sql`SELECT id FROM domains WHERE id = ${domainId} FOR UPDATE`);
  },

  // One transaction-scoped advisory lock for the whole database (the migrator's is 3400034).
  async lockCatchallTargets(tx) {
    await pgOf(tx).execute(sql`SELECT pg_advisory_xact_lock(3400035)`);
  },

  changeStamp: (db) => (db instanceof PgTransaction ? null : changeStampOf((db as unknown as PgDb).$client)),

  keepPrepared,

  statementsFrom(tx, of) {
    const pool = (tx as TxHandle)[POOL];
    return pool ? onConnection(of(pool), tx) : null;
  },

  forUpdate: <Q>(query: Q) => (query as unknown as { for(strength: "update"): Q }).for("update"),

  changedRows: (result) => (result as PgResult<unknown>).rowCount ?? 0,

  // PostgreSQL keeps no insertion order: the id hash breaks the tie.
  sessionInsertionOrder: sql.raw("id_hash"),

  prepareRaw(db, query) {
    const handle = db as unknown as DrizzleInternals;
    const { sql: text, params } = handle.dialect.sqlToQuery(query);
    const name = statementName(text);
    const call = <T>(values: Record<string, unknown>, rowMode?: "array") =>
      handle.session.client.query<T>({ name, text, values: fillPlaceholders(params, values), rowMode });
    return {
      rows: async (values) => (await call<unknown[]>(values, "array")).rows,
      run: async (values) => (await call(values)).rowCount ?? 0,
    };
  },

  jsonArrayRows: (json) =>
    sql`(SELECT value, ordinality - 1 AS key FROM json_array_elements_text(${json}::json) WITH ORDINALITY)`,

  async all<T>(db: Db, query: SQL) {
    return (await pgOf(db).execute<T>(query)).rows;
  },

  async run(db: Db, query: SQL) {
    return (await pgOf(db).execute(query)).rowCount ?? 0;
  },

  async optimize(db) {
    await pgOf(db).execute(sql`ANALYZE`);
  },

  async analyze(db, table) {
    await pgOf(db).execute(sql`ANALYZE ${ident(table)}`);
  },

  pageRows,
};
