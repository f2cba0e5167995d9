// The one way to write, on either engine: `withTransaction(db, async (tx) => ...)`, and `lockDomain(tx, id)` first
// in every write that checks a domain's limit, its capacity sum or its namespace, so that the rule holds when
// several processes or hosts write at once (docs/architecture.md, "Transactions").
import type { Db } from "./client";
import { dialectOf } from "./dialect";

/** Runs `fn` in a transaction on `db` (a savepoint inside another); every statement of the write uses `tx`. */
export function withTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return dialectOf(db).transaction(db, fn);
}

/**
 * Takes the domain's write lock until the transaction ends. PostgreSQL: SELECT ... FOR UPDATE on its row, so two
 * writes to one domain at READ COMMITTED check its counters one after the other. SQLite: nothing (the write
 * connection's BEGIN IMMEDIATE already serialises all writes).
 */
export function lockDomain(tx: Db, domainId: number): Promise<void> {
  return dialectOf(tx).lockDomain(tx, domainId);
}

/**
 * Takes, until the transaction ends, the one lock shared by the writes that make a catchall point into another domain
 * and by domain removals, before any domain's lock: a removal then sees every catchall into the domain it removes,
 * and a catchall set meanwhile finds the domain gone. PostgreSQL: an advisory lock; SQLite: nothing (writes are serial).
 */
export function lockCatchallTargets(tx: Db): Promise<void> {
  return dialectOf(tx).lockCatchallTargets(tx);
}

/** How many rows a drizzle insert, update or delete without RETURNING on `db` changed. */
export function changedRows(db: Db, result: unknown): number {
  return dialectOf(db).changedRows(result);
}

/** `query` with FOR UPDATE on PostgreSQL (its rows locked until the transaction ends); unchanged on SQLite. */
export function forUpdate<Q>(db: Db, query: Q): Q {
  return dialectOf(db).forUpdate(query);
}
