// What differs between the two engines, behind one interface: each engine implements it once (db/sqlite/dialect.ts,
// db/pg/dialect.ts) and the services call it through `dialectOf(db)` instead of testing which engine they run on.
import type { SQL, SQLWrapper } from "drizzle-orm";
import type { PageQuery } from "../lib/schemas/page-query";
import type { SqliteDb } from "./sqlite/connection";

/**
 * The handle every service receives. Typed as the SQLite drizzle instance; on PostgreSQL it is the node-postgres
 * one, and services use only what both share (docs/architecture.md, "Services are async").
 */
export type Db = SqliteDb;

/** A list kind (accounts, aliases, mailing lists) as lib/server/resources/page.ts describes it. */
export interface PageSpec<Row> {
  table: string;
  /** The summary columns to select: plain column names, comma-separated. */
  columns: string;
  /** Sortable API field -> SQL column. */
  sortColumns: Record<string, string>;
  toItem: (row: Row) => unknown;
}

/** How a searched page is read on SQLite: the matching rows sorted, or the sort index walked in order. */
export type PagePlan = "sortMatches" | "walkIndex";
/** How a walk in an order other than name tests an entry: the row's search key, or its id among the matches. */
export type WalkTest = "searchKey" | "matchIds";
/** Tests force a plan or a walk's test, to check each against the definition (SQLite; ignored elsewhere). */
export interface ForcedPlan {
  plan?: PagePlan;
  walkTest?: WalkTest;
  /** How many entries a search-key walk in an order other than name may pass before ids are tested instead. */
  walkBudget?: number;
}

/** A statement prepared once on a connection; its `sql.placeholder`s are filled from `values` on each call. */
export interface RawStatement {
  /** The rows, each an array of its column values (no object per row: a 50,000-member list is read whole). */
  rows(values: Record<string, unknown>): Promise<unknown[][]>;
  /** Runs it; returns how many rows it changed. */
  run(values: Record<string, unknown>): Promise<number>;
}

export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** Runs `fn` in a transaction (a savepoint when `db` is already a transaction); commits or rolls back. */
  transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Serialises writes to one domain: its row is locked until the transaction ends (a no-op where writes are serial). */
  lockDomain(tx: Db, domainId: number): Promise<void>;
  /** Serialises the writes that point a catchall into another domain with domain removals (a no-op where writes are serial). */
  lockCatchallTargets(tx: Db): Promise<void>;
  /** A stamp that differs whenever the data may have changed since it was taken; null: do not reuse anything. */
  changeStamp(db: Db): string | null;
  /** `statements` (built once per connection by lib/server/store/prepared.ts) made prepared statements of the server. */
  keepPrepared<T>(statements: T): T;
  /**
   * A transaction's statements taken from those of the handle it was opened from (`of(thatHandle)`), bound to the
   * transaction's connection; null where the transaction's handle builds its own (SQLite's is one object, built once).
   */
  statementsFrom<T>(tx: Db, of: (db: Db) => T): T | null;
  /** `query` with its rows locked until the transaction ends (FOR UPDATE); unchanged where writes are serial. */
  forUpdate<Q>(query: Q): Q;
  /** How many rows a drizzle insert, update or delete without RETURNING changed (`result` is what it answered). */
  changedRows(result: unknown): number;
  /** An ORDER BY term on sessions that breaks ties in created_at by insertion order, or a stable stand-in for it. */
  readonly sessionInsertionOrder: SQL;
  /** `query` prepared on `db`'s connection (lib/server/store/prepared.ts keeps one per connection). */
  prepareRaw(db: Db, query: SQL): RawStatement;
  /**
   * The rows `(value, key)` of a JSON array of strings given as one parameter (`key` counts from 0): a statement
   * that inserts or deletes thousands of rows in one round trip.
   */
  jsonArrayRows(json: SQLWrapper): SQL;
  /** The rows of a raw query, as objects keyed by column name. */
  all<T>(db: Db, query: SQL): Promise<T[]>;
  /** Runs a raw statement; returns how many rows it changed. */
  run(db: Db, query: SQL): Promise<number>;
  /** `db optimize`: the search index merged, the planner's statistics refreshed. */
  optimize(db: Db): Promise<void>;
  /** The planner's statistics of `table` made current (before a statement whose plan depends on them). */
  analyze(db: Db, table: string): Promise<void>;
  /** One page of a domain's list (contract §6) and the total matching: the search, the sort and the plan. */
  pageRows<Row>(
    db: Db,
    spec: PageSpec<Row>,
    domainId: number,
    q: PageQuery,
    force?: ForcedPlan,
  ): Promise<{ total: number; rows: Row[] }>;
}

const DIALECT = Symbol.for("mail-admin.dialect");

/** Marks a connection (or a transaction) with its engine's dialect. */
export function setDialect<T extends object>(db: T, dialect: Dialect): T {
  (db as { [DIALECT]?: Dialect })[DIALECT] = dialect;
  return db;
}

/** The dialect of a connection opened by db/client.ts (or a transaction it handed out). */
export function dialectOf(db: Db): Dialect {
  const dialect = (db as { [DIALECT]?: Dialect })[DIALECT];
  if (!dialect) throw new Error("database handle not opened through db/client.ts");
  return dialect;
}
