import "server-only";
// Facts read from the database that may be reused while it is unchanged (credential lookups, domains by name, list
// totals). The dialect says whether the data may have changed (db/dialect.ts `changeStamp`: on SQLite PRAGMA
// data_version for other connections' commits and total_changes() for this connection's own writes; on
// PostgreSQL the change announcements heard since the listening connection came up, db/pg/change-listener.ts).
// Nothing is reused or kept inside a transaction: a write that is rolled back would leave the stamp moved but make
// a value read in between wrong.
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { setBounded } from "./bounded-map";

/** A stamp that differs whenever the database may have changed since it was taken; null: reuse nothing. */
export function dbGeneration(db: Db): string | null {
  return dialectOf(db).changeStamp(db);
}

/** A bounded map of values read from one database, emptied whenever that database changes. */
export class UntilChangedCache<V> {
  private readonly entries = new Map<string, V>();
  private generation: string | null = null;
  private db: Db | undefined;

  constructor(private readonly max: number) {}

  /** The value remembered for `key` while the database is unchanged, else `read()` (remembered when not undefined). */
  async get(db: Db, key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = dbGeneration(db);
    if (generation === null) return read();
    if (generation !== this.generation || db !== this.db) {
      this.entries.clear();
      this.generation = generation;
      this.db = db;
    }
    let value = this.entries.get(key);
    if (value === undefined) {
      value = await read();
      if (value === undefined) return value;
      // Kept only if nothing changed while it was read (another request may have written meanwhile).
      if (dbGeneration(db) === generation) setBounded(this.entries, this.max, key, value);
    }
    return value;
  }
}
