import "server-only";
// The paged, searched, sorted list behind GET emails|aliases|mailinglists/<domain> (contract §6).
// Everything happens in SQL on the (domain_id, <column>, name) indexes; statements are prepared once per shape.
//
// Scale (bench/, issue 4): on a domain of 100,000 accounts nothing here may cost a scan of the domain per request.
// - The unfiltered total is the domain's usage counter (kept by triggers), not a count.
// - A search of 3+ characters on a table with a trigram index (accounts_search, migration 0004) finds its rows in
//   that index; the index's rowid is domain_id * 2^32 + id, so "in this domain" is a rowid range inside the index.
//   A new search reads the ids of its matches there once, for its total and its page alike, without reading a
//   row. The phrase match of the trigram index with case_sensitive 1 is exactly "search_key contains the search"
//   (both sides are lowercased in JS), the same meaning as the LIKE below; list-page.test.ts checks the two agree.
// - Domains of 2,000+ accounts search tables the server holds in memory instead (held-search.ts): a substring
//   table finds the matches (a count costs a pass over the matching range, not over every domain's doclists) and
//   the held sort columns find the page (held-order.ts: a walk of the column's held order, or a pick among the
//   matches), and the page's rows are built from the held values, not read. Their unfiltered list is paged the
//   same way (a stretch of the held order, at any depth). list-page.test.ts runs every test both ways.
// - Elsewhere the page is read one of three ways (ListPlan), whichever a measured cost model expects to be cheapest:
//   very many matches -> walk the sort index testing each entry, which stops after offset + size hits (in name
//   order the accounts have an index ending in search_key, migration 0006, so the test reads the index entry, not
//   the row); few matches -> read just the matching rows and sort them; in between -> walk the sort index testing
//   ids against the set of matching ids, then read only the page's rows.
// - Shorter searches (and tables without a trigram index) have no index to look matches up in: their total is a
//   LIKE over the (domain_id, name, search_key) index where there is one (a scan, but of short entries).
// - Totals are remembered until the database changes (this connection's total_changes() or another connection's
//   commit, PRAGMA data_version), so paging through one search counts it once; so are the sort keys where deep
//   unfiltered pages start (list-cache.ts), so paging on from a deep page does not walk from the start again.
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { listQuerySchema, type ListEnvelope, type ListQuery } from "@/lib/schemas/list-query";
import { cachedTotal, markBefore, rememberMark, sortIndex, statement } from "./list-cache";
import { isHeldSortColumn } from "./held-order";
import { HELD_ROW_COLUMNS, heldEverything, heldSearch, type HeldRow } from "./held-search";
import { hasId, walkMatchIds } from "./match-walk";

export interface ListSpec<Row> {
  table: string;
  /** The summary columns to select: plain column names, comma-separated. */
  columns: string;
  /** Sortable API field -> SQL column. */
  sortColumns: Record<string, string>;
  toItem: (row: Row) => unknown;
}

// Built once per list kind: building a zod schema costs far more than using it (about 1 ms per request).
const schemas = new WeakMap<readonly string[], ReturnType<typeof listQuerySchema>>();

/** Parses page/size/search/sort/sort_dir; 500.130 naming the bad parameter. */
export function parseListQuery(query: URLSearchParams, sortFields: readonly [string, ...string[]]): ListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["page", "size", "search", "sort", "sort_dir"]) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  let schema = schemas.get(sortFields);
  if (!schema) schemas.set(sortFields, (schema = listQuerySchema(sortFields)));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw apiError("invalidQuery", String(parsed.error.issues[0]?.path[0] ?? "query"));
  const q = parsed.data;
  return {
    page: q.page ?? 0,
    size: q.size ?? 50,
    // Control characters never occur in names or descriptions (the search key separates them with \u0001).
    // eslint-disable-next-line no-control-regex
    search: (q.search ?? "").replace(/[\u0000-\u001f]/g, "").trim().toLowerCase(),
    sort: q.sort ?? "name",
    sortDir: q.sort_dir ?? "asc",
  };
}

/** What `search` matches: the searchable texts of a record, lowercased (Unicode-aware) and kept apart. */
export const searchKey = (...parts: string[]) => parts.join("\u0001").toLowerCase();

/** Per table: the domains column counting its rows, and its trigram index (see migrations 0001 and 0004). */
const TABLES: Record<string, { counter?: string; trigramIndex?: string; searchIndex?: string }> = {
  accounts: { counter: "account_count", trigramIndex: "accounts_search", searchIndex: "accounts_domain_name_search" },
  aliases: { counter: "alias_count" },
  mailing_lists: { counter: "mailinglist_count" },
};

