import "server-only";
// What list-page.ts keeps between requests, per database connection: prepared statements, which index serves
// which sort, and facts that hold until the database changes (db-generation.ts): the total of a search, and where
// deep pages start.
import type { Statement } from "better-sqlite3";
import type { Db } from "@/db/client";
import { UntilChangedCache } from "./db-generation";
import { prepared } from "./prepared";

type Stmt = Statement<unknown[]>;

/** A page mark: the sort key of the row at `offset` of one ordering of one domain's list. */
export interface PageMark {
  offset: number;
  key: unknown;
  name: string;
}

interface Cache {
  statements: Map<string, Stmt>;
  sortIndexes: Map<string, SortIndex | null>;
}
export const MAX_TOTALS = 500;
const MAX_MARKS_PER_ORDERING = 64;
const totals = new UntilChangedCache<CountedTotal>(MAX_TOTALS);
const marks = new UntilChangedCache<PageMark[]>(200);

const cacheOf = prepared((): Cache => ({ statements: new Map(), sortIndexes: new Map() }));

export function statement(db: Db, text: string): Stmt {
  const { statements } = cacheOf(db);
  let stmt = statements.get(text);
  if (!stmt) statements.set(text, (stmt = db.$client.prepare(text)));
  return stmt;
}

/** An index of a table that serves ORDER BY column, name within a domain. */
export interface SortIndex {
  name: string;
  /** It also holds search_key, so a walk can test the search on the index entry without reading the row. */
  covering: boolean;
}

/**
 * The index of `table` on (domain_id, column[, name], ...) that serves ORDER BY column, name; null when none. When
 * several do (the name order has the unique index and the covering one), a search takes the covering one and a
 * plain page the narrowest.
 */
export function sortIndex(db: Db, table: string, column: string, searching: boolean): SortIndex | null {
  const { sortIndexes } = cacheOf(db);
  const key = `${table}:${column}:${searching}`;
  let found = sortIndexes.get(key);
  if (found === undefined) {
    const wanted = column === "name" ? ["domain_id", "name"] : ["domain_id", column, "name"];
    const indexes = db.$client.prepare(`SELECT name FROM pragma_index_list(?)`).all(table) as { name: string }[];
    const candidates = indexes
      .map(({ name }) => ({
        name,
        columns: (db.$client.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(name) as {
          name: string;
        }[]).map((c) => c.name),
      }))
      .filter(({ columns }) => wanted.every((w, i) => columns[i] === w))
      .map(({ name, columns }) => ({ name, width: columns.length, covering: columns.includes("search_key") }))
      .sort((a, b) => (searching ? Number(b.covering) - Number(a.covering) : 0) || a.width - b.width);
    found = candidates[0] ? { name: candidates[0].name, covering: candidates[0].covering } : null;
    sortIndexes.set(key, found);
  }
  return found;
}

/** A total, and how long counting it took (what reading the same matches again costs, for choosing a plan). */
export interface CountedTotal {
  n: number;
  ms: number;
}

/** Remembers a total until the database changes. */
export function cachedTotal(db: Db, key: string, count: () => number): CountedTotal {
  return totals.get(db, key, () => {
    const started = performance.now();
    const n = count();
    return { n, ms: performance.now() - started };
  })!;
}

/** The nearest remembered mark at or before `offset` of an ordering, while the database is unchanged. */
export function markBefore(db: Db, ordering: string, offset: number): PageMark | undefined {
  let best: PageMark | undefined;
  for (const mark of marks.get(db, ordering, () => undefined) ?? []) {
    if (mark.offset <= offset && (!best || mark.offset > best.offset)) best = mark;
  }
  return best;
}

/** Remembers where the row at `mark.offset` of an ordering is, until the database changes. */
export function rememberMark(db: Db, ordering: string, mark: PageMark) {
  const list = marks.get(db, ordering, () => [])!;
  if (list.some((m) => m.offset === mark.offset)) return;
  if (list.length >= MAX_MARKS_PER_ORDERING) list.shift();
  list.push(mark);
}
