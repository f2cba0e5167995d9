import "server-only";
// What list-page.ts keeps between requests, per database connection: prepared statements, which index serves
// which sort, and facts that hold until the database changes (db-generation.ts): the total of a search, and where
// deep pages start.
import type { Statement } from "better-sqlite3";
import type { Db } from "@/db/client";
import { dbGeneration } from "./db-generation";

type Stmt = Statement<unknown[]>;

/** A page mark: the sort key of the row at `offset` of one ordering of one domain's list. */
export interface PageMark {
  offset: number;
  key: unknown;
  name: string;
}

interface Cache {
  statements: Map<string, Stmt>;
  sortIndexes: Map<string, string | null>;
  totals: Map<string, CountedTotal>;
  marks: Map<string, PageMark[]>;
  generation: string;
}
const caches = new WeakMap<Db, Cache>();
export const MAX_TOTALS = 500;
const MAX_MARKED_ORDERINGS = 200;
const MAX_MARKS_PER_ORDERING = 64;

function cacheOf(db: Db): Cache {
  let c = caches.get(db);
  if (!c) {
    c = { statements: new Map(), sortIndexes: new Map(), totals: new Map(), marks: new Map(), generation: "" };
    caches.set(db, c);
  }
  return c;
}

/** The cache, emptied of what a change to the database may have made wrong (and of everything inside a transaction). */
function freshCache(db: Db): Cache {
  const cache = cacheOf(db);
  const generation = dbGeneration(db);
  if (generation === null || generation !== cache.generation) {
    cache.totals.clear();
    cache.marks.clear();
    cache.generation = generation ?? "";
  }
  return cache;
}

/** Inserts into a bounded map, dropping the oldest entry when full. */
function remember<V>(map: Map<string, V>, max: number, key: string, value: V) {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

export function statement(db: Db, text: string): Stmt {
  const { statements } = cacheOf(db);
  let stmt = statements.get(text);
  if (!stmt) statements.set(text, (stmt = db.$client.prepare(text)));
  return stmt;
}

/** The index of `table` on (domain_id, column[, name]) that serves ORDER BY column, name; null when none. */
export function sortIndex(db: Db, table: string, column: string): string | null {
  const { sortIndexes } = cacheOf(db);
  const key = `${table}:${column}`;
  let name = sortIndexes.get(key);
  if (name === undefined) {
    const wanted = column === "name" ? ["domain_id", "name"] : ["domain_id", column, "name"];
    const indexes = db.$client.prepare(`SELECT name FROM pragma_index_list(?)`).all(table) as { name: string }[];
    name =
      indexes.find(({ name: idx }) => {
        const cols = (db.$client.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(idx) as {
          name: string;
        }[]).map((c) => c.name);
        return wanted.every((w, i) => cols[i] === w);
      })?.name ?? null;
    sortIndexes.set(key, name);
  }
  return name;
}

/** A total, and how long counting it took (what reading the same matches again costs, for choosing a plan). */
export interface CountedTotal {
  n: number;
  ms: number;
}

/** Remembers a total until the database changes. */
export function cachedTotal(db: Db, key: string, count: () => number): CountedTotal {
  const cache = freshCache(db);
  let total = cache.totals.get(key);
  if (total === undefined) {
    const started = performance.now();
    const n = count();
    remember(cache.totals, MAX_TOTALS, key, (total = { n, ms: performance.now() - started }));
  }
  return total;
}

/** The nearest remembered mark at or before `offset` of an ordering, while the database is unchanged. */
export function markBefore(db: Db, ordering: string, offset: number): PageMark | undefined {
  let best: PageMark | undefined;
  for (const mark of freshCache(db).marks.get(ordering) ?? []) {
    if (mark.offset <= offset && (!best || mark.offset > best.offset)) best = mark;
  }
  return best;
}

/** Remembers where the row at `mark.offset` of an ordering is (called after reading a page, so no staleness check). */
export function rememberMark(db: Db, ordering: string, mark: PageMark) {
  const { marks } = cacheOf(db);
  const list = marks.get(ordering) ?? [];
  if (list.some((m) => m.offset === mark.offset)) return;
  if (list.length >= MAX_MARKS_PER_ORDERING) list.shift();
  list.push(mark);
  remember(marks, MAX_MARKED_ORDERINGS, ordering, list);
}