/** The trigram index's rowid of a row: its domain in the high 32 bits (ids stay far below 2^32). */
export const DOMAIN_SPAN = 2 ** 32;
/** Shorter searches have no trigram to look up. */
const MIN_TRIGRAM_SEARCH = 3;

/** An FTS5 phrase matching `text` literally (double quotes doubled). */
export const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The names in a spec's `columns`, by that text (specs are built per request). */
const columnNames = new Map<string, string[]>();

function namesOf(spec: ListSpec<unknown>): string[] {
  let names = columnNames.get(spec.columns);
  if (!names) columnNames.set(spec.columns, (names = spec.columns.split(",").map((c) => c.trim())));
  return names;
}

/**
 * The rows `sql` selects (`spec.columns`, in that order) as objects. Read as arrays and named here: better-sqlite3
 * builds a row object one property at a time through V8's API, which cost a page of 50 accounts about 40 µs more
 * than this (issue 4).
 */
function readRows<Row>(db: Db, spec: ListSpec<Row>, sql: string, args: unknown[]): Row[] {
  const names = namesOf(spec as ListSpec<unknown>);
  const rows = statement(db, sql).raw().all(...args) as unknown[][];
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row as Row;
  });
}

/** Rows by id, in the list's order. */
function rowsByIds<Row>(db: Db, spec: ListSpec<Row>, ids: number[], order: string): Row[] {
  const sql = `SELECT ${spec.columns} FROM ${spec.table} WHERE id IN (SELECT value FROM json_each(?)) ${order}`;
  return readRows(db, spec, sql, [JSON.stringify(ids)]);
}

/**
 * A held page's rows (held-search.ts): built from the held values where those have every column of the list (issue
 * 4: reading a page's 50 rows cost a 100,000-account domain about 0.38 ms a request in the server, 0.2 ms for
 * 10,000), else read by id.
 */
function heldPageRows<Row>(db: Db, spec: ListSpec<Row>, page: { ids: number[]; rows: HeldRow[] | null }, order: string): Row[] {
  const built = page.rows && namesOf(spec as ListSpec<unknown>).every((c) => HELD_ROW_COLUMNS.includes(c));
  return built ? (page.rows as Row[]) : rowsByIds(db, spec, page.ids, order);
}

/**
 * A page of the whole list. Past the first page it steps over the skipped entries in the sort index alone and
 * reads only the page's rows (offset 50,000 on the bench data: 3.0 -> 2.2 ms), and it starts from the nearest
 * page it has read before in the same order while the database is unchanged, so paging on from a deep page (or
 * asking for it again) does not walk from the start again.
 */
function unfilteredPage<Row>(
  db: Db,
  spec: ListSpec<Row>,
  domainId: number,
  p: { column: string; dir: "ASC" | "DESC"; order: string; offset: number; size: number },
): Row[] {
  const { table } = spec;
  const idx = sortIndex(db, table, p.column, false);
  const index = idx ? `INDEXED BY ${idx.name}` : "";
  if (p.offset === 0) {
    return readRows(db, spec, `SELECT ${spec.columns} FROM ${table} ${index} WHERE domain_id = ? ${p.order} LIMIT ?`, [
      domainId,
      p.size,
    ]);
  }
  const ordering = `${table}:${domainId}:${p.column}:${p.dir}`;
  const mark = markBefore(db, ordering, p.offset);
  const cmp = p.dir === "ASC" ? ">=" : "<=";
  const from = !mark ? "" : p.column === "name" ? `AND name ${cmp} ?` : `AND (${p.column}, name) ${cmp} (?, ?)`;
  const fromArgs = !mark ? [] : p.column === "name" ? [mark.name] : [mark.key, mark.name];
  const rows = readRows(
    db,
    spec,
    `SELECT ${spec.columns} FROM ${table} WHERE id IN
       (SELECT id FROM ${table} ${index} WHERE domain_id = ? ${from} ${p.order} LIMIT ? OFFSET ?)
     ${p.order}`,
    [domainId, ...fromArgs, p.size, p.offset - (mark?.offset ?? 0)],
  );
  const first = rows[0] as Record<string, unknown> | undefined;
  const key = first?.[p.column];
  if (first && key !== undefined && key !== null) rememberMark(db, ordering, { offset: p.offset, key, name: String(first.name) });
  return rows;
}

