// SQLite's reading of a page of a list (lib/server/resources/page.ts asks for it through db/sqlite/dialect.ts),
// answered by SQLite alone: every process sees every other process's writes at once, and there is nothing to
// catch up with.
//
// Scale (bench/): on a domain of 100,000 accounts nothing here may read every row per request.
// - The unfiltered total is the domain's counter (kept by triggers); the page is read in the order of a
//   (domain_id, <column>, name) index, so SQLite stops after offset + size entries and sorts nothing. A deep page
//   seeks past a remembered entry of its order (db/page-anchors.ts) and walks fewer than 1,000.
// - A search of 3+ characters on accounts finds its matches in the trigram index (accounts_search), whose rowid is
//   domain_id * 2^32 + id, so "in this domain" is a rowid range and counting reads no table row. Its phrase match
//   with case_sensitive 1 is exactly "search_key contains the search" (both lowercased in JS); shorter searches
//   test search_key LIKE over the (domain_id, name, search_key) index (accounts_domain_name_search), a scan of short entries.
// - A searched page is read one of two ways, by one rule (planFor): few matches, read them all and sort them; many,
//   walk the sort index in order testing each entry, which stops after offset + size hits. A short walk tests each
//   row's search key; a long one tests ids against the set of matches, built once (walkTestFor). A short walk in an
//   order other than name stops at twice its expected length; having found most of the page by then, it walks again
//   as far as the rate of its finds asks, and otherwise (matches bunched at the end of the order) it tests ids.
// - A search's total is remembered per domain while its search_version (moved by triggers) is
//   unchanged. A new search's count hands over the ids of up to 10,000 matches, so its page does not run the
//   trigram query again.
import type { Statement } from "better-sqlite3";
import type { PageQuery } from "@/lib/schemas/page-query";
import { setBounded } from "@/lib/server/store/bounded-map";
import type { Db, ForcedPlan, PagePlan, PageSpec, WalkTest } from "../dialect";
import { anchorFor, ANCHORED_SORTS, AnchorStore, type Anchor } from "../page-anchors";
import { containsPattern } from "../like";

/** Per table: the domains column counting its rows, its trigram index, and the index holding its search keys. */
const TABLES: Record<string, { counter: string; trigramIndex?: string; searchIndex?: string }> = {
  accounts: { counter: "account_count", trigramIndex: "accounts_search", searchIndex: "accounts_domain_name_search" },
  aliases: { counter: "alias_count" },
  mailing_lists: { counter: "mailinglist_count" },
};

/** The trigram index's rowid of a row: its domain in the high 32 bits (ids stay far below 2^32). */
export const DOMAIN_SPAN = 2 ** 32;
/** Shorter searches have no trigram to look up. */
const MIN_TRIGRAM_SEARCH = 3;

/**
 * A walk expects to pass (offset + size) * rows / matches index entries before it has the page, if the matches are
 * spread over the sort order. Reading and sorting a match costs about as much as passing ten entries (on the
 * bench data), so fewer matches than a tenth of that walk are read and sorted, more are walked.
 */
export function planFor(matches: number, needed: number, rows: number): PagePlan {
  return matches * 10 <= (needed * rows) / matches ? "sortMatches" : "walkIndex";
}

/**
 * Testing a row's search key reads the row (2-6 µs, more when the rows are not in SQLite's cache). Testing an id
 * needs the set of matches, built from the trigram index's entries for the whole file, not just this domain (3-35 ms
 * on the bench data), then costs a tenth of a row read. So a walk expected to pass at most 1,000 entries tests
 * search keys, a longer one ids.
 */
export function walkTestFor(matches: number, needed: number, rows: number): WalkTest {
  return (needed * rows) / matches <= 1_000 ? "searchKey" : "matchIds";
}

/** An FTS5 phrase matching `text` literally (double quotes doubled). */
export const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

interface PerConnection {
  statements: Map<string, Statement<unknown[]>>;
  sortIndexes: Map<string, string | null>;
  /** Search totals by table, domain, search_version and search (per connection: domain ids are per file). */
  totals: Map<string, number>;
  anchors: AnchorStore;
}
const connections = new WeakMap<Db, PerConnection>();
function perConnection(db: Db): PerConnection {
  let c = connections.get(db);
  if (!c)
    connections.set(
      db,
      (c = { statements: new Map(), sortIndexes: new Map(), totals: new Map(), anchors: new AnchorStore() }),
    );
  return c;
}

/** Statements are prepared once per shape of query (the table, columns and order are part of its text). */
function statement(db: Db, text: string): Statement<unknown[]> {
  const { statements } = perConnection(db);
  let stmt = statements.get(text);
  if (!stmt) statements.set(text, (stmt = db.$client.prepare(text)));
  return stmt;
}

/**
 * The narrowest index of `table` on (domain_id, column, name) (on (domain_id, name) for the name order): the one a
 * walk names, since with a match test in the WHERE clause SQLite may prefer to read the matches and sort them.
 */
export function sortIndex(db: Db, table: string, column: string): string | null {
  const { sortIndexes } = perConnection(db);
  const key = `${table}:${column}`;
  let found = sortIndexes.get(key);
  if (found === undefined) {
    const wanted = column === "name" ? ["domain_id", "name"] : ["domain_id", column, "name"];
    const names = db.$client.prepare(`SELECT name FROM pragma_index_list(?)`).pluck().all(table) as string[];
    const columnsOf = db.$client.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).pluck();
    const fitting = names
      .map((name) => ({ name, columns: columnsOf.all(name) as string[] }))
      .filter(({ columns }) => wanted.every((w, i) => columns[i] === w))
      .sort((a, b) => a.columns.length - b.columns.length);
    found = fitting[0]?.name ?? null;
    sortIndexes.set(key, found);
  }
  return found;
}

/** How many search totals a connection remembers; one counted inside a transaction is not kept. */
export const MAX_TOTALS = 1000;

/**
 * Up to how many matches a new search's count hands over their ids (as PostgreSQL's does, db/pg/dialect.ts): the
 * page then looks them up instead of running the trigram query a second time (1-4 ms per run on the bench data).
 * Collecting them adds 0.03 ms to a count of up to 700 matches, 0.3 ms up to 5,000 and ~0.9 ms above.
 */
const IDS_UP_TO = 10_000;

/** The rows `sql` selects (`spec.columns`, in that order). */
function readRows<Row>(db: Db, sql: string, args: unknown[]): Row[] {
  return statement(db, sql).all(...args) as Row[];
}

/** Where a page without a search starts: past an anchor (`condition` with its `values`), then `skip` entries. */
interface Seek {
  condition: string;
  values: unknown[];
  skip: number;
}

/**
 * The anchor a page at `offset` in `column` order stands on, walked to when unknown (the statement reads the domain's
 * version too, so the anchor and the version describe one state of the rows), or null for a shallow page, a sort the
 * mail server writes, or a change seen meanwhile. `byIndex` names the order's index, as for the page.
 */
function seekFor(
  db: Db,
  table: string,
  column: string,
  dir: "ASC" | "DESC",
  byIndex: string,
  domainId: number,
  version: number | undefined,
  offset: number,
): Seek | null {
  const { k, skip } = anchorFor(offset);
  if (k === 0 || version === undefined || !ANCHORED_SORTS[table]?.has(column)) return null;
  const keys = column === "name" ? "name" : `${column}, name`;
  const valuesOf = (a: Anchor) => (column === "name" ? [a.name] : [a.value, a.name]);
  const after = `(${keys}) ${dir === "ASC" ? ">" : "<"} (${column === "name" ? "?" : "?, ?"})`;
  const { anchors } = perConnection(db);
  const order = `${table}:${domainId}:${column}:${dir}`;
  const known = anchors.find(order, version, k);
  let anchor: Anchor;
  if ("anchor" in known) anchor = known.anchor;
  else {
    const found = statement(
      db,
      `SELECT (SELECT search_version FROM domains WHERE id = ?) AS version, ${column} AS value, name
       FROM ${table} ${byIndex} WHERE domain_id = ? ${known.from ? `AND ${after}` : ""}
       ORDER BY ${column} ${dir}${column === "name" ? "" : `, name ${dir}`} LIMIT 1 OFFSET ?`,
    ).get(domainId, domainId, ...(known.from ? valuesOf(known.from) : []), known.offset) as
      { version: number; value: unknown; name: string } | undefined;
    if (!found || found.version !== version) return null;
    anchor = { value: found.value, name: found.name };
    if (!db.$client.inTransaction) anchors.remember(order, version, k, anchor);
  }
  return { condition: after, values: valuesOf(anchor), skip };
}