/**
 * How a searched page is read. `walk`: the sort index in order, testing each row's search key, until offset + size
 * hits. `walkMatchSet`: the sort index in order again, but reading only the index (no row) and testing each id
 * against the matches (match-walk.ts). `sortMatches`: read every matching row (ids from the trigram index or a held
 * table, or from the narrow index without either) and sort them. `heldPage`: find the page's ids in memory by the
 * held sort columns (held-order.ts), and build its rows from the held values (or read them, see held-search.ts).
 */
export type ListPlan = "walk" | "walkMatchSet" | "sortMatches" | "heldPage";

/**
 * Microseconds per unit of work, measured on the 114,000-account bench data: a walked row 2-4 (the row is read to
 * test it), a walked entry of a covering index 0.12 (the search is tested on the entry; only hits read their
 * row), a walked index entry's id tested in JS 0.2, a matching row read and sorted 1.5, a match id handed back to
 * SQLite 0.1. Finding the matches again costs what counting them did (timed when counted: the trigram index reads
 * the whole doclist of each trigram, so a dense trigram costs even in a small domain). Walks assume the matches
 * are spread evenly over the sort order.
 */
const COST_US = { walkedRow: 3, walkedEntry: 0.12, walkedId: 0.2, sortedMatch: 1.5, passedMatch: 0.1 };

/**
 * What the sort index offers: a match-set walk needs one (and a trigram index), a cheap walk a covering one; and
 * whether the domain's matches are held (held-search.ts), which makes the heldPage plan possible.
 */
export interface SortIndexUse {
  matchSet: boolean;
  covering: boolean;
  held?: boolean;
}

/**
 * The plan expected to cost least for a page ending at `needed` among `total` matches of `domainRows` rows;
 * `idsUs`: what having the matches' ids in hand costs (0 when a new search just read them).
 */
export function cheapestPlan(needed: number, domainRows: number, total: number, idsUs: number, index: SortIndexUse): ListPlan {
  const walked = Math.min(domainRows, (needed * domainRows) / total);
  // Held matches: the page is found in memory, walking the held order or picking among the matches (held-order.ts),
  // for 3-130 µs on the bench's 100k domain however many match, where a walk of the sort index can take
  // milliseconds (matches bunched in the sort order: "na." by name walked 90 times the entries it expected).
  if (index.held) return "heldPage";
  const costs: [ListPlan, number][] = [
    ["walk", (index.covering ? COST_US.walkedEntry : COST_US.walkedRow) * walked],
    ["sortMatches", idsUs + (COST_US.passedMatch + COST_US.sortedMatch) * total],
  ];
  if (index.matchSet) costs.push(["walkMatchSet", idsUs + COST_US.walkedId * walked]);
  return costs.reduce((best, c) => (c[1] < best[1] ? c : best))[0];
}