/** `force` is for tests, which check both plans and both walk tests against the definition. */
export function sqlitePageRows<Row>(
  db: Db,
  spec: PageSpec<Row>,
  domainId: number,
  q: PageQuery,
  force: ForcedPlan = {},
): { total: number; rows: Row[] } {
  const { table, columns } = spec;
  const info = TABLES[table]!;
  const column = spec.sortColumns[q.sort] ?? "name";
  const dir = q.sortDir === "desc" ? "DESC" : "ASC";
  const sortBy = `ORDER BY ${column} ${dir}${column === "name" ? "" : `, name ${dir}`}`;
  const order = `${sortBy} LIMIT ? OFFSET ?`;
  // A walk that tests only index entries finds the page's ids first and reads their rows after, so the entries it
  // passes cost no row lookup (with the row's columns in the select, SQLite sets up a row lookup per entry).
  const rowsOf = (ids: string) => `SELECT ${columns} FROM ${table} WHERE id IN (${ids}) ${sortBy}`;
  const offset = q.page * q.size;
  const index = sortIndex(db, table, column);
  const byIndex = index ? `INDEXED BY ${index}` : "";
  const domain = statement(
    db,
    `SELECT ${info.counter} AS rows, search_version AS version FROM domains WHERE id = ?`,
  ).get(domainId) as { rows: number; version: number } | undefined;
  const rowsInDomain = domain?.rows ?? 0;

  let total: number;
  let rows: Row[] = [];
  if (!q.search) {
    total = rowsInDomain;
    if (offset < total) {
      const seek = seekFor(db, table, column, dir, byIndex, domainId, domain?.version, offset);
      const sql = rowsOf(
        `SELECT id FROM ${table} ${byIndex} WHERE domain_id = ? ${seek ? `AND ${seek.condition}` : ""} ${order}`,
      );
      rows = readRows(db, sql, [domainId, ...(seek?.values ?? []), q.size, seek ? seek.skip : offset]);
    }
  } else {
    // The ids of the domain's matches, with the arguments of that query.
    const like = containsPattern(q.search);
    const trigram = info.trigramIndex && [...q.search].length >= MIN_TRIGRAM_SEARCH ? info.trigramIndex : null;
    const low = domainId * DOMAIN_SPAN;
    const narrow = info.searchIndex ? `INDEXED BY ${info.searchIndex}` : "";
    const matches = trigram
      ? {
          sql: `SELECT rowid - ? AS id FROM ${trigram} WHERE ${trigram} MATCH ? AND rowid BETWEEN ? AND ?`,
          args: [low, ftsPhrase(q.search), low, low + DOMAIN_SPAN - 1],
        }
      : {
          sql: `SELECT id FROM ${table} ${narrow} WHERE domain_id = ? AND search_key LIKE ? ESCAPE '\\'`,
          args: [domainId, like],
        };
    const key = (version: number | undefined) => `${table}:${domainId}:${version}:${q.search}`;
    const { totals } = perConnection(db);
    const counted = totals.get(key(domain?.version));
    /** The set of matches a page is read from: their ids as the count handed them over, or the query again. */
    let matched = matches;
    if (counted !== undefined) {
      total = counted;
    } else {
      // The version is read again with the count, in one statement, so the two describe the same commit.
      const fresh = statement(
        db,
        `SELECT (SELECT search_version FROM domains WHERE id = ?) AS version, n, ids FROM ` +
          `(SELECT count(*) AS n, CASE WHEN count(*) <= ? THEN json_group_array(id) END AS ids FROM (${matches.sql}))`,
      ).get(domainId, IDS_UP_TO, ...matches.args) as { version: number | null; n: number; ids: string | null };
      total = fresh.n;
      if (fresh.ids !== null) matched = { sql: `SELECT value FROM json_each(?)`, args: [fresh.ids] };
      if (!db.$client.inTransaction && fresh.version !== null)
        setBounded(totals, MAX_TOTALS, key(fresh.version), total);
    }
    if (offset < total) {
      const plan = force.plan ?? planFor(total, offset + q.size, rowsInDomain);
      const walkTest = force.walkTest ?? walkTestFor(total, offset + q.size, rowsInDomain);
      if (plan === "sortMatches") {
        rows = readRows(db, `SELECT ${columns} FROM ${table} WHERE id IN (${matched.sql}) ${order}`, [
          ...matched.args,
          q.size,
          offset,
        ]);
      } else if (trigram && !(column === "name" && narrow)) {
        // In orders other than name a walk tests the row's search key (reading the row) or, when long, the entry's
        // id against the matches: SQLite reads them into a set (and a Bloom filter) once and reads a row only for a
        // hit, so a walk that goes far (matches bunched at the end of the order) stays cheap.
        const walkIds = () =>
          readRows<Row>(
            db,
            rowsOf(`SELECT id FROM ${table} ${byIndex} WHERE domain_id = ? AND id IN (${matched.sql}) ${order}`),
            [domainId, ...matched.args, q.size, offset],
          );
        if (walkTest === "matchIds") {
          rows = walkIds();
        } else {
          // The expected length assumes the matches are spread over the order. Bunched at its end (a first name
          // within each capacity) they would make this walk read nearly every row, so it stops after twice the
          // expected entries (the LIMIT on the inner walk) and the ids are tested instead. The outer ORDER BY is
          // the inner one's, which SQLite sees and does not sort again (SQL keeps no order out of a subquery).
          const walkKeys = (budget: number) =>
            readRows<Row>(
              db,
              rowsOf(
                `SELECT id FROM (SELECT id, search_key, ${column}, name FROM ${table} ${byIndex} WHERE domain_id = ? ${sortBy} LIMIT ?) ` +
                  `WHERE search_key LIKE ? ESCAPE '\\' ${order}`,
              ),
              [domainId, budget, like, q.size, offset],
            );
          const wanted = Math.min(q.size, total - offset);
          const budget = force.walkBudget ?? Math.ceil((2 * (offset + q.size) * rowsInDomain) / total);
          rows = walkKeys(budget);
          if (rows.length < wanted) {
            // Matches only a little sparser than average here (most of the page found) are walked to again, with the
            // budget their rate asks for; few or none found means bunched matches, which the ids find at once.
            const found = rows.length > 0 ? offset + rows.length : 0;
            const asked = found > 0 ? Math.ceil((1.5 * (offset + q.size) * budget) / found) : Infinity;
            if (asked <= 2 * budget) rows = walkKeys(asked);
            if (rows.length < wanted) rows = walkIds();
          }
        }
      } else {
        // In name order the index holding the search key is walked, so the test reads the entry, not the row (a
        // tenth of the cost), and needs no set of the matches; a search too short for trigrams tests the row's key.
        const walked = column === "name" && info.searchIndex ? narrow : byIndex;
        rows = readRows(
          db,
          `SELECT ${columns} FROM ${table} ${walked} WHERE domain_id = ? AND search_key LIKE ? ESCAPE '\\' ${order}`,
          [domainId, like, q.size, offset],
        );
      }
    }
  }
  return { total, rows };
}