/** `forcePlan` is for tests, which check every plan against the definition. */
export function listPage<Row>(
  db: Db,
  spec: ListSpec<Row>,
  domainId: number,
  q: ListQuery,
  forcePlan?: ListPlan,
): ListEnvelope<unknown> {
  const { table } = spec;
  const info = TABLES[table] ?? {};
  const column = spec.sortColumns[q.sort] ?? "name";
  const dir = q.sortDir === "desc" ? "DESC" : "ASC";
  const order = `ORDER BY ${column} ${dir}${column === "name" ? "" : `, name ${dir}`}`;
  const orderBy = `${order} LIMIT ? OFFSET ?`;
  const offset = q.page * q.size;
  const domainRows = () =>
    info.counter
      ? (statement(db, `SELECT ${info.counter} AS n FROM domains WHERE id = ?`).get(domainId) as { n: number }).n
      : (statement(db, `SELECT count(*) AS n FROM ${table} WHERE domain_id = ?`).get(domainId) as { n: number }).n;

  let total: number;
  let rows: Row[] = [];
  if (!q.search) {
    total = domainRows();
    // A held domain's page is found in memory as a search's is, at any depth (a walk of the sort index cost the
    // first page of 100,000 accounts about 0.2 ms, and grows with the offset); others read it by the sort index.
    const held = info.trigramIndex && isHeldSortColumn(column) ? heldEverything(db, domainId, total) : null;
    if (offset < total) {
      rows = held
        ? heldPageRows(db, spec, held.page(column, dir === "DESC", offset, q.size)!, order)
        : unfilteredPage(db, spec, domainId, { column, dir, order, offset, size: q.size });
    }
  } else {
    const like = `%${escapeLike(q.search)}%`;
    const filter = "domain_id = ? AND search_key LIKE ? ESCAPE '\\'";
    const narrow = info.searchIndex ? `INDEXED BY ${info.searchIndex}` : "";
    const trigram = info.trigramIndex && [...q.search].length >= MIN_TRIGRAM_SEARCH ? info.trigramIndex : null;
    const low = domainId * DOMAIN_SPAN;
    const high = low + DOMAIN_SPAN - 1;
    const phrase = ftsPhrase(q.search);
    // The ids of the matches in this domain, ascending, from the trigram index (args: low, phrase, low, high).
    const ftsIds = `SELECT rowid - ? FROM ${trigram} WHERE ${trigram} MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid`;
    const readMatchIds = () => statement(db, ftsIds).pluck().all(low, phrase, low, high) as number[];
    const rowsInDomain = domainRows();
    // A large domain's matches are found in the substring table held for it (held-search.ts); otherwise a new
    // search's matches are read from the trigram index once, for its total and its page alike, and a remembered
    // total's page finds them there again.
    const held = trigram ? heldSearch(db, domainId, rowsInDomain, q.search) : null;
    // Picking the page in memory needs the sort column held too (held-order.ts).
    const heldPage = held && isHeldSortColumn(column) ? () => held.page(column, dir === "DESC", offset, q.size)! : null;
    let matchIds: number[] | undefined;
    const counted = cachedTotal(db, `${table}:${domainId}:${q.search}`, () => {
      if (held) return held.count();
      if (!trigram) {
        return (statement(db, `SELECT count(*) AS n FROM ${table} ${narrow} WHERE ${filter}`).get(domainId, like) as { n: number }).n;
      }
      matchIds = readMatchIds();
      return matchIds.length;
    });
    total = counted.n;
    if (offset < total) {
      const idx = sortIndex(db, table, column, true);
      const byIndex = idx ? `INDEXED BY ${idx.name}` : "";
      const use = { matchSet: !!trigram && !!idx, covering: !!idx?.covering, held: !!heldPage };
      const idsUs = matchIds ? 0 : counted.ms * 1000;
      const plan = forcePlan ?? cheapestPlan(offset + q.size, rowsInDomain, total, idsUs, use);
      if (plan === "heldPage" && heldPage) {
        rows = heldPageRows(db, spec, heldPage(), order);
      } else if (plan === "walk") {
        rows = readRows(db, spec, `SELECT ${spec.columns} FROM ${table} ${byIndex} WHERE ${filter} ${orderBy}`, [
          domainId,
          like,
          q.size,
          offset,
        ]);
      } else if (plan === "walkMatchSet" && trigram && idx) {
        const needed = offset + q.size;
        const walk = { table, index: idx.name, column, dir, order, domainId } as const;
        const ids = held ? null : (matchIds ?? readMatchIds());
        const isMatch = held ? (id: number) => held.has(id) : (id: number) => hasId(ids!, id);
        rows = rowsByIds(db, spec, walkMatchIds(db, walk, isMatch, needed, (needed * rowsInDomain) / total).slice(offset), order);
      } else if (trigram) {
        // The matching ids: the held table's, the ones just read, or the trigram index again.
        const ids = held ? held.ids() : matchIds;
        const matches = ids
          ? { sql: "SELECT value FROM json_each(?)", args: [JSON.stringify(ids)] }
          : { sql: ftsIds, args: [low, phrase, low, high] };
        rows = readRows(db, spec, `SELECT ${spec.columns} FROM ${table} WHERE id IN (${matches.sql}) ${orderBy}`, [
          ...matches.args,
          q.size,
          offset,
        ]);
      } else {
        rows = readRows(
          db,
          spec,
          `SELECT ${spec.columns} FROM ${table} WHERE id IN (SELECT id FROM ${table} ${narrow} WHERE ${filter}) ${orderBy}`,
          [domainId, like, q.size, offset],
        );
      }
    }
  }
  // Keyed by name: a null-prototype object starts as a dictionary, where adding names that differ from request to
  // request does not make V8 build a hidden class per name (a page of 50 names new to it, stringified: a median
  // 47-82 µs with {}, 29-32 µs so).
  const data: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const row of rows) data[(row as { name: string }).name] = spec.toItem(row);
  return { result_info: { total, fetched: rows.length, page_size: q.size, page: q.page }, result_data: data };
}
